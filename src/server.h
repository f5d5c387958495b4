/* server.h — the global server state (Redis's server.h): `server`, the
 * cached time, the command lookup, call() and the propagation of writes
 * (their code is server.cpp, the lower half of Redis's server.c).
 *
 * Mirrors Redis's server.h: one global `server` (struct redisServer) owns the
 * event loop, the listening sockets, every client (the `client` struct, and
 * `redisCommand`, the command table's row, are in networking.h; the table is
 * commands.cpp) and the configuration, and call() runs a command. What each
 * subsystem offers is declared in its own header (networking.h, db.h,
 * t_list.h, blocked.h, ...), each command procedure with its subsystem.
 * Invariants:
 *  - server.clients owns every client; see networking.h for who else may
 *    point at one and when they must let go.
 */
#pragma once

#include <sys/types.h>

#include <atomic>
#include <csignal>
#include <cstdint>
#include <ctime>
#include <initializer_list>
#include <list>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <type_traits>
#include <vector>

#include "ae.h"
#include "bio.h"
#include "db.h"
#include "log.h"
#include "networking.h"
#include "tls.h"
#include "util.h"


/* ------------------------------------------------------------------------
 * Limits and defaults (the same numbers as Redis 7.0).
 * ---------------------------------------------------------------------- */
constexpr int CONFIG_MIN_RESERVED_FDS = 32;
constexpr int CONFIG_FDSET_INCR = CONFIG_MIN_RESERVED_FDS + 96;
constexpr int CONFIG_BINDADDR_MAX = 16;
constexpr const char *CONFIG_DEFAULT_PID_FILE = "/var/run/redis.pid"; /* daemonize yes without pidfile */
/* `supervised`: who started the server and waits to hear it is ready. */
constexpr int SUPERVISED_NONE = 0, SUPERVISED_AUTODETECT = 1, SUPERVISED_SYSTEMD = 2, SUPERVISED_UPSTART = 3;
constexpr int CHILD_TYPE_NONE = 0, CHILD_TYPE_RDB = 1, CHILD_TYPE_AOF = 2; /* server.child_type */
constexpr int AOF_OFF = 0, AOF_ON = 1, AOF_WAIT_REWRITE = 2;              /* server.aof_state */
constexpr int AOF_FSYNC_NO = 0, AOF_FSYNC_ALWAYS = 1, AOF_FSYNC_EVERYSEC = 2; /* `appendfsync` */

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

/* Blocking (blocked.cpp): the server's side of it. */
/* A key that may let waiters go (Redis's readyList). */
struct readyList {
    redisDb *db;
    sds key;
    uint64_t trace_flow = 0; /* the trace's arrow from the signal to the served */
};

/* Redis 6's clients_timeout_table: blocked clients by deadline. */
using clientsTimeoutTable = std::set<std::pair<monotime, client *>>;

/* Pub/sub (pubsub.cpp). */
/* Channel (or pattern) -> its subscribers, in the order they subscribed:
 * the order PUBLISH delivers in. */
using pubsubDict = dict<sds, std::vector<client *>>;

/* maxmemory-policy values (Redis's MAXMEMORY_*): the flags say which keys a
 * policy samples (all of them or only those with a TTL) and how it ranks
 * them; evict.cpp implements them. */
constexpr int MAXMEMORY_FLAG_LRU = 1 << 0, MAXMEMORY_FLAG_LFU = 1 << 1, MAXMEMORY_FLAG_ALLKEYS = 1 << 2;
/* Under these policies every value needs a clock of its own, so values are
 * never the shared integers. */
constexpr int MAXMEMORY_FLAG_NO_SHARED_INTEGERS = MAXMEMORY_FLAG_LRU | MAXMEMORY_FLAG_LFU;
constexpr int MAXMEMORY_VOLATILE_LRU = (0 << 8) | MAXMEMORY_FLAG_LRU,
              MAXMEMORY_VOLATILE_LFU = (1 << 8) | MAXMEMORY_FLAG_LFU, MAXMEMORY_VOLATILE_TTL = 2 << 8,
              MAXMEMORY_VOLATILE_RANDOM = 3 << 8,
              MAXMEMORY_ALLKEYS_LRU = (4 << 8) | MAXMEMORY_FLAG_LRU | MAXMEMORY_FLAG_ALLKEYS,
              MAXMEMORY_ALLKEYS_LFU = (5 << 8) | MAXMEMORY_FLAG_LFU | MAXMEMORY_FLAG_ALLKEYS,
              MAXMEMORY_ALLKEYS_RANDOM = (6 << 8) | MAXMEMORY_FLAG_ALLKEYS, MAXMEMORY_NO_EVICTION = 7 << 8;

