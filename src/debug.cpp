/* debug.cpp — the DEBUG command (Redis's debug.c): introspection and fault
 * injection for tests and learners. Every subsystem's subcommands are here
 * (ZIPLIST, RELOAD...).
 *
 * DEBUG DIGEST is Redis's computeDatasetDigest, so the same data gives the
 * same 40 hex digits on cppredis and Redis whatever the encodings: each
 * key's digest mixes (SHA-1 over the running digest) its name, its type,
 * and its elements — mixed in order for a list, XORed in for the
 * unordered types — plus a mark if it has a TTL; the keys' digests are
 * XORed together per database, so key order does not matter.
 */
#include "debug.h"

#include <unistd.h>

#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#if defined(USE_JEMALLOC)
#include <jemalloc/jemalloc.h>
#endif

#include "aof.h"
#include "functions.h"
#include "rdb.h"
#include "replication.h"
#include "server.h"
#include "sha1.h"
#include "t_hash.h"
#include "t_list.h"
#include "t_set.h"
#include "t_stream.h"
#include "t_zset.h"
#include "util.h"

/* Redis 7.0's entries, in its order and words, for the subcommands that
 * exist here (ZIPLIST in Redis 6.2's words; RELOAD's NOFLUSH says what
 * cppredis does instead of crashing). MALLCTL and MALLCTL-STR exist only
 * with jemalloc, as in Redis. */
static void debugHelp(client *c) {
    static const char *const help[] = {
        "CHANGE-REPL-ID",
        "    Change the replication IDs of the instance.",
        "    Dangerous: should be used only for testing the replication subsystem.",
        "DIGEST",
        "    Output a hex signature representing the current DB content.",
        "DIGEST-VALUE <key> [<key> ...]",
        "    Output a hex signature of the values of all the specified keys.",
        "HTSTATS <dbid>",
        "    Return hash table statistics of the specified Redis database.",
        "HTSTATS-KEY <key>",
        "    Like HTSTATS but for the hash table stored at <key>'s value.",
        "LOADAOF",
        "    Flush the AOF buffers on disk and reload the AOF in memory.",
#if defined(USE_JEMALLOC)
        "MALLCTL <key> [<val>]",
        "    Get or set a malloc tuning integer.",
        "MALLCTL-STR <key> [<val>]",
        "    Get or set a malloc tuning string.",
#endif
        "OBJECT <key>",
        "    Show low level info about `key` and associated value.",
        "POPULATE <count> [<prefix>] [<size>]",
        "    Create <count> string keys named key:<num>. If <prefix> is specified then",
        "    it is used instead of the 'key' prefix. These are not propagated to",
        "    replicas. Cluster slots are not respected so keys not belonging to the",
        "    current node can be created in cluster mode.",
        "PROTOCOL <type>",
        "    Reply with a test value of the specified type. <type> can be: string,",
        "    integer, double, bignum, null, array, set, map, attrib, push, verbatim,",
        "    true, false.",
        "RELOAD [option ...]",
        "    Save the RDB on disk and reload it back to memory. Valid <option> values:",
        "    * MERGE: conflicting keys will be loaded from RDB.",
        "    * NOFLUSH: the existing database will not be removed before load, but",
        "      conflicting keys will make the load fail.",
        "    * NOSAVE: the database will be loaded from an existing RDB file.",
        "    Examples:",
        "    * DEBUG RELOAD: verify that the server is able to persist, flush and reload",
        "      the database.",
        "    * DEBUG RELOAD NOSAVE: replace the current database with the contents of an",
        "      existing RDB file.",
        "    * DEBUG RELOAD NOSAVE NOFLUSH MERGE: add the contents of an existing RDB",
        "      file to the database.",
        "SET-ACTIVE-EXPIRE <0|1>",
        "    Setting it to 0 disables expiring keys in background when they are not",
        "    accessed (otherwise the Redis behavior). Setting it to 1 reenables back the",
        "    default.",
        "SLEEP <seconds>",
        "    Stop the server for <seconds>. Decimals allowed.",
        "STRINGMATCH-TEST",
        "    Run a fuzz tester against the stringmatchlen() function.",
        "LISTPACK <key>",
        "    Show low level info about the listpack encoding of <key>.",
        "ZIPLIST <key>",
        "    Show low level info about the ziplist encoding of <key>.",
        nullptr};
    addReplyHelp(c, help);
}

