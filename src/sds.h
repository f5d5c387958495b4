/* sds.h — Simple Dynamic Strings, Redis's string type (sds.c).
 *
 * An sds is one heap allocation laid out as
 *
 *     [ header | bytes ... | '\0' ]
 *              ^ the pointer
 *
 * and the handle points at the bytes, so it can be passed wherever a C
 * string is read, while the length sits just before it: the last header byte
 * is always the flags byte (`s[-1]`), whose 3 low bits say which header
 * precedes it. Headers come in five sizes so that short strings pay little:
 *
 *     type 5   flags only; the length lives in the flags' 5 high bits (< 32).
 *              No room for a capacity, so it is for strings that never grow:
 *              dict keys.
 *     type 8/16/32/64   len and alloc (capacity, without header and '\0')
 *              as uint8_t/16/32/64, then flags.
 *
 * Invariants:
 *  - The bytes are binary safe (NULs allowed) and always followed by a '\0'
 *    at data()[size()], so data() is also a C string when the content has
 *    no NUL.
 *  - size() + avail() bytes are usable; appending never moves the handle's
 *    content unless avail() is too small (then makeRoomFor reallocates,
 *    greedily, so n appends cost O(log n) reallocations).
 *  - The class holds exactly one pointer (sizeof(sds) == 8): dict entries
 *    and objects stay small. An empty sds that never grew points at a shared
 *    read-only empty string and owns no memory, so default construction and
 *    moves never allocate and a moved-from sds is simply "".
 */
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <sys/types.h>

constexpr unsigned char SDS_TYPE_5 = 0;
constexpr unsigned char SDS_TYPE_8 = 1;
constexpr unsigned char SDS_TYPE_16 = 2;
constexpr unsigned char SDS_TYPE_32 = 3;
constexpr unsigned char SDS_TYPE_64 = 4;
constexpr unsigned char SDS_TYPE_MASK = 7;
constexpr int SDS_TYPE_BITS = 3;
/* Greedy growth doubles the size up to here, then adds this much at a time. */
constexpr size_t SDS_MAX_PREALLOC = 1024 * 1024;

/* The header of types 8..64; type 5 is only its flags byte. Packed, so the
 * flags byte is always right before the content. */
template <typename T>
struct __attribute__((packed)) sdshdr {
    T len;
    T alloc;
    unsigned char flags;
};
using sdshdr8 = sdshdr<uint8_t>;
using sdshdr16 = sdshdr<uint16_t>;
using sdshdr32 = sdshdr<uint32_t>;
using sdshdr64 = sdshdr<uint64_t>;

/* The smallest header type that can hold a string of `len` bytes. */
unsigned char sdsReqType(size_t len);
size_t sdsHdrSize(unsigned char type);

inline unsigned char sdsType(const char *s) {
    return static_cast<unsigned char>(s[-1]) & SDS_TYPE_MASK;
}

/* Calls f with a pointer to the header of s (types 8..64), typed by its size. */
template <typename F>
decltype(auto) sdsWithHeader(const char *s, F &&f) {
    auto *p = const_cast<char *>(s);
    switch (sdsType(s)) {
    case SDS_TYPE_8: return f(reinterpret_cast<sdshdr8 *>(p - sizeof(sdshdr8)));
    case SDS_TYPE_16: return f(reinterpret_cast<sdshdr16 *>(p - sizeof(sdshdr16)));
    case SDS_TYPE_32: return f(reinterpret_cast<sdshdr32 *>(p - sizeof(sdshdr32)));
    default: return f(reinterpret_cast<sdshdr64 *>(p - sizeof(sdshdr64)));
    }
}

