/* bitops.cpp — bitmaps on the string type (Redis's bitops.c): SETBIT,
 * GETBIT, BITCOUNT, BITPOS, BITOP, BITFIELD and BITFIELD_RO.
 *
 * A bitmap is a plain string value: bit 0 is the most significant bit of
 * byte 0. Invariants, as Redis's:
 *  - Readers take any string encoding (an INT value reads as its decimal
 *    text); a missing key reads as an endless run of zero bits.
 *  - Writers (SETBIT, BITFIELD with SET/INCRBY) first make the value a
 *    private RAW string (dbUnshareStringValue) and zero-pad it up to the
 *    last byte they touch, sds's greedy growth included; a new key is
 *    created at exactly that size. No offset may address a byte at or past
 *    proto-max-bulk-len, except from the AOF or a master, which must obey.
 *  - server.dirty counts the writes that changed something (a new key or a
 *    longer string counts as a change), so a command that changed nothing
 *    (BITFIELD with only GETs, SETBIT of a bit to its value) is neither
 *    signalled nor propagated.
 */
#include "bitops.h"

#include <climits>
#include <cstring>
#include <vector>

#include "networking.h"
#include "notify.h"
#include "server.h"
#include "t_string.h"
#include "util.h"

namespace {

/* ========================================================================
 * Counting and finding bits
 * ====================================================================== */

/* The popcount instruction where the CPU has it (the function is compiled
 * twice and the loader picks one), the compiler's portable sequence
 * elsewhere: BITCOUNT of a large bitmap is this loop and nothing else. */
#if defined(__x86_64__) && defined(__linux__)
#define BITOPS_POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define BITOPS_POPCNT_CLONES
#endif

inline uint64_t load64(const unsigned char *p) {
    uint64_t w;
    memcpy(&w, p, sizeof(w));
    return w;
}

/* The bits set in count bytes at p (Redis's redisPopcount). Four
 * independent sums keep the popcounts from waiting on one another. */
BITOPS_POPCNT_CLONES long long redisPopcount(const unsigned char *p, size_t count) {
    uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    size_t i = 0;
    for (; i + 32 <= count; i += 32) {
        s0 += static_cast<uint64_t>(__builtin_popcountll(load64(p + i)));
        s1 += static_cast<uint64_t>(__builtin_popcountll(load64(p + i + 8)));
        s2 += static_cast<uint64_t>(__builtin_popcountll(load64(p + i + 16)));
        s3 += static_cast<uint64_t>(__builtin_popcountll(load64(p + i + 24)));
    }
    for (; i + 8 <= count; i += 8) s0 += static_cast<uint64_t>(__builtin_popcountll(load64(p + i)));
    for (; i < count; i++) s0 += static_cast<uint64_t>(__builtin_popcount(p[i]));
    return static_cast<long long>(s0 + s1 + s2 + s3);
}

/* The position of the first bit equal to `bit` in count bytes at p, or -1
 * when there is none. Whole words that cannot hold it are skipped first. */
long long findBitInBytes(const unsigned char *p, size_t count, int bit) {
    const uint64_t skipword = bit ? 0 : UINT64_MAX;
    const unsigned char skipbyte = bit ? 0 : UCHAR_MAX;
    size_t i = 0;
    for (; i + 8 <= count && load64(p + i) == skipword; i += 8) {
    }
    for (; i < count; i++) {
        if (p[i] == skipbyte) continue;
        unsigned target = bit ? p[i] : static_cast<unsigned char>(~p[i]); /* the wanted bits as ones */
        return static_cast<long long>(i * 8) + __builtin_clz(target) - (32 - 8);
    }
    return -1;
}

inline int getBit(const unsigned char *p, uint64_t offset) { return (p[offset >> 3] >> (7 - (offset & 7))) & 1; }

/* The first bit equal to `bit` in the bit range [from, to] of p, or -1. */
long long findBitInRange(const unsigned char *p, uint64_t from, uint64_t to, int bit) {
    for (; from <= to && (from & 7); from++)
        if (getBit(p, from) == bit) return static_cast<long long>(from);
    if (from > to) return -1;
    size_t bytes = static_cast<size_t>((to + 1 - from) >> 3);
    long long pos = findBitInBytes(p + (from >> 3), bytes, bit);
    if (pos >= 0) return static_cast<long long>(from) + pos;
    for (from += bytes * 8; from <= to; from++)
        if (getBit(p, from) == bit) return static_cast<long long>(from);
    return -1;
}

/* ========================================================================
 * Bitfields: integers of 1 to 64 bits at any bit offset, big-endian
 * ====================================================================== */

uint64_t getUnsignedBitfield(const unsigned char *p, uint64_t offset, int bits) {
    uint64_t value = 0;
    for (int j = 0; j < bits; j++) value = (value << 1) | static_cast<uint64_t>(getBit(p, offset + j));
    return value;
}

int64_t getSignedBitfield(const unsigned char *p, uint64_t offset, int bits) {
    uint64_t value = getUnsignedBitfield(p, offset, bits);
    if (bits < 64 && (value >> (bits - 1)) & 1) value |= UINT64_MAX << bits; /* sign extension */
    return static_cast<int64_t>(value);
}

/* The low `bits` bits of value (two's complement for a negative one). */
void setUnsignedBitfield(unsigned char *p, uint64_t offset, int bits, uint64_t value) {
    for (int j = 0; j < bits; j++) {
        uint64_t pos = offset + j;
        unsigned char mask = static_cast<unsigned char>(1 << (7 - (pos & 7)));
        if ((value >> (bits - 1 - j)) & 1) p[pos >> 3] |= mask;
        else p[pos >> 3] &= static_cast<unsigned char>(~mask);
    }
}

enum class Overflow { Wrap, Sat, Fail };

/* Whether value + incr leaves the range of an unsigned field of `bits`
 * bits; if so, *limit is what WRAP or SAT stores instead. A SET checks
 * its value with incr 0, so a negative value is a huge unsigned one and
 * saturates to the maximum, as in Redis. */
bool checkUnsignedBitfieldOverflow(uint64_t value, int64_t incr, int bits, Overflow owtype, uint64_t *limit) {
    const uint64_t max = bits == 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1;
    __int128 sum = static_cast<__int128>(value) + incr;
    bool above = sum > static_cast<__int128>(max);
    if (!above && sum >= 0) return false;
    if (owtype == Overflow::Sat) *limit = above ? max : 0;
    else *limit = (value + static_cast<uint64_t>(incr)) & max;
    return true;
}

/* The same for a signed field. Redis computes the room left above value
 * (max - value) in 64-bit arithmetic that wraps when value is within
 * max of INT64_MIN: such a value SET into a narrower field (incr 0) counts
 * as overflowing upwards, so SAT stores the maximum. Kept, so a replica or
 * an AOF written by either server holds the same bytes. */
bool checkSignedBitfieldOverflow(int64_t value, int64_t incr, int bits, Overflow owtype, int64_t *limit) {
    const int64_t max = bits == 64 ? INT64_MAX : (int64_t{1} << (bits - 1)) - 1;
    const int64_t min = -max - 1;
    const auto maxincr = static_cast<int64_t>(static_cast<uint64_t>(max) - static_cast<uint64_t>(value));
    const auto minincr = static_cast<int64_t>(static_cast<uint64_t>(min) - static_cast<uint64_t>(value));
    bool above = value > max || (bits != 64 && incr > maxincr) || (value >= 0 && incr > 0 && incr > maxincr);
    bool below = !above && (value < min || (bits != 64 && incr < minincr) || (value < 0 && incr < 0 && incr < minincr));
    if (!above && !below) return false;
    if (owtype == Overflow::Sat) {
        *limit = above ? max : min;
    } else {
        uint64_t sum = static_cast<uint64_t>(value) + static_cast<uint64_t>(incr);
        if (bits < 64) {
            uint64_t high = UINT64_MAX << bits;
            sum = (sum >> (bits - 1)) & 1 ? sum | high : sum & ~high;
        }
        *limit = static_cast<int64_t>(sum);
    }
    return true;
}

/* ========================================================================
 * Arguments and lookups
 * ====================================================================== */

/* A bit offset: a non-negative integer addressing a byte below
 * proto-max-bulk-len. With hash (BITFIELD), "#N" means N * bits. */
bool getBitOffsetFromArgument(client *c, std::string_view arg, uint64_t *offset, bool hash, int bits) {
    constexpr std::string_view err = "bit offset is not an integer or out of range";
    bool usehash = hash && bits > 0 && !arg.empty() && arg[0] == '#';
    long long loffset;
    if (!string2ll(arg.substr(usehash ? 1 : 0), &loffset)) {
        addReplyError(c, err);
        return false;
    }
    if (usehash) loffset = static_cast<long long>(static_cast<unsigned long long>(loffset) * bits); /* wraps as Redis's */
    if (loffset < 0 || (!mustObeyClient(c) && (loffset >> 3) >= server.proto_max_bulk_len)) {
        addReplyError(c, err);
        return false;
    }
    *offset = static_cast<uint64_t>(loffset);
    return true;
}

/* A BITFIELD type: i1..i64 or u1..u63 (a u64 could not be replied as a
 * RESP integer). */
bool getBitfieldTypeFromArgument(client *c, std::string_view arg, bool *sign, int *bits) {
    long long llbits;
    if (arg.empty() || (arg[0] != 'i' && arg[0] != 'u') || !string2ll(arg.substr(1), &llbits) || llbits < 1 ||
        llbits > (arg[0] == 'i' ? 64 : 63)) {
        addReplyError(c, "Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.");
        return false;
    }
    *sign = arg[0] == 'i';
    *bits = static_cast<int>(llbits);
    return true;
}

/* A string object of len zero bytes, allocated to size as Redis's
 * sdsnewlen. */
ObjRef createZeroedStringObject(size_t len) {
    ObjRef o = createRawStringObject({});
    sds &s = objectRawSds(o.get());
    s.resize(len);
    s.removeFreeSpace();
    return o;
}

/* The key argv[1] as a writable RAW string long enough to hold bit maxbit,
 * created or zero-padded as needed; *grown tells whether it was. nullptr
 * (after replying WRONGTYPE) for another type. */
robj *lookupStringForBitCommand(client *c, uint64_t maxbit, bool *grown) {
    std::string_view key = c->argv[1];
    size_t bytes = static_cast<size_t>(maxbit >> 3) + 1;
    robj *o = lookupKeyWrite(c->db, key);
    if (checkType(c, o, OBJ_STRING)) return nullptr;
    if (!o) {
        ObjRef created = createZeroedStringObject(bytes);
        o = created.get();
        dbAdd(c->db, key, std::move(created));
        *grown = true;
        return o;
    }
    o = dbUnshareStringValue(c->db, key, o);
    sds &s = objectRawSds(o);
    *grown = s.size() < bytes;
    if (*grown) s.resize(bytes);
    return o;
}

const unsigned char *bytesOf(std::string_view s) { return reinterpret_cast<const unsigned char *>(s.data()); }

/* The unit of BITCOUNT's and BITPOS's range: BYTE (the default) or BIT. */
bool parseBitUnit(client *c, std::string_view arg, bool *isbit) {
    if (strEqualNoCase(arg, "bit")) *isbit = true;
    else if (strEqualNoCase(arg, "byte")) *isbit = false;
    else {
        addReplyErrorObject(c, shared::syntaxerr);
        return false;
    }
    return true;
}

/* Makes start and end absolute and clamps them to [0, total - 1] (end
 * only from above: an empty string gives end -1). */
void normalizeRange(long long total, long long *start, long long *end) {
    if (*start < 0) *start += total;
    if (*end < 0) *end += total;
    if (*start < 0) *start = 0;
    if (*end < 0) *end = 0;
    if (*end >= total) *end = total - 1;
}

}  // namespace

