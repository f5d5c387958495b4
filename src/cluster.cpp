/* cluster.cpp — DUMP, RESTORE and MIGRATE (the part of Redis's cluster.c that does not need a cluster).
 *
 * A DUMP payload is Redis's:
 *
 *   <type byte> <value, as rdbSaveObject writes it> <RDB version, 2 bytes LE> <CRC-64, 8 bytes LE>
 *
 * the CRC-64 (crc64.h) covering everything before it. RESTORE checks the
 * footer before it reads a byte of the value, and refuses a payload from a
 * newer RDB version than the loader knows.
 *
 * MIGRATE opens a fresh blocking connection to the target for each call
 * (Redis caches one per host:port for 10 s; a fresh one costs a connect
 * per call and never finds a stale socket), sends the whole batch (AUTH,
 * SELECT, one RESTORE per key) and reads the replies, each step bounded by
 * the timeout, as Redis's syncWrite/syncReadLine do.
 */
#include "cluster.h"

#include <poll.h>
#include <unistd.h>

#include <cassert>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "anet.h"
#include "crc64.h"
#include "expire.h"
#include "networking.h"
#include "notify.h"
#include "rdb.h"
#include "rio.h"
#include "server.h"
#include "util.h"

namespace {

/* The footer's version: Redis 7.0's, the newest this server reads. The
 * value's types are all readable by a 7.0 loader, and with 7.0's version a
 * string's payload is byte for byte 7.0's. */
constexpr int DUMP_RDB_VERSION = RDB_LOAD_VERSION_MAX;
constexpr size_t DUMP_FOOTER_LEN = 10; /* version (2) + CRC-64 (8) */

void storeLE64(unsigned char *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = static_cast<unsigned char>(v >> (8 * i));
}

}  // namespace

/* ========================================================================
 * DUMP / RESTORE
 * ====================================================================== */

/* createDumpPayload: the serialized value and its footer. */
static std::string createDumpPayload(const robj *o) {
    rioBuffer payload;
    bool ok = rdbSaveObjectType(payload, o) && rdbSaveObject(payload, o);
    unsigned char version[2] = {DUMP_RDB_VERSION & 0xff, (DUMP_RDB_VERSION >> 8) & 0xff};
    ok = ok && payload.write(version, sizeof(version));
    const std::string &bytes = payload.contents();
    unsigned char crc[8];
    storeLE64(crc, crc64(0, reinterpret_cast<const unsigned char *>(bytes.data()), bytes.size()));
    ok = ok && payload.write(crc, sizeof(crc));
    assert(ok && "a buffer write cannot fail");
    (void)ok;
    return payload.contents();
}

/* verifyDumpPayload: a version this server reads and a matching CRC-64. */
static bool verifyDumpPayload(std::string_view p) {
    if (p.size() < DUMP_FOOTER_LEN) return false;
    const auto *footer = reinterpret_cast<const unsigned char *>(p.data() + p.size() - DUMP_FOOTER_LEN);
    unsigned rdbver = footer[0] | (footer[1] << 8);
    if (rdbver > RDB_LOAD_VERSION_MAX) return false;
    unsigned char crc[8];
    storeLE64(crc, crc64(0, reinterpret_cast<const unsigned char *>(p.data()), p.size() - 8));
    return memcmp(crc, footer + 2, 8) == 0;
}

/* The value a verified payload holds; empty when its bytes do not make one
 * (or make an empty collection, which no key may hold). */
static ObjRef loadDumpPayload(std::string_view p) {
    /* The footer stays readable, as in Redis: a value that reads into it
     * (a string whose length says 5 where 3 bytes are left) takes its
     * bytes. */
    rioBuffer payload{std::string(p)};
    try {
        return rdbLoadObject(rdbLoadType(payload), payload);
    } catch (const RdbLoadError &) {
        return {};
    }
}

