/* sha256.h — SHA-256 (FIPS 180-4), as Redis's sha256.c: what ACL users'
 * passwords are stored as (acl.cpp keeps the hex digest, never the
 * password). A plain function of bytes: includes nothing of the server. */
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

constexpr size_t SHA256_BLOCK_SIZE = 32; /* digest bytes (Redis's name) */

std::array<uint8_t, SHA256_BLOCK_SIZE> sha256(std::string_view data);
