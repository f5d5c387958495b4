/* ziplist.cpp — the ziplist (Redis's ziplist.c; see ziplist.h for the layout).
 *
 * Every write follows Redis's steps, in the same order, because the bytes a
 * write leaves behind depend on them: when a prevlen field grows, shrinks or
 * is kept larger than needed is part of the format as real ziplists have it.
 * Invariants kept by every function here: zlbytes, zltail and zllen describe
 * the buffer after each public call; the last byte is ZIP_END and no entry
 * starts with it; integers are written little-endian whatever the host is.
 */
#include "ziplist.h"

#include <cassert>
#include <cstdio>
#include <cstring>
#include <new>
#include <stdexcept>

#include "util.h"

namespace {

constexpr unsigned char ZIP_END = 0xFF;
/* A prevlen below this fits in one byte; 0xFE then announces 4 more. */
constexpr unsigned char ZIP_BIG_PREVLEN = 0xFE;
constexpr uint32_t ZIP_PREVLEN_GROWTH = 4; /* 5-byte field minus 1-byte field */

constexpr unsigned char ZIP_STR_MASK = 0xC0;
constexpr unsigned char ZIP_STR_06B = 0x00, ZIP_STR_14B = 0x40, ZIP_STR_32B = 0x80;
constexpr unsigned char ZIP_INT_16B = 0xC0, ZIP_INT_32B = 0xD0, ZIP_INT_64B = 0xE0,
                        ZIP_INT_24B = 0xF0, ZIP_INT_8B = 0xFE;
constexpr unsigned char ZIP_INT_IMM_MIN = 0xF1, ZIP_INT_IMM_MAX = 0xFD; /* 0..12 */
constexpr long long INT24_MAX = 0x7FFFFF, INT24_MIN = -INT24_MAX - 1;
/* zipTryEncoding never tries strings this long: no long long needs more. */
constexpr size_t ZIP_MAX_INT_STRLEN = 31;

constexpr size_t ZIPLIST_HEADER_SIZE = 10; /* zlbytes, zltail, zllen */
constexpr size_t ZIPLIST_END_SIZE = 1;
constexpr size_t ZIPLIST_BYTES_OFFSET = 0, ZIPLIST_TAIL_OFFSET = 4, ZIPLIST_LENGTH_OFFSET = 8;
constexpr uint16_t ZIPLIST_LENGTH_UNKNOWN = UINT16_MAX;

/* Byte by byte, so the layout is the same on any host; compilers turn these
 * loops into single loads and stores on little-endian machines. */
uint64_t loadLE(const unsigned char *p, unsigned n) {
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) v |= uint64_t{p[i]} << (8 * i);
    return v;
}

void storeLE(unsigned char *p, uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; i++) p[i] = static_cast<unsigned char>(v >> (8 * i));
}

/* ------------------------------------------------------------------------
 * prevlen fields
 * ---------------------------------------------------------------------- */

unsigned prevlenFieldSize(const unsigned char *p) { return p[0] < ZIP_BIG_PREVLEN ? 1 : 5; }

uint32_t decodePrevlen(const unsigned char *p) {
    return p[0] < ZIP_BIG_PREVLEN ? p[0] : static_cast<uint32_t>(loadLE(p + 1, 4));
}

/* zipStorePrevEntryLength(NULL, len): the field size `len` needs. */
unsigned prevlenBytesNeeded(size_t len) { return len < ZIP_BIG_PREVLEN ? 1 : 5; }

/* zipStorePrevEntryLength / zipStorePrevEntryLengthLarge: `large` keeps a
 * 5-byte field for a length that would fit in one byte. */
unsigned storePrevlen(unsigned char *p, size_t len, bool large = false) {
    if (len < ZIP_BIG_PREVLEN && !large) {
        p[0] = static_cast<unsigned char>(len);
        return 1;
    }
    p[0] = ZIP_BIG_PREVLEN;
    storeLE(p + 1, len, 4);
    return 5;
}

/* ------------------------------------------------------------------------
 * Encoding fields
 * ---------------------------------------------------------------------- */

/* ZIP_ENTRY_ENCODING: a string encoding keeps its two type bits only; as in
 * Redis, any 10xxxxxx byte reads as a 32-bit length. */