/* CLIENT PAUSE's types, least restrictive first (Redis's pause_type). */
constexpr int CLIENT_PAUSE_OFF = 0, CLIENT_PAUSE_WRITE = 1, CLIENT_PAUSE_ALL = 2;

/* Replication (replication.h). The states of a replica's link to its
 * master, server.repl_state (Redis 7.0's REPL_STATE_*: the handshake is
 * one state per step, each waiting for the master's answer). */
constexpr int REPL_STATE_NONE = 0,          /* not a replica */
              REPL_STATE_CONNECT = 1,       /* must connect to the master */
              REPL_STATE_CONNECTING = 2,    /* connecting */
              REPL_STATE_RECEIVE_PING_REPLY = 3, /* PING sent */
              REPL_STATE_SEND_HANDSHAKE = 4,     /* next: AUTH, REPLCONF listening-port/ip-address/capa */
              REPL_STATE_RECEIVE_AUTH_REPLY = 5,
              REPL_STATE_RECEIVE_PORT_REPLY = 6,
              REPL_STATE_RECEIVE_IP_REPLY = 7,
              REPL_STATE_RECEIVE_CAPA_REPLY = 8,
              REPL_STATE_SEND_PSYNC = 9,
              REPL_STATE_RECEIVE_PSYNC_REPLY = 10,
              REPL_STATE_TRANSFER = 11,     /* receiving the RDB */
              REPL_STATE_CONNECTED = 12;    /* the command stream flows */
constexpr int CONFIG_RUN_ID_SIZE = 40;      /* a replication ID: 40 hex characters */
constexpr long long CONFIG_REPL_BACKLOG_MIN_SIZE = 16 * 1024;
constexpr int REPL_DISKLESS_LOAD_DISABLED = 0; /* `repl-diskless-load`: the RDB goes to disk first */
constexpr int RDB_CHILD_TYPE_DISK = 1, RDB_CHILD_TYPE_SOCKET = 2; /* server.rdb_child_type */

/* One op of the execution unit (Redis 7's redisOp): the db it runs in, its
 * targets (PROPAGATE_AOF | PROPAGATE_REPL) and where its RESP lies in
 * server.also_propagate_buf. */
struct redisOp {
    int dbid;
    int target;
    size_t start, end;
};

/* ------------------------------------------------------------------------
 * The server.
 * ---------------------------------------------------------------------- */
/* Redis's struct redisServer. The parts that the layers below the server
 * use are its bases, defined with them (redisServerLog in log.h,
 * redisServerNetworking in networking.h, and its base redisServerConnection
 * in connection.h, redisServerBio in bio.h): above, every field still reads
 * server.x, as in Redis. */
struct redisServer : redisServerLog, redisServerNetworking, redisServerBio {
    std::string executable;
    std::string configfile;           /* absolute path, "" if none */
    int config_hz = 10;
    long long cronloops = 0;
    volatile sig_atomic_t shutdown_asap = 0; /* set by the signal handler */
    int shutdown_flags = 0;
    bool active_expire_enabled = true; /* DEBUG SET-ACTIVE-EXPIRE: false stops the active expire cycle (tests) */

    /* Listening (the rest of networking's state is in redisServerNetworking). */
    int port = 6379;
    int tcp_backlog = 511;
    std::vector<std::string> bindaddr{"127.0.0.1", "-::1"};
    std::vector<int> ipfd;            /* listening sockets */
    int sofd = -1;                    /* the listener at `unixsocket` (networking.h) */
    /* TLS (tls.cpp): its port's listeners, the contexts' configuration,
     * and whether replication links are TLS (tls_auth_clients is
     * networking's). */
    int tls_port = 0;
    std::vector<int> tlsfd;
    redisTLSContextConfig tls_ctx_config;
    bool tls_replication = false;
    bool tls_cluster = false; /* `tls-cluster`: no cluster bus, so it only asks for TLS set up (and a CA) */

