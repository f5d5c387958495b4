/* scripting.cpp — EVAL/EVALSHA, the script cache and SCRIPT (Redis's eval.c),
 * and the life of a running script: its client, the checks redis.call()
 * makes, busy scripts and SCRIPT KILL (Redis's script.c). See scripting.h;
 * the interpreter itself is in script_lua.cpp. */
#include "scripting.h"

#include <algorithm>
#include <cstring>
#include <ctime>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "acl.h"
#include "aof.h"
#include "dict.h"
#include "evict.h"
#include "lazyfree.h"
#include "rdb.h"
#include "replication.h"
#include "script_lua.h"
#include "server.h"
#include "sha1.h"
#include "tls.h"
#include "util.h"

namespace {

/* A cached script (Redis's luaScript): its flags and its compiled function
 * (a reference in the Lua registry). */
struct luaScript {
    uint64_t flags;
    int fref;
};
/* SHA1 (lower-case hex) -> script; EVALSHA and SCRIPT EXISTS may spell the
 * SHA1 in upper case. */
using scriptsDict = dict<sds, luaScript, DictNoCaseTraits>;

constexpr size_t SHA_LEN = 40;
constexpr std::string_view kNoScriptError = "-NOSCRIPT No matching script. Please use EVAL.";

/* The interpreter, the script client and the cache (Redis's lctx). The
 * interpreter is created by the first script command. */
struct luaCtx {
    lua_State *lua = nullptr;
    std::unique_ptr<client> script_client;
    scriptsDict scripts;