/* ========================================================================
 * SETBIT, GETBIT
 * ====================================================================== */

/* SETBIT key offset 0|1: replies the bit's old value. */
void setbitCommand(client *c) {
    constexpr std::string_view err = "bit is not an integer or out of range";
    uint64_t bitoffset;
    long on;
    if (!getBitOffsetFromArgument(c, c->argv[2], &bitoffset, false, 0)) return;
    if (!getLongFromObjectOrReply(c, c->argv[3], &on, err.data())) return;
    if (on & ~1L) {
        addReplyError(c, err);
        return;
    }
    bool grown;
    robj *o = lookupStringForBitCommand(c, bitoffset, &grown);
    if (!o) return;

    auto *p = reinterpret_cast<unsigned char *>(objectRawSds(o).data());
    int old = getBit(p, bitoffset);
    if (grown || old != on) {
        setUnsignedBitfield(p, bitoffset, 1, static_cast<uint64_t>(on));
        signalModifiedKey(c, c->db, c->argv[1]);
        notifyKeyspaceEvent(NOTIFY_STRING, "setbit", c->argv[1], c->db->id);
        server.dirty++;
    }
    addReply(c, old ? shared::cone : shared::czero);
}

/* GETBIT key offset: bits past the end read as 0. */
void getbitCommand(client *c) {
    uint64_t bitoffset;
    if (!getBitOffsetFromArgument(c, c->argv[2], &bitoffset, false, 0)) return;
    robj *o = lookupKeyReadOrReply(c, c->argv[1], shared::czero);
    if (!o || checkType(c, o, OBJ_STRING)) return;
    StringBuf buf;
    std::string_view s = objectStringView(o, buf);
    bool set = (bitoffset >> 3) < s.size() && getBit(bytesOf(s), bitoffset);
    addReply(c, set ? shared::cone : shared::czero);
}

