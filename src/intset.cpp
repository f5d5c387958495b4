/* intset.cpp — the intset (Redis's intset.c; see intset.h for the layout).
 *
 * Every write follows Redis's steps: find the position by binary search,
 * reallocate to the exact new size, move the tail of the array, write the
 * value. A value wider than the current encoding cannot already be there,
 * and is either smaller or larger than every value, so an upgrade rewrites
 * the array from the back (no value is overwritten before it is read) and
 * puts the new value at one end. Invariants kept by every public call: the
 * header's length and encoding describe the buffer, the values are sorted
 * and distinct, and all fields are little-endian on any host.
 */
#include "intset.h"

#include <bit>
#include <cassert>
#include <cstring>
#include <new>
#include <random>
#include <type_traits>

namespace {

constexpr size_t INTSET_HEADER_SIZE = 8; /* encoding, length */
constexpr size_t INTSET_ENCODING_OFFSET = 0, INTSET_LENGTH_OFFSET = 4;

/* Unaligned little-endian loads and stores through memcpy: one move on a
 * little-endian host, plus a byte swap on a big-endian one. */
template <typename T>
T loadLittleEndian(const unsigned char *p) {
    T v;
    memcpy(&v, p, sizeof(v));
    if constexpr (std::endian::native == std::endian::big) {
        using U = std::make_unsigned_t<T>;
        U u = static_cast<U>(v), r = 0;
        for (size_t i = 0; i < sizeof(T); i++, u >>= 8) r = static_cast<U>((r << 8) | (u & 0xFF));
        v = static_cast<T>(r);
    }
    return v;
}

template <typename T>
void storeLittleEndian(unsigned char *p, T v) {
    v = loadLittleEndian<T>(reinterpret_cast<const unsigned char *>(&v)); /* the swap is its own inverse */
    memcpy(p, &v, sizeof(v));
}

/* _intsetValueEncoding: the narrowest width that holds v. */
uint32_t valueEncoding(int64_t v) {
    if (v < INT32_MIN || v > INT32_MAX) return INTSET_ENC_INT64;
    if (v < INT16_MIN || v > INT16_MAX) return INTSET_ENC_INT32;
    return INTSET_ENC_INT16;
}

unsigned char *allocBlob(size_t bytes) {
    auto *p = static_cast<unsigned char *>(std::malloc(bytes));
    if (!p) throw std::bad_alloc();
    return p;
}

}  // namespace

intset::intset() : is_(allocBlob(INTSET_HEADER_SIZE)) { setHeader(INTSET_ENC_INT16, 0); }

intset intset::dup() const {
    size_t bytes = blobLen();
    std::unique_ptr<unsigned char[], FreeDeleter> copy(allocBlob(bytes));
    memcpy(copy.get(), is_.get(), bytes);
    return intset(std::move(copy));
}

std::optional<intset> intset::fromBlob(std::string_view blob) {
    const auto *bytes = reinterpret_cast<const unsigned char *>(blob.data());
    if (blob.size() < INTSET_HEADER_SIZE) return std::nullopt;
    uint32_t enc = loadLittleEndian<uint32_t>(bytes + INTSET_ENCODING_OFFSET);
    uint32_t count = loadLittleEndian<uint32_t>(bytes + INTSET_LENGTH_OFFSET);
    if (enc != INTSET_ENC_INT16 && enc != INTSET_ENC_INT32 && enc != INTSET_ENC_INT64) return std::nullopt;
    if ((blob.size() - INTSET_HEADER_SIZE) / enc != count || (blob.size() - INTSET_HEADER_SIZE) % enc)
        return std::nullopt;
    std::unique_ptr<unsigned char[], FreeDeleter> copy(allocBlob(blob.size()));
    memcpy(copy.get(), bytes, blob.size());
    intset is(std::move(copy));
    for (uint32_t i = 1; i < count; i++)
        if (is.getEncoded(i - 1, enc) >= is.getEncoded(i, enc)) return std::nullopt;
    return is;
}

uint32_t intset::encoding() const { return loadLittleEndian<uint32_t>(is_.get() + INTSET_ENCODING_OFFSET); }
uint32_t intset::len() const { return loadLittleEndian<uint32_t>(is_.get() + INTSET_LENGTH_OFFSET); }
size_t intset::blobLen() const { return INTSET_HEADER_SIZE + size_t{len()} * encoding(); }

void intset::setHeader(uint32_t enc, uint32_t len) {
    storeLittleEndian(is_.get() + INTSET_ENCODING_OFFSET, enc);
    storeLittleEndian(is_.get() + INTSET_LENGTH_OFFSET, len);
}

