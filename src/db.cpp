/* db.cpp — databases and the keyspace API: lookup with lazy expiry, adding,
 * overwriting and deleting keys, expire bookkeeping, and the keyspace
 * commands (Redis's db.c). See db.h for the invariants. */
#include "db.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "expire.h"
#include "notify.h"
#include "server.h"
#include "trace.h"
#include "util.h"

/* ========================================================================
 * Databases
 * ====================================================================== */

void initDatabases() {
    server.db = std::make_unique<redisDb[]>(server.dbnum);
    for (int j = 0; j < server.dbnum; j++) {
        server.db[j].id = j;
        /* What TRACE_DICT calls the keyspace's tables. */
        server.db[j].dict.setTraceLabel("db" + std::to_string(j) + " keys");
        server.db[j].expires.setTraceLabel("db" + std::to_string(j) + " expires");
    }
}

/* CLIENT LIST's db= (networking.h, registerDbId: networking sits below
 * redisDb). */
static int dbId(const redisDb *db) { return db->id; }
[[maybe_unused]] static const bool db_id_registered = registerDbId(dbId);

int selectDb(client *c, int id) {
    if (id < 0 || id >= server.dbnum) return C_ERR;
    c->db = &server.db[id];
    return C_OK;
}

/* ========================================================================
 * Lookup
 * ====================================================================== */

/* Finds the value and refreshes its LRU clock (what OBJECT IDLETIME reads),
 * or under an LFU policy its access counter (OBJECT FREQ). */
static robj *lookupKey(redisDb *db, std::string_view key, int flags) {
    auto *de = db->dict.find(key);
    if (!de) return nullptr;
    robj *val = de->val.get();
    /* Shared integers are touched too, as in Redis: their LRU clock is the
     * last access to any key holding them. While a child (BGSAVE, AOF
     * rewrite) shares the pages, a write to every value read would copy
     * them all: the clocks wait. */
    if (!(flags & LOOKUP_NOTOUCH) && server.child_pid == -1) {
        if (server.maxmemory_policy & MAXMEMORY_FLAG_LFU) updateLFU(val);
        else val->lru = LRU_CLOCK();
    }
    return val;
}

robj *lookupKeyReadWithFlags(redisDb *db, std::string_view key, int flags) {
    expireIfNeeded(db, key);
    robj *val = lookupKey(db, key, flags);
    if (val) {
        server.stat_keyspace_hits++;
    } else {
        server.stat_keyspace_misses++;
        if (!(flags & LOOKUP_NONOTIFY)) notifyKeyspaceEvent(NOTIFY_KEY_MISS, "keymiss", key, db->id);
    }
    return val;
}

robj *lookupKeyRead(redisDb *db, std::string_view key) { return lookupKeyReadWithFlags(db, key, LOOKUP_NONE); }

robj *lookupKeyWrite(redisDb *db, std::string_view key) {
    expireIfNeeded(db, key);
    return lookupKey(db, key, LOOKUP_NONE);
}

robj *lookupKeyReadOrReply(client *c, std::string_view key, std::string_view reply) {
    robj *o = lookupKeyRead(c->db, key);
    if (!o) addReplyOrErrorObject(c, reply);
    return o;
}

robj *lookupKeyWriteOrReply(client *c, std::string_view key, std::string_view reply) {
    robj *o = lookupKeyWrite(c->db, key);
    if (!o) addReplyOrErrorObject(c, reply);
    return o;
}

bool checkType(client *c, const robj *o, unsigned type) {
    if (o && o->type != type) {
        addReplyErrorObject(c, shared::wrongtypeerr);
        return true;
    }
    return false;
}

/* ========================================================================
 * Adding, overwriting, deleting
 * ====================================================================== */

/* The one door through which keys enter a database. A list or a sorted set
 * entering it may be what blocked clients wait for: the only signal they
 * need, since they block only on missing keys (blocked.cpp). A stream's
 * waiters may block on a missing key too (XREAD); an existing stream
 * signals its own new entries (XADD). */
