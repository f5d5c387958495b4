/* script_lua.cpp — the Lua side of scripting (Redis's script_lua.c): the
 * interpreter, its sandbox, the `redis` library and the RESP <-> Lua
 * conversions. See script_lua.h. */
#include "script_lua.h"

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

extern "C" {
#include <lua-bitop.h>
#include <lua-cjson.h>
}

#include "acl.h"
#include "lua/lua_cmsgpack.h"
#include "lua/lua_struct.h"
#include "scripting.h"
#include "server.h"
#include "sha1.h"
#include "util.h"
#include "version.h"

namespace {

/* Registry slots, keyed by these addresses (light userdata: no string to
 * hash on every EVAL). */
char kErrHandlerKey;  /* the error handler lua_pcall runs scripts with */
char kRealGlobalsKey; /* the real globals table, where EVAL sets KEYS/ARGV */
char kProxiesKey;     /* proxy -> the read-only table it stands for */

void registryPush(lua_State *L, const void *key) {
    lua_pushlightuserdata(L, const_cast<void *>(key));
    lua_rawget(L, LUA_REGISTRYINDEX);
}

/* Pops the value on top into the registry slot `key`. */
void registrySet(lua_State *L, const void *key) {
    lua_pushlightuserdata(L, const_cast<void *>(key));
    lua_insert(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
}

/* Raw t[name] pushed; its type returned. Raw, so no metamethod runs. */
int rawField(lua_State *L, int t, const char *name) {
    lua_pushstring(L, name);
    lua_rawget(L, t < 0 ? t - 1 : t);
    return lua_type(L, -1);
}

std::string_view toView(lua_State *L, int idx) {
    size_t len;
    const char *s = lua_tolstring(L, idx, &len);
    return s ? std::string_view(s, len) : std::string_view();
}

/* (long long)d as x86-64 computes it: NaN and out-of-range values give
 * LLONG_MIN ("integer indefinite"), which is what Redis replies. */
long long luaNumberToLongLong(lua_Number d) {
    if (d >= -9223372036854775808.0 && d < 9223372036854775808.0) return static_cast<long long>(d);
    return LLONG_MIN;
}

/* ========================================================================
 * Errors
 * ====================================================================== */

/* Adds `ignore_error_stats_update`: the error was counted when the command
 * replied it, so EVAL's reply of it is not counted again. */
void luaMarkErrorCounted(lua_State *L) {
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "ignore_error_stats_update");
}

/* The fields of an error table (on top of the stack): its message, the
 * "source" and "line" where it was raised when known, and whether it was
 * already counted. The views point at copies the extraction leaves on the
 * stack above the table (a line number is converted there): the caller
 * restores the stack top once done with them. */
struct ErrorInfo {
    std::string_view msg, source, line;
    bool ignore_stats = false;
};

ErrorInfo luaExtractErrorInformation(lua_State *L) {
    ErrorInfo info;
    int t = lua_gettop(L);
    if (rawField(L, t, "err") == LUA_TSTRING) info.msg = toView(L, -1);
    rawField(L, t, "source");
    if (lua_isstring(L, -1)) info.source = toView(L, -1);
    rawField(L, t, "line");
    if (lua_isstring(L, -1)) info.line = toView(L, -1);
    if (rawField(L, t, "ignore_error_stats_update") == LUA_TBOOLEAN) info.ignore_stats = lua_toboolean(L, -1);
    return info;
}

/* addReplyError, not counted again when the error was counted already. */
void addReplyScriptError(client *c, std::string_view text, bool ignore_stats) {
    addReplyErrorEx(c, text, ignore_stats ? ERR_REPLY_FLAG_NO_STATS_UPDATE : 0);
}

/* The pcall error handler: a non-table error becomes {err="ERR <msg>"};
 * "source" and "line" name the script line that failed (skipping a C
 * function that raised, such as redis.call). Upvalue 1: tostring. */
int luaErrorHandler(lua_State *L) {
    lua_Debug ar;
    bool where = lua_getstack(L, 1, &ar) && lua_getinfo(L, "nSl", &ar);
    if (where && strcmp(ar.what, "C") == 0) where = lua_getstack(L, 2, &ar) && lua_getinfo(L, "nSl", &ar);
    if (!lua_istable(L, 1)) {
        lua_pushliteral(L, "ERR ");
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_pushvalue(L, 1);
        lua_call(L, 1, 1);
        lua_concat(L, 2);
        lua_newtable(L);
        lua_insert(L, -2);
        lua_setfield(L, -2, "err");
        lua_replace(L, 1);
    }
    lua_settop(L, 1);
    if (where) {
        lua_pushstring(L, ar.source);
        lua_setfield(L, 1, "source");
        lua_pushinteger(L, ar.currentline);
        lua_setfield(L, 1, "line");
    }
    return 1;
}

/* ========================================================================
 * RESP -> Lua
 * ====================================================================== */

/* The number after a type byte; `p` moves past its CRLF. */
long long readRespNumber(const char *&p) {
    const char *cr = static_cast<const char *>(strchr(p, '\r'));
    long long n = 0;
    string2ll(std::string_view(p + 1, cr - p - 1), &n);
    p = cr + 2;
    return n;
}

/* A line reply (+status, -error) without its type byte and CRLF. */
std::string_view readRespLine(const char *&p) {
    const char *cr = static_cast<const char *>(strchr(p, '\r'));
    std::string_view line(p + 1, cr - p - 1);
    p = cr + 2;
    return line;
}

}  // namespace

size_t luaMemory(lua_State *L) { return static_cast<size_t>(lua_gc(L, LUA_GCCOUNT, 0)) * 1024; }

