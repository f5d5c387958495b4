/* server.h — the global server state, the client, and the command table.
 *
 * Mirrors Redis's server.h: one global `server` (struct redisServer) owns the
 * event loop, the listening sockets, every client and the configuration.
 * Invariants:
 *  - server.clients owns every client (unique_ptr); every other structure
 *    (clients_pending_write, clients_to_close, clients_index, for a
 *    subscriber server.pubsub_channels / pubsub_patterns, and for a
 *    blocked client db->blocking_keys, clients_timeout_table and
 *    unblocked_clients) holds plain pointers and must drop them in
 *    freeClient() before the client dies.
 *  - A client's argv views point into its own query buffer and are valid
 *    only while its current command runs; anything kept longer is copied.
 */
#pragma once

#include <sys/types.h>

#include <atomic>
#include <csignal>
#include <cstdint>
#include <ctime>
#include <list>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <type_traits>
#include <vector>

#include "ae.h"
#include "blocked.h"
#include "db.h"

#define CPPREDIS_VERSION "0.1.0"
#define REDIS_COMPAT_VERSION "7.0.15" /* what INFO and HELLO report, for clients */

/* ------------------------------------------------------------------------
 * Limits and defaults (the same numbers as Redis 7.0).
 * ---------------------------------------------------------------------- */
constexpr size_t PROTO_IOBUF_LEN = 16 * 1024;        /* read size per call */
constexpr size_t PROTO_REPLY_CHUNK_BYTES = 16 * 1024; /* static reply buffer */
constexpr size_t PROTO_INLINE_MAX_SIZE = 64 * 1024;  /* max inline request */
constexpr size_t PROTO_MBULK_BIG_ARG = 32 * 1024;    /* pre-size querybuf past this */
constexpr size_t NET_MAX_WRITES_PER_EVENT = 64 * 1024;
constexpr int CONFIG_MIN_RESERVED_FDS = 32;
constexpr int CONFIG_FDSET_INCR = CONFIG_MIN_RESERVED_FDS + 96;
constexpr int CONFIG_BINDADDR_MAX = 16;
constexpr const char *CONFIG_DEFAULT_PID_FILE = "/var/run/redis.pid"; /* daemonize yes without pidfile */
constexpr int CHILD_TYPE_NONE = 0, CHILD_TYPE_RDB = 1, CHILD_TYPE_AOF = 2; /* server.child_type */
constexpr int AOF_OFF = 0, AOF_ON = 1, AOF_WAIT_REWRITE = 2;              /* server.aof_state */
constexpr int AOF_FSYNC_NO = 0, AOF_FSYNC_ALWAYS = 1, AOF_FSYNC_EVERYSEC = 2; /* `appendfsync` */

/* Log levels, as Redis's. */
constexpr int LL_DEBUG = 0, LL_VERBOSE = 1, LL_NOTICE = 2, LL_WARNING = 3;
constexpr int LL_RAW = 1 << 10; /* log without timestamp */

/* ------------------------------------------------------------------------
 * Client flags (the subset implemented so far keeps Redis's names).
 * ---------------------------------------------------------------------- */
constexpr uint64_t CLIENT_MULTI = 1ULL << 3;              /* inside MULTI: commands are queued */
constexpr uint64_t CLIENT_BLOCKED = 1ULL << 4;            /* waiting in a blocking command (blocked.h) */
constexpr uint64_t CLIENT_DIRTY_CAS = 1ULL << 5;          /* a WATCHed key changed: EXEC fails */
constexpr uint64_t CLIENT_CLOSE_AFTER_REPLY = 1ULL << 6; /* close once the reply is written */
constexpr uint64_t CLIENT_UNBLOCKED = 1ULL << 7;          /* unblocked, queued in server.unblocked_clients */
constexpr uint64_t CLIENT_CLOSE_ASAP = 1ULL << 10;       /* close in beforeSleep */
constexpr uint64_t CLIENT_DIRTY_EXEC = 1ULL << 12;       /* a command failed to queue: EXEC aborts */
constexpr uint64_t CLIENT_PUBSUB = 1ULL << 18;           /* subscribed to a channel or pattern (pubsub.cpp) */
constexpr uint64_t CLIENT_PREVENT_AOF_PROP = 1ULL << 19; /* don't propagate this command to the AOF */
constexpr uint64_t CLIENT_PREVENT_REPL_PROP = 1ULL << 20; /* ... nor to replicas */
constexpr uint64_t CLIENT_PREVENT_PROP = CLIENT_PREVENT_AOF_PROP | CLIENT_PREVENT_REPL_PROP;
constexpr uint64_t CLIENT_PENDING_WRITE = 1ULL << 21;    /* queued in clients_pending_write */
constexpr uint64_t CLIENT_FORCE_AOF = 1ULL << 14;       /* propagate even if nothing changed (FLUSHALL) */
constexpr uint64_t CLIENT_PROTOCOL_ERROR = 1ULL << 39;   /* reply then close */
constexpr uint64_t CLIENT_DENY_BLOCKING = 1ULL << 41;    /* blocking commands answer as if timed out (scripts) */

/* Request types of the query buffer. */
constexpr int PROTO_REQ_INLINE = 1;
constexpr int PROTO_REQ_MULTIBULK = 2;

/* ------------------------------------------------------------------------
 * Command flags (Redis 7 names, shown by COMMAND INFO).
 * ---------------------------------------------------------------------- */
