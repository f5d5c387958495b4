/* listpack.cpp — decoding a listpack (see listpack.h). */
#include "listpack.h"

#include <cstdint>
#include <cstring>

namespace {

constexpr size_t LP_HDR_SIZE = 6;
constexpr unsigned char LP_EOF = 0xFF;
constexpr uint16_t LP_HDR_NUMELE_UNKNOWN = UINT16_MAX;

/* Little-endian unsigned integer of `n` bytes. */
uint64_t readLE(const unsigned char *p, int n) {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

/* The `bits`-bit two's complement value in the low bits of `v`. */
int64_t signExtend(uint64_t v, int bits) {
    uint64_t sign = uint64_t{1} << (bits - 1);
    return static_cast<int64_t>((v ^ sign) - sign);
}

/* The bytes lpEncodeBacklen writes for an entry of `len` bytes: the high
 * 7-bit group first, every byte but the first flagged with 128, so that a
 * reader walking backwards knows where the field begins. */
size_t encodeBacklen(uint64_t len, unsigned char out[5]) {
    size_t n = len <= 127 ? 1 : len < 16383 ? 2 : len < 2097151 ? 3 : len < 268435455 ? 4 : 5;
    for (size_t i = 0; i < n; i++) {
        out[i] = static_cast<unsigned char>((len >> (7 * (n - 1 - i))) & 127);
        if (i > 0) out[i] |= 128;
    }
    return n;
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

}  // namespace

std::optional<std::vector<ziplistEntry>> lpDecode(std::string_view blob) {
    const auto *lp = reinterpret_cast<const unsigned char *>(blob.data());
    if (blob.size() < LP_HDR_SIZE + 1 || readLE(lp, 4) != blob.size() || lp[blob.size() - 1] != LP_EOF)
        return std::nullopt;
    const size_t numele = readLE(lp + 4, 2);
    const size_t end = blob.size() - 1;
    std::vector<ziplistEntry> entries;
    if (numele != LP_HDR_NUMELE_UNKNOWN) entries.reserve(numele);
    for (size_t pos = LP_HDR_SIZE; pos < end;) {
        ziplistEntry e;
        size_t len = decodeEntry(lp + pos, end - pos, &e);
        if (len == 0) return std::nullopt;
        unsigned char backlen[5];
        size_t blen = encodeBacklen(len, backlen);
        if (end - pos - len < blen || memcmp(lp + pos + len, backlen, blen) != 0) return std::nullopt;
        entries.push_back(e);
        pos += len + blen;
    }
    if (numele != LP_HDR_NUMELE_UNKNOWN && numele != entries.size()) return std::nullopt;
    return entries;
}