    ~luaCtx() {
        if (lua) lua_close(lua);
    }
};
luaCtx lctx;
scriptRunCtx *curr_run_ctx = nullptr;

struct luaStateCloser {
    void operator()(lua_State *lua) const { lua_close(lua); }
};
/* An interpreter and its cache, let go of together by SCRIPT FLUSH ASYNC. */
struct luaScriptsRelease {
    std::unique_ptr<lua_State, luaStateCloser> lua;
    scriptsDict scripts;
};

/* A client for no connection: Redis keeps it out of the client list, so
 * CLIENT LIST, INFO's connected_clients and maxclients ignore it. Blocking
 * commands never block on it. */
std::unique_ptr<client> createScriptClient() {
    client *c = createClient(nullptr);
    std::unique_ptr<client> owned = std::move(*c->self);
    server.clients.erase(c->self);
    server.clients_index.erase(c->id);
    c->flags |= CLIENT_SCRIPT | CLIENT_DENY_BLOCKING;
    return owned;
}

void scriptingInit() {
    if (lctx.lua) return;
    lctx.lua = luaCreateScriptingState();
    if (!lctx.script_client) lctx.script_client = createScriptClient();
}

/* SCRIPT FLUSH: a new interpreter, an empty cache. Asynchronously, a
 * cache of more than LAZYFREE_THRESHOLD scripts is freed on the bio thread
 * with its interpreter, which holds the compiled scripts (Redis 7.0 frees
 * the cache there but closes its interpreter itself; here the old
 * interpreter is unreachable once lctx lets go of it, nothing is shared
 * between two Lua states, and its only __gc metamethods free cmsgpack's
 * buffers, so it may close on any thread). */
void scriptingReset(bool async) {
    if (async && lctx.scripts.size() > LAZYFREE_THRESHOLD) {
        size_t scripts = lctx.scripts.size();
        luaScriptsRelease old{std::unique_ptr<lua_State, luaStateCloser>(std::exchange(lctx.lua, nullptr)),
                              std::move(lctx.scripts)};
        lazyfreeOwned(std::move(old), scripts);
    } else {
        lctx.scripts.clear();
        if (lctx.lua) lua_close(lctx.lua);
        lctx.lua = nullptr;
    }
    scriptingInit();
}

long long monotonicMs() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* ========================================================================
 * The script cache
 * ====================================================================== */

/* "a,b" of "flags=a,b": every name, empty ones included, must be a flag. */
bool parseShebangFlags(std::string_view list, uint64_t *flags, std::string &err) {
    if (list.empty()) return true;
    for (size_t start = 0;;) {
        size_t comma = list.find(',', start);
        std::string_view name = list.substr(start, comma == std::string_view::npos ? comma : comma - start);
        const scriptFlag *sf = std::find_if(std::begin(scripts_flags_def), std::end(scripts_flags_def),
                                            [name](const scriptFlag &f) { return f.name == name; });
        if (sf == std::end(scripts_flags_def)) {
            err = "Unexpected flag in script shebang: " + std::string(name);
            return false;
        }
        *flags |= sf->flag;
        if (comma == std::string_view::npos) return true;
        start = comma + 1;
    }
}

/* Splits a "#!lua flags=a,b" first line (Redis 7's shebang). Its length
 * goes to *shebang_len: the body compiled starts at its newline, so line
 * numbers are kept. */
bool evalExtractShebangFlags(std::string_view body, uint64_t *out_flags, size_t *shebang_len, std::string &err) {
    *out_flags = SCRIPT_FLAG_EVAL_COMPAT_MODE;
    *shebang_len = 0;
    if (!body.starts_with("#!")) return true;
    size_t eol = body.find('\n');
    if (eol == std::string_view::npos) {
        err = "Invalid script shebang";
        return false;
    }
    *shebang_len = eol;
    std::vector<std::string> parts;
    if (!splitArgs(body.substr(0, eol), parts) || parts.empty()) {
        err = "Invalid engine in script shebang";
        return false;
    }
    if (parts[0] != "#!lua") {
        err = "Unexpected engine in script shebang: " + parts[0];
        return false;
    }
    *out_flags = 0;
    for (size_t j = 1; j < parts.size(); j++) {
        if (!parts[j].starts_with("flags=")) {
            err = "Unknown lua shebang option: " + parts[j];
            return false;
        }
        if (!parseShebangFlags(std::string_view(parts[j]).substr(6), out_flags, err)) return false;
    }
    return true;
}

/* The cached script of `body` (SHA1 `sha`), compiling and caching it first
 * if needed; nullptr after replying the error to `c`. */
scriptsDict::entry *luaCreateFunction(client *c, std::string_view body, std::string_view sha) {
    if (scriptsDict::entry *de = lctx.scripts.find(sha)) return de;
    uint64_t flags;
    size_t shebang_len;
    std::string err;
    if (!evalExtractShebangFlags(body, &flags, &shebang_len, err)) {
        addReplyError(c, err);
        return nullptr;
    }
    int fref = luaCompileScript(lctx.lua, c, body.substr(shebang_len));
    if (fref == LUA_NOREF) return nullptr;
    return lctx.scripts.add(sds(sha), luaScript{flags, fref});
}

/* ========================================================================
 * The running script
 * ====================================================================== */

/* The caller of a busy script is not read while other clients are: its
 * argv points into its query buffer (Redis's protectClient). It cannot be
 * freed meanwhile either: the event loop frees clients with write errors
 * asynchronously, and CLIENT KILL is answered -BUSY. */
void protectClient(client *c) {
    if (c->conn) connSetReadHandler(c->conn.get(), nullptr);
}

void unprotectClient(client *c) {
    if (c->conn) connSetReadHandler(c->conn.get(), readQueryFromClient);
}

/* Reads and answers other clients while a busy script runs (Redis's
 * processEventsWhileBlocked): file events (and TLS's pending bytes) only, no timers, and of
 * beforeSleep's work only the writing — the AOF first, as there, then the
 * replies — nothing that could run commands (unblocked clients wait). */
void processEventsWhileBlocked() {
    client *current = server.current_client;
    for (int iterations = 4; iterations > 0; iterations--) {
        int events = aeProcessEvents(server.el.get(), AE_FILE_EVENTS | AE_DONT_WAIT);
        events += connProcessPendingData(); /* as Redis: TLS's decrypted bytes too */
        if (server.aof_state != AOF_OFF) flushAppendOnlyFile();
        events += handleClientsWithPendingWrites();
        if (!events) break;
    }
    server.current_client = current;
}

void evalGenericCommand(client *c, bool evalsha) {
    long long numkeys;
    if (!getLongLongFromObjectOrReply(c, c->argv[2], &numkeys)) return;
    long long nargs = static_cast<long long>(c->argv.size()) - 3;
    if (numkeys > nargs) return addReplyError(c, "Number of keys can't be greater than number of args");
    if (numkeys < 0) return addReplyError(c, "Number of keys can't be negative");
    scriptingInit();
    scriptsDict::entry *de;
    if (evalsha) {
        de = lctx.scripts.find(c->argv[1]);
        if (!de) return addReplyError(c, kNoScriptError);
    } else {
        de = luaCreateFunction(c, c->argv[1], sha1hex(c->argv[1]));
        if (!de) return;
    }
    char funcname[SHA_LEN + 1];
    memcpy(funcname, de->key.data(), SHA_LEN);
    funcname[SHA_LEN] = '\0';
    luaScript script = de->val;
    bool ro = c->cmd->proc == evalRoCommand || c->cmd->proc == evalShaRoCommand;
    scriptRunCtx run_ctx;
    if (!scriptPrepareForRun(&run_ctx, c, funcname, script.flags, ro)) return;
    run_ctx.flags |= SCRIPT_EVAL_MODE;
    std::span<const std::string_view> args(c->argv);
    luaCallFunction(&run_ctx, lctx.lua, script.fref, args.subspan(3, numkeys), args.subspan(3 + numkeys));
    scriptResetRun(&run_ctx);
}

/* EVALSHA with anything but 40 characters needs no lookup. */
void evalShaGenericCommand(client *c) {
    if (c->argv[1].size() != SHA_LEN) return addReplyError(c, kNoScriptError);
    evalGenericCommand(c, true);
}

}  // namespace

