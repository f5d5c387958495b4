/* lua_cmsgpack.cpp — Lua's `cmsgpack` (Redis's deps/lua/src/lua_cmsgpack.c):
 * lua-cmsgpack 0.4.0, which Redis bundles and loads into Lua: MessagePack
 * encoding.
 *
 *   cmsgpack.pack(v1, v2, ...)            the values, encoded one after another
 *   cmsgpack.unpack(s)                    every value encoded in s
 *   cmsgpack.unpack_one(s [, offset])     next offset (-1 at the end), 1 value
 *   cmsgpack.unpack_limit(s, n [, off])   next offset (-1 at the end), n values
 *
 * Encoding, as lua-cmsgpack does it for Lua 5.1:
 *  - a number equal to an int64 takes the smallest integer format, any other
 *    a float32 if that loses nothing, else a float64;
 *  - strings are str formats (fixstr, str8, str16, str32), never bin;
 *  - a table whose keys are exactly 1..n is an array, any other a map (in
 *    lua_next order); tables nested 16 deep are encoded as nil, so cycles end;
 *  - anything else (nil, functions, userdata) is nil.
 * Decoding knows the formats the encoder produces (no bin, ext or fixext:
 * "Bad data format in input."); every number comes back as a Lua number
 * (a uint 64 through int64_t, as lua-cmsgpack does on Lua 5.1).
 * See lua_cmsgpack.h for the rule about Lua errors.
 */
#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "lua/lua_cmsgpack.h"