constexpr uint64_t CMD_WRITE = 1ULL << 0;
constexpr uint64_t CMD_READONLY = 1ULL << 1;
constexpr uint64_t CMD_DENYOOM = 1ULL << 2;
constexpr uint64_t CMD_ADMIN = 1ULL << 4;
constexpr uint64_t CMD_PUBSUB = 1ULL << 5;
constexpr uint64_t CMD_NOSCRIPT = 1ULL << 6;
constexpr uint64_t CMD_BLOCKING = 1ULL << 8;
constexpr uint64_t CMD_LOADING = 1ULL << 9;
constexpr uint64_t CMD_STALE = 1ULL << 10;
constexpr uint64_t CMD_SKIP_MONITOR = 1ULL << 11;
constexpr uint64_t CMD_SKIP_SLOWLOG = 1ULL << 12; /* EXEC: its commands are logged, not it */
constexpr uint64_t CMD_FAST = 1ULL << 14;
constexpr uint64_t CMD_NO_AUTH = 1ULL << 15;
constexpr uint64_t CMD_MAY_REPLICATE = 1ULL << 16; /* not a write, but propagated (PUBLISH): refused in read-only scripts */
constexpr uint64_t CMD_NO_MANDATORY_KEYS = 1ULL << 19;
constexpr uint64_t CMD_NO_ASYNC_LOADING = 1ULL << 23;
constexpr uint64_t CMD_NO_MULTI = 1ULL << 24;
constexpr uint64_t CMD_ALLOW_BUSY = 1ULL << 26;
constexpr uint64_t CMD_PROTECTED = 1ULL << 30; /* DEBUG: gated by enable-debug-command */
constexpr uint64_t CMD_MOVABLE_KEYS = 1ULL << 31; /* keys found by parsing (LMPOP's numkeys) */

/* Who may run a protected command (enable-debug-command). */
constexpr int PROTECTED_ACTION_ALLOWED_NO = 0, PROTECTED_ACTION_ALLOWED_YES = 1,
              PROTECTED_ACTION_ALLOWED_LOCAL = 2;
constexpr uint64_t CMD_SENTINEL = 1ULL << 27;

/* ACL categories, in the order COMMAND INFO lists them (Redis's table
 * order). cppredis has no ACLs; clients read these to classify commands. */
constexpr uint64_t ACL_CATEGORY_KEYSPACE = 1ULL << 0, ACL_CATEGORY_READ = 1ULL << 1,
                   ACL_CATEGORY_WRITE = 1ULL << 2, ACL_CATEGORY_SET = 1ULL << 3,
                   ACL_CATEGORY_SORTEDSET = 1ULL << 4, ACL_CATEGORY_LIST = 1ULL << 5,
                   ACL_CATEGORY_HASH = 1ULL << 6, ACL_CATEGORY_STRING = 1ULL << 7,
                   ACL_CATEGORY_BITMAP = 1ULL << 8, ACL_CATEGORY_HYPERLOGLOG = 1ULL << 9,
                   ACL_CATEGORY_GEO = 1ULL << 10, ACL_CATEGORY_STREAM = 1ULL << 11,
                   ACL_CATEGORY_PUBSUB = 1ULL << 12, ACL_CATEGORY_ADMIN = 1ULL << 13,
                   ACL_CATEGORY_FAST = 1ULL << 14, ACL_CATEGORY_SLOW = 1ULL << 15,
                   ACL_CATEGORY_BLOCKING = 1ULL << 16, ACL_CATEGORY_DANGEROUS = 1ULL << 17,
                   ACL_CATEGORY_CONNECTION = 1ULL << 18, ACL_CATEGORY_TRANSACTION = 1ULL << 19,
                   ACL_CATEGORY_SCRIPTING = 1ULL << 20;
inline constexpr const char *ACL_CATEGORY_NAMES[] = {
    "keyspace", "read", "write", "set", "sortedset", "list", "hash", "string", "bitmap", "hyperloglog",
    "geo", "stream", "pubsub", "admin", "fast", "slow", "blocking", "dangerous", "connection",
    "transaction", "scripting"};

struct redisCommand;

/* Command names are case-insensitive: the table hashes and compares them
 * folding case, and is probed with the request's argv[0] view as is — no
 * lower-cased copy per command (C++20 heterogeneous lookup). */
inline unsigned char asciiLower(unsigned char ch) { return ch >= 'A' && ch <= 'Z' ? ch + ('a' - 'A') : ch; }
struct CommandNameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const noexcept {
        uint64_t h = 1469598103934665603ULL; /* FNV-1a over the lower-cased bytes */
        for (unsigned char ch : s) h = (h ^ asciiLower(ch)) * 1099511628211ULL;
        return h;
    }
};
struct CommandNameEqual {
    using is_transparent = void;
    bool operator()(std::string_view a, std::string_view b) const noexcept {
        if (a.size() != b.size()) return false;
        for (size_t i = 0; i < a.size(); i++)
            if (asciiLower(a[i]) != asciiLower(b[i])) return false;
        return true;
    }
};
using commandDict = std::unordered_map<std::string, redisCommand *, CommandNameHash, CommandNameEqual>;

struct client;
using redisCommandProc = void (*)(client *c);

/* One row of the command table. Arity counts the command name itself;
 * a negative arity means "at least -arity arguments". */
struct redisCommand {
    const char *declared_name;   /* lower case; "get", or "get" below "config" */
    redisCommandProc proc;
    int arity;
    uint64_t flags;
    int firstkey, lastkey, keystep; /* key positions for COMMAND INFO / GETKEYS */
    const char *group;              /* COMMAND DOCS: "string", "connection", ... */
    const char *summary;
    const char *since;
    std::vector<redisCommand> subcommands;
    std::vector<const char *> tips;  /* COMMAND INFO tips, e.g. "request_policy:all_shards" */
    uint64_t acl_categories = 0;     /* explicit ACL_CATEGORY_*; implicit ones added at start */

