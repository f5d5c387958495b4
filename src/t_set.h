/* t_set.h — the set type's API (Redis's t_set.c "Set Type API"): what the
 * set commands, and the sorted-set commands that accept sets as inputs
 * (ZUNIONSTORE, ZINTERSTORE...), use so that they never care which of the
 * two encodings a set has.
 *
 *   OBJ_ENCODING_INTSET  the intset object itself sits in the robj's ptr
 *                        slot (it is one pointer wide), as a list's ziplist
 *                        does: no extra allocation
 *   OBJ_ENCODING_HT      ptr owns a setDict: the members are its keys, and
 *                        an entry has no value (16 bytes: next and key)
 *
 * Invariants:
 *  - A set created for a member that is an integer (string2ll-canonical:
 *    "12", "-3", not "012" nor "+3") is an intset. It becomes a hash table,
 *    for good, when a member that is not such an integer is added or when it
 *    would hold more than set-max-intset-entries members.
 *  - A set in the keyspace is never empty: the command that empties it
 *    deletes the key.
 *  - A setTypeValue read from a hash table points into it: it is valid
 *    until the set's next write.
 *
 * Iterating, for instance every member of a set `o` as a string:
 *
 *     setTypeIterator si(o);
 *     setTypeValue v;
 *     char buf[LONG_STR_SIZE];
 *     while (setTypeNext(&si, &v)) use(setTypeValueView(v, buf));
 */
#pragma once

#include <cstdint>
#include <new>
#include <string_view>

#include "dict.h"
#include "intset.h"
#include "object.h"
#include "sds.h"
#include "util.h"

struct client;

/* The set's row of the objects' table (object.h): its free, dup,
 * size and scan (installServerHooks files it with registerObjectType). */
extern const objectType setObjectType;

/* A dict used as a set: members are keys, there is no value. */
struct setDictMember {};
using setDict = dict<sds, setDictMember>;

static_assert(sizeof(intset) == sizeof(void *) && alignof(intset) <= alignof(void *),
              "an intset must fit the robj's ptr slot");

inline intset &objectIntset(robj *o) { return *std::launder(reinterpret_cast<intset *>(&o->ptr)); }
inline const intset &objectIntset(const robj *o) { return objectIntset(const_cast<robj *>(o)); }
inline setDict &objectSetDict(const robj *o) { return *static_cast<setDict *>(o->ptr); }

/* A member read from a set: an intset holds integers, a hash table strings. */
struct setTypeValue {
    bool isInt = false;
    std::string_view sval; /* a hash table member's bytes, inside the set */
    long long lval = 0;    /* an intset member */
};

/* The member's bytes; an integer is printed into `buf`. */
std::string_view setTypeValueView(const setTypeValue &v, char (&buf)[LONG_STR_SIZE]);

/* ---- the set as a whole ------------------------------------------------ */
ObjRef createIntsetObject(); /* an empty intset-encoded set */
ObjRef createSetObject();    /* an empty hashtable-encoded set */
/* setTypeCreate: an empty set suited to its first member `value`: an
 * intset if it is an integer, else a hash table. */
ObjRef setTypeCreate(std::string_view value);
bool setTypeAdd(robj *subject, std::string_view value);    /* false if already a member */
bool setTypeRemove(robj *subject, std::string_view value); /* false if not a member */
bool setTypeIsMember(robj *subject, std::string_view value);
unsigned long setTypeSize(const robj *subject);
/* A member chosen at random (not removed); the set must not be empty. */
setTypeValue setTypeRandomElement(robj *subject);
/* Only INTSET -> HT; `why` is for the trace: a non-integer member, or
 * setEntriesOverLimit. */
void setTypeConvert(robj *subject, unsigned enc, const encodingTrigger &why);
encodingTrigger setEntriesOverLimit(unsigned long entries);
ObjRef setTypeDup(const robj *o); /* COPY */

/* ---- iterating (setTypeInitIterator / setTypeNext) ------------------------
 * Members come in the encoding's order: ascending for an intset, the hash
 * table's otherwise. The set must not be written while an iterator is in
 * use; it may be read (setTypeIsMember), as the hash table iterator is a
 * safe one, which pauses rehashing. */
class setTypeIterator {
public:
    explicit setTypeIterator(robj *subject); /* setTypeInitIterator */
    ~setTypeIterator();                      /* setTypeReleaseIterator */
    setTypeIterator(const setTypeIterator &) = delete;
    setTypeIterator &operator=(const setTypeIterator &) = delete;

private:
    friend bool setTypeNext(setTypeIterator *si, setTypeValue *v);
    robj *subject_;
    unsigned encoding_;
    uint32_t ii_ = 0; /* intset: the next position */
    union {
        setDict::iterator di_; /* hash table: constructed only for that encoding */
    };
};

/* Stores the next member in *v; false when there is none left. */
bool setTypeNext(setTypeIterator *si, setTypeValue *v);

/* The set commands (the command table is in commands.cpp). */
void saddCommand(client *c);
void sremCommand(client *c);
void scardCommand(client *c);
void sismemberCommand(client *c);
void smismemberCommand(client *c);
void smembersCommand(client *c);
void spopCommand(client *c);
void srandmemberCommand(client *c);
void smoveCommand(client *c);
void sinterCommand(client *c);
void sinterstoreCommand(client *c);
void sunionCommand(client *c);
void sunionstoreCommand(client *c);
void sdiffCommand(client *c);
void sdiffstoreCommand(client *c);
void sintercardCommand(client *c);
void sscanCommand(client *c);
