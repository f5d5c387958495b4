/* server.cpp — the server's core, the part of Redis's server.c that the
 * layers below the top need: the global `server`, the cached time, the
 * command lookup, call() and the propagation of writes, the listening
 * sockets and the file limit, the statistics, and the commands about the
 * server itself (PING, ECHO, TIME, and CONFIG's replies); and the
 * messages to systemd of a server it supervises (redisCommunicateSystemd).
 *
 * Redis's server.c also holds serverLog (here log.cpp), the command table's
 * indexing and COMMAND (commands.cpp, beside the table), and start-up,
 * serverCron, beforeSleep, processCommand, SHUTDOWN and INFO. They call the mechanisms above this
 * layer (persistence, transactions, blocking, scripting), so here they are
 * in server_main.cpp, the top layer (tools/check_layers.sh). call() is
 * where a write is propagated to the AOF and the replicas, one execution
 * unit at a time (aof.h, replication.h), through the hooks installServerHooks
 * fills (registerFeedAppendOnlyFile, registerReplicationFeed).
 * Invariants:
 *  - server.unixtime / mstime / ustime are refreshed once per iteration and
 *    per command; code that needs "now" reads them instead of the clock.
 */
#include "server.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdarg>
#include <cstddef>
#include <cstring>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "anet.h"
#include "config.h"
#include "latency.h"
#include "lazyfree.h"
#include "setproctitle.h"
#include "slowlog.h"
#include "livetrace.h"
#include "tracking.h"
#include "util.h"

redisServer server;
/* The layers below server.h see their part of it (log.h, connection.h,
 * networking.h), and so does bio.cpp (bio.h). */
constinit redisServerLog &logging::server = ::server;
constinit redisServerBio &bio::server = ::server;
constinit redisServerConnection &connections::server = ::server;
constinit redisServerNetworking &networking::server = ::server;

/* ========================================================================
 * Time and logging
 * ====================================================================== */

long long ustime() {
    timeval tv;
    gettimeofday(&tv, nullptr);
    return static_cast<long long>(tv.tv_sec) * 1000000 + tv.tv_usec;
}

long long mstime() { return ustime() / 1000; }

void updateCachedTime() {
    server.ustime = ustime();
    server.mstime = server.ustime / 1000;
    server.unixtime = static_cast<time_t>(server.mstime / 1000);
}

/* ========================================================================
 * The command table
 * ====================================================================== */

static redisCommand *lookupIn(const commandDict &dict, std::string_view name) {
    auto it = dict.find(name);
    return it == dict.end() ? nullptr : it->second;
}

redisCommand *lookupCommandByName(std::string_view name) { return lookupIn(server.commands, name); }

/* Finds "get" or "config|get" for COMMAND INFO / DOCS arguments. */
redisCommand *lookupCommandBySdsFullname(std::string_view name) {
    size_t bar = name.find('|');
    redisCommand *base = lookupCommandByName(name.substr(0, bar));
    if (!base || bar == std::string_view::npos) return base;
    return lookupIn(base->subcommands_dict, name.substr(bar + 1));
}

redisCommand *lookupCommand(std::span<const std::string_view> argv) {
    redisCommand *base = lookupIn(server.commands, argv[0]);
    if (!base || argv.size() == 1 || base->subcommands.empty()) return base;
    return lookupIn(base->subcommands_dict, argv[1]);
}

/* enable-debug-command "local" admits loopback and unix socket connections only. */
bool allowProtectedAction(int config, const client *c) {
    if (config == PROTECTED_ACTION_ALLOWED_YES) return true;
    if (config != PROTECTED_ACTION_ALLOWED_LOCAL) return false;
    return islocalClient(c) || !c->conn;
}

/* ========================================================================
 * Propagation: what a command did, as commands for the AOF and the
 * replicas (Redis 7's design). Ops are serialized as soon as they are
 * known into server.also_propagate_buf, each with its db and targets; the
 * outermost call() — the execution unit: a command, EXEC with its queued
 * commands, a script with its redis.call()s — hands them over at its end,
 * so a unit reaches each target whole, in MULTI/EXEC when it holds several
 * ops for it. With neither the AOF nor a backlog nothing is serialized:
 * call() pays a few comparisons (the targets, an open unit, WAIT's offset).
 * ====================================================================== */

static constexpr std::string_view kMulti = "*1\r\n$5\r\nMULTI\r\n", kExec = "*1\r\n$4\r\nEXEC\r\n";

static propagationTargetProc aof_feed = nullptr;  /* aof.cpp's feedAppendOnlyFile */
static propagationTargetProc repl_feed = nullptr; /* replication_master.cpp's replicationFeedSlaves */

void registerFeedAppendOnlyFile(propagationTargetProc feed) {
    aof_feed = feed;
}

void registerReplicationFeed(propagationTargetProc feed) {
    repl_feed = feed;
}