unsigned char entryEncoding(unsigned char first) {
    return first < ZIP_STR_MASK ? first & ZIP_STR_MASK : first;
}

/* zipIntSize: data bytes of an integer encoding; -1 if it is none. */
int intDataSize(unsigned char encoding) {
    switch (encoding) {
    case ZIP_INT_8B: return 1;
    case ZIP_INT_16B: return 2;
    case ZIP_INT_24B: return 3;
    case ZIP_INT_32B: return 4;
    case ZIP_INT_64B: return 8;
    }
    return encoding >= ZIP_INT_IMM_MIN && encoding <= ZIP_INT_IMM_MAX ? 0 : -1;
}

/* zipEncodingLenSize: bytes of the encoding field that starts with `first`,
 * or 0 if no encoding starts with it. */
unsigned encodingFieldSize(unsigned char first) {
    switch (entryEncoding(first)) {
    case ZIP_STR_06B: return 1;
    case ZIP_STR_14B: return 2;
    case ZIP_STR_32B: return 5;
    }
    return intDataSize(first) >= 0 ? 1 : 0;
}

/* The data length an encoding field announces. */
uint32_t decodeDataLen(const unsigned char *p) {
    switch (entryEncoding(p[0])) {
    case ZIP_STR_06B: return p[0] & 0x3F;
    case ZIP_STR_14B: return (uint32_t{p[0] & 0x3Fu} << 8) | p[1];
    case ZIP_STR_32B:
        return (uint32_t{p[1]} << 24) | (uint32_t{p[2]} << 16) | (uint32_t{p[3]} << 8) | p[4];
    }
    return static_cast<uint32_t>(intDataSize(p[0]));
}

size_t strEncodingFieldSize(size_t len) { return len <= 0x3F ? 1 : len <= 0x3FFF ? 2 : 5; }

/* zipStoreEntryEncoding for a string of `len` bytes. */
size_t storeStrEncoding(unsigned char *p, size_t len) {
    if (len <= 0x3F) {
        p[0] = static_cast<unsigned char>(ZIP_STR_06B | len);
        return 1;
    }
    if (len <= 0x3FFF) {
        p[0] = static_cast<unsigned char>(ZIP_STR_14B | (len >> 8));
        p[1] = static_cast<unsigned char>(len);
        return 2;
    }
    p[0] = ZIP_STR_32B;
    for (int i = 0; i < 4; i++) p[1 + i] = static_cast<unsigned char>(len >> (24 - 8 * i));
    return 5;
}

/* zipLoadInteger: `p` is the data after the encoding field. The bytes are a
 * two's complement number of intDataSize bytes, so shifting it to the top of
 * 64 bits and back sign-extends it. */
long long loadInteger(const unsigned char *p, unsigned char encoding) {
    if (encoding >= ZIP_INT_IMM_MIN && encoding <= ZIP_INT_IMM_MAX) return (encoding & 0x0F) - 1;
    const unsigned n = static_cast<unsigned>(intDataSize(encoding));
    const unsigned shift = 64 - 8 * n;
    return static_cast<int64_t>(loadLE(p, n) << shift) >> shift;
}

/* zipTryEncoding: the smallest integer encoding `s` can be stored as. */
bool tryIntEncoding(std::string_view s, long long *value, unsigned char *encoding) {
    if (s.empty() || s.size() > ZIP_MAX_INT_STRLEN || !string2ll(s, value)) return false;
    const long long v = *value;
    if (v >= 0 && v <= 12) *encoding = static_cast<unsigned char>(ZIP_INT_IMM_MIN + v);
    else if (v >= INT8_MIN && v <= INT8_MAX) *encoding = ZIP_INT_8B;
    else if (v >= INT16_MIN && v <= INT16_MAX) *encoding = ZIP_INT_16B;
    else if (v >= INT24_MIN && v <= INT24_MAX) *encoding = ZIP_INT_24B;
    else if (v >= INT32_MIN && v <= INT32_MAX) *encoding = ZIP_INT_32B;
    else *encoding = ZIP_INT_64B;
    return true;
}

/* What a value is stored as, everything but the prevlen field: the encoding
 * field, then the string's bytes or the integer's. Insert and replace both
 * need its size before they write it. */