void dbAdd(redisDb *db, std::string_view key, ObjRef val) {
    bool mayUnblock = val->type == OBJ_LIST || val->type == OBJ_ZSET || val->type == OBJ_STREAM;
    auto *de = db->dict.add(sds(key), std::move(val));
    (void)de; /* the caller checked the key was absent */
    if (mayUnblock) signalKeyAsReady(db, key);
    notifyKeyspaceEvent(NOTIFY_NEW, "new", key, db->id);
}

/* In Redis, signalKeyAsReady is in blocked.c; here the keyspace owns it,
 * as dbAdd calls it and it only queues the key (db->ready_keys,
 * server.ready_keys) for handleClientsBlockedOnKeys (blocked.h), above. */
/* The start of the arrow to the clients this key will serve: which command
 * (of which client) made it ready. */
static void traceSignalKeyAsReady(readyList &rl) {
    static uint64_t next_flow = 0;
    rl.trace_flow = ++next_flow;
    const client *by = server.current_client;
    traceEvent ev(TRACE_BLOCK, "signalKeyAsReady", tracePhase::flowStart);
    ev.id(rl.trace_flow).str("key", rl.key.view()).num("db", rl.db->id);
    /* lastcmd: a served waiter's own command has been reset since it blocked. */
    if (by && by->lastcmd) ev.str("by", by->lastcmd->fullname).num("by_client", static_cast<long long>(by->id));
    ev.emit();
}

void signalKeyAsReady(redisDb *db, std::string_view key) {
    if (server.blocked_clients == 0) return; /* the common case: costs nothing */
    if (!db->blocking_keys.find(key)) return;
    if (!db->ready_keys.addRaw(sds(key))) return; /* already queued */
    server.ready_keys.push_back({db, sds(key)});
    if (traceOn(TRACE_BLOCK)) traceSignalKeyAsReady(server.ready_keys.back());
}

/* WATCH's two functions, multi.cpp's (db.h). */
static touchWatchedKeyProc touch_watched_key = nullptr;
static touchAllWatchedKeysInDbProc touch_all_watched_keys_in_db = nullptr;

bool registerWatchedKeysTouch(touchWatchedKeyProc touch, touchAllWatchedKeysInDbProc touch_all) {
    touch_watched_key = touch;
    touch_all_watched_keys_in_db = touch_all;
    return true;
}

void signalModifiedKey(client *, redisDb *db, std::string_view key) {
    if (db->watched_keys.size() == 0) return; /* nobody watches: no call */
    touch_watched_key(db, key);
}

/* A stream leaving the keyspace (deleted, overwritten, flushed) is
 * signalled: its XREADGROUP waiters are then told it is gone, as Redis 7.0
 * tells them, rather than left waiting for a group that cannot come back. */
static void signalDeletedKeyAsReady(redisDb *db, std::string_view key, const robj *val) {
    if (val->type == OBJ_STREAM && server.blocked_clients_by_type[BLOCKED_STREAM]) signalKeyAsReady(db, key);
}

/* The streams a flush is about to remove, for their XREADGROUP waiters
 * (Redis 7.0's scanDatabaseForDeletedStreams): only keys somebody waits on
 * are looked at. */
static void scanDatabaseForDeletedStreams(redisDb *db) {
    if (!server.blocked_clients_by_type[BLOCKED_STREAM]) return;
    for (auto &bk : db->blocking_keys) {
        if (auto *de = db->dict.find(bk.key.view())) signalDeletedKeyAsReady(db, bk.key.view(), de->val.get());
    }
}

/* Called while the keys are still there (WATCH counts only keys the flush
 * really removes). */
void signalFlushedDb(int dbid) {
    int start = dbid == -1 ? 0 : dbid, end = dbid == -1 ? server.dbnum - 1 : dbid;
    for (int j = start; j <= end; j++) {
        scanDatabaseForDeletedStreams(&server.db[j]);
        touch_all_watched_keys_in_db(&server.db[j]);
    }
}