size_t evalMemory() { return lctx.lua ? luaMemory(lctx.lua) : 0; }
size_t evalScriptsNum() { return lctx.scripts.size(); }

uint64_t evalGetCommandFlags(client *c, uint64_t cmd_flags) {
    uint64_t script_flags;
    if (c->cmd->proc == evalShaCommand || c->cmd->proc == evalShaRoCommand) {
        const scriptsDict::entry *de = c->argv[1].size() == SHA_LEN ? lctx.scripts.find(c->argv[1]) : nullptr;
        if (!de) return cmd_flags;
        script_flags = de->val.flags;
    } else {
        /* The flags of a cached script are its body's: parsing the first
         * line says the same without hashing the body. */
        size_t shebang_len;
        std::string err;
        if (!evalExtractShebangFlags(c->argv[1], &script_flags, &shebang_len, err)) return cmd_flags;
    }
    return scriptFlagsToCmdFlags(cmd_flags, script_flags);
}

uint64_t scriptFlagsToCmdFlags(uint64_t cmd_flags, uint64_t script_flags) {
    if (script_flags & SCRIPT_FLAG_EVAL_COMPAT_MODE) return cmd_flags;
    cmd_flags &= ~(CMD_STALE | CMD_DENYOOM | CMD_WRITE);
    if (!(script_flags & SCRIPT_FLAG_NO_WRITES)) cmd_flags |= CMD_WRITE;
    if (!(script_flags & (SCRIPT_FLAG_ALLOW_OOM | SCRIPT_FLAG_NO_WRITES))) cmd_flags |= CMD_DENYOOM;
    if (script_flags & SCRIPT_FLAG_ALLOW_STALE) cmd_flags |= CMD_STALE;
    /* Declared flags say whether it writes: "may" no longer applies (CLIENT PAUSE WRITE). */
    cmd_flags &= ~CMD_MAY_REPLICATE;
    return cmd_flags;
}

