/* t_hash.h — the hash type's API (Redis 2.6's t_hash.c "Hash Type API"):
 * what the hash commands, and the keyspace's COPY, SCAN and introspection,
 * use so that they never care which of the two encodings a hash has.
 *
 *   OBJ_ENCODING_ZIPLIST  field, value, field, value... in one ziplist that
 *                         sits in the robj's ptr slot, as a small list's
 *                         does (t_list.h): no allocation but the robj and
 *                         the ziplist's own buffer
 *   OBJ_ENCODING_HT       ptr owns a hashDict: sds field -> sds value
 *
 * Invariants:
 *  - A new hash is a ziplist. It becomes a hash table, for good, when a
 *    field or a value longer than hash-max-ziplist-value bytes is added, or
 *    when it would hold more than hash-max-ziplist-entries fields.
 *  - In the ziplist every field is followed by its value, and a field
 *    appears once. Numbers are stored as integers when the ziplist can give
 *    back the same bytes ("12", not "012"), so values read back as written.
 *  - A hash in the keyspace is never empty: the command that removes its
 *    last field deletes the key.
 *  - A hashTypeValue read from a hash points into it: it is valid until
 *    the hash's next write.
 *
 * Iterating, for instance every field and value of a hash `o`:
 *
 *     hashTypeIterator hi(o);
 *     while (hashTypeNext(&hi))
 *         use(hashTypeCurrent(&hi, OBJ_HASH_KEY), hashTypeCurrent(&hi, OBJ_HASH_VALUE));
 */
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "dict.h"
#include "object.h"
#include "sds.h"
#include "t_list.h" /* objectZiplist: the ziplist in the ptr slot */
#include "util.h"
#include "ziplist.h"

struct client;

/* The hash's row of the objects' table (object.h): its free, dup,
 * size and scan (installServerHooks files it with registerObjectType). */
extern const objectType hashObjectType;

using hashDict = dict<sds, sds>;

inline hashDict &objectHashDict(const robj *o) { return *static_cast<hashDict *>(o->ptr); }

/* A field or value read from a hash: a ziplist entry is a string or an
 * integer; a hash table holds strings only. */
using hashTypeValue = ziplistEntry;

/* The bytes; an integer is printed into `buf`. */
std::string_view hashTypeValueView(const hashTypeValue &v, char (&buf)[LONG_STR_SIZE]);
/* Replies one field or value as a bulk string, straight from the hash. */
void addReplyHashValue(client *c, const hashTypeValue &v);

/* ---- the hash as a whole ----------------------------------------------- */
/* Converts a ziplist hash that could not take all of `args` (fields and
 * values about to be set): one of them is too long for it. */
void hashTypeTryConversion(robj *o, std::span<const std::string_view> args);
/* Only ZIPLIST -> HT; `why` is for the trace: one of these two, or the
 * ziplist's safety size. */
void hashTypeConvert(robj *o, unsigned enc, const encodingTrigger &why);
encodingTrigger hashValueOverLimit(size_t len);
encodingTrigger hashEntriesOverLimit(unsigned long entries);
std::optional<hashTypeValue> hashTypeGetValue(robj *o, std::string_view field);
size_t hashTypeGetValueLength(robj *o, std::string_view field); /* 0 when missing */
bool hashTypeExists(robj *o, std::string_view field);
/* Adds or updates; true when the field existed (Redis's "update"). The
 * hash converts first if the pair does not fit the ziplist. */
bool hashTypeSet(robj *o, std::string_view field, std::string_view value);
bool hashTypeDelete(robj *o, std::string_view field); /* false if missing */
unsigned long hashTypeLength(const robj *o);
ObjRef hashTypeDup(const robj *o); /* COPY: a deep copy in the same encoding */

/* ---- iterating (hashTypeInitIterator / hashTypeNext) ---------------------
 * Fields come in the encoding's order: as added for a ziplist, the hash
 * table's otherwise. The hash must not be written while an iterator is in
 * use; it may be read, as the hash table iterator is a safe one. */
constexpr int OBJ_HASH_KEY = 1, OBJ_HASH_VALUE = 2;

class hashTypeIterator {
public:
    explicit hashTypeIterator(robj *subject); /* hashTypeInitIterator */
    ~hashTypeIterator();                      /* hashTypeReleaseIterator */
    hashTypeIterator(const hashTypeIterator &) = delete;
    hashTypeIterator &operator=(const hashTypeIterator &) = delete;

private:
    friend bool hashTypeNext(hashTypeIterator *hi);
    friend hashTypeValue hashTypeCurrent(const hashTypeIterator *hi, int what);
    robj *subject_;
    unsigned encoding_;
    zlpos fptr_, vptr_; /* ziplist: the current field and value */
    hashDict::entry *de_ = nullptr; /* hash table: the current entry */
    union {
        hashDict::iterator di_; /* hash table: constructed only for that encoding */
    };
};

/* Moves to the next field; false when there is none left. */
bool hashTypeNext(hashTypeIterator *hi);
/* The current field (OBJ_HASH_KEY) or value (OBJ_HASH_VALUE). */
hashTypeValue hashTypeCurrent(const hashTypeIterator *hi, int what);

/* The hash commands (the command table is in commands.cpp). */
void hsetCommand(client *c);
void hsetnxCommand(client *c);
void hmsetCommand(client *c);
void hgetCommand(client *c);
void hmgetCommand(client *c);
void hdelCommand(client *c);
void hlenCommand(client *c);
void hstrlenCommand(client *c);
void hexistsCommand(client *c);
void hgetallCommand(client *c);
void hkeysCommand(client *c);
void hvalsCommand(client *c);
void hincrbyCommand(client *c);
void hincrbyfloatCommand(client *c);
void hrandfieldCommand(client *c);
void hscanCommand(client *c);