    /* Blocking operations (blocked.cpp). */
    unsigned int blocked_clients = 0;                  /* CLIENT_BLOCKED clients */
    unsigned int blocked_clients_by_type[BLOCKED_NUM] = {};
    std::list<client *> unblocked_clients;             /* CLIENT_UNBLOCKED, to reprocess in beforeSleep */
    std::vector<readyList> ready_keys;                 /* keys signalled since the last handling */
    clientsTimeoutTable clients_timeout_table;         /* blocked clients with a deadline, earliest first */
    long long blocked_timeout_te = -1;                 /* time event armed at... */
    monotime blocked_timeout_te_when = 0;              /* ... this deadline (-1 id: none) */
    /* CLIENT PAUSE (Redis's client_pause_type / _end_time, one purpose:
     * the command): which commands wait, until when (getMonotonicUs), and
     * the clients waiting (BLOCKED_POSTPONE), in the order they came. */
    int client_pause_type = 0;                         /* CLIENT_PAUSE_* */
    monotime client_pause_end_time = 0;
    std::list<client *> postponed_clients;

    /* Process. */
    bool daemonize = false;
    bool jemalloc_bg_thread = true;   /* `jemalloc-bg-thread` (zmalloc.h) */
    std::string pidfile;
    bool pidfile_written = false;     /* createPidFile wrote `pidfile`: shutdown removes it */
    int supervised_mode = SUPERVISED_NONE; /* `supervised`; once started, the supervisor found (never AUTODETECT) */
    bool supervised = false;          /* a supervisor was found: daemonize is ignored */
    /* The process as Redis 7.0's redis.conf tunes it (config_table.cpp's
     * rows; server.cpp, server_main.cpp, setproctitle.cpp). */
    bool always_show_logo = false;
    bool set_proc_title = true;
    std::string proc_title_template = "{title} {listen-addr} {server-mode}";
    bool disable_thp = true;          /* prctl(PR_SET_THP_DISABLE) at start-up when THP is "always" */
    int oom_score_adj = 0;            /* OOM_SCORE_* */
    int oom_score_adj_values[3] = {0, 200, 800}; /* master, replica, background child */
    int shutdown_on_sigint = 0;       /* SHUTDOWN_* flags a signal's shutdown takes */
    int shutdown_on_sigterm = 0;
    bool activerehashing = true;
    bool dynamic_hz = true;
    int active_expire_effort = 1;     /* 1..10 */
    bool repl_ignore_disk_write_error = false;
    bool rdb_del_sync_files = false;  /* replication.h's removeSyncRdbFile */
    /* CPU affinity (redisSetCpuAffinity): the main thread, the bio threads,
     * the AOF rewrite child, the RDB child. "" for none. */
    std::string server_cpulist, aof_rewrite_cpulist, bgsave_cpulist; /* bio_cpulist: redisServerBio */

    long long dirty = 0;              /* changes since the last save */
    int enable_debug_cmd = 0;         /* PROTECTED_ACTION_ALLOWED_* */

