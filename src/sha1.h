/* sha1.h — SHA-1 (FIPS 180-4), as Redis's sha1.c provides it: DEBUG DIGEST
 * mixes every key and value of the dataset through it, and scripting names
 * scripts by the SHA-1 of their body.
 *
 * Incremental: update() any number of times, then final() once. The
 * one-shot sha1() and sha1hex() cover the common cases.
 * Invariant: `buffer_` holds the bytes of the current, incomplete 64-byte
 * block (count_ % 64 of them); every complete block has been compressed
 * into `state_`.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

class SHA1_CTX {
public:
    SHA1_CTX(); /* SHA1Init */
    void update(const void *data, size_t len); /* SHA1Update */
    void final(unsigned char digest[20]);      /* SHA1Final: the context is spent */

private:
    void transform(const unsigned char block[64]);

    uint32_t state_[5];
    uint64_t count_ = 0; /* bytes hashed so far */
    unsigned char buffer_[64];
};

void sha1(unsigned char digest[20], const void *data, size_t len);
/* 40 lower-case hex digits (Redis's sha1hex, as SCRIPT LOAD replies). */
std::string sha1hex(std::string_view data);