void luaPushError(lua_State *L, std::string_view err) {
    std::string_view code = "ERR", msg = err;
    if (!err.empty() && err[0] == '-') {
        size_t space = err.find(' ');
        if (space == std::string_view::npos) {
            msg = err.substr(1);
        } else {
            code = err.substr(1, space - 1);
            msg = err.substr(space + 1);
        }
    }
    while (!msg.empty() && (msg.front() == '\r' || msg.front() == '\n')) msg.remove_prefix(1);
    while (!msg.empty() && (msg.back() == '\r' || msg.back() == '\n')) msg.remove_suffix(1);
    lua_newtable(L);
    lua_pushlstring(L, code.data(), code.size());
    lua_pushliteral(L, " ");
    lua_pushlstring(L, msg.data(), msg.size());
    lua_concat(L, 3);
    lua_setfield(L, -2, "err");
}

namespace {

/* A table {field = <the value on top>}, which replaces that value. */
void luaWrapInField(lua_State *L, const char *field) {
    lua_newtable(L);
    lua_insert(L, -2);
    lua_setfield(L, -2, field);
}

/* A RESP3 double's text as Redis's reply parser reads it: strtod ("inf",
 * "-inf" and "nan" too), 0 past MAX_LONG_DOUBLE_CHARS. Not inlined: its
 * buffer must not sit in every frame of the recursive parser. */
[[gnu::noinline]] double parseRespDouble(std::string_view text) {
    if (text.size() > MAX_LONG_DOUBLE_CHARS) return 0;
    char buf[MAX_LONG_DOUBLE_CHARS + 1];
    memcpy(buf, text.data(), text.size());
    buf[text.size()] = '\0';
    return strtod(buf, nullptr);
}

/* The elements of a RESP3 map (pairs) or set (members, each -> true) into
 * {map = {...}} or {set = {...}}, as Redis gives them to scripts. */
const char *redisProtocolToLuaAggregate(lua_State *L, const char *p, bool is_map) {
    long long n = readRespNumber(p);
    lua_newtable(L);
    for (long long j = 0; j < n; j++) {
        p = redisProtocolToLuaType(L, p);
        if (is_map) p = redisProtocolToLuaType(L, p);
        else lua_pushboolean(L, 1);
        lua_rawset(L, -3);
    }
    luaWrapInField(L, is_map ? "map" : "set");
    return p;
}

}  // namespace

/* Replies of commands are complete and well formed: they are parsed without
 * bounds checks, and the buffer holding them ends with a NUL or more reply.
 * RESP3 types reach here when the script chose redis.setresp(3). */
const char *redisProtocolToLuaType(lua_State *L, const char *p) {
    if (!lua_checkstack(L, 5)) {
        /* Nested deeper than the Lua stack allows (no command replies so). */
        luaPushError(L, "reached lua stack limit");
        return p;
    }
    switch (*p) {
    case ':':
        lua_pushnumber(L, static_cast<lua_Number>(readRespNumber(p)));
        return p;
    case '$':
    case '*': {
        char type = *p;
        long long n = readRespNumber(p);
        if (n < 0) { /* null bulk, null array */
            lua_pushboolean(L, 0);
            return p;
        }
        if (type == '$') {
            lua_pushlstring(L, p, static_cast<size_t>(n));
            return p + n + 2;
        }
        lua_createtable(L, static_cast<int>(n), 0);
        for (long long j = 1; j <= n; j++) {
            p = redisProtocolToLuaType(L, p);
            lua_rawseti(L, -2, static_cast<int>(j));
        }
        return p;
    }
    case '+': {
        std::string_view status = readRespLine(p);
        lua_newtable(L);
        lua_pushlstring(L, status.data(), status.size());
        lua_setfield(L, -2, "ok");
        return p;
    }
    case '-': {
        const char *line = p;
        std::string_view err = readRespLine(p);
        luaPushError(L, std::string_view(line, err.size() + 1)); /* with its '-' */
        luaMarkErrorCounted(L);
        return p;
    }
    case '%': return redisProtocolToLuaAggregate(L, p, true);
    case '~': return redisProtocolToLuaAggregate(L, p, false);
    case '_':
        readRespLine(p);
        lua_pushnil(L);
        return p;
    case '#':
        lua_pushboolean(L, readRespLine(p) == "t");
        return p;
    case ',':
        lua_pushnumber(L, parseRespDouble(readRespLine(p)));
        luaWrapInField(L, "double");
        return p;
    case '(': {
        std::string_view digits = readRespLine(p);
        lua_pushlstring(L, digits.data(), digits.size());
        luaWrapInField(L, "big_number");
        return p;
    }
    case '=': { /* "=<len>\r\n<fmt>:<text>\r\n" */
        long long n = readRespNumber(p);
        lua_newtable(L);
        lua_pushlstring(L, p + 4, static_cast<size_t>(n - 4));
        lua_setfield(L, -2, "string");
        lua_pushlstring(L, p, 3);
        lua_setfield(L, -2, "format");
        luaWrapInField(L, "verbatim_string");
        return p + n + 2;
    }
    case '|': { /* attributes are not given to scripts: read past them */
        long long n = readRespNumber(p);
        for (long long j = 0; j < 2 * n; j++) {
            p = redisProtocolToLuaType(L, p);
            lua_pop(L, 1);
        }
        return redisProtocolToLuaType(L, p);
    }
    default:
        lua_pushboolean(L, 0); /* no command replies anything else */
        return p;
    }
}

/* ========================================================================
 * Lua -> RESP
 * ====================================================================== */

namespace {

/* Elements of a table used as an array: t[1], t[2] ... before the first nil. */
long long luaArrayLength(lua_State *L) {
    long long n = 0;
    for (;;) {
        lua_rawgeti(L, -1, static_cast<int>(n + 1));
        bool nil = lua_isnil(L, -1);
        lua_pop(L, 1);
        if (nil) return n;
        n++;
    }
}

/* Entries of the table on top (lua_next counts every key). */
long long luaTableSize(lua_State *L) {
    long long n = 0;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pop(L, 1);
        n++;
    }
    return n;
}

/* A Lua string with CR and LF turned to spaces: a status or big number
 * must stay on its line. */
std::string luaStringOnOneLine(lua_State *L, int idx) {
    std::string line(toView(L, idx));
    for (char &ch : line)
        if (ch == '\r' || ch == '\n') ch = ' ';
    return line;
}