    /* Background children (redisFork). */
    pid_t child_pid = -1;
    int child_type = CHILD_TYPE_NONE;
    long long stat_fork_time = 0;     /* µs the last fork() took */
    double stat_fork_rate = 0;        /* GB of used memory per second the last fork() copied (LATENCY DOCTOR) */
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
    int key_load_delay = 0;                    /* `key-load-delay`: debugDelay per key loaded (tests) */
    long long stat_dump_payload_sanitizations = 0; /* deep checks of a loaded blob, as Redis counts them */
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
    std::string aof_filename;         /* `appendfilename`: the prefix of every AOF file's name */
    std::string aof_dirname;          /* `appenddirname`, in `dir`: the manifest, base and incr files */
    bool aof_use_rdb_preamble = true; /* `aof-use-rdb-preamble`: a rewrite's base is an RDB (.base.rdb) */
    bool aof_disable_auto_gc = false; /* `aof-disable-auto-gc`: history files are kept */
    bool aof_no_fsync_on_rewrite = false; /* `no-appendfsync-on-rewrite` */
    bool aof_load_truncated = true;   /* `aof-load-truncated` */
    bool aof_rewrite_incremental_fsync = true; /* `aof-rewrite-incremental-fsync` */
    bool aof_timestamp_enabled = false; /* `aof-timestamp-enabled`: "#TS:<unix time>" annotations */
    time_t aof_cur_timestamp = 0;     /* the time of the last annotation written */
    int aof_rewrite_perc = 100;       /* `auto-aof-rewrite-percentage`: growth that triggers a rewrite */
    long long aof_rewrite_min_size = 64LL * 1024 * 1024; /* `auto-aof-rewrite-min-size` */
    int aof_fd = -1;                  /* the last incr file, open for appending while aof_state != AOF_OFF */
    int aof_selected_db = -1;         /* the db the file's last SELECT chose (-1: emit one) */
    std::string aof_buf;              /* propagated writes, written before replies leave (beforeSleep) */
    std::vector<redisOp> also_propagate; /* the execution unit's ops (propagatePendingCommands) */
    std::string also_propagate_buf;   /* their RESP, one after the other (reused: no SELECT in it) */
    time_t aof_rewrite_next_try = 0;  /* after repeated failures, automatic rewrites wait until then */
    long long aof_current_size = 0;   /* bytes in the base and incr files */
    long long aof_rewrite_base_size = 0; /* ... after the last rewrite or load: the growth base */
    long long aof_last_incr_size = 0; /* bytes in the incr file aof_fd writes */
    long long aof_last_incr_fsync_offset = 0; /* aof_last_incr_size at its last fsync */
    long long aof_last_fsync = 0;     /* mstime of the last fsync (everysec) */
    long long aof_delayed_fsync = 0;  /* everysec fsyncs that found the previous one still running */
    bool aof_rewrite_scheduled = false; /* start a rewrite as soon as no child runs */
    time_t aof_rewrite_time_start = -1, aof_rewrite_time_last = -1;
    int aof_lastbgrewrite_status = 0; /* C_OK */
    int aof_last_write_status = 0;    /* C_OK; C_ERR after a failed write: writes are refused (MISCONF) */
    int aof_last_write_errno = 0;
    /* The last background fsync's outcome: redisServerBio (bio.h). */
    long long stat_aof_rewrites = 0, stat_aofrw_consecutive_failures = 0;

    /* Replication as a master (replication_master.cpp). */
    std::string replid;               /* this history's ID, 40 hex characters */
    std::string replid2;              /* the master's ID before a promotion ("000..." if none) */
    long long master_repl_offset = 0; /* bytes of the replication stream so far */
    long long second_replid_offset = -1; /* replid2 is valid up to this offset */
    int slaveseldb = -1;              /* the db the stream's last SELECT chose (-1: emit one) */
    int repl_ping_slave_period = 10;  /* `repl-ping-replica-period`, seconds */
    std::unique_ptr<char[]> repl_backlog; /* the backlog, a circular buffer; null until a replica attaches */
    long long repl_backlog_size = 1024 * 1024; /* `repl-backlog-size` */
    long long repl_backlog_histlen = 0; /* bytes of history in it */
    long long repl_backlog_idx = 0;   /* where the next byte goes */
    long long repl_backlog_off = 0;   /* the stream offset of its first byte */
    long long repl_backlog_time_limit = 3600; /* `repl-backlog-ttl`: freed after so long without replicas (0: never) */
    time_t repl_no_slaves_since = 0;  /* when the last replica left */
    std::list<client *> slaves;       /* CLIENT_SLAVE clients, in attach order */
    int repl_min_slaves_to_write = 0; /* `min-replicas-to-write` */
    int repl_min_slaves_max_lag = 10; /* `min-replicas-max-lag`, seconds */
    int repl_good_slaves_count = 0;   /* replicas with lag <= min-replicas-max-lag */
    bool repl_diskless_sync = true;   /* `repl-diskless-sync` */
    int repl_diskless_sync_delay = 5; /* `repl-diskless-sync-delay`, seconds */
    int repl_diskless_sync_max_replicas = 0; /* `repl-diskless-sync-max-replicas` */
    bool repl_disable_tcp_nodelay = false; /* `repl-disable-tcp-nodelay` */
    int rdb_child_type = RDB_CHILD_TYPE_DISK; /* of the running BGSAVE child */
    std::list<client *> clients_waiting_acks; /* clients blocked in WAIT */
    bool get_ack_from_slaves = false; /* beforeSleep sends REPLCONF GETACK */
    long long stat_sync_full = 0, stat_sync_partial_ok = 0, stat_sync_partial_err = 0;

