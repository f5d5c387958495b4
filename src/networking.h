/* networking.h — clients (Redis's networking.c): the connection, its
 * requests and its replies, and the `client` struct itself (in Redis's
 * server.h).
 *
 * The client is defined here, below the server (tools/check_layers.sh), so
 * that what networking does to a client needs nothing above it. A client
 * also carries the state each mechanism keeps per client (MULTI's queue,
 * WATCHed keys, what a blocked client waits for, its subscriptions): those
 * types are defined here with it, as Redis defines them in server.h next to
 * `client`; the code that runs each mechanism is in its own file (multi.cpp,
 * blocked.cpp, pubsub.cpp).
 * Invariants:
 *  - server.clients owns every client (unique_ptr); every other structure
 *    (clients_pending_write, clients_to_close, clients_index; for a
 *    watcher db->watched_keys; for a subscriber server.pubsub_channels /
 *    pubsub_patterns / pubsub_shard_channels; for a blocked client
 *    db->blocking_keys, clients_timeout_table, unblocked_clients,
 *    postponed_clients and clients_waiting_acks; server.slaves, monitors
 *    and master) holds plain pointers and must drop them in freeClient()
 *    before the client dies.
 *  - A client's argv views point into its own query buffer and are valid
 *    only while its current command runs; anything kept longer is copied.
 */
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <ctime>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ae.h"
#include "connection.h"
#include "dict.h"
#include "commands/keyspecs.h"
#include "request_parser.h"
#include "sds.h"
#include "stream.h" /* streamID: what an XREAD waiter waits past */

struct redisCommand;
struct redisDb;
struct client;
struct getKeysResult;
struct user; /* an ACL user (acl.h, above): clients only point at one */

/* ------------------------------------------------------------------------
 * Limits (the same numbers as Redis 7.0).
 * ---------------------------------------------------------------------- */
constexpr size_t PROTO_IOBUF_LEN = 16 * 1024;        /* read size per call */
constexpr size_t PROTO_REPLY_CHUNK_BYTES = 16 * 1024; /* static reply buffer */
/* NET_MAX_WRITES_PER_EVENT, what one write event sends at most, is in
 * connection.h: TLS coalesces a writev up to it too. */

/* ------------------------------------------------------------------------
 * Client flags (the subset implemented so far keeps Redis's names).
 * ---------------------------------------------------------------------- */