/* A script whose flags promise writes cannot start where writes would be
 * refused. Compatibility-mode scripts are checked command by command
 * instead, but not on a stale replica. */
bool scriptPrepareForRun(scriptRunCtx *run_ctx, client *caller, const char *funcname, uint64_t script_flags,
                         bool ro) {
    bool compat = script_flags & SCRIPT_FLAG_EVAL_COMPAT_MODE;
    bool no_writes = !compat && (script_flags & SCRIPT_FLAG_NO_WRITES);
    bool obey_client = caller->flags & CLIENT_MASTER;
    bool running_stale =
        !server.masterhost.empty() && server.repl_state != REPL_STATE_CONNECTED && !server.repl_serve_stale_data;
    if (compat && running_stale) {
        addReplyError(caller, "-MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.");
        return false;
    }
    if (!compat && running_stale && !(script_flags & SCRIPT_FLAG_ALLOW_STALE)) {
        addReplyError(caller, "-MASTERDOWN Link with MASTER is down, replica-serve-stale-data is set to 'no' and "
                              "'allow-stale' flag is not set on the script.");
        return false;
    }
    if (!compat && !no_writes) {
        if (!server.masterhost.empty() && server.repl_slave_ro && !obey_client) {
            addReplyError(caller, "-READONLY Can not run script with write flag on readonly replica");
            return false;
        }
        if (rdbWritesDeniedByBgsaveError()) {
            addReplyError(caller, "-MISCONF Redis is configured to save RDB snapshots, but it's currently unable to "
                                  "persist to disk. Writable scripts are blocked. Use 'no-writes' flag for read only "
                                  "scripts.");
            return false;
        }
        if (const char *disk_error = writeCommandsDeniedByDiskError()) {
            addReplyError(caller, disk_error);
            return false;
        }
        if (ro) {
            addReplyError(caller, "Can not execute a script with write flag using *_ro command.");
            return false;
        }
        if (server.masterhost.empty() && !checkGoodReplicasStatus()) {
            addReplyError(caller, "-NOREPLICAS Not enough good replicas to write.");
            return false;
        }
    }
    /* no-writes implies allow-oom. */
    bool allow_oom = !compat && (script_flags & (SCRIPT_FLAG_ALLOW_OOM | SCRIPT_FLAG_NO_WRITES));
    if (!compat && !allow_oom && server.pre_command_oom_state && server.maxmemory) {
        addReplyError(caller, "-OOM allow-oom flag is not set on the script, can not run it when used memory > "
                              "'maxmemory'");
        return false;
    }
    if (!lctx.script_client) lctx.script_client = createScriptClient();
    client *sc = lctx.script_client.get();
    sc->db = caller->db;
    sc->user = caller->user; /* redis.call() runs with the caller's permissions */
    int flags = ((ro || no_writes) ? SCRIPT_READ_ONLY : 0) | (allow_oom ? SCRIPT_ALLOW_OOM : 0);
    *run_ctx = {caller, sc, funcname, monotonicMs(), flags, PROPAGATE_AOF | PROPAGATE_REPL};
    curr_run_ctx = run_ctx;
    return true;
}

void scriptResetRun(scriptRunCtx *run_ctx) {
    if (run_ctx->flags & SCRIPT_TIMEDOUT) unprotectClient(run_ctx->original_client);
    /* Its effects are propagated, not EVAL. */
    preventCommandPropagation(run_ctx->original_client);
    curr_run_ctx = nullptr;
}

long long scriptRunDuration() { return monotonicMs() - curr_run_ctx->start_time; }

std::string_view scriptBusyError() {
    return curr_run_ctx && !(curr_run_ctx->flags & SCRIPT_EVAL_MODE) ? kBusyFunctionError : kBusyScriptError;
}

