/* listpack.cpp — the listpack (Redis's listpack.c; see listpack.h): decoding
 * a blob read from an RDB file, and building one with Redis 7.0's
 * listpack.c algorithms, so that the same writes leave the same bytes. */
#include "listpack.h"

#include <cassert>
#include <cstdint>
#include <cstring>
#include <malloc.h>
#include <new>

#include "util.h"

namespace {

constexpr size_t LP_HDR_SIZE = 6;
constexpr unsigned char LP_EOF = 0xFF;
constexpr size_t LP_MAX_INT_ENCODING_LEN = 9;
constexpr size_t LP_MAX_BACKLEN_SIZE = 5;

/* Little-endian unsigned integer of `n` bytes. */
uint64_t readLE(const unsigned char *p, int n) {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

/* The low `n` bytes of `v`, little-endian. */
void storeLE(unsigned char *p, uint64_t v, int n) {
    for (int i = 0; i < n; i++) p[i] = static_cast<unsigned char>(v >> (8 * i));
}

/* The `bits`-bit two's complement value in the low bits of `v`. */
int64_t signExtend(uint64_t v, int bits) {
    uint64_t sign = uint64_t{1} << (bits - 1);
    return static_cast<int64_t>((v ^ sign) - sign);
}

/* How many bytes lpEncodeBacklen writes for an entry of `len` bytes (the
 * thresholds are Redis's, 16383 included in the 3-byte form). */
size_t backlenSize(uint64_t len) {
    return len <= 127 ? 1 : len < 16383 ? 2 : len < 2097151 ? 3 : len < 268435455 ? 4 : 5;
}

/* The bytes lpEncodeBacklen writes for an entry of `len` bytes: the high
 * 7-bit group first, every byte but the first flagged with 128, so that a
 * reader walking backwards knows where the field begins. */
size_t encodeBacklen(uint64_t len, unsigned char out[LP_MAX_BACKLEN_SIZE]) {
    size_t n = backlenSize(len);
    for (size_t i = 0; i < n; i++) {
        out[i] = static_cast<unsigned char>((len >> (7 * (n - 1 - i))) & 127);
        if (i > 0) out[i] |= 128;
    }
    return n;
}

/* lpDecodeBacklen: the length stored in the backlen whose last byte is at p,
 * read backwards. */
uint64_t decodeBacklen(const unsigned char *p) {
    uint64_t val = 0;
    for (unsigned shift = 0;; shift += 7, p--) {
        val |= static_cast<uint64_t>(p[0] & 127) << shift;
        if (!(p[0] & 128)) return val;
    }
}

/* Decodes the entry at p (`avail` bytes up to the end byte) into *e and
 * returns the size of its encoding and data, or 0 if it is malformed or
 * does not fit. */
size_t decodeEntry(const unsigned char *p, size_t avail, ziplistEntry *e) {
    auto str = [&](size_t hdr, uint64_t len) -> size_t {
        if (avail < hdr || avail - hdr < len) return 0;
        e->isInt = false;
        e->sval = {reinterpret_cast<const char *>(p + hdr), static_cast<size_t>(len)};
        return hdr + len;
    };
    auto num = [&](size_t size, int64_t v) -> size_t {
        if (avail < size) return 0;
        e->isInt = true;
        e->lval = v;
        return size;
    };
    unsigned char b = p[0];
    if ((b & 0x80) == 0) return num(1, b & 0x7f);
    if ((b & 0xC0) == 0x80) return str(1, b & 0x3f);
    if ((b & 0xE0) == 0xC0) return avail < 2 ? 0 : num(2, signExtend(((b & 0x1f) << 8) | p[1], 13));
    if ((b & 0xF0) == 0xE0) return avail < 2 ? 0 : str(2, ((b & 0x0f) << 8) | p[1]);
    switch (b) {
    case 0xF0: return avail < 5 ? 0 : str(5, readLE(p + 1, 4));
    case 0xF1: return avail < 3 ? 0 : num(3, signExtend(readLE(p + 1, 2), 16));
    case 0xF2: return avail < 4 ? 0 : num(4, signExtend(readLE(p + 1, 3), 24));
    case 0xF3: return avail < 5 ? 0 : num(5, signExtend(readLE(p + 1, 4), 32));
    case 0xF4: return avail < 9 ? 0 : num(9, static_cast<int64_t>(readLE(p + 1, 8)));
    default: return 0; /* 0xF5..0xFE are unused, 0xFF is the end */
    }
}

/* lpEncodeIntegerGetType: the smallest encoding of `v` into intenc;
 * returns its length. */
size_t encodeInteger(int64_t v, unsigned char intenc[LP_MAX_INT_ENCODING_LEN]) {
    const auto u = static_cast<uint64_t>(v); /* two's complement: the low bytes are the value */
    if (v >= 0 && v <= 127) {
        intenc[0] = static_cast<unsigned char>(v);
        return 1;
    }
    if (v >= -4096 && v <= 4095) {
        intenc[0] = static_cast<unsigned char>(0xC0 | ((u >> 8) & 0x1F));
        intenc[1] = static_cast<unsigned char>(u);
        return 2;
    }
    auto fixed = [&](unsigned char encoding, int bytes) -> size_t {
        intenc[0] = encoding;
        storeLE(intenc + 1, u, bytes);
        return 1 + bytes;
    };
    if (v >= INT16_MIN && v <= INT16_MAX) return fixed(0xF1, 2);
    if (v >= -8388608 && v <= 8388607) return fixed(0xF2, 3);
    if (v >= INT32_MIN && v <= INT32_MAX) return fixed(0xF3, 4);
    return fixed(0xF4, 8);
}

/* An element about to be written: a string, its integer encoding, or
 * nothing (a deletion), with the length of its encoding+data. */
struct lpElement {
    enum { DELETE, STRING, INTEGER } type = DELETE;
    std::string_view str;
    unsigned char intenc[LP_MAX_INT_ENCODING_LEN];
    uint64_t enclen = 0;

    static lpElement integer(long long v) {
        lpElement e;
        e.type = INTEGER;
        e.enclen = encodeInteger(v, e.intenc);
        return e;
    }
    /* lpEncodeGetType: a string that is the canonical form of an integer is
     * stored as that integer. */
    static lpElement string(std::string_view s) {
        long long v;
        if (string2ll(s, &v)) return integer(v);
        assert(s.size() <= UINT32_MAX);
        lpElement e;
        e.type = STRING;
        e.str = s;
        e.enclen = (s.size() < 64 ? 1 : s.size() < 4096 ? 2 : 5) + uint64_t{s.size()};
        return e;
    }
    /* Writes the encoding and data (enclen bytes) at dst (lpEncodeString). */
    void encode(unsigned char *dst) const {
        if (type == INTEGER) {
            memcpy(dst, intenc, enclen);
            return;
        }
        const size_t len = str.size();
        if (len < 64) {
            *dst++ = static_cast<unsigned char>(0x80 | len);
        } else if (len < 4096) {
            *dst++ = static_cast<unsigned char>(0xE0 | (len >> 8));
            *dst++ = static_cast<unsigned char>(len);
        } else {
            *dst++ = 0xF0;
            storeLE(dst, len, 4);
            dst += 4;
        }
        if (len) memcpy(dst, str.data(), len);
    }
};

}  // namespace

/* The one way into a listpack's buffer: its allocation, and the header
 * fields the writers keep in step with the contents. */
struct listpackAccess {
    static unsigned char *buf(listpack &lp) { return lp.lp_.get(); }
    static const unsigned char *buf(const listpack &lp) { return lp.lp_.get(); }

