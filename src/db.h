/* db.h — the keyspace (Redis's db.c): databases, key lookup, and the
 * bookkeeping of expiry, db.c's in Redis too (expire.c, like expire.h here,
 * has only the EXPIRE family and the active cycle).
 *
 * Each redisDb maps keys to values in `dict` and keys to their expire time
 * (unix ms) in `expires`. Invariants:
 *  - Every lookup goes through lookupKeyRead/lookupKeyWrite, which first
 *    delete the key if its time has passed (lazy expiry), so a command
 *    never sees an expired key.
 *  - Every key enters through dbAdd, which signals a list, a sorted set or
 *    a stream entering the keyspace to the clients blocked on its key
 *    (signalKeyAsReady), and leaves through dbDelete (or dbSyncDelete,
 *    dbAsyncDelete) or with its whole database (FLUSHDB, FLUSHALL).
 *  - `expires` does not own its keys: each entry points at the sds key of
 *    the `dict` entry, so a key with a TTL stores its name once. An expires
 *    entry is always removed before its dict entry.
 *  - Every write to a key calls signalModifiedKey (WATCH invalidation).
 */
#pragma once

#include <climits>
#include <list>
#include <span>
#include <string_view>
#include <vector>

#include "dict.h"
#include "networking.h"
#include "object.h"

struct client;

/* A key of `expires`: a view of the sds owned by the main dict's entry. */
struct KeyRef {
    const char *s;
    operator std::string_view() const { return sdsview(s); }
};
struct KeyRefTraits {
    using lookup_type = std::string_view;
    static uint64_t hash(std::string_view k) { return dictGenHashFunction(k.data(), k.size()); }
    static bool equal(KeyRef a, std::string_view b) { return sdsview(a.s) == b; }
};

using keyspaceDict = dict<sds, ObjRef>;
using expiresDict = dict<KeyRef, long long, KeyRefTraits>;
struct readyKeysSetMember {}; /* a dict used as a set: no value */
using readyKeysDict = dict<sds, readyKeysSetMember>;

struct redisDb {
    keyspaceDict dict;                               /* the keyspace */
    expiresDict expires;                             /* key -> unix ms deadline */
    watchedKeysDict watched_keys;                    /* WATCHed key -> clients */
    blockingKeysDict blocking_keys;                  /* key -> clients blocked on it (FIFO) */
    readyKeysDict ready_keys;                        /* keys queued in server.ready_keys */
    int id = 0;
    long long avg_ttl = 0;                           /* INFO keyspace, sampled */
    unsigned long expires_cursor = 0;                /* activeExpireCycle resumes here */
};

/* lookupKey flags. */
constexpr int LOOKUP_NONE = 0, LOOKUP_NOTOUCH = 1 << 0, LOOKUP_NONOTIFY = 1 << 1;
/* setKey flags. */
constexpr int SETKEY_KEEPTTL = 1, SETKEY_NO_SIGNAL = 2, SETKEY_ALREADY_EXIST = 4, SETKEY_DOESNT_EXIST = 8;
/* emptyData flags. */
constexpr int EMPTYDB_NO_FLAGS = 0, EMPTYDB_ASYNC = 1;

void initDatabases();
int selectDb(client *c, int id);
/* The number of a database: CLIENT LIST's db=, for networking, which sits
 * below redisDb (registerDbId, networking.h). */
int dbId(const redisDb *db);

robj *lookupKeyRead(redisDb *db, std::string_view key);
robj *lookupKeyWrite(redisDb *db, std::string_view key);
robj *lookupKeyReadWithFlags(redisDb *db, std::string_view key, int flags);
robj *lookupKeyReadOrReply(client *c, std::string_view key, std::string_view reply);
robj *lookupKeyWriteOrReply(client *c, std::string_view key, std::string_view reply);
/* Replies WRONGTYPE and returns true when o is not of the given type. */
bool checkType(client *c, const robj *o, unsigned type);

void dbAdd(redisDb *db, std::string_view key, ObjRef val);
/* Redis's dbAddRDBLoad: a loader's add, in one lookup, with no keyspace
 * event and no waiter to signal (nobody is served while a file loads).
 * False, `val` left alone, if the key exists. */
bool dbAddRDBLoad(redisDb *db, std::string_view key, ObjRef &val);
/* Queues `key` in server.ready_keys (once) if clients are blocked on it,
 * for handleClientsBlockedOnKeys (blocked.h) to serve them after the
 * command. dbAdd calls it for a list or a sorted set entering the
 * keyspace; a type that wakes waiters on a key that exists calls it too. */