    /* Filled when the table is populated. */
    std::string fullname;            /* "config|get" for a subcommand */
    redisCommand *parent = nullptr;
    commandDict subcommands_dict;

    /* Statistics for INFO commandstats. */
    long long microseconds = 0, calls = 0, rejected_calls = 0, failed_calls = 0;
};

/* ------------------------------------------------------------------------
 * The query buffer: bytes read from the socket, parsed in place.
 * ---------------------------------------------------------------------- */
class QueryBuffer {
public:
    char *data() { return buf_.get(); }
    const char *data() const { return buf_.get(); }
    size_t size() const { return len_; }
    size_t capacity() const { return cap_; }
    size_t avail() const { return cap_ - len_; }
    /* Guarantees room for `n` more bytes, keeping the content. */
    void makeRoomFor(size_t n);
    void commit(size_t n) { len_ += n; }
    /* Drops the first `n` bytes (already parsed). */
    void consume(size_t n);
    void append(std::string_view s);
    void clear() { len_ = 0; }
    /* Frees the allocation when it is idle and large (clientsCron). */
    void shrinkIfIdle(size_t keep);

private:
    std::unique_ptr<char[]> buf_;
    size_t len_ = 0, cap_ = 0;
};

/* A block of the reply list, used once the static buffer is full. */
struct clientReplyBlock {
    size_t size, used;
    std::unique_ptr<char[]> buf;
};

/* The parser's progress on the request being read (see processMultibulkBuffer). */
struct RequestParser {
    int reqtype = 0;         /* PROTO_REQ_INLINE / MULTIBULK, 0 = not yet known */
    long multibulklen = 0;   /* bulk strings still to read */
    long long bulklen = -1;  /* length of the bulk being read, -1 = header unread */
    size_t pos = 0;          /* parse position in the query buffer */
    /* Arguments parsed so far, as (offset, length) into the query buffer:
     * offsets stay valid when the buffer grows, views would not. */
    std::vector<std::pair<size_t, size_t>> argspan;
};

/* ------------------------------------------------------------------------
 * Transactions (multi.cpp).
 * ---------------------------------------------------------------------- */

/* One queued command (Redis's multiCmd): its arguments are the next `argc`
 * entries of multiState::arglens, their bytes the next ones of argbytes. */
struct multiCmd {
    redisCommand *cmd;
    size_t argc;
};

/* MULTI's queue (Redis's multiState). A queued command outlives the query
 * buffer its argv views point into, so its arguments are copied, all of
 * them back to back into one buffer: queueing costs no allocation per
 * argument, and EXEC reads the commands in order. */
struct multiState {
    std::vector<multiCmd> commands;
    std::string argbytes;
    std::vector<size_t> arglens;
    size_t argv_len_sums = 0; /* CLIENT LIST multi-mem, counted as Redis does */
};

/* A key the client WATCHes (Redis's watchedKey). `de` is the key's entry in
 * db->watched_keys, alive as long as some client watches the key, and
 * `node` is this client in that entry's list, so unwatching is O(1). */
struct watchedKey {
    redisDb *db;
    watchedKeysDict::entry *de;
    std::list<client *>::iterator node;
    bool expired; /* the key was already logically expired when watched */
};

/* ------------------------------------------------------------------------
 * Pub/sub (pubsub.cpp) and output buffer limits (networking.cpp).
 * ---------------------------------------------------------------------- */

/* Channel (or pattern) -> its subscribers, in the order they subscribed:
 * the order PUBLISH delivers in. */
using pubsubDict = dict<sds, std::vector<client *>>;
struct pubsubSetMember {}; /* a dict used as a set: no value */
using clientChannelsDict = dict<sds, pubsubSetMember>;

/* The id of the client that replays the AOF (Redis's createAOFClient). */
constexpr uint64_t CLIENT_ID_AOF = UINT64_MAX;

/* Client classes of client-output-buffer-limit (getClientType). Replicas
 * do not exist here: their limits are parsed and kept for compatibility. */
constexpr int CLIENT_TYPE_NORMAL = 0, CLIENT_TYPE_SLAVE = 1, CLIENT_TYPE_PUBSUB = 2, CLIENT_TYPE_MASTER = 3;
constexpr int CLIENT_TYPE_OBUF_COUNT = 3; /* the classes with limits: master has none */
struct clientBufferLimitsConfig {
    unsigned long long hard_limit_bytes = 0; /* 0 = no limit */
    unsigned long long soft_limit_bytes = 0;
    time_t soft_limit_seconds = 0;           /* how long past the soft limit is tolerated */
};

/* ------------------------------------------------------------------------
 * The client: one connection and everything the server tracks for it.
 * ---------------------------------------------------------------------- */
struct client {
    uint64_t id = 0;
    int fd = -1;
    std::string name;
    std::string addr, laddr;          /* "ip:port" of peer and local side */
    redisDb *db = nullptr;            /* the SELECTed database */
    int resp = 2;
    uint64_t flags = 0;

    QueryBuffer querybuf;
    RequestParser req;
    std::vector<std::string_view> argv; /* the command being run (into querybuf) */
    std::string argv_rewritten;       /* the bytes of argv once a command rewrote it for the AOF */
    size_t argv_len_sum = 0;
    redisCommand *cmd = nullptr, *lastcmd = nullptr;

    /* Reply: a static buffer first, then a list of blocks. */
    std::unique_ptr<char[]> buf;
    size_t buf_usable_size = PROTO_REPLY_CHUNK_BYTES;
    size_t bufpos = 0;
    size_t buf_peak = 0;              /* most of buf used since the last reset (CLIENT LIST rbp) */
    long long buf_peak_last_reset_time = 0; /* unix ms; clientsCron resets the peak every 5 s */
    size_t sentlen = 0;               /* bytes of buf (or of the head block) already sent */
    std::list<clientReplyBlock> reply;
    size_t reply_bytes = 0;           /* total bytes in the reply list */