/* Replaces the value of an existing key, keeping its TTL. */
void dbOverwrite(redisDb *db, std::string_view key, ObjRef val) {
    auto *de = db->dict.find(key);
    signalDeletedKeyAsReady(db, key, de->val.get());
    /* An overwritten key keeps its access frequency: a hot key rewritten
     * is still hot. */
    if (server.maxmemory_policy & MAXMEMORY_FLAG_LFU) val->lru = de->val->lru;
    de->val = std::move(val);
}

/* SET's high-level write: add or overwrite, drop the TTL unless asked to
 * keep it, and tell WATCHers. */
void setKey(client *c, redisDb *db, std::string_view key, ObjRef val, int flags) {
    bool exists = (flags & SETKEY_ALREADY_EXIST) ||
                  (!(flags & SETKEY_DOESNT_EXIST) && lookupKeyWrite(db, key) != nullptr);
    if (!exists) dbAdd(db, key, std::move(val));
    else dbOverwrite(db, key, std::move(val));
    if (!(flags & SETKEY_KEEPTTL)) removeExpire(db, key);
    if (!(flags & SETKEY_NO_SIGNAL)) signalModifiedKey(c, db, key);
}

/* HDEL's, SREM's or ZREM's event. */
static void notifyElementsRemoved(unsigned type, std::string_view key, int dbid) {
    switch (type) {
    case OBJ_HASH: return notifyKeyspaceEvent(NOTIFY_HASH, "hdel", key, dbid);
    case OBJ_SET: return notifyKeyspaceEvent(NOTIFY_SET, "srem", key, dbid);
    default: return notifyKeyspaceEvent(NOTIFY_ZSET, "zrem", key, dbid);
    }
}

void removeElementsGenericCommand(client *c, unsigned type, bool (*remove)(robj *, std::string_view),
                                  unsigned long (*length)(const robj *)) {
    std::string_view key = c->argv[1];
    robj *o = lookupKeyWriteOrReply(c, key, shared::czero);
    if (!o || checkType(c, o, type)) return;
    long long removed = 0;
    bool emptied = false;
    for (size_t j = 2; j < c->argv.size() && !emptied; j++) {
        if (!remove(o, c->argv[j])) continue;
        removed++;
        emptied = length(o) == 0;
    }
    if (removed) {
        notifyElementsRemoved(type, key, c->db->id);
        if (emptied) {
            dbDelete(c->db, key);
            notifyKeyspaceEvent(NOTIFY_GENERIC, "del", key, c->db->id);
        }
        signalModifiedKey(c, c->db, key);
        server.dirty += removed;
    }
    addReplyLongLong(c, removed);
}

bool dbDelete(redisDb *db, std::string_view key) {
    if (server.blocked_clients_by_type[BLOCKED_STREAM]) {
        if (auto *de = db->dict.find(key)) signalDeletedKeyAsReady(db, key, de->val.get());
    }
    db->expires.erase(key); /* first: its key points into the dict entry */
    return db->dict.erase(key);
}

bool dbExists(redisDb *db, std::string_view key) { return db->dict.find(key) != nullptr; }

/* FLUSHDB / FLUSHALL: the dicts are cleared in place, before the reply,
 * whatever the flags. Redis frees an EMPTYDB_ASYNC flush in its lazyfree
 * thread; cppredis has none yet, so ASYNC is synchronous too (and INFO's
 * lazyfree_pending_objects and lazyfreed_objects stay 0). */
long long emptyData(int dbnum, int) {
    int start = dbnum == -1 ? 0 : dbnum, end = dbnum == -1 ? server.dbnum - 1 : dbnum;
    long long removed = 0;
    for (int j = start; j <= end; j++) {
        redisDb &db = server.db[j];
        removed += static_cast<long long>(db.dict.size());
        db.expires.clear();
        db.dict.clear();
        db.avg_ttl = 0;
        db.expires_cursor = 0;
    }
    return removed;
}

