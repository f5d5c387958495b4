/* lua_struct.cpp — Lua's `struct` (Redis's deps/lua/src/lua_struct.c):
 * Roberto Ierusalimschy's struct 0.2, which Redis bundles and loads into
 * Lua: C-struct-like binary strings to and from Lua values.
 *
 *   struct.pack(fmt, v1, v2, ...)   the values laid out as `fmt` says
 *   struct.unpack(fmt, s [, pos])   the values read from s (from byte pos,
 *                                   1-based), then the position after them
 *   struct.size(fmt)                the bytes pack(fmt, ...) produces
 *
 * Format characters:
 *   >  <        big / little endian (the default is the machine's)
 *   ![n]        align fields to at most n bytes (a power of 2; without n,
 *               the platform's strictest alignment); the default is 1
 *   x           one padding byte
 *   b B h H l L signed / unsigned char, short, long;  T  size_t
 *   i[n] I[n]   signed / unsigned integer of n bytes (default: an int's
 *               size, at most 32)
 *   f d         float, double
 *   c[n]        n chars; packing c0 takes the whole string, unpacking c0
 *               takes the number just read as the length
 *   s           a zero-terminated string
 *   ' '         ignored
 * Integers travel as Lua numbers (doubles); integers wider than 8 bytes and
 * out-of-range numbers behave as struct 0.2 compiled for x86-64 does, so
 * scripts see the bytes Redis produces.
 * See lua_struct.h for the rule about Lua errors.
 */
#include <bit>
#include <cctype>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "lua/lua_struct.h"

