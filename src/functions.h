/* functions.h — Redis 7 functions: FUNCTION LOAD/DELETE/FLUSH/DUMP/RESTORE/LIST/STATS/KILL/HELP, FCALL, FCALL_RO (Redis's functions.c; the Lua engine is function_lua.cpp).
 *
 * A library is a body of code, its first line "#!<engine> name=<library>",
 * that registers functions when it is loaded. The registry (a
 * functionsLibCtx) maps library names to libraries and function names
 * (case-insensitively) to functions; function names are unique across
 * libraries. The registry is engine-agnostic: an engine (only "LUA")
 * compiles a library's code, running it once so that it registers its
 * functions (engine::create), and runs a function (engine::call) with the
 * scriptRunCtx machinery of EVAL (scripting.h): busy scripts, FUNCTION
 * KILL, the flags' checks.
 *
 * Functions are data: FUNCTION LOAD/DELETE/FLUSH/RESTORE are propagated as
 * themselves, the RDB saves each library's code (RDB_OPCODE_FUNCTION2)
 * before the databases, the AOF rewrite starts with a FUNCTION LOAD per
 * library. FLUSHALL keeps them; an RDB or AOF reload replaces them.
 */
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "db.h"

struct client;
struct scriptRunCtx;
struct functionLibInfo;

/* An engine (Redis's engine): its compiled functions are handles it gives. */
struct engine {
    /* Runs `code` (the library without its shebang line) so that it
     * registers its functions in `li` (functionLibCreateFunction); false
     * and `err` if it fails or runs longer than `timeout` ms (0: no limit). */
    bool (*create)(functionLibInfo *li, std::string_view code, long long timeout, std::string &err);
    void (*call)(scriptRunCtx *run_ctx, int function, std::span<const std::string_view> keys,
                 std::span<const std::string_view> args);
    void (*free_function)(int function);
    size_t (*get_used_memory)(); /* the engine's interpreter, for INFO */
};

struct engineInfo {
    std::string name;
    engine eng;
};

struct NoCaseLess {
    using is_transparent = void;
    bool operator()(std::string_view a, std::string_view b) const;
};

struct functionInfo {
    std::string name;
    int function; /* the engine's handle */
    functionLibInfo *li;
    std::optional<std::string> desc;
    uint64_t f_flags; /* SCRIPT_FLAG_* */
};

struct functionLibInfo {
    std::string name;
    engineInfo *ei;
    std::string code; /* the whole payload, shebang included */
    std::map<std::string, functionInfo, NoCaseLess> functions;
    ~functionLibInfo(); /* frees its functions in the engine */
};

/* Library names are case-sensitive, function names are not (as Redis's dicts). */
using functionsLibMap = std::map<std::string, std::unique_ptr<functionLibInfo>, std::less<>>;

struct functionsLibCtx {
    functionsLibMap libraries;
    std::map<std::string_view, functionInfo *, NoCaseLess> functions; /* all libraries' */
};

/* For the engine, while it creates `li`: false and `err` if the name is
 * invalid or taken in the library. */
bool functionLibCreateFunction(std::string_view name, int function, functionLibInfo *li,
                               std::optional<std::string> desc, uint64_t f_flags, std::string &err);
void functionsRegisterEngine(std::string_view name, const engine &eng);

/* Loads a library into `lib_ctx` (the current one when null): its name,
 * or nullopt and `err`. */
std::optional<std::string> functionsCreateWithLibraryCtx(std::string_view code, bool replace, std::string &err,
                                                         functionsLibCtx *lib_ctx, long long timeout);
/* The current libraries (RDB and AOF rewrite), and emptying them (what
 * Redis's emptyData does besides the keys, when a dataset is reloaded). */
const functionsLibMap &functionsLibGet();
void functionsLibCtxClearCurrent();
/* INFO memory: the functions and libraries loaded, and what the engines'
 * interpreters hold (0 before the first function command creates them). */
size_t functionsNum();
size_t functionsLibNum();
size_t functionsMemory();

/* FCALL's flags as its function declares them (Redis's fcallGetCommandFlags). */
uint64_t fcallGetCommandFlags(client *c, uint64_t cmd_flags);

void fcallCommand(client *c);
void fcallroCommand(client *c);
void functionLoadCommand(client *c);
void functionDeleteCommand(client *c);
void functionFlushCommand(client *c);
void functionDumpCommand(client *c);
void functionRestoreCommand(client *c);
void functionListCommand(client *c);
void functionStatsCommand(client *c);
void functionKillCommand(client *c);
void functionHelpCommand(client *c);

/* getkeys procedures (redisCommand::getkeys_proc) */
int functionGetKeys(const redisCommand *cmd, std::span<const std::string_view> argv, getKeysResult *result);
