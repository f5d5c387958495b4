/* server_main.cpp — the top of the server (Redis's server.c, its top half):
 * start-up (serverMain, initServer, loading the dataset), the event loop's
 * hooks (serverCron, beforeSleep), the checks every command gets before it
 * runs (processCommand), shutdown (SHUTDOWN and the signals) and INFO.
 *
 * Start-up also tells a supervisor (upstart, systemd) when the server is
 * ready, and shutdown tells systemd it is stopping.
 *
 * Redis keeps all of this in server.c. Here it is the top layer
 * (tools/check_layers.sh) because each piece calls into the mechanisms
 * above the server: serverCron reaps children and runs the AOF's and the
 * RDB's crons, beforeSleep flushes the AOF and serves unblocked clients,
 * processCommand queues MULTI and checks for a busy script, shutdown saves,
 * INFO reports every subsystem. What the lower layers need of the server
 * (the cached time, the command lookup, call() and propagation, the
 * listening sockets) stays in server.cpp; main() is in main.cpp.
 *
 * One thread runs everything: aeMain() loops over aeProcessEvents, which
 * calls beforeSleep (write the AOF, then the replies; free closed clients),
 * waits for file events or the next time event, and runs serverCron `hz`
 * times a second (which also reaps a BGSAVE or BGREWRITEAOF child and
 * starts the snapshots the save points ask for).
 * Invariants:
 *  - Signals only set server.shutdown_asap; the shutdown itself runs in
 *    serverCron, never inside a signal handler.
 */
#include "server_main.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <clocale>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <random>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <syslog.h>
#include <unistd.h>

#include "acl.h"
#include "anet.h"
#include "aof.h"
#include "blocked.h"
#include "childinfo.h"
#include "commands.h"
#include "config.h"
#include "config_table.h"
#include "evict.h"
#include "functions.h"
#include "latency.h"
#include "lazyfree.h"
#include "multi.h"
#include "pubsub.h"
#include "rdb.h"
#include "replication.h"
#include "scripting.h"
#include "server.h"
#include "setcpuaffinity.h"
#include "setproctitle.h"
#include "tls.h"
#include "livetrace.h"
#include "livetrace_output.h"
#include "tracking.h"
#include "util.h"
#include "version.h"
#include "zmalloc.h"

/* ========================================================================
 * processCommand: the checks before call()
 * ====================================================================== */

/* A rejected command inside MULTI dooms the transaction; a rejected EXEC
 * ends it. */
static void rejectCommand(client *c, const std::string &err) {
    if (traceOn(TRACE_CMD) && !(c->flags & CLIENT_TRACE_READER))
        traceEvent(TRACE_CMD, "rejectCommand")
            .client(c->id)
            .str("cmd", c->cmd ? std::string_view(c->cmd->fullname) : c->argv[0])
            .str("args", traceCommandArgs(c))
            .str("error", err)
            .emit();
    flagTransaction(c);
    if (c->cmd) c->cmd->rejected_calls++;
    if (c->cmd && c->cmd->proc == execCommand) execCommandAbort(c, err);
    else addReplyError(c, err);
}

/* A command the user may not run: logged, then refused with Redis's text. */
static void rejectCommandACL(client *c, int acl_retval, int acl_errpos) {
    addACLLogEntry(c, acl_retval, (c->flags & CLIENT_MULTI) ? ACL_LOG_CTX_MULTI : ACL_LOG_CTX_TOPLEVEL, acl_errpos);
    switch (acl_retval) {
    case ACL_DENIED_CMD:
        rejectCommand(c, "-NOPERM this user has no permissions to run the '" + c->cmd->fullname + "' command");
        break;
    case ACL_DENIED_KEY:
        rejectCommand(c, "-NOPERM this user has no permissions to access one of the keys used as arguments");
        break;
    default:
        rejectCommand(c, "-NOPERM this user has no permissions to access one of the channels used as arguments");
        break;
    }
}

/* "'a' 'b' " — the first arguments, quoted, for the unknown-command error. */
static std::string formatArgsBeginning(const client *c) {
    std::string args;
    for (size_t i = 1; i < c->argv.size() && args.size() < 128; i++) {
        size_t room = 128 - args.size();
        args += '\'';
        args.append(c->argv[i].substr(0, room));
        args += "' ";
    }
    return args;
}

static std::string upper(std::string_view s) {
    std::string u(s);
    std::transform(u.begin(), u.end(), u.begin(), ::toupper);
    return u;
}

/* The command's flags, a script's as its flags declare them (Redis's
 * getCommandFlags): EVAL with a shebang, FCALL. */
static uint64_t getCommandFlags(client *c) {
    if (c->cmd->proc == evalCommand || c->cmd->proc == evalShaCommand || c->cmd->proc == evalRoCommand ||
        c->cmd->proc == evalShaRoCommand)
        return evalGetCommandFlags(c, c->cmd->flags);
    if (c->cmd->proc == fcallCommand || c->cmd->proc == fcallroCommand) return fcallGetCommandFlags(c, c->cmd->flags);
    return c->cmd->flags;
}

/* The command has one of `flags` (cmd_flags: getCommandFlags's), or is an
 * EXEC with a queued command that has: a write, a command that may grow
 * memory, one that may replicate. */
static bool commandHasFlags(const client *c, uint64_t cmd_flags, uint64_t flags) {
    if (cmd_flags & flags) return true;
    if (c->cmd->proc != execCommand) return false;
    const auto &queued = c->mstate.commands;
    return std::any_of(queued.begin(), queued.end(), [flags](const multiCmd &mc) { return mc.cmd->flags & flags; });
}

static bool isAllowedInPubsubContext(const redisCommand *cmd) {
    return cmd->proc == pingCommand || cmd->proc == subscribeCommand || cmd->proc == ssubscribeCommand ||
           cmd->proc == unsubscribeCommand || cmd->proc == sunsubscribeCommand || cmd->proc == psubscribeCommand ||
           cmd->proc == punsubscribeCommand || cmd->proc == quitCommand || cmd->proc == resetCommand;
}