void catExecutionUnit(std::string &dst, int target, int &seldb) {
    int ops = 0;
    for (const redisOp &op : server.also_propagate) ops += (op.target & target) != 0;
    if (!ops) return;
    bool first = true;
    for (const redisOp &op : server.also_propagate) {
        if (!(op.target & target)) continue;
        if (op.dbid != seldb) {
            catSelectCommand(dst, op.dbid);
            seldb = op.dbid;
        }
        if (first && ops > 1) dst.append(kMulti);
        first = false;
        dst.append(server.also_propagate_buf, op.start, op.end - op.start);
    }
    if (ops > 1) dst.append(kExec);
}

void propagatePendingCommands() {
    if (server.also_propagate.empty()) return;
    if (aof_feed) aof_feed();
    if (repl_feed) repl_feed();
    server.also_propagate.clear();
    server.also_propagate_buf.clear();
}

/* Queues a write besides (or instead of) the command itself: a served
 * BLPOP is written as LPOP, an expired key as DEL. Outside any command
 * (serverCron, a served blocked client) the op is a unit of its own. */
void alsoPropagate(int dbid, std::span<const std::string_view> argv, int target) {
    target &= propagationTargets();
    if (!target) return;
    size_t start = server.also_propagate_buf.size();
    catAppendOnlyGenericCommand(server.also_propagate_buf, argv);
    server.also_propagate.push_back({dbid, target, start, server.also_propagate_buf.size()});
    if (server.execution_nesting == 0) propagatePendingCommands();
}

void alsoPropagate(int dbid, std::initializer_list<std::string_view> argv) {
    alsoPropagate(dbid, std::span(argv.begin(), argv.size()));
}

/* The command's own argv is not propagated (EVAL: its effects are). */
void preventCommandPropagation(client *c) { c->flags |= CLIENT_PREVENT_PROP; }

/* Propagated although server.dirty did not move: FLUSHALL on an empty
 * server must still empty a replayed one. */
void forceCommandPropagation(client *c, int target) {
    if (target & PROPAGATE_AOF) c->flags |= CLIENT_FORCE_AOF;
    if (target & PROPAGATE_REPL) c->flags |= CLIENT_FORCE_REPL;
}

void rewriteClientCommandVector(client *c, std::span<const std::string_view> argv) {
    if (!propagationTargets()) return;
    retainOriginalCommandVector(c); /* the slow log shows what the client sent */
    /* Built aside first: the new arguments may be views of the old ones. */
    std::string bytes;
    for (std::string_view arg : argv) bytes.append(arg);
    c->argv_rewritten.swap(bytes);
    const char *p = c->argv_rewritten.data();
    std::vector<std::string_view> views;
    views.reserve(argv.size());
    for (std::string_view arg : argv) {
        views.emplace_back(p, arg.size());
        p += arg.size();
    }
    c->argv.swap(views);
    /* MONITOR shows what the client sent: the first argv, whose views (into
     * the query buffer or MULTI's queue) live as long as the command. */
    if (c->original_argv.empty()) c->original_argv.swap(views);
}

void rewriteClientCommandVector(client *c, std::initializer_list<std::string_view> argv) {
    rewriteClientCommandVector(c, std::span(argv.begin(), argv.size()));
}

/* One helper for both, because a blocking pop's code is shared by the
 * command popping at once and the serving of it blocked (BLMPOP both ways
 * pops through listPopWithKeyAndReply); Redis 7.0 has its serving code call
 * alsoPropagate itself. */
void rewriteOrAlsoPropagate(client *c, std::span<const std::string_view> argv) {
    if (server.execution_nesting == 0) alsoPropagate(c->db->id, argv);
    else rewriteClientCommandVector(c, argv);
}

/* argv[i] becomes `arg` (i == argc appends it). */
void rewriteClientCommandArgument(client *c, size_t i, std::string_view arg) {
    if (!propagationTargets()) return;
    std::vector<std::string_view> argv = c->argv;
    if (i == argv.size()) argv.push_back(arg);
    else argv[i] = arg;
    rewriteClientCommandVector(c, argv);
}

/* After the command ran: its argv joins the unit, for the targets the
 * caller lets it reach (EXEC, whose commands went one by one, prevents its
 * own), if it changed the dataset or was forced; the outermost call closes
 * the unit. As in Redis, call_flags rule only over the argv: what the
 * command itself alsoPropagate()d (SPOP's SREMs) is propagated even from
 * a script whose set_repl() excludes it. */
static void propagateCommand(client *c, long long dirty, int call_flags) {
    int target = PROPAGATE_NONE;
    if ((call_flags & CMD_CALL_PROPAGATE_AOF) && !(c->flags & CLIENT_PREVENT_AOF_PROP) &&
        (dirty > 0 || (c->flags & CLIENT_FORCE_AOF)))
        target |= PROPAGATE_AOF;
    if ((call_flags & CMD_CALL_PROPAGATE_REPL) && !(c->flags & CLIENT_PREVENT_REPL_PROP) &&
        (dirty > 0 || (c->flags & CLIENT_FORCE_REPL)))
        target |= PROPAGATE_REPL;
    if (target) alsoPropagate(c->db->id, c->argv, target);
    if (server.execution_nesting == 0) propagatePendingCommands();
}