namespace {

constexpr int LUACMSGPACK_MAX_NESTING = 16;
constexpr const char *kBufMetatable = "cppredis.cmsgpack.buffer";

/* ------------------------------------------------------------------------
 * The output buffer: a Lua userdata (its __gc frees the bytes), so that a
 * Lua error halfway through encoding leaks nothing.
 * ---------------------------------------------------------------------- */
struct MpBuf {
    unsigned char *b;
    size_t len, cap;
};

int mpBufGc(lua_State *L) {
    auto *buf = static_cast<MpBuf *>(lua_touserdata(L, 1));
    free(buf->b);
    buf->b = nullptr;
    return 0;
}

MpBuf *mpBufNew(lua_State *L) {
    auto *buf = static_cast<MpBuf *>(lua_newuserdata(L, sizeof(MpBuf)));
    *buf = MpBuf{nullptr, 0, 0};
    luaL_getmetatable(L, kBufMetatable);
    lua_setmetatable(L, -2);
    return buf;
}

void mpBufAppend(lua_State *L, MpBuf *buf, const void *s, size_t len) {
    if (buf->cap - buf->len < len) {
        size_t cap = (buf->len + len) * 2;
        auto *grown = static_cast<unsigned char *>(realloc(buf->b, cap));
        if (!grown) luaL_error(L, "not enough memory");
        buf->b = grown;
        buf->cap = cap;
    }
    memcpy(buf->b + buf->len, s, len);
    buf->len += len;
}

/* `n` as `bytes` big-endian bytes after the type byte. */
void mpEncodeHeader(lua_State *L, MpBuf *buf, unsigned char type, uint64_t n, int bytes) {
    unsigned char b[9];
    b[0] = type;
    for (int i = 0; i < bytes; i++) b[1 + i] = static_cast<unsigned char>(n >> (8 * (bytes - 1 - i)));
    mpBufAppend(L, buf, b, 1 + bytes);
}

/* ------------------------------------------------------------------------
 * Encoding
 * ---------------------------------------------------------------------- */
void mpEncodeInt(lua_State *L, MpBuf *buf, int64_t n) {
    if (n >= 0) {
        if (n <= 127) return mpEncodeHeader(L, buf, static_cast<unsigned char>(n), 0, 0); /* positive fixint */
        if (n <= 0xff) return mpEncodeHeader(L, buf, 0xcc, n, 1);
        if (n <= 0xffff) return mpEncodeHeader(L, buf, 0xcd, n, 2);
        if (n <= 0xffffffffLL) return mpEncodeHeader(L, buf, 0xce, n, 4);
        return mpEncodeHeader(L, buf, 0xcf, n, 8);
    }
    uint64_t bits = static_cast<uint64_t>(n);
    if (n >= -32) return mpEncodeHeader(L, buf, static_cast<unsigned char>(bits), 0, 0); /* negative fixint */
    if (n >= -128) return mpEncodeHeader(L, buf, 0xd0, bits & 0xff, 1);
    if (n >= -32768) return mpEncodeHeader(L, buf, 0xd1, bits & 0xffff, 2);
    if (n >= -2147483648LL) return mpEncodeHeader(L, buf, 0xd2, bits & 0xffffffff, 4);
    mpEncodeHeader(L, buf, 0xd3, bits, 8);
}

void mpEncodeDouble(lua_State *L, MpBuf *buf, double d) {
    float f = static_cast<float>(d);
    if (d == static_cast<double>(f)) return mpEncodeHeader(L, buf, 0xca, std::bit_cast<uint32_t>(f), 4);
    mpEncodeHeader(L, buf, 0xcb, std::bit_cast<uint64_t>(d), 8);
}

void mpEncodeNumber(lua_State *L, MpBuf *buf, lua_Number n) {
    /* int64 range is [-2^63, 2^63): the cast is defined only inside it. */
    bool integral = !std::isinf(n) && n >= -9223372036854775808.0 && n < 9223372036854775808.0 &&
                    static_cast<double>(static_cast<int64_t>(n)) == n;
    if (integral) mpEncodeInt(L, buf, static_cast<int64_t>(n));
    else mpEncodeDouble(L, buf, n);
}

void mpEncodeBytes(lua_State *L, MpBuf *buf, const char *s, size_t len) {
    if (len < 32) mpEncodeHeader(L, buf, static_cast<unsigned char>(0xa0 | len), 0, 0);
    else if (len <= 0xff) mpEncodeHeader(L, buf, 0xd9, len, 1);
    else if (len <= 0xffff) mpEncodeHeader(L, buf, 0xda, len, 2);
    else mpEncodeHeader(L, buf, 0xdb, len, 4);
    mpBufAppend(L, buf, s, len);
}

/* Array and map headers: fix (up to 15 entries), 16 and 32 bits. */
void mpEncodeContainer(lua_State *L, MpBuf *buf, unsigned char fix, unsigned char type16, uint64_t n) {
    if (n <= 15) mpEncodeHeader(L, buf, static_cast<unsigned char>(fix | n), 0, 0);
    else if (n <= 65535) mpEncodeHeader(L, buf, type16, n, 2);
    else mpEncodeHeader(L, buf, type16 + 1, n, 4);
}

/* Keys exactly 1..n (numbers equal to a positive int, as many as the largest). */
bool tableIsAnArray(lua_State *L) {
    int top = lua_gettop(L);
    long long count = 0, max = 0;
    luaL_checkstack(L, 2, "in function table_is_an_array");
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pop(L, 1);
        lua_Number n;
        if (lua_type(L, -1) != LUA_TNUMBER || (n = lua_tonumber(L, -1)) <= 0 || n > INT_MAX ||
            static_cast<lua_Number>(static_cast<int>(n)) != n) {
            lua_settop(L, top);
            return false;
        }
        if (n > max) max = static_cast<long long>(n);
        count++;
    }
    lua_settop(L, top);
    return max == count;
}

void mpEncodeLuaType(lua_State *L, MpBuf *buf, int level);

void mpEncodeTableAsArray(lua_State *L, MpBuf *buf, int level) {
    size_t len = lua_objlen(L, -1);
    mpEncodeContainer(L, buf, 0x90, 0xdc, len);
    luaL_checkstack(L, 1, "in function mp_encode_lua_table_as_array");
    for (size_t j = 1; j <= len; j++) {
        lua_pushnumber(L, static_cast<lua_Number>(j));
        lua_gettable(L, -2);
        mpEncodeLuaType(L, buf, level + 1);
    }
}