/* Runs the command in c->argv after the checks every command gets. */
int processCommand(client *c) {
    c->cmd = c->lastcmd = lookupCommand(c->argv);
    if (!c->cmd) {
        redisCommand *base = lookupCommandByName(c->argv[0]);
        if (base && !base->subcommands.empty()) {
            rejectCommand(c, "unknown subcommand '" + std::string(c->argv[1].substr(0, 128)) +
                                 "'. Try " + upper(c->argv[0]) + " HELP.");
        } else {
            rejectCommand(c, "unknown command '" + std::string(c->argv[0].substr(0, 128)) +
                                 "', with args beginning with: " + formatArgsBeginning(c));
        }
        return C_OK;
    }
    int argc = static_cast<int>(c->argv.size());
    if ((c->cmd->arity > 0 && c->cmd->arity != argc) || argc < -c->cmd->arity) {
        rejectCommand(c, "wrong number of arguments for '" + c->cmd->fullname + "' command");
        return C_OK;
    }
    if ((c->cmd->flags & CMD_PROTECTED) && !allowProtectedAction(server.enable_debug_cmd, c)) {
        rejectCommand(c, "DEBUG command not allowed. If the enable-debug-command option is set to \"local\", "
                         "you can run it from a local connection, otherwise you need to set this option in the "
                         "configuration file, and then restart the server.");
        return C_OK;
    }
    /* A script's flags are read from its shebang: once, here. */
    const uint64_t cmd_flags = getCommandFlags(c);
    const bool is_write_command = commandHasFlags(c, cmd_flags, CMD_WRITE);
    const bool is_may_replicate_command = commandHasFlags(c, cmd_flags, CMD_WRITE | CMD_MAY_REPLICATE);
    if (authRequired(c) && !(c->cmd->flags & CMD_NO_AUTH)) {
        rejectCommand(c, "-NOAUTH Authentication required.");
        return C_OK;
    }
    if ((c->flags & CLIENT_MULTI) && (c->cmd->flags & CMD_NO_MULTI)) {
        rejectCommand(c, "Command not allowed inside a transaction");
        return C_OK;
    }
    if (int acl_errpos, acl_retval = ACLCheckAllPerm(c, &acl_errpos); acl_retval != ACL_OK) {
        rejectCommandACL(c, acl_retval, acl_errpos);
        return C_OK;
    }
    /* Over maxmemory: evict first; a command that may grow memory (and
     * anything queued in MULTI, which grows the queue) is refused if that
     * did not get under the limit. Not beside a busy script, whose
     * propagation the DELs would interleave with. */
    if (server.maxmemory && !scriptIsTimedout()) {
        bool out_of_memory = performEvictions() == EVICT_FAIL;
        if (out_of_memory && (commandHasFlags(c, cmd_flags, CMD_DENYOOM) || ((c->flags & CLIENT_MULTI) && c->cmd->proc != execCommand &&
                                                     c->cmd->proc != discardCommand &&
                                                     c->cmd->proc != quitCommand))) {
            rejectCommand(c, std::string(kOomError));
            return C_OK;
        }
        /* A script's first write is refused on this, not on what its own
         * stack and arguments use by then. */
        server.pre_command_oom_state = out_of_memory;
    }
    /* Client-side caching's table is kept within tracking-table-max-keys
     * before each command, as in every cron tick. */
    if (trackingClientsCount()) trackingLimitUsedSlots();
    /* A failed BGSAVE or AOF write: refuse what would change data that
     * cannot reach the disk (PING too, so monitoring notices). A replica
     * cannot refuse its master's writes: it stops rather than diverge,
     * unless replica-ignore-disk-write-errors (Redis 7.0.15). */
    const bool obey_client = c->flags & CLIENT_MASTER;
    if (const char *err = writeCommandsDeniedByDiskError();
        err && (is_write_command || c->cmd->proc == pingCommand)) {
        if (!obey_client) {
            rejectCommand(c, err);
            return C_OK;
        }
        if (!server.repl_ignore_disk_write_error && c->cmd->proc != pingCommand) {
            serverLog(LL_WARNING, "Replica was unable to write command to disk.");
            abort();
        }
        static long long last_log_time_ms = 0;
        if (server.mstime > last_log_time_ms + 10000) {
            last_log_time_ms = server.mstime;
            serverLog(LL_WARNING, "Replica is applying a command even though it is unable to write to disk.");
        }
    }
    /* Replication: not enough good replicas (min-replicas-to-write); a
     * read-only replica; a replica whose link is down and that must not
     * serve stale data. The master's own stream obeys none of these. */
    if (!obey_client && !checkGoodReplicasStatus() && is_write_command) {
        rejectCommand(c, "-NOREPLICAS Not enough good replicas to write.");
        return C_OK;
    }
    if (!server.masterhost.empty() && server.repl_slave_ro && !obey_client && is_write_command) {
        rejectCommand(c, "-READONLY You can't write against a read only replica.");
        return C_OK;
    }
    /* A RESP2 subscriber's connection carries pushed messages: only what
     * manages subscriptions (or ends them) can be answered on it. */
    if ((c->flags & CLIENT_PUBSUB) && c->resp == 2 && !isAllowedInPubsubContext(c->cmd)) {
        rejectCommand(c, "Can't execute '" + c->cmd->fullname +
                             "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this "
                             "context");
        return C_OK;
    }
    if (!server.masterhost.empty() && server.repl_state != REPL_STATE_CONNECTED && !server.repl_serve_stale_data &&
        !(cmd_flags & CMD_STALE)) {
        rejectCommand(c, "-MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.");
        return C_OK;
    }
    /* A script past busy-reply-threshold lets the event loop run: only the
     * commands that may run beside it are answered (SCRIPT KILL ...). */
    if (scriptIsTimedout() && !(c->cmd->flags & CMD_ALLOW_BUSY)) {
        rejectCommand(c, std::string(scriptBusyError()));
        return C_OK;
    }
    /* A replica's connection (or a monitor's) carries REPLCONF ACKs, not
     * keyspace access: it could otherwise write through a pause. */
    if ((c->flags & CLIENT_SLAVE) &&
        (is_may_replicate_command || commandHasFlags(c, cmd_flags, CMD_READONLY))) {
        rejectCommand(c, "-ERR Replica can't interact with the keyspace");
        return C_OK;
    }
    /* CLIENT PAUSE: the command waits for the pause's end (blocked.cpp).
     * Replicas are never paused. */
    if (!(c->flags & CLIENT_SLAVE) &&
        (server.client_pause_type == CLIENT_PAUSE_ALL ||
         (server.client_pause_type == CLIENT_PAUSE_WRITE && is_may_replicate_command))) {
        c->bpop.timeout = 0;
        blockClient(c, BLOCKED_POSTPONE);
        return C_OK;
    }
    /* Inside MULTI everything but the commands that end or manage the
     * transaction (and QUIT, RESET) waits in the queue for EXEC. */
    if ((c->flags & CLIENT_MULTI) && c->cmd->proc != execCommand && c->cmd->proc != discardCommand &&
        c->cmd->proc != multiCommand && c->cmd->proc != watchCommand && c->cmd->proc != quitCommand &&
        c->cmd->proc != resetCommand) {
        queueMultiCommand(c);
        addReply(c, shared::queued);
        return C_OK;
    }
    call(c);
    /* Here, not in call(): EXEC calls call() for each queued command, and
     * its pushes must wake the blocked clients only once it is done (a push
     * and a DEL of the key in one transaction wake nobody). The command's
     * own reply is already queued, so LPUSH answers the length it made.
     * Nor beside a busy script: its pushes count once it has ended. */
    if (!server.ready_keys.empty() && !scriptIsTimedout()) handleClientsBlockedOnKeys();
    return C_OK;
}

/* ========================================================================
 * RESET: the connection as it was when it was accepted (Redis's
 * clearClientConnectionState)
 * ====================================================================== */

static void clearClientConnectionState(client *c) {
    unmonitorClient(c);
    if (c->flags & CLIENT_TRACKING) disableTracking(c);
    selectDb(c, 0);
    c->resp = 2;
    clientSetDefaultAuth(c);
    discardTransaction(c); /* and UNWATCH */
    pubsubUnsubscribeAllChannels(c, false);
    pubsubUnsubscribeAllPatterns(c, false);
    pubsubUnsubscribeShardAllChannels(c, false);
    c->name.clear();
    c->flags &= ~(CLIENT_PUBSUB | CLIENT_REPLY_OFF | CLIENT_REPLY_SKIP_NEXT);
}

void resetCommand(client *c) {
    if ((c->flags & CLIENT_MASTER) || ((c->flags & CLIENT_SLAVE) && !(c->flags & CLIENT_MONITOR)))
        return addReplyError(c, "can only reset normal client connections");
    clearClientConnectionState(c);
    addReplyStatus(c, "RESET");
}

/* ========================================================================
 * Shutdown
 * ====================================================================== */

