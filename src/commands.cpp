/* commands.cpp — the command table (Redis 7.0's commands.c, generated from the
 * JSON files of its src/commands; since 7.2 generated as commands.def, which
 * commands.c includes), its indexing at start-up, and COMMAND, which
 * describes it to clients (both in Redis's server.c; here with the table, at
 * the top of the layers, since COMMAND INFO and DOCS read the generated key
 * specs and docs, keyspecs.cpp and commanddocs.cpp).
 *
 * Each row: name, implementation, arity (negative = at least -arity
 * arguments, the name included), flags, first/last key position and step
 * (0 when the command takes no key). COMMAND DOCS shows Redis 7's docs
 * (commanddocs.cpp); only a command Redis lacks has its own, in .docs(...).
 * A container command (CONFIG, CLIENT...) points at its subcommands' rows,
 * an array above the table; processCommand dispatches on the second word.
 * INFO, SHUTDOWN and RESET are server_main.cpp's, a layer above: their rows
 * hold no function, and populateCommandTable is handed them.
 * Adding a command is adding a row here and its implementation.
 */
#include "commands.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>

#include "acl.h"
#include "aof.h"
#include "bitops.h"
#include "blocked.h"
#include "cluster.h"
#include "commands/commanddocs.h"
#include "config.h"
#include "db.h"
#include "debug.h"
#include "expire.h"
#include "functions.h"
#include "geo.h"
#include "hyperloglog.h"
#include "commands/keyspecs.h"
#include "latency.h"
#include "multi.h"
#include "networking.h"
#include "object.h"
#include "pubsub.h"
#include "rdb.h"
#include "replication.h"
#include "scripting.h"
#include "server.h"
#include "slowlog.h"
#include "sort.h"
#include "t_hash.h"
#include "t_list.h"
#include "t_set.h"
#include "t_stream.h"
#include "t_string.h"
#include "t_zset.h"
#include "livetrace_output.h"
#include "tracking.h"

namespace {

/* Flags shared by connection-level subcommands. */
constexpr uint64_t CONN = CMD_NOSCRIPT | CMD_LOADING | CMD_STALE;
constexpr uint64_t ADMIN = CMD_ADMIN | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE;
constexpr uint64_t CONNECTION = ACL_CATEGORY_CONNECTION;

/* A row of the table: constant data, built fluently at compile time,
 * cmd(...).acl(...).tips({...}), and turned into the redisCommands at
 * start-up. Constant rows, not a chain of temporaries holding vectors in
 * one function, because that function took g++ -O2 over 20 s to compile
 * (its points-to analysis), the longest file of the build; rows in
 * read-only data cost nothing to optimize. A container's subcommands are
 * an array of their own, defined before the table that points at it. */
struct Cmd {
    static constexpr size_t MAX_TIPS = 3;

    const char *name;
    redisCommandProc proc;
    int arity;
    uint64_t flags;
    int first, last, step;
    uint64_t acl_categories = 0;
    redisGetKeysProc getkeys_proc = nullptr;
    const char *group = nullptr, *summary = nullptr, *since = nullptr;
    const char *tip_list[MAX_TIPS] = {};
    size_t ntips = 0;
    const Cmd *subs = nullptr;
    size_t nsubs = 0;