/* Length and free room of any sds byte pointer, owned or embedded. */
inline size_t sdslen(const char *s) {
    if (sdsType(s) == SDS_TYPE_5) return static_cast<unsigned char>(s[-1]) >> SDS_TYPE_BITS;
    return sdsWithHeader(s, [](auto *h) { return static_cast<size_t>(h->len); });
}
inline size_t sdsavail(const char *s) {
    if (sdsType(s) == SDS_TYPE_5) return 0;
    return sdsWithHeader(s, [](auto *h) { return static_cast<size_t>(h->alloc - h->len); });
}
inline std::string_view sdsview(const char *s) { return {s, sdslen(s)}; }

/* "embstr": a string that shares one allocation with the object holding it.
 * sdsEmbedSize(len) bytes starting at `mem` receive an sdshdr8, the bytes
 * and the '\0'; the returned pointer is read with sdslen/sdsview. It is not
 * an owning sds: it dies with the memory around it. len must be < 256. */
constexpr size_t sdsEmbedSize(size_t len) { return sizeof(sdshdr8) + len + 1; }
char *sdsInitEmbedded(void *mem, std::string_view init);

/* The shared "" every unallocated sds points at (a type 8 header, alloc 0). */
inline constexpr char sds_empty_string[sizeof(sdshdr8) + 1] = {0, 0, SDS_TYPE_8, 0};

class sds {
public:
    sds() noexcept : s_(emptyString()) {}                  /* sdsempty */
    explicit sds(std::string_view init);                   /* sdsnewlen */
    sds(sds &&o) noexcept : s_(o.s_) { o.s_ = emptyString(); }
    sds &operator=(sds &&o) noexcept;
    sds(const sds &) = delete;                             /* copies are explicit: */
    sds &operator=(const sds &) = delete;
    ~sds() { release(); }
    sds dup() const { return sds(view()); }                /* sdsdup */

    size_t size() const { return sdslen(s_); }             /* sdslen */
    size_t avail() const { return sdsavail(s_); }          /* sdsavail */
    bool empty() const { return size() == 0; }
    char *data() { return s_; }
    const char *data() const { return s_; }
    std::string_view view() const { return {s_, size()}; }
    operator std::string_view() const { return view(); }
    /* Bytes really allocated, slack included (sdsAllocSize); 0 when empty
     * and never grown. */
    size_t allocSize() const;

    /* Appends t, which must not point into this string (sdscatlen). */
    void catlen(std::string_view t);
    /* Ensures avail() >= addlen, growing greedily (sdsMakeRoomFor). */
    void makeRoomFor(size_t addlen);
    /* Sets the length after writing into the spare room (sdssetlen, plus the
     * '\0'); newlen <= size() + avail(). */
    void setlen(size_t newlen);
    /* Adds incr (possibly negative) to the length (sdsIncrLen): the
     * makeRoomFor + write + incrLen pattern of readQueryFromClient. */
    void incrLen(ssize_t incr);
    /* Keeps bytes start..end inclusive; negative indexes count from the end,
     * out-of-range ones are clamped (sdsrange, as GETRANGE does). */
    void range(ssize_t start, ssize_t end);
    /* Empties the string, keeping its allocation for reuse (sdsclear). */
    void clear() { setlen(0); }
    /* Sets the length to len, zero-filling new bytes (sdsgrowzero, as SETRANGE
     * pads) or truncating. */
    void resize(size_t len);
    /* Reallocates to the smallest allocation that fits (sdsRemoveFreeSpace). */
    void removeFreeSpace();

    /* Byte-wise comparison (memcmp order, then length), as sdscmp. */
    friend bool operator==(const sds &a, std::string_view b) { return a.view() == b; }
    friend std::strong_ordering operator<=>(const sds &a, std::string_view b) {
        return a.view() <=> b;
    }

private:
    static char *emptyString() { return const_cast<char *>(sds_empty_string + sizeof(sdshdr8)); }
    bool owns() const { return s_ != emptyString(); }
    void release();
    /* Moves the content into a fresh allocation with room for `cap` bytes
     * under a header of `type`, in place (realloc) when the type is kept. */
    void reallocate(size_t cap, unsigned char type);

    char *s_;
};