/* Calls the command's implementation and accounts for it. EXEC calls it
 * again for each queued command: the cached time only moves after the
 * outermost call (Redis's fixed_time_expire), so no key expires halfway
 * through a transaction; and a command counts as failed only for errors
 * after its last nested call, so a queued command's error is not EXEC's. */
/* The first arguments of a request, for the trace: a few, each cut short,
 * unprintable bytes as '.', so a line stays a line. */
std::string traceCommandArgs(const client *c) {
    constexpr size_t kMaxArgs = 4, kMaxArgLen = 32;
    std::string out;
    size_t first = c->cmd && c->cmd->parent ? 2 : 1;
    for (size_t j = first; j < c->argv.size() && j < first + kMaxArgs; j++) {
        if (!out.empty()) out += ' ';
        std::string_view a = c->argv[j].substr(0, kMaxArgLen);
        for (char ch : a) out += (ch >= 32 && ch < 127) ? ch : '.';
        if (c->argv[j].size() > kMaxArgLen) out += "...";
    }
    if (c->argv.size() > first + kMaxArgs) out += " ...(+" + std::to_string(c->argv.size() - first - kMaxArgs) + ")";
    return out;
}

/* One command as the trace shows it: who, what, how long, and how it ended. */
static void traceCall(const client *c, const redisCommand *cmd, monotime start, bool failed) {
    traceEvent ev(TRACE_CMD, "call");
    ev.since(start).client(c->id).str("cmd", cmd->fullname).str("args", traceCommandArgs(c));
    if (c->flags & CLIENT_BLOCKED)
        ev.str("outcome", "blocked");
    else if (failed)
        ev.str("outcome", "error").str("error", lastErrorReply());
    else
        ev.str("outcome", "replied");
    ev.emit();
}

bool incrCommandStatsOnError(redisCommand *cmd, int flags) {
    static long long prev_err_count = 0; /* errors already attributed to a command */
    bool counted = false;
    if (cmd && server.stat_total_error_replies != prev_err_count) {
        if (flags & ERROR_COMMAND_REJECTED) {
            cmd->rejected_calls++;
            counted = true;
        } else if (flags & ERROR_COMMAND_FAILED) {
            cmd->failed_calls++;
            counted = true;
        }
    }
    prev_err_count = server.stat_total_error_replies;
    return counted;
}

/* Redis's CMD_CALL_SLOWLOG and CMD_CALL_STATS: what replays the AOF (the
 * AOF client's transactions, scripts while loading) stays out of the
 * latency monitor, the slow log and the latency histograms. */
static bool callIsObserved(const client *c) {
    return c->id != CLIENT_ID_AOF && !(server.loading && (c->flags & CLIENT_SCRIPT));
}