/* The table forms of RESP3 replies ({double=}, {big_number=},
 * {verbatim_string=}, {map=}, {set=}), replied typed for a RESP3 caller and
 * as RESP2 has them for a RESP2 one. True if the table on top had one of
 * them (the stack is left as it was). */
bool replyTypedTable(client *c, int script_resp, lua_State *L) {
    int t = lua_gettop(L);
    if (rawField(L, t, "double") == LUA_TNUMBER) {
        addReplyDouble(c, lua_tonumber(L, -1));
        lua_settop(L, t);
        return true;
    }
    lua_settop(L, t);
    if (rawField(L, t, "big_number") == LUA_TSTRING) {
        addReplyBigNum(c, luaStringOnOneLine(L, -1));
        lua_settop(L, t);
        return true;
    }
    lua_settop(L, t);
    if (rawField(L, t, "verbatim_string") == LUA_TTABLE && rawField(L, t + 1, "format") == LUA_TSTRING &&
        rawField(L, t + 1, "string") == LUA_TSTRING) {
        /* The format is 3 characters on the wire: cut, or padded with spaces. */
        std::string_view format = toView(L, t + 2);
        char ext[4] = "   ";
        memcpy(ext, format.data(), strnlen(format.data(), 3));
        addReplyVerbatim(c, toView(L, -1), ext);
        lua_settop(L, t);
        return true;
    }
    lua_settop(L, t);
    /* map: key, value, key, value ...; set: its keys. */
    bool is_map = rawField(L, t, "map") == LUA_TTABLE;
    if (!is_map) {
        lua_settop(L, t);
        if (rawField(L, t, "set") != LUA_TTABLE) {
            lua_settop(L, t);
            return false;
        }
    }
    if (is_map) addReplyMapLen(c, luaTableSize(L));
    else addReplySetLen(c, luaTableSize(L));
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        if (!is_map) lua_pop(L, 1);
        lua_pushvalue(L, is_map ? -2 : -1);
        luaReplyToRedisReply(c, script_resp, L);
        if (is_map) luaReplyToRedisReply(c, script_resp, L);
    }
    lua_settop(L, t);
    return true;
}

void luaTableToRedisReply(client *c, int script_resp, lua_State *L) {
    int t = lua_gettop(L);
    if (rawField(L, t, "err") == LUA_TSTRING) {
        lua_settop(L, t);
        ErrorInfo info = luaExtractErrorInformation(L);
        std::string text = "-";
        text += info.msg;
        addReplyScriptError(c, text, info.ignore_stats);
        lua_settop(L, t);
        return;
    }
    lua_pop(L, 1);
    if (rawField(L, -1, "ok") == LUA_TSTRING) {
        addReplyStatus(c, luaStringOnOneLine(L, -1));
        lua_pop(L, 1);
        return;
    }
    lua_pop(L, 1);
    if (replyTypedTable(c, script_resp, L)) return;
    long long n = luaArrayLength(L);
    addReplyArrayLen(c, n);
    for (long long j = 1; j <= n; j++) {
        lua_rawgeti(L, -1, static_cast<int>(j));
        luaReplyToRedisReply(c, script_resp, L);
    }
}

}  // namespace

void luaReplyToRedisReply(client *c, int script_resp, lua_State *L) {
    /* A map needs 4 slots; deeper than the stack allows is an error. */
    if (!lua_checkstack(L, 4)) {
        addReplyError(c, "reached lua stack limit");
        lua_pop(L, 1);
        return;
    }
    switch (lua_type(L, -1)) {
    case LUA_TSTRING: addReplyBulk(c, toView(L, -1)); break;
    case LUA_TBOOLEAN:
        /* A script speaking RESP2 has no booleans: false is its nil. */
        if (script_resp == 3) addReplyBool(c, lua_toboolean(L, -1));
        else if (lua_toboolean(L, -1)) addReply(c, shared::cone);
        else addReplyNull(c);
        break;
    case LUA_TNUMBER: addReplyLongLong(c, luaNumberToLongLong(lua_tonumber(L, -1))); break;
    case LUA_TTABLE: luaTableToRedisReply(c, script_resp, L); break;
    default: addReplyNull(c); break;
    }
    lua_pop(L, 1);
}

/* ========================================================================
 * The sandbox
 * ====================================================================== */

