/* intset.h — the intset (Redis's intset.c): a sorted array of distinct
 * integers in one contiguous buffer, the compact encoding of sets whose
 * members are all integers.
 *
 * The bytes are exactly Redis's, because an RDB file stores the buffer as
 * it is and a real Redis must be able to read it:
 *
 *   <encoding u32> <length u32> <value> <value> ...
 *   encoding = the bytes of every value: 2 (int16), 4 (int32) or 8 (int64)
 *   length   = the number of values
 *   values   = ascending, no duplicates, each `encoding` bytes
 *   Every field is little-endian, whatever the host.
 *
 * Invariants:
 *  - The encoding is the smallest that holds every value ever added: adding
 *    a value that needs a wider one rewrites the whole array in it
 *    (intsetUpgradeAndAdd). Removing values never narrows it again: Redis
 *    does not, and the RDB bytes must be the same after the same writes.
 *  - The buffer is exactly 8 + length * encoding bytes: every add or remove
 *    reallocates it, as Redis's intsetResize does.
 *  - Positions are indexes into the sorted array: 0 holds the smallest.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>

/* The three widths, Redis's INTSET_ENC_INT16/32/64. */
constexpr uint32_t INTSET_ENC_INT16 = sizeof(int16_t);
constexpr uint32_t INTSET_ENC_INT32 = sizeof(int32_t);
constexpr uint32_t INTSET_ENC_INT64 = sizeof(int64_t);

class intset {
public:
    intset(); /* intsetNew: empty, int16-encoded, 8 bytes */
    intset(intset &&) noexcept = default;
    intset &operator=(intset &&) noexcept = default;
    /* A copy is a new allocation: explicit (COPY, SUNIONSTORE of one set). */
    intset dup() const;
    /* A copy of an intset read from outside (an RDB file), or nullopt when
     * the bytes are not a well-formed intset: a known encoding, a size that
     * matches the header, values strictly ascending (Redis's
     * intsetValidateIntegrity in deep mode). */
    static std::optional<intset> fromBlob(std::string_view blob);

    /* intsetAdd: false if the value was already there. */
    bool add(int64_t value);
    /* intsetRemove: false if the value was not there. */
    bool remove(int64_t value);
    /* intsetFind */
    bool find(int64_t value) const;
    /* intsetRandom: a uniformly chosen value; the set must not be empty. */
    int64_t random() const;
    /* intsetGet: the value at `pos`, false past the end. */
    bool get(uint32_t pos, int64_t *value) const;

    uint32_t len() const;      /* intsetLen */
    size_t blobLen() const;    /* intsetBlobLen: header and values */
    uint32_t encoding() const; /* 2, 4 or 8 */
    /* The bytes, to be written out as they are (RDB, DUMP). */
    const unsigned char *data() const { return is_.get(); }

private:
    struct FreeDeleter {
        void operator()(unsigned char *p) const { std::free(p); }
    };
    explicit intset(std::unique_ptr<unsigned char[], FreeDeleter> is) : is_(std::move(is)) {}

    int64_t getEncoded(uint32_t pos, uint32_t enc) const; /* _intsetGetEncoded */
    int64_t valueAt(uint32_t pos) const { return getEncoded(pos, encoding()); }
    void set(uint32_t pos, int64_t value);                /* _intsetSet */
    bool search(int64_t value, uint32_t *pos) const;      /* intsetSearch */
    void resize(uint32_t len);                            /* intsetResize */
    void moveTail(uint32_t from, uint32_t to);            /* intsetMoveTail */
    void upgradeAndAdd(int64_t value);                    /* intsetUpgradeAndAdd */
    void setHeader(uint32_t enc, uint32_t len);

    /* One malloc'd block, reallocated on every write like Redis's. Only a
     * moved-from intset has none; it may then only be destroyed or assigned. */
    std::unique_ptr<unsigned char[], FreeDeleter> is_;
};