constexpr uint64_t CLIENT_SLAVE = 1ULL << 0;              /* a replica's connection (replication.h) */
constexpr uint64_t CLIENT_MASTER = 1ULL << 1;             /* the master's connection, on a replica */
constexpr uint64_t CLIENT_MONITOR = 1ULL << 2;            /* MONITOR: gets every command (server.monitors) */
constexpr uint64_t CLIENT_MULTI = 1ULL << 3;              /* inside MULTI: commands are queued */
constexpr uint64_t CLIENT_BLOCKED = 1ULL << 4;            /* waiting in a blocking command (blocked.h) */
constexpr uint64_t CLIENT_DIRTY_CAS = 1ULL << 5;          /* a WATCHed key changed: EXEC fails */
constexpr uint64_t CLIENT_CLOSE_AFTER_REPLY = 1ULL << 6; /* close once the reply is written */
constexpr uint64_t CLIENT_UNBLOCKED = 1ULL << 7;          /* unblocked, queued in server.unblocked_clients */
constexpr uint64_t CLIENT_SCRIPT = 1ULL << 8;             /* the client scripts run their commands on */
constexpr uint64_t CLIENT_CLOSE_ASAP = 1ULL << 10;       /* close in beforeSleep */
constexpr uint64_t CLIENT_UNIX_SOCKET = 1ULL << 11;      /* connected through `unixsocket` */
constexpr uint64_t CLIENT_DIRTY_EXEC = 1ULL << 12;
constexpr uint64_t CLIENT_MASTER_FORCE_REPLY = 1ULL << 13; /* the master gets this reply (REPLCONF ACK) */       /* a command failed to queue: EXEC aborts */
constexpr uint64_t CLIENT_PRE_PSYNC = 1ULL << 16;         /* a replica that spoke the old SYNC */
constexpr uint64_t CLIENT_PUBSUB = 1ULL << 18;           /* subscribed to a channel or pattern (pubsub.cpp) */
constexpr uint64_t CLIENT_PREVENT_AOF_PROP = 1ULL << 19; /* don't propagate this command to the AOF */
constexpr uint64_t CLIENT_PREVENT_REPL_PROP = 1ULL << 20; /* ... nor to replicas */
constexpr uint64_t CLIENT_PREVENT_PROP = CLIENT_PREVENT_AOF_PROP | CLIENT_PREVENT_REPL_PROP;
constexpr uint64_t CLIENT_PENDING_WRITE = 1ULL << 21;    /* queued in clients_pending_write */
constexpr uint64_t CLIENT_FORCE_AOF = 1ULL << 14;       /* propagate even if nothing changed (FLUSHALL) */
constexpr uint64_t CLIENT_FORCE_REPL = 1ULL << 15;      /* ... to the replicas (FLUSHALL, PUBLISH) */
constexpr uint64_t CLIENT_PROTOCOL_ERROR = 1ULL << 39;   /* reply then close */
constexpr uint64_t CLIENT_DENY_BLOCKING = 1ULL << 41;
constexpr uint64_t CLIENT_REPL_RDBONLY = 1ULL << 42;     /* a replica that wants the RDB only (REPLCONF rdb-only) */    /* blocking commands answer as if timed out (scripts) */
/* cppredis's own: the client has received trace events (livetrace.h). Its
 * commands and socket events are the trace's delivery, so not traced. */
constexpr uint64_t CLIENT_TRACE_READER = 1ULL << 56;
/* CLIENT REPLY OFF / SKIP (the next command's reply) / SKIP armed for the next one. */
constexpr uint64_t CLIENT_REPLY_OFF = 1ULL << 22;
constexpr uint64_t CLIENT_REPLY_SKIP_NEXT = 1ULL << 23;
constexpr uint64_t CLIENT_REPLY_SKIP = 1ULL << 24;
/* Client-side caching (tracking.h): CLIENT TRACKING on, its redirection
 * gone, and the BCAST/OPTIN/OPTOUT/NOLOOP modes; CACHING yes|no seen. */
constexpr uint64_t CLIENT_TRACKING = 1ULL << 31;
constexpr uint64_t CLIENT_TRACKING_BROKEN_REDIR = 1ULL << 32;
constexpr uint64_t CLIENT_TRACKING_BCAST = 1ULL << 33;
constexpr uint64_t CLIENT_TRACKING_OPTIN = 1ULL << 34;
constexpr uint64_t CLIENT_TRACKING_OPTOUT = 1ULL << 35;
constexpr uint64_t CLIENT_TRACKING_CACHING = 1ULL << 36;
constexpr uint64_t CLIENT_TRACKING_NOLOOP = 1ULL << 37;
constexpr uint64_t CLIENT_NO_EVICT = 1ULL << 43;         /* CLIENT NO-EVICT on */
constexpr uint64_t CLIENT_PUSHING = 1ULL << 46;          /* writing a push message (not the command's reply) */


/* A replica's state on its master (client::replstate, Redis's
 * SLAVE_STATE_*); REPL_STATE_NONE (0) for every other client. */
constexpr int SLAVE_STATE_WAIT_BGSAVE_START = 6, /* waits for a BGSAVE to start for it */
              SLAVE_STATE_WAIT_BGSAVE_END = 7,   /* the BGSAVE runs; its output buffer fills */
              SLAVE_STATE_SEND_BULK = 8,         /* the RDB is being sent */
              SLAVE_STATE_ONLINE = 9;            /* the command stream flows */