/* ========================================================================
 * BITCOUNT, BITPOS
 * ====================================================================== */

/* BITCOUNT key [start end [BYTE|BIT]] */
void bitcountCommand(client *c) {
    robj *o = lookupKeyReadOrReply(c, c->argv[1], shared::czero);
    if (!o || checkType(c, o, OBJ_STRING)) return;
    StringBuf buf;
    std::string_view s = objectStringView(o, buf);
    const unsigned char *p = bytesOf(s);
    auto strlen = static_cast<long long>(s.size());

    size_t argc = c->argv.size();
    if (argc == 2) return addReplyLongLong(c, redisPopcount(p, s.size()));
    if (argc != 4 && argc != 5) return addReplyErrorObject(c, shared::syntaxerr);

    long long start, end;
    bool isbit = false;
    if (!getLongLongFromObjectOrReply(c, c->argv[2], &start) || !getLongLongFromObjectOrReply(c, c->argv[3], &end))
        return;
    /* Both from the end and crossed: empty, whatever the unit says (Redis
     * answers before it reads the unit). */
    if (start < 0 && end < 0 && start > end) return addReply(c, shared::czero);
    if (argc == 5 && !parseBitUnit(c, c->argv[4], &isbit)) return;

    normalizeRange(isbit ? strlen * 8 : strlen, &start, &end);
    if (start > end) return addReply(c, shared::czero);
    if (!isbit) return addReplyLongLong(c, redisPopcount(p + start, static_cast<size_t>(end - start + 1)));

    /* Whole bytes, less the bits before start and after end in the edge bytes. */
    long long first = start >> 3, last = end >> 3;
    long long count = redisPopcount(p + first, static_cast<size_t>(last - first + 1));
    count -= __builtin_popcount(p[first] >> (8 - (start & 7)));
    count -= __builtin_popcount(p[last] & ((1u << (7 - (end & 7))) - 1));
    addReplyLongLong(c, count);
}

