/* scripting.h — Lua scripting (Redis's eval.c and script.c): EVAL/EVALSHA
 * (and their _RO variants), the script cache (SCRIPT LOAD|EXISTS|FLUSH) and
 * the life of a running script (the Lua side is script_lua.h).
 *
 * A script runs on its own socketless client (the "script client") in the
 * caller's database; its redis.call()s are nested call()s, so their effects
 * reach the AOF as one MULTI/EXEC unit while EVAL itself is not propagated
 * (those redis.set_repl() keeps from the AOF are left out).
 * Invariants:
 *  - At most one script runs at a time (curr_run_ctx): nothing else runs
 *    while it does. Once it has run for busy-reply-threshold ms it is "timed
 *    out": its count hook lets the event loop read other clients, who are
 *    answered -BUSY except for the CMD_ALLOW_BUSY commands (SCRIPT KILL,
 *    SHUTDOWN NOSAVE ...); the caller is not read meanwhile (its argv views
 *    point into its query buffer), and no blocked client is served before
 *    the script ends.
 *  - FCALL (functions.h) runs functions through the same machinery
 *    (scriptPrepareForRun ... scriptResetRun), without SCRIPT_EVAL_MODE:
 *    each kind is stopped by its own KILL command.
 *  - The script cache maps a body's SHA1 to the compiled function in the
 *    Lua registry; SCRIPT FLUSH starts a new interpreter.
 */
#pragma once

#include <cstdint>
#include <string_view>

struct client;

/* scriptRunCtx::flags */
constexpr int SCRIPT_WRITE_DIRTY = 1 << 0; /* a write command ran: SCRIPT KILL refuses (UNKILLABLE) */
constexpr int SCRIPT_READ_ONLY = 1 << 1;   /* EVAL_RO or a no-writes shebang: writes are refused */
constexpr int SCRIPT_TIMEDOUT = 1 << 2;    /* past busy-reply-threshold: others get -BUSY */
constexpr int SCRIPT_KILLED = 1 << 3;      /* SCRIPT KILL (or SHUTDOWN NOSAVE) asked it to stop */
constexpr int SCRIPT_ALLOW_OOM = 1 << 4;   /* an allow-oom shebang: writes run over maxmemory */
constexpr int SCRIPT_EVAL_MODE = 1 << 5;   /* EVAL, not FCALL: KEYS/ARGV are globals; SCRIPT KILL, not FUNCTION KILL */

/* The flags a script declares: an EVAL "#!lua flags=..." line or a
 * function's register_function flags (Redis 7). A script without a shebang
 * runs in EVAL's compatibility mode: the flags say nothing, its commands
 * are checked one by one. */
constexpr uint64_t SCRIPT_FLAG_NO_WRITES = 1ULL << 0;
constexpr uint64_t SCRIPT_FLAG_ALLOW_OOM = 1ULL << 1;
constexpr uint64_t SCRIPT_FLAG_ALLOW_STALE = 1ULL << 2;
constexpr uint64_t SCRIPT_FLAG_NO_CLUSTER = 1ULL << 3;
constexpr uint64_t SCRIPT_FLAG_EVAL_COMPAT_MODE = 1ULL << 4;
constexpr uint64_t SCRIPT_FLAG_ALLOW_CROSS_SLOT = 1ULL << 5;

struct scriptFlag {
    uint64_t flag;
    std::string_view name;
};
inline constexpr scriptFlag scripts_flags_def[] = {
    {SCRIPT_FLAG_NO_WRITES, "no-writes"},     {SCRIPT_FLAG_ALLOW_OOM, "allow-oom"},
    {SCRIPT_FLAG_ALLOW_STALE, "allow-stale"}, {SCRIPT_FLAG_NO_CLUSTER, "no-cluster"},
    {SCRIPT_FLAG_ALLOW_CROSS_SLOT, "allow-cross-slot-keys"},
};

/* The script being run (Redis's scriptRunCtx). */
struct scriptRunCtx {
    client *original_client;   /* who sent EVAL */
    client *c;                 /* the script client redis.call() runs commands on */
    const char *funcname;      /* the script's SHA1 or the function's name, for errors and the log */
    long long start_time;      /* monotonic ms, for busy-reply-threshold */
    int flags;                 /* SCRIPT_* */
    int repl_flags;            /* PROPAGATE_*: where its commands' effects go (redis.set_repl()) */
};

/* EVAL's flags as its script declares them (Redis's evalGetCommandFlags):
 * a script with a shebang is a write (unless no-writes) that may grow
 * memory (unless allow-oom); without one, EVAL's own cmd_flags stand. */
uint64_t evalGetCommandFlags(client *c, uint64_t cmd_flags);
/* The command flags that declared script flags stand for (both above and
 * FCALL's fcallGetCommandFlags). */
uint64_t scriptFlagsToCmdFlags(uint64_t cmd_flags, uint64_t script_flags);

/* Starts a run of `funcname` for `caller` on the script client (Redis's
 * scriptPrepareForRun): refused, after replying why, where its flags say
 * it must not run (a write on a *_RO command or a read-only replica, over
 * maxmemory without allow-oom, a stale replica without allow-stale ...).
 * EVAL adds SCRIPT_EVAL_MODE to run_ctx->flags; FCALL runs without it. */
bool scriptPrepareForRun(scriptRunCtx *run_ctx, client *caller, const char *funcname, uint64_t script_flags, bool ro);
/* Ends the run: its effects are propagated, not the command that ran it. */
void scriptResetRun(scriptRunCtx *run_ctx);
/* SCRIPT KILL (is_eval) and FUNCTION KILL: each stops only its own kind. */
void scriptKill(client *c, bool is_eval);
/* How long the running script has run, in ms. */
long long scriptRunDuration();

/* The running script, or nullptr. */
scriptRunCtx *scriptCurrentRun();
bool scriptIsTimedout();

/* Runs c->argv of the script client as redis.call() does. On refusal (unknown
 * command, arity, not allowed from scripts, write in a read-only script ...)
 * returns the error text and runs nothing; nullptr once the command ran. */
const char *scriptCall(scriptRunCtx *run_ctx);

/* From the count hook: true if the script must stop (SCRIPT KILL). Once the
 * script is past busy-reply-threshold, each call lets the event loop run. */
bool scriptInterrupt(scriptRunCtx *run_ctx);

/* What others are told while a script keeps the server busy: an EVAL
 * script (kBusyScriptError) or a function. */
inline constexpr std::string_view kBusyScriptError =
    "-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";
inline constexpr std::string_view kBusyFunctionError =
    "-BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.";
std::string_view scriptBusyError();

/* INFO memory: EVAL's interpreter's memory (0 before the first script
 * command creates it) and the scripts in its cache. */
size_t evalMemory();
size_t evalScriptsNum();

/* EVAL and SCRIPT (the command table is in commands.cpp). */
void evalCommand(client *c);
void evalShaCommand(client *c);
void evalRoCommand(client *c);
void evalShaRoCommand(client *c);
void scriptLoadCommand(client *c);
void scriptExistsCommand(client *c);
void scriptFlushCommand(client *c);
void scriptKillCommand(client *c);
void scriptHelpCommand(client *c);