    time_t ctime = 0;                 /* creation time (seconds) */
    long long lastinteraction = 0;    /* unix ms of the last read or write */

    multiState mstate;                /* MULTI: the queued commands */
    int btype = BLOCKED_NONE;         /* what it is blocked on, if CLIENT_BLOCKED */
    blockingState bpop;               /* ... and the keys, deadline, target */
    std::list<client *>::iterator unblocked_node; /* in server.unblocked_clients, if CLIENT_UNBLOCKED */
    std::vector<watchedKey> watched_keys; /* WATCH: unwatched in freeClient */
    clientChannelsDict pubsub_channels;  /* SUBSCRIBEd channels: unsubscribed in freeClient */
    std::vector<sds> pubsub_patterns;    /* PSUBSCRIBEd patterns, in subscription order */
    time_t obuf_soft_limit_reached_time = 0; /* since when the reply list is past the soft limit (0: it is not) */

    std::list<std::unique_ptr<client>>::iterator self; /* node in server.clients */

    client();
    ~client();
    client(const client &) = delete;
    client &operator=(const client &) = delete;
};

/* ------------------------------------------------------------------------
 * The server.
 * ---------------------------------------------------------------------- */
struct redisServer {
    pid_t pid = 0;
    std::string executable;
    std::string configfile;           /* absolute path, "" if none */
    std::unique_ptr<aeEventLoop> el;
    int hz = 10;                      /* serverCron frequency */
    int config_hz = 10;
    long long cronloops = 0;
    volatile sig_atomic_t shutdown_asap = 0; /* set by the signal handler */
    int shutdown_flags = 0;

    /* Networking. */
    int port = 6379;
    int tcp_backlog = 511;
    std::vector<std::string> bindaddr{"127.0.0.1", "-::1"};
    std::vector<int> ipfd;            /* listening sockets */
    int tcpkeepalive = 300;
    bool protected_mode = true;

    /* Clients. */
    std::list<std::unique_ptr<client>> clients;
    std::unordered_map<uint64_t, client *> clients_index;
    std::vector<client *> clients_pending_write;
    std::vector<client *> clients_to_close;
    client *current_client = nullptr;

    /* Blocking operations (blocked.cpp). */
    unsigned int blocked_clients = 0;                  /* CLIENT_BLOCKED clients */
    unsigned int blocked_clients_by_type[BLOCKED_NUM] = {};
    std::list<client *> unblocked_clients;             /* CLIENT_UNBLOCKED, to reprocess in beforeSleep */
    std::vector<readyList> ready_keys;                 /* keys signalled since the last handling */
    clientsTimeoutTable clients_timeout_table;         /* blocked clients with a deadline, earliest first */
    long long blocked_timeout_te = -1;                 /* time event armed at... */
    mstime_t blocked_timeout_te_when = 0;              /* ... this deadline (-1 id: none) */
    uint64_t next_client_id = 1;
    unsigned int maxclients = 10000;
    int maxidletime = 0;              /* `timeout`, seconds; 0 = never */
    long long client_max_querybuf_len = 1024LL * 1024 * 1024;
    long long proto_max_bulk_len = 512LL * 1024 * 1024;

    /* Logging. */
    int verbosity = LL_NOTICE;
    std::string logfile;              /* "" = standard output */
    bool daemonize = false;
    bool jemalloc_bg_thread = true;   /* `jemalloc-bg-thread` (zmalloc.h) */
    std::string pidfile;
    bool pidfile_written = false;     /* createPidFile wrote `pidfile`: shutdown removes it */

    int dbnum = 16;                   /* `databases` */
    std::unique_ptr<redisDb[]> db;    /* server.db[0 .. dbnum-1] */
    long long dirty = 0;              /* changes since the last save */
    int enable_debug_cmd = 0;         /* PROTECTED_ACTION_ALLOWED_* */

    /* Background children (redisFork). */
    pid_t child_pid = -1;
    int child_type = CHILD_TYPE_NONE;
    long long stat_fork_time = 0;     /* µs the last fork() took */
    long long stat_total_forks = 0;
    /* What the child reports through the child-info pipe (childinfo.cpp),
     * and what it started from: INFO persistence's current_* and *_cow_size. */
    int child_info_pipe[2] = {-1, -1};
    size_t child_info_nread = 0;          /* bytes of a partly read message */
    size_t stat_current_cow_peak = 0;     /* the running child's largest CoW reading */
    size_t stat_current_cow_bytes = 0;    /* ... and its latest */
    monotime stat_current_cow_updated = 0; /* when the child took it (getMonotonicUs), 0: none yet */
    size_t stat_current_save_keys_processed = 0;
    size_t stat_current_save_keys_total = 0; /* keys in the dataset at fork */
    size_t stat_rdb_cow_bytes = 0;        /* CoW peak of the last successful BGSAVE */
    size_t stat_aof_cow_bytes = 0;        /* ... and AOF rewrite */