/* DEBUG OBJECT <key>: the value's address, reference count, encoding and LRU
 * stamp. Like Redis it reads the dict directly (no lazy expiry, no touch). */
static void debugObject(client *c) {
    auto *de = c->db->dict.find(c->argv[2]);
    if (!de) return addReplyErrorObject(c, shared::nokeyerr);
    const robj *val = de->val.get();
    char line[256];
    snprintf(line, sizeof(line),
             "Value at:%p refcount:%d encoding:%s serializedlength:%zu lru:%d lru_seconds_idle:%llu",
             static_cast<const void *>(val), val->refcount, strEncoding(val->encoding), rdbSavedObjectLen(val),
             static_cast<int>(val->lru), estimateObjectIdleTime(val) / 1000);
    addReplyStatus(c, line);
}

/* DEBUG ZIPLIST <key>: every entry of a ziplist-encoded value (offset,
 * prevlen, encoding, header bytes, value) goes to the log, for readers of
 * the ziplist chapter. Redis 2.6 had no such subcommand; Redis 4.0 to 6.2
 * printed the same table on stdout, which is where cppredis's log goes
 * unless `logfile` is set. */
static void debugZiplist(client *c) {
    const robj *o = lookupKeyReadWithFlags(c->db, c->argv[2], LOOKUP_NOTOUCH | LOOKUP_NONOTIFY);
    if (!o) return addReplyErrorObject(c, shared::nokeyerr);
    if (o->encoding != OBJ_ENCODING_ZIPLIST) return addReplyError(c, "Not a ziplist encoded object.");
    std::string key(c->argv[2]);
    serverLog(LL_NOTICE, "DEBUG ZIPLIST %s", key.c_str());
    /* Line by line: a log message is cut at 1 KB, the table is not. */
    std::string table = objectZiplist(o).repr();
    for (size_t pos = 0, eol; pos < table.size(); pos = eol + 1) {
        eol = table.find('\n', pos);
        serverLog(LL_NOTICE | LL_RAW, "%.*s\n", static_cast<int>(eol - pos), table.data() + pos);
    }
    addReplyStatus(c, "Ziplist structure printed on stdout");
}

/* DEBUG LISTPACK <key>: Redis 7.0 dumps a listpack-encoded value. Values
 * here are never listpack-encoded (small hashes, lists and sorted sets are
 * ziplists, DEBUG ZIPLIST's; a stream's nodes are listpacks but the value's
 * encoding is "stream", which Redis refuses as well), so every existing key
 * gets Redis's refusal. */
static void debugListpack(client *c) {
    if (!lookupKeyReadWithFlags(c->db, c->argv[2], LOOKUP_NOTOUCH | LOOKUP_NONOTIFY))
        return addReplyErrorObject(c, shared::nokeyerr);
    addReplyError(c, "Not a listpack encoded object.");
}

/* DEBUG POPULATE <count> [<prefix>] [<size>]: keys <prefix>:0 ... with
 * values "value:<n>", or that text padded with zero bytes (or cut) to
 * <size> bytes. Existing keys are left alone. Not propagated (server.dirty
 * does not move), as in Redis. */
static void debugPopulate(client *c) {
    long keys = 0, valsize = 0;
    if (!getPositiveLongFromObjectOrReply(c, c->argv[2], &keys)) return;
    /* Sizing the table up front is only a saving: a count too big to
     * allocate buckets for goes on without it. */
    try {
        c->db->dict.expand(static_cast<size_t>(keys));
    } catch (const std::bad_alloc &) {
    }
    if (c->argv.size() == 5 && !getPositiveLongFromObjectOrReply(c, c->argv[4], &valsize)) return;
    std::string prefix(c->argv.size() >= 4 ? c->argv[3] : std::string_view("key"));
    std::string key, val;
    for (long j = 0; j < keys; j++) {
        key = prefix + ':' + std::to_string(j);
        if (lookupKeyWrite(c->db, key)) continue;
        val = "value:" + std::to_string(j);
        if (valsize) val.resize(static_cast<size_t>(valsize), '\0');
        dbAdd(c->db, key, createStringObject(val));
        signalModifiedKey(c, c->db, key);
    }
    addReply(c, shared::ok);
}

