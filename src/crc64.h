/* crc64.h — the CRC-64 that ends every RDB file (Redis's crc64.c): the
 * "Jones" parameters — polynomial 0xad93d23594c935a9, input and output
 * reflected, initial value 0, no final xor. Check value:
 * crc64(0, "123456789", 9) == 0xe9c6d914c4b8d9ca.
 *
 * The checksum is incremental: crc64(crc64(0, a), b) == crc64(0, a + b), so
 * the RDB writer and reader update it chunk by chunk as bytes go by.
 */
#pragma once

#include <cstddef>
#include <cstdint>

uint64_t crc64(uint64_t crc, const unsigned char *s, size_t len);