class Payload {
public:
    explicit Payload(std::string_view s) : str_(s) { isInt_ = tryIntEncoding(s, &value_, &encoding_); }

    size_t size() const {
        return isInt_ ? 1 + static_cast<size_t>(intDataSize(encoding_)) : strEncodingFieldSize(str_.size()) + str_.size();
    }

    void write(unsigned char *p) const {
        if (isInt_) {
            p[0] = encoding_;
            storeLE(p + 1, static_cast<uint64_t>(value_), static_cast<unsigned>(intDataSize(encoding_)));
        } else {
            p += storeStrEncoding(p, str_.size());
            if (!str_.empty()) memcpy(p, str_.data(), str_.size());
        }
    }

private:
    std::string_view str_;
    long long value_ = 0;
    unsigned char encoding_ = ZIP_STR_06B;
    bool isInt_;
};

/* zipEntry: decodes a header already known to be valid. */
zlentry decodeEntry(const unsigned char *p) {
    zlentry e;
    e.prevrawlensize = prevlenFieldSize(p);
    e.prevrawlen = decodePrevlen(p);
    const unsigned char *enc = p + e.prevrawlensize;
    e.encoding = entryEncoding(enc[0]);
    e.lensize = encodingFieldSize(enc[0]);
    e.len = decodeDataLen(enc);
    e.headersize = e.prevrawlensize + e.lensize;
    return e;
}

/* zipEntrySafe: decodes the entry at `offset` of an untrusted buffer of
 * `size` bytes, checking each field lies before the end byte first. */
bool decodeEntrySafe(const unsigned char *zl, size_t size, size_t offset, zlentry *e) {
    const size_t end = size - ZIPLIST_END_SIZE;
    if (offset < ZIPLIST_HEADER_SIZE || offset >= end) return false;
    const size_t encOffset = offset + prevlenFieldSize(zl + offset);
    if (encOffset >= end) return false;
    const unsigned lensize = encodingFieldSize(zl[encOffset]);
    if (lensize == 0 || encOffset + lensize > end) return false;
    *e = decodeEntry(zl + offset);
    return offset + e->rawlen() <= end;
}

const char *encodingName(unsigned char encoding) {
    switch (encoding) {
    case ZIP_STR_06B: return "ZIP_STR_06B";
    case ZIP_STR_14B: return "ZIP_STR_14B";
    case ZIP_STR_32B: return "ZIP_STR_32B";
    case ZIP_INT_8B: return "ZIP_INT_8B";
    case ZIP_INT_16B: return "ZIP_INT_16B";
    case ZIP_INT_24B: return "ZIP_INT_24B";
    case ZIP_INT_32B: return "ZIP_INT_32B";
    case ZIP_INT_64B: return "ZIP_INT_64B";
    }
    return "ZIP_INT_IMM";
}

}  // namespace

std::string ziplistEntry::toString() const {
    if (!isInt) return std::string(sval);
    char buf[LONG_STR_SIZE];
    return std::string(buf, static_cast<size_t>(ll2string(buf, sizeof(buf), lval)));
}

/* ------------------------------------------------------------------------
 * Creation and validation
 * ---------------------------------------------------------------------- */

ziplist::ziplist() {
    constexpr size_t bytes = ZIPLIST_HEADER_SIZE + ZIPLIST_END_SIZE;
    auto *zl = static_cast<unsigned char *>(std::malloc(bytes));
    if (!zl) throw std::bad_alloc();
    zl_.reset(zl);
    storeLE(zl + ZIPLIST_BYTES_OFFSET, bytes, 4);
    storeLE(zl + ZIPLIST_TAIL_OFFSET, ZIPLIST_HEADER_SIZE, 4);
    storeLE(zl + ZIPLIST_LENGTH_OFFSET, 0, 2);
    zl[bytes - 1] = ZIP_END;
}

