/* debug.cpp — the DEBUG command: introspection and fault injection for
 * tests and learners (Redis's debug.c). Each later subsystem adds its
 * subcommands here (ZIPLIST, RELOAD...).
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
#include <cmath>
#include <cstdint>

#include "aof.h"
#include "functions.h"
#include "rdb.h"
#include "server.h"
#include "sha1.h"
#include "t_hash.h"
#include "t_list.h"
#include "t_set.h"
#include "t_stream.h"
#include "t_zset.h"
#include "util.h"

static void debugHelp(client *c) {
    static const char *const help[] = {
        "DIGEST",
        "    Output a hex signature representing the current DB content.",
        "DIGEST-VALUE <key> [<key> ...]",
        "    Output a hex signature of the values of all the specified keys.",
        "LOADAOF",
        "    Flush the AOF buffers on disk and reload the AOF in memory.",
        "OBJECT <key>",
        "    Show low level info about `key` and associated value.",
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
        "SLEEP <seconds>",
        "    Stop the server for <seconds>. Decimals allowed.",
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
    addReply(c, shared::ok);
}

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

void debugCommand(client *c) {
    std::string_view sub = c->argv[1];
    if (strEqualNoCase(sub, "help")) return debugHelp(c);
    if (strEqualNoCase(sub, "object") && c->argv.size() == 3) return debugObject(c);
    if (strEqualNoCase(sub, "reload")) return debugReload(c);
    if (strEqualNoCase(sub, "digest") && c->argv.size() == 2) return debugDigest(c);
    if (strEqualNoCase(sub, "digest-value")) return debugDigestValue(c);
    if (strEqualNoCase(sub, "loadaof") && c->argv.size() == 2) return debugLoadAof(c);
    if (strEqualNoCase(sub, "sleep")) return debugSleep(c);
    if (strEqualNoCase(sub, "ziplist") && c->argv.size() == 3) return debugZiplist(c);
    addReplySubcommandSyntaxError(c);
}