/* What a replica said it understands (REPLCONF capa). */
constexpr int SLAVE_CAPA_NONE = 0, SLAVE_CAPA_EOF = 1 << 0, SLAVE_CAPA_PSYNC2 = 1 << 1;

/* A block of the reply list, used once the static buffer is full. */
struct clientReplyBlock {
    size_t size, used;
    std::unique_ptr<char[]> buf;
};

/* ------------------------------------------------------------------------
 * The command a client runs: one row of the command table (commands.cpp;
 * in Redis's server.h). Its flags (CMD_*) are server.h's.
 * ---------------------------------------------------------------------- */

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

using redisCommandProc = void (*)(client *c);
/* Finds the keys where the key specs cannot (db.h's getKeysFromCommandWithSpecs). */
using redisGetKeysProc = int (*)(const redisCommand *cmd, std::span<const std::string_view> argv,
                                 getKeysResult *result);

/* One row of the command table. Arity counts the command name itself;
 * a negative arity means "at least -arity arguments". */
struct redisCommand {
    const char *declared_name;   /* lower case; "get", or "get" below "config" */
    redisCommandProc proc;
    int arity;
    uint64_t flags;
    int firstkey, lastkey, keystep; /* key positions for COMMAND INFO / GETKEYS */
    /* COMMAND DOCS of a command Redis lacks (TRACE); null for Redis's own,
     * whose docs are commanddocs.cpp's */
    const char *group = nullptr;
    const char *summary = nullptr;
    const char *since = nullptr;
    std::vector<redisCommand> subcommands;
    std::vector<const char *> tips;  /* COMMAND INFO tips, e.g. "request_policy:all_shards" */
    uint64_t acl_categories = 0;     /* explicit ACL_CATEGORY_*; implicit ones added at start */
    redisGetKeysProc getkeys_proc = nullptr; /* for specs that are incomplete or whose flags vary */

    /* Filled when the table is populated. */
    std::string fullname;            /* "config|get" for a subcommand */
    unsigned long id = 0;            /* its bit in ACL users' command bitmaps (acl.h) */
    redisCommand *parent = nullptr;
    commandDict subcommands_dict;
    std::span<const keySpec> key_specs; /* keyspecs.cpp's table for `fullname` */

    /* Statistics for INFO commandstats. */
    long long microseconds = 0, calls = 0, rejected_calls = 0, failed_calls = 0;
};

/* ------------------------------------------------------------------------
 * Per-client state of the mechanisms.
 * ---------------------------------------------------------------------- */

/* The per-db dicts from a key to the clients interested in it, first
 * interested first: redisDb's watched_keys (WATCH, multi.cpp) and
 * blocking_keys (blocked.cpp). A client's state points into their entries. */
using watchedKeysDict = dict<sds, std::list<client *>>;
using blockingKeysDict = dict<sds, std::list<client *>>;

/* Transactions (multi.cpp). */

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

/* Blocking (blocked.cpp). */

/* Block types (client::btype), Redis 5.0's numbers. BLOCKED_LIST,
 * BLOCKED_WAIT, BLOCKED_STREAM and BLOCKED_ZSET are used; BLOCKED_MODULE
 * keeps Redis's numbering. */
constexpr int BLOCKED_NONE = 0,   /* not blocked */
              BLOCKED_LIST = 1,   /* BLPOP, BRPOP, BRPOPLPUSH, BLMOVE, BLMPOP */
              BLOCKED_WAIT = 2,   /* WAIT (replication) */
              BLOCKED_MODULE = 3, /* a module's blocking command */
              BLOCKED_STREAM = 4, /* XREAD BLOCK, XREADGROUP BLOCK */
              BLOCKED_ZSET = 5,   /* BZPOPMIN, BZPOPMAX, BZMPOP */
              BLOCKED_POSTPONE = 6, /* CLIENT PAUSE: the command runs once the pause ends */
              BLOCKED_NUM = 7;

/* One key a client waits on (Redis's bkinfo): the key's entry in
 * db->blocking_keys, which owns the key's name (a copy: argv dies with the
 * command), and the client's node in that entry's FIFO, so that leaving is
 * O(1) whichever waiter leaves. */
