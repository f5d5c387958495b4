/* sha1.cpp — SHA-1 (Redis's sha1.c; see sha1.h). The message is processed
 * in 64-byte blocks, each expanded into 80 big-endian words that drive 80
 * rounds over the five-word state; the end is padded with 0x80, zeros and
 * the bit length so the last block is complete. */
#include "sha1.h"

#include <algorithm>
#include <bit>
#include <cstring>

SHA1_CTX::SHA1_CTX() : state_{0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0} {}

void SHA1_CTX::transform(const unsigned char block[64]) {
    uint32_t w[80];
    for (int i = 0; i < 16; i++)
        w[i] = uint32_t{block[4 * i]} << 24 | uint32_t{block[4 * i + 1]} << 16 | uint32_t{block[4 * i + 2]} << 8 |
               block[4 * i + 3];
    for (int i = 16; i < 80; i++) w[i] = std::rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3], e = state_[4];
    for (int i = 0; i < 80; i++) {
        uint32_t f, k;
        if (i < 20) f = (b & c) | (~b & d), k = 0x5A827999;
        else if (i < 40) f = b ^ c ^ d, k = 0x6ED9EBA1;
        else if (i < 60) f = (b & c) | (b & d) | (c & d), k = 0x8F1BBCDC;
        else f = b ^ c ^ d, k = 0xCA62C1D6;
        uint32_t t = std::rotl(a, 5) + f + e + k + w[i];
        e = d;
        d = c;
        c = std::rotl(b, 30);
        b = a;
        a = t;
    }
    state_[0] += a;
    state_[1] += b;
    state_[2] += c;
    state_[3] += d;
    state_[4] += e;
}

void SHA1_CTX::update(const void *data, size_t len) {
    const auto *p = static_cast<const unsigned char *>(data);
    size_t used = count_ % 64;
    count_ += len;
    if (used) {
        size_t take = std::min(len, 64 - used);
        memcpy(buffer_ + used, p, take);
        p += take;
        len -= take;
        if (used + take < 64) return;
        transform(buffer_);
    }
    for (; len >= 64; p += 64, len -= 64) transform(p);
    memcpy(buffer_, p, len);
}

void SHA1_CTX::final(unsigned char digest[20]) {
    uint64_t bits = count_ * 8;
    static const unsigned char pad[64] = {0x80};
    size_t used = count_ % 64;
    update(pad, used < 56 ? 56 - used : 120 - used);
    unsigned char lenbytes[8];
    for (int i = 0; i < 8; i++) lenbytes[i] = static_cast<unsigned char>(bits >> (56 - 8 * i));
    update(lenbytes, 8);
    for (int i = 0; i < 20; i++) digest[i] = static_cast<unsigned char>(state_[i / 4] >> (24 - 8 * (i % 4)));
}

void sha1(unsigned char digest[20], const void *data, size_t len) {
    SHA1_CTX ctx;
    ctx.update(data, len);
    ctx.final(digest);
}

std::string sha1hex(std::string_view data) {
    static constexpr char hex[] = "0123456789abcdef";
    unsigned char digest[20];
    sha1(digest, data.data(), data.size());
    std::string out(40, '0');
    for (int i = 0; i < 20; i++) {
        out[2 * i] = hex[digest[i] >> 4];
        out[2 * i + 1] = hex[digest[i] & 15];
    }
    return out;
}