void scriptKill(client *c, bool is_eval) {
    if (!curr_run_ctx) return addReplyError(c, "-NOTBUSY No scripts in execution right now.");
    if (curr_run_ctx->original_client->flags & CLIENT_MASTER)
        return addReplyError(c, "-UNKILLABLE The busy script was sent by a master instance in the context of "
                                "replication and cannot be killed.");
    if (curr_run_ctx->flags & SCRIPT_WRITE_DIRTY)
        return addReplyError(c, "-UNKILLABLE Sorry the script already executed write commands against the dataset. "
                                "You can either wait the script termination or kill the server in a hard way using "
                                "the SHUTDOWN NOSAVE command.");
    bool running_eval = curr_run_ctx->flags & SCRIPT_EVAL_MODE;
    if (is_eval && !running_eval) return addReplyError(c, kBusyFunctionError);
    if (!is_eval && running_eval) return addReplyError(c, kBusyScriptError);
    curr_run_ctx->flags |= SCRIPT_KILLED;
    addReply(c, shared::ok);
}

scriptRunCtx *scriptCurrentRun() { return curr_run_ctx; }

bool scriptIsTimedout() { return curr_run_ctx && (curr_run_ctx->flags & SCRIPT_TIMEDOUT); }

/* "The user executing the script can't ...": a fixed text per reason. */
static const char *scriptACLError(int acl_retval) {
    static std::string texts[ACL_DENIED_CHANNEL + 1];
    std::string &text = texts[acl_retval];
    if (text.empty()) text = std::string("The user executing the script ") + getAclErrorMessage(acl_retval);
    return text.c_str();
}

const char *scriptCall(scriptRunCtx *run_ctx) {
    client *c = run_ctx->c;
    redisCommand *cmd = c->cmd = c->lastcmd = lookupCommand(c->argv);
    int argc = static_cast<int>(c->argv.size());
    const char *err = nullptr;
    if (!cmd) err = "Unknown Redis command called from script";
    else if ((cmd->arity > 0 && cmd->arity != argc) || argc < -cmd->arity)
        err = "Wrong number of args calling Redis command from script";
    else if (cmd->flags & CMD_NOSCRIPT) err = "This Redis command is not allowed from script";
    else if (int acl_errpos, acl_retval = ACLCheckAllPerm(c, &acl_errpos); acl_retval != ACL_OK) {
        addACLLogEntry(c, acl_retval, ACL_LOG_CTX_LUA, acl_errpos);
        err = scriptACLError(acl_retval);
    }
    else if ((run_ctx->flags & SCRIPT_READ_ONLY) && (cmd->flags & (CMD_WRITE | CMD_MAY_REPLICATE)))
        err = "Write commands are not allowed from read-only scripts.";
    /* Only a script's first write: once it has written, it must not stop
     * halfway for a state it could not foresee. */
    else if ((cmd->flags & CMD_WRITE) && !(run_ctx->flags & SCRIPT_WRITE_DIRTY))
        err = writeCommandsDeniedByDiskError();
    /* Over maxmemory when the script started (its own stack and arguments
     * must not count): refused until it has written. */
    if (!err && (cmd->flags & CMD_DENYOOM) && server.maxmemory && server.pre_command_oom_state &&
        !(run_ctx->flags & (SCRIPT_ALLOW_OOM | SCRIPT_WRITE_DIRTY)) && !server.loading)
        err = kOomError.data();
    if (err) {
        /* Counted here, as Redis counts a rejected command; the script's
         * reply of it (if it fails) is not counted again. */
        afterErrorReply(c, err, 0);
        incrCommandStatsOnError(cmd, ERROR_COMMAND_REJECTED);
        return err;
    }
    if (cmd->flags & CMD_WRITE) run_ctx->flags |= SCRIPT_WRITE_DIRTY;
    int call_flags = CMD_CALL_NONE;
    if (run_ctx->repl_flags & PROPAGATE_AOF) call_flags |= CMD_CALL_PROPAGATE_AOF;
    if (run_ctx->repl_flags & PROPAGATE_REPL) call_flags |= CMD_CALL_PROPAGATE_REPL;
    call(c, call_flags);
    return nullptr;
}