struct bkinfo {
    blockingKeysDict::entry *de;
    std::list<client *>::iterator listnode;
    streamID stream_id; /* BLOCKED_STREAM: entries after this one serve it */
};

/* What serving one blocked client did (blocked.h's serveClientBlockedProc). */
enum class blockedServe {
    served,         /* replied: the client is to be unblocked */
    served_emptied, /* replied, and that emptied (so deleted) the key */
    not_ready,      /* nothing for it yet (XREAD's ID not passed): it waits on */
};
inline blockedServe blockedServed(bool emptied) {
    return emptied ? blockedServe::served_emptied : blockedServe::served;
}

/* Where BRPOPLPUSH/BLMOVE pop and push, where BLPOP/BRPOP/BLMPOP pop
 * (LIST_HEAD or LIST_TAIL), and which end BZPOPMIN/BZPOPMAX/BZMPOP pop
 * (ZSET_MIN or ZSET_MAX, in wherefrom): Redis's blockPos. */
struct blockPos {
    int wherefrom = 0;
    int whereto = 0;
};

/* What a blocked client waits for (Redis's blockingState, client::bpop). */
struct blockingState {
    monotime timeout = 0;        /* deadline, getMonotonicUs; 0 = wait forever */
    std::vector<bkinfo> keys;    /* each key once, in the command's order */
    std::optional<sds> target;   /* BRPOPLPUSH/BLMOVE: the destination key */
    blockPos blockpos;
    long count = -1;             /* BLMPOP's/BZMPOP's COUNT, XREAD's; -1 for the others */
    /* XREADGROUP: the group and consumer to read as (copies), and NOACK. */
    std::optional<sds> xread_group;
    std::optional<sds> xread_consumer;
    bool xread_group_noack = false;
    /* BLOCKED_WAIT: the replication offset to be acknowledged, by how many replicas. */
    long long reploffset = 0;
    int numreplicas = 0;
};

/* Pub/sub (pubsub.cpp) and output buffer limits. */
struct pubsubSetMember {}; /* a dict used as a set: no value */
using clientChannelsDict = dict<sds, pubsubSetMember>;

/* The id of the client that replays the AOF (Redis's createAOFClient). */
constexpr uint64_t CLIENT_ID_AOF = UINT64_MAX;