    /* Replication as a replica (replication_replica.cpp). */
    /* masterhost ("" while a master) is in redisServerLog (log.h): the log's role shows it. */
    int masterport = 6379;
    std::string masterauth;           /* `masterauth` */
    std::string masteruser;           /* `masteruser` */
    int repl_state = REPL_STATE_NONE;
    int repl_timeout = 60;            /* `repl-timeout`, seconds */
    client *master = nullptr;         /* the master's connection once CONNECTED */
    std::string master_replid;        /* the master's replication ID, from +FULLRESYNC / +CONTINUE */
    long long master_initial_offset = -1; /* the offset +FULLRESYNC gave */
    std::string cached_master_replid; /* after the link drops: where a PSYNC continues from */
    long long cached_master_reploff = -1; /* ... -1: nothing cached (a full sync is needed) */
    time_t repl_down_since = 0;       /* when the link went down (0: never up) */
    bool repl_serve_stale_data = true; /* `replica-serve-stale-data` */
    bool repl_slave_ro = true;        /* `replica-read-only` */
    bool repl_slave_ignore_maxmemory = true; /* `replica-ignore-maxmemory` */
    int slave_priority = 100;         /* `replica-priority` (INFO's slave_priority, for Sentinel) */
    bool replica_announced = true;    /* `replica-announced` */
    std::string slave_announce_ip;    /* `replica-announce-ip` */
    int slave_announce_port = 0;      /* `replica-announce-port` */
    int repl_diskless_load = REPL_DISKLESS_LOAD_DISABLED; /* `repl-diskless-load` */

    /* ACL (acl.cpp). */
    std::string requirepass;          /* `requirepass`: the default user's password, "" for nopass */
    std::string acl_filename;         /* `aclfile`, "" if users come from redis.conf */
    long long acllog_max_len = 128;   /* `acllog-max-len` */
    int acl_pubsub_default = 0;       /* `acl-pubsub-default`: SELECTOR_FLAG_ALLCHANNELS or 0 (resetchannels) */

    /* Scripting (scripting.cpp). */
    long long busy_reply_threshold = 5000; /* `busy-reply-threshold` (`lua-time-limit`), ms; 0 = never busy */

    /* Pub/sub, keyspace notifications, output buffer limits (pubsub.cpp, notify.cpp). */
    pubsubDict pubsub_channels;       /* channel -> subscribers */
    pubsubDict pubsub_patterns;       /* pattern -> subscribers */
    pubsubDict pubsub_shard_channels; /* shard channel -> subscribers (SSUBSCRIBE) */
    int notify_keyspace_events = 0;   /* NOTIFY_* classes to publish (notify.h) */

    /* Operating it (issue 20): MONITOR's clients, the slow log
     * (slowlog.cpp), the latency monitor and per-command latency histograms
     * (latency.cpp), lazy freeing (lazyfree.cpp), client-side caching
     * (tracking.cpp). */
    std::list<client *> monitors;     /* CLIENT_MONITOR clients, in MONITOR order */
    long long slowlog_log_slower_than = 10000; /* `slowlog-log-slower-than`, µs; -1 = never */
    long long slowlog_max_len = 128;  /* `slowlog-max-len` */
    long long latency_monitor_threshold = 0; /* `latency-monitor-threshold`, ms; 0 = off */
    bool latency_tracking_enabled = true; /* `latency-tracking` */
    std::vector<double> latency_tracking_info_percentiles{50.0, 99.0, 99.9}; /* `latency-tracking-info-percentiles` */
    bool lazyfree_lazy_eviction = false;   /* `lazyfree-lazy-eviction` */
    bool lazyfree_lazy_expire = false;     /* `lazyfree-lazy-expire` */
    bool lazyfree_lazy_server_del = false; /* `lazyfree-lazy-server-del` */
    bool lazyfree_lazy_user_del = false;   /* `lazyfree-lazy-user-del` */
    bool lazyfree_lazy_user_flush = false; /* `lazyfree-lazy-user-flush` */
    bool repl_slave_lazy_flush = false;    /* `replica-lazy-flush` */
    long long tracking_table_max_keys = 1000000; /* `tracking-table-max-keys` */

    /* Lists (t_list.cpp): a ziplist becomes a linkedlist past either limit. */
    long long list_max_ziplist_entries = 512;
    long long list_max_ziplist_value = 64;  /* bytes */
    /* Hashes, sets, sorted sets: the compact encoding's limits likewise. */
    long long hash_max_ziplist_entries = 512;
    long long hash_max_ziplist_value = 64;  /* bytes */
    long long set_max_intset_entries = 512;
    long long zset_max_ziplist_entries = 128;
    long long zset_max_ziplist_value = 64;  /* bytes */
    /* HyperLogLog (hyperloglog.cpp): a sparse HLL past this many bytes becomes dense. */
    long long hll_sparse_max_bytes = 3000;
    /* Streams (t_stream.cpp): a node takes entries up to either limit (0: none). */
    long long stream_node_max_bytes = 4096;
    long long stream_node_max_entries = 100;