namespace {

constexpr int MAXINTSIZE = 32;
struct AlignProbe {
    char c;
    double d;
};
constexpr size_t MAXALIGN = offsetof(AlignProbe, d) > sizeof(int) ? offsetof(AlignProbe, d) : sizeof(int);
constexpr bool kNativeLittle = std::endian::native == std::endian::little;

struct Header {
    bool little = kNativeLittle;
    size_t align = 1;
};

bool isPowerOf2(size_t x) { return x > 0 && (x & (x - 1)) == 0; }

/* The number after an option, or `df` if there is none. */
size_t getnum(lua_State *L, const char **fmt, size_t df) {
    if (!isdigit(static_cast<unsigned char>(**fmt))) return df;
    size_t a = 0;
    do {
        int digit = **fmt - '0';
        if (a > INT_MAX / 10 || a * 10 > static_cast<size_t>(INT_MAX - digit))
            luaL_error(L, "integral size overflow");
        a = a * 10 + digit;
        (*fmt)++;
    } while (isdigit(static_cast<unsigned char>(**fmt)));
    return a;
}

/* Bytes of option `opt` (reading its count from fmt); 0 for the options
 * that place nothing. */
size_t optsize(lua_State *L, char opt, const char **fmt) {
    switch (opt) {
    case 'B': case 'b': return sizeof(char);
    case 'H': case 'h': return sizeof(short);
    case 'L': case 'l': return sizeof(long);
    case 'T': return sizeof(size_t);
    case 'f': return sizeof(float);
    case 'd': return sizeof(double);
    case 'x': return 1;
    case 'c': return getnum(L, fmt, 1);
    case 'i': case 'I': {
        int sz = static_cast<int>(getnum(L, fmt, sizeof(int)));
        if (sz > MAXINTSIZE) luaL_error(L, "integral size %d is larger than limit of %d", sz, MAXINTSIZE);
        return static_cast<size_t>(sz);
    }
    default: return 0;
    }
}

/* Padding bytes before a field of `size` bytes at offset `len`. */
size_t gettoalign(size_t len, const Header &h, char opt, size_t size) {
    if (size == 0 || opt == 'c') return 0;
    if (size > h.align) size = h.align;
    return (size - (len & (size - 1))) & (size - 1);
}

/* The options that change the header rather than place a field. */
void controloptions(lua_State *L, char opt, const char **fmt, Header &h) {
    switch (opt) {
    case ' ': return;
    case '>': h.little = false; return;
    case '<': h.little = true; return;
    case '!': {
        size_t a = getnum(L, fmt, MAXALIGN);
        if (!isPowerOf2(a)) luaL_error(L, "alignment %d is not a power of 2", static_cast<int>(a));
        h.align = a;
        return;
    }
    default: luaL_argerror(L, 1, lua_pushfstring(L, "invalid format option '%c'", opt));
    }
}

/* A Lua number as the bits an x86-64 C cast gives (struct 0.2 casts
 * negative numbers through a signed long, others straight to unsigned). */
uint64_t numberToBits(lua_Number n) {
    if (n < 0) return n >= -9223372036854775808.0 ? static_cast<uint64_t>(static_cast<int64_t>(n)) : 1ULL << 63;
    return n < 18446744073709551616.0 ? static_cast<uint64_t>(n) : 0;
}

void putinteger(lua_State *L, luaL_Buffer *b, int arg, bool little, size_t size) {
    uint64_t value = numberToBits(luaL_checknumber(L, arg));
    char buff[MAXINTSIZE];
    for (size_t i = 0; i < size; i++) {
        buff[little ? i : size - 1 - i] = static_cast<char>(value & 0xff);
        value = i < 7 ? value >> 8 : 0;
    }
    luaL_addlstring(b, buff, size);
}

/* Integers wider than 8 bytes keep their low 8 bytes, and the sign is
 * taken from bit (8*size-1) mod 64, as the original's shifts do on x86. */
lua_Number getinteger(const char *buff, bool little, bool issigned, size_t size) {
    uint64_t l = 0;
    for (size_t i = 0; i < size; i++) {
        unsigned char byte = static_cast<unsigned char>(buff[little ? size - 1 - i : i]);
        l = (l << 8) | byte;
    }
    if (!issigned) return static_cast<lua_Number>(l);
    uint64_t mask = ~0ULL << ((size * 8 - 1) & 63);
    if (l & mask) l |= mask;
    return static_cast<lua_Number>(static_cast<int64_t>(l));
}

/* A float or double in the requested byte order. */
void correctbytes(char *b, size_t size, bool little) {
    if (little == kNativeLittle) return;
    for (size_t i = 0, j = size - 1; i < j; i++, j--) {
        char t = b[i];
        b[i] = b[j];
        b[j] = t;
    }
}

template <typename T>
void putfloat(lua_State *L, luaL_Buffer *b, int arg, bool little) {
    T v = static_cast<T>(luaL_checknumber(L, arg));
    correctbytes(reinterpret_cast<char *>(&v), sizeof(v), little);
    luaL_addlstring(b, reinterpret_cast<char *>(&v), sizeof(v));
}

template <typename T>
lua_Number getfloat(const char *data, bool little) {
    T v;
    memcpy(&v, data, sizeof(v));
    correctbytes(reinterpret_cast<char *>(&v), sizeof(v), little);
    return v;
}

int structPack(lua_State *L) {
    luaL_Buffer b;
    const char *fmt = luaL_checkstring(L, 1);
    Header h;
    int arg = 2;
    size_t totalsize = 0;
    lua_pushnil(L); /* keeps the buffer's stack slots apart from the arguments */
    luaL_buffinit(L, &b);
    while (*fmt != '\0') {
        char opt = *fmt++;
        size_t size = optsize(L, opt, &fmt);
        size_t toalign = gettoalign(totalsize, h, opt, size);
        totalsize += toalign;
        while (toalign-- > 0) luaL_addchar(&b, '\0');
        switch (opt) {
        case 'b': case 'B': case 'h': case 'H': case 'l': case 'L': case 'T': case 'i': case 'I':
            putinteger(L, &b, arg++, h.little, size);
            break;
        case 'x':
            luaL_addchar(&b, '\0');
            break;
        case 'f': putfloat<float>(L, &b, arg++, h.little); break;
        case 'd': putfloat<double>(L, &b, arg++, h.little); break;
        case 'c': case 's': {
            size_t l;
            const char *s = luaL_checklstring(L, arg++, &l);
            if (size == 0) size = l;
            luaL_argcheck(L, l >= size, arg, "string too short");
            luaL_addlstring(&b, s, size);
            if (opt == 's') {
                luaL_addchar(&b, '\0');
                size++;
            }
            break;
        }
        default: controloptions(L, opt, &fmt, h);
        }
        totalsize += size;
    }
    luaL_pushresult(&b);
    return 1;
}

/* `data + pos` has `size` more bytes. */
bool fits(size_t ld, size_t pos, size_t size) { return size <= ld && pos <= ld - size; }

int structUnpack(lua_State *L) {
    Header h;
    const char *fmt = luaL_checkstring(L, 1);
    size_t ld;
    const char *data = luaL_checklstring(L, 2, &ld);
    size_t pos = static_cast<size_t>(luaL_optinteger(L, 3, 1));
    luaL_argcheck(L, pos > 0, 3, "offset must be 1 or greater");
    pos--;
    int n = 0;
    while (*fmt) {
        char opt = *fmt++;
        size_t size = optsize(L, opt, &fmt);
        pos += gettoalign(pos, h, opt, size);
        luaL_argcheck(L, fits(ld, pos, size), 2, "data string too short");
        luaL_checkstack(L, 2, "too many results"); /* the value and the final position */
        switch (opt) {
        case 'b': case 'B': case 'h': case 'H': case 'l': case 'L': case 'T': case 'i': case 'I':
            lua_pushnumber(L, getinteger(data + pos, h.little, islower(opt), size));
            n++;
            break;
        case 'x':
            break;
        case 'f':
            lua_pushnumber(L, getfloat<float>(data + pos, h.little));
            n++;
            break;
        case 'd':
            lua_pushnumber(L, getfloat<double>(data + pos, h.little));
            n++;
            break;
        case 'c': {
            if (size == 0) {
                if (n == 0 || !lua_isnumber(L, -1)) luaL_error(L, "format 'c0' needs a previous size");
                lua_Number len = lua_tonumber(L, -1);
                size = len >= 0 ? static_cast<size_t>(len) : SIZE_MAX;
                lua_pop(L, 1);
                n--;
                luaL_argcheck(L, fits(ld, pos, size), 2, "data string too short");
            }
            lua_pushlstring(L, data + pos, size);
            n++;
            break;
        }
        case 's': {
            const char *e = static_cast<const char *>(memchr(data + pos, '\0', ld - pos));
            if (!e) luaL_error(L, "unfinished string in data");
            size = static_cast<size_t>(e - (data + pos)) + 1;
            lua_pushlstring(L, data + pos, size - 1);
            n++;
            break;
        }
        default: controloptions(L, opt, &fmt, h);
        }
        pos += size;
    }
    lua_pushinteger(L, static_cast<lua_Integer>(pos + 1));
    return n + 1;
}

/* As struct 0.2: letters it does not know count as nothing here. */
int structSize(lua_State *L) {
    Header h;
    const char *fmt = luaL_checkstring(L, 1);
    size_t pos = 0;
    while (*fmt) {
        char opt = *fmt++;
        size_t size = optsize(L, opt, &fmt);
        pos += gettoalign(pos, h, opt, size);
        if (opt == 's') luaL_argerror(L, 1, "option 's' has no fixed size");
        else if (opt == 'c' && size == 0) luaL_argerror(L, 1, "option 'c0' has no fixed size");
        if (!isalnum(static_cast<unsigned char>(opt))) controloptions(L, opt, &fmt, h);
        pos += size;
    }
    lua_pushinteger(L, static_cast<lua_Integer>(pos));
    return 1;
}

const luaL_Reg kStructLib[] = {
    {"pack", structPack},
    {"unpack", structUnpack},
    {"size", structSize},
    {nullptr, nullptr},
};

}  // namespace

int luaopen_struct(lua_State *L) {
    lua_newtable(L);
    luaL_register(L, nullptr, kStructLib);
    return 1;
}