/* DEBUG PROTOCOL <type>: one value of each RESP3 type, written through the
 * typed reply functions, so a client library can test its parser; RESP2
 * connections get each type's RESP2 form, as from any command. */
static void debugProtocol(client *c) {
    std::string_view name = c->argv[2];
    if (strEqualNoCase(name, "string")) {
        addReplyBulk(c, "Hello World");
    } else if (strEqualNoCase(name, "integer")) {
        addReplyLongLong(c, 12345);
    } else if (strEqualNoCase(name, "double")) {
        addReplyDouble(c, 3.141);
    } else if (strEqualNoCase(name, "bignum")) {
        addReplyBigNum(c, "1234567999999999999999999999999999999");
    } else if (strEqualNoCase(name, "null")) {
        addReplyNull(c);
    } else if (strEqualNoCase(name, "array")) {
        addReplyArrayLen(c, 3);
        for (int j = 0; j < 3; j++) addReplyLongLong(c, j);
    } else if (strEqualNoCase(name, "set")) {
        addReplySetLen(c, 3);
        for (int j = 0; j < 3; j++) addReplyLongLong(c, j);
    } else if (strEqualNoCase(name, "map")) {
        addReplyMapLen(c, 3);
        for (int j = 0; j < 3; j++) {
            addReplyLongLong(c, j);
            addReplyBool(c, j == 1);
        }
    } else if (strEqualNoCase(name, "attrib")) {
        /* RESP2 has no attributes: only the reply they decorate. */
        if (c->resp >= 3) {
            addReplyAttributeLen(c, 1);
            addReplyBulk(c, "key-popularity");
            addReplyArrayLen(c, 2);
            addReplyBulk(c, "key:123");
            addReplyLongLong(c, 90);
        }
        addReplyBulk(c, "Some real reply following the attribute");
    } else if (strEqualNoCase(name, "push")) {
        if (c->resp < 3) return addReplyError(c, "RESP2 is not supported by this command");
        {
            clientPushingScope pushing(c);
            addReplyPushLen(c, 2);
            addReplyBulk(c, "server-cpu-usage");
            addReplyLongLong(c, 42);
        }
        /* A push is not the command's reply: a client waiting for the
         * reply skips the push and reads this. */
        addReplyBulk(c, "Some real reply following the push reply");
    } else if (strEqualNoCase(name, "true")) {
        addReplyBool(c, true);
    } else if (strEqualNoCase(name, "false")) {
        addReplyBool(c, false);
    } else if (strEqualNoCase(name, "verbatim")) {
        addReplyVerbatim(c, "This is a verbatim\nstring", "txt");
    } else {
        addReplyError(c, "Wrong protocol type name. Please use one of the following: "
                         "string|integer|double|bignum|null|array|set|map|attrib|push|verbatim|true|false");
    }
}

/* DEBUG SET-ACTIVE-EXPIRE <0|1>: read as C's atoi, as Redis reads it (so
 * anything not starting with a non-zero number turns it off). */
static void debugSetActiveExpire(client *c) {
    server.active_expire_enabled = std::atoi(std::string(c->argv[2]).c_str()) != 0;
    addReply(c, shared::ok);
}

/* DEBUG HTSTATS <dbid>: the keyspace's and the expires' tables. */
static void debugHtstats(client *c) {
    long dbid = 0;
    if (!getLongFromObjectOrReply(c, c->argv[2], &dbid)) return;
    if (dbid < 0 || dbid >= server.dbnum) return addReplyError(c, "Out of range database");
    redisDb &db = server.db[dbid];
    std::string stats = "[Dictionary HT]\n" + db.dict.stats() + "[Expires HT]\n" + db.expires.stats();
    addReplyVerbatim(c, stats, "txt");
}