void call(client *c, int call_flags) {
    const bool traced = traceOn(TRACE_CMD) && !(c->flags & CLIENT_TRACE_READER);
    const monotime trace_start = traced ? traceNow() : 0;
    redisCommand *real = c->cmd;
    incrCommandStatsOnError(nullptr, 0);
    /* The propagation flags are the command's own: a nested call (EXEC's
     * commands run on the same client) saves and restores the outer one's. */
    constexpr uint64_t prop_flags = CLIENT_PREVENT_PROP | CLIENT_FORCE_AOF | CLIENT_FORCE_REPL;
    uint64_t saved_prop_flags = c->flags & prop_flags;
    c->flags &= ~prop_flags;
    long long dirty = server.dirty, old_master_repl_offset = server.master_repl_offset;
    long long start = ustime();
    server.execution_nesting++;
    c->cmd->proc(c);
    server.execution_nesting--;
    long long duration = ustime() - start;
    c->duration = duration;
    if (server.execution_nesting == 0) {
        server.ustime = start + duration;
        server.mstime = server.ustime / 1000;
        server.unixtime = static_cast<time_t>(server.mstime / 1000);
    }
    /* A unit whose targets went away meanwhile (CONFIG SET appendonly no
     * in EXEC) is still closed: a target that stopped drops its ops. */
    if (propagationTargets() || !server.also_propagate.empty()) propagateCommand(c, server.dirty - dirty, call_flags);
    /* What WAIT waits for: the stream as far as this client's last write. */
    if (server.master_repl_offset != old_master_repl_offset) c->woff = server.master_repl_offset;
    c->flags = (c->flags & ~prop_flags) | saved_prop_flags;
    /* An error it replied makes it a failed call; not one a command it
     * called replied (EXEC's, a script's: theirs), nor its own relay of
     * such an error (ERR_REPLY_FLAG_NO_STATS_UPDATE counts that). */
    const bool failed = incrCommandStatsOnError(real, ERROR_COMMAND_FAILED);
    real->microseconds += duration;
    real->calls++;
    /* What operators see of it: the latency monitor, the slow log, the
     * command's latency histogram, MONITOR, and the keys a client-side
     * cache now holds. A blocked command enters the slow log and its
     * histogram when it is served (updateStatsOnUnblock). */
    const bool observed = callIsObserved(c), blocked = c->flags & CLIENT_BLOCKED;
    if (observed) latencyAddSampleIfNeeded((real->flags & CMD_FAST) ? "fast-command" : "command", duration / 1000);
    if (observed && !blocked) slowlogPushCurrentCommand(c, real, duration);
    if (observed && !blocked && server.latency_tracking_enabled) updateCommandLatencyHistogram(real, duration * 1000);
    /* Admin commands are too dangerous to be shown (Redis's words). */
    if (!server.monitors.empty() && !(real->flags & (CMD_SKIP_MONITOR | CMD_ADMIN)))
        replicationFeedMonitors(c, c->db->id, c->original_argv.empty() ? c->argv : c->original_argv);
    if (blocked) keepOriginalArgvWhileBlocked(c);
    else freeClientOriginalArgv(c);
    /* A script's reads are its caller's (the current client): each
     * remembers the keys the script declared. EVAL_RO, EVALSHA_RO and
     * FCALL_RO (the read-only commands a script may not call) leave it to
     * those reads. */
    if ((real->flags & CMD_READONLY) && !(real->flags & CMD_NOSCRIPT)) {
        client *caller = (c->flags & CLIENT_SCRIPT) && server.current_client ? server.current_client : c;
        if ((caller->flags & (CLIENT_TRACKING | CLIENT_TRACKING_BCAST)) == CLIENT_TRACKING) trackingRememberKeys(caller);
    }
    if (traced) traceCall(c, real, trace_start, failed);
    server.stat_numcommands++;
    /* After the whole reply (EXEC's included): the client's own invalidations. */
    if (server.execution_nesting == 0) trackingHandlePendingKeyInvalidations();
}

/* ========================================================================
 * Listening sockets and the file limit: initServer (server_main.cpp) sets
 * them up, CONFIG SET port / bind / maxclients changes them
 * ====================================================================== */

/* Raises RLIMIT_NOFILE to fit maxclients plus the server's own descriptors;
 * if the system refuses, lowers maxclients to what fits, as Redis does. */
void adjustOpenFilesLimit() {
    rlim_t maxfiles = server.maxclients + CONFIG_MIN_RESERVED_FDS;
    rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == -1) {
        serverLog(LL_WARNING, "Unable to obtain the current NOFILE limit (%s), assuming 1024 and setting the max clients configuration accordingly.", strerror(errno));
        server.maxclients = 1024 - CONFIG_MIN_RESERVED_FDS;
        return;
    }
    rlim_t oldlimit = limit.rlim_cur;
    if (oldlimit >= maxfiles) return;
    rlim_t bestlimit = maxfiles;
    int setrlimit_error = 0;
    while (bestlimit > oldlimit) {
        limit.rlim_cur = limit.rlim_max = bestlimit;
        if (setrlimit(RLIMIT_NOFILE, &limit) != -1) break;
        setrlimit_error = errno;
        bestlimit = bestlimit > 16 ? bestlimit - 16 : oldlimit;
    }
    if (bestlimit < oldlimit) bestlimit = oldlimit;
    if (bestlimit < maxfiles) {
        unsigned int old_maxclients = server.maxclients;
        server.maxclients = bestlimit > CONFIG_MIN_RESERVED_FDS ? bestlimit - CONFIG_MIN_RESERVED_FDS : 1;
        serverLog(LL_WARNING, "You requested maxclients of %u requiring at least %llu max file descriptors.",
                  old_maxclients, static_cast<unsigned long long>(maxfiles));
        serverLog(LL_WARNING, "Server can't set maximum open files to %llu because of OS error: %s.",
                  static_cast<unsigned long long>(maxfiles), strerror(setrlimit_error));
        serverLog(LL_WARNING, "Current maximum open files is %llu. maxclients has been reduced to %u to compensate for low ulimit. If you need higher maxclients increase 'ulimit -n'.",
                  static_cast<unsigned long long>(bestlimit), server.maxclients);
    } else {
        serverLog(LL_NOTICE, "Increased maximum number of open files to %llu (it was originally set to %llu).",
                  static_cast<unsigned long long>(maxfiles), static_cast<unsigned long long>(oldlimit));
    }
}

/* CONFIG SET maxclients: raise the file limit and grow the event loop to
 * fit, or refuse with the number the system can take. */