void signalKeyAsReady(redisDb *db, std::string_view key);
void dbOverwrite(redisDb *db, std::string_view key, ObjRef val);
void setKey(client *c, redisDb *db, std::string_view key, ObjRef val, int flags);
/* Removes the key; true if it existed. dbAsyncDelete lets go of the value
 * lazily (lazyfree.h), dbDelete lazily under lazyfree-lazy-server-del (a
 * delete the server decides: RENAME's overwrite, an emptied collection...),
 * as does dbOverwrite with the old value. */
bool dbDelete(redisDb *db, std::string_view key);
bool dbSyncDelete(redisDb *db, std::string_view key);
bool dbAsyncDelete(redisDb *db, std::string_view key);
/* HDEL, SREM, ZREM key element [element ...]: removes each element from the
 * collection of `type` at argv[1] with the type's `remove`; the key leaves
 * the keyspace with its last element, and the elements after that one are
 * not looked at (as Redis). Replies how many were removed. */
void removeElementsGenericCommand(client *c, unsigned type, bool (*remove)(robj *, std::string_view),
                                  unsigned long (*length)(const robj *));
bool dbExists(redisDb *db, std::string_view key);
long long emptyData(int dbnum, int flags); /* -1 = all databases; returns keys removed */
/* FLUSHALL's persistence step (the end of Redis 7.0's
 * flushAllDataAndResetRDB, in db.c there): stop a BGSAVE that would write
 * the old dataset and, with save points, save the empty one at once.
 * Persistence sits above the keyspace (tools/check_layers.sh): rdb.cpp's
 * flushAllResetRDB, handed over by installServerHooks (hooks.cpp). */
using flushAllResetRDBProc = void (*)();
void registerFlushAllResetRDB(flushAllResetRDBProc reset);

/* Expiry (times are unix milliseconds). */
long long getExpire(redisDb *db, std::string_view key);   /* -1 when none */
void setExpire(client *c, redisDb *db, std::string_view key, long long when);
bool removeExpire(redisDb *db, std::string_view key);
bool keyIsExpired(redisDb *db, std::string_view key);
bool expireIfNeeded(redisDb *db, std::string_view key);  /* true if it expired (and was deleted) */
void deleteExpiredKeyAndPropagate(redisDb *db, std::string_view key);

/* Hooks every write calls. */
void signalModifiedKey(client *c, redisDb *db, std::string_view key);
void signalFlushedDb(int dbid); /* -1: every database (FLUSHALL) */
/* What they tell WATCH (Redis's db.c calls multi.c's touchWatchedKey and
 * touchAllWatchedKeysInDb): transactions (multi.h) sit above the keyspace
 * (tools/check_layers.sh), so installServerHooks (hooks.cpp) hands those
 * two functions over. */
using touchWatchedKeyProc = void (*)(redisDb *db, std::string_view key);
using touchAllWatchedKeysInDbProc = void (*)(redisDb *emptied, redisDb *replaced_with);
void registerWatchedKeysTouch(touchWatchedKeyProc touch, touchAllWatchedKeysInDbProc touch_all);

/* Scanning: SCAN, HSCAN, SSCAN, ZSCAN. o is nullptr for the keyspace,
 * else the collection, scanned by its type's scan (object.h). */
void scanGenericCommand(client *c, robj *o, unsigned long cursor);
bool parseScanCursorOrReply(client *c, std::string_view arg, unsigned long *cursor);
/* Walks a hash table from `cursor` until `count` items are gathered or the
 * scan completes, visiting at most count*10 buckets so that a sparse table
 * cannot stall the server (the client then gets few items, even none,
 * with a non-zero cursor); emit(entry, items) appends an entry's items.
 * dict::scan keeps the SCAN guarantee. */
template <typename Dict, typename Emit>
unsigned long scanDict(Dict &d, unsigned long cursor, long count, std::vector<sds> &items, Emit emit) {
    long maxiterations = count > LONG_MAX / 10 ? LONG_MAX : count * 10;
    do {
        cursor = d.scan(cursor, [&](auto &de) { emit(de, items); });
    } while (cursor && maxiterations-- && items.size() < static_cast<size_t>(count));
    return cursor;
}

/* serverCron's share of the keyspace work (Redis's databasesCron): active
 * expiry, then shrinking and incremental rehashing of the tables, visiting
 * at most CRON_DBS_PER_CALL databases per call. */
constexpr int CRON_DBS_PER_CALL = 16;
/* Which arguments of a command are keys, and how it uses each (Redis's
 * getKeysResult, db.c): found from the command's key specs, or, for the
 * commands whose specs are incomplete or whose flags vary with the
 * arguments, by the command's own getkeys procedure. ACL checks keys with
 * it, COMMAND GETKEYS shows it. */
