/* ziplist.h — the ziplist (Redis's ziplist.c): a list of strings and integers
 * packed into one contiguous byte buffer, the compact encoding of small
 * lists, small hashes and small sorted sets.
 *
 * The bytes are exactly Redis's, because an RDB file stores the buffer as is
 * and a real Redis must be able to read it:
 *
 *   <zlbytes u32> <zltail u32> <zllen u16> <entry> ... <entry> <zlend 0xFF>
 *   entry    = <prevlen> <encoding> <data>
 *   prevlen  = the previous entry's length in bytes (0 for the first entry):
 *              1 byte if it is below 254, else 0xFE and 4 bytes
 *   encoding = 00pppppp                string of up to 63 bytes
 *              01pppppp qqqqqqqq       string of up to 16383 bytes
 *              10000000 + 4 bytes      any longer string
 *              0xFE int8, 0xC0 int16, 0xF0 int24, 0xD0 int32, 0xE0 int64
 *              0xF1..0xFD              the integers 0..12, without data
 *   Numbers are little-endian, except the string lengths, which are
 *   big-endian.
 *
 * Invariants:
 *  - zlbytes is the size of the buffer; zltail is the offset of the last
 *    entry (of the end byte, 10, when empty); zllen is the number of entries,
 *    or 65535 ("count them") when that does not fit in 16 bits.
 *  - A value that string2ll accepts and that is at most 31 bytes long is
 *    stored with the smallest integer encoding that holds it, and read back
 *    as that integer; anything else ("007", "+1", "1 ") stays a string.
 *  - Each prevlen holds the previous entry's length, in 5 bytes whenever that
 *    length is 254 or more. A 5-byte field may also hold a smaller length:
 *    when a neighbour shrinks, Redis keeps the field as it is rather than
 *    shrinking the entry (and possibly the ones after it), and so does this
 *    code, so that the same writes always leave the same bytes.
 *  - Positions (zlpos) are byte offsets, not pointers, so they survive the
 *    realloc that every write makes. A write leaves the positions before the
 *    entry it touches valid and invalidates the others (those bytes move);
 *    each write returns or documents the position its caller goes on from.
 *  - A value written must not be a view into the same ziplist (a string
 *    entry from get()): the write reallocates before it copies. Copy first.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

constexpr int ZIPLIST_HEAD = 0, ZIPLIST_TAIL = 1;

/* The position of an entry: its byte offset in the buffer. Offset 0 is the
 * header, never an entry, so a default zlpos means "no entry" (Redis's NULL). */
struct zlpos {
    uint32_t offset = 0;
    explicit operator bool() const { return offset != 0; }
    bool operator==(const zlpos &) const = default;
};

/* An entry's decoded header (Redis's zlentry). */
struct zlentry {
    uint32_t prevrawlensize; /* bytes of the prevlen field: 1 or 5 */
    uint32_t prevrawlen;     /* the previous entry's length */
    uint32_t lensize;        /* bytes of the encoding field: 1, 2 or 5 */
    uint32_t len;            /* bytes of data: the string's length, 0..8 for an integer */
    uint32_t headersize;     /* prevrawlensize + lensize */
    unsigned char encoding;  /* for strings only the two type bits (00, 01, 10) are kept */

    bool isString() const { return encoding < 0xC0; }
    size_t rawlen() const { return size_t{headersize} + len; }
};

/* A value read from an entry (what ziplistGet fills in). */
struct ziplistEntry {
    bool isInt = false;
    std::string_view sval; /* a string entry's bytes, inside the ziplist: valid until the next write */
    long long lval = 0;    /* an integer entry's value */

    std::string toString() const;
};

class ziplist {
public:
    ziplist(); /* ziplistNew: an empty ziplist, 11 bytes */

    /* A copy of a ziplist read from outside (an RDB file, RESTORE), or nullopt
     * when the bytes are not a well-formed ziplist. Entries and header are
     * checked as Redis's ziplistValidateIntegrity does in deep mode, so no
     * later operation can read outside the buffer. */
    static std::optional<ziplist> fromBlob(std::string_view blob);
    /* ziplistValidateIntegrity: `deep` walks every entry; otherwise only the
     * header and the end byte are checked. */
    static bool validateIntegrity(const unsigned char *zl, size_t size, bool deep);

    /* The bytes, to be written out as they are (RDB, DUMP). */
    const unsigned char *data() const { return zl_.get(); }
    size_t blobLen() const; /* ziplistBlobLen */
    size_t len() const;     /* ziplistLen: zllen, or a walk when it is 65535 */

    /* ziplistPush: `where` is ZIPLIST_HEAD or ZIPLIST_TAIL. */
    void push(std::string_view s, int where);
    /* ziplistInsert: a new entry holding `s` goes before the entry at `p`, and
     * ends up at p; the entry that was there moves after it. */
    void insert(zlpos p, std::string_view s);
    /* ziplistDelete: removes the entry at `p` and returns the position of the
     * entry that followed it (now at p), or no entry if it was the last. */
    zlpos deleteEntry(zlpos p);
    /* ziplistDeleteRange: removes up to `num` entries from index `index`
     * (negative counts from the tail); nothing when there is no such index. */
    void deleteRange(long index, size_t num);
    /* ziplistReplace (LSET): the entry at `p` now holds `s`, still at p. */
    void replace(zlpos p, std::string_view s);

    /* ziplistIndex: the entry at `index` (-1 is the last), or no entry. */
    zlpos index(long index) const;
    zlpos next(zlpos p) const; /* ziplistNext: no entry after the last */
    zlpos prev(zlpos p) const; /* ziplistPrev: no entry before the first */
    ziplistEntry get(zlpos p) const; /* ziplistGet */
    zlentry entry(zlpos p) const;    /* zipEntry */
    /* ziplistCompare: does the entry at `p` hold `s`? An integer entry equals
     * the strings that would have been stored as that integer. */
    bool compare(zlpos p, std::string_view s) const;
    /* ziplistFind: the first entry from `p` on that holds `s`, comparing one
     * entry then skipping `skip` (1 walks the fields of a hash's field/value
     * pairs), or no entry. */
    zlpos find(zlpos p, std::string_view s, unsigned skip) const;

    /* ziplistRepr, for DEBUG ZIPLIST: the header, then one line per entry
     * with its offset, length, prevlen, encoding, header bytes and value. */
    std::string repr() const;

private:
    struct FreeDeleter {
        void operator()(unsigned char *p) const { std::free(p); }
    };
    explicit ziplist(std::unique_ptr<unsigned char[], FreeDeleter> zl) : zl_(std::move(zl)) {}

    uint32_t tailOffset() const;
    void setTailOffset(size_t offset);
    uint16_t lengthField() const;
    size_t countEntries() const;
    void incrLength(long delta);
    size_t rawEntryLength(size_t offset) const;
    zlpos entryAt(size_t offset) const;

    void resize(size_t bytes);
    void insertAt(size_t offset, std::string_view s);
    void deleteAt(size_t offset, size_t num);
    void cascadeUpdate(size_t offset);

    /* One malloc'd block, grown and shrunk with realloc like Redis's. Only a
     * moved-from ziplist has none; it may then only be destroyed or assigned. */
    std::unique_ptr<unsigned char[], FreeDeleter> zl_;
};