bool ziplist::validateIntegrity(const unsigned char *zl, size_t size, bool deep) {
    if (size < ZIPLIST_HEADER_SIZE + ZIPLIST_END_SIZE) return false;
    if (loadLE(zl + ZIPLIST_BYTES_OFFSET, 4) != size || zl[size - 1] != ZIP_END) return false;
    const size_t tail = loadLE(zl + ZIPLIST_TAIL_OFFSET, 4);
    /* Redis only checks the upper bound; a tail inside the header would make
     * ziplistIndex(-1) read the header as an entry. */
    if (tail < ZIPLIST_HEADER_SIZE || tail > size - ZIPLIST_END_SIZE) return false;
    if (!deep) return true;

    size_t count = 0, offset = ZIPLIST_HEADER_SIZE, last = ZIPLIST_HEADER_SIZE, prevlen = 0;
    while (zl[offset] != ZIP_END) {
        zlentry e;
        if (!decodeEntrySafe(zl, size, offset, &e) || e.prevrawlen != prevlen) return false;
        prevlen = e.rawlen();
        last = offset;
        offset += prevlen;
        count++;
    }
    const uint16_t header = static_cast<uint16_t>(loadLE(zl + ZIPLIST_LENGTH_OFFSET, 2));
    return offset == size - ZIPLIST_END_SIZE && tail == last &&
           (header == ZIPLIST_LENGTH_UNKNOWN || header == count);
}

std::optional<ziplist> ziplist::fromBlob(std::string_view blob) {
    const auto *bytes = reinterpret_cast<const unsigned char *>(blob.data());
    if (!validateIntegrity(bytes, blob.size(), true)) return std::nullopt;
    std::unique_ptr<unsigned char[], FreeDeleter> copy(static_cast<unsigned char *>(std::malloc(blob.size())));
    if (!copy) throw std::bad_alloc();
    memcpy(copy.get(), bytes, blob.size());
    ziplist zl(std::move(copy));
    /* What Redis's first ziplistLen does: an unknown count that turns out to
     * fit is stored, so zllen is exact from here on. */
    if (zl.lengthField() == ZIPLIST_LENGTH_UNKNOWN) zl.incrLength(0);
    return zl;
}

/* ------------------------------------------------------------------------
 * Header fields
 * ---------------------------------------------------------------------- */

size_t ziplist::blobLen() const { return loadLE(zl_.get() + ZIPLIST_BYTES_OFFSET, 4); }

uint32_t ziplist::tailOffset() const {
    return static_cast<uint32_t>(loadLE(zl_.get() + ZIPLIST_TAIL_OFFSET, 4));
}

void ziplist::setTailOffset(size_t offset) { storeLE(zl_.get() + ZIPLIST_TAIL_OFFSET, offset, 4); }

uint16_t ziplist::lengthField() const {
    return static_cast<uint16_t>(loadLE(zl_.get() + ZIPLIST_LENGTH_OFFSET, 2));
}

size_t ziplist::countEntries() const {
    size_t count = 0;
    for (size_t p = ZIPLIST_HEADER_SIZE; zl_[p] != ZIP_END; p += rawEntryLength(p)) count++;
    return count;
}

size_t ziplist::len() const {
    const uint16_t n = lengthField();
    return n < ZIPLIST_LENGTH_UNKNOWN ? n : countEntries();
}

/* ZIPLIST_INCR_LENGTH: a count that reaches 65535 sticks there. Redis stores
 * the real count again as soon as a ziplistLen walk finds it below 65535,
 * which its commands do right after every delete; doing that walk here,
 * when a delete leaves the count unknown, gives the same header at once. */
void ziplist::incrLength(long delta) {
    const uint16_t n = lengthField();
    size_t count;
    if (n < ZIPLIST_LENGTH_UNKNOWN) count = static_cast<size_t>(n + delta);
    else if (delta <= 0) count = countEntries();
    else return;
    storeLE(zl_.get() + ZIPLIST_LENGTH_OFFSET, count < ZIPLIST_LENGTH_UNKNOWN ? count : ZIPLIST_LENGTH_UNKNOWN, 2);
}

size_t ziplist::rawEntryLength(size_t offset) const { return decodeEntry(zl_.get() + offset).rawlen(); }

zlpos ziplist::entryAt(size_t offset) const {
    return zl_[offset] == ZIP_END ? zlpos{} : zlpos{static_cast<uint32_t>(offset)};
}

/* ziplistResize: every write reallocates to the exact size, as Redis does
 * (the allocator's size classes make most of these in-place). */