/* BITPOS key bit [start [end [BYTE|BIT]]]. A string is followed by endless
 * zero bits, so a clear bit is found past a string of ones, unless an end
 * was given: then the search stays in the range and finds nothing (-1). */
void bitposCommand(client *c) {
    long bit;
    if (!getLongFromObjectOrReply(c, c->argv[2], &bit)) return;
    if (bit != 0 && bit != 1) return addReplyError(c, "The bit argument must be 1 or 0.");

    robj *o = lookupKeyRead(c->db, c->argv[1]);
    if (!o) return addReplyLongLong(c, bit ? -1 : 0);
    if (checkType(c, o, OBJ_STRING)) return;
    StringBuf buf;
    std::string_view s = objectStringView(o, buf);
    auto strlen = static_cast<long long>(s.size());

    size_t argc = c->argv.size();
    if (argc > 6) return addReplyErrorObject(c, shared::syntaxerr);
    long long start = 0, end = strlen - 1;
    bool isbit = false, end_given = argc >= 5;
    if (argc >= 4) {
        if (!getLongLongFromObjectOrReply(c, c->argv[3], &start)) return;
        if (argc == 6 && !parseBitUnit(c, c->argv[5], &isbit)) return;
        if (end_given && !getLongLongFromObjectOrReply(c, c->argv[4], &end)) return;
        long long total = isbit ? strlen * 8 : strlen;
        if (!end_given) end = total - 1;
        normalizeRange(total, &start, &end);
    }
    if (start > end) return addReplyLongLong(c, -1);

    uint64_t from = isbit ? start : start * 8, to = isbit ? end : end * 8 + 7;
    long long pos = findBitInRange(bytesOf(s), from, to, static_cast<int>(bit));
    if (pos < 0 && bit == 0 && !end_given) pos = static_cast<long long>(to) + 1;
    addReplyLongLong(c, pos);
}