/* The final RDB snapshot: SHUTDOWN SAVE, or save points set and no NOSAVE. */
static int rdbSaveOnShutdown(int flags) {
    if (!(flags & SHUTDOWN_SAVE) && (server.saveparams.empty() || (flags & SHUTDOWN_NOSAVE))) return C_OK;
    serverLog(LL_NOTICE, "Saving the final RDB snapshot before exiting.");
    if (server.supervised_mode == SUPERVISED_SYSTEMD) redisCommunicateSystemd("STATUS=Saving the final RDB snapshot\n");
    if (rdbSave(server.rdb_filename.c_str()) == C_OK) return C_OK;
    if (flags & SHUTDOWN_FORCE) {
        serverLog(LL_WARNING, "Error trying to save the DB. Exit anyway.");
        return C_OK;
    }
    serverLog(LL_WARNING, "Error trying to save the DB, can't exit.");
    if (server.supervised_mode == SUPERVISED_SYSTEMD)
        redisCommunicateSystemd("STATUS=Error trying to save the DB, can't exit.\n");
    return C_ERR;
}

/* Everything to do before exiting: stop the background children, make the
 * AOF and the snapshot complete on disk, close the listeners so no new
 * client arrives, and say goodbye in the log. On C_ERR the server keeps
 * running: exiting would lose data (SHUTDOWN_FORCE exits anyway).
 *
 * Redis 7.0 first lets lagging replicas catch up (unless SHUTDOWN_NOW),
 * which makes a shutdown "in progress" for a while; with no replication
 * there is never anything to wait for, so the shutdown completes (or
 * fails) here at once, as in a Redis without replicas. */
static int prepareForShutdown(int flags) {
    serverLog(LL_WARNING, "User requested shutdown...");
    /* First, before the final save that may take long: from here systemd
     * waits up to the unit's TimeoutStopSec. Sent even if the shutdown then
     * fails, as Redis sends it. */
    if (server.supervised_mode == SUPERVISED_SYSTEMD) redisCommunicateSystemd("STOPPING=1\n");
    if (server.child_type == CHILD_TYPE_RDB) {
        serverLog(LL_WARNING, "There is a child saving an .rdb. Killing it!");
        killRDBChild();
    }
    if (aofPrepareForShutdown(flags & SHUTDOWN_FORCE) == C_ERR || rdbSaveOnShutdown(flags) == C_ERR) {
        serverLog(LL_WARNING, "Errors trying to shut down the server. Check the logs for more information.");
        return C_ERR;
    }
    closeListeningSockets(true);
    replicationCloseLinkOnShutdown();
    /* Only our own file: unlinking a path we never wrote (its creation failed,
     * or another process wrote it since) would remove someone else's. */
    if (server.pidfile_written) {
        serverLog(LL_NOTICE, "Removing the pid file.");
        unlink(server.pidfile.c_str());
    }
    stopTraceFileOnShutdown();
    serverLog(LL_WARNING, "Redis is now ready to exit, bye bye...");
    return C_OK;
}

/* ========================================================================
 * serverCron and beforeSleep
 * ====================================================================== */

/* Records a per-second rate of `current_reading` every 100 ms; the INFO
 * figure is the mean of the last samples (Redis's trackInstantaneousMetric). */
static void trackInstantaneousMetric(int metric, long long current_reading) {
    redisServer::instMetric &m = server.inst_metric[metric];
    long long now = server.mstime;
    long long elapsed = now - m.last_sample_time;
    if (elapsed <= 0) return;
    long long ops = current_reading - m.last_sample_count;
    m.samples[m.idx] = ops * 1000 / elapsed;
    m.idx = (m.idx + 1) % redisServer::STATS_METRIC_SAMPLES;
    m.last_sample_time = now;
    m.last_sample_count = current_reading;
}

static long long getInstantaneousMetric(int metric) {
    long long sum = 0;
    for (long long s : server.inst_metric[metric].samples) sum += s;
    return sum / redisServer::STATS_METRIC_SAMPLES;
}

static void trackInstantaneousMetrics() {
    trackInstantaneousMetric(redisServer::STATS_METRIC_COMMAND, server.stat_numcommands);
    trackInstantaneousMetric(redisServer::STATS_METRIC_NET_INPUT,
                             server.stat_net_input_bytes + server.stat_net_repl_input_bytes);
    trackInstantaneousMetric(redisServer::STATS_METRIC_NET_OUTPUT,
                             server.stat_net_output_bytes + server.stat_net_repl_output_bytes);
    trackInstantaneousMetric(redisServer::STATS_METRIC_NET_INPUT_REPLICATION, server.stat_net_repl_input_bytes);
    trackInstantaneousMetric(redisServer::STATS_METRIC_NET_OUTPUT_REPLICATION, server.stat_net_repl_output_bytes);
}

static bool runWithPeriod(int ms) { return ms <= 1000 / server.hz || server.cronloops % (ms / (1000 / server.hz)) == 0; }

/* The peak is sampled here, each cron tick, and when INFO runs (Redis also
 * samples it after every command and in beforeSleep). */
static void cronUpdateMemoryStats() {
    server.stat_peak_memory = std::max(server.stat_peak_memory, zmalloc_used_memory());
}

/* dynamic-hz: with many clients, more ticks, so that each visits few
 * (clientsCron sees every client about once a second). */
static void updateDynamicHz() {
    server.hz = server.config_hz;
    if (!server.dynamic_hz) return;
    while (server.clients.size() / static_cast<size_t>(server.hz) > MAX_CLIENTS_PER_CLOCK_TICK) {
        server.hz = std::min(server.hz * 2, CONFIG_MAX_HZ);
        if (server.hz == CONFIG_MAX_HZ) break;
    }
}

static long long serverCron(aeEventLoop *, long long, void *) {
    updateCachedTime();
    updateDynamicHz();
    if (runWithPeriod(100)) trackInstantaneousMetrics();
    if (server.shutdown_asap) {
        if (prepareForShutdown(server.shutdown_flags) == C_OK) aeStop(server.el.get());
        server.shutdown_asap = false;
    }
    /* Ready to exit (a SHUTDOWN earlier in this round of events, or the
     * signal's above; Redis exits right there): nothing else of the cron may
     * run, or replicationCron would open a new link to the master after
     * prepareForShutdown closed it. */
    if (server.el->stop) return 1000 / server.hz;
    cronUpdateMemoryStats();
    clientsCron();
    databasesCron();
    /* Also here: a CONFIG SET of tracking-table-max-keys applies on an idle server. */
    if (trackingClientsCount()) trackingLimitUsedSlots();
    if (hasActiveChildProcess()) {
        if (runWithPeriod(1000)) receiveChildInfo();
        checkChildrenDone();
    } else {
        rdbSaveCron();
    }
    aofCron();
    if (runWithPeriod(1000)) replicationCron();
    server.cronloops++;
    return 1000 / server.hz;
}

/* beforeSleep as one trace slice, with what each step did. Work for trace
 * readers only is quiet: it is the trace's own delivery. */
static void traceBeforeSleep(monotime start, int unblocked, long long aof_written, bool aof_fsynced,
                             const pendingWritesTally &written) {
    traceEvent(TRACE_LOOP, "beforeSleep")
        .since(start)
        .quiet(unblocked == 0 && aof_written == 0 && written.clients == 0)
        .num("unblocked", unblocked)
        .num("aof_written", aof_written)
        .str("aof_fsynced", aof_fsynced ? "yes" : "no")
        .num("clients_written", written.clients)
        .num("bytes_written", written.bytes)
        .emit();
}

/* Runs before the loop sleeps: anything that must happen before the next
 * wait — chiefly flushing replies written during this iteration. */