bool updateMaxclients(const char **err) {
    if (!server.el) return true; /* not started yet: initServer sizes everything */
    unsigned int wanted = server.maxclients;
    adjustOpenFilesLimit();
    if (server.maxclients != wanted) {
        static char msg[128];
        snprintf(msg, sizeof(msg),
                 "The operating system is not able to handle the specified number of clients, try with %u",
                 server.maxclients);
        *err = msg;
        return false;
    }
    int setsize = static_cast<int>(server.maxclients) + CONFIG_FDSET_INCR;
    if (aeGetSetSize(server.el.get()) < setsize && aeResizeSetSize(server.el.get(), setsize) == AE_ERR) {
        *err = "The event loop API used by Redis is not able to handle the specified number of clients";
        return false;
    }
    return true;
}

/* Closes listening sockets and forgets their accept events. */
static void closeSocketListeners(std::vector<int> &fds) {
    for (int fd : fds) {
        aeDeleteFileEvent(server.el.get(), fd, AE_READABLE);
        close(fd);
    }
    fds.clear();
}

void closeListeningSockets(bool unlink_unix_socket) {
    for (int fd : server.ipfd) close(fd);
    server.ipfd.clear();
    for (int fd : server.tlsfd) close(fd);
    server.tlsfd.clear();
    if (server.sofd != -1) close(server.sofd);
    server.sofd = -1;
    if (unlink_unix_socket && !server.unixsocket.empty()) {
        serverLog(LL_NOTICE, "Removing the unix socket file.");
        if (unlink(server.unixsocket.c_str()) != 0)
            serverLog(LL_WARNING, "Error removing the unix socket file: %s", strerror(errno));
    }
}

/* Binds every `bind` address on `port` into `fds`; no address means no TCP
 * socket at all. An address written "-addr" is skipped when the system does
 * not have it (e.g. no IPv6). On C_ERR nothing stays open. */
int listenToPort(int port, std::vector<int> &fds) {
    for (const std::string &entry : server.bindaddr) {
        bool optional = !entry.empty() && entry[0] == '-';
        std::string addr = optional ? entry.substr(1) : entry;
        std::string err;
        int fd = anetTcpServer(err, port, addr, server.tcp_backlog);
        if (fd == ANET_ERR) {
            if (optional && (errno == EADDRNOTAVAIL || errno == EAFNOSUPPORT || errno == EPROTONOSUPPORT ||
                             errno == ESOCKTNOSUPPORT || errno == EINVAL || errno == ENOENT))
                continue;
            serverLog(LL_WARNING, "Warning: Could not create server TCP listening socket %s:%d: %s",
                      addr.c_str(), port, err.c_str());
            closeSocketListeners(fds);
            return C_ERR;
        }
        fcntl(fd, F_SETFD, FD_CLOEXEC);
        fds.push_back(fd);
    }
    return C_OK;
}

/* Accepts on every listener, or on none. */
int createSocketAcceptHandler(const std::vector<int> &fds, aeFileProc accept_handler) {
    for (size_t j = 0; j < fds.size(); j++) {
        if (aeCreateFileEvent(server.el.get(), fds[j], AE_READABLE, accept_handler, nullptr) == AE_ERR) {
            while (j--) aeDeleteFileEvent(server.el.get(), fds[j], AE_READABLE);
            return C_ERR;
        }
    }
    return C_OK;
}

/* CONFIG SET port: as Redis, the old listeners close first and the new port
 * is bound; on C_ERR CONFIG SET restores the old port and calls this again,
 * which binds it back. Port 0 closes TCP. */
int changeListenPort(int port, std::vector<int> &fds, aeFileProc accept_handler) {
    closeSocketListeners(fds);
    if (port == 0) return C_OK;
    std::vector<int> newfds;
    if (listenToPort(port, newfds) != C_OK) return C_ERR;
    if (createSocketAcceptHandler(newfds, accept_handler) != C_OK) {
        closeSocketListeners(newfds);
        return C_ERR;
    }
    fds = std::move(newfds);
    return C_OK;
}

bool tlsRequiresCA() {
    return server.tls_auth_clients != TLS_CLIENT_AUTH_NO || server.tls_replication || server.tls_cluster;
}

/* Closes `fds` and binds `port` again (none if 0) on the current `bind`
 * addresses; as Redis, a listener bound but not watched is fatal. */
static int rebindListeners(int port, std::vector<int> &fds, aeFileProc accept_handler, const char *kind) {
    closeSocketListeners(fds);
    if (port != 0 && listenToPort(port, fds) != C_OK) {
        serverLog(LL_WARNING, "Failed to bind");
        return C_ERR;
    }
    if (createSocketAcceptHandler(fds, accept_handler) != C_OK) {
        serverLog(LL_WARNING, "Unrecoverable error creating %s socket accept handler.", kind);
        abort();
    }
    return C_OK;
}

/* CONFIG SET bind: the same on the current ports with the new addresses. */
int changeBindAddr() {
    if (rebindListeners(server.port, server.ipfd, acceptTcpHandler, "TCP") != C_OK) return C_ERR;
    return rebindListeners(server.tls_port, server.tlsfd, acceptTLSHandler, "TLS");
}