namespace {

/* __index of the real globals: reading a global nobody set is a mistake
 * (a missing `local`), reported as Redis does. */
int luaProtectedTableError(lua_State *L) {
    if (lua_gettop(L) != 2) return luaL_error(L, "Wrong number of arguments to luaProtectedTableError");
    if (!lua_isstring(L, -1)) return luaL_error(L, "Second argument to luaProtectedTableError must be a string or number");
    return luaL_error(L, "Script attempted to access nonexistent global variable '%s'", lua_tostring(L, -1));
}

/* __newindex of a read-only proxy: the message names the script line. */
int luaReadonlyTableError(lua_State *L) { return luaL_error(L, "Attempt to modify a readonly table"); }

/* Pushes the table the proxy at `idx` stands for and returns true; false
 * (nothing pushed) if `idx` is not a proxy. */
bool luaPushProxied(lua_State *L, int idx) {
    if (!lua_istable(L, idx)) return false;
    int abs = idx < 0 ? lua_gettop(L) + 1 + idx : idx;
    registryPush(L, &kProxiesKey);
    lua_pushvalue(L, abs);
    lua_rawget(L, -2);
    lua_remove(L, -2);
    if (!lua_isnil(L, -1)) return true;
    lua_pop(L, 1);
    return false;
}

/* A raw write into a read-only table fails as in Redis's patched Lua: with
 * the bare message (the error handler adds the script line). */
void luaRefuseProxy(lua_State *L, int idx) {
    if (!luaPushProxied(L, idx)) return;
    lua_pushliteral(L, "Attempt to modify a readonly table");
    lua_error(L);
}

int luaSandboxRawset(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    luaRefuseProxy(L, 1);
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 1;
}

int luaSandboxRawget(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    if (luaPushProxied(L, 1)) lua_replace(L, 1);
    lua_settop(L, 2);
    lua_rawget(L, 1);
    return 1;
}

int luaSandboxNext(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    if (luaPushProxied(L, 1)) lua_replace(L, 1);
    lua_settop(L, 2);
    if (lua_next(L, 1)) return 2;
    lua_pushnil(L);
    return 1;
}

/* Upvalue 1: the sandbox's next, which iterates through proxies. */
int luaSandboxPairs(lua_State *L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

int luaSandboxSetmetatable(lua_State *L) {
    int t = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argcheck(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table expected");
    luaRefuseProxy(L, 1);
    if (luaL_getmetafield(L, 1, "__metatable")) luaL_error(L, "cannot change a protected metatable");
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 1;
}

/* A proxy reports the (read-only) metatable of its table, or none: its own
 * __metatable is false then. */
int luaSandboxGetmetatable(lua_State *L) {
    luaL_checkany(L, 1);
    if (!lua_getmetatable(L, 1)) {
        lua_pushnil(L);
        return 1;
    }
    luaL_getmetafield(L, 1, "__metatable");
    if (lua_isboolean(L, -1) && !lua_toboolean(L, -1) && luaPushProxied(L, 1)) lua_pushnil(L);
    return 1;
}

/* table.insert writes raw: refused on a proxy, otherwise the original
 * (upvalue 1) runs. (table.remove and table.sort write only the array
 * part, which a proxy never has: they leave it alone, as Redis does with a
 * read-only table without one.) */
int luaSandboxTableWrite(lua_State *L) {
    luaRefuseProxy(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* Chunks are loaded as text only: Debian's Lua would undump a binary chunk
 * (ESC "Lua") and trust its bytecode, which Redis's Lua refuses. A blank
 * in front sends it to the parser, which rejects it with Redis's message
 * ("unexpected symbol near 'char(27)'") and changes no line number. */
struct ChunkReader {
    const char *data;
    size_t len;
    bool blank_first;
    int step = 0;
};

const char *readChunk(lua_State *, void *ud, size_t *size) {
    auto *r = static_cast<ChunkReader *>(ud);
    int step = r->step++;
    if (step == 0 && r->blank_first) {
        *size = 1;
        return " ";
    }
    if (step > 1 || (step == 1 && !r->blank_first)) return nullptr;
    *size = r->len;
    return r->data;
}

bool isBinaryChunk(const char *s, size_t len) { return len > 0 && s[0] == LUA_SIGNATURE[0]; }

}  // namespace

int luaLoadText(lua_State *L, std::string_view text, const char *chunkname) {
    ChunkReader r{text.data(), text.size(), isBinaryChunk(text.data(), text.size())};
    return lua_load(L, readChunk, &r, chunkname);
}

namespace {

/* loadstring and load return the function, or nil and the message. */
int loadResult(lua_State *L, int status) {
    if (status == 0) return 1;
    lua_pushnil(L);
    lua_insert(L, -2);
    return 2;
}

int luaSandboxLoadstring(lua_State *L) {
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    const char *chunkname = luaL_optstring(L, 2, s);
    return loadResult(L, luaLoadText(L, std::string_view(s, len), chunkname));
}

/* load(f): the pieces f returns, kept in stack slot 3 while lua_load reads
 * them; a binary first piece is preceded by a blank, as above. */
struct FunctionReader {
    bool first = true;
    const char *held = nullptr;
    size_t held_len = 0;
};

const char *readFunctionChunk(lua_State *L, void *ud, size_t *size) {
    auto *r = static_cast<FunctionReader *>(ud);
    if (r->held) {
        *size = r->held_len;
        return std::exchange(r->held, nullptr);
    }
    luaL_checkstack(L, 2, "too many nested functions");
    lua_pushvalue(L, 1);
    lua_call(L, 0, 1);
    if (lua_isnil(L, -1)) {
        *size = 0;
        return nullptr;
    }
    if (!lua_isstring(L, -1)) luaL_error(L, "reader function must return a string");
    lua_replace(L, 3);
    const char *s = lua_tolstring(L, 3, size);
    if (std::exchange(r->first, false) && isBinaryChunk(s, *size)) {
        r->held = s;
        r->held_len = *size;
        *size = 1;
        return " ";
    }
    return s;
}

int luaSandboxLoad(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    const char *chunkname = luaL_optstring(L, 2, "=(load)");
    lua_settop(L, 3);
    FunctionReader r;
    return loadResult(L, lua_load(L, readFunctionChunk, &r, chunkname));
}

/* Redis 7's pcall: an error table ({err=...}, as redis.call raises) comes
 * back as its message string. */
int luaRedisPcall(lua_State *L) {
    int argc = lua_gettop(L);
    if (argc == 0) {
        /* Redis's pcall() ends up calling its own `true` placeholder. */
        lua_pushboolean(L, 0);
        lua_pushliteral(L, "attempt to call a boolean value");
        return 2;
    }
    lua_pushboolean(L, 1);
    lua_insert(L, 1);
    if (lua_pcall(L, argc - 1, LUA_MULTRET, 0)) {
        lua_remove(L, 1);
        if (lua_istable(L, -1)) {
            lua_getfield(L, -1, "err");
            if (lua_isstring(L, -1)) lua_replace(L, -2);
            else lua_pop(L, 1);
        }
        lua_pushboolean(L, 0);
        lua_insert(L, 1);
    }
    return lua_gettop(L);
}

/* Replaces the table on top of the stack by its read-only proxy (one per
 * table: `memo` maps tables to proxies), after protecting the tables it
 * holds and its metatable. The proxy is empty; its metatable reads through
 * to the table (__index), refuses writes (__newindex) and reports the
 * table's protected metatable (__metatable, false if none). */
void luaProtectTable(lua_State *L, int memo) {
    lua_pushvalue(L, -1);
    lua_rawget(L, memo);
    if (!lua_isnil(L, -1)) {
        lua_replace(L, -2);
        return;
    }
    lua_pop(L, 1);
    int t = lua_gettop(L);
    lua_newtable(L); /* the proxy, t + 1 */
    lua_pushvalue(L, t);
    lua_pushvalue(L, t + 1);
    lua_rawset(L, memo);
    registryPush(L, &kProxiesKey);
    lua_pushvalue(L, t + 1);
    lua_pushvalue(L, t);
    lua_rawset(L, -3);
    lua_pop(L, 1);

    lua_pushnil(L);
    while (lua_next(L, t)) {
        if (!lua_istable(L, -1)) {
            lua_pop(L, 1);
            continue;
        }
        luaProtectTable(L, memo);
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, t); /* an existing key: allowed during the traversal */
    }

    lua_newtable(L); /* the proxy's metatable, t + 2 */
    lua_pushvalue(L, t);
    lua_setfield(L, t + 2, "__index");
    lua_pushcfunction(L, luaReadonlyTableError);
    lua_setfield(L, t + 2, "__newindex");
    if (lua_getmetatable(L, t)) luaProtectTable(L, memo);
    else lua_pushboolean(L, 0);
    lua_setfield(L, t + 2, "__metatable");
    lua_setmetatable(L, t + 1);
    lua_replace(L, t);
}

/* Every table reachable from the globals becomes read-only; the scripts'
 * globals become the proxy of the real ones, whose metatable makes an
 * undefined global an error. Strings index the read-only string table. */
void luaSetGlobalsProtection(lua_State *L) {
    lua_pushvalue(L, LUA_GLOBALSINDEX);
    lua_pushvalue(L, -1);
    registrySet(L, &kRealGlobalsKey);
    lua_newtable(L);
    lua_pushcfunction(L, luaProtectedTableError);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, -2);

    lua_newtable(L);
    registrySet(L, &kProxiesKey);
    lua_newtable(L);
    int memo = lua_gettop(L);
    lua_pushvalue(L, -2);
    luaProtectTable(L, memo);
    lua_replace(L, LUA_GLOBALSINDEX);

    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);
    lua_getfield(L, LUA_GLOBALSINDEX, "string");
    lua_setfield(L, -2, "__index");
    lua_settop(L, memo - 2);
}

}  // namespace

void luaSetErrorMetatable(lua_State *L) {
    lua_newtable(L);
    lua_pushcfunction(L, luaProtectedTableError);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, -2);
}