/* ========================================================================
 * Expire bookkeeping
 * ====================================================================== */

long long getExpire(redisDb *db, std::string_view key) {
    if (db->expires.size() == 0) return -1;
    auto *de = db->expires.find(key);
    return de ? de->val : -1;
}

void setExpire(client *, redisDb *db, std::string_view key, long long when) {
    auto *kde = db->dict.find(key);
    auto *existing = static_cast<expiresDict::entry *>(nullptr);
    auto *de = db->expires.addRaw(KeyRef{kde->key.data()}, &existing);
    (de ? de : existing)->val = when;
}

bool removeExpire(redisDb *db, std::string_view key) {
    if (db->expires.size() == 0) return false;
    return db->expires.erase(key);
}

/* "Now" is the time the command started (server.mstime is refreshed per
 * command), so a key cannot expire in the middle of a command or a
 * MULTI/EXEC block it is used in. */
bool keyIsExpired(redisDb *db, std::string_view key) {
    /* A file being replayed: each command must see the keys as they were
     * when it first ran; what is due expires once the server is up. */
    if (server.loading) return false;
    long long when = getExpire(db, key);
    return when >= 0 && server.mstime > when;
}

void deleteExpiredKeyAndPropagate(redisDb *db, std::string_view key) {
    dbDelete(db, key);
    notifyKeyspaceEvent(NOTIFY_EXPIRED, "expired", key, db->id);
    signalModifiedKey(nullptr, db, key);
    /* The AOF learns of the expiry as a DEL: replayed later, the key must
     * disappear at this point of the history, whatever the clock says. */
    alsoPropagate(db->id, {"DEL", key});
    server.stat_expiredkeys++;
}

bool expireIfNeeded(redisDb *db, std::string_view key) {
    if (!keyIsExpired(db, key)) return false;
    /* The key view may point into the entry being deleted: copy it. */
    sds copy(key);
    deleteExpiredKeyAndPropagate(db, copy.view());
    return true;
}

/* ========================================================================
 * Keyspace commands
 * ====================================================================== */

/* Redis's getIntFromObjectOrReply, for database indexes. */
static bool getDbIndexOrReply(client *c, std::string_view arg, int *id) {
    long v;
    if (!getRangeLongFromObjectOrReply(c, arg, INT_MIN, INT_MAX, &v)) return false;
    *id = static_cast<int>(v);
    return true;
}

/* The database numbered by `arg`, or nullptr after replying the error. */
static redisDb *getDbOrReply(client *c, std::string_view arg) {
    int id;
    if (!getDbIndexOrReply(c, arg, &id)) return nullptr;
    if (id < 0 || id >= server.dbnum) {
        addReplyError(c, "DB index is out of range");
        return nullptr;
    }
    return &server.db[id];
}

/* A new reference to a value already owned elsewhere (incrRefCount). */
static ObjRef shareObject(robj *o) {
    incrRefCount(o);
    return ObjRef(o);
}

/* TYPE's answer, also SCAN's TYPE filter ("none" for a missing key). */
static const char *getObjectTypeName(const robj *o) { return o ? strType(o->type) : "none"; }

/* DEL and UNLINK. A key whose time has passed counts as already gone: it
 * is deleted (and counted) as an expiry, not by this command. */
static void delGenericCommand(client *c) {
    long long numdel = 0;
    for (size_t j = 1; j < c->argv.size(); j++) {
        expireIfNeeded(c->db, c->argv[j]);
        if (dbDelete(c->db, c->argv[j])) {
            signalModifiedKey(c, c->db, c->argv[j]);
            notifyKeyspaceEvent(NOTIFY_GENERIC, "del", c->argv[j], c->db->id);
            server.dirty++;
            numdel++;
        }
    }
    addReplyLongLong(c, numdel);
}