/* DEBUG HTSTATS-KEY <key>: the table of a hash, set or sorted set that
 * has one (a sorted set's member -> score dict). */
static void debugHtstatsKey(client *c) {
    const robj *o = lookupKeyReadWithFlags(c->db, c->argv[2], LOOKUP_NOTOUCH | LOOKUP_NONOTIFY);
    if (!o) return addReplyErrorObject(c, shared::nokeyerr);
    std::string stats;
    if (o->encoding == OBJ_ENCODING_SKIPLIST) stats = objectZset(o).dict.stats();
    else if (o->encoding == OBJ_ENCODING_HT && o->type == OBJ_HASH) stats = objectHashDict(o).stats();
    else if (o->encoding == OBJ_ENCODING_HT && o->type == OBJ_SET) stats = objectSetDict(o).stats();
    else return addReplyError(c, "The value stored at the specified key is not represented using an hash table");
    addReplyVerbatim(c, stats, "txt");
}

/* DEBUG CHANGE-REPL-ID: a new history, and none before it. */
static void debugChangeReplId(client *c) {
    serverLog(LL_WARNING, "Changing replication IDs after receiving DEBUG change-repl-id");
    changeReplicationId();
    clearReplicationId2();
    addReply(c, shared::ok);
}

/* DEBUG STRINGMATCH-TEST: Redis's stringmatchlen_fuzz_test, ten million
 * random patterns against random strings (bytes below 128, up to 31
 * long); passing means not crashing (nor recursing without end). */
static void debugStringmatchTest(client *c) {
    char str[32], pat[32];
    for (int cycles = 10000000; cycles--;) {
        int slen = rand() % static_cast<int>(sizeof(str));
        int plen = rand() % static_cast<int>(sizeof(pat));
        for (int j = 0; j < slen; j++) str[j] = static_cast<char>(rand() % 128);
        for (int j = 0; j < plen; j++) pat[j] = static_cast<char>(rand() % 128);
        stringmatchlen(std::string_view(pat, plen), std::string_view(str, slen), false);
    }
    addReplyStatus(c, "Apparently Redis did not crash: test passed");
}

#if defined(USE_JEMALLOC)
/* DEBUG MALLCTL <key> [<val>]: an integer option of jemalloc, read (and
 * written). Its width is unknown: 64 bits are tried first, then 32, 16
 * and 8 while jemalloc says EINVAL; a write-only option is just written.
 * Errors are strerror's text, as Redis replies them. */
static void debugMallctlInt(client *c) {
    std::string key(c->argv[2]);
    bool write = c->argv.size() > 3;
    int64_t old = 0, val = 0;
    if (write) {
        long long ll;
        if (!getLongLongFromObjectOrReply(c, c->argv[3], &ll)) return;
        val = ll;
    }
    for (size_t sz = sizeof(old); sz > 0; sz /= 2) {
        int ret = mallctl(key.c_str(), &old, &sz, write ? &val : nullptr, write ? sz : 0);
        if (ret == 0) return addReplyLongLong(c, old); /* little-endian: the low bytes were written */
        if (ret == EPERM && write) {
            ret = mallctl(key.c_str(), nullptr, nullptr, &val, sz);
            if (ret == 0) return addReply(c, shared::ok);
        }
        if (ret != EINVAL) return addReplyError(c, strerror(ret));
    }
    addReplyError(c, strerror(EINVAL));
}

/* DEBUG MALLCTL-STR <key> [<val>]: a string option; the value VOID writes
 * nothing (an action like thread.tcache.flush). The old value is replied
 * when it could be read, else the write's outcome. */
