/* crc64.cpp — table-driven CRC-64/Jones (Redis's crc64.c and crcspeed.c;
 * see crc64.h).
 *
 * Reflected CRCs shift right, so the polynomial is used bit-reversed.
 * Slicing by 8: table[0] advances the CRC by one byte; table[k][b] is the
 * contribution of byte b when k more bytes follow it, so eight bytes are
 * folded in with eight lookups and no dependency between them. The tables
 * are computed at compile time.
 */
#include "crc64.h"

#include <array>
#include <bit>
#include <cstring>

namespace {

constexpr uint64_t kJonesPoly = 0xad93d23594c935a9ULL;

constexpr uint64_t reflect64(uint64_t v) {
    uint64_t r = 0;
    for (int i = 0; i < 64; i++, v >>= 1) r = (r << 1) | (v & 1);
    return r;
}

using CrcTables = std::array<std::array<uint64_t, 256>, 8>;

constexpr CrcTables makeTables() {
    constexpr uint64_t poly = reflect64(kJonesPoly);
    CrcTables t{};
    for (uint64_t b = 0; b < 256; b++) {
        uint64_t crc = b;
        for (int bit = 0; bit < 8; bit++) crc = (crc & 1) ? (crc >> 1) ^ poly : crc >> 1;
        t[0][b] = crc;
    }
    for (int k = 1; k < 8; k++)
        for (int b = 0; b < 256; b++) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xff];
    return t;
}

constexpr CrcTables kTables = makeTables();

}  // namespace

uint64_t crc64(uint64_t crc, const unsigned char *s, size_t len) {
    for (; len >= 8; s += 8, len -= 8) {
        uint64_t word;
        memcpy(&word, s, 8);
        if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
        crc ^= word;
        crc = kTables[7][crc & 0xff] ^ kTables[6][(crc >> 8) & 0xff] ^ kTables[5][(crc >> 16) & 0xff] ^
              kTables[4][(crc >> 24) & 0xff] ^ kTables[3][(crc >> 32) & 0xff] ^ kTables[2][(crc >> 40) & 0xff] ^
              kTables[1][(crc >> 48) & 0xff] ^ kTables[0][crc >> 56];
    }
    for (; len; s++, len--) crc = kTables[0][(crc ^ *s) & 0xff] ^ (crc >> 8);
    return crc;
}