void delCommand(client *c) { delGenericCommand(c); }

/* Redis hands big values to a lazyfree thread here; cppredis has none, so
 * UNLINK frees synchronously and is exactly DEL. */
void unlinkCommand(client *c) { delGenericCommand(c); }

/* EXISTS a a counts 2: every argument is looked up. */
void existsCommand(client *c) {
    long long count = 0;
    for (size_t j = 1; j < c->argv.size(); j++)
        if (lookupKeyReadWithFlags(c->db, c->argv[j], LOOKUP_NOTOUCH)) count++;
    addReplyLongLong(c, count);
}

void selectCommand(client *c) {
    int id;
    if (!getDbIndexOrReply(c, c->argv[1], &id)) return;
    if (selectDb(c, id) == C_ERR) addReplyError(c, "DB index is out of range");
    else addReply(c, shared::ok);
}

void dbsizeCommand(client *c) { addReplyLongLong(c, static_cast<long long>(c->db->dict.size())); }

/* FLUSHDB/FLUSHALL [ASYNC|SYNC]. ASYNC is accepted, but with no lazyfree
 * thread the memory is released before the reply either way. */
static bool getFlushCommandFlags(client *c, int *flags) {
    if (c->argv.size() == 1 || (c->argv.size() == 2 && strEqualNoCase(c->argv[1], "sync"))) {
        *flags = EMPTYDB_NO_FLAGS;
    } else if (c->argv.size() == 2 && strEqualNoCase(c->argv[1], "async")) {
        *flags = EMPTYDB_ASYNC;
    } else {
        addReplyErrorObject(c, shared::syntaxerr);
        return false;
    }
    return true;
}

/* WATCHers are told while the keys still exist: signalFlushedDb only
 * touches watched keys that the flush really removes. */
void flushdbCommand(client *c) {
    int flags;
    if (!getFlushCommandFlags(c, &flags)) return;
    signalFlushedDb(c->db->id);
    server.dirty += emptyData(c->db->id, flags);
    forceCommandPropagation(c); /* an empty db too: the replay may not be */
    addReply(c, shared::ok);
}

/* FLUSHALL's persistence step, rdb.cpp's (db.h). */
static flushAllResetRDBProc flushall_reset_rdb = nullptr;

bool registerFlushAllResetRDB(flushAllResetRDBProc reset) {
    flushall_reset_rdb = reset;
    return true;
}

/* Redis 7.0's flushAllDataAndResetRDB: the keys removed count as changes;
 * a running BGSAVE, which would write the old dataset, is stopped; with
 * save points the empty dataset is saved at once, which zeroes the dirty
 * counter. The command reaches the AOF even on an empty server. */
void flushallCommand(client *c) {
    int flags;
    if (!getFlushCommandFlags(c, &flags)) return;
    signalFlushedDb(-1);
    server.dirty += emptyData(-1, flags);
    flushall_reset_rdb();
    forceCommandPropagation(c);
    addReply(c, shared::ok);
}

void typeCommand(client *c) {
    addReplyStatus(c, getObjectTypeName(lookupKeyReadWithFlags(c->db, c->argv[1], LOOKUP_NOTOUCH)));
}

/* KEYS walks the whole keyspace in one go (hence "dangerous"). Expired
 * keys are skipped but left for lazy/active expiry to delete: deleting
 * here would modify the dict under the iterator. */
void keysCommand(client *c) {
    std::string_view pattern = c->argv[1];
    bool allkeys = pattern == "*";
    void *replylen = addReplyDeferredLen(c);
    long numkeys = 0;
    for (auto &de : c->db->dict) {
        std::string_view key = de.key;
        if (!allkeys && !stringmatchlen(pattern, key, false)) continue;
        if (keyIsExpired(c->db, key)) continue;
        addReplyBulk(c, key);
        numkeys++;
    }
    setDeferredArrayLen(c, replylen, numkeys);
}