int64_t intset::getEncoded(uint32_t pos, uint32_t enc) const {
    const unsigned char *p = is_.get() + INTSET_HEADER_SIZE + size_t{pos} * enc;
    switch (enc) {
    case INTSET_ENC_INT64: return loadLittleEndian<int64_t>(p);
    case INTSET_ENC_INT32: return loadLittleEndian<int32_t>(p);
    default: return loadLittleEndian<int16_t>(p);
    }
}

/* Writes at the current encoding, which the caller made wide enough. */
void intset::set(uint32_t pos, int64_t value) {
    uint32_t enc = encoding();
    unsigned char *p = is_.get() + INTSET_HEADER_SIZE + size_t{pos} * enc;
    switch (enc) {
    case INTSET_ENC_INT64: storeLittleEndian(p, value); break;
    case INTSET_ENC_INT32: storeLittleEndian(p, static_cast<int32_t>(value)); break;
    default: storeLittleEndian(p, static_cast<int16_t>(value)); break;
    }
}

bool intset::get(uint32_t pos, int64_t *value) const {
    if (pos >= len()) return false;
    *value = valueAt(pos);
    return true;
}

/* True and the value's position if it is there; otherwise false and the
 * position where it would be inserted. The ends are checked first: values
 * are often added in order, and then the search costs two comparisons. */
bool intset::search(int64_t value, uint32_t *pos) const {
    uint32_t n = len();
    if (n == 0) {
        *pos = 0;
        return false;
    }
    if (value > valueAt(n - 1)) {
        *pos = n;
        return false;
    }
    if (value < valueAt(0)) {
        *pos = 0;
        return false;
    }
    uint32_t lo = 0, hi = n; /* the answer is in [lo, hi) */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int64_t cur = valueAt(mid);
        if (cur == value) {
            *pos = mid;
            return true;
        }
        if (cur < value) lo = mid + 1;
        else hi = mid;
    }
    *pos = lo;
    return false;
}

/* The exact size for `len` values at the current encoding, header included. */
void intset::resize(uint32_t len) {
    size_t bytes = INTSET_HEADER_SIZE + size_t{len} * encoding();
    auto *p = static_cast<unsigned char *>(std::realloc(is_.get(), bytes));
    if (!p) throw std::bad_alloc();
    (void)is_.release();
    is_.reset(p);
}

/* Moves the values from `from` to the end so they start at `to`; the
 * buffer must already have room for them there. */
void intset::moveTail(uint32_t from, uint32_t to) {
    uint32_t enc = encoding();
    unsigned char *base = is_.get() + INTSET_HEADER_SIZE;
    memmove(base + size_t{to} * enc, base + size_t{from} * enc, size_t{len() - from} * enc);
}

/* The value needs a wider encoding than the current one, so it is below
 * every value (if negative) or above every value: it goes at one end. The
 * array is rewritten back to front in the new width, each value moving to
 * a higher address than it came from, one slot further up when the new
 * value takes the front. */
void intset::upgradeAndAdd(int64_t value) {
    uint32_t oldenc = encoding(), n = len();
    uint32_t prepend = value < 0 ? 1 : 0;
    setHeader(valueEncoding(value), n);
    resize(n + 1);
    for (uint32_t i = n; i-- > 0;) set(i + prepend, getEncoded(i, oldenc));
    set(prepend ? 0 : n, value);
    setHeader(encoding(), n + 1);
}

bool intset::add(int64_t value) {
    if (valueEncoding(value) > encoding()) {
        upgradeAndAdd(value);
        return true;
    }
    uint32_t pos;
    if (search(value, &pos)) return false;
    uint32_t n = len();
    resize(n + 1);
    if (pos < n) moveTail(pos, pos + 1);
    set(pos, value);
    setHeader(encoding(), n + 1);
    return true;
}

bool intset::remove(int64_t value) {
    uint32_t pos;
    if (valueEncoding(value) > encoding() || !search(value, &pos)) return false;
    uint32_t n = len();
    if (pos < n - 1) moveTail(pos + 1, pos);
    resize(n - 1);
    setHeader(encoding(), n - 1);
    return true;
}

bool intset::find(int64_t value) const {
    uint32_t pos;
    return valueEncoding(value) <= encoding() && search(value, &pos);
}

int64_t intset::random() const {
    static std::mt19937_64 generator{std::random_device{}()};
    uint32_t n = len();
    assert(n > 0);
    return valueAt(static_cast<uint32_t>(generator() % n));
}