void mpEncodeTableAsMap(lua_State *L, MpBuf *buf, int level) {
    size_t len = 0;
    luaL_checkstack(L, 3, "in function mp_encode_lua_table_as_map");
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pop(L, 1);
        len++;
    }
    mpEncodeContainer(L, buf, 0x80, 0xde, len);
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        lua_pushvalue(L, -2); /* the key again: encoding pops it, lua_next needs it */
        mpEncodeLuaType(L, buf, level + 1);
        mpEncodeLuaType(L, buf, level + 1);
    }
}

/* Encodes the value on top of the stack and pops it. */
void mpEncodeLuaType(lua_State *L, MpBuf *buf, int level) {
    int t = lua_type(L, -1);
    if (t == LUA_TTABLE && level == LUACMSGPACK_MAX_NESTING) t = LUA_TNIL;
    switch (t) {
    case LUA_TSTRING: {
        size_t len;
        const char *s = lua_tolstring(L, -1, &len);
        mpEncodeBytes(L, buf, s, len);
        break;
    }
    case LUA_TBOOLEAN: mpEncodeHeader(L, buf, lua_toboolean(L, -1) ? 0xc3 : 0xc2, 0, 0); break;
    case LUA_TNUMBER: mpEncodeNumber(L, buf, lua_tonumber(L, -1)); break;
    case LUA_TTABLE:
        if (tableIsAnArray(L)) mpEncodeTableAsArray(L, buf, level);
        else mpEncodeTableAsMap(L, buf, level);
        break;
    default: mpEncodeHeader(L, buf, 0xc0, 0, 0); break;
    }
    lua_pop(L, 1);
}

int mpPack(lua_State *L) {
    int nargs = lua_gettop(L);
    if (nargs == 0) return luaL_argerror(L, 0, "MessagePack pack needs input.");
    if (!lua_checkstack(L, nargs)) return luaL_argerror(L, 0, "Too many arguments for MessagePack pack.");
    MpBuf *buf = mpBufNew(L);
    for (int i = 1; i <= nargs; i++) {
        luaL_checkstack(L, 1, "in function mp_check");
        lua_pushvalue(L, i);
        mpEncodeLuaType(L, buf, 0);
    }
    lua_pushlstring(L, reinterpret_cast<const char *>(buf->b), buf->len);
    return 1;
}

/* ------------------------------------------------------------------------
 * Decoding
 * ---------------------------------------------------------------------- */
enum class MpErr { None, Eof, BadFormat };

struct MpCur {
    const unsigned char *p;
    size_t left;
    MpErr err = MpErr::None;

    bool need(size_t n) {
        if (left >= n) return true;
        err = MpErr::Eof;
        return false;
    }
    void consume(size_t n) {
        p += n;
        left -= n;
    }
    /* The `bytes` big-endian bytes after the type byte. */
    uint64_t be(int bytes) const {
        uint64_t v = 0;
        for (int i = 1; i <= bytes; i++) v = (v << 8) | p[i];
        return v;
    }
};

void mpDecodeToLuaType(lua_State *L, MpCur &c);

void mpDecodeArray(lua_State *L, MpCur &c, size_t len) {
    lua_newtable(L);
    luaL_checkstack(L, 1, "in function mp_decode_to_lua_array");
    for (lua_Number index = 1; len--; index++) {
        lua_pushnumber(L, index);
        mpDecodeToLuaType(L, c);
        if (c.err != MpErr::None) return;
        lua_settable(L, -3);
    }
}

void mpDecodeMap(lua_State *L, MpCur &c, size_t len) {
    lua_newtable(L);
    while (len--) {
        mpDecodeToLuaType(L, c); /* key */
        if (c.err != MpErr::None) return;
        mpDecodeToLuaType(L, c); /* value */
        if (c.err != MpErr::None) return;
        lua_settable(L, -3);
    }
}