/* ========================================================================
 * Telling systemd (supervised systemd)
 * ====================================================================== */

/* libsystemd's sd_notify(0, state), without libsystemd: the protocol is a
 * datagram holding `state` sent to the AF_UNIX socket whose name is in
 * $NOTIFY_SOCKET, a path ("/run/systemd/notify") or, with a leading '@',
 * a name in the abstract namespace (the '@' stands for the NUL byte that
 * starts such names, and the address has no trailing NUL). The variable is
 * left set: every later message goes to the same socket. Returns what
 * sd_notify returns: 1 sent, 0 no $NOTIFY_SOCKET, -errno. */
static int sdNotify(const char *state) {
    const char *name = getenv("NOTIFY_SOCKET");
    if (!name) return 0;
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const size_t len = strlen(name);
    const bool abstract = name[0] == '@';
    /* As sd_notify: room for a NUL after the name, even an abstract one's. */
    if ((!abstract && name[0] != '/') || len < 2 || len >= sizeof(addr.sun_path)) return -EINVAL;
    memcpy(addr.sun_path, name, len);
    if (abstract) addr.sun_path[0] = '\0';
    const auto addrlen = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + len + (abstract ? 0 : 1));
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd == -1) return -errno;
    int ret = sendto(fd, state, strlen(state), MSG_NOSIGNAL, reinterpret_cast<sockaddr *>(&addr), addrlen) == -1
                  ? -errno
                  : 1;
    close(fd);
    return ret;
}

int redisCommunicateSystemd(const char *state) {
    int ret = sdNotify(state);
    if (ret == 0) serverLog(LL_WARNING, "systemd supervision error: NOTIFY_SOCKET not found!");
    else if (ret < 0) serverLog(LL_WARNING, "systemd supervision error: sd_notify: %d", ret);
    return ret;
}

/* What CONFIG RESETSTAT zeroes of INFO stats (Redis's resetServerStats):
 * the counters, not the state (connected clients, peak memory, the last
 * save's time and status stay). */
void resetServerStats() {
    server.stat_numcommands = 0;
    server.stat_numconnections = 0;
    server.stat_expiredkeys = 0;
    server.stat_expired_stale_perc = 0;
    server.stat_expired_time_cap_reached_count = 0;
    server.stat_expire_cycle_time_used = 0;
    server.stat_evictedkeys = 0;
    server.stat_total_eviction_exceeded_time = 0;
    server.stat_last_eviction_exceeded_time = 0;
    server.stat_keyspace_misses = 0;
    server.stat_keyspace_hits = 0;
    server.stat_fork_time = 0;
    server.stat_total_forks = 0;
    server.stat_rejected_conn = 0;
    server.stat_sync_full = server.stat_sync_partial_ok = server.stat_sync_partial_err = 0;
    server.stat_total_reads_processed = 0;
    server.stat_total_writes_processed = 0;
    for (redisServer::instMetric &metric : server.inst_metric) {
        metric = {};
        metric.last_sample_time = mstime();
    }
    server.stat_aof_rewrites = 0;
    server.stat_rdb_saves = 0;
    server.stat_aofrw_consecutive_failures = 0;
    server.stat_net_input_bytes = server.stat_net_output_bytes = 0;
    server.stat_net_repl_input_bytes = server.stat_net_repl_output_bytes = 0;
    server.stat_unexpected_error_replies = 0;
    server.stat_total_error_replies = 0;
    server.stat_dump_payload_sanitizations = 0;
    server.aof_delayed_fsync = 0;
    lazyfreeResetStats();
}

void resetCommandTableStats() {
    for (redisCommand &cmd : *server.command_table) {
        cmd.microseconds = cmd.calls = cmd.rejected_calls = cmd.failed_calls = 0;
        for (redisCommand &sub : cmd.subcommands)
            sub.microseconds = sub.calls = sub.rejected_calls = sub.failed_calls = 0;
    }
}

/* ========================================================================
 * Commands: PING, ECHO, TIME
 * ====================================================================== */

/* ========================================================================
 * MONITOR (Redis's monitorCommand, and replication.c's
 * replicationFeedMonitors): a monitor is flagged a replica too
 * (CLIENT_SLAVE | CLIENT_MONITOR), so, as in Redis, it cannot touch the
 * keyspace nor be paused, and MONITOR or SYNC again is ignored; its output
 * is bounded by the normal class's client-output-buffer-limit (getClientType).
 * ====================================================================== */

/* One line per command: +<unix>.<usec> [<db> <addr>|lua|unix:<path>] "arg" ..., built
 * once for every monitor, into a buffer kept from one command to the next. */