    /* maxmemory and eviction (evict.cpp); the LFU's knobs (object.cpp). */
    long long maxmemory = 0;                     /* bytes; 0: no limit */
    int maxmemory_policy = MAXMEMORY_NO_EVICTION;
    int maxmemory_samples = 5;                   /* keys sampled per db for the eviction pool */
    int maxmemory_eviction_tenacity = 10;        /* 0..100: how long one eviction cycle may run */
    int lfu_log_factor = 10;                     /* the counter's logarithm base, roughly */
    int lfu_decay_time = 1;                      /* minutes per counter decrement; 0: never */
    bool pre_command_oom_state = false;          /* over maxmemory when the running command started */
    long long stat_evictedkeys = 0;
    long long stat_total_eviction_exceeded_time = 0; /* µs over maxmemory, ended periods */
    monotime stat_last_eviction_exceeded_time = 0;   /* when the current period began, 0: none */

    /* Statistics (INFO stats). */
    time_t stat_starttime = 0;
    long long stat_numcommands = 0;
    long long stat_keyspace_hits = 0;
    long long stat_keyspace_misses = 0;
    long long stat_expiredkeys = 0;
    double stat_expired_stale_perc = 0;           /* running average, 0..1 */
    long long stat_expired_time_cap_reached_count = 0;
    long long stat_expire_cycle_time_used = 0;    /* µs spent in activeExpireCycle */
    size_t stat_peak_memory = 0;
    size_t initial_memory_usage = 0;  /* used memory once initialized, before the data loads (startup.allocated) */

    /* Samples of the instantaneous_* figures (trackInstantaneousMetric). */
    static constexpr int STATS_METRIC_SAMPLES = 16;
    enum {
        STATS_METRIC_COMMAND,                 /* commands processed */
        STATS_METRIC_NET_INPUT,               /* bytes read from clients */
        STATS_METRIC_NET_OUTPUT,              /* bytes written to clients */
        STATS_METRIC_NET_INPUT_REPLICATION,   /* bytes read from the master */
        STATS_METRIC_NET_OUTPUT_REPLICATION,  /* bytes written to replicas */
        STATS_METRIC_COUNT
    };
    struct instMetric {
        long long last_sample_time = 0;  /* ms */
        long long last_sample_count = 0;
        long long samples[STATS_METRIC_SAMPLES] = {};
        int idx = 0;
    };
    instMetric inst_metric[STATS_METRIC_COUNT];

    /* The command table: lower-case name -> command. */
    commandDict commands;
    std::vector<redisCommand> *command_table = nullptr;
};

extern redisServer server;

/* ------------------------------------------------------------------------
 * server.cpp
 * ---------------------------------------------------------------------- */
long long ustime();
long long mstime();
void updateCachedTime();
redisCommand *lookupCommand(std::span<const std::string_view> argv);
redisCommand *lookupCommandByName(std::string_view name);
redisCommand *lookupCommandBySdsFullname(std::string_view name); /* "get" or "config|get" */
/* Where a command's effects are propagated (Redis's PROPAGATE_*; also the
 * values of a script's redis.set_repl() flags): the AOF and the replicas. */
constexpr int PROPAGATE_NONE = 0, PROPAGATE_AOF = 1, PROPAGATE_REPL = 2;
/* call() flags (Redis's CMD_CALL_*): whether the command's own argv may
 * reach the AOF, the replicas; a script's redis.set_repl() can take them away. */
constexpr int CMD_CALL_NONE = 0, CMD_CALL_PROPAGATE_AOF = 1 << 2, CMD_CALL_PROPAGATE_REPL = 1 << 3,
              CMD_CALL_PROPAGATE = CMD_CALL_PROPAGATE_AOF | CMD_CALL_PROPAGATE_REPL;
void call(client *c, int call_flags = CMD_CALL_PROPAGATE);
/* The targets that take ops now (Redis 7.0's shouldPropagate): the AOF
 * while it is on; the replicas while a backlog exists and this server is
 * no replica (a replica proxies its master's stream instead). Nothing
 * while a file loads. */