void beforeSleep(aeEventLoop *) {
    const bool traced = traceOn(TRACE_LOOP);
    const monotime start = traced ? traceNow() : 0;
    /* Requests TLS already decrypted, which no socket event announces. */
    connProcessPendingData();
    /* First: the commands they pipelined while blocked add to the replies. */
    int unblocked = server.unblocked_clients.empty() ? 0 : processUnblockedClients();
    /* The keys modified under the BCAST clients' prefixes during this iteration. */
    trackingBroadcastInvalidationMessages();
    /* Before any reply leaves: a write is on disk before it is acknowledged
     * (appendfsync always: fsynced too), and so is anything a reply shows. */
    const long long aof_size = server.aof_current_size, aof_synced = server.aof_last_incr_fsync_offset;
    if (server.aof_state != AOF_OFF) flushAppendOnlyFile();
    replicationBeforeSleep();
    /* A WAIT it answered may have pipelined more, and TLS may still hold
     * decrypted requests: they run in the next beforeSleep, which must not
     * wait for an event to come. */
    aeSetDontWait(server.el.get(), !server.unblocked_clients.empty() || connHasPendingData());
    pendingWritesTally written;
    handleClientsWithPendingWrites(traced ? &written : nullptr);
    freeClientsInAsyncFreeQueue();
    if (traced)
        traceBeforeSleep(start, unblocked, server.aof_current_size - aof_size,
                         server.aof_last_incr_fsync_offset != aof_synced, written);
}

static void afterSleep(aeEventLoop *) { updateCachedTime(); }

/* ========================================================================
 * Start-up: signals and the event loop
 * ====================================================================== */

/* Logs from a signal handler with async-signal-safe calls only: no stdio,
 * no allocation (Redis's serverLogFromHandler). */
static void serverLogFromHandler(const char *msg) {
    if (server.verbosity > LL_WARNING) return;
    int fd = server.logfile.empty() ? STDOUT_FILENO : open(server.logfile.c_str(), O_APPEND | O_CREAT | O_WRONLY, 0644);
    if (fd == -1) return;
    char buf[64];
    auto put = [fd](const char *s, size_t n) { return write(fd, s, n) == static_cast<ssize_t>(n); };
    bool ok = put(buf, ll2string(buf, sizeof(buf), getpid())) && put(":signal-handler (", 17) &&
              put(buf, ll2string(buf, sizeof(buf), time(nullptr))) && put(") ", 2) && put(msg, strlen(msg)) &&
              put("\n", 1);
    (void)ok;
    if (fd != STDOUT_FILENO) close(fd);
}

static void sigShutdownHandler(int sig) {
    /* A second SIGINT while shutting down means "now", as in Redis. */
    if (server.shutdown_asap && sig == SIGINT) {
        serverLogFromHandler("You insist... exiting now.");
        _exit(1);
    }
    serverLogFromHandler(sig == SIGINT ? "Received SIGINT scheduling shutdown..."
                                       : "Received SIGTERM scheduling shutdown...");
    /* shutdown-on-sigint / shutdown-on-sigterm: the flags of this shutdown. */
    server.shutdown_flags = sig == SIGINT ? server.shutdown_on_sigint : server.shutdown_on_sigterm;
    server.shutdown_asap = true;
}