void replicationFeedMonitors(client *c, int dictid, std::span<const std::string_view> argv) {
    if (server.monitors.empty() || server.loading) return;
    static std::string line;
    timeval tv;
    gettimeofday(&tv, nullptr);
    char head[64];
    int n = snprintf(head, sizeof(head), "+%ld.%06ld [%d ", static_cast<long>(tv.tv_sec),
                     static_cast<long>(tv.tv_usec), dictid);
    line.assign(head, n);
    if (c->flags & CLIENT_SCRIPT) line += "lua";
    else if (c->flags & CLIENT_UNIX_SOCKET) line += "unix:" + server.unixsocket;
    else line += getClientPeerId(c);
    line += "] ";
    for (size_t j = 0; j < argv.size(); j++) {
        if (j) line += ' ';
        catRepr(line, argv[j]);
    }
    line += "\r\n";
    for (client *monitor : server.monitors) addReply(monitor, line);
}

void monitorCommand(client *c) {
    /* A client that expects one reply per command (a script's, EXEC's) cannot monitor. */
    if (c->flags & (CLIENT_MULTI | CLIENT_DENY_BLOCKING))
        return addReplyError(c, "MONITOR isn't allowed for DENY BLOCKING client");
    if (c->flags & CLIENT_SLAVE) return; /* a replica, or already monitoring: ignored */
    c->flags |= CLIENT_SLAVE | CLIENT_MONITOR;
    server.monitors.push_back(c);
    addReply(c, shared::ok);
}

/* Leaves monitor mode (RESET, and a monitor being freed). */
void unmonitorClient(client *c) {
    if (!(c->flags & CLIENT_MONITOR)) return;
    server.monitors.remove(c);
    c->flags &= ~(CLIENT_MONITOR | CLIENT_SLAVE);
}

/* A RESP2 subscriber gets the pong as a push-like array: ["pong", message]. */

void pingCommand(client *c) {
    if (c->argv.size() > 2) return addReplyErrorArity(c);
    std::string_view message = c->argv.size() == 2 ? c->argv[1] : "";
    if ((c->flags & CLIENT_PUBSUB) && c->resp == 2) {
        addReplyArrayLen(c, 2);
        addReplyBulk(c, "pong");
        return addReplyBulk(c, message);
    }
    if (c->argv.size() == 1) return addReply(c, shared::pong);
    addReplyBulk(c, message);
}

void echoCommand(client *c) { addReplyBulk(c, c->argv[1]); }

void timeCommand(client *c) {
    long long now = ustime();
    addReplyArrayLen(c, 2);
    addReplyBulkLongLong(c, now / 1000000);
    addReplyBulkLongLong(c, now % 1000000);
}

/* ========================================================================
 * CONFIG: the replies (the logic is config.cpp's; in Redis both are in
 * config.c, but CONFIG SET asks enable-protected-configs, a server matter)
 * ====================================================================== */

void configGetCommand(client *c) {
    auto found = configGet(std::span(c->argv).subspan(2));
    addReplyMapLen(c, static_cast<long long>(found.size()));
    for (const auto &[name, value] : found) {
        addReplyBulk(c, name);
        addReplyBulk(c, value);
    }
}

void configSetCommand(client *c) {
    if (c->argv.size() % 2) return addReplyErrorObject(c, shared::syntaxerr);
    std::string err;
    /* Every secret is redacted, even if the command then fails. */
    for (size_t j = 2; j + 1 < c->argv.size(); j += 2) {
        const standardConfig *config = lookupConfig(c->argv[j]);
        if (config && (config->flags & SENSITIVE_CONFIG)) redactClientCommandArgument(c, j + 1);
    }
    bool protected_allowed = allowProtectedAction(server.enable_protected_configs, c);
    if (!configSet(std::span(c->argv).subspan(2), err, protected_allowed)) return addReplyError(c, err);
    addReply(c, shared::ok);
}

void configResetStatCommand(client *c) {
    resetServerStats();
    resetCommandTableStats();
    resetErrorTableStats();
    resetCommandLatencyHistograms();
    addReply(c, shared::ok);
}

void configRewriteCommand(client *c) {
    if (server.configfile.empty()) return addReplyError(c, "The server is running without a config file");
    if (!rewriteConfig(server.configfile)) {
        int err = errno; /* the log may change it */
        serverLog(LL_WARNING, "CONFIG REWRITE failed: %s", strerror(err));
        return addReplyError(c, std::string("Rewriting config file: ") + strerror(err));
    }
    serverLog(LL_WARNING, "CONFIG REWRITE executed with success.");
    addReply(c, shared::ok);
}

void configHelpCommand(client *c) {
    static const char *const help[] = {
        "GET <pattern>",
        "    Return parameters matching the glob-like <pattern> and their values.",
        "SET <directive> <value>",
        "    Set the configuration <directive> to <value>.",
        "RESETSTAT",
        "    Reset statistics reported by the INFO command.",
        "REWRITE",
        "    Rewrite the configuration file.",
        nullptr,
    };
    addReplyHelp(c, help);
}

