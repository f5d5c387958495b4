/* rdb.h — RDB snapshots (Redis's rdb.c): the dataset written to one binary
 * file and read back. SAVE writes it from the server itself, BGSAVE and
 * the `save <seconds> <changes>` points from a forked child while the
 * parent keeps serving; the file is loaded at start-up.
 *
 * The file (what rdbSaveRio writes, Redis 2.6's version 6; version 10,
 * Redis 7.0's, when it holds a stream or functions, which older versions
 * lack):
 *
 *   "REDIS0006"                         or "REDIS0010"
 *   [AUX "aof-base" "1"]                the base of a multi-part AOF (10)
 *   [FUNCTION2 <library code>]          each function library, if any (10)
 *   SELECTDB <dbid>                     before the keys of each non-empty db
 *   [RESIZEDB <keys> <keys with TTL>]   in an AOF base: the loader presizes
 *   [EXPIRETIME_MS <unix ms, 8 bytes>]  then for each key
 *   <type> <key> <value>
 *   EOF <CRC-64 of everything before, 8 bytes; 0 when rdbchecksum is no>
 *
 * Lengths take 1, 2, 5 or 9 bytes by magnitude (rdbSaveLen); a string is a
 * length and its bytes, or an integer in 1, 2 or 4 bytes when it is one, or
 * LZF-compressed when that saves room (rdbcompression). A value is saved in
 * its encoding's own type: a ziplist (list, hash, sorted set) or an intset
 * as the blob itself — byte-identical to Redis's, so Redis reads it — and a
 * linkedlist, hash table or skiplist as a count and its elements. A stream
 * is saved as Redis 7.0 saves it (RDB_TYPE_STREAM_LISTPACKS_2): its nodes'
 * listpacks as they are, then its IDs and counters, its groups, their
 * pending entries and consumers.
 *
 * Loading takes versions 1 to 10, so files written by Redis 7.0 load too:
 * its listpack and quicklist payloads are decoded and rebuilt in cppredis's
 * encodings, within the configured limits; streams (Redis 5 - 7.0's two
 * types) keep their nodes' listpacks, once checked.
 *
 * Invariants:
 *  - A file is written as temp-<pid>.rdb, fsynced, then renamed over the
 *    old one, and the directory fsynced before the save counts as done: a
 *    crash or a failed save never leaves a half-written dump.rdb.
 *  - A file that cannot be loaded stops start-up (exit code 1) before
 *    anything could save over it.
 *  - server.dirty counts the changes since the last successful save; a
 *    finished BGSAVE subtracts only what was dirty when it forked.
 */
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "object.h"

class rio;

/* The version written, the one written when a stream is in the dataset,
 * and the newest one read. */
constexpr int RDB_VERSION = 6;
constexpr int RDB_VERSION_STREAMS = 10;
constexpr int RDB_LOAD_VERSION_MAX = 10;

/* Value types (Redis's RDB_TYPE_*): those a file may hold. */
constexpr int RDB_TYPE_STRING = 0, RDB_TYPE_LIST = 1, RDB_TYPE_SET = 2, RDB_TYPE_ZSET = 3, RDB_TYPE_HASH = 4,
              RDB_TYPE_ZSET_2 = 5, RDB_TYPE_MODULE = 6, RDB_TYPE_MODULE_2 = 7, RDB_TYPE_HASH_ZIPMAP = 9,
              RDB_TYPE_LIST_ZIPLIST = 10, RDB_TYPE_SET_INTSET = 11, RDB_TYPE_ZSET_ZIPLIST = 12,
              RDB_TYPE_HASH_ZIPLIST = 13, RDB_TYPE_LIST_QUICKLIST = 14, RDB_TYPE_STREAM_LISTPACKS = 15,
              RDB_TYPE_HASH_LISTPACK = 16, RDB_TYPE_ZSET_LISTPACK = 17, RDB_TYPE_LIST_QUICKLIST_2 = 18,
              RDB_TYPE_STREAM_LISTPACKS_2 = 19;
/* Opcodes between keys. */
constexpr int RDB_OPCODE_FUNCTION2 = 245, RDB_OPCODE_FUNCTION = 246, RDB_OPCODE_MODULE_AUX = 247,
              RDB_OPCODE_IDLE = 248, RDB_OPCODE_FREQ = 249, RDB_OPCODE_AUX = 250, RDB_OPCODE_RESIZEDB = 251,
              RDB_OPCODE_EXPIRETIME_MS = 252, RDB_OPCODE_EXPIRETIME = 253, RDB_OPCODE_SELECTDB = 254,
              RDB_OPCODE_EOF = 255;
/* Quicklist 2 node containers. */
constexpr uint64_t QUICKLIST_NODE_CONTAINER_PLAIN = 1, QUICKLIST_NODE_CONTAINER_PACKED = 2;

/* Length encodings: the two high bits of the first byte. */
constexpr unsigned RDB_6BITLEN = 0, RDB_14BITLEN = 1, RDB_ENCVAL = 3;
constexpr unsigned char RDB_32BITLEN = 0x80, RDB_64BITLEN = 0x81;
/* Special string encodings (RDB_ENCVAL): an integer of 8, 16, 32 bits, or LZF. */
constexpr unsigned RDB_ENC_INT8 = 0, RDB_ENC_INT16 = 1, RDB_ENC_INT32 = 2, RDB_ENC_LZF = 3;