void luaSetTableProtectionRecursively(lua_State *L) {
    lua_newtable(L);
    int memo = lua_gettop(L);
    lua_pushvalue(L, memo - 1);
    luaProtectTable(L, memo);
    lua_replace(L, memo - 1);
    lua_pop(L, 1);
}

namespace {

/* ========================================================================
 * math.random: Redis's rand.c, the 48-bit linear congruential generator of
 * lrand48 with its own state, so every server produces the same sequence
 * (from the same initial state, which SCRIPT FLUSH does not reset).
 * ====================================================================== */
uint64_t rand48_state = 0x1234ABCD330EULL;
constexpr int32_t REDIS_LRAND48_MAX = INT32_MAX;

int32_t redisLrand48() {
    rand48_state = (rand48_state * 0x5DEECE66DULL + 0xB) & ((1ULL << 48) - 1);
    return static_cast<int32_t>(rand48_state >> 17);
}

void redisSrand48(int32_t seed) { rand48_state = (static_cast<uint64_t>(static_cast<uint32_t>(seed)) << 16) | 0x330E; }

int redisMathRandom(lua_State *L) {
    lua_Number r = static_cast<lua_Number>(redisLrand48() % REDIS_LRAND48_MAX) / REDIS_LRAND48_MAX;
    switch (lua_gettop(L)) {
    case 0: lua_pushnumber(L, r); break;
    case 1: {
        int u = luaL_checkint(L, 1);
        luaL_argcheck(L, 1 <= u, 1, "interval is empty");
        lua_pushnumber(L, floor(r * u) + 1);
        break;
    }
    case 2: {
        int l = luaL_checkint(L, 1);
        int u = luaL_checkint(L, 2);
        luaL_argcheck(L, l <= u, 2, "interval is empty");
        lua_pushnumber(L, floor(r * (u - l + 1)) + l);
        break;
    }
    default: return luaL_error(L, "wrong number of arguments");
    }
    return 1;
}

int redisMathRandomseed(lua_State *L) {
    redisSrand48(luaL_checkint(L, 1));
    return 0;
}

/* ========================================================================
 * The redis library
 * ====================================================================== */

/* Lua arguments as the script client's argv: strings as they are, numbers
 * printed with %.17g (Lua's own %.14g would lose precision). False if one
 * is neither. The views are valid while the arguments stay on the stack. */
bool luaArgsToRedisArgv(lua_State *L, int argc, client *c) {
    static std::string numbers; /* 32 bytes per argument, for the numbers */
    numbers.resize(32 * static_cast<size_t>(argc));
    c->argv.clear();
    for (int j = 1; j <= argc; j++) {
        int type = lua_type(L, j);
        if (type == LUA_TNUMBER) {
            char *buf = numbers.data() + 32 * (j - 1);
            int len = snprintf(buf, 32, "%.17g", lua_tonumber(L, j));
            c->argv.emplace_back(buf, len);
        } else if (type == LUA_TSTRING) {
            c->argv.push_back(toView(L, j));
        } else {
            c->argv.clear();
            return false;
        }
    }
    return true;
}

/* What the command replied to the script client, NUL-terminated; most
 * replies are read in place from the static buffer. */
const char *scriptClientReply(client *c) {
    static std::string joined;
    if (c->reply.empty() && c->bufpos < c->buf_usable_size) {
        c->buf[c->bufpos] = '\0';
        return c->buf.get();
    }
    joined = clientOutputBytes(c);
    return joined.c_str();
}

void resetScriptClientReply(client *c) {
    c->bufpos = 0;
    c->sentlen = 0;
    c->reply.clear();
    c->reply_bytes = 0;
}

/* redis.call (raise_error) and redis.pcall: run a command on the script
 * client and return its reply as a Lua value; an error reply raises it
 * (call) or returns it as {err=...} (pcall). */
int luaRedisGenericCommand(lua_State *L, bool raise_error) {
    scriptRunCtx *run_ctx = scriptCurrentRun();
    if (!run_ctx) {
        luaPushError(L, "redis.call/pcall can only be called inside a script invocation");
        return lua_error(L);
    }
    int argc = lua_gettop(L);
    const char *err = nullptr;
    if (argc == 0) err = "Please specify at least one argument for this redis lib call";
    else if (!luaArgsToRedisArgv(L, argc, run_ctx->c)) err = "Lua redis lib command arguments must be strings or integers";
    if (err) {
        luaPushError(L, err);
        return raise_error ? lua_error(L) : 1;
    }
    err = scriptCall(run_ctx);
    run_ctx->c->argv.clear();
    if (err) {
        luaPushError(L, err);
        luaMarkErrorCounted(L); /* counted when it was refused */
        return raise_error ? lua_error(L) : 1;
    }
    const char *reply = scriptClientReply(run_ctx->c);
    bool failed = reply[0] == '-';
    redisProtocolToLuaType(L, reply);
    resetScriptClientReply(run_ctx->c);
    return raise_error && failed ? lua_error(L) : 1;
}

int luaRedisCallCommand(lua_State *L) { return luaRedisGenericCommand(L, true); }
int luaRedisPCallCommand(lua_State *L) { return luaRedisGenericCommand(L, false); }

/* Pushes {err=...} and raises it: how the redis library reports misuse. */
int luaRaiseError(lua_State *L, const char *err) {
    luaPushError(L, err);
    return lua_error(L);
}

int luaRedisSha1hexCommand(lua_State *L) {
    if (lua_gettop(L) != 1) return luaRaiseError(L, "wrong number of arguments");
    char digest[40];
    {
        std::string hex = sha1hex(toView(L, 1));
        memcpy(digest, hex.data(), sizeof(digest));
    }
    lua_pushlstring(L, digest, sizeof(digest));
    return 1;
}

/* redis.error_reply / status_reply: a string only, else an error table is
 * returned (not raised). */
bool luaSingleStringArgument(lua_State *L) {
    if (lua_gettop(L) == 1 && lua_type(L, -1) == LUA_TSTRING) return true;
    luaPushError(L, "wrong number or type of arguments");
    return false;
}

int luaRedisErrorReplyCommand(lua_State *L) {
    if (!luaSingleStringArgument(L)) return 1;
    std::string_view err = toView(L, 1);
    if (!err.empty() && err[0] == '-') {
        luaPushError(L, err);
    } else {
        lua_pushliteral(L, "-");
        lua_pushvalue(L, 1);
        lua_concat(L, 2);
        luaPushError(L, toView(L, -1));
    }
    return 1;
}

int luaRedisStatusReplyCommand(lua_State *L) {
    if (!luaSingleStringArgument(L)) return 1;
    lua_newtable(L);
    lua_pushvalue(L, 1);
    lua_setfield(L, -2, "ok");
    return 1;
}

int luaLogCommand(lua_State *L) {
    int argc = lua_gettop(L);
    if (argc < 2) return luaRaiseError(L, "redis.log() requires two arguments or more.");
    if (!lua_isnumber(L, 1)) return luaRaiseError(L, "First argument must be a number (log level).");
    int level = static_cast<int>(lua_tonumber(L, 1));
    if (level < LL_DEBUG || level > LL_WARNING) return luaRaiseError(L, "Invalid debug level.");
    if (level < server.verbosity) return 0;
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int j = 2; j <= argc; j++) {
        size_t len;
        const char *s = lua_tolstring(L, j, &len);
        if (!s) continue;
        if (j != 2) luaL_addchar(&b, ' ');
        luaL_addlstring(&b, s, len);
    }
    luaL_pushresult(&b);
    serverLog(level, "%s", lua_tostring(L, -1));
    return 0;
}