    /* RDB persistence (rdb.cpp). */
    struct saveparam {
        time_t seconds;
        int changes;
    };
    std::vector<saveparam> saveparams;         /* `save`: BGSAVE after `seconds` with `changes` */
    std::string rdb_filename = "dump.rdb";     /* `dbfilename`, in the working directory (`dir`) */
    bool rdb_compression = true;               /* `rdbcompression`: LZF for strings over 20 bytes */
    bool rdb_checksum = true;                  /* `rdbchecksum`: write and verify the CRC-64 */
    bool rdb_save_incremental_fsync = true;    /* fsync every 4 MB while saving */
    bool stop_writes_on_bgsave_err = true;     /* MISCONF on writes after a failed BGSAVE */
    int rdb_key_save_delay = 0;                /* µs to sleep per key saved (tests); < 0: ns */
    int enable_protected_configs = 0;          /* PROTECTED_ACTION_ALLOWED_*: CONFIG SET dir/dbfilename */
    time_t lastsave = 0;                       /* unix time of the last successful save */
    time_t lastbgsave_try = 0;                 /* ... and of the last BGSAVE attempt */
    int lastbgsave_status = 0;                 /* C_OK or C_ERR */
    long long dirty_before_bgsave = 0;         /* server.dirty when the child forked */
    time_t rdb_save_time_start = -1;           /* the running BGSAVE started, -1 if none */
    time_t rdb_save_time_last = -1;            /* seconds the last BGSAVE took */
    bool rdb_bgsave_scheduled = false;         /* BGSAVE SCHEDULE: start when no child runs */
    long long stat_rdb_saves = 0;
    long long rdb_last_load_keys_loaded = 0, rdb_last_load_keys_expired = 0;

    /* AOF persistence (aof.cpp). */
    bool loading = false;             /* a loader (RDB or AOF) is filling the keyspace: nothing expires */
    int execution_nesting = 0;        /* call()s in progress: 0 between commands */
    int aof_state = AOF_OFF;          /* AOF_OFF / AOF_ON / AOF_WAIT_REWRITE (its first rewrite runs) */
    bool aof_enabled = false;         /* `appendonly`; aof_state follows it */
    int aof_fsync = AOF_FSYNC_EVERYSEC; /* `appendfsync` */
    std::string aof_filename;         /* `appendfilename`, in `dir` */
    bool aof_no_fsync_on_rewrite = false; /* `no-appendfsync-on-rewrite` */
    bool aof_load_truncated = true;   /* `aof-load-truncated` */
    bool aof_rewrite_incremental_fsync = true; /* `aof-rewrite-incremental-fsync` */
    int aof_rewrite_perc = 100;       /* `auto-aof-rewrite-percentage`: growth that triggers a rewrite */
    long long aof_rewrite_min_size = 64LL * 1024 * 1024; /* `auto-aof-rewrite-min-size` */
    int aof_fd = -1;                  /* the AOF, open for appending while aof_state != AOF_OFF */
    int aof_selected_db = -1;         /* the db the file's last SELECT chose (-1: emit one) */
    std::string aof_buf;              /* propagated writes, written before replies leave (beforeSleep) */
    std::string aof_rewrite_buf;      /* writes since the rewrite child forked, appended when it ends */
    std::string also_propagate;       /* the execution unit's ops, as RESP (propagatePendingCommands) */
    size_t also_propagate_first_op = 0; /* where its first op starts, after the SELECT it may need */
    int also_propagate_ops = 0;       /* ops in it: 2 or more go to the file inside MULTI/EXEC */
    std::string aof_rewrite_tmpfile;  /* what the rewrite child writes, renamed over the AOF at the end */
    time_t aof_rewrite_next_try = 0;  /* after repeated failures, automatic rewrites wait until then */
    long long aof_current_size = 0;   /* bytes in the file */
    long long aof_rewrite_base_size = 0; /* ... after the last rewrite or load: the growth base */
    long long aof_fsync_offset = 0;   /* aof_current_size at the last fsync */
    long long aof_last_fsync = 0;     /* mstime of the last fsync (everysec) */
    long long aof_delayed_fsync = 0;  /* everysec fsyncs that found the previous one still running */
    bool aof_rewrite_scheduled = false; /* start a rewrite as soon as no child runs */
    time_t aof_rewrite_time_start = -1, aof_rewrite_time_last = -1;
    int aof_lastbgrewrite_status = 0; /* C_OK */
    int aof_last_write_status = 0;    /* C_OK; C_ERR after a failed write: writes are refused (MISCONF) */
    int aof_last_write_errno = 0;
    /* The last background fsync (bio thread, everysec): C_ERR and its errno
     * refuse writes (MISCONF) until a later one succeeds. */
    std::atomic<int> aof_bio_fsync_status{0};
    std::atomic<int> aof_bio_fsync_errno{0};
    long long stat_aof_rewrites = 0, stat_aofrw_consecutive_failures = 0;

    /* Scripting (scripting.cpp). */
    long long busy_reply_threshold = 5000; /* `busy-reply-threshold` (`lua-time-limit`), ms; 0 = never busy */

    /* Pub/sub, keyspace notifications, output buffer limits (pubsub.cpp, notify.cpp). */
    pubsubDict pubsub_channels;       /* channel -> subscribers */
    pubsubDict pubsub_patterns;       /* pattern -> subscribers */
    int notify_keyspace_events = 0;   /* NOTIFY_* classes to publish (notify.h) */
    clientBufferLimitsConfig client_obuf_limits[CLIENT_TYPE_OBUF_COUNT];

    /* Lists (t_list.cpp): a ziplist becomes a linkedlist past either limit. */
    long long list_max_ziplist_entries = 512;
    long long list_max_ziplist_value = 64;  /* bytes */
    /* Hashes, sets, sorted sets: the compact encoding's limits likewise. */
    long long hash_max_ziplist_entries = 512;
    long long hash_max_ziplist_value = 64;  /* bytes */
    long long set_max_intset_entries = 512;
    long long zset_max_ziplist_entries = 128;
    long long zset_max_ziplist_value = 64;  /* bytes */

    /* Time, cached once per event-loop iteration as Redis does. */
    time_t unixtime = 0;
    long long mstime = 0;
    long long ustime = 0;