void ziplist::resize(size_t bytes) {
    if (bytes > UINT32_MAX) throw std::length_error("ziplist larger than 4 GiB");
    auto *zl = static_cast<unsigned char *>(std::realloc(zl_.get(), bytes));
    if (!zl) {
        if (bytes > blobLen()) throw std::bad_alloc();
        zl = zl_.get(); /* a failed shrink leaves the larger block, which still fits */
    }
    (void)zl_.release();
    zl_.reset(zl);
    storeLE(zl + ZIPLIST_BYTES_OFFSET, bytes, 4);
    zl[bytes - 1] = ZIP_END;
}

/* ------------------------------------------------------------------------
 * Writes
 * ---------------------------------------------------------------------- */

/* __ziplistCascadeUpdate: the entry at `offset` has changed length, so the
 * next entry's prevlen must change. If its 1-byte field cannot hold the new
 * length it grows to 5 bytes, which makes that entry 4 bytes longer, which
 * may overflow the following field, and so on. A field never shrinks (see
 * ziplist.h), so the cascade stops at the first field big enough.
 *
 * Two passes, so a run of n growing entries costs one realloc and one move
 * of each byte rather than n: the first finds the run, the second re-lays it
 * from its last entry back to its first (the k-th entry of the run starts
 * 4(k-1) bytes further right, and is 4 bytes longer). The bytes come out as
 * Redis 6.0's one-entry-at-a-time loop leaves them. */
void ziplist::cascadeUpdate(size_t offset) {
    unsigned char *zl = zl_.get();
    if (zl[offset] == ZIP_END) return;
    const size_t changedLen = rawEntryLength(offset);

    size_t prevlen = changedLen, p = offset + changedLen, lastGrown = 0, grown = 0;
    while (zl[p] != ZIP_END) {
        const zlentry e = decodeEntry(zl + p);
        if (e.prevrawlen == prevlen) break;
        if (e.prevrawlensize == 5 || prevlen < ZIP_BIG_PREVLEN) {
            /* Big enough: rewritten in place, a 5-byte field staying 5. */
            storePrevlen(zl + p, prevlen, e.prevrawlensize == 5);
            break;
        }
        prevlen = e.rawlen() + ZIP_PREVLEN_GROWTH;
        lastGrown = p;
        p += e.rawlen();
        grown++;
    }
    if (grown == 0) return;

    const size_t extra = grown * ZIP_PREVLEN_GROWTH, oldBytes = blobLen(), tail = tailOffset();
    resize(oldBytes + extra);
    zl = zl_.get();
    memmove(zl + p + extra, zl + p, oldBytes - p - ZIPLIST_END_SIZE);

    /* Each grown entry's old 1-byte prevlen still gives the old length of the
     * entry before it, which is how this walk finds it; that entry grew by 4
     * too, except the changed one before the first. */
    size_t dst = p + extra, src = lastGrown;
    for (size_t i = grown; i > 0; i--) {
        const zlentry e = decodeEntry(zl + src);
        const size_t body = e.rawlen() - 1;
        dst -= body;
        memmove(zl + dst, zl + src + 1, body);
        dst -= 5;
        storePrevlen(zl + dst, i == 1 ? changedLen : e.prevrawlen + ZIP_PREVLEN_GROWTH);
        src -= e.prevrawlen;
    }
    assert(dst == offset + changedLen);
    setTailOffset(tail == lastGrown ? tail + extra - ZIP_PREVLEN_GROWTH : tail + extra);
}

/* __ziplistInsert: `offset` is an entry (the new one goes before it) or the
 * end byte (it becomes the last). */