    /* COMMAND DOCS of a command Redis lacks (Redis's come from commanddocs.cpp). */
    constexpr Cmd docs(const char *g, const char *s, const char *v) const {
        Cmd r = *this;
        r.group = g;
        r.summary = s;
        r.since = v;
        return r;
    }
    constexpr Cmd acl(uint64_t categories) const {
        Cmd r = *this;
        r.acl_categories |= categories;
        return r;
    }
    constexpr Cmd getkeys(redisGetKeysProc p) const {
        Cmd r = *this;
        r.getkeys_proc = p;
        return r;
    }
    /* A row with more tips than MAX_TIPS does not compile (the throw is
     * not a constant expression). */
    constexpr Cmd tips(std::initializer_list<const char *> t) const {
        if (t.size() > MAX_TIPS) throw "more tips than Cmd::MAX_TIPS";
        Cmd r = *this;
        for (const char *tip : t) r.tip_list[r.ntips++] = tip;
        return r;
    }
    template <size_t N>
    constexpr Cmd subcommands(const Cmd (&rows)[N]) const {
        Cmd r = *this;
        r.subs = rows;
        r.nsubs = N;
        return r;
    }
};

constexpr Cmd cmd(const char *name, redisCommandProc proc, int arity, uint64_t flags, int first, int last, int step) {
    return Cmd{name, proc, arity, flags, first, last, step};
}

constexpr Cmd clientSubcommands[] = {
    cmd("id", clientIdCommand, 2, CONN, 0, 0, 0).acl(CONNECTION),
    cmd("info", clientInfoCommand, 2, CONN, 0, 0, 0)
        .acl(CONNECTION).tips({"nondeterministic_output"}),
    cmd("list", clientListCommand, -2, ADMIN, 0, 0, 0)
        .acl(CONNECTION).tips({"nondeterministic_output"}),
    cmd("kill", clientKillCommand, -3, ADMIN, 0, 0, 0).acl(CONNECTION),
    cmd("unblock", clientUnblockCommand, -3, ADMIN, 0, 0, 0).acl(CONNECTION),
    cmd("setname", clientSetNameCommand, 3, CONN, 0, 0, 0).acl(CONNECTION),
    cmd("getname", clientGetNameCommand, 2, CONN, 0, 0, 0).acl(CONNECTION),
    cmd("help", clientHelpCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0).acl(CONNECTION),
    cmd("pause", clientPauseCommand, -3, ADMIN, 0, 0, 0).acl(CONNECTION),
    cmd("unpause", clientUnpauseCommand, 2, ADMIN, 0, 0, 0).acl(CONNECTION),
    cmd("reply", clientReplyCommand, 3, CONN, 0, 0, 0).acl(CONNECTION),
    cmd("no-evict", clientNoEvictCommand, 3, ADMIN, 0, 0, 0).acl(CONNECTION),
    /* client-side caching (tracking.cpp) */
    cmd("tracking", clientTrackingCommand, -3, CONN, 0, 0, 0).acl(CONNECTION),
    cmd("caching", clientCachingCommand, 3, CONN, 0, 0, 0).acl(CONNECTION),
    cmd("getredir", clientGetredirCommand, 2, CONN, 0, 0, 0).acl(CONNECTION),
    cmd("trackinginfo", clientTrackingInfoCommand, 2, CONN, 0, 0, 0).acl(CONNECTION),
};

constexpr Cmd xgroupSubcommands[] = {
    cmd("create", xgroupCommand, -5, CMD_WRITE | CMD_DENYOOM, 2, 2, 1).acl(ACL_CATEGORY_STREAM),
    cmd("setid", xgroupCommand, -5, CMD_WRITE, 2, 2, 1).acl(ACL_CATEGORY_STREAM),
    cmd("destroy", xgroupCommand, 4, CMD_WRITE, 2, 2, 1).acl(ACL_CATEGORY_STREAM),
    cmd("createconsumer", xgroupCommand, 5, CMD_WRITE | CMD_DENYOOM, 2, 2, 1).acl(ACL_CATEGORY_STREAM),
    cmd("delconsumer", xgroupCommand, 5, CMD_WRITE, 2, 2, 1).acl(ACL_CATEGORY_STREAM),
    cmd("help", xgroupCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0).acl(ACL_CATEGORY_STREAM),
};

constexpr Cmd xinfoSubcommands[] = {
    cmd("stream", xinfoCommand, -3, CMD_READONLY, 2, 2, 1).acl(ACL_CATEGORY_STREAM),
    cmd("groups", xinfoCommand, 3, CMD_READONLY, 2, 2, 1).acl(ACL_CATEGORY_STREAM),
    cmd("consumers", xinfoCommand, 4, CMD_READONLY, 2, 2, 1).acl(ACL_CATEGORY_STREAM).tips({"nondeterministic_output"}),
    cmd("help", xinfoCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0).acl(ACL_CATEGORY_STREAM),
};

constexpr Cmd objectSubcommands[] = {
    cmd("encoding", objectCommand, 3, CMD_READONLY, 2, 2, 1)
        .acl(ACL_CATEGORY_KEYSPACE).tips({"nondeterministic_output"}),
    cmd("refcount", objectCommand, 3, CMD_READONLY, 2, 2, 1)
        .acl(ACL_CATEGORY_KEYSPACE).tips({"nondeterministic_output"}),
    cmd("idletime", objectCommand, 3, CMD_READONLY, 2, 2, 1)
        .acl(ACL_CATEGORY_KEYSPACE).tips({"nondeterministic_output"}),
    cmd("freq", objectCommand, 3, CMD_READONLY, 2, 2, 1)
        .acl(ACL_CATEGORY_KEYSPACE).tips({"nondeterministic_output"}),
    cmd("help", objectCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0)
        .acl(ACL_CATEGORY_KEYSPACE),
};

constexpr Cmd memorySubcommands[] = {
    cmd("usage", memoryCommand, -3, CMD_READONLY, 2, 2, 1),
    cmd("help", memoryCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0),
    cmd("doctor", memoryDoctorCommand, 2, 0, 0, 0, 0)
        .tips({"nondeterministic_output", "request_policy:all_shards", "response_policy:special"}),
    cmd("stats", memoryStatsCommand, 2, 0, 0, 0, 0)
        .tips({"nondeterministic_output", "request_policy:all_shards", "response_policy:special"}),
    cmd("malloc-stats", memoryMallocStatsCommand, 2, 0, 0, 0, 0)
        .tips({"nondeterministic_output", "request_policy:all_shards", "response_policy:special"}),
    cmd("purge", memoryPurgeCommand, 2, 0, 0, 0, 0)
        .tips({"request_policy:all_shards", "response_policy:all_succeeded"}),
};

constexpr Cmd scriptSubcommands[] = {
    cmd("load", scriptLoadCommand, 3, CMD_NOSCRIPT | CMD_STALE, 0, 0, 0)
        .acl(ACL_CATEGORY_SCRIPTING).tips({"request_policy:all_nodes", "response_policy:all_succeeded"}),
    cmd("exists", scriptExistsCommand, -3, CMD_NOSCRIPT, 0, 0, 0)
        .acl(ACL_CATEGORY_SCRIPTING).tips({"request_policy:all_shards", "response_policy:agg_logical_and"}),
    cmd("flush", scriptFlushCommand, -2, CMD_NOSCRIPT, 0, 0, 0)
        .acl(ACL_CATEGORY_SCRIPTING).tips({"request_policy:all_nodes", "response_policy:all_succeeded"}),
    cmd("kill", scriptKillCommand, 2, CMD_NOSCRIPT | CMD_ALLOW_BUSY, 0, 0, 0)
        .acl(ACL_CATEGORY_SCRIPTING).tips({"request_policy:all_shards", "response_policy:one_succeeded"}),
    cmd("help", scriptHelpCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0)
        .acl(ACL_CATEGORY_SCRIPTING),
};

constexpr Cmd pubsubSubcommands[] = {
    cmd("channels", pubsubChannelsCommand, -2, CMD_PUBSUB | CMD_LOADING | CMD_STALE, 0, 0, 0),
    cmd("numsub", pubsubNumsubCommand, -2, CMD_PUBSUB | CMD_LOADING | CMD_STALE, 0, 0, 0),
    cmd("numpat", pubsubNumpatCommand, 2, CMD_PUBSUB | CMD_LOADING | CMD_STALE, 0, 0, 0),
    cmd("help", pubsubHelpCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0),
    cmd("shardchannels", pubsubShardChannelsCommand, -2, CMD_PUBSUB | CMD_LOADING | CMD_STALE, 0, 0, 0),
    cmd("shardnumsub", pubsubShardNumsubCommand, -2, CMD_PUBSUB | CMD_LOADING | CMD_STALE, 0, 0, 0),
};

constexpr Cmd slowlogSubcommands[] = {
    cmd("get", slowlogGetCommand, -2, CMD_ADMIN | CMD_LOADING | CMD_STALE, 0, 0, 0)
        .tips({"request_policy:all_nodes", "nondeterministic_output"}),
    cmd("len", slowlogLenCommand, 2, CMD_ADMIN | CMD_LOADING | CMD_STALE, 0, 0, 0)
        .tips({"request_policy:all_nodes", "response_policy:agg_sum", "nondeterministic_output"}),
    cmd("reset", slowlogResetCommand, 2, CMD_ADMIN | CMD_LOADING | CMD_STALE, 0, 0, 0)
        .tips({"request_policy:all_nodes", "response_policy:all_succeeded"}),
    cmd("help", slowlogHelpCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0),
};

constexpr Cmd latencySubcommands[] = {
    cmd("latest", latencyLatestCommand, 2, ADMIN, 0, 0, 0)
        .tips({"nondeterministic_output", "request_policy:all_nodes", "response_policy:special"}),
    cmd("history", latencyHistoryCommand, 3, ADMIN, 0, 0, 0)
        .tips({"nondeterministic_output", "request_policy:all_nodes", "response_policy:special"}),
    cmd("reset", latencyResetCommand, -2, ADMIN, 0, 0, 0)
        .tips({"request_policy:all_nodes", "response_policy:all_succeeded"}),
    cmd("graph", latencyGraphCommand, 3, ADMIN, 0, 0, 0)
        .tips({"nondeterministic_output", "request_policy:all_nodes", "response_policy:special"}),
    cmd("doctor", latencyDoctorCommand, 2, ADMIN, 0, 0, 0)
        .tips({"nondeterministic_output", "request_policy:all_nodes", "response_policy:special"}),
    cmd("histogram", latencyHistogramCommand, -2, ADMIN, 0, 0, 0)
        .tips({"nondeterministic_output", "request_policy:all_nodes", "response_policy:special"}),
    cmd("help", latencyHelpCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0),
};

constexpr Cmd traceSubcommands[] = {
    cmd("start", traceStartCommand, -3, ADMIN, 0, 0, 0).docs("server", "Start writing the trace to a file in Chrome's Trace Event Format", "0.1.0"),
    cmd("stop", traceStopCommand, 2, ADMIN, 0, 0, 0).docs("server", "Complete and close the trace file", "0.1.0"),
    cmd("status", traceStatusCommand, 2, ADMIN, 0, 0, 0).docs("server", "Show the live trace's categories and the trace file's state", "0.1.0"),
    cmd("help", traceHelpCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0).docs("server", "Show helpful text about the different subcommands", "0.1.0"),
};

constexpr Cmd commandSubcommands[] = {
    cmd("count", commandCountCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0).acl(CONNECTION),
    cmd("info", commandInfoCommand, -2, CMD_LOADING | CMD_STALE, 0, 0, 0)
        .acl(CONNECTION).tips({"nondeterministic_output_order"}),
    cmd("docs", commandDocsCommand, -2, CMD_LOADING | CMD_STALE, 0, 0, 0)
        .acl(CONNECTION).tips({"nondeterministic_output_order"}),
    cmd("list", commandListCommand, -2, CMD_LOADING | CMD_STALE, 0, 0, 0)
        .acl(CONNECTION).tips({"nondeterministic_output_order"}),
    cmd("getkeys", commandGetKeysCommand, -4, CMD_LOADING | CMD_STALE, 0, 0, 0).acl(CONNECTION),
    cmd("getkeysandflags", commandGetKeysAndFlagsCommand, -4, CMD_LOADING | CMD_STALE, 0, 0, 0).acl(CONNECTION),
    cmd("help", commandHelpCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0).acl(CONNECTION),
};

constexpr Cmd aclSubcommands[] = {
    cmd("cat", aclCommand, -2, CONN, 0, 0, 0),
    cmd("deluser", aclCommand, -3, ADMIN, 0, 0, 0),
    cmd("dryrun", aclCommand, -4, ADMIN, 0, 0, 0),
    cmd("genpass", aclCommand, -2, CONN, 0, 0, 0),
    cmd("getuser", aclCommand, 3, ADMIN, 0, 0, 0),
    cmd("help", aclCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0),
    cmd("list", aclCommand, 2, ADMIN, 0, 0, 0),
    cmd("load", aclCommand, 2, ADMIN, 0, 0, 0),
    cmd("log", aclCommand, -2, ADMIN, 0, 0, 0),
    cmd("save", aclCommand, 2, ADMIN, 0, 0, 0),
    cmd("setuser", aclCommand, -3, ADMIN, 0, 0, 0),
    cmd("users", aclCommand, 2, ADMIN, 0, 0, 0),
    cmd("whoami", aclCommand, 2, CONN, 0, 0, 0),
};

constexpr Cmd configSubcommands[] = {
    cmd("get", configGetCommand, -3, ADMIN, 0, 0, 0),
    cmd("set", configSetCommand, -4, ADMIN, 0, 0, 0)
        .tips({"request_policy:all_nodes", "response_policy:all_succeeded"}),
    cmd("resetstat", configResetStatCommand, 2, ADMIN, 0, 0, 0),
    cmd("rewrite", configRewriteCommand, 2, CMD_ADMIN | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE, 0, 0, 0),
    cmd("help", configHelpCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0),
};

constexpr Cmd functionSubcommands[] = {
    cmd("load", functionLoadCommand, -3, CMD_WRITE | CMD_DENYOOM | CMD_NOSCRIPT, 0, 0, 0).acl(ACL_CATEGORY_SCRIPTING).tips({"request_policy:all_shards", "response_policy:all_succeeded"}),
    cmd("delete", functionDeleteCommand, 3, CMD_WRITE | CMD_NOSCRIPT, 0, 0, 0).acl(ACL_CATEGORY_SCRIPTING).tips({"request_policy:all_shards", "response_policy:all_succeeded"}),
    cmd("flush", functionFlushCommand, -2, CMD_WRITE | CMD_NOSCRIPT, 0, 0, 0).acl(ACL_CATEGORY_SCRIPTING).tips({"request_policy:all_shards", "response_policy:all_succeeded"}),
    cmd("dump", functionDumpCommand, 2, CMD_NOSCRIPT, 0, 0, 0).acl(ACL_CATEGORY_SCRIPTING),
    cmd("restore", functionRestoreCommand, -3, CMD_WRITE | CMD_DENYOOM | CMD_NOSCRIPT, 0, 0, 0).acl(ACL_CATEGORY_SCRIPTING).tips({"request_policy:all_shards", "response_policy:all_succeeded"}),
    cmd("list", functionListCommand, -2, CMD_NOSCRIPT, 0, 0, 0).acl(ACL_CATEGORY_SCRIPTING).tips({"nondeterministic_output_order"}),
    cmd("stats", functionStatsCommand, 2, CMD_NOSCRIPT | CMD_ALLOW_BUSY, 0, 0, 0).acl(ACL_CATEGORY_SCRIPTING).tips({"nondeterministic_output", "request_policy:all_shards", "response_policy:special"}),
    cmd("kill", functionKillCommand, 2, CMD_NOSCRIPT | CMD_ALLOW_BUSY, 0, 0, 0).acl(ACL_CATEGORY_SCRIPTING).tips({"request_policy:all_shards", "response_policy:one_succeeded"}),
    cmd("help", functionHelpCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0).acl(ACL_CATEGORY_SCRIPTING),
};

constexpr Cmd commandRows[] = {
    /* connection */
    cmd("ping", pingCommand, -1, CMD_FAST | CMD_SENTINEL, 0, 0, 0)
        .acl(CONNECTION).tips({"request_policy:all_shards", "response_policy:all_succeeded"}),
    cmd("echo", echoCommand, 2, CMD_FAST | CMD_LOADING | CMD_STALE, 0, 0, 0).acl(CONNECTION),
    cmd("quit", quitCommand, -1, CONN | CMD_FAST | CMD_NO_AUTH | CMD_ALLOW_BUSY, 0, 0, 0).acl(CONNECTION),
    cmd("auth", authCommand, -2, CONN | CMD_FAST | CMD_NO_AUTH | CMD_SENTINEL | CMD_ALLOW_BUSY, 0, 0, 0).acl(CONNECTION),
    cmd("hello", helloCommand, -1, CONN | CMD_FAST | CMD_NO_AUTH | CMD_SENTINEL | CMD_ALLOW_BUSY, 0, 0, 0).acl(CONNECTION),
    cmd("client", nullptr, -2, CMD_SENTINEL, 0, 0, 0)
        .subcommands(clientSubcommands),
    cmd("reset", nullptr, 1, CONN | CMD_FAST | CMD_NO_AUTH | CMD_ALLOW_BUSY, 0, 0, 0).acl(CONNECTION),
    cmd("monitor", monitorCommand, 1, ADMIN, 0, 0, 0),
    /* strings (t_string.cpp) */
    cmd("set", setCommand, -3, CMD_WRITE | CMD_DENYOOM, 1, 1, 1)
        .acl(ACL_CATEGORY_STRING).getkeys(setGetKeys),
    cmd("get", getCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_STRING),
    cmd("getset", getsetCommand, 3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_STRING),
    cmd("getdel", getdelCommand, 2, CMD_WRITE | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_STRING),
    cmd("getex", getexCommand, -2, CMD_WRITE | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_STRING),
    cmd("setnx", setnxCommand, 3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_STRING),
    cmd("setex", setexCommand, 4, CMD_WRITE | CMD_DENYOOM, 1, 1, 1)
        .acl(ACL_CATEGORY_STRING),
    cmd("psetex", psetexCommand, 4, CMD_WRITE | CMD_DENYOOM, 1, 1, 1)
        .acl(ACL_CATEGORY_STRING),
    cmd("mget", mgetCommand, -2, CMD_READONLY | CMD_FAST, 1, -1, 1)
        .acl(ACL_CATEGORY_STRING).tips({"request_policy:multi_shard"}),
    cmd("mset", msetCommand, -3, CMD_WRITE | CMD_DENYOOM, 1, -1, 2)
        .acl(ACL_CATEGORY_STRING).tips({"request_policy:multi_shard", "response_policy:all_succeeded"}),
    cmd("msetnx", msetnxCommand, -3, CMD_WRITE | CMD_DENYOOM, 1, -1, 2)
        .acl(ACL_CATEGORY_STRING).tips({"request_policy:multi_shard", "response_policy:agg_min"}),
    cmd("incr", incrCommand, 2, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_STRING),
    cmd("decr", decrCommand, 2, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_STRING),
    cmd("incrby", incrbyCommand, 3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_STRING),
    cmd("decrby", decrbyCommand, 3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_STRING),
    cmd("incrbyfloat", incrbyfloatCommand, 3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_STRING),
    cmd("append", appendCommand, 3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_STRING),
    cmd("strlen", strlenCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_STRING),
    cmd("getrange", getrangeCommand, 4, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_STRING),
    cmd("setrange", setrangeCommand, 4, CMD_WRITE | CMD_DENYOOM, 1, 1, 1)
        .acl(ACL_CATEGORY_STRING),
    /* lists (t_list.cpp) */
    cmd("lpush", lpushCommand, -3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_LIST),
    cmd("rpush", rpushCommand, -3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_LIST),
    cmd("lpushx", lpushxCommand, -3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_LIST),
    cmd("rpushx", rpushxCommand, -3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_LIST),
    cmd("linsert", linsertCommand, 5, CMD_WRITE | CMD_DENYOOM, 1, 1, 1)
        .acl(ACL_CATEGORY_LIST),
    cmd("llen", llenCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_LIST),
    cmd("lindex", lindexCommand, 3, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_LIST),
    cmd("lset", lsetCommand, 4, CMD_WRITE | CMD_DENYOOM, 1, 1, 1)
        .acl(ACL_CATEGORY_LIST),
    cmd("lrange", lrangeCommand, 4, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_LIST),
    cmd("ltrim", ltrimCommand, 4, CMD_WRITE, 1, 1, 1)
        .acl(ACL_CATEGORY_LIST),
    cmd("lrem", lremCommand, 4, CMD_WRITE, 1, 1, 1)
        .acl(ACL_CATEGORY_LIST),
    cmd("lpop", lpopCommand, -2, CMD_WRITE | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_LIST),
    cmd("rpop", rpopCommand, -2, CMD_WRITE | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_LIST),
    cmd("rpoplpush", rpoplpushCommand, 3, CMD_WRITE | CMD_DENYOOM, 1, 2, 1)
        .acl(ACL_CATEGORY_LIST),
    cmd("lmove", lmoveCommand, 5, CMD_WRITE | CMD_DENYOOM, 1, 2, 1)
        .acl(ACL_CATEGORY_LIST),
    cmd("lpos", lposCommand, -3, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_LIST),
    cmd("lmpop", lmpopCommand, -4, CMD_WRITE | CMD_MOVABLE_KEYS, 0, 0, 0)
        .acl(ACL_CATEGORY_LIST).getkeys(lmpopGetKeys),
    /* blocking list commands (blocked.cpp; Redis has them in t_list.c) */
    cmd("blpop", blpopCommand, -3, CMD_WRITE | CMD_NOSCRIPT | CMD_BLOCKING, 1, -2, 1)
        .acl(ACL_CATEGORY_LIST),
    cmd("brpop", brpopCommand, -3, CMD_WRITE | CMD_NOSCRIPT | CMD_BLOCKING, 1, -2, 1)
        .acl(ACL_CATEGORY_LIST),
    cmd("brpoplpush", brpoplpushCommand, 4, CMD_WRITE | CMD_DENYOOM | CMD_NOSCRIPT | CMD_BLOCKING, 1, 2, 1)
        .acl(ACL_CATEGORY_LIST),
    cmd("blmove", blmoveCommand, 6, CMD_WRITE | CMD_DENYOOM | CMD_NOSCRIPT | CMD_BLOCKING, 1, 2, 1)
        .acl(ACL_CATEGORY_LIST),
    cmd("blmpop", blmpopCommand, -5, CMD_WRITE | CMD_BLOCKING | CMD_MOVABLE_KEYS, 0, 0, 0)
        .acl(ACL_CATEGORY_LIST).getkeys(blmpopGetKeys),
    /* hashes (t_hash.cpp) */
    cmd("hset", hsetCommand, -4, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_HASH),
    cmd("hsetnx", hsetnxCommand, 4, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_HASH),
    cmd("hmset", hmsetCommand, -4, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_HASH),
    cmd("hget", hgetCommand, 3, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_HASH),
    cmd("hmget", hmgetCommand, -3, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_HASH),
    cmd("hdel", hdelCommand, -3, CMD_WRITE | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_HASH),
    cmd("hlen", hlenCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_HASH),
    cmd("hstrlen", hstrlenCommand, 3, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_HASH),
    cmd("hexists", hexistsCommand, 3, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_HASH),
    cmd("hgetall", hgetallCommand, 2, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_HASH).tips({"nondeterministic_output_order"}),
    cmd("hkeys", hkeysCommand, 2, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_HASH).tips({"nondeterministic_output_order"}),
    cmd("hvals", hvalsCommand, 2, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_HASH).tips({"nondeterministic_output_order"}),
    cmd("hincrby", hincrbyCommand, 4, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_HASH),
    cmd("hincrbyfloat", hincrbyfloatCommand, 4, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_HASH),
    cmd("hrandfield", hrandfieldCommand, -2, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_HASH).tips({"nondeterministic_output"}),
    cmd("hscan", hscanCommand, -3, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_HASH).tips({"nondeterministic_output"}),
    /* sets (t_set.cpp) */
    cmd("sadd", saddCommand, -3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_SET),
    cmd("srem", sremCommand, -3, CMD_WRITE | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_SET),
    cmd("scard", scardCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_SET),
    cmd("sismember", sismemberCommand, 3, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_SET),
    cmd("smismember", smismemberCommand, -3, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_SET),
    cmd("smembers", smembersCommand, 2, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_SET).tips({"nondeterministic_output_order"}),
    cmd("spop", spopCommand, -2, CMD_WRITE | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_SET).tips({"nondeterministic_output"}),
    cmd("srandmember", srandmemberCommand, -2, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_SET).tips({"nondeterministic_output"}),
    cmd("smove", smoveCommand, 4, CMD_WRITE | CMD_FAST, 1, 2, 1)
        .acl(ACL_CATEGORY_SET),
    cmd("sinter", sinterCommand, -2, CMD_READONLY, 1, -1, 1)
        .acl(ACL_CATEGORY_SET).tips({"nondeterministic_output_order"}),
    cmd("sinterstore", sinterstoreCommand, -3, CMD_WRITE | CMD_DENYOOM, 1, -1, 1)
        .acl(ACL_CATEGORY_SET),
    cmd("sunion", sunionCommand, -2, CMD_READONLY, 1, -1, 1)
        .acl(ACL_CATEGORY_SET).tips({"nondeterministic_output_order"}),
    cmd("sunionstore", sunionstoreCommand, -3, CMD_WRITE | CMD_DENYOOM, 1, -1, 1)
        .acl(ACL_CATEGORY_SET),
    cmd("sdiff", sdiffCommand, -2, CMD_READONLY, 1, -1, 1)
        .acl(ACL_CATEGORY_SET).tips({"nondeterministic_output_order"}),
    cmd("sdiffstore", sdiffstoreCommand, -3, CMD_WRITE | CMD_DENYOOM, 1, -1, 1)
        .acl(ACL_CATEGORY_SET),
    cmd("sintercard", sintercardCommand, -3, CMD_READONLY | CMD_MOVABLE_KEYS, 0, 0, 0)
        .acl(ACL_CATEGORY_SET).getkeys(sintercardGetKeys),
    cmd("sscan", sscanCommand, -3, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_SET).tips({"nondeterministic_output"}),
    /* sorted sets (t_zset.cpp; BZPOPMIN/BZPOPMAX/BZMPOP are blocked.cpp's, t_zset.c's in Redis) */
    cmd("zadd", zaddCommand, -4, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("zincrby", zincrbyCommand, 4, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("zrem", zremCommand, -3, CMD_WRITE | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("zscore", zscoreCommand, 3, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("zmscore", zmscoreCommand, -3, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("zcard", zcardCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("zcount", zcountCommand, 4, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("zrank", zrankCommand, 3, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("zrevrank", zrevrankCommand, 3, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("zrange", zrangeCommand, -4, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("zrangebyscore", zrangebyscoreCommand, -4, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("zrevrangebyscore", zrevrangebyscoreCommand, -4, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("zrangebylex", zrangebylexCommand, -4, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("zrevrangebylex", zrevrangebylexCommand, -4, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("zrevrange", zrevrangeCommand, -4, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("zremrangebyscore", zremrangebyscoreCommand, 4, CMD_WRITE, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("zremrangebyrank", zremrangebyrankCommand, 4, CMD_WRITE, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("zremrangebylex", zremrangebylexCommand, 4, CMD_WRITE, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("zlexcount", zlexcountCommand, 4, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("zpopmin", zpopminCommand, -2, CMD_WRITE | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("zpopmax", zpopmaxCommand, -2, CMD_WRITE | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("zrangestore", zrangestoreCommand, -5, CMD_WRITE | CMD_DENYOOM, 1, 2, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("zunionstore", zunionstoreCommand, -4, CMD_WRITE | CMD_DENYOOM | CMD_MOVABLE_KEYS, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET).getkeys(zunionInterDiffStoreGetKeys),
    cmd("zinterstore", zinterstoreCommand, -4, CMD_WRITE | CMD_DENYOOM | CMD_MOVABLE_KEYS, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET).getkeys(zunionInterDiffStoreGetKeys),
    cmd("zunion", zunionCommand, -3, CMD_READONLY | CMD_MOVABLE_KEYS, 0, 0, 0)
        .acl(ACL_CATEGORY_SORTEDSET).getkeys(zunionInterDiffGetKeys),
    cmd("zinter", zinterCommand, -3, CMD_READONLY | CMD_MOVABLE_KEYS, 0, 0, 0)
        .acl(ACL_CATEGORY_SORTEDSET).getkeys(zunionInterDiffGetKeys),
    cmd("zdiff", zdiffCommand, -3, CMD_READONLY | CMD_MOVABLE_KEYS, 0, 0, 0)
        .acl(ACL_CATEGORY_SORTEDSET).getkeys(zunionInterDiffGetKeys),
    cmd("zdiffstore", zdiffstoreCommand, -4, CMD_WRITE | CMD_DENYOOM | CMD_MOVABLE_KEYS, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET).getkeys(zunionInterDiffStoreGetKeys),
    cmd("zintercard", zintercardCommand, -3, CMD_READONLY | CMD_MOVABLE_KEYS, 0, 0, 0)
        .acl(ACL_CATEGORY_SORTEDSET).getkeys(zunionInterDiffGetKeys),
    cmd("zrandmember", zrandmemberCommand, -2, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET).tips({"nondeterministic_output"}),
    cmd("zmpop", zmpopCommand, -4, CMD_WRITE | CMD_MOVABLE_KEYS, 0, 0, 0)
        .acl(ACL_CATEGORY_SORTEDSET).getkeys(zmpopGetKeys),
    cmd("zscan", zscanCommand, -3, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_SORTEDSET).tips({"nondeterministic_output"}),
    cmd("bzpopmin", bzpopminCommand, -3, CMD_WRITE | CMD_NOSCRIPT | CMD_BLOCKING | CMD_FAST, 1, -2, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("bzpopmax", bzpopmaxCommand, -3, CMD_WRITE | CMD_NOSCRIPT | CMD_BLOCKING | CMD_FAST, 1, -2, 1)
        .acl(ACL_CATEGORY_SORTEDSET),
    cmd("bzmpop", bzmpopCommand, -5, CMD_WRITE | CMD_BLOCKING | CMD_MOVABLE_KEYS, 0, 0, 0)
        .acl(ACL_CATEGORY_SORTEDSET).getkeys(blmpopGetKeys),
    /* streams (t_stream.cpp; XREAD/XREADGROUP are blocked.cpp's, t_stream.c's in Redis) */
    cmd("xadd", xaddCommand, -5, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_STREAM).tips({"nondeterministic_output"}),
    cmd("xrange", xrangeCommand, -4, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_STREAM),
    cmd("xrevrange", xrevrangeCommand, -4, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_STREAM),
    cmd("xlen", xlenCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_STREAM),
    cmd("xdel", xdelCommand, -3, CMD_WRITE | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_STREAM),
    cmd("xtrim", xtrimCommand, -4, CMD_WRITE, 1, 1, 1)
        .acl(ACL_CATEGORY_STREAM).tips({"nondeterministic_output"}),
    cmd("xsetid", xsetidCommand, -3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_STREAM),
    cmd("xread", xreadCommand, -4, CMD_READONLY | CMD_BLOCKING | CMD_MOVABLE_KEYS, 0, 0, 0)
        .acl(ACL_CATEGORY_STREAM).getkeys(xreadGetKeys),
    cmd("xreadgroup", xreadCommand, -7, CMD_WRITE | CMD_BLOCKING | CMD_MOVABLE_KEYS, 0, 0, 0)
        .acl(ACL_CATEGORY_STREAM).getkeys(xreadGetKeys),
    cmd("xack", xackCommand, -4, CMD_WRITE | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_STREAM),
    cmd("xpending", xpendingCommand, -3, CMD_READONLY, 1, 1, 1)
        .acl(ACL_CATEGORY_STREAM).tips({"nondeterministic_output"}),
    cmd("xclaim", xclaimCommand, -6, CMD_WRITE | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_STREAM).tips({"nondeterministic_output"}),
    cmd("xautoclaim", xautoclaimCommand, -6, CMD_WRITE | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_STREAM).tips({"nondeterministic_output"}),
    cmd("xgroup", nullptr, -2, 0, 0, 0, 0)
        .subcommands(xgroupSubcommands),
    cmd("xinfo", nullptr, -2, 0, 0, 0, 0)
        .subcommands(xinfoSubcommands),
    /* keyspace (db.cpp) */
    cmd("del", delCommand, -2, CMD_WRITE, 1, -1, 1)
        .acl(ACL_CATEGORY_KEYSPACE).tips({"request_policy:multi_shard", "response_policy:agg_sum"}),
    cmd("unlink", unlinkCommand, -2, CMD_WRITE | CMD_FAST, 1, -1, 1)
        .acl(ACL_CATEGORY_KEYSPACE).tips({"request_policy:multi_shard", "response_policy:agg_sum"}),
    cmd("exists", existsCommand, -2, CMD_READONLY | CMD_FAST, 1, -1, 1)
        .acl(ACL_CATEGORY_KEYSPACE).tips({"request_policy:multi_shard", "response_policy:agg_sum"}),
    cmd("select", selectCommand, 2, CMD_LOADING | CMD_STALE | CMD_FAST, 0, 0, 0)
        .acl(ACL_CATEGORY_CONNECTION),
    cmd("dbsize", dbsizeCommand, 1, CMD_READONLY | CMD_FAST, 0, 0, 0)
        .acl(ACL_CATEGORY_KEYSPACE).tips({"request_policy:all_shards", "response_policy:agg_sum"}),
    cmd("flushdb", flushdbCommand, -1, CMD_WRITE, 0, 0, 0)
        .acl(ACL_CATEGORY_KEYSPACE | ACL_CATEGORY_DANGEROUS).tips({"request_policy:all_shards", "response_policy:all_succeeded"}),
    cmd("flushall", flushallCommand, -1, CMD_WRITE, 0, 0, 0)
        .acl(ACL_CATEGORY_KEYSPACE | ACL_CATEGORY_DANGEROUS).tips({"request_policy:all_shards", "response_policy:all_succeeded"}),
    cmd("type", typeCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_KEYSPACE),
    cmd("keys", keysCommand, 2, CMD_READONLY, 0, 0, 0)
        .acl(ACL_CATEGORY_KEYSPACE | ACL_CATEGORY_DANGEROUS).tips({"request_policy:all_shards", "nondeterministic_output_order"}),
    cmd("scan", scanCommand, -2, CMD_READONLY, 0, 0, 0)
        .acl(ACL_CATEGORY_KEYSPACE).tips({"nondeterministic_output", "request_policy:special"}),
    cmd("randomkey", randomkeyCommand, 1, CMD_READONLY, 0, 0, 0)
        .acl(ACL_CATEGORY_KEYSPACE).tips({"request_policy:all_shards", "nondeterministic_output"}),
    cmd("rename", renameCommand, 3, CMD_WRITE, 1, 2, 1)
        .acl(ACL_CATEGORY_KEYSPACE),
    cmd("renamenx", renamenxCommand, 3, CMD_WRITE | CMD_FAST, 1, 2, 1)
        .acl(ACL_CATEGORY_KEYSPACE),
    cmd("move", moveCommand, 3, CMD_WRITE | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_KEYSPACE),
    cmd("copy", copyCommand, -3, CMD_WRITE | CMD_DENYOOM, 1, 2, 1)
        .acl(ACL_CATEGORY_KEYSPACE),
    /* expiry (expire.cpp) */
    cmd("expire", expireCommand, -3, CMD_WRITE | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_KEYSPACE),
    cmd("pexpire", pexpireCommand, -3, CMD_WRITE | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_KEYSPACE),
    cmd("expireat", expireatCommand, -3, CMD_WRITE | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_KEYSPACE),
    cmd("pexpireat", pexpireatCommand, -3, CMD_WRITE | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_KEYSPACE),
    cmd("ttl", ttlCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_KEYSPACE).tips({"nondeterministic_output"}),
    cmd("pttl", pttlCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_KEYSPACE).tips({"nondeterministic_output"}),
    cmd("expiretime", expiretimeCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_KEYSPACE),
    cmd("pexpiretime", pexpiretimeCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_KEYSPACE),
    cmd("persist", persistCommand, 2, CMD_WRITE | CMD_FAST, 1, 1, 1)
        .acl(ACL_CATEGORY_KEYSPACE),
    /* transactions (multi.cpp) */
    cmd("multi", multiCommand, 1, CMD_NOSCRIPT | CMD_LOADING | CMD_STALE | CMD_FAST | CMD_ALLOW_BUSY, 0, 0, 0)
        .acl(ACL_CATEGORY_TRANSACTION),
    cmd("exec", execCommand, 1, CMD_NOSCRIPT | CMD_LOADING | CMD_STALE | CMD_SKIP_SLOWLOG, 0, 0, 0)
        .acl(ACL_CATEGORY_TRANSACTION),
    cmd("discard", discardCommand, 1, CMD_NOSCRIPT | CMD_LOADING | CMD_STALE | CMD_FAST | CMD_ALLOW_BUSY, 0, 0, 0)
        .acl(ACL_CATEGORY_TRANSACTION),
    cmd("watch", watchCommand, -2, CMD_NOSCRIPT | CMD_LOADING | CMD_STALE | CMD_FAST | CMD_ALLOW_BUSY, 1, -1, 1)
        .acl(ACL_CATEGORY_TRANSACTION),
    cmd("unwatch", unwatchCommand, 1, CMD_NOSCRIPT | CMD_LOADING | CMD_STALE | CMD_FAST | CMD_ALLOW_BUSY, 0, 0, 0)
        .acl(ACL_CATEGORY_TRANSACTION),
    /* OBJECT and MEMORY (object.cpp) */
    cmd("object", nullptr, -2, 0, 0, 0, 0)
        .subcommands(objectSubcommands),
    cmd("memory", nullptr, -2, 0, 0, 0, 0)
        .subcommands(memorySubcommands),
    /* persistence (rdb.cpp, aof.cpp) */
    cmd("save", saveCommand, 1, CMD_ADMIN | CMD_NOSCRIPT | CMD_NO_ASYNC_LOADING | CMD_NO_MULTI, 0, 0, 0),
    cmd("bgsave", bgsaveCommand, -1, CMD_ADMIN | CMD_NOSCRIPT | CMD_NO_ASYNC_LOADING, 0, 0, 0),
    cmd("lastsave", lastsaveCommand, 1, CMD_LOADING | CMD_STALE | CMD_FAST, 0, 0, 0)
        .acl(ACL_CATEGORY_ADMIN | ACL_CATEGORY_DANGEROUS).tips({"nondeterministic_output"}),
    cmd("bgrewriteaof", bgrewriteaofCommand, 1, CMD_ADMIN | CMD_NOSCRIPT | CMD_NO_ASYNC_LOADING, 0, 0, 0),
    /* scripting (scripting.cpp) */
    cmd("eval", evalCommand, -3, CMD_NOSCRIPT | CMD_STALE | CMD_SKIP_MONITOR | CMD_MAY_REPLICATE | CMD_NO_MANDATORY_KEYS | CMD_MOVABLE_KEYS, 0, 0, 0)
        .acl(ACL_CATEGORY_SCRIPTING).getkeys(evalGetKeys),
    cmd("evalsha", evalShaCommand, -3, CMD_NOSCRIPT | CMD_STALE | CMD_SKIP_MONITOR | CMD_MAY_REPLICATE | CMD_NO_MANDATORY_KEYS | CMD_MOVABLE_KEYS, 0, 0, 0)
        .acl(ACL_CATEGORY_SCRIPTING).getkeys(evalGetKeys),
    cmd("eval_ro", evalRoCommand, -3, CMD_READONLY | CMD_NOSCRIPT | CMD_STALE | CMD_SKIP_MONITOR | CMD_NO_MANDATORY_KEYS | CMD_MOVABLE_KEYS, 0, 0, 0)
        .acl(ACL_CATEGORY_SCRIPTING).getkeys(evalGetKeys),
    cmd("evalsha_ro", evalShaRoCommand, -3, CMD_READONLY | CMD_NOSCRIPT | CMD_STALE | CMD_SKIP_MONITOR | CMD_NO_MANDATORY_KEYS | CMD_MOVABLE_KEYS, 0, 0, 0)
        .acl(ACL_CATEGORY_SCRIPTING).getkeys(evalGetKeys),
    cmd("script", nullptr, -2, 0, 0, 0, 0)
        .subcommands(scriptSubcommands),
    /* pub/sub (pubsub.cpp) */
    cmd("subscribe", subscribeCommand, -2, CMD_PUBSUB | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE, 0, 0, 0),
    cmd("unsubscribe", unsubscribeCommand, -1, CMD_PUBSUB | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE, 0, 0, 0),
    cmd("psubscribe", psubscribeCommand, -2, CMD_PUBSUB | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE, 0, 0, 0),
    cmd("punsubscribe", punsubscribeCommand, -1, CMD_PUBSUB | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE, 0, 0, 0),
    cmd("publish", publishCommand, 3, CMD_PUBSUB | CMD_LOADING | CMD_STALE | CMD_FAST | CMD_MAY_REPLICATE, 0, 0, 0),
    cmd("pubsub", nullptr, -2, 0, 0, 0, 0)
        .subcommands(pubsubSubcommands),
    /* sharded pub/sub: one shard without a cluster */
    cmd("ssubscribe", ssubscribeCommand, -2, CMD_PUBSUB | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE, 1, -1, 1),
    cmd("sunsubscribe", sunsubscribeCommand, -1, CMD_PUBSUB | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE, 1, -1, 1),
    cmd("spublish", spublishCommand, 3, CMD_PUBSUB | CMD_LOADING | CMD_STALE | CMD_FAST | CMD_MAY_REPLICATE, 1, 1, 1),
    /* server (server_main.cpp, server.cpp, debug.cpp) */
    cmd("info", nullptr, -1, CMD_LOADING | CMD_STALE | CMD_SENTINEL, 0, 0, 0)
        .acl(ACL_CATEGORY_DANGEROUS)
        .tips({"nondeterministic_output", "request_policy:all_shards", "response_policy:special"}),
    cmd("time", timeCommand, 1, CMD_LOADING | CMD_STALE | CMD_FAST, 0, 0, 0).tips({"nondeterministic_output"}),
    cmd("shutdown", nullptr, -1, ADMIN | CMD_NO_MULTI | CMD_SENTINEL | CMD_ALLOW_BUSY, 0, 0, 0),
    cmd("debug", debugCommand, -2, ADMIN | CMD_PROTECTED, 0, 0, 0),
    /* the slow log (slowlog.cpp) and the latency monitor (latency.cpp) */
    cmd("slowlog", nullptr, -2, 0, 0, 0, 0)
        .subcommands(slowlogSubcommands),
    cmd("latency", nullptr, -2, 0, 0, 0, 0)
        .subcommands(latencySubcommands),
    /* Replication (replication.h) */
    cmd("sync", syncCommand, 1, CMD_ADMIN | CMD_NOSCRIPT | CMD_NO_ASYNC_LOADING | CMD_NO_MULTI, 0, 0, 0),
    cmd("psync", syncCommand, -3, CMD_ADMIN | CMD_NOSCRIPT | CMD_NO_ASYNC_LOADING | CMD_NO_MULTI, 0, 0, 0),
    cmd("replconf", replconfCommand, -1, CMD_ADMIN | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE | CMD_ALLOW_BUSY, 0, 0, 0),
    cmd("replicaof", replicaofCommand, 3, CMD_ADMIN | CMD_NOSCRIPT | CMD_STALE | CMD_NO_ASYNC_LOADING, 0, 0, 0),
    cmd("slaveof", replicaofCommand, 3, CMD_ADMIN | CMD_NOSCRIPT | CMD_STALE | CMD_NO_ASYNC_LOADING, 0, 0, 0),
    cmd("wait", waitCommand, 3, CMD_NOSCRIPT, 0, 0, 0).acl(ACL_CATEGORY_CONNECTION).tips({"request_policy:all_shards", "response_policy:agg_min"}),
    cmd("role", roleCommand, 1, CMD_NOSCRIPT | CMD_LOADING | CMD_STALE | CMD_FAST, 0, 0, 0).acl(ACL_CATEGORY_ADMIN | ACL_CATEGORY_DANGEROUS),
    /* cppredis's own: the trace file (livetrace_output.h); "since" is cppredis's version */
    cmd("trace", nullptr, -2, 0, 0, 0, 0).docs("server", "A container for the trace of the server at work", "0.1.0")
        .subcommands(traceSubcommands),
    /* COMMAND (commands.cpp), ACL (acl.cpp), CONFIG (server.cpp; config.c in Redis) */
    cmd("command", commandCommand, -1, CMD_LOADING | CMD_STALE | CMD_SENTINEL, 0, 0, 0)
        .acl(CONNECTION).tips({"nondeterministic_output_order"})
        .subcommands(commandSubcommands),
    cmd("acl", nullptr, -2, 0, 0, 0, 0)
        .subcommands(aclSubcommands),
    cmd("config", nullptr, -2, 0, 0, 0, 0)
        .subcommands(configSubcommands),
    /* bitmaps (bitops.cpp), LCS and SUBSTR (t_string.cpp), SORT (sort.cpp),
     * HyperLogLog (hyperloglog.cpp), geo (geo.cpp), SWAPDB and TOUCH (db.cpp),
     * DUMP, RESTORE, MIGRATE (cluster.cpp), functions (functions.cpp) */
    cmd("setbit", setbitCommand, 4, CMD_WRITE | CMD_DENYOOM, 1, 1, 1).acl(ACL_CATEGORY_BITMAP),
    cmd("getbit", getbitCommand, 3, CMD_READONLY | CMD_FAST, 1, 1, 1).acl(ACL_CATEGORY_BITMAP),
    cmd("bitcount", bitcountCommand, -2, CMD_READONLY, 1, 1, 1).acl(ACL_CATEGORY_BITMAP),
    cmd("bitpos", bitposCommand, -3, CMD_READONLY, 1, 1, 1).acl(ACL_CATEGORY_BITMAP),
    cmd("bitop", bitopCommand, -4, CMD_WRITE | CMD_DENYOOM, 2, -1, 1).acl(ACL_CATEGORY_BITMAP),
    cmd("bitfield", bitfieldCommand, -2, CMD_WRITE | CMD_DENYOOM, 1, 1, 1).acl(ACL_CATEGORY_BITMAP).getkeys(bitfieldGetKeys),
    cmd("bitfield_ro", bitfieldroCommand, -2, CMD_READONLY | CMD_FAST, 1, 1, 1).acl(ACL_CATEGORY_BITMAP),
    cmd("lcs", lcsCommand, -3, CMD_READONLY, 1, 2, 1).acl(ACL_CATEGORY_STRING),
    cmd("substr", getrangeCommand, 4, CMD_READONLY, 1, 1, 1).acl(ACL_CATEGORY_STRING),
    cmd("sort", sortCommand, -2, CMD_WRITE | CMD_DENYOOM | CMD_MOVABLE_KEYS, 1, 1, 1).acl(ACL_CATEGORY_SET | ACL_CATEGORY_SORTEDSET | ACL_CATEGORY_LIST | ACL_CATEGORY_DANGEROUS).getkeys(sortGetKeys),
    cmd("sort_ro", sortroCommand, -2, CMD_READONLY | CMD_MOVABLE_KEYS, 1, 1, 1).acl(ACL_CATEGORY_SET | ACL_CATEGORY_SORTEDSET | ACL_CATEGORY_LIST | ACL_CATEGORY_DANGEROUS).getkeys(sortROGetKeys),
    cmd("pfadd", pfaddCommand, -2, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1).acl(ACL_CATEGORY_HYPERLOGLOG),
    cmd("pfcount", pfcountCommand, -2, CMD_READONLY | CMD_MAY_REPLICATE, 1, -1, 1).acl(ACL_CATEGORY_HYPERLOGLOG),
    cmd("pfmerge", pfmergeCommand, -2, CMD_WRITE | CMD_DENYOOM, 1, -1, 1).acl(ACL_CATEGORY_HYPERLOGLOG),
    cmd("pfdebug", pfdebugCommand, 3, CMD_WRITE | CMD_DENYOOM | CMD_ADMIN, 2, 2, 1).acl(ACL_CATEGORY_HYPERLOGLOG),
    cmd("pfselftest", pfselftestCommand, 1, CMD_ADMIN, 0, 0, 0).acl(ACL_CATEGORY_HYPERLOGLOG),
    cmd("geoadd", geoaddCommand, -5, CMD_WRITE | CMD_DENYOOM, 1, 1, 1).acl(ACL_CATEGORY_GEO),
    cmd("geopos", geoposCommand, -2, CMD_READONLY, 1, 1, 1).acl(ACL_CATEGORY_GEO),
    cmd("geodist", geodistCommand, -4, CMD_READONLY, 1, 1, 1).acl(ACL_CATEGORY_GEO),
    cmd("geohash", geohashCommand, -2, CMD_READONLY, 1, 1, 1).acl(ACL_CATEGORY_GEO),
    cmd("geosearch", geosearchCommand, -7, CMD_READONLY, 1, 1, 1).acl(ACL_CATEGORY_GEO),
    cmd("geosearchstore", geosearchstoreCommand, -8, CMD_WRITE | CMD_DENYOOM, 1, 2, 1).acl(ACL_CATEGORY_GEO),
    cmd("georadius", georadiusCommand, -6, CMD_WRITE | CMD_DENYOOM | CMD_MOVABLE_KEYS, 1, 1, 1).acl(ACL_CATEGORY_GEO).getkeys(georadiusGetKeys),
    cmd("georadius_ro", georadiusroCommand, -6, CMD_READONLY, 1, 1, 1).acl(ACL_CATEGORY_GEO),
    cmd("georadiusbymember", georadiusbymemberCommand, -5, CMD_WRITE | CMD_DENYOOM | CMD_MOVABLE_KEYS, 1, 1, 1).acl(ACL_CATEGORY_GEO).getkeys(georadiusGetKeys),
    cmd("georadiusbymember_ro", georadiusbymemberroCommand, -5, CMD_READONLY, 1, 1, 1).acl(ACL_CATEGORY_GEO),
    cmd("swapdb", swapdbCommand, 3, CMD_WRITE | CMD_FAST, 0, 0, 0).acl(ACL_CATEGORY_KEYSPACE | ACL_CATEGORY_DANGEROUS),
    cmd("touch", touchCommand, -2, CMD_READONLY | CMD_FAST, 1, -1, 1).acl(ACL_CATEGORY_KEYSPACE).tips({"request_policy:multi_shard", "response_policy:agg_sum"}),
    cmd("dump", dumpCommand, 2, CMD_READONLY, 1, 1, 1).acl(ACL_CATEGORY_KEYSPACE).tips({"nondeterministic_output"}),
    cmd("restore", restoreCommand, -4, CMD_WRITE | CMD_DENYOOM, 1, 1, 1).acl(ACL_CATEGORY_KEYSPACE | ACL_CATEGORY_DANGEROUS),
    cmd("migrate", migrateCommand, -6, CMD_WRITE | CMD_MOVABLE_KEYS, 3, 3, 1).acl(ACL_CATEGORY_KEYSPACE | ACL_CATEGORY_DANGEROUS).tips({"nondeterministic_output"}).getkeys(migrateGetKeys),
    cmd("fcall", fcallCommand, -3, CMD_NOSCRIPT | CMD_STALE | CMD_SKIP_MONITOR | CMD_MAY_REPLICATE | CMD_NO_MANDATORY_KEYS | CMD_MOVABLE_KEYS, 0, 0, 0).acl(ACL_CATEGORY_SCRIPTING).getkeys(functionGetKeys),
    cmd("fcall_ro", fcallroCommand, -3, CMD_READONLY | CMD_NOSCRIPT | CMD_STALE | CMD_SKIP_MONITOR | CMD_NO_MANDATORY_KEYS | CMD_MOVABLE_KEYS, 0, 0, 0).acl(ACL_CATEGORY_SCRIPTING).getkeys(functionGetKeys),
    cmd("function", nullptr, -2, 0, 0, 0, 0)
        .subcommands(functionSubcommands),
};

/* The redisCommand a row describes, with its subcommands' (what
 * populateCommandTable indexes and the server dispatches through). */
redisCommand fromRow(const Cmd &row) {
    redisCommand c{};
    c.declared_name = row.name;
    c.proc = row.proc;
    c.arity = row.arity;
    c.flags = row.flags;
    c.firstkey = row.first;
    c.lastkey = row.last;
    c.keystep = row.step;
    c.group = row.group;
    c.summary = row.summary;
    c.since = row.since;
    c.acl_categories = row.acl_categories;
    c.getkeys_proc = row.getkeys_proc;
    c.tips.assign(row.tip_list, row.tip_list + row.ntips);
    c.subcommands.reserve(row.nsubs);
    for (size_t i = 0; i < row.nsubs; i++) c.subcommands.push_back(fromRow(row.subs[i]));
    return c;
}

/* The rows of INFO, SHUTDOWN and RESET hold no function: theirs are
 * server_main.cpp's, a layer above, handed in by initCommandTable. */
redisCommandProc topLayerProc(std::string_view name, const serverMainCommandProcs &top) {
    if (name == "info") return top.info;
    if (name == "shutdown") return top.shutdown;
    if (name == "reset") return top.reset;
    return nullptr;
}

std::vector<redisCommand> buildCommandTable(const serverMainCommandProcs &top) {
    std::vector<redisCommand> table;
    table.reserve(std::size(commandRows));
    for (const Cmd &row : commandRows) {
        table.push_back(fromRow(row));
        if (!row.proc && row.nsubs == 0) table.back().proc = topLayerProc(row.name, top);
    }
    return table;
}

}  // namespace

/* Built on first use (no static-initialization-order dependency on
 * `server`): populateCommandTable(), which indexes it. */
static std::vector<redisCommand> &redisCommandTable(const serverMainCommandProcs &top) {
    static std::vector<redisCommand> table = buildCommandTable(top);
    return table;
}

/* ========================================================================
 * Indexing the table (Redis's populateCommandTable, in server.c)
 * ====================================================================== */

/* The categories a command's flags imply (Redis's setImplicitACLCategories). */
static void setImplicitACLCategories(redisCommand &cmd) {
    if (cmd.flags & CMD_WRITE) cmd.acl_categories |= ACL_CATEGORY_WRITE;
    /* EVAL_RO's keys are the script's business: no implied @read (as Redis). */
    if ((cmd.flags & CMD_READONLY) && !(cmd.acl_categories & ACL_CATEGORY_SCRIPTING))
        cmd.acl_categories |= ACL_CATEGORY_READ;
    if (cmd.flags & CMD_ADMIN) cmd.acl_categories |= ACL_CATEGORY_ADMIN | ACL_CATEGORY_DANGEROUS;
    if (cmd.flags & CMD_PUBSUB) cmd.acl_categories |= ACL_CATEGORY_PUBSUB;
    if (cmd.flags & CMD_FAST) cmd.acl_categories |= ACL_CATEGORY_FAST;
    if (cmd.flags & CMD_BLOCKING) cmd.acl_categories |= ACL_CATEGORY_BLOCKING;
    if (!(cmd.acl_categories & ACL_CATEGORY_FAST)) cmd.acl_categories |= ACL_CATEGORY_SLOW;
}

/* Links subcommands to their parent and indexes every command by name. */
void populateCommandTable(const serverMainCommandProcs &procs) {
    server.command_table = &redisCommandTable(procs);
    unsigned long nextid = 0; /* ACL's bit of each command (never USER_COMMAND_BITS_COUNT - 1) */
    for (redisCommand &cmd : *server.command_table) {
        cmd.fullname = cmd.declared_name;
        cmd.id = nextid++;
        cmd.key_specs = commandKeySpecTable(cmd.fullname);
        setImplicitACLCategories(cmd);
        for (redisCommand &sub : cmd.subcommands) {
            sub.id = nextid++;
            sub.parent = &cmd;
            sub.fullname = std::string(cmd.declared_name) + "|" + sub.declared_name;
            sub.key_specs = commandKeySpecTable(sub.fullname);
            setImplicitACLCategories(sub);
            cmd.subcommands_dict[sub.declared_name] = &sub;
        }
        server.commands[cmd.declared_name] = &cmd;
    }
    if (nextid >= USER_COMMAND_BITS_COUNT - 1) {
        fprintf(stderr, "The command table outgrew ACL's command bitmap (USER_COMMAND_BITS_COUNT)\n");
        abort();
    }
}

/* ========================================================================
 * COMMAND and its subcommands: what clients learn about the table
 * ====================================================================== */

static const std::pair<uint64_t, const char *> kCommandFlagNames[] = {
    {CMD_WRITE, "write"},       {CMD_READONLY, "readonly"}, {CMD_DENYOOM, "denyoom"},
    {CMD_ADMIN, "admin"},       {CMD_PUBSUB, "pubsub"},     {CMD_NOSCRIPT, "noscript"},
    {CMD_BLOCKING, "blocking"}, {CMD_LOADING, "loading"},   {CMD_STALE, "stale"},
    {CMD_SKIP_MONITOR, "skip_monitor"}, {CMD_SKIP_SLOWLOG, "skip_slowlog"}, {CMD_FAST, "fast"}, {CMD_NO_AUTH, "no_auth"},
    {CMD_NO_MANDATORY_KEYS, "no_mandatory_keys"}, {CMD_NO_ASYNC_LOADING, "no_async_loading"},
    {CMD_NO_MULTI, "no_multi"}, {CMD_MOVABLE_KEYS, "movablekeys"}, {CMD_ALLOW_BUSY, "allow_busy"},
};

static void addReplyCommandFlags(client *c, const redisCommand *cmd) {
    long n = 0;
    for (auto &[flag, name] : kCommandFlagNames) n += (cmd->flags & flag) != 0;
    addReplySetLen(c, n);
    for (auto &[flag, name] : kCommandFlagNames)
        if (cmd->flags & flag) addReplyStatus(c, name);
}

static void addReplyCommandCategories(client *c, const redisCommand *cmd) {
    addReplySetLen(c, std::popcount(cmd->acl_categories));
    for (size_t i = 0; i < std::size(ACL_CATEGORY_NAMES); i++)
        if (cmd->acl_categories & (1ULL << i)) addReplyStatus(c, std::string("@") + ACL_CATEGORY_NAMES[i]);
}

static void addReplyCommandTips(client *c, const redisCommand *cmd) {
    addReplySetLen(c, static_cast<long long>(cmd->tips.size()));
    for (const char *tip : cmd->tips) addReplyBulk(c, tip);
}

/* The key specs (keyspecs.cpp) and docs (commanddocs.cpp) are kept as
 * Redis's RESP2 bytes, where Redis writes some of their arrays as maps or
 * sets. PreencodedReply replays those bytes through the typed writers,
 * giving each value the type Redis gives the map entry it belongs to. */
class PreencodedReply {
public:
    PreencodedReply(client *c, std::string_view resp) : c_(c), resp_(resp) {}

    /* The key specs: a set of maps. */
    void keySpecs() {
        long n = arrayLen();
        addReplySetLen(c_, n);
        while (n--) map();
    }
    /* The docs' fields: `pairs` map entries. */
    void pairs(long pairs) {
        while (pairs--) {
            std::string_view key = copyBulk();
            value(key);
        }
    }

private:
    /* A value typed by the key it is stored under. */
    void value(std::string_view key) {
        if (key == "flags" || key == "doc_flags" || key == "history") {
            long n = arrayLen();
            addReplySetLen(c_, n);
            while (n--) copyValue();
        } else if (key == "begin_search" || key == "find_keys" || key == "spec") {
            map();
        } else if (key == "arguments") {
            long n = arrayLen();
            addReplyArrayLen(c_, n);
            while (n--) map();
        } else {
            copyValue();
        }
    }
    /* A RESP2 array of alternating keys and values, as a map. */
    void map() {
        long n = arrayLen();
        addReplyMapLen(c_, n / 2);
        pairs(n / 2);
    }
    std::string_view line() {
        size_t end = resp_.find("\r\n", pos_);
        std::string_view l = resp_.substr(pos_, end - pos_);
        pos_ = end + 2;
        return l;
    }
    static long number(std::string_view l) {
        long n = 0;
        std::from_chars(l.data() + 1, l.data() + l.size(), n);
        return n;
    }
    long arrayLen() { return number(line()); }
    /* Copies one bulk string, returning its payload. */
    std::string_view copyBulk() {
        size_t start = pos_;
        long len = number(line());
        std::string_view payload = resp_.substr(pos_, static_cast<size_t>(len));
        pos_ += static_cast<size_t>(len) + 2;
        addReplyProto(c_, resp_.data() + start, pos_ - start);
        return payload;
    }
    /* Copies one value (an array with everything in it) as it is. */
    void copyValue() {
        size_t start = pos_;
        skipValue();
        addReplyProto(c_, resp_.data() + start, pos_ - start);
    }
    void skipValue() {
        std::string_view l = line();
        if (l[0] == '$') pos_ += static_cast<size_t>(number(l)) + 2;
        else if (l[0] == '*')
            for (long n = number(l); n > 0; n--) skipValue();
    }

    client *c_;
    std::string_view resp_;
    size_t pos_ = 0;
};

/* The 10-element COMMAND INFO entry of Redis 7. */
static void addReplyCommandInfo(client *c, const redisCommand *cmd) {
    addReplyArrayLen(c, 10);
    addReplyBulk(c, cmd->fullname);
    addReplyLongLong(c, cmd->arity);
    addReplyCommandFlags(c, cmd);
    addReplyLongLong(c, cmd->firstkey);
    addReplyLongLong(c, cmd->lastkey);
    addReplyLongLong(c, cmd->keystep);
    addReplyCommandCategories(c, cmd);
    addReplyCommandTips(c, cmd);
    PreencodedReply(c, commandKeySpecs(cmd->fullname)).keySpecs();
    /* No subcommands: an empty set, as Redis 7.0 writes it. */
    if (cmd->subcommands.empty()) return addReplySetLen(c, 0);
    addReplyArrayLen(c, static_cast<long long>(cmd->subcommands.size()));
    for (const redisCommand &sub : cmd->subcommands) addReplyCommandInfo(c, &sub);
}

/* Redis 7's docs of the command (commanddocs.cpp), then its subcommands as
 * the table has them. cppredis's own commands (TRACE), which Redis lacks,
 * are documented by their rows' summary, since and group. */
static void addReplyCommandDocs(client *c, const redisCommand *cmd) {
    const commandDocs *docs = lookupCommandDocs(cmd->fullname);
    bool hasSubs = !cmd->subcommands.empty();
    addReplyMapLen(c, (docs ? docs->fields : 3) + hasSubs);
    if (docs) {
        PreencodedReply(c, docs->resp).pairs(docs->fields);
    } else {
        addReplyBulk(c, "summary");
        addReplyBulk(c, cmd->summary);
        addReplyBulk(c, "since");
        addReplyBulk(c, cmd->since);
        addReplyBulk(c, "group");
        addReplyBulk(c, cmd->group);
    }
    if (!hasSubs) return;
    addReplyBulk(c, "subcommands");
    addReplyMapLen(c, static_cast<long long>(cmd->subcommands.size()));
    for (const redisCommand &sub : cmd->subcommands) {
        addReplyBulk(c, sub.fullname);
        addReplyCommandDocs(c, &sub);
    }
}

void commandCommand(client *c) {
    addReplyArrayLen(c, static_cast<long long>(server.command_table->size()));
    for (const redisCommand &cmd : *server.command_table) addReplyCommandInfo(c, &cmd);
}

void commandCountCommand(client *c) {
    addReplyLongLong(c, static_cast<long long>(server.command_table->size()));
}

void commandInfoCommand(client *c) {
    if (c->argv.size() == 2) return commandCommand(c);
    addReplyArrayLen(c, static_cast<long long>(c->argv.size() - 2));
    for (size_t i = 2; i < c->argv.size(); i++) {
        const redisCommand *cmd = lookupCommandBySdsFullname(c->argv[i]);
        if (cmd) addReplyCommandInfo(c, cmd);
        else addReplyNull(c);
    }
}

void commandDocsCommand(client *c) {
    std::vector<const redisCommand *> found;
    if (c->argv.size() == 2) {
        for (const redisCommand &cmd : *server.command_table) found.push_back(&cmd);
    } else {
        for (size_t i = 2; i < c->argv.size(); i++)
            if (const redisCommand *cmd = lookupCommandBySdsFullname(c->argv[i])) found.push_back(cmd);
    }
    addReplyMapLen(c, static_cast<long long>(found.size()));
    for (const redisCommand *cmd : found) {
        addReplyBulk(c, cmd->fullname);
        addReplyCommandDocs(c, cmd);
    }
}

void commandListCommand(client *c) {
    if (c->argv.size() != 2) return addReplySubcommandSyntaxError(c);
    long long n = 0;
    for (const redisCommand &cmd : *server.command_table) n += 1 + static_cast<long long>(cmd.subcommands.size());
    addReplyArrayLen(c, n);
    for (const redisCommand &cmd : *server.command_table) {
        addReplyBulk(c, cmd.fullname);
        for (const redisCommand &sub : cmd.subcommands) addReplyBulk(c, sub.fullname);
    }
}

static const std::pair<int, const char *> kKeySpecFlagNames[] = {
    {CMD_KEY_RO, "RO"},           {CMD_KEY_RW, "RW"},         {CMD_KEY_OW, "OW"},
    {CMD_KEY_RM, "RM"},           {CMD_KEY_ACCESS, "access"}, {CMD_KEY_UPDATE, "update"},
    {CMD_KEY_INSERT, "insert"},   {CMD_KEY_DELETE, "delete"}, {CMD_KEY_NOT_KEY, "not_key"},
    {CMD_KEY_INCOMPLETE, "incomplete"}, {CMD_KEY_VARIABLE_FLAGS, "variable_flags"},
};

static void addReplyFlagsForKeyArgs(client *c, int flags) {
    addReplySetLen(c, std::popcount(static_cast<unsigned>(flags)));
    for (auto &[flag, name] : kKeySpecFlagNames)
        if (flags & flag) addReplyStatus(c, name);
}

/* COMMAND GETKEYS / GETKEYSANDFLAGS <full-command>: the keys of a call,
 * found as ACL finds them (getKeysFromCommandWithSpecs). */
static void getKeysSubcommandImpl(client *c, bool with_flags) {
    std::span<const std::string_view> argv(c->argv.begin() + 2, c->argv.end());
    const redisCommand *cmd = lookupCommand(argv);
    if (!cmd) return addReplyError(c, "Invalid command specified");
    if (!doesCommandHaveKeys(cmd)) return addReplyError(c, "The command has no key arguments");
    const long argc = static_cast<long>(argv.size());
    if ((cmd->arity > 0 && cmd->arity != argc) || argc < -cmd->arity)
        return addReplyError(c, "Invalid number of arguments specified for command");

    getKeysResult result;
    if (!getKeysFromCommandWithSpecs(cmd, argv, GET_KEYSPEC_DEFAULT, &result)) {
        if (cmd->flags & CMD_NO_MANDATORY_KEYS) return addReplyArrayLen(c, 0);
        return addReplyError(c, "Invalid arguments specified for command");
    }
    addReplyArrayLen(c, static_cast<long long>(result.keys.size()));
    for (const keyReference &key : result.keys) {
        if (with_flags) addReplyArrayLen(c, 2);
        addReplyBulk(c, argv[key.pos]);
        if (with_flags) addReplyFlagsForKeyArgs(c, key.flags);
    }
}

void commandGetKeysCommand(client *c) {
    getKeysSubcommandImpl(c, false);
}

void commandGetKeysAndFlagsCommand(client *c) {
    getKeysSubcommandImpl(c, true);
}

void commandHelpCommand(client *c) {
    static const char *const help[] = {
        "(no subcommand)",
        "    Return details about all Redis commands.",
        "COUNT",
        "    Return the total number of commands in this Redis server.",
        "LIST",
        "    Return a list of all commands in this Redis server.",
        "INFO [<command-name> ...]",
        "    Return details about multiple Redis commands.",
        "    If no command names are given, documentation details for all",
        "    commands are returned.",
        "DOCS [<command-name> ...]",
        "    Return documentation details about multiple Redis commands.",
        "    If no command names are given, documentation details for all",
        "    commands are returned.",
        "GETKEYS <full-command>",
        "    Return the keys from a full Redis command.",
        "GETKEYSANDFLAGS <full-command>",
        "    Return the keys and the access flags from a full Redis command.",
        nullptr};
    addReplyHelp(c, help);
}