/* The protocol the script client speaks, so the protocol of the replies
 * redis.call() converts (every run starts with 2, luaCallFunction). */
int luaSetResp(lua_State *L) {
    scriptRunCtx *run_ctx = scriptCurrentRun();
    if (!run_ctx) return luaRaiseError(L, "redis.setresp can only be called inside a script invocation");
    if (lua_gettop(L) != 1) return luaRaiseError(L, "redis.setresp() requires one argument.");
    int resp = static_cast<int>(lua_tonumber(L, 1));
    if (resp != 2 && resp != 3) return luaRaiseError(L, "RESP version must be 2 or 3.");
    run_ctx->c->resp = resp;
    return 0;
}

/* Where the script's next commands are propagated: the AOF (REPL_AOF),
 * the replicas (REPL_REPLICA, REPL_SLAVE), both (REPL_ALL) or none
 * (REPL_NONE). The number
 * is truncated as Redis's C cast does on x86, where out-of-range values
 * become INT_MIN: invalid flags, not undefined behaviour. */
int luaRedisSetReplCommand(lua_State *L) {
    scriptRunCtx *run_ctx = scriptCurrentRun();
    if (!run_ctx) return luaRaiseError(L, "redis.set_repl can only be called inside a script invocation");
    if (lua_gettop(L) != 1) return luaRaiseError(L, "redis.set_repl() requires two arguments.");
    lua_Number n = lua_tonumber(L, 1);
    int flags = (n > INT_MIN - 1.0 && n < INT_MAX + 1.0) ? static_cast<int>(n) : INT_MIN;
    if (flags & ~(PROPAGATE_AOF | PROPAGATE_REPL))
        return luaRaiseError(L, "Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.");
    run_ctx->repl_flags = flags;
    return 0;
}

/* Every script is replicated by its effects since Redis 7. */
int luaRedisReplicateCommandsCommand(lua_State *L) {
    lua_pushboolean(L, 1);
    return 1;
}