/* dbRandomKey: a fair random key, retried while the one drawn has expired
 * (each retry deletes it, so this ends). */
static bool dbRandomKey(redisDb *db, sds &out) {
    while (auto *de = db->dict.fairRandomEntry()) {
        out = de->key.dup();
        if (!expireIfNeeded(db, out)) return true;
    }
    return false;
}

void randomkeyCommand(client *c) {
    sds key;
    if (dbRandomKey(c->db, key)) addReplyBulk(c, key);
    else addReplyNull(c);
}

/* RENAME and RENAMENX: the value and its TTL move to the new name; a key
 * renamed onto itself is left alone, but must exist. */
static void renameGenericCommand(client *c, bool nx) {
    std::string_view src = c->argv[1], dst = c->argv[2];
    robj *o = lookupKeyWriteOrReply(c, src, shared::nokeyerr);
    if (!o) return;
    if (src == dst) {
        addReply(c, nx ? shared::czero : shared::ok);
        return;
    }
    ObjRef val = shareObject(o);
    long long expire = getExpire(c->db, src);
    if (lookupKeyWrite(c->db, dst)) {
        if (nx) {
            addReply(c, shared::czero);
            return;
        }
        dbDelete(c->db, dst);
    }
    dbAdd(c->db, dst, std::move(val));
    if (expire != -1) setExpire(c, c->db, dst, expire);
    dbDelete(c->db, src);
    signalModifiedKey(c, c->db, src);
    signalModifiedKey(c, c->db, dst);
    notifyKeyspaceEvent(NOTIFY_GENERIC, "rename_from", src, c->db->id);
    notifyKeyspaceEvent(NOTIFY_GENERIC, "rename_to", dst, c->db->id);
    server.dirty++;
    addReply(c, nx ? shared::cone : shared::ok);
}

void renameCommand(client *c) { renameGenericCommand(c, false); }
void renamenxCommand(client *c) { renameGenericCommand(c, true); }

static constexpr std::string_view sameobjecterr = "-ERR source and destination objects are the same\r\n";

void moveCommand(client *c) {
    std::string_view key = c->argv[1];
    redisDb *src = c->db, *dst = getDbOrReply(c, c->argv[2]);
    if (!dst) return;
    if (src == dst) {
        addReply(c, sameobjecterr);
        return;
    }
    robj *o = lookupKeyWrite(src, key);
    if (!o || lookupKeyWrite(dst, key)) {
        addReply(c, shared::czero);
        return;
    }
    long long expire = getExpire(src, key);
    dbAdd(dst, key, shareObject(o));
    if (expire != -1) setExpire(c, dst, key, expire);
    dbDelete(src, key);
    signalModifiedKey(c, src, key);
    signalModifiedKey(c, dst, key);
    notifyKeyspaceEvent(NOTIFY_GENERIC, "move_from", key, src->id);
    notifyKeyspaceEvent(NOTIFY_GENERIC, "move_to", key, dst->id);
    server.dirty++;
    addReply(c, shared::cone);
}

/* A deep copy of a value for COPY, by its type's dup (object.h); empty for
 * a type that cannot be copied. */
static ObjRef objectDup(const robj *o) {
    const objectType &type = getObjectType(o->type);
    return type.dup ? type.dup(o) : ObjRef();
}