static void debugMallctlString(client *c) {
    std::string key(c->argv[2]);
    bool write = c->argv.size() > 3;
    const char *old = nullptr;
    size_t sz = sizeof(old);
    int rret = mallctl(key.c_str(), &old, &sz, nullptr, 0);
    if (rret != 0 && !(rret == EPERM && write)) return addReplyError(c, strerror(rret));
    int wret = 0;
    if (write) {
        std::string val(c->argv[3]);
        const char *valp = val.c_str();
        if (val == "VOID") wret = mallctl(key.c_str(), nullptr, nullptr, nullptr, 0);
        else wret = mallctl(key.c_str(), nullptr, nullptr, &valp, sizeof(valp));
    }
    if (rret == 0) addReplyBulk(c, old);
    else if (wret != 0) addReplyError(c, strerror(wret));
    else addReply(c, shared::ok);
}
#endif

/* DEBUG SLEEP blocks the whole server on purpose: it shows that one slow
 * command stalls every client of a single-threaded event loop. */
static void debugSleep(client *c) {
    double dtime = 0;
    if (c->argv.size() != 3 || !string2d(c->argv[2], &dtime) || dtime < 0)
        return addReplyError(c, "value is not a valid float");
    long long utime = static_cast<long long>(dtime * 1000000);
    timespec tv{static_cast<time_t>(utime / 1000000), static_cast<long>((utime % 1000000) * 1000)};
    nanosleep(&tv, nullptr);
    addReply(c, shared::ok);
}

void debugDelay(int usec) {
    long long us = usec;
    if (us < 0) us = rand() % -us == 0 ? 1 : 0; /* -us: INT_MIN's negation fits a long long */
    if (us == 0) return;
    timespec tv{static_cast<time_t>(us / 1000000), static_cast<long>((us % 1000000) * 1000)};
    nanosleep(&tv, nullptr);
}

/* ------------------------------------------------------------------------
 * DEBUG DIGEST and DIGEST-VALUE
 * ---------------------------------------------------------------------- */

using Digest = std::array<unsigned char, 20>;

/* digest ^= SHA1(bytes): the order of such steps does not matter. */
static void xorDigest(Digest &digest, std::string_view bytes) {
    unsigned char hash[20];
    sha1(hash, bytes.data(), bytes.size());
    for (size_t j = 0; j < digest.size(); j++) digest[j] ^= hash[j];
}

static std::string_view digestBytes(const Digest &digest) {
    return {reinterpret_cast<const char *>(digest.data()), digest.size()};
}

/* digest = SHA1(digest ^ SHA1(bytes)): the order of such steps matters. */
static void mixDigest(Digest &digest, std::string_view bytes) {
    xorDigest(digest, bytes);
    Digest mixed;
    sha1(mixed.data(), digest.data(), digest.size());
    digest = mixed;
}

/* A sorted set member and its score ("%.17g", as Redis 7.0 prints it). */
static void xorZsetElementDigest(Digest &digest, std::string_view member, double score) {
    Digest ele{};
    char buf[128];
    mixDigest(ele, member);
    mixDigest(ele, std::string_view(buf, static_cast<size_t>(snprintf(buf, sizeof(buf), "%.17g", score))));
    xorDigest(digest, digestBytes(ele));
}

static void xorZsetDigest(Digest &digest, const robj *o) {
    if (o->encoding == OBJ_ENCODING_ZIPLIST) {
        const ziplist &zl = objectZiplist(o);
        char buf[LONG_STR_SIZE];
        for (zlpos p = zl.index(0); p; p = zl.next(zl.next(p)))
            xorZsetElementDigest(digest, listTypeValueView(zl.get(p), buf), zzlGetScore(zl, zl.next(p)));
        return;
    }
    for (const zskiplistNode *node = objectZset(o).zsl.header->level[0].forward; node; node = node->level[0].forward)
        xorZsetElementDigest(digest, node->ele(), node->score);
}

static void xorHashDigest(Digest &digest, robj *o) {
    char fbuf[LONG_STR_SIZE], vbuf[LONG_STR_SIZE];
    for (hashTypeIterator hi(o); hashTypeNext(&hi);) {
        Digest ele{};
        mixDigest(ele, hashTypeValueView(hashTypeCurrent(&hi, OBJ_HASH_KEY), fbuf));
        mixDigest(ele, hashTypeValueView(hashTypeCurrent(&hi, OBJ_HASH_VALUE), vbuf));
        xorDigest(digest, digestBytes(ele));
    }
}