/* No debugger (SCRIPT DEBUG): breakpoints are not set, debug() is silent. */
int luaRedisBreakpointCommand(lua_State *L) {
    lua_pushboolean(L, 0);
    return 1;
}

int luaRedisDebugCommand(lua_State *) { return 0; }

/* Whether the script's caller may run the command given (Redis 7.0 checks
 * the caller's user, keys and channels included). */
int luaRedisAclCheckCmdPermissionsCommand(lua_State *L) {
    scriptRunCtx *run_ctx = scriptCurrentRun();
    if (!run_ctx) return luaRaiseError(L, "redis.acl_check_cmd can only be called inside a script invocation");
    int argc = lua_gettop(L);
    if (argc == 0) return luaRaiseError(L, "Please specify at least one argument for this redis lib call");
    if (!luaArgsToRedisArgv(L, argc, run_ctx->c))
        return luaRaiseError(L, "Lua redis lib command arguments must be strings or integers");
    redisCommand *cmd = lookupCommand(run_ctx->c->argv);
    int keyidx;
    bool allowed = cmd && ACLCheckAllUserCommandPerm(run_ctx->original_client->user, cmd, run_ctx->c->argv,
                                                     &keyidx) == ACL_OK;
    run_ctx->c->argv.clear();
    if (!cmd) return luaRaiseError(L, "Invalid command passed to redis.acl_check_cmd()");
    lua_pushboolean(L, allowed);
    return 1;
}

const luaL_Reg kRedisLib[] = {
    {"call", luaRedisCallCommand},
    {"pcall", luaRedisPCallCommand},
    {"log", luaLogCommand},
    {"setresp", luaSetResp},
    {"set_repl", luaRedisSetReplCommand},
    {"replicate_commands", luaRedisReplicateCommandsCommand},
    {"breakpoint", luaRedisBreakpointCommand},
    {"debug", luaRedisDebugCommand},
    {"sha1hex", luaRedisSha1hexCommand},
    {"error_reply", luaRedisErrorReplyCommand},
    {"status_reply", luaRedisStatusReplyCommand},
    {"acl_check_cmd", luaRedisAclCheckCmdPermissionsCommand},
    {nullptr, nullptr},
};

void setNumberField(lua_State *L, const char *name, lua_Number n) {
    lua_pushnumber(L, n);
    lua_setfield(L, -2, name);
}

void luaRegisterRedisAPI(lua_State *L) {
    lua_newtable(L);
    luaL_register(L, nullptr, kRedisLib);
    setNumberField(L, "LOG_DEBUG", LL_DEBUG);
    setNumberField(L, "LOG_VERBOSE", LL_VERBOSE);
    setNumberField(L, "LOG_NOTICE", LL_NOTICE);
    setNumberField(L, "LOG_WARNING", LL_WARNING);
    setNumberField(L, "REPL_NONE", PROPAGATE_NONE);
    setNumberField(L, "REPL_AOF", PROPAGATE_AOF);
    setNumberField(L, "REPL_SLAVE", PROPAGATE_REPL);
    setNumberField(L, "REPL_REPLICA", PROPAGATE_REPL);
    setNumberField(L, "REPL_ALL", PROPAGATE_AOF | PROPAGATE_REPL);
    lua_pushstring(L, REDIS_COMPAT_VERSION);
    lua_setfield(L, -2, "REDIS_VERSION");
    setNumberField(L, "REDIS_VERSION_NUM", 0x0007000f); /* 7.0.15 as 0x00MMmmpp */
    lua_setglobal(L, "redis");
}

/* ========================================================================
 * Building the interpreter
 * ====================================================================== */

/* Opens a library and makes its table the global `name`. */
void luaLoadLib(lua_State *L, const char *name, lua_CFunction open) {
    lua_pushcfunction(L, open);
    lua_pushstring(L, name);
    lua_call(L, 1, 1);
    lua_setglobal(L, name);
}

void setGlobalFunction(lua_State *L, const char *name, lua_CFunction f) {
    lua_pushcfunction(L, f);
    lua_setglobal(L, name);
}

/* lib[name] = closure of f over the original lib[name]. */
void wrapLibFunction(lua_State *L, const char *lib, const char *name, lua_CFunction f) {
    lua_getglobal(L, lib);
    lua_getfield(L, -1, name);
    lua_pushcclosure(L, f, 1);
    lua_setfield(L, -2, name);
    lua_pop(L, 1);
}

void luaLoadLibraries(lua_State *L) {
    luaLoadLib(L, "_G", luaopen_base);
    luaLoadLib(L, LUA_TABLIBNAME, luaopen_table);
    luaLoadLib(L, LUA_STRLIBNAME, luaopen_string);
    luaLoadLib(L, LUA_MATHLIBNAME, luaopen_math);
    luaLoadLib(L, "cjson", luaopen_cjson);
    luaLoadLib(L, "struct", luaopen_struct);
    luaLoadLib(L, "cmsgpack", luaopen_cmsgpack);
    luaLoadLib(L, "bit", luaopen_bit);
}

/* What scripts may not reach (files, the console, environments) and the
 * functions that would see around the read-only tables. */
void luaSandboxBaseFunctions(lua_State *L) {
    for (const char *name : {"dofile", "loadfile", "print", "setfenv", "getfenv", "newproxy"}) {
        lua_pushnil(L);
        lua_setglobal(L, name);
    }
    setGlobalFunction(L, "pcall", luaRedisPcall);
    setGlobalFunction(L, "rawset", luaSandboxRawset);
    setGlobalFunction(L, "rawget", luaSandboxRawget);
    setGlobalFunction(L, "setmetatable", luaSandboxSetmetatable);
    setGlobalFunction(L, "getmetatable", luaSandboxGetmetatable);
    setGlobalFunction(L, "loadstring", luaSandboxLoadstring);
    setGlobalFunction(L, "load", luaSandboxLoad);
    lua_pushcfunction(L, luaSandboxNext);
    lua_pushvalue(L, -1);
    lua_setglobal(L, "next");
    lua_pushcclosure(L, luaSandboxPairs, 1);
    lua_setglobal(L, "pairs");
    wrapLibFunction(L, LUA_TABLIBNAME, "insert", luaSandboxTableWrite);

    lua_getglobal(L, LUA_MATHLIBNAME);
    lua_pushcfunction(L, redisMathRandom);
    lua_setfield(L, -2, "random");
    lua_pushcfunction(L, redisMathRandomseed);
    lua_setfield(L, -2, "randomseed");
    lua_pop(L, 1);
}