/* COPY source destination [DB index] [REPLACE] */
void copyCommand(client *c) {
    redisDb *src = c->db, *dst = c->db;
    bool replace = false;
    for (size_t j = 3; j < c->argv.size(); j++) {
        bool more = j + 1 < c->argv.size();
        if (strEqualNoCase(c->argv[j], "replace")) {
            replace = true;
        } else if (strEqualNoCase(c->argv[j], "db") && more) {
            if (!(dst = getDbOrReply(c, c->argv[++j]))) return;
        } else {
            addReplyErrorObject(c, shared::syntaxerr);
            return;
        }
    }
    std::string_view key = c->argv[1], newkey = c->argv[2];
    if (src == dst && key == newkey) {
        addReply(c, sameobjecterr);
        return;
    }
    robj *o = lookupKeyRead(src, key);
    if (!o) {
        addReply(c, shared::czero);
        return;
    }
    long long expire = getExpire(src, key);
    bool exists = lookupKeyWrite(dst, newkey) != nullptr;
    if (exists && !replace) {
        addReply(c, shared::czero);
        return;
    }
    ObjRef copy = objectDup(o);
    if (!copy) {
        addReplyError(c, "unknown type object");
        return;
    }
    if (exists) dbDelete(dst, newkey);
    dbAdd(dst, newkey, std::move(copy));
    if (expire != -1) setExpire(c, dst, newkey, expire);
    signalModifiedKey(c, dst, newkey);
    notifyKeyspaceEvent(NOTIFY_GENERIC, "copy_to", newkey, dst->id);
    server.dirty++;
    addReply(c, shared::cone);
}

/* ========================================================================
 * SCAN (and, through scanGenericCommand, HSCAN/SSCAN/ZSCAN)
 * ====================================================================== */

/* Parsed with strtoul as Redis does, so any unsigned long is a cursor,
 * "-1" wraps around to ULONG_MAX and "" means 0. Leading blanks, trailing
 * junk and overflow are refused. */
bool parseScanCursorOrReply(client *c, std::string_view arg, unsigned long *cursor) {
    std::string s(arg); /* strtoul wants a terminator (Redis too stops at a NUL) */
    char *eptr;
    errno = 0;
    *cursor = strtoul(s.c_str(), &eptr, 10);
    if (isspace(static_cast<unsigned char>(s[0])) || *eptr != '\0' || errno == ERANGE) {
        addReplyError(c, "invalid cursor");
        return false;
    }
    return true;
}

void scanCommand(client *c) {
    unsigned long cursor;
    if (parseScanCursorOrReply(c, c->argv[1], &cursor)) scanGenericCommand(c, nullptr, cursor);
}

struct ScanOptions {
    long count = 10;
    std::optional<std::string_view> pattern; /* none: no MATCH, or MATCH * */
    std::optional<std::string_view> type;    /* keyspace only */
};

/* Step 1: COUNT, MATCH and (for SCAN only) TYPE, after the cursor. */
static bool parseScanOptionsOrReply(client *c, bool keyspace, ScanOptions &opt) {
    for (size_t i = keyspace ? 2 : 3; i < c->argv.size(); i += 2) {
        std::string_view name = c->argv[i];
        bool hasValue = i + 1 < c->argv.size();
        if (strEqualNoCase(name, "count") && hasValue) {
            if (!getLongFromObjectOrReply(c, c->argv[i + 1], &opt.count)) return false;
            if (opt.count < 1) {
                addReplyErrorObject(c, shared::syntaxerr);
                return false;
            }
        } else if (strEqualNoCase(name, "match") && hasValue) {
            if (c->argv[i + 1] == "*") opt.pattern.reset();
            else opt.pattern = c->argv[i + 1];
        } else if (strEqualNoCase(name, "type") && keyspace && hasValue) {
            opt.type = c->argv[i + 1];
        } else {
            addReplyErrorObject(c, shared::syntaxerr);
            return false;
        }
    }
    return true;
}

/* What step 2 gathered: copies, since filtering may delete keys. For
 * hashes and sorted sets `pairs` is set and items alternate field, value. */
struct ScanBatch {
    std::vector<sds> items;
    bool pairs = false;
};

/* Step 2, the only per-type step: gather elements from `cursor` on and
 * return the next cursor: the keyspace's keys here, a collection's
 * elements by its type's scan (object.h; a hash table through scanDict, a
 * small compact encoding returned whole, with cursor 0). */