/* rdbLoad flags: RELOAD's MERGE lets a loaded key replace one in memory.
 * rdbSaveRio's: the file is a multi-part AOF's base (aof.cpp). */
constexpr int RDBFLAGS_NONE = 0, RDBFLAGS_ALLOW_DUP = 1 << 0, RDBFLAGS_AOF_PREAMBLE = 1 << 1;

/* Why a load stopped: the file ended early (or a read failed), its bytes
 * make no sense, or it holds what cppredis refuses to load (a version from
 * the future, modules, functions). */
class RdbLoadError : public std::runtime_error {
public:
    enum Kind { ShortRead, Corrupt, Unsupported };
    RdbLoadError(const std::string &what, Kind kind) : std::runtime_error(what), kind(kind) {}
    Kind kind;
};

/* ---- writing (false on a write error) ---------------------------------- */
bool rdbSaveType(rio &rdb, unsigned char type);
/* Each function library as an RDB_OPCODE_FUNCTION2 record: its code. */
bool rdbSaveFunctions(rio &rdb);
bool rdbSaveLen(rio &rdb, uint64_t len);
bool rdbSaveMillisecondTime(rio &rdb, long long t);
/* A string as an integer, LZF-compressed or as is, whichever fits best
 * (compression only with server.rdb_compression). */
bool rdbSaveRawString(rio &rdb, std::string_view s);
bool rdbSaveStringObject(rio &rdb, const robj *o);
bool rdbSaveObjectType(rio &rdb, const robj *o);
bool rdbSaveObject(rio &rdb, const robj *o);
bool rdbSaveKeyValuePair(rio &rdb, std::string_view key, const robj *val, long long expiretime);
/* The whole file: header, every database, EOF and checksum. */
bool rdbSaveRio(rio &rdb, int rdbflags = RDBFLAGS_NONE);
/* DEBUG OBJECT's serializedlength: the bytes rdbSaveObject would write. */
size_t rdbSavedObjectLen(const robj *o);

/* ---- reading (throw RdbLoadError) -------------------------------------- */
int rdbLoadType(rio &rdb);
/* A length, or with *isencoded set, a special string encoding (RDB_ENC_*). */
uint64_t rdbLoadLen(rio &rdb, bool *isencoded = nullptr);
long long rdbLoadMillisecondTime(rio &rdb);
/* A string in any encoding, integers as their decimal text. */
std::string rdbGenericLoadStringObject(rio &rdb);
/* The library code of an RDB_OPCODE_FUNCTION2 record (or of Redis
 * 7.0-rc's RDB_OPCODE_FUNCTION, given its shebang line back). */
std::string rdbFunctionLoad(rio &rdb, int type);
/* A value of `rdbtype`; empty when it holds no element (the key is then
 * skipped, as Redis does). */
ObjRef rdbLoadObject(int rdbtype, rio &rdb);
/* The whole file into the databases (which must not hold the same keys,
 * unless RDBFLAGS_ALLOW_DUP). */
void rdbLoadRio(rio &rdb, int rdbflags);

/* ---- files and children -------------------------------------------------- */
/* C_OK, or C_ERR after logging why. */
int rdbSave(const char *filename);
int rdbSaveBackground(const char *filename);
/* Diskless replication (the fork of Redis's rdbSaveToSlavesSockets): a
 * child writes the RDB into a pipe framed for replicas with the EOF
 * capability — "$EOF:<mark>\r\n", the RDB, <mark> — and the parent gets the
 * pipe's read end, non-blocking, in *read_fd (replication_master.cpp
 * relays it to the replicas' sockets). */
int rdbSaveToPipeBackground(std::string_view eofmark, int *read_fd);
/* C_OK; or C_ERR with errno ENOENT for a missing file (nothing logged), or
 * after logging why the file could not be loaded. */
int rdbLoad(const char *filename, int rdbflags);
void rdbRemoveTempFile(pid_t childpid);
/* Sleeps rdb-key-save-delay once per key saved (or rewritten to the AOF). */
void rdbKeySaveDelay();
void killRDBChild();
/* FLUSHALL's persistence step (registerFlushAllResetRDB, db.h): stops a
 * BGSAVE that would write the old dataset and, with save points, saves the
 * empty one at once. */
void flushAllResetRDB();
void backgroundSaveDoneHandler(int exitcode, int bysignal);
/* serverCron's share when no child runs: a save point reached, or a
 * BGSAVE scheduled, starts a background save. */
void rdbSaveCron();
/* Writes are refused (MISCONF) while the last background save has failed,
 * save points are set and stop-writes-on-bgsave-error is on. */
bool rdbWritesDeniedByBgsaveError();

/* SAVE, BGSAVE, LASTSAVE (the command table is in commands.cpp). */
void saveCommand(client *c);
void bgsaveCommand(client *c);
void lastsaveCommand(client *c);

/* Keys in every database: what a save writes (INFO's current_save_keys_total). */
long long dbTotalServerKeyCount();
/* INFO's Persistence section. */
void infoPersistence(std::string &out);