inline int propagationTargets() {
    if (server.aof_state == AOF_OFF && !server.repl_backlog) return PROPAGATE_NONE;
    if (server.loading) return PROPAGATE_NONE;
    int targets = server.aof_state != AOF_OFF ? PROPAGATE_AOF : PROPAGATE_NONE;
    if (server.repl_backlog && server.masterhost.empty()) targets |= PROPAGATE_REPL;
    return targets;
}
/* While CLIENT PAUSE lasts the dataset stays as it is: keys neither expire
 * nor are evicted (Redis's checkClientPauseTimeoutAndReturnIfPaused; the
 * pause's end itself is handled by blocked.cpp's timer). */
inline bool checkClientPauseTimeoutAndReturnIfPaused() {
    return server.client_pause_type != CLIENT_PAUSE_OFF && getMonotonicUs() < server.client_pause_end_time;
}
/* "q 0" — the request's first arguments, shortened, for trace events. */
std::string traceCommandArgs(const client *c);
/* Propagation (server.cpp): every write reaches the AOF through here. */
/* The AOF and replication, layers above (tools/check_layers.sh), receive
 * each execution unit propagation closes (server.also_propagate): aof.cpp's
 * feedAppendOnlyFile and replication_master.cpp's replicationFeedSlaves,
 * handed over by installServerHooks (hooks.cpp). Each writes the ops meant
 * for it (catExecutionUnit). Redis's propagation calls them directly. */
using propagationTargetProc = void (*)();
void registerFeedAppendOnlyFile(propagationTargetProc feed);
void registerReplicationFeed(propagationTargetProc feed);
/* Appends the unit's ops meant for `target` to dst, as that target's
 * stream: a SELECT where the db differs from `seldb` (which follows), and
 * MULTI/EXEC around two ops or more, after the SELECT of the first (as
 * Redis 7.0's propagatePendingCommands). */
void catExecutionUnit(std::string &dst, int target, int &seldb);
/* An op for `target` (of those propagationTargets() takes). */
void alsoPropagate(int dbid, std::span<const std::string_view> argv, int target = PROPAGATE_AOF | PROPAGATE_REPL);
void alsoPropagate(int dbid, std::initializer_list<std::string_view> argv);
/* Hands the execution unit's ops to the AOF and the replicas: the
 * outermost call() does it when its command ends; code that runs outside
 * any command and makes a unit of its own (a served XREADGROUP waiter, as
 * Redis 7.0's afterCommand) does it itself. */
void propagatePendingCommands();
void preventCommandPropagation(client *c);
/* Propagate even if server.dirty did not move (FLUSHALL; PUBLISH to the replicas). */
void forceCommandPropagation(client *c, int target = PROPAGATE_AOF | PROPAGATE_REPL);
/* A command changes what is propagated for it (SETEX as SET ... PXAT):
 * c->argv becomes `argv`, copied into the client. Call it last, once the
 * command is done with its arguments; with no target it does nothing. */
void rewriteClientCommandVector(client *c, std::span<const std::string_view> argv);
void rewriteClientCommandVector(client *c, std::initializer_list<std::string_view> argv);
void rewriteClientCommandArgument(client *c, size_t i, std::string_view arg);
/* What a pop is for the AOF (LPOP key, ZPOPMIN key 2, LMOVE ...): while a
 * command runs — it popped at once, or runs in EXEC or a script — it
 * replaces the command's own argv (rewriteClientCommandVector); for a
 * blocked client served after another's write, outside any call(), it is an
 * op of its own (alsoPropagate). */
void rewriteOrAlsoPropagate(client *c, std::span<const std::string_view> argv);
constexpr int SHUTDOWN_NOFLAGS = 0, SHUTDOWN_SAVE = 1, SHUTDOWN_NOSAVE = 2, SHUTDOWN_NOW = 4, SHUTDOWN_FORCE = 8;
/* oom-score-adj and the process classes of oom-score-adj-values. */
/* hz is clamped to these; dynamic-hz doubles it while a cron tick would
 * visit more than MAX_CLIENTS_PER_CLOCK_TICK clients. */