void ziplist::insertAt(size_t offset, std::string_view s) {
    const size_t oldBytes = blobLen();
    const bool atEnd = zl_[offset] == ZIP_END;
    size_t prevlen = 0;
    if (!atEnd) prevlen = decodePrevlen(zl_.get() + offset);
    else if (zl_[tailOffset()] != ZIP_END) prevlen = rawEntryLength(tailOffset());

    const Payload payload(s);
    const size_t reqlen = prevlenBytesNeeded(prevlen) + payload.size();

    /* The entry after the new one must now hold reqlen in its prevlen. Redis
     * shrinks a 5-byte field there if reqlen fits in one byte, except when
     * the new entry is under 4 bytes: the blob would then get smaller, and
     * its realloc would cut the bytes still to be moved; there it keeps the
     * field large (`forcelarge`). Same rule here, so the bytes match. */
    long nextdiff = 0;
    bool forceLarge = false;
    if (!atEnd) {
        nextdiff = long{prevlenBytesNeeded(reqlen)} - long{prevlenFieldSize(zl_.get() + offset)};
        if (nextdiff == -4 && reqlen < 4) {
            nextdiff = 0;
            forceLarge = true;
        }
    }

    resize(oldBytes + reqlen + static_cast<size_t>(nextdiff));
    unsigned char *zl = zl_.get();
    if (atEnd) {
        setTailOffset(offset);
    } else {
        /* The next entry keeps everything after its prevlen field; the move
         * starts nextdiff bytes early (or late) to make room for the new
         * field. */
        const size_t next = offset + reqlen;
        memmove(zl + next, zl + offset - nextdiff, oldBytes - offset - ZIPLIST_END_SIZE + nextdiff);
        storePrevlen(zl + next, reqlen, forceLarge);
        const bool nextIsTail = zl[next + rawEntryLength(next)] == ZIP_END;
        setTailOffset(tailOffset() + reqlen + (nextIsTail ? 0 : nextdiff));
    }

    payload.write(zl + offset + storePrevlen(zl + offset, prevlen));
    incrLength(1);
    if (nextdiff != 0) cascadeUpdate(offset + reqlen);
}

/* __ziplistDelete: removes up to `num` entries from the entry at `offset`;
 * the entry that followed them (or the end byte) is then at `offset`. */
void ziplist::deleteAt(size_t offset, size_t num) {
    unsigned char *zl = zl_.get();
    const zlentry first = decodeEntry(zl + offset);
    size_t p = offset, deleted = 0;
    for (; zl[p] != ZIP_END && deleted < num; deleted++) p += rawEntryLength(p);
    const size_t totlen = p - offset;
    if (totlen == 0) return;

    const size_t oldBytes = blobLen();
    long nextdiff = 0;
    size_t tail;
    if (zl[p] != ZIP_END) {
        /* The surviving entry now follows first's predecessor. Its prevlen
         * field takes the size that length needs, growing into the deleted
         * bytes or shrinking; there is always room: a predecessor of 254+
         * bytes gave `first` a 5-byte field, which is being deleted. */
        nextdiff = long{prevlenBytesNeeded(first.prevrawlen)} - long{prevlenFieldSize(zl + p)};
        p -= nextdiff;
        storePrevlen(zl + p, first.prevrawlen);
        const bool survivorIsTail = zl[p + rawEntryLength(p)] == ZIP_END;
        tail = tailOffset() - totlen + (survivorIsTail ? 0 : nextdiff);
        memmove(zl + offset, zl + p, oldBytes - p - ZIPLIST_END_SIZE);
    } else {
        tail = offset - first.prevrawlen; /* the whole tail went */
    }

    resize(oldBytes - totlen + nextdiff);
    setTailOffset(tail);
    incrLength(-static_cast<long>(deleted));
    if (nextdiff != 0) cascadeUpdate(offset);
}

void ziplist::push(std::string_view s, int where) {
    insertAt(where == ZIPLIST_HEAD ? ZIPLIST_HEADER_SIZE : blobLen() - ZIPLIST_END_SIZE, s);
}

void ziplist::insert(zlpos p, std::string_view s) {
    assert(p);
    insertAt(p.offset, s);
}

zlpos ziplist::deleteEntry(zlpos p) {
    assert(p);
    deleteAt(p.offset, 1);
    return entryAt(p.offset);
}

void ziplist::deleteRange(long index, size_t num) {
    if (zlpos p = this->index(index)) deleteAt(p.offset, num);
}

/* ziplistReplace: a value of the same stored size (prevlen excepted) is
 * overwritten in place; any other is a delete and an insert, which is what
 * Redis does and so what decides the bytes. */
void ziplist::replace(zlpos p, std::string_view s) {
    const zlentry e = entry(p);
    const Payload payload(s);
    if (payload.size() == e.lensize + size_t{e.len}) {
        payload.write(zl_.get() + p.offset + e.prevrawlensize);
        return;
    }
    deleteAt(p.offset, 1);
    insertAt(p.offset, s);
}

