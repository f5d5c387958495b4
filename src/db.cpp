/* db.cpp — databases and the keyspace API (Redis's db.c): lookup with lazy
 * expiry, adding, overwriting and deleting keys, expire bookkeeping, and the
 * keyspace commands. Also here: signalKeyAsReady (Redis's blocked.c, here
 * because dbAdd calls it), TOUCH (expire.c) and databasesCron's rehashing and
 * resizing (server.c). See db.h for the invariants. */
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
#include "lazyfree.h"
#include "latency.h"
#include "notify.h"
#include "server.h"
#include "livetrace.h"
#include "tracking.h"
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

int dbId(const redisDb *db) { return db->id; }

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
    /* On a replica an expired key stays until the master's DEL: it reads as missing. */
    robj *val = expireIfNeeded(db, key) ? nullptr : lookupKey(db, key, flags);
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
    if (!expireIfNeeded(db, key)) return lookupKey(db, key, LOOKUP_NONE);
    /* On a replica a write that finds an expired key deletes it first, so
     * that it does not find it in place (Redis's EXPIRE_FORCE_DELETE_EXPIRED
     * on a writable replica; on a read-only one only the master writes, and
     * its commands see the key as not expired). */
    if (dbExists(db, key)) {
        sds copy(key);
        deleteExpiredKeyAndPropagate(db, copy.view());
    }
    return nullptr;
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