static void setupSignalHandlers() {
    struct sigaction act {};
    act.sa_handler = sigShutdownHandler;
    sigemptyset(&act.sa_mask);
    sigaction(SIGTERM, &act, nullptr);
    sigaction(SIGINT, &act, nullptr);
    signal(SIGPIPE, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
}

static void initServer() {
    server.pid = getpid();
    setupSignalHandlers();
    /* The log's syslog copy (log.cpp), tagged with the pid; connected now
     * (LOG_NDELAY), not at the first line. */
    if (server.syslog_enabled)
        openlog(server.syslog_ident.c_str(), LOG_PID | LOG_NDELAY | LOG_NOWAIT, server.syslog_facility);
    adjustOpenFilesLimit();
    server.el = aeCreateEventLoop(static_cast<int>(server.maxclients) + CONFIG_FDSET_INCR);
    if (!server.el) {
        serverLog(LL_WARNING, "Failed creating the event loop. Error message: '%s'", strerror(errno));
        exit(1);
    }
    if ((server.tls_port || server.tls_replication || server.tls_cluster) &&
        !tlsConfigure(server.tls_ctx_config, tlsRequiresCA())) {
        serverLog(LL_WARNING, "Failed to configure TLS. Check logs for more info.");
        exit(1);
    }
    if (server.port != 0 && listenToPort(server.port, server.ipfd) == C_ERR) {
        serverLog(LL_WARNING, "Failed listening on port %u (tcp), aborting.", server.port);
        exit(1);
    }
    if (server.tls_port != 0 && listenToPort(server.tls_port, server.tlsfd) == C_ERR) {
        serverLog(LL_WARNING, "Failed listening on port %u (TLS), aborting.", server.tls_port);
        exit(1);
    }
    /* Whatever is at the path goes, as in Redis: a socket file a server
     * killed before its shutdown left behind would make bind() fail. */
    if (!server.unixsocket.empty()) {
        unlink(server.unixsocket.c_str());
        std::string err;
        server.sofd = anetUnixServer(err, server.unixsocket, static_cast<mode_t>(server.unixsocketperm),
                                     server.tcp_backlog);
        if (server.sofd == ANET_ERR) {
            serverLog(LL_WARNING, "Failed opening Unix socket: %s", err.c_str());
            exit(1);
        }
        fcntl(server.sofd, F_SETFD, FD_CLOEXEC);
    }
    if (server.ipfd.empty() && server.tlsfd.empty() && server.sofd == -1) {
        serverLog(LL_WARNING, "Configured to not listen anywhere, exiting.");
        exit(1);
    }
    initDatabases();
    /* This server's history starts here (a replica takes its master's). */
    changeReplicationId();
    clearReplicationId2();
    server.repl_no_slaves_since = time(nullptr); /* repl-backlog-ttl counts from here */
    set_jemalloc_bg_thread(server.jemalloc_bg_thread);
    updateCachedTime();
    server.stat_starttime = server.unixtime;
    server.lastsave = time(nullptr); /* at start-up the dataset counts as saved */
    for (redisServer::instMetric &metric : server.inst_metric) metric.last_sample_time = server.mstime;
    traceNameProc(reinterpret_cast<const void *>(serverCron), "serverCron");
    if (aeCreateTimeEvent(server.el.get(), 1, serverCron, nullptr, nullptr) == AE_ERR) {
        serverLog(LL_WARNING, "Can't create event loop timers.");
        exit(1);
    }
    if (createSocketAcceptHandler(server.ipfd) != C_OK) {
        serverLog(LL_WARNING, "Unrecoverable error creating server.ipfd file event.");
        exit(1);
    }
    if (createSocketAcceptHandler(server.tlsfd, acceptTLSHandler) != C_OK) {
        serverLog(LL_WARNING, "Unrecoverable error creating server.tlsfd file event.");
        exit(1);
    }
    if (server.sofd != -1 &&
        aeCreateFileEvent(server.el.get(), server.sofd, AE_READABLE, acceptUnixHandler, nullptr) == AE_ERR) {
        serverLog(LL_WARNING, "Unrecoverable error creating server.sofd file event.");
        exit(1);
    }
    aeSetBeforeSleepProc(server.el.get(), beforeSleep);
    aeSetAfterSleepProc(server.el.get(), afterSleep);
}

/* ========================================================================
 * main: configuration, start-up, loading, the loop
 * ====================================================================== */

/* With appendonly yes the AOF, which has every write, is the dataset —
 * even when it does not exist yet and a dump.rdb does, as in Redis 7.0;
 * otherwise the RDB snapshot is. */
static void loadDataFromDisk() {
    long long start = ustime();
    if (server.aof_enabled) {
        int ret = loadDataFromAppendOnlyFiles();
        if (ret == AOF_FAILED || ret == AOF_OPEN_ERR) exit(1);
        if (ret != AOF_NOT_EXIST)
            serverLog(LL_NOTICE, "DB loaded from append only file: %.3f seconds",
                      static_cast<double>(ustime() - start) / 1000000);
    } else if (rdbLoad(server.rdb_filename.c_str(), RDBFLAGS_NONE) == C_OK) {
        serverLog(LL_NOTICE, "DB loaded from disk: %.3f seconds", static_cast<double>(ustime() - start) / 1000000);
    } else if (errno != ENOENT) {
        /* Nothing may save over a file that did not load. */
        serverLog(LL_WARNING, "Fatal error loading the DB: %s. Exiting.", strerror(errno));
        exit(1);
    }
}

/* Best effort, as Redis: a server that cannot write its pid file still
 * serves; it then must not remove that path at shutdown. */
static void createPidFile() {
    if (server.pidfile.empty()) server.pidfile = CONFIG_DEFAULT_PID_FILE;
    FILE *fp = fopen(server.pidfile.c_str(), "w");
    if (!fp) {
        serverLog(LL_WARNING, "Failed to write PID file: %s", strerror(errno));
        return;
    }
    server.pidfile_written = true; /* created or truncated: the file is ours now */
    bool written = fprintf(fp, "%d\n", static_cast<int>(getpid())) > 0;
    if (fclose(fp) != 0 || !written) serverLog(LL_WARNING, "Failed to write PID file: %s", strerror(errno));
}

/* The parent returns to the shell at once; the child leaves the terminal's
 * session and writes nothing to it (without a logfile it logs nowhere). */
static void daemonize() {
    pid_t pid = fork();
    if (pid == -1) {
        fprintf(stderr, "Can't fork to run in the background: %s\n", strerror(errno));
        exit(1);
    }
    if (pid != 0) exit(0);
    setsid();
    int fd = open("/dev/null", O_RDWR, 0);
    if (fd != -1) {
        dup2(fd, STDIN_FILENO);
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        if (fd > STDERR_FILENO) close(fd);
    }
}

/* ========================================================================
 * Supervision: upstart and systemd (Redis's redisIsSupervised)
 *
 * A supervisor starts the server in the foreground and waits to hear that
 * it is ready. upstart ("expect stop") waits for the server to stop
 * itself with SIGSTOP once set up, then resumes it. systemd (Type=notify)
 * reads the messages sent to $NOTIFY_SOCKET: STATUS lines it shows,
 * READY=1 once connections are accepted, STOPPING=1 at shutdown.
 * ====================================================================== */

static bool redisSupervisedUpstart() {
    if (!getenv("UPSTART_JOB")) {
        serverLog(LL_WARNING, "upstart supervision requested, but UPSTART_JOB not found!");
        return false;
    }
    serverLog(LL_NOTICE, "supervised by upstart, will stop to signal readiness.");
    raise(SIGSTOP);
    /* Not for the processes this one starts: they are not the job. */
    unsetenv("UPSTART_JOB");
    return true;
}

static bool redisSupervisedSystemd() {
    if (redisCommunicateSystemd("STATUS=Redis is loading...\n") <= 0) return false;
    serverLog(LL_NOTICE, "Supervised by systemd. Please make sure you set appropriate values for TimeoutStartSec and "
                         "TimeoutStopSec in your service unit.");
    return true;
}

/* `supervised auto` picks upstart from $UPSTART_JOB, else systemd from
 * $NOTIFY_SOCKET. True if a supervisor was found, whose kind
 * server.supervised_mode then holds (CONFIG GET supervised shows it). If
 * none was, the mode stays as configured: `supervised systemd` without a
 * socket still tries each later message and logs its failure, as Redis. */
static bool redisIsSupervised(int mode) {
    if (mode == SUPERVISED_AUTODETECT) {
        if (getenv("UPSTART_JOB")) {
            serverLog(LL_VERBOSE, "Upstart supervision detected.");
            mode = SUPERVISED_UPSTART;
        } else if (getenv("NOTIFY_SOCKET")) {
            serverLog(LL_VERBOSE, "Systemd supervision detected.");
            mode = SUPERVISED_SYSTEMD;
        }
    }
    bool supervised = mode == SUPERVISED_UPSTART   ? redisSupervisedUpstart()
                      : mode == SUPERVISED_SYSTEMD ? redisSupervisedSystemd()
                                                   : false;
    if (supervised) server.supervised_mode = mode;
    return supervised;
}

/* Redis's redisAsciiArt: a banner when the log is a terminal (or
 * always-show-logo), else the one line "Running mode=...". */
static void showStartupBanner() {
    bool show_logo = server.always_show_logo || (server.logfile.empty() && isatty(STDOUT_FILENO));
    if (!show_logo) {
        serverLog(LL_NOTICE, "Running mode=standalone, port=%d.", server.port);
        return;
    }
    char banner[512];
    snprintf(banner, sizeof(banner),
             "\n"
             "    +-----------------------------------------+\n"
             "    |  cppredis %-10s (Redis %s compatible)\n"
             "    |  Running in standalone mode, 64 bit\n"
             "    |  Port: %-6d  PID: %-8ld\n"
             "    +-----------------------------------------+\n",
             CPPREDIS_VERSION, REDIS_COMPAT_VERSION, server.port, static_cast<long>(getpid()));
    serverLog(LL_NOTICE | LL_RAW, "%s", banner);
}

/* Redis's linuxMemoryWarnings for transparent huge pages: with THP
 * "always", disable-thp turns them off for this process alone
 * (PR_SET_THP_DISABLE); else, or if that fails, the warning. */
static void checkTransparentHugePages() {
    char buf[1024] = {};
    std::unique_ptr<FILE, int (*)(FILE *)> fp(fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r"), fclose);
    if (!fp || !fgets(buf, sizeof(buf), fp.get()) || !strstr(buf, "[always]")) return;
    if (server.disable_thp && prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) == 0) return;
    serverLog(LL_WARNING,
              "WARNING You have Transparent Huge Pages (THP) support enabled in your kernel. This will create latency "
              "and memory usage issues with Redis. To fix this issue run the command 'echo madvise > "
              "/sys/kernel/mm/transparent_hugepage/enabled' as root, and add it to your /etc/rc.local in order to "
              "retain the setting after a reboot. Redis must be restarted after THP is disabled (set to 'madvise' or "
              "'never').");
}

static void usage() {
    fprintf(stderr, "Usage: ./cppredis-server [/path/to/redis.conf] [options] [-]\n"
                    "       ./cppredis-server - (read config from stdin)\n"
                    "       ./cppredis-server -v or --version\n"
                    "       ./cppredis-server -h or --help\n\n"
                    "Examples:\n"
                    "       ./cppredis-server (run the server with default conf)\n"
                    "       ./cppredis-server /etc/redis/6379.conf\n"
                    "       ./cppredis-server --port 7777\n"
                    "       ./cppredis-server /etc/myredis.conf --loglevel verbose\n");
    exit(1);
}

void initCommandTable() { populateCommandTable({infoCommand, shutdownCommand, resetCommand}); }

int serverMain(int argc, char **argv) {
    if (argc >= 2) {
        std::string_view a1 = argv[1];
        if (a1 == "-v" || a1 == "--version") {
            printf("cppredis server v=%s (Redis %s compatible)\n", CPPREDIS_VERSION, REDIS_COMPAT_VERSION);
            return 0;
        }
        if (a1 == "-h" || a1 == "--help") usage();
    }
    server.executable = argv[0];
    /* SORT ... ALPHA collates by the environment's locale, as Redis does. */
    setlocale(LC_COLLATE, "");
    /* A secret hash seed makes the bucket of a key unpredictable, so no
     * client can send keys that all collide (hash flooding). */
    uint8_t hashseed[16];
    std::random_device rd;
    for (uint8_t &b : hashseed) b = static_cast<uint8_t>(rd());
    dictSetHashFunctionSeed(hashseed);
    initCommandTable();
    ACLInit(); /* before the configuration: its `user` lines are checked as read */
    initConfigValues(standardConfigs(), refusedConfigs());
    std::string configfile, options;
    parseCommandLine(argc, argv, configfile, options);
    server.configfile = configfile;
    spt_init(argc, argv); /* argv is read no more: its memory takes the process title */
    loadServerConfig(configfile.empty() ? nullptr : configfile.c_str(), options);
    /* A supervisor waits for this very process: it must not fork away. */
    server.supervised = redisIsSupervised(server.supervised_mode);
    bool background = server.daemonize && !server.supervised;
    if (background) daemonize();
    serverLog(LL_WARNING, "oO0OoO0OoO0Oo cppredis is starting oO0OoO0OoO0Oo");
    serverLog(LL_WARNING, "cppredis version=%s (Redis %s compatible), bits=64, pid=%d, just started",
              CPPREDIS_VERSION, REDIS_COMPAT_VERSION, static_cast<int>(getpid()));
    serverLog(LL_WARNING, configfile.empty() ? "Warning: no config file specified, using the default config."
                                             : "Configuration loaded");
    logConfigWarnings();
    initServer();
    if (background || !server.pidfile.empty()) createPidFile();
    redisSetProcTitle(nullptr);
    showStartupBanner();
    checkTransparentHugePages();
    serverLog(LL_NOTICE, "Server initialized");
    ACLUpdateDefaultUserPassword(server.requirepass);
    ACLLoadUsersAtStartup();
    server.initial_memory_usage = zmalloc_used_memory();
    aofLoadManifestFromDisk();
    loadDataFromDisk();
    aofOpenIfNeededOnServerStart();
    aofDelHistoryFiles();
    if (server.maxmemory > 0 && server.maxmemory < 1024 * 1024)
        serverLog(LL_WARNING,
                  "WARNING: You specified a maxmemory value that is less than 1MB (current value is %lld bytes). Are "
                  "you sure this is what you really want?",
                  server.maxmemory);
    if (!server.ipfd.empty() || !server.tlsfd.empty()) serverLog(LL_NOTICE, "Ready to accept connections");
    if (server.sofd != -1)
        serverLog(LL_NOTICE, "The server is now ready to accept connections at %s", server.unixsocket.c_str());
    if (server.supervised_mode == SUPERVISED_SYSTEMD) {
        redisCommunicateSystemd(server.masterhost.empty() ? "STATUS=Ready to accept connections\n"
                                                          : "STATUS=Ready to accept connections in read-only mode. "
                                                            "Waiting for MASTER <-> REPLICA sync\n");
        redisCommunicateSystemd("READY=1\n");
    }
    redisSetCpuAffinity(server.server_cpulist);
    setOOMScoreAdj(-1);
    aeMain(server.el.get());
    return 0;
}

/* ========================================================================
 * SHUTDOWN
 * ====================================================================== */

/* A signal asked for a shutdown that serverCron has not run yet (a busy
 * script holds the loop): SHUTDOWN ABORT withdraws it. C_ERR when there is
 * none. */
static int abortShutdown() {
    if (!server.shutdown_asap) return C_ERR;
    server.shutdown_asap = false;
    serverLog(LL_NOTICE, "Shutdown manually aborted.");
    return C_OK;
}

/* SHUTDOWN [NOSAVE|SAVE] [NOW] [FORCE] [ABORT]: on success nothing is
 * replied — the connection just closes as the process exits. NOW skips
 * the wait for lagging replicas, of which there are none (prepareForShutdown). */
void shutdownCommand(client *c) {
    int flags = SHUTDOWN_NOFLAGS;
    bool abort = false;
    for (size_t i = 1; i < c->argv.size(); i++) {
        std::string_view a = c->argv[i];
        if (strEqualNoCase(a, "nosave")) flags |= SHUTDOWN_NOSAVE;
        else if (strEqualNoCase(a, "save")) flags |= SHUTDOWN_SAVE;
        else if (strEqualNoCase(a, "now")) flags |= SHUTDOWN_NOW;
        else if (strEqualNoCase(a, "force")) flags |= SHUTDOWN_FORCE;
        else if (strEqualNoCase(a, "abort")) abort = true;
        else return addReplyErrorObject(c, shared::syntaxerr);
    }
    if ((abort && flags != SHUTDOWN_NOFLAGS) || ((flags & SHUTDOWN_NOSAVE) && (flags & SHUTDOWN_SAVE)))
        return addReplyErrorObject(c, shared::syntaxerr);
    if (abort) {
        if (abortShutdown() == C_OK) addReply(c, shared::ok);
        else addReplyError(c, "No shutdown in progress.");
        return;
    }
    /* Beside a busy script only NOSAVE: what it wrote so far is no state
     * to save. (The script stops at its next check: scriptInterrupt.) */
    if (scriptIsTimedout() && !(flags & SHUTDOWN_NOSAVE)) return addReplyError(c, kBusyScriptError);
    if (prepareForShutdown(flags) == C_OK) aeStop(server.el.get());
    else addReplyError(c, "Errors trying to SHUTDOWN. Check logs.");
}

/* ========================================================================
 * INFO
 * ====================================================================== */

static std::string bytesToHuman(unsigned long long n) {
    char buf[64];
    double d = static_cast<double>(n);
    if (n < 1024) snprintf(buf, sizeof(buf), "%lluB", n);
    else if (n < 1024ULL * 1024) snprintf(buf, sizeof(buf), "%.2fK", d / 1024);
    else if (n < 1024ULL * 1024 * 1024) snprintf(buf, sizeof(buf), "%.2fM", d / (1024 * 1024));
    else snprintf(buf, sizeof(buf), "%.2fG", d / (1024.0 * 1024 * 1024));
    return buf;
}


/* INFO's process_supervised: the supervisor found at start-up. */
static const char *supervisedName() {
    if (!server.supervised) return "no";
    if (server.supervised_mode == SUPERVISED_UPSTART) return "upstart";
    if (server.supervised_mode == SUPERVISED_SYSTEMD) return "systemd";
    return "unknown";
}

static void infoServer(std::string &out) {
    static std::string run_id = [] {
        char id[41] = {};
        getRandomHexChars(id, 40);
        return std::string(id);
    }();
    static std::string os = [] {
        utsname u;
        uname(&u);
        return std::string(u.sysname) + " " + u.release + " " + u.machine;
    }();
    long long uptime = server.unixtime - server.stat_starttime;
    InfoSection(out, "Server")
        .field("redis_version", REDIS_COMPAT_VERSION)
        .field("cppredis_version", CPPREDIS_VERSION)
        .field("redis_git_sha1", "00000000")
        .field("redis_git_dirty", 0)
        .field("redis_build_id", "0")
        .field("redis_mode", "standalone")
        .field("os", os)
        .field("arch_bits", 64)
        .field("monotonic_clock", "POSIX clock_gettime")
        .field("multiplexing_api", aeGetApiName())
        .field("atomicvar_api", "c11-builtin")
        .field("gcc_version", __VERSION__)
        .field("process_id", static_cast<long long>(server.pid))
        .field("process_supervised", supervisedName())
        .field("run_id", run_id)
        .field("tcp_port", server.port ? server.port : server.tls_port)
        .field("server_time_usec", server.ustime)
        .field("uptime_in_seconds", uptime)
        .field("uptime_in_days", uptime / 86400)
        .field("hz", server.hz)
        .field("configured_hz", server.config_hz)
        .field("lru_clock", (server.mstime / 1000) & ((1 << 24) - 1))
        .field("executable", server.executable)
        .field("config_file", server.configfile)
        .field("io_threads_active", 0);
}

static void infoClients(std::string &out) {
    size_t maxin, maxout;
    getExpansiveClientsInfo(&maxin, &maxout);
    InfoSection(out, "Clients")
        .field("connected_clients", static_cast<long long>(server.clients.size() - server.slaves.size()))
        .field("cluster_connections", 0)
        .field("maxclients", server.maxclients)
        .field("client_recent_max_input_buffer", maxin)
        .field("client_recent_max_output_buffer", maxout)
        .field("blocked_clients", server.blocked_clients)
        .field("tracking_clients", trackingClientsCount())
        .field("clients_in_timeout_table", static_cast<long long>(server.clients_timeout_table.size()));
}

static std::string formatDouble(const char *fmt, double d) {
    char buf[64];
    snprintf(buf, sizeof(buf), fmt, d);
    return buf;
}

/* Redis 7.0's fields in its order, from one sample of the overhead breakdown
 * and the allocator's figures that MEMORY STATS reports (getMemoryOverheadData,
 * sampled now where Redis's serverCron samples them). Left out: Redis's
 * estimates of its script caches' structures (docs/ref-compatibility.md, "INFO
 * fields cppredis leaves out"). mem_total_replication_buffers is Redis 7's
 * shared replication buffer, the backlog plus what the replicas wait for:
 * cppredis keeps those apart, and adds them up. */
static void infoMemory(std::string &out) {
    const redisMemOverhead mh = getMemoryOverheadData();
    const redisMallocStats &ms = mh.malloc_stats;
    size_t used = ms.zmalloc_used, rss = ms.process_rss;
    struct sysinfo si {};
    sysinfo(&si);
    unsigned long long total = static_cast<unsigned long long>(si.totalram) * si.mem_unit;
    size_t memory_lua = evalMemory(), memory_functions = functionsMemory();
    InfoSection(out, "Memory")
        .field("used_memory", used)
        .field("used_memory_human", bytesToHuman(used))
        .field("used_memory_rss", rss)
        .field("used_memory_rss_human", bytesToHuman(rss))
        .field("used_memory_peak", server.stat_peak_memory)
        .field("used_memory_peak_human", bytesToHuman(server.stat_peak_memory))
        .field("used_memory_peak_perc", formatDouble("%.2f%%", mh.peak_perc))
        .field("used_memory_overhead", mh.overhead_total)
        .field("used_memory_startup", mh.startup_allocated)
        .field("used_memory_dataset", mh.dataset)
        .field("used_memory_dataset_perc", formatDouble("%.2f%%", mh.dataset_perc))
        .field("allocator_allocated", ms.allocator_allocated)
        .field("allocator_active", ms.allocator_active)
        .field("allocator_resident", ms.allocator_resident)
        .field("total_system_memory", total)
        .field("total_system_memory_human", bytesToHuman(total))
        .field("used_memory_lua", memory_lua) /* Redis 7's old name of used_memory_vm_eval */
        .field("used_memory_vm_eval", memory_lua)
        .field("used_memory_lua_human", bytesToHuman(memory_lua))
        .field("number_of_cached_scripts", evalScriptsNum())
        .field("number_of_functions", functionsNum())
        .field("number_of_libraries", functionsLibNum())
        .field("used_memory_vm_functions", memory_functions)
        .field("used_memory_vm_total", memory_functions + memory_lua)
        .field("used_memory_vm_total_human", bytesToHuman(memory_functions + memory_lua))
        .field("maxmemory", server.maxmemory)
        .field("maxmemory_human", bytesToHuman(static_cast<unsigned long long>(server.maxmemory)))
        .field("maxmemory_policy", evictPolicyToString())
        .field("allocator_frag_ratio", formatDouble("%.2f", mh.allocator_frag))
        /* Redis prints this one unsigned (%zu): below zero it wraps, as there */
        .field("allocator_frag_bytes", static_cast<size_t>(mh.allocator_frag_bytes))
        .field("allocator_rss_ratio", formatDouble("%.2f", mh.allocator_rss))
        .field("allocator_rss_bytes", mh.allocator_rss_bytes)
        .field("rss_overhead_ratio", formatDouble("%.2f", mh.rss_extra))
        .field("rss_overhead_bytes", mh.rss_extra_bytes)
        .field("mem_fragmentation_ratio", formatDouble("%.2f", mh.total_frag))
        .field("mem_fragmentation_bytes", mh.total_frag_bytes)
        .field("mem_not_counted_for_evict", freeMemoryGetNotCountedMemory())
        .field("mem_replication_backlog", mh.repl_backlog)
        .field("mem_total_replication_buffers", mh.repl_backlog + mh.clients_slaves)
        .field("mem_clients_slaves", mh.clients_slaves)
        .field("mem_clients_normal", mh.clients_normal)
        .field("mem_cluster_links", 0)
        .field("mem_aof_buffer", mh.aof_buffer)
        .field("mem_allocator", zmalloc_lib())
        .field("active_defrag_running", 0)
        .field("lazyfree_pending_objects", lazyfreeGetPendingObjectsCount())
        .field("lazyfreed_objects", lazyfreeGetFreedObjectsCount());
}

/* The mechanisms cppredis lacks show as Redis shows them switched off:
 * no active defrag (active_defrag_*), no I/O threads (io_threaded_*), no
 * cached MIGRATE sockets, no client eviction (evicted_clients), a reply
 * buffer never resized (reply_buffer_*). */
static void infoStats(std::string &out) {
    long long exceeded_us = server.stat_last_eviction_exceeded_time
                                ? static_cast<long long>(getMonotonicUs() - server.stat_last_eviction_exceeded_time)
                                : 0;
    auto kbps = [](int metric) {
        return formatDouble("%.2f", static_cast<float>(getInstantaneousMetric(metric)) / 1024);
    };
    InfoSection(out, "Stats")
        .field("total_connections_received", server.stat_numconnections)
        .field("total_commands_processed", server.stat_numcommands)
        .field("instantaneous_ops_per_sec", getInstantaneousMetric(redisServer::STATS_METRIC_COMMAND))
        .field("total_net_input_bytes", server.stat_net_input_bytes + server.stat_net_repl_input_bytes)
        .field("total_net_output_bytes", server.stat_net_output_bytes + server.stat_net_repl_output_bytes)
        .field("total_net_repl_input_bytes", server.stat_net_repl_input_bytes)
        .field("total_net_repl_output_bytes", server.stat_net_repl_output_bytes)
        .field("instantaneous_input_kbps", kbps(redisServer::STATS_METRIC_NET_INPUT))
        .field("instantaneous_output_kbps", kbps(redisServer::STATS_METRIC_NET_OUTPUT))
        .field("instantaneous_input_repl_kbps", kbps(redisServer::STATS_METRIC_NET_INPUT_REPLICATION))
        .field("instantaneous_output_repl_kbps", kbps(redisServer::STATS_METRIC_NET_OUTPUT_REPLICATION))
        .field("rejected_connections", server.stat_rejected_conn)
        .field("sync_full", server.stat_sync_full)
        .field("sync_partial_ok", server.stat_sync_partial_ok)
        .field("sync_partial_err", server.stat_sync_partial_err)
        .field("expired_keys", server.stat_expiredkeys)
        .field("expired_stale_perc", formatDouble("%.2f", server.stat_expired_stale_perc * 100))
        .field("expired_time_cap_reached_count", server.stat_expired_time_cap_reached_count)
        .field("expire_cycle_cpu_milliseconds", server.stat_expire_cycle_time_used / 1000)
        .field("evicted_keys", server.stat_evictedkeys)
        .field("evicted_clients", 0)
        .field("total_eviction_exceeded_time", (server.stat_total_eviction_exceeded_time + exceeded_us) / 1000)
        .field("current_eviction_exceeded_time", exceeded_us / 1000)
        .field("keyspace_hits", server.stat_keyspace_hits)
        .field("keyspace_misses", server.stat_keyspace_misses)
        .field("pubsub_channels", server.pubsub_channels.size())
        .field("pubsub_patterns", server.pubsub_patterns.size())
        .field("pubsubshard_channels", server.pubsub_shard_channels.size())
        .field("latest_fork_usec", server.stat_fork_time)
        .field("total_forks", server.stat_total_forks)
        .field("migrate_cached_sockets", 0)
        .field("active_defrag_hits", 0)
        .field("active_defrag_misses", 0)
        .field("active_defrag_key_hits", 0)
        .field("active_defrag_key_misses", 0)
        .field("total_active_defrag_time", 0)
        .field("current_active_defrag_time", 0)
        .field("tracking_total_keys", trackingGetTotalKeys())
        .field("tracking_total_items", trackingGetTotalItems())
        .field("tracking_total_prefixes", trackingGetTotalPrefixes())
        .field("unexpected_error_replies", server.stat_unexpected_error_replies)
        .field("total_error_replies", server.stat_total_error_replies)
        .field("dump_payload_sanitizations", server.stat_dump_payload_sanitizations)
        .field("total_reads_processed", server.stat_total_reads_processed)
        .field("total_writes_processed", server.stat_total_writes_processed)
        .field("io_threaded_reads_processed", 0)
        .field("io_threaded_writes_processed", 0)
        .field("reply_buffer_shrinks", 0)
        .field("reply_buffer_expands", 0);
}

static std::string cpuSeconds(const timeval &tv) {
    char buf[32];
    snprintf(buf, sizeof(buf), "%ld.%06ld", static_cast<long>(tv.tv_sec), static_cast<long>(tv.tv_usec));
    return buf;
}

static void infoCpu(std::string &out) {
    rusage self {}, children {}, main_thread {};
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &children);
    getrusage(RUSAGE_THREAD, &main_thread); /* INFO runs on the main thread */
    InfoSection(out, "CPU")
        .field("used_cpu_sys", cpuSeconds(self.ru_stime))
        .field("used_cpu_user", cpuSeconds(self.ru_utime))
        .field("used_cpu_sys_children", cpuSeconds(children.ru_stime))
        .field("used_cpu_user_children", cpuSeconds(children.ru_utime))
        .field("used_cpu_sys_main_thread", cpuSeconds(main_thread.ru_stime))
        .field("used_cpu_user_main_thread", cpuSeconds(main_thread.ru_utime));
}