/* A number of `bytes` bytes, or a string or container whose length takes
 * `bytes` bytes. */
void mpDecodeSized(lua_State *L, MpCur &c, int bytes, void (*push)(lua_State *, MpCur &, uint64_t)) {
    if (!c.need(1 + bytes)) return;
    uint64_t v = c.be(bytes);
    c.consume(1 + bytes);
    push(L, c, v);
}

void pushString(lua_State *L, MpCur &c, uint64_t len) {
    if (!c.need(len)) return;
    lua_pushlstring(L, reinterpret_cast<const char *>(c.p), len);
    c.consume(len);
}

void mpDecodeToLuaType(lua_State *L, MpCur &c) {
    if (!c.need(1)) return;
    /* The results stay on the stack: room for one more each time. */
    luaL_checkstack(L, 1, "too many return values at once; use unpack_one or unpack_limit instead.");
    unsigned char type = c.p[0];
    switch (type) {
    case 0xcc: case 0xcd: case 0xce: case 0xcf:
        /* Through a lua_Integer (signed) as lua-cmsgpack does on Lua 5.1: a
         * uint 64 from 2^63 up reads as negative. */
        return mpDecodeSized(L, c, 1 << (type - 0xcc), [](lua_State *l, MpCur &, uint64_t v) {
            lua_pushnumber(l, static_cast<lua_Number>(static_cast<int64_t>(v)));
        });
    case 0xd0:
        return mpDecodeSized(L, c, 1, [](lua_State *l, MpCur &, uint64_t v) { lua_pushnumber(l, static_cast<int8_t>(v)); });
    case 0xd1:
        return mpDecodeSized(L, c, 2, [](lua_State *l, MpCur &, uint64_t v) { lua_pushnumber(l, static_cast<int16_t>(v)); });
    case 0xd2:
        return mpDecodeSized(L, c, 4, [](lua_State *l, MpCur &, uint64_t v) { lua_pushnumber(l, static_cast<int32_t>(v)); });
    case 0xd3:
        return mpDecodeSized(L, c, 8, [](lua_State *l, MpCur &, uint64_t v) {
            lua_pushnumber(l, static_cast<lua_Number>(static_cast<int64_t>(v)));
        });
    case 0xca:
        return mpDecodeSized(L, c, 4, [](lua_State *l, MpCur &, uint64_t v) {
            lua_pushnumber(l, std::bit_cast<float>(static_cast<uint32_t>(v)));
        });
    case 0xcb:
        return mpDecodeSized(L, c, 8, [](lua_State *l, MpCur &, uint64_t v) { lua_pushnumber(l, std::bit_cast<double>(v)); });
    case 0xc0: lua_pushnil(L); return c.consume(1);
    case 0xc3: lua_pushboolean(L, 1); return c.consume(1);
    case 0xc2: lua_pushboolean(L, 0); return c.consume(1);
    case 0xd9: return mpDecodeSized(L, c, 1, pushString);
    case 0xda: return mpDecodeSized(L, c, 2, pushString);
    case 0xdb: return mpDecodeSized(L, c, 4, pushString);
    case 0xdc: return mpDecodeSized(L, c, 2, [](lua_State *l, MpCur &cur, uint64_t n) { mpDecodeArray(l, cur, n); });
    case 0xdd: return mpDecodeSized(L, c, 4, [](lua_State *l, MpCur &cur, uint64_t n) { mpDecodeArray(l, cur, n); });
    case 0xde: return mpDecodeSized(L, c, 2, [](lua_State *l, MpCur &cur, uint64_t n) { mpDecodeMap(l, cur, n); });
    case 0xdf: return mpDecodeSized(L, c, 4, [](lua_State *l, MpCur &cur, uint64_t n) { mpDecodeMap(l, cur, n); });
    default: break;
    }
    if ((type & 0x80) == 0) { /* positive fixint */
        lua_pushnumber(L, type);
        c.consume(1);
    } else if ((type & 0xe0) == 0xe0) { /* negative fixint */
        lua_pushnumber(L, static_cast<int8_t>(type));
        c.consume(1);
    } else if ((type & 0xe0) == 0xa0) { /* fixstr */
        c.consume(1);
        pushString(L, c, type & 0x1f);
    } else if ((type & 0xf0) == 0x90) { /* fixarray */
        c.consume(1);
        mpDecodeArray(L, c, type & 0xf);
    } else if ((type & 0xf0) == 0x80) { /* fixmap */
        c.consume(1);
        mpDecodeMap(L, c, type & 0xf);
    } else {
        c.err = MpErr::BadFormat;
    }
}