void dumpCommand(client *c) {
    robj *o = lookupKeyRead(c->db, c->argv[1]);
    if (!o) {
        addReplyNull(c);
        return;
    }
    addReplyBulk(c, createDumpPayload(o));
}

/* Redis's checkAlreadyExpired: a deadline in the past deletes at once,
 * except while loading a file (the key expires once the server is up) and
 * on a replica (its master's DEL will come). */
static bool checkAlreadyExpired(long long when) {
    return when <= server.mstime && !server.loading && server.masterhost.empty();
}

struct restoreOptions {
    bool replace = false, absttl = false;
    long long lfu_freq = -1, lru_idle = -1, lru_clock = -1;
};

/* [REPLACE] [ABSTTL] [IDLETIME seconds] [FREQ frequency]: IDLETIME and
 * FREQ exclude each other (the second one is a syntax error). */
static bool parseRestoreOptions(client *c, restoreOptions &opt) {
    for (size_t j = 4; j < c->argv.size(); j++) {
        std::string_view arg = c->argv[j];
        bool more = j + 1 < c->argv.size();
        if (strEqualNoCase(arg, "replace")) {
            opt.replace = true;
        } else if (strEqualNoCase(arg, "absttl")) {
            opt.absttl = true;
        } else if (strEqualNoCase(arg, "idletime") && more && opt.lfu_freq == -1) {
            if (!getLongLongFromObjectOrReply(c, c->argv[++j], &opt.lru_idle)) return false;
            if (opt.lru_idle < 0) {
                addReplyError(c, "Invalid IDLETIME value, must be >= 0");
                return false;
            }
            opt.lru_clock = LRU_CLOCK();
        } else if (strEqualNoCase(arg, "freq") && more && opt.lru_idle == -1) {
            if (!getLongLongFromObjectOrReply(c, c->argv[++j], &opt.lfu_freq)) return false;
            if (opt.lfu_freq < 0 || opt.lfu_freq > 255) {
                addReplyError(c, "Invalid FREQ value, must be >= 0 and <= 255");
                return false;
            }
        } else {
            addReplyErrorObject(c, shared::syntaxerr);
            return false;
        }
    }
    return true;
}

/* RESTORE key ttl serialized-value [REPLACE] [ABSTTL] [IDLETIME seconds] [FREQ frequency] */
void restoreCommand(client *c) {
    restoreOptions opt;
    if (!parseRestoreOptions(c, opt)) return;

    std::string_view key = c->argv[1];
    if (!opt.replace && lookupKeyWrite(c->db, key)) {
        addReplyError(c, "-BUSYKEY Target key name already exists.");
        return;
    }
    long long ttl;
    if (!getLongLongFromObjectOrReply(c, c->argv[2], &ttl)) return;
    if (ttl < 0) {
        addReplyError(c, "Invalid TTL value, must be >= 0");
        return;
    }
    if (!verifyDumpPayload(c->argv[3])) {
        addReplyError(c, "DUMP payload version or checksum are wrong");
        return;
    }
    ObjRef obj = loadDumpPayload(c->argv[3]);
    if (!obj) {
        addReplyError(c, "Bad data format");
        return;
    }

    bool deleted = opt.replace && dbDelete(c->db, key);
    /* Wraps as Redis's does for a ttl near LLONG_MAX: the key is then
     * already expired. */
    if (ttl && !opt.absttl) ttl = static_cast<long long>(static_cast<unsigned long long>(ttl) + server.mstime);
    if (ttl && checkAlreadyExpired(ttl)) {
        if (deleted) {
            rewriteClientCommandVector(c, {"DEL", key});
            signalModifiedKey(c, c->db, key);
            notifyKeyspaceEvent(NOTIFY_GENERIC, "del", key, c->db->id);
            server.dirty++;
        }
        addReply(c, shared::ok);
        return;
    }

    robj *val = obj.get();
    dbAdd(c->db, key, std::move(obj));
    if (ttl) {
        setExpire(c, c->db, key, ttl);
        /* The replicas and the AOF get the absolute deadline. */
        if (!opt.absttl && propagationTargets()) {
            std::vector<std::string_view> argv = c->argv;
            char when[LONG_STR_SIZE];
            argv[2] = std::string_view(when, ll2string(when, sizeof(when), ttl));
            argv.push_back("ABSTTL");
            rewriteClientCommandVector(c, argv);
        }
    }
    objectSetLRUOrLFU(val, opt.lfu_freq, opt.lru_idle, opt.lru_clock);
    signalModifiedKey(c, c->db, key);
    notifyKeyspaceEvent(NOTIFY_GENERIC, "restore", key, c->db->id);
    addReply(c, shared::ok);
    server.dirty++;
}