/* Client classes of client-output-buffer-limit (getClientType): the
 * master's connection has no limit. */
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
    connectionPtr conn;               /* its socket or TLS connection; null for a socketless client */
    std::string name;
    std::string addr, laddr;          /* "ip:port" of peer and local side */
    redisDb *db = nullptr;            /* the SELECTed database */
    int resp = 2;                     /* the protocol HELLO chose: 2 or 3 */
    uint64_t flags = 0;
    struct user *user = nullptr;      /* the ACL user it runs as (acl.h); nullptr: anything goes */
    bool authenticated = false;       /* AUTH/HELLO succeeded, or it started as a nopass default user */

    QueryBuffer querybuf;
    RequestParser req;
    std::vector<std::string_view> argv; /* the command being run (into querybuf) */
    std::string argv_rewritten;       /* the bytes of argv once a command rewrote it for the AOF */
    /* The arguments as the slow log shows them when they differ from argv
     * (Redis's original_argv; empty otherwise): argv before a rewrite for
     * propagation, or with a password redacted. Views into the request, or
     * into original_argv_bytes while the client is blocked (the request is
     * reset then, and the command logged when it is served). */
    std::vector<std::string_view> original_argv;
    std::string original_argv_bytes;
    long long duration = 0;           /* µs its last call() took (a served blocked command adds its reply's) */
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

    /* Replication (replication.h): a replica's connection on its master
     * (CLIENT_SLAVE), or the master's connection on a replica (CLIENT_MASTER). */
    int replstate = 0;                /* SLAVE_STATE_*, 0 (REPL_STATE_NONE) for other clients */
    int repldbfd = -1;                /* the RDB file being sent to it (closed when it is freed) */
    long long repldboff = 0;          /* bytes of it sent */
    long long repldbsize = 0;         /* its size */
    std::string replpreamble;         /* "$<size>\r\n", sent before the file */
    long long psync_initial_offset = 0; /* the offset its FULLRESYNC was at */
    long long repl_ack_off = 0;       /* its last REPLCONF ACK offset */
    long long repl_ack_time = 0;      /* unix seconds of that ACK */
    int slave_listening_port = 0;     /* REPLCONF listening-port */
    std::string slave_addr;           /* REPLCONF ip-address (replica-announce-ip), "" if not given */
    int slave_capa = SLAVE_CAPA_NONE; /* REPLCONF capa */
    long long read_reploff = 0;       /* the master's connection: stream bytes read ... */
    long long reploff = 0;            /* ... and applied (a transaction counts once EXEC ran) */
    std::string pending_querybuf;     /* applied bytes not yet proxied to sub-replicas (inside MULTI) */
    long long woff = 0;               /* master_repl_offset after its last command (what WAIT waits for) */
    bool repl_start_cmd_stream_on_ack = false; /* online after a diskless RDB: the stream waits for its first ACK */

    /* Client-side caching (tracking.h): where invalidations go (0: this
     * connection) and the BCAST prefixes. */
    uint64_t client_tracking_redirection = 0;
    std::vector<std::string> client_tracking_prefixes;
    /* Sharded pub/sub (SSUBSCRIBE): the shard channels, as pubsub_channels. */
    clientChannelsDict pubsub_shard_channels;

    std::list<std::unique_ptr<client>>::iterator self; /* node in server.clients */

    client();
    ~client();
    client(const client &) = delete;
    client &operator=(const client &) = delete;
};

/* The AOF's client and the master's connection replay what this server or
 * its master already accepted: they are obeyed past this server's own
 * limits (proto-max-bulk-len, a trim's LIMIT...) (Redis's mustObeyClient). */
inline bool mustObeyClient(const client *c) { return c->id == CLIENT_ID_AOF || (c->flags & CLIENT_MASTER); }

/* ------------------------------------------------------------------------
 * Networking's part of the server.
 * ---------------------------------------------------------------------- */

/* The fields of Redis's struct redisServer that networking reads and
 * writes: the event loop (from its base, the connections' part in
 * connection.h) and the cached time, the databases a new client
 * starts in, every client, and networking's settings and statistics. The
 * global `server` (server.h) derives from it, so above this layer they
 * read server.clients etc. as in Redis; networking itself, below
 * server.h, reaches the same object as networking::server (bound in
 * server.cpp). */
struct redisServerNetworking : redisServerConnection {
    int hz = 10;                      /* serverCron frequency (clientsCron's share per call) */
    /* Time, cached once per event-loop iteration as Redis does. */
    time_t unixtime = 0;
    long long mstime = 0;
    long long ustime = 0;

    int dbnum = 16;                   /* `databases` */
    std::unique_ptr<redisDb[]> db;    /* server.db[0 .. dbnum-1]; a new client starts in db 0 */

    /* Clients. */
    std::list<std::unique_ptr<client>> clients;
    std::unordered_map<uint64_t, client *> clients_index;
    std::vector<client *> clients_pending_write;
    std::vector<client *> clients_to_close;
    client *current_client = nullptr;
    uint64_t next_client_id = 1;
    unsigned int maxclients = 10000;
    int maxidletime = 0;              /* `timeout`, seconds; 0 = never */
    int tcpkeepalive = 300;
    int tls_auth_clients = TLS_CLIENT_AUTH_YES; /* tls-auth-clients: whether TLS clients show a certificate */
    bool protected_mode = true;
    std::string unixsocket;           /* `unixsocket`: a path to listen at too, "" for none */
    unsigned int unixsocketperm = 0;  /* `unixsocketperm`: its file's mode, 0 for the umask's */
    long long client_max_querybuf_len = 1024LL * 1024 * 1024;
    long long proto_max_bulk_len = 512LL * 1024 * 1024;
    clientBufferLimitsConfig client_obuf_limits[CLIENT_TYPE_OBUF_COUNT];