/* No modules can be loaded: the section is there, empty, as in a Redis
 * without modules. */
static void infoModules(std::string &out) { InfoSection(out, "Modules"); }

/* INFO's "name:value" lines break on these; Redis writes '_' instead
 * (getSafeInfoString). */
static std::string safeInfoString(std::string_view s) {
    std::string safe(s);
    for (char &ch : safe)
        if (ch == '#' || ch == ':' || ch == '\n' || ch == '\r') ch = '_';
    return safe;
}

static void infoCommandStats(std::string &out) {
    InfoSection section(out, "Commandstats");
    auto one = [&](const redisCommand &cmd) {
        if (!cmd.calls && !cmd.rejected_calls && !cmd.failed_calls) return;
        char buf[256];
        snprintf(buf, sizeof(buf), "calls=%lld,usec=%lld,usec_per_call=%.2f,rejected_calls=%lld,failed_calls=%lld",
                 cmd.calls, cmd.microseconds,
                 cmd.calls ? static_cast<float>(cmd.microseconds) / static_cast<float>(cmd.calls) : 0.0f,
                 cmd.rejected_calls, cmd.failed_calls);
        section.field(("cmdstat_" + cmd.fullname).c_str(), std::string(buf));
    };
    for (const redisCommand &cmd : *server.command_table) {
        one(cmd);
        for (const redisCommand &sub : cmd.subcommands) one(sub);
    }
}