/* ========================================================================
 * The process: its OOM score and its title (Redis's setOOMScoreAdj and
 * redisSetProcTitle; its CPUs, redisSetCpuAffinity, are setcpuaffinity.cpp's)
 * ====================================================================== */

namespace {

bool oom_score_adjusted = false; /* we wrote oom_score_adj: `no` must put back... */
int oom_score_adj_base = 0;      /* ... this, the value found before */

bool writeOOMScoreAdj(int value) {
    std::string text = std::to_string(value) + "\n";
    int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
    bool ok = fd != -1 && write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    if (!ok) serverLog(LL_WARNING, "Unable to write oom_score_adj: %s", strerror(errno));
    if (fd != -1) close(fd);
    return ok;
}

bool readOOMScoreAdj(int &value) {
    char buf[64] = {};
    int fd = open("/proc/self/oom_score_adj", O_RDONLY | O_CLOEXEC);
    bool ok = fd != -1 && read(fd, buf, sizeof(buf) - 1) > 0;
    if (!ok) serverLog(LL_WARNING, "Unable to read oom_score_adj: %s", strerror(errno));
    if (fd != -1) close(fd);
    value = atoi(buf);
    return ok;
}

}  // namespace

int setOOMScoreAdj(int process_class) {
    if (process_class == -1) process_class = server.masterhost.empty() ? CONFIG_OOM_MASTER : CONFIG_OOM_REPLICA;
    if (server.oom_score_adj == OOM_SCORE_ADJ_NO) {
        if (!oom_score_adjusted) return C_OK;
        oom_score_adjusted = false;
        return writeOOMScoreAdj(oom_score_adj_base) ? C_OK : C_ERR;
    }
    if (!oom_score_adjusted) {
        if (!readOOMScoreAdj(oom_score_adj_base)) return C_ERR;
        oom_score_adjusted = true;
    }
    int value = server.oom_score_adj_values[process_class];
    if (server.oom_score_adj == OOM_SCORE_RELATIVE) value += oom_score_adj_base;
    return writeOOMScoreAdj(std::clamp(value, -1000, 1000)) ? C_OK : C_ERR;
}

/* {title}, {listen-addr}, {server-mode}, {config-file}, {port}, {tls-port},
 * {unixsocket} as Redis 7.0 expands them ("{{" is a literal brace); the
 * result is trimmed of spaces. {server-mode} is always "" (no cluster). */
bool expandProcTitleTemplate(std::string_view tmpl, const char *title, std::string &out) {
    out.clear();
    while (!tmpl.empty()) {
        size_t open_brace = tmpl.find('{');
        out += tmpl.substr(0, open_brace);
        if (open_brace == std::string_view::npos) break;
        tmpl.remove_prefix(open_brace + 1);
        if (tmpl.empty()) return false;
        if (tmpl[0] == '{') {
            out += '{';
            tmpl.remove_prefix(1);
            continue;
        }
        size_t close_brace = tmpl.find('}');
        if (close_brace == std::string_view::npos) return false;
        std::string_view name = tmpl.substr(0, close_brace);
        tmpl.remove_prefix(close_brace + 1);
        if (name == "title") out += title ? title : server.executable;
        else if (name == "listen-addr" && !server.port && !server.tls_port)
            out += "unixsocket:" + server.unixsocket;
        else if (name == "listen-addr")
            out += (server.bindaddr.empty() ? std::string("*") : server.bindaddr[0]) + ":" +
                   std::to_string(server.port ? server.port : server.tls_port);
        else if (name == "server-mode") continue;
        else if (name == "config-file") out += server.configfile.empty() ? "-" : server.configfile;
        else if (name == "port") out += std::to_string(server.port);
        else if (name == "tls-port") out += std::to_string(server.tls_port);
        else if (name == "unixsocket") out += server.unixsocket;
        else return false;
    }
    size_t first = out.find_first_not_of(' ');
    out = first == std::string::npos ? "" : out.substr(first, out.find_last_not_of(' ') + 1 - first);
    return true;
}

void redisSetProcTitle(const char *title) {
    std::string expanded;
    if (server.set_proc_title && expandProcTitleTemplate(server.proc_title_template, title, expanded))
        setproctitle(expanded);
}

/* ========================================================================
 * rename-command <command> <new name> (redis.conf and the command line
 * only, as in Redis): the command answers to the new name alone from then
 * on; "" removes it. CONFIG REWRITE keeps these lines as they are.
 * ====================================================================== */

bool loadRenameCommandDirective(std::span<const std::string> argv, std::string &err) {
    if (argv.size() != 3) {
        err = "Bad directive or wrong number of arguments";
        return false;
    }
    auto it = server.commands.find(argv[1]);
    if (it == server.commands.end()) {
        err = "No such command in rename-command";
        return false;
    }
    redisCommand *cmd = it->second;
    server.commands.erase(it);
    if (!argv[2].empty() && !server.commands.emplace(argv[2], cmd).second) {
        err = "Target command name already exists";
        return false;
    }
    return true;
}
