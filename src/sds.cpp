/* sds.cpp — Simple Dynamic Strings (Redis's sds.c); the layout and its
 * invariants are described in sds.h.
 *
 * Allocation goes through malloc/realloc/free so that the allocator's size
 * classes decide the real footprint (a 14-byte key is a 16-byte block), and
 * the slack a size class leaves (malloc_usable_size) is recorded as capacity
 * rather than wasted, as Redis 7 does.
 */
#include "sds.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <malloc.h>
#include <new>

unsigned char sdsReqType(size_t len) {
    if (len < 1 << 5) return SDS_TYPE_5;
    if (len < 1 << 8) return SDS_TYPE_8;
    if (len < 1 << 16) return SDS_TYPE_16;
    if (len < 1ULL << 32) return SDS_TYPE_32;
    return SDS_TYPE_64;
}

size_t sdsHdrSize(unsigned char type) {
    switch (type & SDS_TYPE_MASK) {
    case SDS_TYPE_5: return 1;
    case SDS_TYPE_8: return sizeof(sdshdr8);
    case SDS_TYPE_16: return sizeof(sdshdr16);
    case SDS_TYPE_32: return sizeof(sdshdr32);
    default: return sizeof(sdshdr64);
    }
}

namespace {

size_t typeMaxSize(unsigned char type) {
    switch (type) {
    case SDS_TYPE_5: return (1 << 5) - 1;
    case SDS_TYPE_8: return std::numeric_limits<uint8_t>::max();
    case SDS_TYPE_16: return std::numeric_limits<uint16_t>::max();
    case SDS_TYPE_32: return std::numeric_limits<uint32_t>::max();
    default: return std::numeric_limits<uint64_t>::max();
    }
}

/* Writes the header of a string of `len` bytes (already in place or not)
 * with capacity `alloc`, and its terminator. Returns the byte pointer. */
char *initHeader(char *mem, unsigned char type, size_t len, size_t alloc) {
    char *s = mem + sdsHdrSize(type);
    if (type == SDS_TYPE_5) {
        s[-1] = static_cast<char>(type | (len << SDS_TYPE_BITS));
    } else {
        s[-1] = static_cast<char>(type);
        sdsWithHeader(s, [&](auto *h) {
            using T = decltype(h->len);
            h->len = static_cast<T>(len);
            h->alloc = static_cast<T>(alloc);
        });
    }
    s[len] = '\0';
    return s;
}

void *checked(void *p) {
    if (!p) throw std::bad_alloc();
    return p;
}

/* The capacity an allocation of `usable` bytes offers under `type`: all of
 * it but the header and the terminator, up to what the header can count. */
size_t capacityOf(size_t usable, unsigned char type) {
    return std::min(usable - sdsHdrSize(type) - 1, typeMaxSize(type));
}

}  // namespace

char *sdsInitEmbedded(void *mem, std::string_view init) {
    assert(init.size() <= typeMaxSize(SDS_TYPE_8));
    char *s = static_cast<char *>(mem) + sizeof(sdshdr8);
    if (!init.empty()) memcpy(s, init.data(), init.size());
    return initHeader(static_cast<char *>(mem), SDS_TYPE_8, init.size(), init.size());
}

sds::sds(std::string_view init) : s_(emptyString()) {
    if (init.empty()) return;
    unsigned char type = sdsReqType(init.size());
    size_t hdr = sdsHdrSize(type);
    char *mem = static_cast<char *>(checked(malloc(hdr + init.size() + 1)));
    memcpy(mem + hdr, init.data(), init.size());
    s_ = initHeader(mem, type, init.size(), capacityOf(malloc_usable_size(mem), type));
}

sds &sds::operator=(sds &&o) noexcept {
    if (this != &o) {
        release();
        s_ = o.s_;
        o.s_ = emptyString();
    }
    return *this;
}

void sds::release() {
    if (owns()) free(s_ - sdsHdrSize(sdsType(s_)));
}

size_t sds::allocSize() const {
    return owns() ? malloc_usable_size(s_ - sdsHdrSize(sdsType(s_))) : 0;
}

void sds::reallocate(size_t cap, unsigned char type) {
    assert(type != SDS_TYPE_5 || cap == size());
    size_t len = size(), hdr = sdsHdrSize(type);
    char *mem;
    if (owns() && type == sdsType(s_)) {
        /* Same header: realloc may grow in place and copies only if it moves. */
        mem = static_cast<char *>(checked(realloc(s_ - hdr, hdr + cap + 1)));
    } else {
        mem = static_cast<char *>(checked(malloc(hdr + cap + 1)));
        memcpy(mem + hdr, s_, len);
        release();
    }
    s_ = initHeader(mem, type, len, capacityOf(malloc_usable_size(mem), type));
}

void sds::catlen(std::string_view t) {
    if (t.empty()) return; /* t.data() may be null, which memcpy must not see */
    makeRoomFor(t.size());
    memcpy(s_ + size(), t.data(), t.size());
    incrLen(static_cast<ssize_t>(t.size()));
}

void sds::makeRoomFor(size_t addlen) {
    if (avail() >= addlen) return;
    size_t newlen = size() + addlen;
    assert(newlen >= addlen && "sds length overflow");
    newlen = newlen < SDS_MAX_PREALLOC ? newlen * 2 : newlen + SDS_MAX_PREALLOC;
    /* A type 5 header cannot remember spare room, and a string that grows
     * once will likely grow again. */
    reallocate(newlen, std::max(sdsReqType(newlen), SDS_TYPE_8));
}

void sds::setlen(size_t newlen) {
    assert(newlen <= size() + avail());
    if (!owns()) return; /* only "" fits, and the shared "" is read-only */
    if (sdsType(s_) == SDS_TYPE_5) {
        s_[-1] = static_cast<char>(SDS_TYPE_5 | (newlen << SDS_TYPE_BITS));
    } else {
        sdsWithHeader(s_, [&](auto *h) { h->len = static_cast<decltype(h->len)>(newlen); });
    }
    s_[newlen] = '\0';
}

void sds::incrLen(ssize_t incr) {
    assert(incr >= 0 ? avail() >= static_cast<size_t>(incr) : size() >= static_cast<size_t>(-incr));
    setlen(size() + incr);
}

void sds::range(ssize_t start, ssize_t end) {
    auto len = static_cast<ssize_t>(size());
    if (len == 0) return;
    if (start < 0) start = std::max<ssize_t>(len + start, 0);
    if (end < 0) end = std::max<ssize_t>(len + end, 0);
    end = std::min(end, len - 1);
    size_t newlen = start > end ? 0 : end - start + 1;
    if (newlen && start) memmove(s_, s_ + start, newlen);
    setlen(newlen);
}

void sds::resize(size_t len) {
    size_t cur = size();
    if (len > cur) {
        makeRoomFor(len - cur);
        memset(s_ + cur, 0, len - cur);
    }
    setlen(len);
}

void sds::removeFreeSpace() {
    if (avail() == 0) return;
    unsigned char type = sdsReqType(size());
    /* Past type 8 a smaller header saves too little to be worth a copy:
     * keep the current one and let realloc shrink in place. */
    if (type > SDS_TYPE_8) type = sdsType(s_);
    reallocate(size(), type);
}