/* Each entry's "<ms>.<seq>" then its fields and values, in order (the
 * groups are not in the digest, as in Redis). */
static void mixStreamDigest(Digest &digest, robj *o) {
    streamIterator si;
    streamIteratorStart(&si, &objectStream(o), nullptr, nullptr, false);
    streamID id;
    int64_t numfields;
    while (streamIteratorGetID(&si, &id, &numfields)) {
        mixDigest(digest, std::to_string(id.ms) + "." + std::to_string(id.seq));
        for (std::string_view field, value; numfields--;) {
            streamIteratorGetField(&si, &field, &value);
            mixDigest(digest, field);
            mixDigest(digest, value);
        }
    }
}

/* Redis's xorObjectDigest: the type, the elements, the TTL mark. */
static void xorObjectDigest(redisDb *db, std::string_view key, Digest &digest, robj *o) {
    const unsigned char type[4] = {0, 0, 0, static_cast<unsigned char>(o->type)}; /* htonl */
    mixDigest(digest, std::string_view(reinterpret_cast<const char *>(type), 4));
    char buf[LONG_STR_SIZE];
    switch (o->type) {
    case OBJ_STRING: {
        StringBuf sb;
        mixDigest(digest, objectStringView(o, sb));
        break;
    }
    case OBJ_LIST: {
        listTypeIterator li = listTypeInitIterator(o, 0, LIST_TAIL);
        for (listTypeEntry entry; listTypeNext(&li, &entry);) mixDigest(digest, listTypeValueView(listTypeGet(&entry), buf));
        break;
    }
    case OBJ_SET: {
        setTypeIterator si(o);
        for (setTypeValue v; setTypeNext(&si, &v);) xorDigest(digest, setTypeValueView(v, buf));
        break;
    }
    case OBJ_ZSET: xorZsetDigest(digest, o); break;
    case OBJ_HASH: xorHashDigest(digest, o); break;
    case OBJ_STREAM: mixStreamDigest(digest, o); break;
    default: break;
    }
    if (getExpire(db, key) != -1) xorDigest(digest, "!!expire!!");
}

static void addReplyDigest(client *c, const Digest &digest) {
    static constexpr char hex[] = "0123456789abcdef";
    char out[41];
    for (size_t j = 0; j < digest.size(); j++) {
        out[2 * j] = hex[digest[j] >> 4];
        out[2 * j + 1] = hex[digest[j] & 15];
    }
    addReplyStatus(c, std::string_view(out, 40));
}

/* DEBUG DIGEST: all zeros for an empty dataset. */
static void debugDigest(client *c) {
    Digest final{};
    for (int j = 0; j < server.dbnum; j++) {
        redisDb &db = server.db[j];
        if (db.dict.size() == 0) continue;
        /* The db id goes in, so the same data in another db differs. */
        const unsigned char id[4] = {static_cast<unsigned char>(j >> 24), static_cast<unsigned char>(j >> 16),
                                     static_cast<unsigned char>(j >> 8), static_cast<unsigned char>(j)};
        mixDigest(final, std::string_view(reinterpret_cast<const char *>(id), 4));
        for (auto &de : db.dict) {
            Digest digest{};
            mixDigest(digest, de.key);
            xorObjectDigest(&db, de.key, digest, de.val.get());
            xorDigest(final, digestBytes(digest));
        }
    }
    addReplyDigest(c, final);
}

/* DEBUG DIGEST-VALUE key...: each value's digest, zeros for a missing key. */
static void debugDigestValue(client *c) {
    addReplyArrayLen(c, static_cast<long long>(c->argv.size() - 2));
    for (size_t j = 2; j < c->argv.size(); j++) {
        Digest digest{};
        if (robj *o = lookupKeyReadWithFlags(c->db, c->argv[j], LOOKUP_NOTOUCH))
            xorObjectDigest(c->db, c->argv[j], digest, o);
        addReplyDigest(c, digest);
    }
}