    /* Statistics (INFO stats). */
    time_t stat_starttime = 0;
    long long stat_numcommands = 0;
    long long stat_numconnections = 0;
    long long stat_rejected_conn = 0;
    long long stat_net_input_bytes = 0;
    long long stat_net_output_bytes = 0;
    long long stat_total_reads_processed = 0;
    long long stat_total_writes_processed = 0;
    long long stat_unexpected_error_replies = 0;
    long long stat_total_error_replies = 0;
    long long stat_keyspace_hits = 0;
    long long stat_keyspace_misses = 0;
    long long stat_expiredkeys = 0;
    double stat_expired_stale_perc = 0;           /* running average, 0..1 */
    long long stat_expired_time_cap_reached_count = 0;
    size_t stat_peak_memory = 0;

    /* Samples for instantaneous_ops_per_sec (trackInstantaneousMetric). */
    static constexpr int STATS_METRIC_SAMPLES = 16;
    long long inst_metric_last_sample_time = 0;
    long long inst_metric_last_sample_count = 0;
    long long inst_metric_samples[STATS_METRIC_SAMPLES] = {};
    int inst_metric_idx = 0;

    /* The command table: lower-case name -> command. */
    commandDict commands;
    std::vector<redisCommand> *command_table = nullptr;
};

extern redisServer server;

/* ------------------------------------------------------------------------
 * server.cpp
 * ---------------------------------------------------------------------- */
