/* function_lua.cpp — the Lua engine of functions (Redis's function_lua.c).
 *
 * Functions have their own interpreter, built as EVAL's (script_lua.h: the
 * same libraries, sandbox and `redis` API), so FUNCTION FLUSH and SCRIPT
 * FLUSH do not touch each other. Functions receive their keys and
 * arguments as two tables, not as the globals KEYS and ARGV.
 *
 * While a library's code runs at load time, its globals read through to
 * another table, the library API: only `redis` with register_function,
 * log, the LOG_* levels and the version; anything else is a "nonexistent
 * global variable". Both are swapped in the __index of the globals'
 * proxy, so the functions the code defines keep the globals table as their
 * environment and see the whole API when they run.
 */
#include <optional>
#include <string>

#include "function_lua.h"
#include "functions.h"
#include "script_lua.h"
#include "scripting.h"
#include "server.h"
#include "util.h"

namespace {

lua_State *lua = nullptr;

/* Registry slots: the library API and the functions' globals (what the
 * globals' __index points at outside loading). */
char kLibraryApiKey;
char kGlobalsApiKey;

/* The library being loaded (Redis's loadCtx in the registry). */
struct loadCtx {
    functionLibInfo *li;
    long long start_time; /* ustime() */
    long long timeout;    /* ms, 0: none */
};
loadCtx *load_ctx = nullptr;

/* A library's code that runs too long at load time is stopped: from then
 * on on every line, so that a pcall cannot catch it for good. */
void luaEngineLoadHook(lua_State *L, lua_Debug *) {
    if (!load_ctx || load_ctx->timeout <= 0 || (ustime() - load_ctx->start_time) / 1000 <= load_ctx->timeout) return;
    lua_sethook(L, luaEngineLoadHook, LUA_MASKLINE, 0);
    luaPushError(L, "FUNCTION LOAD timeout");
    lua_error(L);
}

void setGlobalsIndex(const void *key) {
    lua_getmetatable(lua, LUA_GLOBALSINDEX);
    lua_pushlightuserdata(lua, const_cast<void *>(key));
    lua_rawget(lua, LUA_REGISTRYINDEX);
    lua_setfield(lua, -2, "__index");
    lua_pop(lua, 1);
}

/* The message of the error on top of the stack: a string (a Lua error) or
 * an error table's err. */
std::string luaErrorMessage() {
    if (lua_type(lua, -1) == LUA_TSTRING) return std::string("ERR ") + lua_tostring(lua, -1);
    std::string msg;
    if (lua_istable(lua, -1)) {
        lua_pushliteral(lua, "err");
        lua_rawget(lua, -2);
        if (lua_type(lua, -1) == LUA_TSTRING) msg = lua_tostring(lua, -1);
        lua_pop(lua, 1);
    }
    return msg;
}

bool luaEngineCreate(functionLibInfo *li, std::string_view code, long long timeout, std::string &err) {
    setGlobalsIndex(&kLibraryApiKey);
    bool ok = false;
    if (luaLoadText(lua, code, "@user_function") != 0) {
        err = std::string("Error compiling function: ") + lua_tostring(lua, -1);
        lua_pop(lua, 1);
    } else {
        loadCtx ctx{li, ustime(), timeout};
        load_ctx = &ctx;
        lua_sethook(lua, luaEngineLoadHook, LUA_MASKCOUNT, 100000);
        ok = lua_pcall(lua, 0, 0, 0) == 0;
        if (!ok) {
            err = "Error registering functions: " + luaErrorMessage();
            lua_pop(lua, 1);
        }
        lua_sethook(lua, nullptr, 0, 0);
        load_ctx = nullptr;
    }
    setGlobalsIndex(&kGlobalsApiKey);
    return ok;
}

void luaEngineCall(scriptRunCtx *run_ctx, int function, std::span<const std::string_view> keys,
                   std::span<const std::string_view> args) {
    luaCallFunction(run_ctx, lua, function, keys, args);
}

void luaEngineFreeFunction(int function) { luaL_unref(lua, LUA_REGISTRYINDEX, function); }

size_t luaEngineGetUsedMemory() { return luaMemory(lua); }

/* ------------------------------------------------------------------------
 * redis.register_function(name, callback) or
 * redis.register_function{function_name=, callback=, flags={...}, description=}
 * ---------------------------------------------------------------------- */

struct registerFunctionArgs {
    std::optional<std::string> name, desc;
    int fref = LUA_NOREF;
    uint64_t f_flags = 0;
};

std::string register_error; /* why the last registration failed */

std::optional<std::string> luaGetString(int idx) {
    if (!lua_isstring(lua, idx)) return std::nullopt;
    size_t len;
    const char *s = lua_tolstring(lua, idx, &len);
    return std::string(s, len);
}

/* The flags table (on top): each a flag's name, case-insensitively. */
bool luaRegisterFunctionReadFlags(uint64_t *flags) {
    for (int j = 1;; j++) {
        lua_rawgeti(lua, -1, j);
        if (lua_isnil(lua, -1)) {
            lua_pop(lua, 1);
            return true;
        }
        std::optional<std::string> name = luaGetString(-1);
        lua_pop(lua, 1);
        if (!name) return false;
        const scriptFlag *found = nullptr;
        for (const scriptFlag &f : scripts_flags_def)
            if (strEqualNoCase(f.name, *name)) found = &f;
        if (!found) return false;
        *flags |= found->flag;
    }
}

const char *luaRegisterFunctionReadNamedArgs(registerFunctionArgs &a) {
    if (!lua_istable(lua, 1))
        return "calling redis.register_function with a single argument is only applicable to Lua table (representing "
               "named arguments).";
    lua_pushnil(lua);
    while (lua_next(lua, 1)) {
        std::optional<std::string> key;
        if (lua_type(lua, -2) == LUA_TSTRING) key = luaGetString(-2);
        if (!key) return "named argument key given to redis.register_function is not a string";
        if (strEqualNoCase(*key, "function_name")) {
            if (!(a.name = luaGetString(-1)))
                return "function_name argument given to redis.register_function must be a string";
        } else if (strEqualNoCase(*key, "description")) {
            if (!(a.desc = luaGetString(-1)))
                return "description argument given to redis.register_function must be a string";
        } else if (strEqualNoCase(*key, "callback")) {
            if (!lua_isfunction(lua, -1))
                return "callback argument given to redis.register_function must be a function";
            if (a.fref != LUA_NOREF) luaL_unref(lua, LUA_REGISTRYINDEX, a.fref);
            a.fref = luaL_ref(lua, LUA_REGISTRYINDEX);
            continue; /* luaL_ref popped the value */
        } else if (strEqualNoCase(*key, "flags")) {
            if (!lua_istable(lua, -1))
                return "flags argument to redis.register_function must be a table representing function flags";
            if (!luaRegisterFunctionReadFlags(&a.f_flags)) return "unknown flag given";
        } else {
            return "unknown argument given to redis.register_function";
        }
        lua_pop(lua, 1);
    }
    if (!a.name) return "redis.register_function must get a function name argument";
    if (a.fref == LUA_NOREF) return "redis.register_function must get a callback argument";
    return nullptr;
}

const char *luaRegisterFunctionReadPositionalArgs(registerFunctionArgs &a) {
    if (!(a.name = luaGetString(1))) return "first argument to redis.register_function must be a string";
    if (!lua_isfunction(lua, 2)) return "second argument to redis.register_function must be a function";
    lua_pushvalue(lua, 2);
    a.fref = luaL_ref(lua, LUA_REGISTRYINDEX);
    return nullptr;
}

/* Everything with C++ objects alive happens here, so that the caller can
 * raise (longjmp) once they are gone. */
bool luaRegisterFunctionFromArgs() {
    int argc = lua_gettop(lua);
    if (argc < 1 || argc > 2) {
        register_error = "wrong number of arguments to redis.register_function";
        return false;
    }
    registerFunctionArgs a;
    const char *err = argc == 1 ? luaRegisterFunctionReadNamedArgs(a) : luaRegisterFunctionReadPositionalArgs(a);
    if (!err &&
        functionLibCreateFunction(*a.name, a.fref, load_ctx->li, std::move(a.desc), a.f_flags, register_error))
        return true;
    if (err) register_error = err;
    if (a.fref != LUA_NOREF) luaL_unref(lua, LUA_REGISTRYINDEX, a.fref);
    return false;
}

int luaRegisterFunction(lua_State *L) {
    if (!load_ctx) {
        luaPushError(L, "redis.register_function can only be called on FUNCTION LOAD command");
        return lua_error(L);
    }
    if (!luaRegisterFunctionFromArgs()) {
        luaPushError(L, register_error);
        return lua_error(L);
    }
    return 0;
}

/* The library API: {redis = {register_function, log, LOG_*, REDIS_VERSION,
 * REDIS_VERSION_NUM}}, read-only, where anything else is an error. */
void luaCreateLibraryApi() {
    lua_newtable(lua);
    lua_newtable(lua);
    lua_pushcfunction(lua, luaRegisterFunction);
    lua_setfield(lua, -2, "register_function");
    lua_getglobal(lua, "redis");
    for (const char *name :
         {"log", "LOG_DEBUG", "LOG_VERBOSE", "LOG_NOTICE", "LOG_WARNING", "REDIS_VERSION", "REDIS_VERSION_NUM"}) {
        lua_getfield(lua, -1, name);
        lua_setfield(lua, -3, name);
    }
    lua_pop(lua, 1);
    luaSetErrorMetatable(lua);
    lua_setfield(lua, -2, "redis");
    luaSetErrorMetatable(lua);
    luaSetTableProtectionRecursively(lua);
    lua_pushlightuserdata(lua, &kLibraryApiKey);
    lua_insert(lua, -2);
    lua_rawset(lua, LUA_REGISTRYINDEX);
}

}  // namespace

void luaEngineInitEngine() {
    lua = luaCreateScriptingState();
    luaCreateLibraryApi();
    lua_pushlightuserdata(lua, &kGlobalsApiKey);
    lua_getmetatable(lua, LUA_GLOBALSINDEX);
    lua_getfield(lua, -1, "__index");
    lua_remove(lua, -2);
    lua_rawset(lua, LUA_REGISTRYINDEX);
    functionsRegisterEngine("LUA", engine{luaEngineCreate, luaEngineCall, luaEngineFreeFunction, luaEngineGetUsedMemory});
}
