/* listpack.h — the listpack (Redis 5+'s listpack.c), the compact encoding
 * that replaced the ziplist: a list of strings and integers packed into one
 * byte buffer, read and written. Redis 7 stores small hashes and sorted
 * sets, and the nodes of every list, as listpacks in its RDB files, so the
 * loader decodes them (lpDecode) and rebuilds cppredis's own encodings;
 * streams keep their entries in listpacks built here, with Redis's functions
 * (lpAppend, lpReplaceInteger, lpNext...), so that the same writes leave the
 * same bytes as Redis 7.0's listpack.c.
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
 *   Numbers are little-endian.
 *
 * Invariants of a listpack built here:
 *  - total-bytes always equals the size of the contents (the allocation may
 *    be larger: lpNew's capacity, grown as Redis grows it, and given back by
 *    lpShrinkToFit and by every write that shrinks the contents).
 *  - num-elements is the number of entries, or 65535 ("unknown") once that
 *    does not fit below 65535: writes then leave it at 65535, and lpLength
 *    walks the entries and stores the count again when it fits, as Redis's
 *    does (so even a length query can change the bytes).
 *  - A string that string2ll accepts (Redis's lpStringToInt64: "-12" but not
 *    "007", "+1" or "-0") is stored with the smallest integer encoding that
 *    holds it, exactly as the integer itself would be (lpEncodeGetType).
 *  - Each entry ends with its backlen, so lpPrev and lpLast walk backwards
 *    from any entry or from the end byte.
 *  - Positions (lppos) are byte offsets, so they survive reallocation. A write
 *    at p leaves positions before p valid and moves the entries after it.
 *  - A value written must not be a view into the same listpack (a string
 *    from lpGet): the write reallocates before it copies. Copy first.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "ziplist.h" /* ziplistEntry: a string view or an integer */

/* Where lpInsertString/lpInsertInteger put the element, relative to p. */
constexpr int LP_BEFORE = 0, LP_AFTER = 1, LP_REPLACE = 2;
constexpr uint16_t LP_HDR_NUMELE_UNKNOWN = UINT16_MAX;

/* The position of an entry: its byte offset in the listpack. Offset 0 is the
 * header, never an entry, so a default lppos means "no entry" (Redis's NULL). */
struct lppos {
    uint32_t offset = 0;
    explicit operator bool() const { return offset != 0; }
    bool operator==(const lppos &) const = default;
};

/* The buffer, one malloc'd block grown and shrunk with realloc as Redis's
 * lp_malloc/lp_realloc; the lp* functions below read and write it. Only a
 * moved-from listpack has none; it may then only be destroyed or assigned. */
class listpack {
public:
    listpack(listpack &&) noexcept = default;
    listpack &operator=(listpack &&) noexcept = default;

    /* The bytes, lpBytes() of them, to be written out as they are (RDB). */
    const unsigned char *data() const { return lp_.get(); }

private:
    friend struct listpackAccess; /* listpack.cpp's writers */
    struct FreeDeleter {
        void operator()(unsigned char *p) const { std::free(p); }
    };
    explicit listpack(unsigned char *lp) : lp_(lp) {}

    std::unique_ptr<unsigned char[], FreeDeleter> lp_;
};

/* lpNew: an empty listpack (7 bytes) in an allocation of at least
 * `capacity` bytes, so that the appends up to it need no realloc. */
listpack lpNew(size_t capacity = 0);
/* lpShrinkToFit: gives back the allocation beyond lpBytes(). */
void lpShrinkToFit(listpack &lp);

/* lpInsertString / lpInsertInteger: a new entry before or after the entry at
 * p, or in its place (LP_REPLACE); returns the new entry's position. The
 * listpack must stay below 4 GB (Redis's callers keep it far smaller). */
lppos lpInsertString(listpack &lp, std::string_view s, lppos p, int where);
lppos lpInsertInteger(listpack &lp, long long lval, lppos p, int where);
/* lpAppend / lpAppendInteger: a new last entry. */
void lpAppend(listpack &lp, std::string_view s);
void lpAppendInteger(listpack &lp, long long lval);
/* lpReplace / lpReplaceInteger: the entry at p now holds the value; it stays
 * at p, the entries after it move if its size changed. */
void lpReplace(listpack &lp, lppos p, std::string_view s);
void lpReplaceInteger(listpack &lp, lppos p, long long lval);
/* lpDelete: removes the entry at p and returns the position of the one that
 * followed it (now at p), or no entry if it was the last. */
lppos lpDelete(listpack &lp, lppos p);
/* lpDeleteRange: removes up to `num` entries from `index` (negative counts
 * from the last); nothing when there is no such index. */
void lpDeleteRange(listpack &lp, long index, unsigned long num);

/* lpLength: the number of entries; walks them when num-elements is 65535,
 * and stores the count found if it fits. */
unsigned long lpLength(listpack &lp);
size_t lpBytes(const listpack &lp); /* total-bytes */
/* lpSeek: the entry at `index` (-1 is the last), or no entry. */
lppos lpSeek(const listpack &lp, long index);
lppos lpFirst(const listpack &lp);          /* no entry when empty */
lppos lpLast(const listpack &lp);           /* no entry when empty */
lppos lpNext(const listpack &lp, lppos p);  /* no entry after the last */
lppos lpPrev(const listpack &lp, lppos p);  /* no entry before the first */
/* lpGet: the value at p; a string is a view into the listpack, valid until
 * the next write. */
ziplistEntry lpGet(const listpack &lp, lppos p);

/* Every entry of a listpack read from outside (an RDB file), in order
 * (string entries are views into `blob`), or nullopt when the bytes are not
 * a well-formed listpack: the header, each entry's bounds and backlen, the
 * element count and the end byte are all checked, as Redis's
 * lpValidateIntegrity does in deep mode, so nothing is read outside the
 * blob. */
std::optional<std::vector<ziplistEntry>> lpDecode(std::string_view blob);
/* lpFromBytes: a listpack holding a copy of `blob`, checked as lpDecode
 * checks it (Redis's lpValidateIntegrity, deep), or nullopt when the bytes
 * are not a well-formed listpack: how an RDB file's stream nodes are
 * adopted. The bytes are kept as they are, so the invariants on
 * num-elements and on integers stored as integers hold only as far as
 * their writer kept them (another one may store 65535 for a count that
 * fits, or an integer as a string); the functions here work on such a
 * listpack all the same. */
std::optional<listpack> lpFromBytes(std::string_view blob);