bool scriptInterrupt(scriptRunCtx *run_ctx) {
    if (!(run_ctx->flags & SCRIPT_TIMEDOUT)) {
        long long elapsed = monotonicMs() - run_ctx->start_time;
        if (elapsed < server.busy_reply_threshold) return false;
        serverLog(LL_WARNING,
                  "Slow script detected: still in execution after %lld milliseconds. You can try killing the script "
                  "using the %s command. Script name is: %s.",
                  elapsed, (run_ctx->flags & SCRIPT_EVAL_MODE) ? "SCRIPT KILL" : "FUNCTION KILL", run_ctx->funcname);
        run_ctx->flags |= SCRIPT_TIMEDOUT;
        protectClient(run_ctx->original_client);
    }
    processEventsWhileBlocked();
    /* SHUTDOWN NOSAVE stopped the event loop: the script stops too, so that
     * the server can exit. */
    if (server.el->stop) run_ctx->flags |= SCRIPT_KILLED;
    return run_ctx->flags & SCRIPT_KILLED;
}

/* ========================================================================
 * Commands
 * ====================================================================== */

/* Each feeds MONITOR itself (the commands are CMD_SKIP_MONITOR), so that
 * the script's own commands show after it. */
void evalCommand(client *c) {
    replicationFeedMonitors(c, c->db->id, c->argv);
    evalGenericCommand(c, false);
}
void evalRoCommand(client *c) { evalCommand(c); }
void evalShaCommand(client *c) {
    replicationFeedMonitors(c, c->db->id, c->argv);
    evalShaGenericCommand(c);
}
void evalShaRoCommand(client *c) { evalShaCommand(c); }

/* SCRIPT LOAD script */
void scriptLoadCommand(client *c) {
    scriptingInit();
    std::string sha = sha1hex(c->argv[2]);
    if (luaCreateFunction(c, c->argv[2], sha)) addReplyBulk(c, sha);
}

/* SCRIPT EXISTS sha1 [sha1 ...] */
void scriptExistsCommand(client *c) {
    addReplyArrayLen(c, static_cast<long long>(c->argv.size()) - 2);
    for (size_t j = 2; j < c->argv.size(); j++) addReplyLongLong(c, lctx.scripts.find(c->argv[j]) ? 1 : 0);
}

/* SCRIPT FLUSH [ASYNC|SYNC]; neither: lazyfree-lazy-user-flush decides. */
void scriptFlushCommand(client *c) {
    if (c->argv.size() > 3 ||
        (c->argv.size() == 3 && !strEqualNoCase(c->argv[2], "sync") && !strEqualNoCase(c->argv[2], "async")))
        return addReplyError(c, "SCRIPT FLUSH only support SYNC|ASYNC option");
    bool async = c->argv.size() == 3 ? strEqualNoCase(c->argv[2], "async") : server.lazyfree_lazy_user_flush;
    scriptingReset(async);
    addReply(c, shared::ok);
}

/* SCRIPT KILL: only an EVAL script that wrote nothing may stop halfway. */
void scriptKillCommand(client *c) { scriptKill(c, true); }

/* Redis's help, without SCRIPT DEBUG (no Lua debugger here). */
void scriptHelpCommand(client *c) {
    static const char *const help[] = {
        "EXISTS <sha1> [<sha1> ...]",
        "    Return information about the existence of the scripts in the script cache.",
        "FLUSH [ASYNC|SYNC]",
        "    Flush the Lua scripts cache. Very dangerous on replicas.",
        "    When called without the optional mode argument, the behavior is determined by the",
        "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
        "    * ASYNC: Asynchronously flush the scripts cache.",
        "    * SYNC: Synchronously flush the scripts cache.",
        "KILL",
        "    Kill the currently executing Lua script.",
        "LOAD <script>",
        "    Load a script into the scripts cache without executing it.",
        nullptr,
    };
    addReplyHelp(c, help);
}