/* ========================================================================
 * BITOP
 * ====================================================================== */

namespace {

enum class BitOp { And, Or, Xor, Not };

/* One byte of the result: the sources' bytes at j, a missing byte (past a
 * shorter source's end) counting as 0. */
unsigned char bitopByte(BitOp op, const std::vector<std::string_view> &src, size_t j) {
    auto at = [&](size_t i) { return j < src[i].size() ? static_cast<unsigned char>(src[i][j]) : 0; };
    unsigned char out = at(0);
    if (op == BitOp::Not) return static_cast<unsigned char>(~out);
    for (size_t i = 1; i < src.size(); i++) {
        if (op == BitOp::And) out &= at(i);
        else if (op == BitOp::Or) out |= at(i);
        else out ^= at(i);
    }
    return out;
}

/* The result's first `len` bytes, where every source has data: a word at a
 * time. */
void bitopWords(BitOp op, const std::vector<std::string_view> &src, unsigned char *res, size_t len) {
    for (size_t j = 0; j + 8 <= len; j += 8) {
        uint64_t out = load64(bytesOf(src[0]) + j);
        if (op == BitOp::Not) out = ~out;
        for (size_t i = 1; i < src.size(); i++) {
            uint64_t w = load64(bytesOf(src[i]) + j);
            if (op == BitOp::And) out &= w;
            else if (op == BitOp::Or) out |= w;
            else out ^= w;
        }
        memcpy(res + j, &out, 8);
    }
}

}  // namespace

/* BITOP AND|OR|XOR|NOT destkey srckey [srckey ...]: missing sources are
 * empty strings and shorter ones are zero-padded; the result, as long as
 * the longest source, replaces destkey, or deletes it when empty. */
void bitopCommand(client *c) {
    std::string_view opname = c->argv[1], targetkey = c->argv[2];
    BitOp op;
    if (strEqualNoCase(opname, "and")) op = BitOp::And;
    else if (strEqualNoCase(opname, "or")) op = BitOp::Or;
    else if (strEqualNoCase(opname, "xor")) op = BitOp::Xor;
    else if (strEqualNoCase(opname, "not")) op = BitOp::Not;
    else return addReplyErrorObject(c, shared::syntaxerr);
    if (op == BitOp::Not && c->argv.size() != 4)
        return addReplyError(c, "BITOP NOT must be called with a single source key.");

    size_t numkeys = c->argv.size() - 3;
    std::vector<StringBuf> bufs(numkeys);
    std::vector<std::string_view> src(numkeys);
    size_t maxlen = 0, minlen = SIZE_MAX;
    for (size_t j = 0; j < numkeys; j++) {
        robj *o = lookupKeyRead(c->db, c->argv[j + 3]);
        if (o && checkType(c, o, OBJ_STRING)) return;
        if (o) src[j] = objectStringView(o, bufs[j]);
        maxlen = std::max(maxlen, src[j].size());
        minlen = std::min(minlen, src[j].size());
    }

    if (maxlen) {
        /* The sources are read before setKey may free one (the destination). */
        ObjRef result = createZeroedStringObject(maxlen);
        auto *res = reinterpret_cast<unsigned char *>(objectRawSds(result.get()).data());
        size_t words = minlen & ~size_t{7};
        bitopWords(op, src, res, words);
        for (size_t j = words; j < maxlen; j++) res[j] = bitopByte(op, src, j);
        setKey(c, c->db, targetkey, std::move(result), 0);
        notifyKeyspaceEvent(NOTIFY_STRING, "set", targetkey, c->db->id);
        server.dirty++;
    } else if (dbDelete(c->db, targetkey)) {
        signalModifiedKey(c, c->db, targetkey);
        notifyKeyspaceEvent(NOTIFY_GENERIC, "del", targetkey, c->db->id);
        server.dirty++;
    }
    addReplyLongLong(c, static_cast<long long>(maxlen));
}

