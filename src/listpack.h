/* listpack.h — reading Redis 5+'s listpack, the compact encoding that
 * replaced the ziplist. cppredis never builds one (its compact encoding is
 * Redis 2.6's ziplist), but Redis 7 stores small hashes and sorted sets,
 * and the nodes of every list, as listpacks in its RDB files, so the
 * loader decodes them and rebuilds cppredis's own encodings.
 *
 *   <total-bytes u32> <num-elements u16> <entry> ... <entry> <end 0xFF>
 *   entry   = <encoding+data> <backlen>
 *   encoding  0xxxxxxx              an integer 0..127
 *             10xxxxxx              a string of up to 63 bytes
 *             110xxxxx yyyyyyyy     a 13-bit signed integer
 *             1110xxxx yyyyyyyy     a string of up to 4095 bytes
 *             0xF0 + 4-byte length  any longer string
 *             0xF1 0xF2 0xF3 0xF4   16, 24, 32, 64-bit signed integers
 *   backlen = the length of <encoding+data>, 7 bits per byte, so that the
 *             list can be walked backwards; 1 to 5 bytes.
 *   Numbers are little-endian; num-elements is 65535 when it does not fit.
 */
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "ziplist.h" /* ziplistEntry: a string view or an integer */

/* Every entry, in order (string entries are views into `blob`), or nullopt
 * when the bytes are not a well-formed listpack: the header, each entry's
 * bounds and backlen, the element count and the end byte are all checked,
 * as Redis's lpValidateIntegrity does in deep mode, so nothing is read
 * outside the blob. */
std::optional<std::vector<ziplistEntry>> lpDecode(std::string_view blob);