/* ========================================================================
 * MIGRATE
 * ====================================================================== */

/* A blocking connection to the target (Redis's connBlockingConnect and
 * syncio.c): every step waits at most `timeout` ms. */
class migrateConnection {
public:
    migrateConnection() = default;
    migrateConnection(const migrateConnection &) = delete;
    migrateConnection &operator=(const migrateConnection &) = delete;
    ~migrateConnection() {
        if (fd_ != -1) close(fd_);
    }

    bool connect(const std::string &host, int port, long long timeout);
    /* syncWrite: all of buf within the timeout. */
    bool syncWrite(std::string_view buf, long long timeout);
    /* syncReadLine: one reply line, without its "\r\n"; false on an error,
     * a timeout or an empty line. */
    bool syncReadLine(std::string &line, long long timeout);
    bool timedOut() const { return timed_out_; }

private:
    int fd_ = -1;
    bool timed_out_ = false;
    std::string inbuf_; /* read past the last line returned */

    bool waitFor(short events, long long deadline);
};

bool migrateConnection::waitFor(short events, long long deadline) {
    for (;;) {
        long long left = deadline - mstime();
        if (left <= 0) {
            timed_out_ = true;
            return false;
        }
        struct pollfd pfd{fd_, events, 0};
        int n = poll(&pfd, 1, static_cast<int>(std::min<long long>(left, INT_MAX)));
        if (n > 0) return true;
        if (n < 0 && errno != EINTR) return false;
    }
}

bool migrateConnection::connect(const std::string &host, int port, long long timeout) {
    std::string err;
    fd_ = anetTcpNonBlockConnect(err, host, port);
    if (fd_ == -1) return false;
    /* Writable is connected, or refused: as in Redis, a refusal shows on
     * the first write (and the reply says "writing"). */
    if (!waitFor(POLLOUT, mstime() + timeout)) return false;
    anetEnableTcpNoDelay(err, fd_);
    return true;
}

bool migrateConnection::syncWrite(std::string_view buf, long long timeout) {
    long long deadline = mstime() + timeout;
    while (!buf.empty()) {
        ssize_t n = write(fd_, buf.data(), buf.size());
        if (n > 0) {
            buf.remove_prefix(static_cast<size_t>(n));
        } else if (n == -1 && errno != EAGAIN && errno != EINTR) {
            return false;
        } else if (!waitFor(POLLOUT, deadline)) {
            return false;
        }
    }
    return true;
}

bool migrateConnection::syncReadLine(std::string &line, long long timeout) {
    long long deadline = mstime() + timeout;
    size_t eol;
    while ((eol = inbuf_.find('\n')) == std::string::npos) {
        char chunk[1024];
        ssize_t n = read(fd_, chunk, sizeof(chunk));
        if (n > 0) inbuf_.append(chunk, static_cast<size_t>(n));
        else if (n == 0 || (errno != EAGAIN && errno != EINTR)) return false;
        else if (!waitFor(POLLIN, deadline)) return false;
    }
    line.assign(inbuf_, 0, eol > 0 && inbuf_[eol - 1] == '\r' ? eol - 1 : eol);
    inbuf_.erase(0, eol + 1);
    return !line.empty();
}