/* ------------------------------------------------------------------------
 * Reads
 * ---------------------------------------------------------------------- */

zlpos ziplist::index(long index) const {
    if (index >= 0) {
        size_t p = ZIPLIST_HEADER_SIZE;
        for (; index > 0 && zl_[p] != ZIP_END; index--) p += rawEntryLength(p);
        return entryAt(p);
    }
    size_t p = tailOffset();
    if (zl_[p] == ZIP_END) return {};
    for (unsigned long back = static_cast<unsigned long>(-(index + 1)); back > 0; back--) {
        if (p == ZIPLIST_HEADER_SIZE) return {};
        p -= decodePrevlen(zl_.get() + p);
    }
    return entryAt(p);
}

zlpos ziplist::next(zlpos p) const {
    assert(p);
    return entryAt(p.offset + rawEntryLength(p.offset));
}

zlpos ziplist::prev(zlpos p) const {
    assert(p);
    if (p.offset == ZIPLIST_HEADER_SIZE) return {};
    return zlpos{p.offset - decodePrevlen(zl_.get() + p.offset)};
}

zlentry ziplist::entry(zlpos p) const {
    assert(p && zl_[p.offset] != ZIP_END);
    return decodeEntry(zl_.get() + p.offset);
}

ziplistEntry ziplist::get(zlpos p) const {
    const zlentry e = entry(p);
    const unsigned char *data = zl_.get() + p.offset + e.headersize;
    ziplistEntry v;
    if (e.isString()) {
        v.sval = std::string_view(reinterpret_cast<const char *>(data), e.len);
    } else {
        v.isInt = true;
        v.lval = loadInteger(data, e.encoding);
    }
    return v;
}

bool ziplist::compare(zlpos p, std::string_view s) const {
    const ziplistEntry v = get(p);
    if (!v.isInt) return v.sval == s;
    long long value;
    unsigned char encoding;
    return tryIntEncoding(s, &value, &encoding) && value == v.lval;
}

zlpos ziplist::find(zlpos p, std::string_view s, unsigned skip) const {
    /* Whether `s` is an integer is worked out once, at the first integer
     * entry compared, as Redis does. */
    enum class AsInt { Unknown, Yes, No } asInt = AsInt::Unknown;
    long long value = 0;
    unsigned skipped = 0;
    for (; p; p = next(p)) {
        if (skipped > 0) {
            skipped--;
            continue;
        }
        skipped = skip;
        const ziplistEntry v = get(p);
        if (!v.isInt) {
            if (v.sval == s) return p;
            continue;
        }
        if (asInt == AsInt::Unknown) {
            unsigned char encoding;
            asInt = tryIntEncoding(s, &value, &encoding) ? AsInt::Yes : AsInt::No;
        }
        if (asInt == AsInt::Yes && v.lval == value) return p;
    }
    return {};
}

std::string ziplist::repr() const {
    std::string out;
    char line[256];
    snprintf(line, sizeof(line), "{total bytes %zu} {num entries %u}\n{tail offset %u}\n", blobLen(),
             lengthField(), tailOffset());
    out += line;
    size_t n = 0;
    for (zlpos p = index(0); p; p = next(p), n++) {
        const zlentry e = entry(p);
        snprintf(line, sizeof(line),
                 "{index %zu, offset %u, rawlen %zu, prevrawlen %u, prevrawlensize %u, encoding %s, lensize %u, "
                 "header ",
                 n, p.offset, e.rawlen(), e.prevrawlen, e.prevrawlensize, encodingName(e.encoding), e.lensize);
        out += line;
        for (uint32_t i = 0; i < e.headersize; i++) {
            snprintf(line, sizeof(line), "%s%02x", i ? "|" : "", zl_[p.offset + i]);
            out += line;
        }
        const ziplistEntry v = get(p);
        if (v.isInt) {
            out += ", [int] " + v.toString();
        } else {
            out += ", [str] ";
            /* Long strings are cut, as Redis's repr cuts them at 40 bytes. */
            catRepr(out, v.sval.substr(0, 40));
            if (v.sval.size() > 40) out += "...";
        }
        out += "}\n";
    }
    out += "{end}\n";
    return out;
}