/* Decodes up to `limit` values from `offset` (both 0: every value, and no
 * offset result). Messages, including the one that prints the input length
 * as "limit", are lua-cmsgpack's. */
int mpUnpackFull(lua_State *L, int limit, int offset) {
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    if (offset < 0 || limit < 0)
        return luaL_error(L, "Invalid request to unpack with offset of %d and limit of %d.", offset,
                          static_cast<int>(len));
    if (static_cast<size_t>(offset) > len)
        return luaL_error(L, "Start offset %d greater than input length %d.", offset, static_cast<int>(len));
    bool decode_all = !limit && !offset;
    if (decode_all) limit = INT_MAX;
    MpCur c{reinterpret_cast<const unsigned char *>(s) + offset, len - offset};
    int cnt = 0;
    for (; c.left > 0 && cnt < limit; cnt++) {
        mpDecodeToLuaType(L, c);
        if (c.err == MpErr::Eof) return luaL_error(L, "Missing bytes in input.");
        if (c.err == MpErr::BadFormat) return luaL_error(L, "Bad data format in input.");
    }
    if (decode_all) return cnt;
    luaL_checkstack(L, 1, "in function mp_unpack_full");
    lua_pushinteger(L, c.left == 0 ? -1 : static_cast<lua_Integer>(len - c.left));
    lua_insert(L, 2); /* the next offset comes first, before the values */
    return cnt + 1;
}

int mpUnpack(lua_State *L) { return mpUnpackFull(L, 0, 0); }

int mpUnpackOne(lua_State *L) {
    int offset = static_cast<int>(luaL_optinteger(L, 2, 0));
    lua_settop(L, 1);
    return mpUnpackFull(L, 1, offset);
}

int mpUnpackLimit(lua_State *L) {
    int limit = static_cast<int>(luaL_checkinteger(L, 2));
    int offset = static_cast<int>(luaL_optinteger(L, 3, 0));
    lua_settop(L, 1);
    return mpUnpackFull(L, limit, offset);
}

const luaL_Reg kCmsgpackLib[] = {
    {"pack", mpPack},
    {"unpack", mpUnpack},
    {"unpack_one", mpUnpackOne},
    {"unpack_limit", mpUnpackLimit},
    {nullptr, nullptr},
};

void setStringField(lua_State *L, const char *field, const char *value) {
    lua_pushstring(L, value);
    lua_setfield(L, -2, field);
}

}  // namespace

int luaopen_cmsgpack(lua_State *L) {
    luaL_newmetatable(L, kBufMetatable);
    lua_pushcfunction(L, mpBufGc);
    lua_setfield(L, -2, "__gc");
    lua_pop(L, 1);

    lua_newtable(L);
    luaL_register(L, nullptr, kCmsgpackLib);
    setStringField(L, "_NAME", "cmsgpack");
    setStringField(L, "_VERSION", "lua-cmsgpack 0.4.0");
    setStringField(L, "_COPYRIGHT", "Copyright (C) 2012, Salvatore Sanfilippo");
    setStringField(L, "_DESCRIPTION", "MessagePack C implementation for Lua");
    return 1;
}