void serverLog(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
long long ustime();
long long mstime();
void updateCachedTime();
redisCommand *lookupCommand(const std::vector<std::string_view> &argv);
redisCommand *lookupCommandByName(std::string_view name);
int processCommand(client *c); /* server_main.cpp; networking calls it */
/* Where a command's effects are propagated (Redis's PROPAGATE_*; also the
 * values of a script's redis.set_repl() flags). There are no replicas: the
 * AOF is the only target, and PROPAGATE_REPL alone reaches nobody. */
constexpr int PROPAGATE_NONE = 0, PROPAGATE_AOF = 1, PROPAGATE_REPL = 2;
/* call() flags (Redis's CMD_CALL_*): whether the command's own argv may
 * reach the AOF; a script's redis.set_repl() can take it away. */
constexpr int CMD_CALL_NONE = 0, CMD_CALL_PROPAGATE_AOF = 1 << 2;
void call(client *c, int call_flags = CMD_CALL_PROPAGATE_AOF);
/* Propagation (server.cpp): every write reaches the AOF through here. */
/* The AOF, a layer above (tools/check_layers.sh), receives each execution
 * unit propagation closes: aof.cpp registers its feedAppendOnlyFile here
 * from a static initializer (aof.o is always linked: the command table
 * names BGREWRITEAOF). Units are built only while the AOF is on, so it is
 * set whenever it is called. Redis's propagation calls feedAppendOnlyFile
 * directly. */
using feedAppendOnlyFileProc = void (*)(std::string_view unit, size_t first_op, int ops);
bool registerFeedAppendOnlyFile(feedAppendOnlyFileProc feed);
void alsoPropagate(int dbid, std::span<const std::string_view> argv);
void alsoPropagate(int dbid, std::initializer_list<std::string_view> argv);
void preventCommandPropagation(client *c);
void forceCommandPropagation(client *c); /* propagate even if server.dirty did not move */
/* A command changes what is propagated for it (SETEX as SET ... PXAT):
 * c->argv becomes `argv`, copied into the client. Call it last, once the
 * command is done with its arguments; with the AOF off it does nothing. */
void rewriteClientCommandVector(client *c, std::span<const std::string_view> argv);
void rewriteClientCommandVector(client *c, std::initializer_list<std::string_view> argv);
void rewriteClientCommandArgument(client *c, size_t i, std::string_view arg);
/* What a pop is for the AOF (LPOP key, ZPOPMIN key 2, LMOVE ...): while a
 * command runs — it popped at once, or runs in EXEC or a script — it
 * replaces the command's own argv (rewriteClientCommandVector); for a
 * blocked client served after another's write, outside any call(), it is an
 * op of its own (alsoPropagate). */
void rewriteOrAlsoPropagate(client *c, std::span<const std::string_view> argv);
void populateCommandTable();
std::vector<redisCommand> &redisCommandTable(); /* commands.cpp */
std::string_view commandKeySpecs(std::string_view fullname); /* keyspecs.cpp, generated */
constexpr int C_OK = 0, C_ERR = -1;
constexpr int SHUTDOWN_NOFLAGS = 0, SHUTDOWN_SAVE = 1, SHUTDOWN_NOSAVE = 2, SHUTDOWN_NOW = 4, SHUTDOWN_FORCE = 8;
void resetServerStats();
/* enable-debug-command / enable-protected-configs: may client c do it? */
bool allowProtectedAction(int config, const client *c);
bool updateMaxclients(const char **err); /* CONFIG SET maxclients apply hook */
/* Re-listen after CONFIG SET port / bind (Redis's names); C_ERR leaves no
 * TCP listener, for CONFIG SET to restore the old value and call again. */
int changeListenPort(int port);
int changeBindAddr();
/* What initServer (server_main.cpp) sets up with: the file limit fitted
 * to maxclients (or maxclients to the limit), every `bind` address
 * listened to on `port` into `fds` (nothing left open on C_ERR), and their
 * accept handlers (on all of them or none). */
void adjustOpenFilesLimit();
int listenToPort(int port, std::vector<int> &fds);
int createSocketAcceptHandler(const std::vector<int> &fds);
size_t zmalloc_used_memory();

long long dbTotalServerKeyCount(); /* keys in every db (rdb.cpp) */

/* Builds one INFO section: a "# Title" line, then "name:value" lines. */
class InfoSection {
public:
    InfoSection(std::string &out, const char *title) : out_(out) {
        if (!out_.empty()) out_ += "\r\n";
        out_ += "# ";
        out_ += title;
        out_ += "\r\n";
    }
    template <typename T>
    InfoSection &field(const char *name, const T &value) {
        out_ += name;
        out_ += ':';
        if constexpr (std::is_arithmetic_v<T>) out_ += std::to_string(value);
        else out_ += value;
        out_ += "\r\n";
        return *this;
    }

private:
    std::string &out_;
};
void infoPersistence(std::string &out); /* rdb.cpp */

/* ------------------------------------------------------------------------
 * Command implementations (the table is in commands.cpp).
 * ---------------------------------------------------------------------- */
void pingCommand(client *c);
void echoCommand(client *c);
void timeCommand(client *c);
void infoCommand(client *c);
void shutdownCommand(client *c);
void commandCommand(client *c);
void commandCountCommand(client *c);
void commandInfoCommand(client *c);
void commandDocsCommand(client *c);
void commandListCommand(client *c);
void commandHelpCommand(client *c);
void helloCommand(client *c);
void authCommand(client *c);
void quitCommand(client *c);
void clientIdCommand(client *c);
void clientInfoCommand(client *c);
void clientListCommand(client *c);
void clientKillCommand(client *c);
void clientUnblockCommand(client *c);
void clientSetNameCommand(client *c);
void clientGetNameCommand(client *c);
void clientHelpCommand(client *c);
void debugCommand(client *c);
void appendCommand(client *c);
void copyCommand(client *c);
void dbsizeCommand(client *c);
void decrCommand(client *c);
void decrbyCommand(client *c);
void delCommand(client *c);
void discardCommand(client *c);
void execCommand(client *c);
void existsCommand(client *c);
void expireCommand(client *c);
void expireatCommand(client *c);
void expiretimeCommand(client *c);
void flushallCommand(client *c);
void flushdbCommand(client *c);
void getCommand(client *c);
void getdelCommand(client *c);
void getexCommand(client *c);
void getrangeCommand(client *c);
void getsetCommand(client *c);
void incrCommand(client *c);
void incrbyCommand(client *c);
void incrbyfloatCommand(client *c);
void keysCommand(client *c);
void mgetCommand(client *c);
void moveCommand(client *c);
void msetCommand(client *c);
void msetnxCommand(client *c);
void multiCommand(client *c);
void objectCommand(client *c);
void memoryCommand(client *c);
void persistCommand(client *c);
void pexpireCommand(client *c);
void pexpireatCommand(client *c);
void pexpiretimeCommand(client *c);
void psetexCommand(client *c);
void pttlCommand(client *c);
void randomkeyCommand(client *c);
void renameCommand(client *c);
void renamenxCommand(client *c);
void scanCommand(client *c);
void selectCommand(client *c);
void setCommand(client *c);
void setexCommand(client *c);
void setnxCommand(client *c);
void setrangeCommand(client *c);
void strlenCommand(client *c);
void ttlCommand(client *c);
void typeCommand(client *c);
void unlinkCommand(client *c);
void unwatchCommand(client *c);
void watchCommand(client *c);
void configGetCommand(client *c);
void configSetCommand(client *c);
void configResetStatCommand(client *c);
void configHelpCommand(client *c);

/* t_list.cpp — the list commands (the List Type API is in t_list.h). */
void lpushCommand(client *c);
void rpushCommand(client *c);
void lpushxCommand(client *c);
void rpushxCommand(client *c);
void linsertCommand(client *c);
void llenCommand(client *c);
void lindexCommand(client *c);
void lsetCommand(client *c);
void lrangeCommand(client *c);
void ltrimCommand(client *c);
void lremCommand(client *c);
void lpopCommand(client *c);
void rpopCommand(client *c);
void rpoplpushCommand(client *c);
void lmoveCommand(client *c);
void lposCommand(client *c);
void lmpopCommand(client *c);
void blpopCommand(client *c);
void brpopCommand(client *c);
void brpoplpushCommand(client *c);
void blmoveCommand(client *c);
void blmpopCommand(client *c);

/* t_hash.cpp — the hash commands (the Hash Type API is in t_hash.h). */
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

/* t_set.cpp — the set commands (the Set Type API is in t_set.h). */
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

/* t_zset.cpp — the sorted-set commands (the Sorted Set API is in t_zset.h). */
void zaddCommand(client *c);
void zincrbyCommand(client *c);
void zremCommand(client *c);
void zscoreCommand(client *c);
void zmscoreCommand(client *c);
void zcardCommand(client *c);
void zcountCommand(client *c);
void zrankCommand(client *c);
void zrevrankCommand(client *c);
void zrangeCommand(client *c);
void zrangebyscoreCommand(client *c);
void zrevrangebyscoreCommand(client *c);
void zrangebylexCommand(client *c);
void zrevrangebylexCommand(client *c);
void zrevrangeCommand(client *c);
void zremrangebyscoreCommand(client *c);
void zremrangebyrankCommand(client *c);
void zremrangebylexCommand(client *c);
void zlexcountCommand(client *c);
void zpopminCommand(client *c);
void zpopmaxCommand(client *c);
void zrangestoreCommand(client *c);
void zunionstoreCommand(client *c);
void zinterstoreCommand(client *c);
void zunionCommand(client *c);
void zinterCommand(client *c);
void zdiffCommand(client *c);
void zdiffstoreCommand(client *c);
void zintercardCommand(client *c);
void zrandmemberCommand(client *c);
void zmpopCommand(client *c);
void zscanCommand(client *c);
void bzpopminCommand(client *c);
void bzpopmaxCommand(client *c);
void bzmpopCommand(client *c);

/* rdb.cpp, aof.cpp — persistence commands. */
void saveCommand(client *c);
void bgsaveCommand(client *c);
void lastsaveCommand(client *c);
void bgrewriteaofCommand(client *c);

/* scripting.cpp — EVAL and the script cache. */
void evalCommand(client *c);
void evalShaCommand(client *c);
void evalRoCommand(client *c);
void evalShaRoCommand(client *c);
void scriptLoadCommand(client *c);
void scriptExistsCommand(client *c);
void scriptFlushCommand(client *c);
void scriptKillCommand(client *c);
void scriptHelpCommand(client *c);

/* pubsub.cpp — publish/subscribe. */
void subscribeCommand(client *c);
void unsubscribeCommand(client *c);
void psubscribeCommand(client *c);
void punsubscribeCommand(client *c);
void publishCommand(client *c);
void pubsubChannelsCommand(client *c);
void pubsubNumsubCommand(client *c);
void pubsubNumpatCommand(client *c);
void pubsubHelpCommand(client *c);

/* ------------------------------------------------------------------------
 * multi.cpp — MULTI/EXEC and WATCH.
 * ---------------------------------------------------------------------- */
void queueMultiCommand(client *c);
void flagTransaction(client *c);
void execCommandAbort(client *c, std::string_view error);
void discardTransaction(client *c);
void unwatchAllKeys(client *c);
void touchWatchedKey(redisDb *db, std::string_view key);
void touchAllWatchedKeysInDb(redisDb *emptied);
long long multiStateCount(const client *c); /* CLIENT LIST multi=: -1 outside MULTI */

/* ------------------------------------------------------------------------
 * networking.cpp — reading requests and writing replies.
 * ---------------------------------------------------------------------- */
client *createClient(int fd);
void freeClient(client *c);
void freeClientAsync(client *c);
void freeClientsInAsyncFreeQueue();
void acceptTcpHandler(aeEventLoop *el, int fd, void *privdata, int mask);
void readQueryFromClient(aeEventLoop *el, int fd, void *privdata, int mask);
void sendReplyToClient(aeEventLoop *el, int fd, void *privdata, int mask);
void processInputBuffer(client *c);
int processInlineBuffer(client *c);
int processMultibulkBuffer(client *c);
std::string clientOutputBytes(const client *c); /* pending output, for socketless clients */
int handleClientsWithPendingWrites();
bool clientHasPendingReplies(const client *c);
void resetClient(client *c);
std::string catClientInfoString(const client *c);
/* Output buffer limits: the client's class, the reply list's memory, and
 * the check run after reply bytes go to the list (and from clientsCron). */
int getClientType(const client *c);
int getClientTypeByName(std::string_view name); /* -1 if unknown */
const char *getClientTypeName(int type);
size_t getClientOutputBufferMemoryUsage(const client *c);
bool checkClientOutputBufferLimits(client *c);
bool closeClientOnOutputBufferLimitReached(client *c, bool async);
std::string getClientPeerId(client *c);
void clientsCron();
void getExpansiveClientsInfo(size_t *in_usage, size_t *out_usage); /* INFO client_recent_max_* */

/* Reply construction: every reply goes through _addReplyToBuffer/List. */
void addReplyProto(client *c, const char *s, size_t len);
void addReply(client *c, std::string_view proto);
void addReplyStatus(client *c, std::string_view status);
void addReplyError(client *c, std::string_view err);       /* "ERR ..." or "-CODE ..." */
void addReplyErrorObject(client *c, std::string_view proto);  /* a shared "-..." reply, counted as an error */
void addReplyOrErrorObject(client *c, std::string_view proto); /* either kind of shared reply */
void addReplyErrorFormat(client *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void addReplyErrorArity(client *c);
void addReplyBulk(client *c, std::string_view s);
void addReplyBulkLongLong(client *c, long long v);
void addReplyLongLong(client *c, long long v);
void addReplyDouble(client *c, double d);
void addReplyArrayLen(client *c, long long len);
void addReplyMapLen(client *c, long long len);
void addReplyNull(client *c);        /* $-1 in RESP2 */
void addReplyNullArray(client *c);   /* *-1 in RESP2 */
void addReplyVerbatim(client *c, std::string_view text); /* bulk in RESP2 */
void addReplyHelp(client *c, const char *const *help);
void addReplySubcommandSyntaxError(client *c);
void *addReplyDeferredLen(client *c);
void setDeferredArrayLen(client *c, void *node, long length);

/* Shared replies, as Redis's `shared` object. */
namespace shared {
inline constexpr std::string_view ok = "+OK\r\n";
inline constexpr std::string_view pong = "+PONG\r\n";
inline constexpr std::string_view czero = ":0\r\n";
inline constexpr std::string_view cone = ":1\r\n";
inline constexpr std::string_view null_bulk = "$-1\r\n";
inline constexpr std::string_view null_array = "*-1\r\n";
inline constexpr std::string_view empty_array = "*0\r\n";
inline constexpr std::string_view queued = "+QUEUED\r\n";
inline constexpr std::string_view syntaxerr = "-ERR syntax error\r\n";
inline constexpr std::string_view wrongtypeerr =
    "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
inline constexpr std::string_view nokeyerr = "-ERR no such key\r\n";
inline constexpr std::string_view outofrangeerr = "-ERR index out of range\r\n";
/* HSCAN/SSCAN/ZSCAN of a missing key: cursor 0, no elements. */
inline constexpr std::string_view emptyscan = "*2\r\n$1\r\n0\r\n*0\r\n";
}  // namespace shared