    static listpack make(size_t capacity) {
        auto *p = static_cast<unsigned char *>(std::malloc(capacity));
        if (!p) throw std::bad_alloc();
        return listpack(p);
    }
    /* lp_malloc_size: what the allocator actually gave, which Redis fills
     * before it reallocates. */
    static size_t allocSize(const listpack &lp) { return malloc_usable_size(lp.lp_.get()); }
    static void resize(listpack &lp, size_t bytes) {
        auto *p = static_cast<unsigned char *>(std::realloc(lp.lp_.get(), bytes));
        if (!p) throw std::bad_alloc();
        (void)lp.lp_.release();
        lp.lp_.reset(p);
    }

    static uint32_t totalBytes(const listpack &lp) { return static_cast<uint32_t>(readLE(buf(lp), 4)); }
    static void setTotalBytes(listpack &lp, uint64_t v) { storeLE(buf(lp), v, 4); }
    static uint16_t numElements(const listpack &lp) { return static_cast<uint16_t>(readLE(buf(lp) + 4, 2)); }
    static void setNumElements(listpack &lp, uint64_t v) { storeLE(buf(lp) + 4, v, 2); }
    /* num-elements moved by `delta`, unless it is already "unknown". */
    static void incrNumElements(listpack &lp, long delta) {
        const uint16_t n = numElements(lp);
        if (n != LP_HDR_NUMELE_UNKNOWN) setNumElements(lp, static_cast<uint64_t>(n + delta));
    }