/* One line per error code replied since the start (or CONFIG RESETSTAT). */
static void infoErrorStats(std::string &out) {
    InfoSection section(out, "Errorstats");
    for (const auto &[code, count] : server.errors)
        section.field(("errorstat_" + safeInfoString(code)).c_str(), "count=" + std::to_string(count));
}

static void infoCluster(std::string &out) { InfoSection(out, "Cluster").field("cluster_enabled", 0); }

/* One line per non-empty database. */
static void infoKeyspace(std::string &out) {
    InfoSection section(out, "Keyspace");
    for (int j = 0; j < server.dbnum; j++) {
        const redisDb &db = server.db[j];
        if (db.dict.size() == 0 && db.expires.size() == 0) continue;
        char name[16], buf[96];
        snprintf(name, sizeof(name), "db%d", j);
        snprintf(buf, sizeof(buf), "keys=%zu,expires=%zu,avg_ttl=%lld", db.dict.size(), db.expires.size(),
                 db.avg_ttl);
        section.field(name, std::string(buf));
    }
}

/* INFO's sections in Redis 7.0's order. `in_default`: shown by INFO and
 * INFO default. `alias`: a second name selecting it ("module_list" is the
 * default set's name for the modules section). */
struct InfoSectionDef {
    const char *name;
    void (*gen)(std::string &);
    bool in_default;
    const char *alias = nullptr;
};