struct migrateOptions {
    bool copy = false, replace = false;
    bool auth = false, auth2 = false; /* AUTH password, or AUTH username password */
    std::string_view username, password;
    size_t first_key = 3, num_keys = 1;
};

/* [COPY] [REPLACE] [AUTH password] [AUTH2 username password] [KEYS key ...]:
 * KEYS takes the rest of the arguments, and the key argument must then be
 * empty. */
static bool parseMigrateOptions(client *c, migrateOptions &opt) {
    const size_t argc = c->argv.size();
    for (size_t j = 6; j < argc; j++) {
        std::string_view arg = c->argv[j];
        size_t moreargs = argc - 1 - j;
        if (strEqualNoCase(arg, "copy")) {
            opt.copy = true;
        } else if (strEqualNoCase(arg, "replace")) {
            opt.replace = true;
        } else if (strEqualNoCase(arg, "auth") && moreargs >= 1) {
            opt.auth = true;
            opt.password = c->argv[++j];
            redactClientCommandArgument(c, j);
        } else if (strEqualNoCase(arg, "auth2") && moreargs >= 2) {
            opt.username = c->argv[++j];
            redactClientCommandArgument(c, j);
            opt.auth2 = true;
            opt.password = c->argv[++j];
            redactClientCommandArgument(c, j);
        } else if (strEqualNoCase(arg, "keys")) {
            if (!c->argv[3].empty()) {
                addReplyError(c, "When using MIGRATE KEYS option, the key argument must be set to the empty string");
                return false;
            }
            opt.first_key = j + 1;
            opt.num_keys = argc - j - 1;
            return true;
        } else {
            addReplyErrorObject(c, shared::syntaxerr);
            return false;
        }
    }
    return true;
}

/* What MIGRATE sends: AUTH when asked, SELECT, then a RESTORE per key
 * that has not expired since it was found (a key whose TTL ran out while
 * the others were serialized is left out). */
struct migrateBatch {
    std::string cmd;
    std::vector<std::string_view> keys; /* those with a RESTORE, in order */
};

static void migrateBuildBatch(client *c, const migrateOptions &opt, long dbid,
                              const std::vector<std::pair<std::string_view, robj *>> &found, migrateBatch &batch) {
    if (opt.auth2) catAppendOnlyGenericCommand(batch.cmd, std::vector<std::string_view>{"AUTH", opt.username, opt.password});
    else if (opt.auth) catAppendOnlyGenericCommand(batch.cmd, std::vector<std::string_view>{"AUTH", opt.password});
    catSelectCommand(batch.cmd, static_cast<int>(dbid));
    for (const auto &[key, val] : found) {
        long long ttl = 0, expireat = getExpire(c->db, key);
        if (expireat != -1) {
            ttl = expireat - mstime();
            if (ttl < 0) continue;
            if (ttl < 1) ttl = 1;
        }
        char ttlbuf[LONG_STR_SIZE];
        std::string payload = createDumpPayload(val);
        std::vector<std::string_view> argv = {"RESTORE", key, std::string_view(ttlbuf, ll2string(ttlbuf, sizeof(ttlbuf), ttl)),
                                              payload};
        if (opt.replace) argv.push_back("REPLACE");
        catAppendOnlyGenericCommand(batch.cmd, argv);
        batch.keys.push_back(key);
    }
}

/* MIGRATE host port key|"" destination-db timeout [COPY] [REPLACE] [AUTH password]
 *         [AUTH2 username password] [KEYS key [key ...]] */