    /* The entry at `offset`: the length of its encoding+data, and its value. */
    static size_t decode(const listpack &lp, uint32_t offset, ziplistEntry *e) {
        const size_t len = decodeEntry(buf(lp) + offset, totalBytes(lp) - 1 - offset, e);
        assert(len > 0);
        return len;
    }
    /* lpSkip: the offset just past the entry at `offset` and its backlen
     * (the end byte's offset after the last entry). */
    static uint32_t skip(const listpack &lp, uint32_t offset) {
        ziplistEntry e;
        const size_t len = decode(lp, offset, &e);
        return static_cast<uint32_t>(offset + len + backlenSize(len));
    }

    static lppos insert(listpack &lp, const lpElement &ele, lppos p, int where);
    static void deleteRangeWithEntry(listpack &lp, lppos p, unsigned long num);
    static void deleteTail(listpack &lp, lppos p, long index);
};

/* lpInsert: writes `ele` before the entry at p (or the end byte), after it,
 * or in its place; a DELETE element removes it. The buffer is reallocated
 * before the move when it grows past its allocation and after it when it
 * shrinks, as Redis does, so the allocation sizes follow Redis's too.
 * Returns the new entry's position, or for a deletion the one that followed
 * (no entry if none did). */
lppos listpackAccess::insert(listpack &lp, const lpElement &ele, lppos p, int where) {
    const bool del = ele.type == lpElement::DELETE;
    if (del) where = LP_REPLACE;
    if (where == LP_AFTER) {
        p.offset = skip(lp, p.offset);
        where = LP_BEFORE;
    }
    const uint32_t poff = p.offset;
    assert(poff >= LP_HDR_SIZE && poff < totalBytes(lp));

    unsigned char backlen[LP_MAX_BACKLEN_SIZE];
    const size_t backlenLen = del ? 0 : encodeBacklen(ele.enclen, backlen);
    const uint64_t oldBytes = totalBytes(lp);
    const uint64_t replaced = where == LP_REPLACE ? skip(lp, poff) - poff : 0;
    const uint64_t newBytes = oldBytes + ele.enclen + backlenLen - replaced;
    assert(newBytes <= UINT32_MAX);

    if (newBytes > oldBytes && newBytes > allocSize(lp)) resize(lp, newBytes);
    memmove(buf(lp) + poff + ele.enclen + backlenLen, buf(lp) + poff + replaced, oldBytes - poff - replaced);
    if (newBytes < oldBytes) resize(lp, newBytes);

    unsigned char *dst = buf(lp) + poff;
    if (!del) {
        ele.encode(dst);
        memcpy(dst + ele.enclen, backlen, backlenLen);
    }
    if (where != LP_REPLACE || del) incrNumElements(lp, del ? -1 : 1);
    setTotalBytes(lp, newBytes);
    if (del && *dst == LP_EOF) return {};
    return p;
}

/* lpDeleteRangeWithEntry: removes up to `num` entries from p on. */
void listpackAccess::deleteRangeWithEntry(listpack &lp, lppos p, unsigned long num) {
    const uint32_t bytes = totalBytes(lp);
    uint32_t tail = p.offset;
    unsigned long deleted = 0;
    while (num-- > 0) {
        deleted++;
        tail = skip(lp, tail);
        if (buf(lp)[tail] == LP_EOF) break;
    }
    memmove(buf(lp) + p.offset, buf(lp) + tail, bytes - tail);
    setTotalBytes(lp, bytes - (tail - p.offset));
    incrNumElements(lp, -static_cast<long>(deleted));
    lpShrinkToFit(lp);
}

/* Everything from p (the entry at `index`) to the end goes: the end byte
 * moves to p, with no walk over the entries removed. */
void listpackAccess::deleteTail(listpack &lp, lppos p, long index) {
    buf(lp)[p.offset] = LP_EOF;
    setTotalBytes(lp, p.offset + 1);
    setNumElements(lp, static_cast<uint64_t>(index));
    lpShrinkToFit(lp);
}

using A = listpackAccess;

listpack lpNew(size_t capacity) {
    listpack lp = A::make(capacity > LP_HDR_SIZE + 1 ? capacity : LP_HDR_SIZE + 1);
    A::setTotalBytes(lp, LP_HDR_SIZE + 1);
    A::setNumElements(lp, 0);
    A::buf(lp)[LP_HDR_SIZE] = LP_EOF;
    return lp;
}

void lpShrinkToFit(listpack &lp) {
    const size_t size = A::totalBytes(lp);
    if (size < A::allocSize(lp)) A::resize(lp, size);
}

lppos lpInsertString(listpack &lp, std::string_view s, lppos p, int where) {
    return A::insert(lp, lpElement::string(s), p, where);
}

lppos lpInsertInteger(listpack &lp, long long lval, lppos p, int where) {
    return A::insert(lp, lpElement::integer(lval), p, where);
}

void lpAppend(listpack &lp, std::string_view s) {
    A::insert(lp, lpElement::string(s), lppos{A::totalBytes(lp) - 1}, LP_BEFORE);
}

void lpAppendInteger(listpack &lp, long long lval) {
    A::insert(lp, lpElement::integer(lval), lppos{A::totalBytes(lp) - 1}, LP_BEFORE);
}

void lpReplace(listpack &lp, lppos p, std::string_view s) {
    assert(p);
    A::insert(lp, lpElement::string(s), p, LP_REPLACE);
}

void lpReplaceInteger(listpack &lp, lppos p, long long lval) {
    assert(p);
    A::insert(lp, lpElement::integer(lval), p, LP_REPLACE);
}

lppos lpDelete(listpack &lp, lppos p) {
    assert(p);
    return A::insert(lp, lpElement{}, p, LP_REPLACE);
}

void lpDeleteRange(listpack &lp, long index, unsigned long num) {
    if (num == 0) return;
    const lppos p = lpSeek(lp, index);
    if (!p) return;
    /* With a known count, a range reaching the end needs no walk. */
    const uint16_t numele = A::numElements(lp);
    if (numele != LP_HDR_NUMELE_UNKNOWN) {
        if (index < 0) index += numele;
        if (numele - static_cast<unsigned long>(index) <= num) return A::deleteTail(lp, p, index);
    }
    A::deleteRangeWithEntry(lp, p, num);
}

unsigned long lpLength(listpack &lp) {
    const uint16_t numele = A::numElements(lp);
    if (numele != LP_HDR_NUMELE_UNKNOWN) return numele;
    unsigned long count = 0;
    for (lppos p = lpFirst(lp); p; p = lpNext(lp, p)) count++;
    if (count < LP_HDR_NUMELE_UNKNOWN) A::setNumElements(lp, count);
    return count;
}

size_t lpBytes(const listpack &lp) { return A::totalBytes(lp); }

lppos lpSeek(const listpack &lp, long index) {
    /* From whichever end is nearer; from the head when the count is unknown,
     * unless the index counts from the tail. */
    bool forward = true;
    const uint16_t numele = A::numElements(lp);
    if (numele != LP_HDR_NUMELE_UNKNOWN) {
        if (index < 0) index += numele;
        if (index < 0 || index >= numele) return {};
        if (index > numele / 2) {
            forward = false;
            index -= numele;
        }
    } else if (index < 0) {
        forward = false;
    }
    if (forward) {
        lppos p = lpFirst(lp);
        for (; index > 0 && p; index--) p = lpNext(lp, p);
        return p;
    }
    lppos p = lpLast(lp);
    for (; index < -1 && p; index++) p = lpPrev(lp, p);
    return p;
}

lppos lpFirst(const listpack &lp) {
    return A::buf(lp)[LP_HDR_SIZE] == LP_EOF ? lppos{} : lppos{LP_HDR_SIZE};
}

lppos lpLast(const listpack &lp) {
    return lpPrev(lp, lppos{A::totalBytes(lp) - 1});
}

lppos lpNext(const listpack &lp, lppos p) {
    assert(p);
    const uint32_t next = A::skip(lp, p.offset);
    return A::buf(lp)[next] == LP_EOF ? lppos{} : lppos{next};
}

lppos lpPrev(const listpack &lp, lppos p) {
    assert(p);
    if (p.offset == LP_HDR_SIZE) return {};
    const uint64_t prevlen = decodeBacklen(A::buf(lp) + p.offset - 1);
    return lppos{static_cast<uint32_t>(p.offset - prevlen - backlenSize(prevlen))};
}

ziplistEntry lpGet(const listpack &lp, lppos p) {
    assert(p);
    ziplistEntry e;
    A::decode(lp, p.offset, &e);
    return e;
}


/* lpValidateIntegrity in deep mode: calls each(entry) for every entry of
 * `blob` in order while checking the header, each entry's bounds and
 * backlen, the element count and the end byte; false on the first flaw,
 * having read nothing outside the blob. */
template <typename Each>
static bool lpValidateEntries(std::string_view blob, Each each) {
    const auto *lp = reinterpret_cast<const unsigned char *>(blob.data());
    if (blob.size() < LP_HDR_SIZE + 1 || readLE(lp, 4) != blob.size() || lp[blob.size() - 1] != LP_EOF)
        return false;
    const size_t numele = readLE(lp + 4, 2);
    const size_t end = blob.size() - 1;
    size_t count = 0;
    for (size_t pos = LP_HDR_SIZE; pos < end; count++) {
        ziplistEntry e;
        size_t len = decodeEntry(lp + pos, end - pos, &e);
        if (len == 0) return false;
        unsigned char backlen[5];
        size_t blen = encodeBacklen(len, backlen);
        if (end - pos - len < blen || memcmp(lp + pos + len, backlen, blen) != 0) return false;
        each(e);
        pos += len + blen;
    }
    return numele == LP_HDR_NUMELE_UNKNOWN || numele == count;
}

std::optional<std::vector<ziplistEntry>> lpDecode(std::string_view blob) {
    std::vector<ziplistEntry> entries;
    if (!lpValidateEntries(blob, [&](const ziplistEntry &e) { entries.push_back(e); })) return std::nullopt;
    return entries;
}

std::optional<listpack> lpFromBytes(std::string_view blob) {
    if (!lpValidateEntries(blob, [](const ziplistEntry &) {})) return std::nullopt;
    listpack lp = A::make(blob.size());
    memcpy(A::buf(lp), blob.data(), blob.size());
    return lp;
}