    /* Statistics (INFO stats). */
    long long stat_numconnections = 0;
    long long stat_rejected_conn = 0;
    long long stat_net_input_bytes = 0;
    long long stat_net_output_bytes = 0;
    long long stat_net_repl_input_bytes = 0;  /* from the master: its stream and the RDB */
    long long stat_net_repl_output_bytes = 0; /* to the replicas: the stream and the RDB */
    long long stat_total_reads_processed = 0;
    long long stat_total_writes_processed = 0;
    long long stat_unexpected_error_replies = 0;
    long long stat_total_error_replies = 0;
    /* INFO errorstats: an error code ("ERR", "WRONGTYPE"...) -> the error
     * replies of it (incrementErrorCount), in the byte order INFO lists.
     * (Redis keeps it in server.c; here afterErrorReply, below the server,
     * is what feeds it.) */
    std::map<std::string, long long, std::less<>> errors;
};

namespace networking {
extern redisServerNetworking &server;
}

/* ------------------------------------------------------------------------
 * Where networking calls the layers above it. Redis's networking.c calls
 * these directly; here they are above networking, so installServerHooks
 * (hooks.cpp, the wiring) hands them over once, before anything runs: the
 * server's start-up and every test binary's main call it.
 * ---------------------------------------------------------------------- */

/* Runs a parsed request (processCommand, server_main.cpp). */
using processCommandProc = int (*)(client *c);
void registerProcessCommand(processCommandProc proc);

/* Releases what a mechanism keeps of a client, before freeClient destroys
 * it: unblock it, unwatch its keys, unsubscribe it, stop tracking for it,
 * drop it as a replica or a monitor, cache the master it was
 * (installServerHooks lists the seven, in the order Redis's freeClient
 * takes those steps). Run in the order registered; none depends on
 * another having run. */
using freeClientProc = void (*)(client *c);
void registerFreeClientProc(freeClientProc proc);

/* The master's connection on a replica (CLIENT_MASTER): after each request
 * of its stream is processed, the bytes of that request (an empty line
 * included: every byte counts in the replication offset), for replication
 * to advance the applied offset and proxy them (replication_replica.cpp). */
using masterStreamProcessedProc = void (*)(client *c, std::string_view request);
void registerMasterStreamProcessed(masterStreamProcessedProc proc);

/* True while replies must not be written from the write handler because
 * the AOF still holds writes they may show (aof.cpp; see sendReplyToClient). */
using repliesMustWaitProc = bool (*)();
void registerRepliesMustWait(repliesMustWaitProc proc);

/* The number of a client's database, for CLIENT LIST's db= (redisDb is
 * db.h's, above networking: db.cpp's dbId). */
using dbIdProc = int (*)(const redisDb *db);
void registerDbId(dbIdProc proc);

/* What networking needs of ACL users (acl.cpp's): the user a new client
 * starts as and whether that already authenticates it, whether the
 * default user takes no password (protected mode), a user's name (CLIENT
 * LIST user=) and lookup by name (CLIENT KILL USER), HELLO's AUTH option
 * (true if authenticated), and whether a client must still authenticate
 * (the request size limits before it has). */
struct aclNetworkingHooks {
    void (*clientSetDefaultAuth)(client *c);
    bool (*defaultUserIsNopass)();
    const std::string &(*userName)(const user *u);
    user *(*getUserByName)(std::string_view name);
    bool (*authenticateUser)(client *c, std::string_view username, std::string_view password);
    bool (*authRequired)(const client *c);
};
void registerACLNetworkingHooks(const aclNetworkingHooks &hooks);

/* ------------------------------------------------------------------------
 * networking.cpp
 * ---------------------------------------------------------------------- */