/* Lua found an error outside any protected call: a bug here, not in a script. */
int luaPanic(lua_State *L) {
    serverLog(LL_WARNING, "Lua panic: %s", lua_tostring(L, -1) ? lua_tostring(L, -1) : "(no message)");
    abort();
}

/* Scripts run with the count hook past busy-reply-threshold checks: every
 * 100000 instructions, time to let the event loop run or to stop. */
constexpr int LUA_HOOK_INSTRUCTIONS = 100000;

void luaMaskCountHook(lua_State *L, lua_Debug *) {
    scriptRunCtx *run_ctx = scriptCurrentRun();
    if (!run_ctx || !scriptInterrupt(run_ctx)) return;
    serverLog(LL_WARNING, "Lua script killed by user with SCRIPT KILL.");
    /* From now on on every line: a script that catches the error with pcall
     * is stopped again at once. */
    lua_sethook(L, luaMaskCountHook, LUA_MASKLINE, 0);
    luaPushError(L, "Script killed by user with SCRIPT KILL...");
    lua_error(L);
}

/* KEYS or ARGV: a new table {s1, s2, ...}. */
void luaCreateArray(lua_State *L, std::span<const std::string_view> elems) {
    lua_createtable(L, static_cast<int>(elems.size()), 0);
    for (size_t j = 0; j < elems.size(); j++) {
        lua_pushlstring(L, elems[j].data(), elems[j].size());
        lua_rawseti(L, -2, static_cast<int>(j + 1));
    }
}

/* The error of a failed script: "-<err> script: <sha>, on <source>:<line>."
 * when the line is known. */
void replyScriptFailure(client *c, lua_State *L, const char *funcname) {
    if (!lua_istable(L, -1)) {
        const char *msg = lua_isstring(L, -1) ? lua_tostring(L, -1) : "execution failure";
        addReplyErrorFormat(c, "Error running script %s, %.100s\n", funcname, msg);
        return;
    }
    int t = lua_gettop(L);
    ErrorInfo info = luaExtractErrorInformation(L);
    std::string text = "-";
    /* A table without a message (error({})): Redis 7.0 crashes on it. */
    text += info.msg.data() ? info.msg : std::string_view("ERR unknown error");
    if (!info.line.empty() && !info.source.empty()) {
        text += " script: ";
        text += funcname;
        text += ", on ";
        text += info.source;
        text += ':';
        text += info.line;
        text += '.';
    }
    addReplyScriptError(c, text, info.ignore_stats);
    lua_settop(L, t);
}

}  // namespace

lua_State *luaCreateScriptingState() {
    lua_State *L = luaL_newstate();
    lua_atpanic(L, luaPanic);
    luaLoadLibraries(L);
    luaSandboxBaseFunctions(L);
    luaRegisterRedisAPI(L);
    /* Also a global, as Redis's (a Lua function there). */
    lua_getglobal(L, "tostring");
    lua_pushcclosure(L, luaErrorHandler, 1);
    lua_pushvalue(L, -1);
    lua_setglobal(L, "__redis__err__handler");
    registrySet(L, &kErrHandlerKey);
    luaSetGlobalsProtection(L);
    return L;
}

int luaCompileScript(lua_State *L, client *c, std::string_view body) {
    if (luaLoadText(L, body, "@user_script") != 0) {
        addReplyErrorFormat(c, "Error compiling script (new function): %s", lua_tostring(L, -1));
        lua_pop(L, 1);
        return LUA_NOREF;
    }
    return luaL_ref(L, LUA_REGISTRYINDEX);
}

void luaCallFunction(scriptRunCtx *run_ctx, lua_State *L, int fref, std::span<const std::string_view> keys,
                     std::span<const std::string_view> args) {
    client *c = run_ctx->original_client;
    run_ctx->c->resp = 2; /* until the script says otherwise (redis.setresp) */
    registryPush(L, &kErrHandlerKey);
    lua_rawgeti(L, LUA_REGISTRYINDEX, fref);
    bool hook = server.busy_reply_threshold > 0;
    if (hook) lua_sethook(L, luaMaskCountHook, LUA_MASKCOUNT, LUA_HOOK_INSTRUCTIONS);

    int err;
    if (run_ctx->flags & SCRIPT_EVAL_MODE) {
        registryPush(L, &kRealGlobalsKey);
        luaCreateArray(L, keys);
        lua_setfield(L, -2, "KEYS");
        luaCreateArray(L, args);
        lua_setfield(L, -2, "ARGV");
        lua_pop(L, 1);
        err = lua_pcall(L, 0, 1, -2);
    } else {
        luaCreateArray(L, keys);
        luaCreateArray(L, args);
        err = lua_pcall(L, 2, 1, -4);
    }

    /* A GC step every 50 scripts, so that Lua never needs a long full
     * collection in the middle of one. */
    constexpr int LUA_GC_CYCLE_PERIOD = 50;
    static int gc_count = 0;
    if (++gc_count == LUA_GC_CYCLE_PERIOD) {
        lua_gc(L, LUA_GCSTEP, LUA_GC_CYCLE_PERIOD);
        gc_count = 0;
    }

    if (err) {
        replyScriptFailure(c, L, run_ctx->funcname);
        lua_pop(L, 1);
    } else {
        luaReplyToRedisReply(c, run_ctx->c->resp, L);
    }
    if (hook) lua_sethook(L, nullptr, 0, 0);
    lua_pop(L, 1); /* the error handler */
}