void migrateCommand(client *c) {
    migrateOptions opt;
    if (!parseMigrateOptions(c, opt)) return;
    long timeout, dbid;
    if (!getLongFromObjectOrReply(c, c->argv[5], &timeout) || !getLongFromObjectOrReply(c, c->argv[4], &dbid)) return;
    if (timeout <= 0) timeout = 1000;

    /* Nothing to move is not an error: the key may just have expired. */
    std::vector<std::pair<std::string_view, robj *>> found;
    for (size_t j = 0; j < opt.num_keys; j++) {
        std::string_view key = c->argv[opt.first_key + j];
        if (robj *o = lookupKeyRead(c->db, key)) found.emplace_back(key, o);
    }
    if (found.empty()) {
        addReplyStatus(c, "NOKEY");
        return;
    }

    migrateConnection conn;
    long port;
    if (!string2l(c->argv[2], &port) || !conn.connect(std::string(c->argv[1]), static_cast<int>(port), timeout)) {
        addReplyError(c, "-IOERR error or timeout connecting to the client");
        return;
    }
    migrateBatch batch;
    migrateBuildBatch(c, opt, dbid, found, batch);
    if (!conn.syncWrite(batch.cmd, timeout)) {
        addReplyError(c, "-IOERR error or timeout writing to target instance");
        return;
    }

    /* The first error among AUTH's, SELECT's and the RESTOREs' replies is
     * the one reported; a key leaves once its own RESTORE succeeded, even
     * after another key's failed. */
    std::string auth_reply, select_reply, reply, error;
    if (((opt.auth || opt.auth2) && !conn.syncReadLine(auth_reply, timeout)) || !conn.syncReadLine(select_reply, timeout)) {
        addReplyError(c, "-IOERR error or timeout reading to target instance");
        return;
    }
    if ((opt.auth || opt.auth2) && auth_reply[0] == '-') error = auth_reply;
    else if (select_reply[0] == '-') error = select_reply;
    bool batch_failed = !error.empty(); /* then no RESTORE counts */
    std::vector<std::string_view> del_argv = {"DEL"};
    bool socket_error = false;
    for (std::string_view key : batch.keys) {
        if (!conn.syncReadLine(reply, timeout)) {
            socket_error = true;
            break;
        }
        if (reply[0] == '-') {
            if (error.empty()) error = reply;
        } else if (!batch_failed && !opt.copy) {
            del_argv.push_back(key);
        }
    }
    /* Only the keys the target acknowledged are deleted, and the command
     * reaches the AOF and the replicas as their DEL. */
    for (size_t j = 1; j < del_argv.size(); j++) {
        dbDelete(c->db, del_argv[j]);
        signalModifiedKey(c, c->db, del_argv[j]);
        notifyKeyspaceEvent(NOTIFY_GENERIC, "del", del_argv[j], c->db->id);
        server.dirty++;
    }
    if (!error.empty()) addReplyErrorFormat(c, "Target instance replied with error: %s", error.c_str() + 1);
    else if (socket_error) addReplyError(c, "-IOERR error or timeout reading to target instance");
    else addReply(c, shared::ok);
    if (del_argv.size() > 1) rewriteClientCommandVector(c, del_argv);
}

/* The keys: the one at argv[3], or those after the KEYS that ends the
 * options (whose values are skipped: a password may read "keys"); none
 * when KEYS comes with a key at argv[3], the syntax error MIGRATE itself
 * reports. */
int migrateGetKeys(const redisCommand *, std::span<const std::string_view> argv, getKeysResult *result) {
    const size_t argc = argv.size();
    size_t first = 3, num = 1;
    for (size_t i = 6; i < argc; i++) {
        if (strEqualNoCase(argv[i], "keys")) {
            first = i + 1;
            num = argv[3].empty() ? argc - first : 0;
            break;
        }
        if (strEqualNoCase(argv[i], "auth")) i += 1;
        else if (strEqualNoCase(argv[i], "auth2")) i += 2;
    }
    for (size_t i = 0; i < num; i++)
        result->keys.push_back({static_cast<int>(first + i), CMD_KEY_RW | CMD_KEY_ACCESS | CMD_KEY_DELETE});
    return static_cast<int>(num);
}