/* A client on `conn` (its read handler set), or a socketless one (nullptr). */
client *createClient(connectionPtr conn);
void freeClient(client *c);
void freeClientAsync(client *c);
void freeClientsInAsyncFreeQueue();
void acceptTcpHandler(aeEventLoop *el, int fd, void *privdata, int mask);
void acceptUnixHandler(aeEventLoop *el, int fd, void *privdata, int mask);
void acceptTLSHandler(aeEventLoop *el, int fd, void *privdata, int mask);
/* From the loopback interface or the unix socket (protected mode,
 * enable-debug-command local...). */
bool islocalClient(const client *c);
/* The peer's IP as Redis's connPeerToString gives it: no port, no IPv6
 * brackets, "/unixsocket" for a client of the unix socket ("" for none). */
std::string clientPeerIp(const client *c);
void readQueryFromClient(connection *conn);
void sendReplyToClient(connection *conn);
/* Gives the live trace the names of the handlers above and which client
 * owns a file descriptor (installServerHooks calls it once). */
void traceNameNetworkingProcs();
void processInputBuffer(client *c);
int processInlineBuffer(client *c);
int processMultibulkBuffer(client *c);
std::string clientOutputBytes(const client *c); /* pending output, for socketless clients */
/* What handleClientsWithPendingWrites wrote, for beforeSleep's trace. */
struct pendingWritesTally {
    int clients = 0;
    long long bytes = 0;
};
int handleClientsWithPendingWrites(pendingWritesTally *tally = nullptr);
/* The text of the last error replied (kept only while the trace wants cmd). */
const std::string &lastErrorReply();
bool clientHasPendingReplies(const client *c);
/* Queues a client with output for beforeSleep's write (Redis 7's
 * putClientInPendingWriteQueue): a replica put online has its buffered
 * stream sent so. */
void putClientInPendingWriteQueue(client *c);
void resetClient(client *c);
/* original_argv (slow log, MONITOR): kept before argv is rewritten, an
 * argument replaced by "(redacted)" (AUTH's password...), copied out of the
 * request when the client blocks, dropped after the command. */
void retainOriginalCommandVector(client *c);
void redactClientCommandArgument(client *c, size_t i);
void keepOriginalArgvWhileBlocked(client *c);
void freeClientOriginalArgv(client *c);
std::string catClientInfoString(const client *c);
/* Output buffer limits: the client's class, the reply list's memory, and
 * the check run after reply bytes go to the list (and from clientsCron). */
int getClientType(const client *c);
int getClientTypeByName(std::string_view name); /* -1 if unknown */
const char *getClientTypeName(int type);
size_t getClientOutputBufferMemoryUsage(const client *c);
size_t getClientMemoryUsage(const client *c);
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
/* An error already counted in the error statistics when the command that
 * raised it replied it (Redis's ERR_REPLY_FLAG_NO_STATS_UPDATE): a script
 * relaying a redis.call's error counts only as the script's failed call. */
constexpr int ERR_REPLY_FLAG_NO_STATS_UPDATE = 1 << 0;
void addReplyErrorEx(client *c, std::string_view err, int flags);
/* What every error reply does besides its bytes: counts it (total_error_replies,
 * errorstat_<CODE>) and, for the AOF loader, the master or a replica, logs
 * it as critical. For an error no reply carries (a command a script may
 * not call), scriptCall calls it itself, as Redis does. */