struct keyReference {
    int pos;   /* index in argv */
    int flags; /* CMD_KEY_* (keyspecs.h) */
};
/* The keys found, in a buffer inside the result (Redis's keysbuf) that
 * spills to the heap only past MAX_KEYS_BUFFER keys: ACL finds the keys of
 * every command a restricted user sends, without an allocation. Used like
 * a vector of keyReference (size, [], range-for). Not copyable: declare one
 * where it is used. */
class keyReferenceList {
public:
    static constexpr size_t MAX_KEYS_BUFFER = 256;
    keyReferenceList() {} /* user-provided: `getKeysResult r{}` does not zero keysbuf */
    keyReferenceList(const keyReferenceList &) = delete;
    keyReferenceList &operator=(const keyReferenceList &) = delete;

    size_t size() const { return spilled.empty() ? count : spilled.size(); }
    bool empty() const { return size() == 0; }
    keyReference *begin() { return spilled.empty() ? keysbuf : spilled.data(); }
    keyReference *end() { return begin() + size(); }
    const keyReference *begin() const { return spilled.empty() ? keysbuf : spilled.data(); }
    const keyReference *end() const { return begin() + size(); }
    keyReference &operator[](size_t i) { return begin()[i]; }
    const keyReference &operator[](size_t i) const { return begin()[i]; }
    void push_back(keyReference key);
    void clear() {
        count = 0;
        spilled.clear();
    }

private:
    keyReference keysbuf[MAX_KEYS_BUFFER];
    size_t count = 0;
    std::vector<keyReference> spilled; /* all the keys, once more than MAX_KEYS_BUFFER */
};
struct getKeysResult {
    keyReferenceList keys;
};
constexpr int GET_KEYSPEC_DEFAULT = 0;
constexpr int GET_KEYSPEC_INCLUDE_NOT_KEYS = 1 << 0; /* also the NOT_KEY specs' arguments */
/* The keys of the specs argv fits, an incomplete spec's included, instead
 * of falling back to getkeys_proc when one does not fit or is incomplete. */
constexpr int GET_KEYSPEC_RETURN_PARTIAL = 1 << 1;
/* Fills result with the keys of `cmd` called with argv (argv[0] is the
 * command name) and returns how many. The key specs are walked when they
 * are complete and their flags fixed; otherwise, or when argv does not fit
 * them (a bad numkeys...), the command's getkeys_proc decides, and without
 * one there are no keys: an invalid call yields 0 keys (never -1, as in
 * Redis), and the command itself rejects it. */
int getKeysFromCommandWithSpecs(const redisCommand *cmd, std::span<const std::string_view> argv, int search_flags,
                                getKeysResult *result);
/* Whether `cmd` can have keys at all (COMMAND GETKEYS, ACL). */
bool doesCommandHaveKeys(const redisCommand *cmd);

/* The getkeys procedures (redisCommand::getkeys_proc) of the commands whose
 * key specs are incomplete, variable or may not fit argv, as Redis's. */
int setGetKeys(const redisCommand *cmd, std::span<const std::string_view> argv, getKeysResult *result);
int sintercardGetKeys(const redisCommand *cmd, std::span<const std::string_view> argv, getKeysResult *result);
int zunionInterDiffGetKeys(const redisCommand *cmd, std::span<const std::string_view> argv, getKeysResult *result);
int zunionInterDiffStoreGetKeys(const redisCommand *cmd, std::span<const std::string_view> argv,
                                getKeysResult *result);
int evalGetKeys(const redisCommand *cmd, std::span<const std::string_view> argv, getKeysResult *result);
int lmpopGetKeys(const redisCommand *cmd, std::span<const std::string_view> argv, getKeysResult *result);
int blmpopGetKeys(const redisCommand *cmd, std::span<const std::string_view> argv, getKeysResult *result);
int zmpopGetKeys(const redisCommand *cmd, std::span<const std::string_view> argv, getKeysResult *result);
int xreadGetKeys(const redisCommand *cmd, std::span<const std::string_view> argv, getKeysResult *result);

void databasesCron();

/* The keyspace commands (the command table is in commands.cpp). */
void copyCommand(client *c);
void dbsizeCommand(client *c);
void delCommand(client *c);
void existsCommand(client *c);
void flushallCommand(client *c);
void flushdbCommand(client *c);
void keysCommand(client *c);
void moveCommand(client *c);
void randomkeyCommand(client *c);
void renameCommand(client *c);
void renamenxCommand(client *c);
void scanCommand(client *c);
void selectCommand(client *c);
void typeCommand(client *c);
void unlinkCommand(client *c);
void swapdbCommand(client *c);
void touchCommand(client *c);