bool dbAddRDBLoad(redisDb *db, std::string_view key, ObjRef &val) {
    auto *de = db->dict.addRaw(sds(key));
    if (!de) return false;
    de->val = std::move(val);
    return true;
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

void registerWatchedKeysTouch(touchWatchedKeyProc touch, touchAllWatchedKeysInDbProc touch_all) {
    touch_watched_key = touch;
    touch_all_watched_keys_in_db = touch_all;
}

void signalModifiedKey(client *c, redisDb *db, std::string_view key) {
    if (db->watched_keys.size() != 0) touch_watched_key(db, key); /* the common case: nobody watches */
    trackingInvalidateKey(c, key, true);
}

/* A stream leaving the keyspace (deleted, overwritten, flushed) is
 * signalled: its XREADGROUP waiters are then told it is gone, as Redis 7.0
 * tells them, rather than left waiting for a group that cannot come back. */
static void signalDeletedKeyAsReady(redisDb *db, std::string_view key, const robj *val) {
    if (val->type == OBJ_STREAM && server.blocked_clients_by_type[BLOCKED_STREAM]) signalKeyAsReady(db, key);
}

/* The streams a flush (replaced_with nullptr) or a SWAPDB is about to
 * remove from `emptied`, for their XREADGROUP waiters (Redis 7.0's
 * scanDatabaseForDeletedStreams): only keys somebody waits on are looked
 * at, and a stream that a stream replaces is not gone. */
static void scanDatabaseForDeletedStreams(redisDb *emptied, redisDb *replaced_with) {
    if (!server.blocked_clients_by_type[BLOCKED_STREAM]) return;
    for (auto &bk : emptied->blocking_keys) {
        std::string_view key = bk.key.view();
        auto *de = emptied->dict.find(key);
        if (!de) continue;
        auto *replacement = replaced_with ? replaced_with->dict.find(key) : nullptr;
        if (replacement && replacement->val->type == OBJ_STREAM) continue;
        signalDeletedKeyAsReady(emptied, key, de->val.get());
    }
}

/* Called while the keys are still there (WATCH counts only keys the flush
 * really removes). */
void signalFlushedDb(int dbid) {
    int start = dbid == -1 ? 0 : dbid, end = dbid == -1 ? server.dbnum - 1 : dbid;
    for (int j = start; j <= end; j++) {
        scanDatabaseForDeletedStreams(&server.db[j], nullptr);
        touch_all_watched_keys_in_db(&server.db[j], nullptr);
    }
}

/* Replaces the value of an existing key, keeping its TTL. */
void dbOverwrite(redisDb *db, std::string_view key, ObjRef val) {
    auto *de = db->dict.find(key);
    signalDeletedKeyAsReady(db, key, de->val.get());
    /* An overwritten key keeps its access frequency: a hot key rewritten
     * is still hot. */
    if (server.maxmemory_policy & MAXMEMORY_FLAG_LFU) val->lru = de->val->lru;
    ObjRef old = std::exchange(de->val, std::move(val));
    if (server.lazyfree_lazy_server_del) freeObjAsync(std::move(old));
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

/* The value is taken out of its entry to be let go of lazily: a plain
 * delete needs no lookup before the erase. */
static bool dbGenericDelete(redisDb *db, std::string_view key, bool async) {
    if (async || server.blocked_clients_by_type[BLOCKED_STREAM]) {
        auto *de = db->dict.find(key);
        if (!de) return false;
        if (server.blocked_clients_by_type[BLOCKED_STREAM]) signalDeletedKeyAsReady(db, key, de->val.get());
        if (async) freeObjAsync(std::move(de->val));
    }
    db->expires.erase(key); /* first: its key points into the dict entry */
    return db->dict.erase(key);
}

bool dbSyncDelete(redisDb *db, std::string_view key) { return dbGenericDelete(db, key, false); }
bool dbAsyncDelete(redisDb *db, std::string_view key) { return dbGenericDelete(db, key, true); }
bool dbDelete(redisDb *db, std::string_view key) { return dbGenericDelete(db, key, server.lazyfree_lazy_server_del); }

bool dbExists(redisDb *db, std::string_view key) { return db->dict.find(key) != nullptr; }

/* FLUSHDB / FLUSHALL: the databases are empty when this returns; with
 * EMPTYDB_ASYNC their old dicts are freed on the bio thread. */
long long emptyData(int dbnum, int flags) {
    trackingInvalidateKeysOnFlush(flags & EMPTYDB_ASYNC);
    int start = dbnum == -1 ? 0 : dbnum, end = dbnum == -1 ? server.dbnum - 1 : dbnum;
    long long removed = 0;
    for (int j = start; j <= end; j++) {
        redisDb &db = server.db[j];
        removed += static_cast<long long>(db.dict.size());
        if (flags & EMPTYDB_ASYNC) {
            emptyDbAsync(&db);
        } else {
            db.expires.clear();
            db.dict.clear();
        }
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
    bool lazy = server.lazyfree_lazy_expire;
    long long expire_latency = latencyStartMonitor();
    if (lazy) dbAsyncDelete(db, key);
    else dbSyncDelete(db, key);
    latencyAddSampleIfNeeded("expire-del", latencyEndMonitor(expire_latency));
    notifyKeyspaceEvent(NOTIFY_EXPIRED, "expired", key, db->id);
    signalModifiedKey(nullptr, db, key);
    /* The AOF learns of the expiry as a DEL (UNLINK when freed lazily, as
     * Redis's propagateDeletion): replayed later, the key must disappear at
     * this point of the history, whatever the clock says. */
    alsoPropagate(db->id, {lazy ? "UNLINK" : "DEL", key});
    server.stat_expiredkeys++;
}

bool expireIfNeeded(redisDb *db, std::string_view key) {
    if (!keyIsExpired(db, key)) return false;
    /* A replica's keys expire by the master's DEL (Redis 7.0): an expired key
     * is reported as such but stays (lookupKeyWrite deletes it for a write),
     * and the master's own commands see it as not expired. */
    if (!server.masterhost.empty()) return server.current_client != server.master;
    /* CLIENT PAUSE keeps the dataset as it is: the key is reported expired
     * but stays until the pause ends (or a failover's new master DELs it). */
    if (checkClientPauseTimeoutAndReturnIfPaused()) return true;
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
static void delGenericCommand(client *c, bool lazy) {
    long long numdel = 0;
    for (size_t j = 1; j < c->argv.size(); j++) {
        expireIfNeeded(c->db, c->argv[j]);
        if (lazy ? dbAsyncDelete(c->db, c->argv[j]) : dbSyncDelete(c->db, c->argv[j])) {
            signalModifiedKey(c, c->db, c->argv[j]);
            notifyKeyspaceEvent(NOTIFY_GENERIC, "del", c->argv[j], c->db->id);
            server.dirty++;
            numdel++;
        }
    }
    addReplyLongLong(c, numdel);
}

void delCommand(client *c) { delGenericCommand(c, server.lazyfree_lazy_user_del); }

void unlinkCommand(client *c) { delGenericCommand(c, true); }

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

/* FLUSHDB/FLUSHALL [ASYNC|SYNC]; neither: lazyfree-lazy-user-flush decides. */
static bool getFlushCommandFlags(client *c, int *flags) {
    if (c->argv.size() == 1) {
        *flags = server.lazyfree_lazy_user_flush ? EMPTYDB_ASYNC : EMPTYDB_NO_FLAGS;
    } else if (c->argv.size() == 2 && strEqualNoCase(c->argv[1], "sync")) {
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

void registerFlushAllResetRDB(flushAllResetRDBProc reset) {
    flushall_reset_rdb = reset;
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
    /* A replica deletes no expired key: if every key has a TTL they may all
     * have expired, so after 100 tries one is returned anyway (as Redis). */
    int maxtries = 100;
    const bool allvolatile = db->dict.size() == db->expires.size();
    while (auto *de = db->dict.fairRandomEntry()) {
        out = de->key.dup();
        if (allvolatile && !server.masterhost.empty() && --maxtries == 0) return true;
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
    /* A replica's keys expire by the master's DEL. */
    if (server.active_expire_enabled && server.masterhost.empty()) activeExpireCycle();
    static unsigned resize_db = 0, rehash_db = 0;
    int dbs_per_call = std::min(CRON_DBS_PER_CALL, server.dbnum);
    for (int j = 0; j < dbs_per_call; j++) tryResizeHashTables(server.db[resize_db++ % server.dbnum]);
    /* Rehashing costs a whole millisecond: one db per call (none without
     * activerehashing: a table then moves only as it is used). */
    for (int j = 0; j < dbs_per_call && server.activerehashing; j++) {
        if (incrementallyRehash(server.db[rehash_db % server.dbnum])) break;
        rehash_db = (rehash_db + 1) % server.dbnum;
    }
}

/* ========================================================================
 * Finding a command's keys in its arguments (Redis's db.c "API to get key
 * arguments from commands"): ACL checks them, COMMAND GETKEYS shows them.
 * ====================================================================== */

void keyReferenceList::push_back(keyReference key) {
    if (!spilled.empty()) {
        spilled.push_back(key);
    } else if (count < MAX_KEYS_BUFFER) {
        keysbuf[count++] = key;
    } else {
        spilled.reserve(2 * MAX_KEYS_BUFFER);
        spilled.assign(keysbuf, keysbuf + count);
        spilled.push_back(key);
    }
}

/* Where a spec's keys begin: the spec's index, or the argument after its
 * keyword. A keyword is never the last argument (its key must follow), and
 * searching backwards stops before argv[1]. Returns 0 when the keyword is
 * absent (the spec has no keys in this call), -1 when the spec cannot tell
 * (an UNKNOWN begin search). */
static int keySpecBeginIndex(const keySpec &spec, std::span<const std::string_view> argv) {
    const int argc = static_cast<int>(argv.size());
    if (spec.begin_search_type == KSPEC_BS_INDEX) return spec.bs.index.pos;
    if (spec.begin_search_type != KSPEC_BS_KEYWORD) return -1;
    const auto &kw = spec.bs.keyword;
    if (kw.startfrom > 0) {
        for (int i = kw.startfrom; i < argc - 1; i++)
            if (strEqualNoCase(argv[i], kw.keyword)) return i + 1;
    } else {
        for (int i = argc + kw.startfrom; i >= 2; i--)
            if (strEqualNoCase(argv[i], kw.keyword)) return i + 1;
    }
    return 0;
}

/* The argv indexes [first, last] (every `step`-th) of a spec's keys, found
 * from `begin`; nullopt when argv does not fit the spec: the range runs
 * off argv or is empty, numkeys is not a non-negative integer. */
struct keySpecRange {
    long long first, last;
    int step;
};
static std::optional<keySpecRange> keySpecFindKeys(const keySpec &spec, int begin,
                                                    std::span<const std::string_view> argv) {
    const long long argc = static_cast<long long>(argv.size());
    keySpecRange r{begin, 0, 1};
    if (spec.find_keys_type == KSPEC_FK_RANGE) {
        const auto &range = spec.fk.range;
        r.step = range.keystep;
        if (range.lastkey >= 0) {
            r.last = begin + range.lastkey;
        } else if (range.limit == 0) {
            r.last = argc + range.lastkey;
        } else {
            /* lastkey is -1: the keys are the first 1/limit of the rest
             * (XREAD's streams, then as many IDs). */
            r.last = begin + (argc - begin) / range.limit + range.lastkey;
        }
    } else if (spec.find_keys_type == KSPEC_FK_KEYNUM) {
        const auto &keynum = spec.fk.keynum;
        r.step = keynum.keystep;
        long long numidx = begin + keynum.keynumidx, numkeys;
        if (numidx >= argc || !string2ll(argv[numidx], &numkeys) || numkeys < 0) return std::nullopt;
        r.first = begin + keynum.firstkey;
        /* Redis counts the keys in an int: a count past INT_MAX wraps. */
        r.last = r.first + static_cast<int>(numkeys) - 1;
    } else {
        return std::nullopt;
    }
    if (r.first >= argc || r.last >= argc || r.last < r.first) return std::nullopt;
    return r;
}

/* The keys the specs give (Redis's getKeysUsingKeySpecs): -1 when a spec
 * does not fit argv or is incomplete, unless GET_KEYSPEC_RETURN_PARTIAL
 * asks for the keys of the others (and an incomplete spec's own). */
static int getKeysUsingKeySpecs(const redisCommand *cmd, std::span<const std::string_view> argv, int search_flags,
                                getKeysResult *result) {
    keyReferenceList &keys = result->keys;
    keys.clear();
    for (const keySpec &spec : cmd->key_specs) {
        if ((spec.flags & CMD_KEY_NOT_KEY) && !(search_flags & GET_KEYSPEC_INCLUDE_NOT_KEYS)) continue;
        int begin = keySpecBeginIndex(spec, argv);
        if (begin == 0) continue;
        std::optional<keySpecRange> range = begin > 0 ? keySpecFindKeys(spec, begin, argv) : std::nullopt;
        if (range) {
            for (long long i = range->first; i <= range->last; i += range->step)
                keys.push_back({static_cast<int>(i), spec.flags});
        }
        if (range && !(spec.flags & CMD_KEY_INCOMPLETE)) continue;
        if (search_flags & GET_KEYSPEC_RETURN_PARTIAL) continue;
        keys.clear();
        return -1;
    }
    return static_cast<int>(keys.size());
}

/* Whether any spec has all of `flags` (inverted: lacks one of them). */
static bool anyKeySpecWith(const redisCommand *cmd, int flags, bool inverted) {
    for (const keySpec &spec : cmd->key_specs)
        if (((spec.flags & flags) == flags) != inverted) return true;
    return false;
}

int getKeysFromCommandWithSpecs(const redisCommand *cmd, std::span<const std::string_view> argv, int search_flags,
                                getKeysResult *result) {
    bool has_real_keys = anyKeySpecWith(cmd, CMD_KEY_NOT_KEY, true);
    bool has_varflags = anyKeySpecWith(cmd, CMD_KEY_VARIABLE_FLAGS, false);
    if (has_real_keys && !has_varflags) {
        int numkeys = getKeysUsingKeySpecs(cmd, argv, search_flags, result);
        if (numkeys >= 0) return numkeys;
    }
    result->keys.clear();
    return cmd->getkeys_proc ? cmd->getkeys_proc(cmd, argv, result) : 0;
}

bool doesCommandHaveKeys(const redisCommand *cmd) {
    return cmd->getkeys_proc || anyKeySpecWith(cmd, CMD_KEY_NOT_KEY, true);
}

/* C's atoi() over an argument (a view, not NUL-terminated): leading blanks,
 * a sign, the digits up to the first non-digit; 0 when there are none. The
 * getkeys procedures below read numkeys with it, as Redis's do, so "2abc"
 * counts 2 keys where the specs found none. */
static int atoiArg(std::string_view s) {
    size_t i = 0;
    while (i < s.size() && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r'))) i++;
    bool negative = i < s.size() && s[i] == '-';
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) i++;
    /* strtol saturates at LONG_MAX / LONG_MIN; atoi then keeps the low 32 bits. */
    unsigned long long magnitude = 0, limit = negative ? 0x8000000000000000ULL : LONG_MAX;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; i++) {
        unsigned digit = static_cast<unsigned>(s[i] - '0');
        magnitude = magnitude > (limit - digit) / 10 ? limit : magnitude * 10 + digit;
    }
    long value = negative ? static_cast<long>(0 - magnitude) : static_cast<long>(magnitude);
    return static_cast<int>(value);
}

/* COMMAND [destkey] numkeys key [key ...] ...: the keys at firstkey, one
 * per argument, then destkey (index 0: none); no keys when numkeys is not
 * a positive count that argv holds (the command replies an error). The
 * specs already give the flags of these commands, so none are set. */
static int genericGetKeys(int storekey, int numkeysidx, int firstkey, std::span<const std::string_view> argv,
                          getKeysResult *result) {
    int numkeys = atoiArg(argv[numkeysidx]);
    if (numkeys < 1 || numkeys > static_cast<int>(argv.size()) - firstkey) return 0;
    for (int i = 0; i < numkeys; i++) result->keys.push_back({firstkey + i, 0});
    if (storekey) result->keys.push_back({storekey, 0});
    return storekey ? numkeys + 1 : numkeys;
}

int sintercardGetKeys(const redisCommand *, std::span<const std::string_view> argv, getKeysResult *result) {
    return genericGetKeys(0, 1, 2, argv, result);
}

int zunionInterDiffGetKeys(const redisCommand *, std::span<const std::string_view> argv, getKeysResult *result) {
    return genericGetKeys(0, 1, 2, argv, result);
}

int zunionInterDiffStoreGetKeys(const redisCommand *, std::span<const std::string_view> argv,
                                getKeysResult *result) {
    return genericGetKeys(1, 2, 3, argv, result);
}

int evalGetKeys(const redisCommand *, std::span<const std::string_view> argv, getKeysResult *result) {
    return genericGetKeys(0, 2, 3, argv, result);
}

int lmpopGetKeys(const redisCommand *, std::span<const std::string_view> argv, getKeysResult *result) {
    return genericGetKeys(0, 1, 2, argv, result);
}

/* BLMPOP and BZMPOP: the timeout comes first. */
int blmpopGetKeys(const redisCommand *, std::span<const std::string_view> argv, getKeysResult *result) {
    return genericGetKeys(0, 2, 3, argv, result);
}

int zmpopGetKeys(const redisCommand *, std::span<const std::string_view> argv, getKeysResult *result) {
    return genericGetKeys(0, 1, 2, argv, result);
}

/* SET's key is read as well as written when GET is among its options:
 * its spec's flags are VARIABLE_FLAGS. */
int setGetKeys(const redisCommand *, std::span<const std::string_view> argv, getKeysResult *result) {
    bool get = std::any_of(argv.begin() + std::min<size_t>(3, argv.size()), argv.end(),
                           [](std::string_view arg) { return strEqualNoCase(arg, "get"); });
    result->keys.push_back({1, get ? CMD_KEY_RW | CMD_KEY_ACCESS | CMD_KEY_UPDATE : CMD_KEY_OW | CMD_KEY_UPDATE});
    return 1;
}

/* XREAD / XREADGROUP [options] STREAMS key [key ...] id [id ...]: the
 * options are parsed (skipping their values) to find the STREAMS that is
 * the keyword, since a group, a consumer or a key may be named "streams".
 * No keys on a syntax error or when keys and IDs do not pair up. */
int xreadGetKeys(const redisCommand *, std::span<const std::string_view> argv, getKeysResult *result) {
    const int argc = static_cast<int>(argv.size());
    int streams = -1;
    for (int i = 1; i < argc && streams < 0; i++) {
        std::string_view arg = argv[i];
        if (strEqualNoCase(arg, "block") || strEqualNoCase(arg, "count")) i += 1;
        else if (strEqualNoCase(arg, "group")) i += 2;
        else if (strEqualNoCase(arg, "streams")) streams = i;
        else if (!strEqualNoCase(arg, "noack")) break;
    }
    int args = streams < 0 ? 0 : argc - streams - 1;
    if (args == 0 || args % 2 != 0) return 0;
    for (int i = 0; i < args / 2; i++) result->keys.push_back({streams + 1 + i, 0});
    return args / 2;
}

/* The keys of `db` that clients wait on and that now exist (Redis's
 * scanDatabaseForReadyKeys): dbAdd signals a key only as it enters, and a
 * SWAPDB brings in a whole keyspace at once. */
static void scanDatabaseForReadyKeys(redisDb *db) {
    if (server.blocked_clients == 0) return;
    for (auto &bk : db->blocking_keys)
        if (db->dict.find(bk.key.view())) signalKeyAsReady(db, bk.key.view());
}

/* dbSwapDatabases: the keyspaces (keys and TTLs) change places; WATCH,
 * blocking and ready keys stay with their database number, since the
 * clients stay in the database they selected. */
static void dbSwapDatabases(redisDb *db1, redisDb *db2) {
    touch_all_watched_keys_in_db(db1, db2);
    touch_all_watched_keys_in_db(db2, db1);
    scanDatabaseForDeletedStreams(db1, db2);
    scanDatabaseForDeletedStreams(db2, db1);
    db1->dict.swap(db2->dict);
    db1->expires.swap(db2->expires);
    std::swap(db1->avg_ttl, db2->avg_ttl);
    std::swap(db1->expires_cursor, db2->expires_cursor);
    scanDatabaseForReadyKeys(db1);
    scanDatabaseForReadyKeys(db2);
}

/* SWAPDB index1 index2 */
void swapdbCommand(client *c) {
    long id1, id2;
    if (!getRangeLongFromObjectOrReply(c, c->argv[1], INT_MIN, INT_MAX, &id1, "invalid first DB index") ||
        !getRangeLongFromObjectOrReply(c, c->argv[2], INT_MIN, INT_MAX, &id2, "invalid second DB index"))
        return;
    if (id1 < 0 || id1 >= server.dbnum || id2 < 0 || id2 >= server.dbnum) {
        addReplyError(c, "DB index is out of range");
        return;
    }
    if (id1 != id2) dbSwapDatabases(&server.db[id1], &server.db[id2]);
    server.dirty++;
    addReply(c, shared::ok);
}

/* TOUCH key [key ...]: how many exist; each is looked up as a read, which
 * refreshes its LRU clock or LFU counter. */
void touchCommand(client *c) {
    long long touched = 0;
    for (size_t j = 1; j < c->argv.size(); j++)
        if (lookupKeyRead(c->db, c->argv[j])) touched++;
    addReplyLongLong(c, touched);
}