static unsigned long scanCollect(client *c, robj *o, unsigned long cursor, const ScanOptions &opt,
                                 ScanBatch &batch) {
    if (!o)
        return scanDict(c->db->dict, cursor, opt.count, batch.items,
                        [](keyspaceDict::entry &de, std::vector<sds> &items) { items.push_back(de.key.dup()); });
    const objectType &type = getObjectType(o->type);
    assert(type.scan && "SCAN of a type that does not implement it");
    batch.pairs = type.scan_pairs;
    return type.scan(o, cursor, opt.count, batch.items);
}

/* Step 3, common to all types: false for an element to leave out — not
 * matching MATCH, or (keyspace only) of another TYPE or expired since. */
static bool scanKeep(client *c, bool keyspace, std::string_view item, const ScanOptions &opt) {
    if (opt.pattern && !stringmatchlen(*opt.pattern, item, false)) return false;
    if (!keyspace) return true;
    if (opt.type &&
        !strEqualNoCase(*opt.type, getObjectTypeName(lookupKeyReadWithFlags(c->db, item, LOOKUP_NOTOUCH))))
        return false;
    return !expireIfNeeded(c->db, item);
}

/* SCAN, HSCAN, SSCAN, ZSCAN: o is nullptr for the keyspace, else the
 * collection, and the cursor is already parsed. */
void scanGenericCommand(client *c, robj *o, unsigned long cursor) {
    ScanOptions opt;
    if (!parseScanOptionsOrReply(c, o == nullptr, opt)) return;
    ScanBatch batch;
    cursor = scanCollect(c, o, cursor, opt, batch);

    /* Filter in place; with pairs, a field's value goes with it. */
    size_t step = batch.pairs ? 2 : 1, kept = 0;
    for (size_t i = 0; i < batch.items.size(); i += step) {
        if (!scanKeep(c, o == nullptr, batch.items[i], opt)) continue;
        for (size_t k = 0; k < step; k++) batch.items[kept++] = std::move(batch.items[i + k]);
    }
    batch.items.resize(kept);

    addReplyArrayLen(c, 2);
    char buf[24];
    addReplyBulk(c, std::string_view(buf, ull2string(buf, sizeof(buf), cursor)));
    addReplyArrayLen(c, static_cast<long long>(batch.items.size()));
    for (const sds &item : batch.items) addReplyBulk(c, item);
}

/* ========================================================================
 * serverCron's share: expiry, shrinking, rehashing
 * ====================================================================== */

/* tryResizeHashTables: a table under 10% full after mass deletions wastes
 * memory and makes SCAN and sampling slow; shrink it to fit its entries
 * (the move itself is incremental). */
static void tryResizeHashTables(redisDb &db) {
    if (db.dict.needsShrink()) db.dict.resizeToFit();
    if (db.expires.needsShrink()) db.expires.resizeToFit();
}

/* incrementallyRehash: a table nobody touches would otherwise stay half
 * moved (two tables' memory, lookups in both) forever. One millisecond per
 * call; true if there was work. */
static bool incrementallyRehash(redisDb &db) {
    if (db.dict.isRehashing()) {
        db.dict.rehashMilliseconds(1);
        return true;
    }
    if (db.expires.isRehashing()) {
        db.expires.rehashMilliseconds(1);
        return true;
    }
    return false;
}

/* Called by every serverCron tick. At most CRON_DBS_PER_CALL databases
 * are visited per call; the static indexes resume where the last call
 * stopped, so all of them get their turn. */
void databasesCron() {
    activeExpireCycle();
    static unsigned resize_db = 0, rehash_db = 0;
    int dbs_per_call = std::min(CRON_DBS_PER_CALL, server.dbnum);
    for (int j = 0; j < dbs_per_call; j++) tryResizeHashTables(server.db[resize_db++ % server.dbnum]);
    /* Rehashing costs a whole millisecond: one db per call. */
    for (int j = 0; j < dbs_per_call; j++) {
        if (incrementallyRehash(server.db[rehash_db % server.dbnum])) break;
        rehash_db = (rehash_db + 1) % server.dbnum;
    }
}