/* ========================================================================
 * BITFIELD, BITFIELD_RO
 * ====================================================================== */

namespace {

enum class BitfieldOpcode { Get, Set, Incrby };

struct bitfieldOp {
    uint64_t offset;
    int64_t i64; /* SET's value or INCRBY's increment */
    BitfieldOpcode opcode;
    Overflow owtype;
    int bits;
    bool sign;
};

/* GET reads through a 9-byte window copied from the string and
 * zero-padded, so a field may run past the end (or the key be missing). */
void bitfieldGet(client *c, const bitfieldOp &op, std::string_view s) {
    unsigned char window[9] = {0};
    uint64_t byte = op.offset >> 3;
    if (byte < s.size()) memcpy(window, s.data() + byte, std::min<size_t>(9, s.size() - byte));
    uint64_t offset = op.offset & 7;
    if (op.sign) addReplyLongLong(c, getSignedBitfield(window, offset, op.bits));
    else addReplyLongLong(c, static_cast<long long>(getUnsignedBitfield(window, offset, op.bits)));
}

/* SET or INCRBY on the (already grown) string p: replies the old value
 * (SET) or the new one (INCRBY), or nil when OVERFLOW FAIL refuses the
 * write. Returns whether it wrote; *changed whether the field's bits did. */
bool bitfieldWrite(client *c, const bitfieldOp &op, unsigned char *p, bool *changed) {
    bool incr = op.opcode == BitfieldOpcode::Incrby;
    uint64_t oldbits, newbits;
    long long reply;
    bool overflow;
    if (op.sign) {
        int64_t oldval = getSignedBitfield(p, op.offset, op.bits), wrapped = 0;
        int64_t newval = incr ? static_cast<int64_t>(static_cast<uint64_t>(oldval) + static_cast<uint64_t>(op.i64))
                              : op.i64;
        overflow = checkSignedBitfieldOverflow(incr ? oldval : op.i64, incr ? op.i64 : 0, op.bits, op.owtype, &wrapped);
        if (overflow) newval = wrapped;
        reply = incr ? newval : oldval;
        oldbits = static_cast<uint64_t>(oldval);
        newbits = static_cast<uint64_t>(newval);
    } else {
        uint64_t oldval = getUnsignedBitfield(p, op.offset, op.bits), wrapped = 0;
        uint64_t newval = incr ? oldval + static_cast<uint64_t>(op.i64) : static_cast<uint64_t>(op.i64);
        overflow = checkUnsignedBitfieldOverflow(incr ? oldval : newval, incr ? op.i64 : 0, op.bits, op.owtype,
                                                 &wrapped);
        if (overflow) newval = wrapped;
        reply = static_cast<long long>(incr ? newval : oldval);
        oldbits = oldval;
        newbits = newval;
    }
    if (overflow && op.owtype == Overflow::Fail) {
        addReplyNull(c);
        return false;
    }
    addReplyLongLong(c, reply);
    setUnsignedBitfield(p, op.offset, op.bits, newbits);
    *changed = oldbits != newbits;
    return true;
}

/* Parses the subcommands from argv[2] on into ops (OVERFLOW applies to
 * those after it). Replies the error and returns false on a bad one. */
bool parseBitfieldOps(client *c, std::vector<bitfieldOp> *ops) {
    Overflow owtype = Overflow::Wrap;
    size_t argc = c->argv.size();
    for (size_t j = 2; j < argc; j++) {
        std::string_view subcmd = c->argv[j];
        size_t remargs = argc - j - 1;
        BitfieldOpcode opcode;
        if (strEqualNoCase(subcmd, "get") && remargs >= 2) opcode = BitfieldOpcode::Get;
        else if (strEqualNoCase(subcmd, "set") && remargs >= 3) opcode = BitfieldOpcode::Set;
        else if (strEqualNoCase(subcmd, "incrby") && remargs >= 3) opcode = BitfieldOpcode::Incrby;
        else if (strEqualNoCase(subcmd, "overflow") && remargs >= 1) {
            std::string_view name = c->argv[++j];
            if (strEqualNoCase(name, "wrap")) owtype = Overflow::Wrap;
            else if (strEqualNoCase(name, "sat")) owtype = Overflow::Sat;
            else if (strEqualNoCase(name, "fail")) owtype = Overflow::Fail;
            else {
                addReplyError(c, "Invalid OVERFLOW type specified");
                return false;
            }
            continue;
        } else {
            addReplyErrorObject(c, shared::syntaxerr);
            return false;
        }

        bitfieldOp op{0, 0, opcode, owtype, 0, false};
        if (!getBitfieldTypeFromArgument(c, c->argv[j + 1], &op.sign, &op.bits) ||
            !getBitOffsetFromArgument(c, c->argv[j + 2], &op.offset, true, op.bits))
            return false;
        if (opcode != BitfieldOpcode::Get) {
            long long value;
            if (!getLongLongFromObjectOrReply(c, c->argv[j + 3], &value)) return false;
            op.i64 = value;
        }
        ops->push_back(op);
        j += opcode == BitfieldOpcode::Get ? 2 : 3;
    }
    return true;
}

/* BITFIELD, and BITFIELD_RO when readonly_command (GET only). The string
 * grows once, up to the farthest bit any SET or INCRBY reaches, before the
 * operations run in order. */
void bitfieldGeneric(client *c, bool readonly_command) {
    std::vector<bitfieldOp> ops;
    if (!parseBitfieldOps(c, &ops)) return;

    bool readonly = true;
    uint64_t highest_write_offset = 0;
    for (const bitfieldOp &op : ops) {
        if (op.opcode == BitfieldOpcode::Get) continue;
        readonly = false;
        highest_write_offset = std::max(highest_write_offset, op.offset + static_cast<uint64_t>(op.bits) - 1);
    }

    robj *o;
    bool grown = false;
    if (readonly) {
        o = lookupKeyRead(c->db, c->argv[1]);
        if (o && checkType(c, o, OBJ_STRING)) return;
    } else {
        if (readonly_command) return addReplyError(c, "BITFIELD_RO only supports the GET subcommand");
        o = lookupStringForBitCommand(c, highest_write_offset, &grown);
        if (!o) return;
    }

    addReplyArrayLen(c, static_cast<long long>(ops.size()));
    long long changes = 0;
    for (const bitfieldOp &op : ops) {
        if (op.opcode == BitfieldOpcode::Get) {
            StringBuf buf;
            bitfieldGet(c, op, o ? objectStringView(o, buf) : std::string_view{});
        } else {
            auto *p = reinterpret_cast<unsigned char *>(objectRawSds(o).data());
            /* Once the string grew, every write counts, even one that kept the field's value. */
            bool changed;
            if (bitfieldWrite(c, op, p, &changed) && (grown || changed)) changes++;
        }
    }
    if (changes) {
        signalModifiedKey(c, c->db, c->argv[1]);
        notifyKeyspaceEvent(NOTIFY_STRING, "setbit", c->argv[1], c->db->id);
        server.dirty += changes;
    }
}

}  // namespace

void bitfieldCommand(client *c) { bitfieldGeneric(c, false); }
void bitfieldroCommand(client *c) { bitfieldGeneric(c, true); }

/* BITFIELD's key is only read when every subcommand is a GET (OVERFLOW
 * aside); a SET, an INCRBY or anything unparsable makes it read-write, as
 * Redis's bitfieldGetKeys. */
int bitfieldGetKeys(const redisCommand *, std::span<const std::string_view> argv, getKeysResult *result) {
    bool readonly = true;
    size_t argc = argv.size();
    for (size_t i = 2; i < argc; i++) {
        size_t remargs = argc - i - 1;
        std::string_view arg = argv[i];
        if (strEqualNoCase(arg, "get") && remargs >= 2) {
            i += 2;
        } else if (strEqualNoCase(arg, "overflow") && remargs >= 1) {
            i += 1;
        } else {
            readonly = false; /* SET, INCRBY, or a syntax error: safer as a write */
            break;
        }
    }
    result->keys.push_back({1, readonly ? CMD_KEY_RO | CMD_KEY_ACCESS : CMD_KEY_RW | CMD_KEY_ACCESS | CMD_KEY_UPDATE});
    return 1;
}