constexpr int CONFIG_MIN_HZ = 1, CONFIG_MAX_HZ = 500, MAX_CLIENTS_PER_CLOCK_TICK = 200;
constexpr int OOM_SCORE_ADJ_NO = 0, OOM_SCORE_RELATIVE = 1, OOM_SCORE_ADJ_ABSOLUTE = 2;
constexpr int CONFIG_OOM_MASTER = 0, CONFIG_OOM_REPLICA = 1, CONFIG_OOM_BGCHILD = 2, CONFIG_OOM_COUNT = 3;
/* Redis's setOOMScoreAdj: writes /proc/self/oom_score_adj for the class
 * (-1: master or replica, as this server is now) as oom-score-adj says;
 * `no` puts back the value found before the first change. C_ERR, logged,
 * if the file cannot be read or written. */
int setOOMScoreAdj(int process_class);
/* proc-title-template expanded with `title` (nullptr: the executable as
 * invoked); false for an unknown {variable} or a malformed template. */
bool expandProcTitleTemplate(std::string_view tmpl, const char *title, std::string &out);
/* Redis's redisSetProcTitle: the process title (ps, /proc/pid/cmdline) from
 * proc-title-template, if set-proc-title. */
void redisSetProcTitle(const char *title);
void resetServerStats();
/* CONFIG RESETSTAT's zeroing of every command's calls/usec/rejected/failed
 * (INFO errorstats: networking.h's resetErrorTableStats). */
void resetCommandTableStats();
/* Redis's incrCommandStatsOnError: if error replies were counted since the
 * last call, one more rejected (ERROR_COMMAND_REJECTED) or failed
 * (ERROR_COMMAND_FAILED) call of `cmd`, and true. Each call starts a new
 * count (nullptr: just that). call() brackets every command with it; a
 * script's refusal of a command it may not call counts that command. */
constexpr int ERROR_COMMAND_REJECTED = 1 << 0, ERROR_COMMAND_FAILED = 1 << 1;
bool incrCommandStatsOnError(redisCommand *cmd, int flags);
/* enable-debug-command / enable-protected-configs: may client c do it? */
bool allowProtectedAction(int config, const client *c);
bool updateMaxclients(const char **err); /* CONFIG SET maxclients apply hook */
/* Re-listen after CONFIG SET port / bind (Redis's names); C_ERR leaves no
 * TCP listener, for CONFIG SET to restore the old value and call again. */
int changeListenPort(int port, std::vector<int> &fds = server.ipfd, aeFileProc accept_handler = acceptTcpHandler);
int changeBindAddr();
/* What initServer (server_main.cpp) sets up with: the file limit fitted
 * to maxclients (or maxclients to the limit), every `bind` address
 * listened to on `port` into `fds` (nothing left open on C_ERR), and their
 * accept handlers (on all of them or none). */
void adjustOpenFilesLimit();
int listenToPort(int port, std::vector<int> &fds);
/* Closes the TCP and TLS listeners and the unix socket's (Redis's
 * closeListeningSockets); at shutdown (unlink_unix_socket) also removes the
 * socket's file, which a forked child, closing its copies, must leave. */
void closeListeningSockets(bool unlink_unix_socket);
int createSocketAcceptHandler(const std::vector<int> &fds, aeFileProc accept_handler = acceptTcpHandler);
/* Whether TLS must verify peers, so needs a CA (tls-auth-clients not no,
 * tls-replication or tls-cluster). */
bool tlsRequiresCA();

/* Tells systemd `state` ("READY=1\n", "STATUS=...\n") by sd_notify's
 * protocol: one datagram to the unix socket named by $NOTIFY_SOCKET.
 * libsystemd's return: > 0 sent, 0 no NOTIFY_SOCKET, < 0 -errno; the
 * failures are logged, as Redis logs sd_notify's. */
int redisCommunicateSystemd(const char *state);

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

/* server.cpp's commands: PING, ECHO, TIME, CONFIG
 * (the command table is in commands.cpp). */
void pingCommand(client *c);
void monitorCommand(client *c);
/* Sends the command `c` ran to every MONITOR client, in Redis's line format. */
void replicationFeedMonitors(client *c, int dictid, std::span<const std::string_view> argv);
/* RESET and freeClient: the client leaves server.monitors. */
void unmonitorClient(client *c);
/* The `rename-command` directive of redis.conf (registerConfigDirective,
 * config.h): the command answers to the new name alone; "" removes it. */
bool loadRenameCommandDirective(std::span<const std::string> argv, std::string &err);
void echoCommand(client *c);
void timeCommand(client *c);
void configGetCommand(client *c);
void configSetCommand(client *c);
void configResetStatCommand(client *c);
void configHelpCommand(client *c);
void configRewriteCommand(client *c);