/* ------------------------------------------------------------------------
 * DEBUG RELOAD [MERGE] [NOFLUSH] [NOSAVE]: save, empty, load, in place.
 * Where Redis crashes on a key loaded twice (NOFLUSH without MERGE) or
 * exits on a corrupt file, cppredis replies the error and keeps running
 * with what was loaded.
 * ---------------------------------------------------------------------- */

static void debugReload(client *c) {
    bool flush = true, save = true;
    int flags = RDBFLAGS_NONE;
    for (size_t j = 2; j < c->argv.size(); j++) {
        if (strEqualNoCase(c->argv[j], "merge")) flags |= RDBFLAGS_ALLOW_DUP;
        else if (strEqualNoCase(c->argv[j], "noflush")) flush = false;
        else if (strEqualNoCase(c->argv[j], "nosave")) save = false;
        else return addReplyError(c, "DEBUG RELOAD only supports the MERGE, NOFLUSH and NOSAVE options.");
    }
    if (save && rdbSave(server.rdb_filename.c_str()) != C_OK) return addReplyError(c, "-ERR");
    if (flush) {
        signalFlushedDb(-1);
        emptyData(-1, EMPTYDB_NO_FLAGS);
        functionsLibCtxClearCurrent();
    }
    if (rdbLoad(server.rdb_filename.c_str(), flags) != C_OK)
        return addReplyError(c, "Error trying to load the RDB dump");
    serverLog(LL_WARNING, "DB reloaded by DEBUG RELOAD");
    addReply(c, shared::ok);
}

/* Subcommands that this server has not (QUICKLIST, QUICKLIST-PACKED-THRESHOLD,
 * STRUCTSIZE, SDSLEN, the crash and cluster ones...), and MALLCTL without
 * jemalloc, get Redis's reply for a subcommand it does not know, which is
 * also what Redis 7.0 replies to MALLCTL when built without jemalloc. */
void debugCommand(client *c) {
    std::string_view sub = c->argv[1];
    size_t argc = c->argv.size();
    if (strEqualNoCase(sub, "help")) return debugHelp(c);
    if (strEqualNoCase(sub, "object") && c->argv.size() == 3) return debugObject(c);
    if (strEqualNoCase(sub, "reload")) return debugReload(c);
    if (strEqualNoCase(sub, "digest") && c->argv.size() == 2) return debugDigest(c);
    if (strEqualNoCase(sub, "digest-value")) return debugDigestValue(c);
    if (strEqualNoCase(sub, "loadaof") && c->argv.size() == 2) return debugLoadAof(c);
    if (strEqualNoCase(sub, "sleep")) return debugSleep(c);
    if (strEqualNoCase(sub, "ziplist") && argc == 3) return debugZiplist(c);
    if (strEqualNoCase(sub, "listpack") && argc == 3) return debugListpack(c);
    if (strEqualNoCase(sub, "populate") && argc >= 3 && argc <= 5) return debugPopulate(c);
    if (strEqualNoCase(sub, "protocol") && argc == 3) return debugProtocol(c);
    if (strEqualNoCase(sub, "set-active-expire") && argc == 3) return debugSetActiveExpire(c);
    if (strEqualNoCase(sub, "htstats") && argc == 3) return debugHtstats(c);
    if (strEqualNoCase(sub, "htstats-key") && argc == 3) return debugHtstatsKey(c);
    if (strEqualNoCase(sub, "change-repl-id") && argc == 2) return debugChangeReplId(c);
    if (strEqualNoCase(sub, "stringmatch-test") && argc == 2) return debugStringmatchTest(c);
#if defined(USE_JEMALLOC)
    if (strEqualNoCase(sub, "mallctl") && argc >= 3) return debugMallctlInt(c);
    if (strEqualNoCase(sub, "mallctl-str") && argc >= 3) return debugMallctlString(c);
#endif
    addReplySubcommandSyntaxError(c);
}