static const InfoSectionDef kInfoSections[] = {
    {"server", infoServer, true},
    {"clients", infoClients, true},
    {"memory", infoMemory, true},
    {"persistence", infoPersistence, true},
    {"stats", infoStats, true},
    {"replication", genReplicationInfoString, true},
    {"cpu", infoCpu, true},
    {"modules", infoModules, true, "module_list"},
    {"commandstats", infoCommandStats, false},
    {"errorstats", infoErrorStats, true},
    {"latencystats", infoLatencyStats, false},
    {"cluster", infoCluster, true},
    {"keyspace", infoKeyspace, true},
};

/* Redis's genInfoSectionDict and genRedisInfoString: no argument is
 * "default"; "default" adds the default sections, "all" and "everything"
 * every section (they differ only by modules' own sections, which cppredis
 * cannot have); any other argument names one section, case-insensitively.
 * An unknown name selects nothing. */
static std::string genRedisInfoString(std::span<const std::string_view> args) {
    bool all = false, dflt = args.empty();
    for (std::string_view a : args) {
        if (strEqualNoCase(a, "all") || strEqualNoCase(a, "everything")) all = true;
        else if (strEqualNoCase(a, "default")) dflt = true;
    }
    auto named = [&](const char *name) {
        return name && std::any_of(args.begin(), args.end(), [&](std::string_view a) { return strEqualNoCase(a, name); });
    };
    std::string out;
    for (const InfoSectionDef &def : kInfoSections) {
        if (all || (dflt && def.in_default) || named(def.name) || named(def.alias)) def.gen(out);
    }
    return out;
}

void infoCommand(client *c) { addReplyVerbatim(c, genRedisInfoString(std::span(c->argv).subspan(1))); }