void afterErrorReply(client *c, std::string_view err, int flags);
/* One more error reply of `code`; CONFIG RESETSTAT forgets them all. */
void incrementErrorCount(std::string_view code);
void resetErrorTableStats();
void addReplyErrorObject(client *c, std::string_view proto);  /* a shared "-..." reply, counted as an error */
void addReplyOrErrorObject(client *c, std::string_view proto); /* either kind of shared reply */
void addReplyErrorFormat(client *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void addReplyErrorArity(client *c);
void addReplyBulk(client *c, std::string_view s);
void addReplyBulkLongLong(client *c, long long v);
void addReplyLongLong(client *c, long long v);
/* The typed writers: each picks the client's protocol (c->resp) itself. */
void addReplyDouble(client *c, double d);      /* bulk in RESP2, "," in RESP3 */
void addReplyHumanLongDouble(client *c, long double d); /* bulk in RESP2, "," in RESP3 */
void addReplyBigNum(client *c, std::string_view digits); /* bulk in RESP2, "(" in RESP3 */
void addReplyBool(client *c, bool b);          /* :1/:0 in RESP2, #t/#f in RESP3 */
void addReplyArrayLen(client *c, long long len);
void addReplyMapLen(client *c, long long len); /* pairs: 2*len elements in RESP2, "%" in RESP3 */
void addReplySetLen(client *c, long long len); /* "*" in RESP2, "~" in RESP3 */
/* An array of `len` pairs (ZRANGE WITHSCORES, HRANDFIELD WITHVALUES, as Redis
 * 7.0): flat in RESP2 (2*len elements), in RESP3 `len` two-element arrays,
 * each opened by addReplyPairLen (which writes nothing in RESP2). */
void addReplyPairsLen(client *c, long long len);
void addReplyPairLen(client *c);
/* A map that RESP2 writes as an array of [key, value] arrays (XREAD's
 * streams, as Redis 7.0): each entry opened by addReplyPairedMapEntry
 * (which writes nothing in RESP3). */
void addReplyPairedMapLen(client *c, long long len);
void addReplyPairedMapEntry(client *c);
void addReplyAttributeLen(client *c, long long len); /* RESP3 only ("|"): DEBUG PROTOCOL attrib */
void addReplyPushLen(client *c, long long len); /* "*" in RESP2, ">" in RESP3 (pub/sub, invalidations) */
void addReplyNull(client *c);        /* $-1 in RESP2, _ in RESP3 */
void addReplyNullArray(client *c);   /* *-1 in RESP2, _ in RESP3 */
void addReplyVerbatim(client *c, std::string_view text, const char *ext = "txt"); /* bulk in RESP2 */
void addReplyHelp(client *c, const char *const *help);
void addReplySubcommandSyntaxError(client *c);
void *addReplyDeferredLen(client *c);
void setDeferredArrayLen(client *c, void *node, long length);
void setDeferredMapLen(client *c, void *node, long length);
void setDeferredSetLen(client *c, void *node, long length);
void setDeferredPairsLen(client *c, void *node, long length);
void setDeferredPairedMapLen(client *c, void *node, long length);

/* What is written to a client while one lives is a push (pub/sub messages,
 * invalidations), not the reply of its command: CLIENT_PUSHING, as Redis's
 * addReplyPubsub* and tracking mark it, lets CLIENT REPLY OFF silence
 * replies and not pushes. Nests: an inner scope leaves the flag set. */
class clientPushingScope {
public:
    explicit clientPushingScope(client *c) : c_(c), was_pushing_(c->flags & CLIENT_PUSHING) {
        c->flags |= CLIENT_PUSHING;
    }
    ~clientPushingScope() {
        if (!was_pushing_) c_->flags &= ~CLIENT_PUSHING;
    }
    clientPushingScope(const clientPushingScope &) = delete;
    clientPushingScope &operator=(const clientPushingScope &) = delete;

private:
    client *c_;
    bool was_pushing_;
};

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

/* The connection commands (CLIENT, HELLO, QUIT; AUTH is acl.h's) (the command table is in commands.cpp). */
void helloCommand(client *c);
void quitCommand(client *c);
void clientIdCommand(client *c);
void clientInfoCommand(client *c);
void clientListCommand(client *c);
void clientKillCommand(client *c);
void clientSetNameCommand(client *c);
void clientGetNameCommand(client *c);
void clientHelpCommand(client *c);
void clientReplyCommand(client *c);
void clientNoEvictCommand(client *c);
