/* commands.cpp — the command table (Redis 7 generates it as commands.def),
 * its indexing at start-up, and COMMAND, which describes it to clients
 * (both in Redis's server.c; here with the table, at the top of the layers,
 * since COMMAND INFO and DOCS read the generated key specs and docs,
 * keyspecs.cpp and commanddocs.cpp).
 *
 * Each row: name, implementation, arity (negative = at least -arity
 * arguments, the name included), flags, first/last key position and step
 * (0 when the command takes no key), then the group, summary and version
 * (COMMAND DOCS shows Redis 7's docs, commanddocs.cpp, and these only for
 * commands Redis lacks). A container command (CONFIG, CLIENT...) lists its
 * subcommands; processCommand dispatches on the second word.
 * Adding a command is adding a row here and its implementation.
 */
#include "commands.h"

#include <cstdio>
#include <cstdlib>

#include "acl.h"
#include "aof.h"
#include "bitops.h"
#include "blocked.h"
#include "cluster.h"
#include "commanddocs.h"
#include "config.h"
#include "db.h"
#include "debug.h"
#include "expire.h"
#include "functions.h"
#include "geo.h"
#include "hyperloglog.h"
#include "keyspecs.h"
#include "multi.h"
#include "networking.h"
#include "object.h"
#include "pubsub.h"
#include "rdb.h"
#include "replication.h"
#include "scripting.h"
#include "server.h"
#include "server_main.h"
#include "sort.h"
#include "t_hash.h"
#include "t_list.h"
#include "t_set.h"
#include "t_stream.h"
#include "t_string.h"
#include "t_zset.h"
#include "tracing.h"

namespace {

/* Flags shared by connection-level subcommands. */
constexpr uint64_t CONN = CMD_NOSCRIPT | CMD_LOADING | CMD_STALE;
constexpr uint64_t ADMIN = CMD_ADMIN | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE;
constexpr uint64_t CONNECTION = ACL_CATEGORY_CONNECTION;

/* A row of the table, built fluently: cmd(...).acl(...).tips({...}). */
struct Cmd {
    redisCommand c{};
    Cmd(const char *name, redisCommandProc proc, int arity, uint64_t flags, int first, int last, int step,
        const char *group, const char *summary, const char *since) {
        c.declared_name = name;
        c.proc = proc;
        c.arity = arity;
        c.flags = flags;
        c.firstkey = first;
        c.lastkey = last;
        c.keystep = step;
        c.group = group;
        c.summary = summary;
        c.since = since;
    }
    Cmd &&acl(uint64_t categories) && {
        c.acl_categories |= categories;
        return std::move(*this);
    }
    Cmd &&getkeys(redisGetKeysProc proc) && {
        c.getkeys_proc = proc;
        return std::move(*this);
    }
    Cmd &&tips(std::initializer_list<const char *> t) && {
        c.tips.assign(t);
        return std::move(*this);
    }
    Cmd &&subcommands(std::initializer_list<Cmd> subs) && {
        for (const Cmd &sub : subs) c.subcommands.push_back(sub.c);
        return std::move(*this);
    }
};

Cmd cmd(const char *name, redisCommandProc proc, int arity, uint64_t flags, int first, int last, int step,
        const char *group, const char *summary, const char *since) {
    return Cmd(name, proc, arity, flags, first, last, step, group, summary, since);
}

std::vector<redisCommand> buildCommandTable() {
    std::initializer_list<Cmd> rows = {
        /* connection */
        cmd("ping", pingCommand, -1, CMD_FAST | CMD_SENTINEL, 0, 0, 0, "connection", "Ping the server", "1.0.0")
            .acl(CONNECTION).tips({"request_policy:all_shards", "response_policy:all_succeeded"}),
        cmd("echo", echoCommand, 2, CMD_FAST | CMD_LOADING | CMD_STALE, 0, 0, 0, "connection",
            "Echo the given string", "1.0.0").acl(CONNECTION),
        cmd("quit", quitCommand, -1, CONN | CMD_FAST | CMD_NO_AUTH | CMD_ALLOW_BUSY, 0, 0, 0, "connection",
            "Close the connection", "1.0.0").acl(CONNECTION),
        cmd("auth", authCommand, -2, CONN | CMD_FAST | CMD_NO_AUTH | CMD_SENTINEL | CMD_ALLOW_BUSY, 0, 0, 0, "connection",
            "Authenticate to the server", "1.0.0").acl(CONNECTION),
        cmd("hello", helloCommand, -1, CONN | CMD_FAST | CMD_NO_AUTH | CMD_SENTINEL | CMD_ALLOW_BUSY, 0, 0, 0,
            "connection", "Handshake with Redis", "6.0.0").acl(CONNECTION),
        cmd("client", nullptr, -2, CMD_SENTINEL, 0, 0, 0, "connection",
            "A container for client connection commands", "2.4.0")
            .subcommands({
                cmd("id", clientIdCommand, 2, CONN, 0, 0, 0, "connection", "Returns the client ID for the current connection", "5.0.0").acl(CONNECTION),
                cmd("info", clientInfoCommand, 2, CONN, 0, 0, 0, "connection", "Returns information about the current client connection.", "6.2.0")
                    .acl(CONNECTION).tips({"nondeterministic_output"}),
                cmd("list", clientListCommand, -2, ADMIN, 0, 0, 0, "connection", "Get the list of client connections", "2.4.0")
                    .acl(CONNECTION).tips({"nondeterministic_output"}),
                cmd("kill", clientKillCommand, -3, ADMIN, 0, 0, 0, "connection", "Kill the connection of a client", "2.4.0").acl(CONNECTION),
                cmd("unblock", clientUnblockCommand, -3, ADMIN, 0, 0, 0, "connection", "Unblock a client blocked in a blocking command from a different connection", "5.0.0").acl(CONNECTION),
                cmd("setname", clientSetNameCommand, 3, CONN, 0, 0, 0, "connection", "Set the current connection name", "2.6.9").acl(CONNECTION),
                cmd("getname", clientGetNameCommand, 2, CONN, 0, 0, 0, "connection", "Get the current connection name", "2.6.9").acl(CONNECTION),
                cmd("help", clientHelpCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0, "connection", "Show helpful text about the different subcommands", "5.0.0").acl(CONNECTION),
            }),
        /* strings (t_string.cpp) */
        cmd("set", setCommand, -3, CMD_WRITE | CMD_DENYOOM, 1, 1, 1, "string", "Set the string value of a key", "1.0.0")
            .acl(ACL_CATEGORY_STRING).getkeys(setGetKeys),
        cmd("get", getCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1, "string", "Get the value of a key", "1.0.0")
            .acl(ACL_CATEGORY_STRING),
        cmd("getset", getsetCommand, 3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "string", "Set the string value of a key and return its old value", "1.0.0")
            .acl(ACL_CATEGORY_STRING),
        cmd("getdel", getdelCommand, 2, CMD_WRITE | CMD_FAST, 1, 1, 1, "string", "Get the value of a key and delete the key", "6.2.0")
            .acl(ACL_CATEGORY_STRING),
        cmd("getex", getexCommand, -2, CMD_WRITE | CMD_FAST, 1, 1, 1, "string", "Get the value of a key and optionally set its expiration", "6.2.0")
            .acl(ACL_CATEGORY_STRING),
        cmd("setnx", setnxCommand, 3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "string", "Set the value of a key, only if the key does not exist", "1.0.0")
            .acl(ACL_CATEGORY_STRING),
        cmd("setex", setexCommand, 4, CMD_WRITE | CMD_DENYOOM, 1, 1, 1, "string", "Set the value and expiration of a key", "2.0.0")
            .acl(ACL_CATEGORY_STRING),
        cmd("psetex", psetexCommand, 4, CMD_WRITE | CMD_DENYOOM, 1, 1, 1, "string", "Set the value and expiration in milliseconds of a key", "2.6.0")
            .acl(ACL_CATEGORY_STRING),
        cmd("mget", mgetCommand, -2, CMD_READONLY | CMD_FAST, 1, -1, 1, "string", "Get the values of all the given keys", "1.0.0")
            .acl(ACL_CATEGORY_STRING).tips({"request_policy:multi_shard"}),
        cmd("mset", msetCommand, -3, CMD_WRITE | CMD_DENYOOM, 1, -1, 2, "string", "Set multiple keys to multiple values", "1.0.1")
            .acl(ACL_CATEGORY_STRING).tips({"request_policy:multi_shard", "response_policy:all_succeeded"}),
        cmd("msetnx", msetnxCommand, -3, CMD_WRITE | CMD_DENYOOM, 1, -1, 2, "string", "Set multiple keys to multiple values, only if none of the keys exist", "1.0.1")
            .acl(ACL_CATEGORY_STRING).tips({"request_policy:multi_shard", "response_policy:agg_min"}),
        cmd("incr", incrCommand, 2, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "string", "Increment the integer value of a key by one", "1.0.0")
            .acl(ACL_CATEGORY_STRING),
        cmd("decr", decrCommand, 2, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "string", "Decrement the integer value of a key by one", "1.0.0")
            .acl(ACL_CATEGORY_STRING),
        cmd("incrby", incrbyCommand, 3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "string", "Increment the integer value of a key by the given amount", "1.0.0")
            .acl(ACL_CATEGORY_STRING),
        cmd("decrby", decrbyCommand, 3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "string", "Decrement the integer value of a key by the given number", "1.0.0")
            .acl(ACL_CATEGORY_STRING),
        cmd("incrbyfloat", incrbyfloatCommand, 3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "string", "Increment the float value of a key by the given amount", "2.6.0")
            .acl(ACL_CATEGORY_STRING),
        cmd("append", appendCommand, 3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "string", "Append a value to a key", "2.0.0")
            .acl(ACL_CATEGORY_STRING),
        cmd("strlen", strlenCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1, "string", "Get the length of the value stored in a key", "2.2.0")
            .acl(ACL_CATEGORY_STRING),
        cmd("getrange", getrangeCommand, 4, CMD_READONLY, 1, 1, 1, "string", "Get a substring of the string stored at a key", "2.4.0")
            .acl(ACL_CATEGORY_STRING),
        cmd("setrange", setrangeCommand, 4, CMD_WRITE | CMD_DENYOOM, 1, 1, 1, "string", "Overwrite part of a string at key starting at the specified offset", "2.2.0")
            .acl(ACL_CATEGORY_STRING),
        /* lists (t_list.cpp) */
        cmd("lpush", lpushCommand, -3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "list", "Prepend one or multiple elements to a list", "1.0.0")
            .acl(ACL_CATEGORY_LIST),
        cmd("rpush", rpushCommand, -3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "list", "Append one or multiple elements to a list", "1.0.0")
            .acl(ACL_CATEGORY_LIST),
        cmd("lpushx", lpushxCommand, -3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "list", "Prepend an element to a list, only if the list exists", "2.2.0")
            .acl(ACL_CATEGORY_LIST),
        cmd("rpushx", rpushxCommand, -3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "list", "Append an element to a list, only if the list exists", "2.2.0")
            .acl(ACL_CATEGORY_LIST),
        cmd("linsert", linsertCommand, 5, CMD_WRITE | CMD_DENYOOM, 1, 1, 1, "list", "Insert an element before or after another element in a list", "2.2.0")
            .acl(ACL_CATEGORY_LIST),
        cmd("llen", llenCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1, "list", "Get the length of a list", "1.0.0")
            .acl(ACL_CATEGORY_LIST),
        cmd("lindex", lindexCommand, 3, CMD_READONLY, 1, 1, 1, "list", "Get an element from a list by its index", "1.0.0")
            .acl(ACL_CATEGORY_LIST),
        cmd("lset", lsetCommand, 4, CMD_WRITE | CMD_DENYOOM, 1, 1, 1, "list", "Set the value of an element in a list by its index", "1.0.0")
            .acl(ACL_CATEGORY_LIST),
        cmd("lrange", lrangeCommand, 4, CMD_READONLY, 1, 1, 1, "list", "Get a range of elements from a list", "1.0.0")
            .acl(ACL_CATEGORY_LIST),
        cmd("ltrim", ltrimCommand, 4, CMD_WRITE, 1, 1, 1, "list", "Trim a list to the specified range", "1.0.0")
            .acl(ACL_CATEGORY_LIST),
        cmd("lrem", lremCommand, 4, CMD_WRITE, 1, 1, 1, "list", "Remove elements from a list", "1.0.0")
            .acl(ACL_CATEGORY_LIST),
        cmd("lpop", lpopCommand, -2, CMD_WRITE | CMD_FAST, 1, 1, 1, "list", "Remove and get the first elements in a list", "1.0.0")
            .acl(ACL_CATEGORY_LIST),
        cmd("rpop", rpopCommand, -2, CMD_WRITE | CMD_FAST, 1, 1, 1, "list", "Remove and get the last elements in a list", "1.0.0")
            .acl(ACL_CATEGORY_LIST),
        cmd("rpoplpush", rpoplpushCommand, 3, CMD_WRITE | CMD_DENYOOM, 1, 2, 1, "list", "Remove the last element in a list, prepend it to another list and return it", "1.2.0")
            .acl(ACL_CATEGORY_LIST),
        cmd("lmove", lmoveCommand, 5, CMD_WRITE | CMD_DENYOOM, 1, 2, 1, "list", "Pop an element from a list, push it to another list and return it", "6.2.0")
            .acl(ACL_CATEGORY_LIST),
        cmd("lpos", lposCommand, -3, CMD_READONLY, 1, 1, 1, "list", "Return the index of matching elements on a list", "6.0.6")
            .acl(ACL_CATEGORY_LIST),
        cmd("lmpop", lmpopCommand, -4, CMD_WRITE | CMD_MOVABLE_KEYS, 0, 0, 0, "list", "Pop elements from a list", "7.0.0")
            .acl(ACL_CATEGORY_LIST).getkeys(lmpopGetKeys),
        /* blocking list commands (t_list.cpp, machinery in blocked.cpp) */
        cmd("blpop", blpopCommand, -3, CMD_WRITE | CMD_NOSCRIPT | CMD_BLOCKING, 1, -2, 1, "list", "Remove and get the first element in a list, or block until one is available", "2.0.0")
            .acl(ACL_CATEGORY_LIST),
        cmd("brpop", brpopCommand, -3, CMD_WRITE | CMD_NOSCRIPT | CMD_BLOCKING, 1, -2, 1, "list", "Remove and get the last element in a list, or block until one is available", "2.0.0")
            .acl(ACL_CATEGORY_LIST),
        cmd("brpoplpush", brpoplpushCommand, 4, CMD_WRITE | CMD_DENYOOM | CMD_NOSCRIPT | CMD_BLOCKING, 1, 2, 1, "list", "Pop an element from a list, push it to another list and return it; or block until one is available", "2.2.0")
            .acl(ACL_CATEGORY_LIST),
        cmd("blmove", blmoveCommand, 6, CMD_WRITE | CMD_DENYOOM | CMD_NOSCRIPT | CMD_BLOCKING, 1, 2, 1, "list", "Pop an element from a list, push it to another list and return it; or block until one is available", "6.2.0")
            .acl(ACL_CATEGORY_LIST),
        cmd("blmpop", blmpopCommand, -5, CMD_WRITE | CMD_BLOCKING | CMD_MOVABLE_KEYS, 0, 0, 0, "list", "Pop elements from a list, or block until one is available", "7.0.0")
            .acl(ACL_CATEGORY_LIST).getkeys(blmpopGetKeys),
        /* hashes (t_hash.cpp) */
        cmd("hset", hsetCommand, -4, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "hash", "Set the string value of a hash field", "2.0.0")
            .acl(ACL_CATEGORY_HASH),
        cmd("hsetnx", hsetnxCommand, 4, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "hash", "Set the value of a hash field, only if the field does not exist", "2.0.0")
            .acl(ACL_CATEGORY_HASH),
        cmd("hmset", hmsetCommand, -4, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "hash", "Set multiple hash fields to multiple values", "2.0.0")
            .acl(ACL_CATEGORY_HASH),
        cmd("hget", hgetCommand, 3, CMD_READONLY | CMD_FAST, 1, 1, 1, "hash", "Get the value of a hash field", "2.0.0")
            .acl(ACL_CATEGORY_HASH),
        cmd("hmget", hmgetCommand, -3, CMD_READONLY | CMD_FAST, 1, 1, 1, "hash", "Get the values of all the given hash fields", "2.0.0")
            .acl(ACL_CATEGORY_HASH),
        cmd("hdel", hdelCommand, -3, CMD_WRITE | CMD_FAST, 1, 1, 1, "hash", "Delete one or more hash fields", "2.0.0")
            .acl(ACL_CATEGORY_HASH),
        cmd("hlen", hlenCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1, "hash", "Get the number of fields in a hash", "2.0.0")
            .acl(ACL_CATEGORY_HASH),
        cmd("hstrlen", hstrlenCommand, 3, CMD_READONLY | CMD_FAST, 1, 1, 1, "hash", "Get the length of the value of a hash field", "3.2.0")
            .acl(ACL_CATEGORY_HASH),
        cmd("hexists", hexistsCommand, 3, CMD_READONLY | CMD_FAST, 1, 1, 1, "hash", "Determine if a hash field exists", "2.0.0")
            .acl(ACL_CATEGORY_HASH),
        cmd("hgetall", hgetallCommand, 2, CMD_READONLY, 1, 1, 1, "hash", "Get all the fields and values in a hash", "2.0.0")
            .acl(ACL_CATEGORY_HASH).tips({"nondeterministic_output_order"}),
        cmd("hkeys", hkeysCommand, 2, CMD_READONLY, 1, 1, 1, "hash", "Get all the fields in a hash", "2.0.0")
            .acl(ACL_CATEGORY_HASH).tips({"nondeterministic_output_order"}),
        cmd("hvals", hvalsCommand, 2, CMD_READONLY, 1, 1, 1, "hash", "Get all the values in a hash", "2.0.0")
            .acl(ACL_CATEGORY_HASH).tips({"nondeterministic_output_order"}),
        cmd("hincrby", hincrbyCommand, 4, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "hash", "Increment the integer value of a hash field by the given number", "2.0.0")
            .acl(ACL_CATEGORY_HASH),
        cmd("hincrbyfloat", hincrbyfloatCommand, 4, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "hash", "Increment the float value of a hash field by the given amount", "2.6.0")
            .acl(ACL_CATEGORY_HASH),
        cmd("hrandfield", hrandfieldCommand, -2, CMD_READONLY, 1, 1, 1, "hash", "Get one or multiple random fields from a hash", "6.2.0")
            .acl(ACL_CATEGORY_HASH).tips({"nondeterministic_output"}),
        cmd("hscan", hscanCommand, -3, CMD_READONLY, 1, 1, 1, "hash", "Incrementally iterate hash fields and associated values", "2.8.0")
            .acl(ACL_CATEGORY_HASH).tips({"nondeterministic_output"}),
        /* sets (t_set.cpp) */
        cmd("sadd", saddCommand, -3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "set", "Add one or more members to a set", "1.0.0")
            .acl(ACL_CATEGORY_SET),
        cmd("srem", sremCommand, -3, CMD_WRITE | CMD_FAST, 1, 1, 1, "set", "Remove one or more members from a set", "1.0.0")
            .acl(ACL_CATEGORY_SET),
        cmd("scard", scardCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1, "set", "Get the number of members in a set", "1.0.0")
            .acl(ACL_CATEGORY_SET),
        cmd("sismember", sismemberCommand, 3, CMD_READONLY | CMD_FAST, 1, 1, 1, "set", "Determine if a given value is a member of a set", "1.0.0")
            .acl(ACL_CATEGORY_SET),
        cmd("smismember", smismemberCommand, -3, CMD_READONLY | CMD_FAST, 1, 1, 1, "set", "Returns the membership associated with the given elements for a set", "6.2.0")
            .acl(ACL_CATEGORY_SET),
        cmd("smembers", smembersCommand, 2, CMD_READONLY, 1, 1, 1, "set", "Get all the members in a set", "1.0.0")
            .acl(ACL_CATEGORY_SET).tips({"nondeterministic_output_order"}),
        cmd("spop", spopCommand, -2, CMD_WRITE | CMD_FAST, 1, 1, 1, "set", "Remove and return one or multiple random members from a set", "1.0.0")
            .acl(ACL_CATEGORY_SET).tips({"nondeterministic_output"}),
        cmd("srandmember", srandmemberCommand, -2, CMD_READONLY, 1, 1, 1, "set", "Get one or multiple random members from a set", "1.0.0")
            .acl(ACL_CATEGORY_SET).tips({"nondeterministic_output"}),
        cmd("smove", smoveCommand, 4, CMD_WRITE | CMD_FAST, 1, 2, 1, "set", "Move a member from one set to another", "1.0.0")
            .acl(ACL_CATEGORY_SET),
        cmd("sinter", sinterCommand, -2, CMD_READONLY, 1, -1, 1, "set", "Intersect multiple sets", "1.0.0")
            .acl(ACL_CATEGORY_SET).tips({"nondeterministic_output_order"}),
        cmd("sinterstore", sinterstoreCommand, -3, CMD_WRITE | CMD_DENYOOM, 1, -1, 1, "set", "Intersect multiple sets and store the resulting set in a key", "1.0.0")
            .acl(ACL_CATEGORY_SET),
        cmd("sunion", sunionCommand, -2, CMD_READONLY, 1, -1, 1, "set", "Add multiple sets", "1.0.0")
            .acl(ACL_CATEGORY_SET).tips({"nondeterministic_output_order"}),
        cmd("sunionstore", sunionstoreCommand, -3, CMD_WRITE | CMD_DENYOOM, 1, -1, 1, "set", "Add multiple sets and store the resulting set in a key", "1.0.0")
            .acl(ACL_CATEGORY_SET),
        cmd("sdiff", sdiffCommand, -2, CMD_READONLY, 1, -1, 1, "set", "Subtract multiple sets", "1.0.0")
            .acl(ACL_CATEGORY_SET).tips({"nondeterministic_output_order"}),
        cmd("sdiffstore", sdiffstoreCommand, -3, CMD_WRITE | CMD_DENYOOM, 1, -1, 1, "set", "Subtract multiple sets and store the resulting set in a key", "1.0.0")
            .acl(ACL_CATEGORY_SET),
        cmd("sintercard", sintercardCommand, -3, CMD_READONLY | CMD_MOVABLE_KEYS, 0, 0, 0, "set", "Intersect multiple sets and return the cardinality of the result", "7.0.0")
            .acl(ACL_CATEGORY_SET).getkeys(sintercardGetKeys),
        cmd("sscan", sscanCommand, -3, CMD_READONLY, 1, 1, 1, "set", "Incrementally iterate Set elements", "2.8.0")
            .acl(ACL_CATEGORY_SET).tips({"nondeterministic_output"}),
        /* sorted sets (t_zset.cpp; BZPOPMIN/BZPOPMAX/BZMPOP block through blocked.cpp) */
        cmd("zadd", zaddCommand, -4, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "sorted-set", "Add one or more members to a sorted set, or update its score if it already exists", "1.2.0")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("zincrby", zincrbyCommand, 4, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "sorted-set", "Increment the score of a member in a sorted set", "1.2.0")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("zrem", zremCommand, -3, CMD_WRITE | CMD_FAST, 1, 1, 1, "sorted-set", "Remove one or more members from a sorted set", "1.2.0")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("zscore", zscoreCommand, 3, CMD_READONLY | CMD_FAST, 1, 1, 1, "sorted-set", "Get the score associated with the given member in a sorted set", "1.2.0")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("zmscore", zmscoreCommand, -3, CMD_READONLY | CMD_FAST, 1, 1, 1, "sorted-set", "Get the score associated with the given members in a sorted set", "6.2.0")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("zcard", zcardCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1, "sorted-set", "Get the number of members in a sorted set", "1.2.0")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("zcount", zcountCommand, 4, CMD_READONLY | CMD_FAST, 1, 1, 1, "sorted-set", "Count the members in a sorted set with scores within the given values", "2.0.0")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("zrank", zrankCommand, 3, CMD_READONLY | CMD_FAST, 1, 1, 1, "sorted-set", "Determine the index of a member in a sorted set", "2.0.0")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("zrevrank", zrevrankCommand, 3, CMD_READONLY | CMD_FAST, 1, 1, 1, "sorted-set", "Determine the index of a member in a sorted set, with scores ordered from high to low", "2.0.0")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("zrange", zrangeCommand, -4, CMD_READONLY, 1, 1, 1, "sorted-set", "Return a range of members in a sorted set", "1.2.0")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("zrangebyscore", zrangebyscoreCommand, -4, CMD_READONLY, 1, 1, 1, "sorted-set", "Return a range of members in a sorted set, by score", "1.0.5")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("zrevrangebyscore", zrevrangebyscoreCommand, -4, CMD_READONLY, 1, 1, 1, "sorted-set", "Return a range of members in a sorted set, by score, with scores ordered from high to low", "2.2.0")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("zrangebylex", zrangebylexCommand, -4, CMD_READONLY, 1, 1, 1, "sorted-set", "Return a range of members in a sorted set, by lexicographical range", "2.8.9")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("zrevrangebylex", zrevrangebylexCommand, -4, CMD_READONLY, 1, 1, 1, "sorted-set", "Return a range of members in a sorted set, by lexicographical range, ordered from higher to lower strings.", "2.8.9")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("zrevrange", zrevrangeCommand, -4, CMD_READONLY, 1, 1, 1, "sorted-set", "Return a range of members in a sorted set, by index, with scores ordered from high to low", "1.2.0")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("zremrangebyscore", zremrangebyscoreCommand, 4, CMD_WRITE, 1, 1, 1, "sorted-set", "Remove all members in a sorted set within the given scores", "1.2.0")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("zremrangebyrank", zremrangebyrankCommand, 4, CMD_WRITE, 1, 1, 1, "sorted-set", "Remove all members in a sorted set within the given indexes", "2.0.0")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("zremrangebylex", zremrangebylexCommand, 4, CMD_WRITE, 1, 1, 1, "sorted-set", "Remove all members in a sorted set between the given lexicographical range", "2.8.9")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("zlexcount", zlexcountCommand, 4, CMD_READONLY | CMD_FAST, 1, 1, 1, "sorted-set", "Count the number of members in a sorted set between a given lexicographical range", "2.8.9")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("zpopmin", zpopminCommand, -2, CMD_WRITE | CMD_FAST, 1, 1, 1, "sorted-set", "Remove and return members with the lowest scores in a sorted set", "5.0.0")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("zpopmax", zpopmaxCommand, -2, CMD_WRITE | CMD_FAST, 1, 1, 1, "sorted-set", "Remove and return members with the highest scores in a sorted set", "5.0.0")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("zrangestore", zrangestoreCommand, -5, CMD_WRITE | CMD_DENYOOM, 1, 2, 1, "sorted-set", "Store a range of members from sorted set into another key", "6.2.0")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("zunionstore", zunionstoreCommand, -4, CMD_WRITE | CMD_DENYOOM | CMD_MOVABLE_KEYS, 1, 1, 1, "sorted-set", "Add multiple sorted sets and store the resulting sorted set in a new key", "2.0.0")
            .acl(ACL_CATEGORY_SORTEDSET).getkeys(zunionInterDiffStoreGetKeys),
        cmd("zinterstore", zinterstoreCommand, -4, CMD_WRITE | CMD_DENYOOM | CMD_MOVABLE_KEYS, 1, 1, 1, "sorted-set", "Intersect multiple sorted sets and store the resulting sorted set in a new key", "2.0.0")
            .acl(ACL_CATEGORY_SORTEDSET).getkeys(zunionInterDiffStoreGetKeys),
        cmd("zunion", zunionCommand, -3, CMD_READONLY | CMD_MOVABLE_KEYS, 0, 0, 0, "sorted-set", "Add multiple sorted sets", "6.2.0")
            .acl(ACL_CATEGORY_SORTEDSET).getkeys(zunionInterDiffGetKeys),
        cmd("zinter", zinterCommand, -3, CMD_READONLY | CMD_MOVABLE_KEYS, 0, 0, 0, "sorted-set", "Intersect multiple sorted sets", "6.2.0")
            .acl(ACL_CATEGORY_SORTEDSET).getkeys(zunionInterDiffGetKeys),
        cmd("zdiff", zdiffCommand, -3, CMD_READONLY | CMD_MOVABLE_KEYS, 0, 0, 0, "sorted-set", "Subtract multiple sorted sets", "6.2.0")
            .acl(ACL_CATEGORY_SORTEDSET).getkeys(zunionInterDiffGetKeys),
        cmd("zdiffstore", zdiffstoreCommand, -4, CMD_WRITE | CMD_DENYOOM | CMD_MOVABLE_KEYS, 1, 1, 1, "sorted-set", "Subtract multiple sorted sets and store the resulting sorted set in a new key", "6.2.0")
            .acl(ACL_CATEGORY_SORTEDSET).getkeys(zunionInterDiffStoreGetKeys),
        cmd("zintercard", zintercardCommand, -3, CMD_READONLY | CMD_MOVABLE_KEYS, 0, 0, 0, "sorted-set", "Intersect multiple sorted sets and return the cardinality of the result", "7.0.0")
            .acl(ACL_CATEGORY_SORTEDSET).getkeys(zunionInterDiffGetKeys),
        cmd("zrandmember", zrandmemberCommand, -2, CMD_READONLY, 1, 1, 1, "sorted-set", "Get one or multiple random elements from a sorted set", "6.2.0")
            .acl(ACL_CATEGORY_SORTEDSET).tips({"nondeterministic_output"}),
        cmd("zmpop", zmpopCommand, -4, CMD_WRITE | CMD_MOVABLE_KEYS, 0, 0, 0, "sorted-set", "Remove and return members with scores in a sorted set", "7.0.0")
            .acl(ACL_CATEGORY_SORTEDSET).getkeys(zmpopGetKeys),
        cmd("zscan", zscanCommand, -3, CMD_READONLY, 1, 1, 1, "sorted-set", "Incrementally iterate sorted sets elements and associated scores", "2.8.0")
            .acl(ACL_CATEGORY_SORTEDSET).tips({"nondeterministic_output"}),
        cmd("bzpopmin", bzpopminCommand, -3, CMD_WRITE | CMD_NOSCRIPT | CMD_BLOCKING | CMD_FAST, 1, -2, 1, "sorted-set", "Remove and return the member with the lowest score from one or more sorted sets, or block until one is available", "5.0.0")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("bzpopmax", bzpopmaxCommand, -3, CMD_WRITE | CMD_NOSCRIPT | CMD_BLOCKING | CMD_FAST, 1, -2, 1, "sorted-set", "Remove and return the member with the highest score from one or more sorted sets, or block until one is available", "5.0.0")
            .acl(ACL_CATEGORY_SORTEDSET),
        cmd("bzmpop", bzmpopCommand, -5, CMD_WRITE | CMD_BLOCKING | CMD_MOVABLE_KEYS, 0, 0, 0, "sorted-set", "Remove and return members with scores in a sorted set or block until one is available", "7.0.0")
            .acl(ACL_CATEGORY_SORTEDSET).getkeys(blmpopGetKeys),
        /* streams (t_stream.cpp; XREAD/XREADGROUP block through blocked.cpp) */
        cmd("xadd", xaddCommand, -5, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "stream", "Appends a new entry to a stream", "5.0.0")
            .acl(ACL_CATEGORY_STREAM).tips({"nondeterministic_output"}),
        cmd("xrange", xrangeCommand, -4, CMD_READONLY, 1, 1, 1, "stream", "Return a range of elements in a stream, with IDs matching the specified IDs interval", "5.0.0")
            .acl(ACL_CATEGORY_STREAM),
        cmd("xrevrange", xrevrangeCommand, -4, CMD_READONLY, 1, 1, 1, "stream", "Return a range of elements in a stream, with IDs matching the specified IDs interval, in reverse order (from greater to smaller IDs) compared to XRANGE", "5.0.0")
            .acl(ACL_CATEGORY_STREAM),
        cmd("xlen", xlenCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1, "stream", "Return the number of entries in a stream", "5.0.0")
            .acl(ACL_CATEGORY_STREAM),
        cmd("xdel", xdelCommand, -3, CMD_WRITE | CMD_FAST, 1, 1, 1, "stream", "Removes the specified entries from the stream. Returns the number of items actually deleted, that may be different from the number of IDs passed in case certain IDs do not exist.", "5.0.0")
            .acl(ACL_CATEGORY_STREAM),
        cmd("xtrim", xtrimCommand, -4, CMD_WRITE, 1, 1, 1, "stream", "Trims the stream to (approximately if '~' is passed) a certain size", "5.0.0")
            .acl(ACL_CATEGORY_STREAM).tips({"nondeterministic_output"}),
        cmd("xsetid", xsetidCommand, -3, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "stream", "An internal command for replicating stream values", "5.0.0")
            .acl(ACL_CATEGORY_STREAM),
        cmd("xread", xreadCommand, -4, CMD_READONLY | CMD_BLOCKING | CMD_MOVABLE_KEYS, 0, 0, 0, "stream", "Return never seen elements in multiple streams, with IDs greater than the ones reported by the caller for each stream. Can block.", "5.0.0")
            .acl(ACL_CATEGORY_STREAM).getkeys(xreadGetKeys),
        cmd("xreadgroup", xreadCommand, -7, CMD_WRITE | CMD_BLOCKING | CMD_MOVABLE_KEYS, 0, 0, 0, "stream", "Return new entries from a stream using a consumer group, or access the history of the pending entries for a given consumer. Can block.", "5.0.0")
            .acl(ACL_CATEGORY_STREAM).getkeys(xreadGetKeys),
        cmd("xack", xackCommand, -4, CMD_WRITE | CMD_FAST, 1, 1, 1, "stream", "Marks a pending message as correctly processed, effectively removing it from the pending entries list of the consumer group. Return value of the command is the number of messages successfully acknowledged, that is, the IDs we were actually able to resolve in the PEL.", "5.0.0")
            .acl(ACL_CATEGORY_STREAM),
        cmd("xpending", xpendingCommand, -3, CMD_READONLY, 1, 1, 1, "stream", "Return information and entries from a stream consumer group pending entries list, that are messages fetched but never acknowledged.", "5.0.0")
            .acl(ACL_CATEGORY_STREAM).tips({"nondeterministic_output"}),
        cmd("xclaim", xclaimCommand, -6, CMD_WRITE | CMD_FAST, 1, 1, 1, "stream", "Changes (or acquires) ownership of a message in a consumer group, as if the message was delivered to the specified consumer.", "5.0.0")
            .acl(ACL_CATEGORY_STREAM).tips({"nondeterministic_output"}),
        cmd("xautoclaim", xautoclaimCommand, -6, CMD_WRITE | CMD_FAST, 1, 1, 1, "stream", "Changes (or acquires) ownership of messages in a consumer group, as if the messages were delivered to the specified consumer.", "6.2.0")
            .acl(ACL_CATEGORY_STREAM).tips({"nondeterministic_output"}),
        cmd("xgroup", nullptr, -2, 0, 0, 0, 0, "stream", "A container for consumer groups commands", "5.0.0")
            .subcommands({
                cmd("create", xgroupCommand, -5, CMD_WRITE | CMD_DENYOOM, 2, 2, 1, "stream", "Create a consumer group.", "5.0.0").acl(ACL_CATEGORY_STREAM),
                cmd("setid", xgroupCommand, -5, CMD_WRITE, 2, 2, 1, "stream", "Set a consumer group to an arbitrary last delivered ID value.", "5.0.0").acl(ACL_CATEGORY_STREAM),
                cmd("destroy", xgroupCommand, 4, CMD_WRITE, 2, 2, 1, "stream", "Destroy a consumer group.", "5.0.0").acl(ACL_CATEGORY_STREAM),
                cmd("createconsumer", xgroupCommand, 5, CMD_WRITE | CMD_DENYOOM, 2, 2, 1, "stream", "Create a consumer in a consumer group.", "6.2.0").acl(ACL_CATEGORY_STREAM),
                cmd("delconsumer", xgroupCommand, 5, CMD_WRITE, 2, 2, 1, "stream", "Delete a consumer from a consumer group.", "5.0.0").acl(ACL_CATEGORY_STREAM),
                cmd("help", xgroupCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0, "stream", "Show helpful text about the different subcommands", "5.0.0").acl(ACL_CATEGORY_STREAM),
            }),
        cmd("xinfo", nullptr, -2, 0, 0, 0, 0, "stream", "A container for stream introspection commands", "5.0.0")
            .subcommands({
                cmd("stream", xinfoCommand, -3, CMD_READONLY, 2, 2, 1, "stream", "Get information about a stream", "5.0.0").acl(ACL_CATEGORY_STREAM),
                cmd("groups", xinfoCommand, 3, CMD_READONLY, 2, 2, 1, "stream", "List the consumer groups of a stream", "5.0.0").acl(ACL_CATEGORY_STREAM),
                cmd("consumers", xinfoCommand, 4, CMD_READONLY, 2, 2, 1, "stream", "List the consumers in a consumer group", "5.0.0").acl(ACL_CATEGORY_STREAM).tips({"nondeterministic_output"}),
                cmd("help", xinfoCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0, "stream", "Show helpful text about the different subcommands", "5.0.0").acl(ACL_CATEGORY_STREAM),
            }),
        /* keyspace (db.cpp) */
        cmd("del", delCommand, -2, CMD_WRITE, 1, -1, 1, "generic", "Delete a key", "1.0.0")
            .acl(ACL_CATEGORY_KEYSPACE).tips({"request_policy:multi_shard", "response_policy:agg_sum"}),
        cmd("unlink", unlinkCommand, -2, CMD_WRITE | CMD_FAST, 1, -1, 1, "generic", "Delete a key asynchronously in another thread. Otherwise it is just as DEL, but non blocking.", "4.0.0")
            .acl(ACL_CATEGORY_KEYSPACE).tips({"request_policy:multi_shard", "response_policy:agg_sum"}),
        cmd("exists", existsCommand, -2, CMD_READONLY | CMD_FAST, 1, -1, 1, "generic", "Determine if a key exists", "1.0.0")
            .acl(ACL_CATEGORY_KEYSPACE).tips({"request_policy:multi_shard", "response_policy:agg_sum"}),
        cmd("select", selectCommand, 2, CMD_LOADING | CMD_STALE | CMD_FAST, 0, 0, 0, "connection", "Change the selected database for the current connection", "1.0.0")
            .acl(ACL_CATEGORY_CONNECTION),
        cmd("dbsize", dbsizeCommand, 1, CMD_READONLY | CMD_FAST, 0, 0, 0, "server", "Return the number of keys in the selected database", "1.0.0")
            .acl(ACL_CATEGORY_KEYSPACE).tips({"request_policy:all_shards", "response_policy:agg_sum"}),
        cmd("flushdb", flushdbCommand, -1, CMD_WRITE, 0, 0, 0, "server", "Remove all keys from the current database", "1.0.0")
            .acl(ACL_CATEGORY_KEYSPACE | ACL_CATEGORY_DANGEROUS).tips({"request_policy:all_shards", "response_policy:all_succeeded"}),
        cmd("flushall", flushallCommand, -1, CMD_WRITE, 0, 0, 0, "server", "Remove all keys from all databases", "1.0.0")
            .acl(ACL_CATEGORY_KEYSPACE | ACL_CATEGORY_DANGEROUS).tips({"request_policy:all_shards", "response_policy:all_succeeded"}),
        cmd("type", typeCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1, "generic", "Determine the type stored at key", "1.0.0")
            .acl(ACL_CATEGORY_KEYSPACE),
        cmd("keys", keysCommand, 2, CMD_READONLY, 0, 0, 0, "generic", "Find all keys matching the given pattern", "1.0.0")
            .acl(ACL_CATEGORY_KEYSPACE | ACL_CATEGORY_DANGEROUS).tips({"request_policy:all_shards", "nondeterministic_output_order"}),
        cmd("scan", scanCommand, -2, CMD_READONLY, 0, 0, 0, "generic", "Incrementally iterate the keys space", "2.8.0")
            .acl(ACL_CATEGORY_KEYSPACE).tips({"nondeterministic_output", "request_policy:special"}),
        cmd("randomkey", randomkeyCommand, 1, CMD_READONLY, 0, 0, 0, "generic", "Return a random key from the keyspace", "1.0.0")
            .acl(ACL_CATEGORY_KEYSPACE).tips({"request_policy:all_shards", "nondeterministic_output"}),
        cmd("rename", renameCommand, 3, CMD_WRITE, 1, 2, 1, "generic", "Rename a key", "1.0.0")
            .acl(ACL_CATEGORY_KEYSPACE),
        cmd("renamenx", renamenxCommand, 3, CMD_WRITE | CMD_FAST, 1, 2, 1, "generic", "Rename a key, only if the new key does not exist", "1.0.0")
            .acl(ACL_CATEGORY_KEYSPACE),
        cmd("move", moveCommand, 3, CMD_WRITE | CMD_FAST, 1, 1, 1, "generic", "Move a key to another database", "1.0.0")
            .acl(ACL_CATEGORY_KEYSPACE),
        cmd("copy", copyCommand, -3, CMD_WRITE | CMD_DENYOOM, 1, 2, 1, "generic", "Copy a key", "6.2.0")
            .acl(ACL_CATEGORY_KEYSPACE),
        /* expiry (expire.cpp) */
        cmd("expire", expireCommand, -3, CMD_WRITE | CMD_FAST, 1, 1, 1, "generic", "Set a key's time to live in seconds", "1.0.0")
            .acl(ACL_CATEGORY_KEYSPACE),
        cmd("pexpire", pexpireCommand, -3, CMD_WRITE | CMD_FAST, 1, 1, 1, "generic", "Set a key's time to live in milliseconds", "2.6.0")
            .acl(ACL_CATEGORY_KEYSPACE),
        cmd("expireat", expireatCommand, -3, CMD_WRITE | CMD_FAST, 1, 1, 1, "generic", "Set the expiration for a key as a UNIX timestamp", "1.2.0")
            .acl(ACL_CATEGORY_KEYSPACE),
        cmd("pexpireat", pexpireatCommand, -3, CMD_WRITE | CMD_FAST, 1, 1, 1, "generic", "Set the expiration for a key as a UNIX timestamp specified in milliseconds", "2.6.0")
            .acl(ACL_CATEGORY_KEYSPACE),
        cmd("ttl", ttlCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1, "generic", "Get the time to live for a key in seconds", "1.0.0")
            .acl(ACL_CATEGORY_KEYSPACE).tips({"nondeterministic_output"}),
        cmd("pttl", pttlCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1, "generic", "Get the time to live for a key in milliseconds", "2.6.0")
            .acl(ACL_CATEGORY_KEYSPACE).tips({"nondeterministic_output"}),
        cmd("expiretime", expiretimeCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1, "generic", "Get the expiration Unix timestamp for a key", "7.0.0")
            .acl(ACL_CATEGORY_KEYSPACE),
        cmd("pexpiretime", pexpiretimeCommand, 2, CMD_READONLY | CMD_FAST, 1, 1, 1, "generic", "Get the expiration Unix timestamp for a key in milliseconds", "7.0.0")
            .acl(ACL_CATEGORY_KEYSPACE),
        cmd("persist", persistCommand, 2, CMD_WRITE | CMD_FAST, 1, 1, 1, "generic", "Remove the expiration from a key", "2.2.0")
            .acl(ACL_CATEGORY_KEYSPACE),
        /* transactions (multi.cpp) */
        cmd("multi", multiCommand, 1, CMD_NOSCRIPT | CMD_LOADING | CMD_STALE | CMD_FAST | CMD_ALLOW_BUSY, 0, 0, 0, "transactions", "Mark the start of a transaction block", "1.2.0")
            .acl(ACL_CATEGORY_TRANSACTION),
        cmd("exec", execCommand, 1, CMD_NOSCRIPT | CMD_LOADING | CMD_STALE | CMD_SKIP_SLOWLOG, 0, 0, 0, "transactions", "Execute all commands issued after MULTI", "1.2.0")
            .acl(ACL_CATEGORY_TRANSACTION),
        cmd("discard", discardCommand, 1, CMD_NOSCRIPT | CMD_LOADING | CMD_STALE | CMD_FAST | CMD_ALLOW_BUSY, 0, 0, 0, "transactions", "Discard all commands issued after MULTI", "2.0.0")
            .acl(ACL_CATEGORY_TRANSACTION),
        cmd("watch", watchCommand, -2, CMD_NOSCRIPT | CMD_LOADING | CMD_STALE | CMD_FAST | CMD_ALLOW_BUSY, 1, -1, 1, "transactions", "Watch the given keys to determine execution of the MULTI/EXEC block", "2.2.0")
            .acl(ACL_CATEGORY_TRANSACTION),
        cmd("unwatch", unwatchCommand, 1, CMD_NOSCRIPT | CMD_LOADING | CMD_STALE | CMD_FAST | CMD_ALLOW_BUSY, 0, 0, 0, "transactions", "Forget about all watched keys", "2.2.0")
            .acl(ACL_CATEGORY_TRANSACTION),
        cmd("object", nullptr, -2, 0, 0, 0, 0, "generic", "A container for object introspection commands", "2.2.3")
            .subcommands({
                cmd("encoding", objectCommand, 3, CMD_READONLY, 2, 2, 1, "generic", "Inspect the internal encoding of a Redis object", "2.2.3")
                    .acl(ACL_CATEGORY_KEYSPACE).tips({"nondeterministic_output"}),
                cmd("refcount", objectCommand, 3, CMD_READONLY, 2, 2, 1, "generic", "Get the number of references to the value of the key", "2.2.3")
                    .acl(ACL_CATEGORY_KEYSPACE).tips({"nondeterministic_output"}),
                cmd("idletime", objectCommand, 3, CMD_READONLY, 2, 2, 1, "generic", "Get the time since a Redis object was last accessed", "2.2.3")
                    .acl(ACL_CATEGORY_KEYSPACE).tips({"nondeterministic_output"}),
                cmd("freq", objectCommand, 3, CMD_READONLY, 2, 2, 1, "generic", "Get the logarithmic access frequency counter of a Redis object", "4.0.0")
                    .acl(ACL_CATEGORY_KEYSPACE).tips({"nondeterministic_output"}),
                cmd("help", objectCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0, "generic", "Show helpful text about the different subcommands", "6.2.0")
                    .acl(ACL_CATEGORY_KEYSPACE),
            }),
        cmd("memory", nullptr, -2, 0, 0, 0, 0, "server", "A container for memory diagnostics commands", "4.0.0")
            .subcommands({
                cmd("usage", memoryCommand, -3, CMD_READONLY, 2, 2, 1, "server", "Estimate the memory usage of a key", "4.0.0"),
                cmd("help", memoryCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Show helpful text about the different subcommands", "4.0.0"),
            }),
        /* persistence (rdb.cpp, aof.cpp) */
        cmd("save", saveCommand, 1, CMD_ADMIN | CMD_NOSCRIPT | CMD_NO_ASYNC_LOADING | CMD_NO_MULTI, 0, 0, 0, "server", "Synchronously save the dataset to disk", "1.0.0"),
        cmd("bgsave", bgsaveCommand, -1, CMD_ADMIN | CMD_NOSCRIPT | CMD_NO_ASYNC_LOADING, 0, 0, 0, "server", "Asynchronously save the dataset to disk", "1.0.0"),
        cmd("lastsave", lastsaveCommand, 1, CMD_LOADING | CMD_STALE | CMD_FAST, 0, 0, 0, "server", "Get the UNIX time stamp of the last successful save to disk", "1.0.0")
            .acl(ACL_CATEGORY_ADMIN | ACL_CATEGORY_DANGEROUS).tips({"nondeterministic_output"}),
        cmd("bgrewriteaof", bgrewriteaofCommand, 1, CMD_ADMIN | CMD_NOSCRIPT | CMD_NO_ASYNC_LOADING, 0, 0, 0, "server", "Asynchronously rewrite the append-only file", "1.0.0"),
        /* scripting (scripting.cpp) */
        cmd("eval", evalCommand, -3, CMD_NOSCRIPT | CMD_STALE | CMD_SKIP_MONITOR | CMD_MAY_REPLICATE | CMD_NO_MANDATORY_KEYS | CMD_MOVABLE_KEYS, 0, 0, 0, "scripting", "Execute a Lua script server side", "2.6.0")
            .acl(ACL_CATEGORY_SCRIPTING).getkeys(evalGetKeys),
        cmd("evalsha", evalShaCommand, -3, CMD_NOSCRIPT | CMD_STALE | CMD_SKIP_MONITOR | CMD_MAY_REPLICATE | CMD_NO_MANDATORY_KEYS | CMD_MOVABLE_KEYS, 0, 0, 0, "scripting", "Execute a Lua script server side", "2.6.0")
            .acl(ACL_CATEGORY_SCRIPTING).getkeys(evalGetKeys),
        cmd("eval_ro", evalRoCommand, -3, CMD_READONLY | CMD_NOSCRIPT | CMD_STALE | CMD_SKIP_MONITOR | CMD_NO_MANDATORY_KEYS | CMD_MOVABLE_KEYS, 0, 0, 0, "scripting", "Execute a read-only Lua script server side", "7.0.0")
            .acl(ACL_CATEGORY_SCRIPTING).getkeys(evalGetKeys),
        cmd("evalsha_ro", evalShaRoCommand, -3, CMD_READONLY | CMD_NOSCRIPT | CMD_STALE | CMD_SKIP_MONITOR | CMD_NO_MANDATORY_KEYS | CMD_MOVABLE_KEYS, 0, 0, 0, "scripting", "Execute a read-only Lua script server side", "7.0.0")
            .acl(ACL_CATEGORY_SCRIPTING).getkeys(evalGetKeys),
        cmd("script", nullptr, -2, 0, 0, 0, 0, "scripting", "A container for Lua scripts management commands", "2.6.0")
            .subcommands({
                cmd("load", scriptLoadCommand, 3, CMD_NOSCRIPT | CMD_STALE, 0, 0, 0, "scripting", "Load the specified Lua script into the script cache.", "2.6.0")
                    .acl(ACL_CATEGORY_SCRIPTING).tips({"request_policy:all_nodes", "response_policy:all_succeeded"}),
                cmd("exists", scriptExistsCommand, -3, CMD_NOSCRIPT, 0, 0, 0, "scripting", "Check existence of scripts in the script cache.", "2.6.0")
                    .acl(ACL_CATEGORY_SCRIPTING).tips({"request_policy:all_shards", "response_policy:agg_logical_and"}),
                cmd("flush", scriptFlushCommand, -2, CMD_NOSCRIPT, 0, 0, 0, "scripting", "Remove all the scripts from the script cache.", "2.6.0")
                    .acl(ACL_CATEGORY_SCRIPTING).tips({"request_policy:all_nodes", "response_policy:all_succeeded"}),
                cmd("kill", scriptKillCommand, 2, CMD_NOSCRIPT | CMD_ALLOW_BUSY, 0, 0, 0, "scripting", "Kill the script currently in execution.", "2.6.0")
                    .acl(ACL_CATEGORY_SCRIPTING).tips({"request_policy:all_shards", "response_policy:one_succeeded"}),
                cmd("help", scriptHelpCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0, "scripting", "Show helpful text about the different subcommands", "5.0.0")
                    .acl(ACL_CATEGORY_SCRIPTING),
            }),
        /* pub/sub (pubsub.cpp) */
        cmd("subscribe", subscribeCommand, -2, CMD_PUBSUB | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE, 0, 0, 0, "pubsub", "Listen for messages published to the given channels", "2.0.0"),
        cmd("unsubscribe", unsubscribeCommand, -1, CMD_PUBSUB | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE, 0, 0, 0, "pubsub", "Stop listening for messages posted to the given channels", "2.0.0"),
        cmd("psubscribe", psubscribeCommand, -2, CMD_PUBSUB | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE, 0, 0, 0, "pubsub", "Listen for messages published to channels matching the given patterns", "2.0.0"),
        cmd("punsubscribe", punsubscribeCommand, -1, CMD_PUBSUB | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE, 0, 0, 0, "pubsub", "Stop listening for messages posted to channels matching the given patterns", "2.0.0"),
        cmd("publish", publishCommand, 3, CMD_PUBSUB | CMD_LOADING | CMD_STALE | CMD_FAST | CMD_MAY_REPLICATE, 0, 0, 0, "pubsub", "Post a message to a channel", "2.0.0"),
        cmd("pubsub", nullptr, -2, 0, 0, 0, 0, "pubsub", "A container for Pub/Sub commands", "2.8.0")
            .subcommands({
                cmd("channels", pubsubChannelsCommand, -2, CMD_PUBSUB | CMD_LOADING | CMD_STALE, 0, 0, 0, "pubsub", "List active channels", "2.8.0"),
                cmd("numsub", pubsubNumsubCommand, -2, CMD_PUBSUB | CMD_LOADING | CMD_STALE, 0, 0, 0, "pubsub", "Get the count of subscribers for channels", "2.8.0"),
                cmd("numpat", pubsubNumpatCommand, 2, CMD_PUBSUB | CMD_LOADING | CMD_STALE, 0, 0, 0, "pubsub", "Get the count of unique patterns pattern subscriptions", "2.8.0"),
                cmd("help", pubsubHelpCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0, "pubsub", "Show helpful text about the different subcommands", "6.2.0"),
            }),
        /* server */
        cmd("info", infoCommand, -1, CMD_LOADING | CMD_STALE | CMD_SENTINEL, 0, 0, 0, "server",
            "Get information and statistics about the server", "1.0.0")
            .acl(ACL_CATEGORY_DANGEROUS)
            .tips({"nondeterministic_output", "request_policy:all_shards", "response_policy:special"}),
        cmd("time", timeCommand, 1, CMD_LOADING | CMD_STALE | CMD_FAST, 0, 0, 0, "server",
            "Return the current server time", "2.6.0").tips({"nondeterministic_output"}),
        cmd("shutdown", shutdownCommand, -1, ADMIN | CMD_NO_MULTI | CMD_SENTINEL | CMD_ALLOW_BUSY, 0, 0, 0, "server",
            "Synchronously save the dataset to disk and then shut down the server", "1.0.0"),
        cmd("debug", debugCommand, -2, ADMIN | CMD_PROTECTED, 0, 0, 0, "server", "A container for debugging commands", "1.0.0"),
        /* Replication (replication.h) */
        cmd("sync", syncCommand, 1, CMD_ADMIN | CMD_NOSCRIPT | CMD_NO_ASYNC_LOADING | CMD_NO_MULTI, 0, 0, 0, "server", "Internal command used for replication", "1.0.0"),
        cmd("psync", syncCommand, -3, CMD_ADMIN | CMD_NOSCRIPT | CMD_NO_ASYNC_LOADING | CMD_NO_MULTI, 0, 0, 0, "server", "Internal command used for replication", "2.8.0"),
        cmd("replconf", replconfCommand, -1, CMD_ADMIN | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE | CMD_ALLOW_BUSY, 0, 0, 0, "server", "An internal command for configuring the replication stream", "3.0.0"),
        cmd("replicaof", replicaofCommand, 3, CMD_ADMIN | CMD_NOSCRIPT | CMD_STALE | CMD_NO_ASYNC_LOADING, 0, 0, 0, "server", "Make the server a replica of another instance, or promote it as master.", "5.0.0"),
        cmd("slaveof", replicaofCommand, 3, CMD_ADMIN | CMD_NOSCRIPT | CMD_STALE | CMD_NO_ASYNC_LOADING, 0, 0, 0, "server", "Make the server a replica of another instance, or promote it as master.", "1.0.0"),
        cmd("wait", waitCommand, 3, CMD_NOSCRIPT, 0, 0, 0, "generic", "Wait for the synchronous replication of all the write commands sent in the context of the current connection", "3.0.0").acl(ACL_CATEGORY_CONNECTION).tips({"request_policy:all_shards", "response_policy:agg_min"}),
        cmd("role", roleCommand, 1, CMD_NOSCRIPT | CMD_LOADING | CMD_STALE | CMD_FAST, 0, 0, 0, "server", "Return the role of the instance in the context of replication", "2.8.12").acl(ACL_CATEGORY_ADMIN | ACL_CATEGORY_DANGEROUS),
        /* cppredis's own: the trace file (tracing.h); "since" is cppredis's version */
        cmd("trace", nullptr, -2, 0, 0, 0, 0, "server", "A container for the trace of the server at work", "0.1.0")
            .subcommands({
                cmd("start", traceStartCommand, -3, ADMIN, 0, 0, 0, "server", "Start writing the trace to a file in Chrome's Trace Event Format", "0.1.0"),
                cmd("stop", traceStopCommand, 2, ADMIN, 0, 0, 0, "server", "Complete and close the trace file", "0.1.0"),
                cmd("status", traceStatusCommand, 2, ADMIN, 0, 0, 0, "server", "Show the live trace's categories and the trace file's state", "0.1.0"),
                cmd("help", traceHelpCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Show helpful text about the different subcommands", "0.1.0"),
            }),
        cmd("command", commandCommand, -1, CMD_LOADING | CMD_STALE | CMD_SENTINEL, 0, 0, 0, "server",
            "Get array of Redis command details", "2.8.13")
            .acl(CONNECTION).tips({"nondeterministic_output_order"})
            .subcommands({
                cmd("count", commandCountCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Get total number of Redis commands", "2.8.13").acl(CONNECTION),
                cmd("info", commandInfoCommand, -2, CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Get array of specific Redis command details, or all when no argument is given.", "2.8.13")
                    .acl(CONNECTION).tips({"nondeterministic_output_order"}),
                cmd("docs", commandDocsCommand, -2, CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Get array of specific Redis command documentation", "7.0.0")
                    .acl(CONNECTION).tips({"nondeterministic_output_order"}),
                cmd("list", commandListCommand, -2, CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Get an array of Redis command names", "7.0.0")
                    .acl(CONNECTION).tips({"nondeterministic_output_order"}),
                cmd("getkeys", commandGetKeysCommand, -4, CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Extract keys given a full Redis command", "2.8.13").acl(CONNECTION),
                cmd("getkeysandflags", commandGetKeysAndFlagsCommand, -4, CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Extract keys and access flags given a full Redis command", "7.0.0").acl(CONNECTION),
                cmd("help", commandHelpCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Show helpful text about the different subcommands", "5.0.0").acl(CONNECTION),
            }),
        cmd("acl", nullptr, -2, 0, 0, 0, 0, "server", "A container for Access List Control commands", "6.0.0")
            .subcommands({
                cmd("cat", aclCommand, -2, CONN, 0, 0, 0, "server", "List the ACL categories or the commands inside a category", "6.0.0"),
                cmd("deluser", aclCommand, -3, ADMIN, 0, 0, 0, "server", "Remove the specified ACL users and the associated rules", "6.0.0"),
                cmd("dryrun", aclCommand, -4, ADMIN, 0, 0, 0, "server", "Returns whether the user can execute the given command without executing the command.", "7.0.0"),
                cmd("genpass", aclCommand, -2, CONN, 0, 0, 0, "server", "Generate a pseudorandom secure password to use for ACL users", "6.0.0"),
                cmd("getuser", aclCommand, 3, ADMIN, 0, 0, 0, "server", "Get the rules for a specific ACL user", "6.0.0"),
                cmd("help", aclCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Show helpful text about the different subcommands", "6.0.0"),
                cmd("list", aclCommand, 2, ADMIN, 0, 0, 0, "server", "List the current ACL rules in ACL config file format", "6.0.0"),
                cmd("load", aclCommand, 2, ADMIN, 0, 0, 0, "server", "Reload the ACLs from the configured ACL file", "6.0.0"),
                cmd("log", aclCommand, -2, ADMIN, 0, 0, 0, "server", "List latest events denied because of ACLs in place", "6.0.0"),
                cmd("save", aclCommand, 2, ADMIN, 0, 0, 0, "server", "Save the current ACL rules in the configured ACL file", "6.0.0"),
                cmd("setuser", aclCommand, -3, ADMIN, 0, 0, 0, "server", "Modify or create the rules for a specific ACL user", "6.0.0"),
                cmd("users", aclCommand, 2, ADMIN, 0, 0, 0, "server", "List the username of all the configured ACL rules", "6.0.0"),
                cmd("whoami", aclCommand, 2, CONN, 0, 0, 0, "server", "Return the name of the user associated to the current connection", "6.0.0"),
            }),
        cmd("config", nullptr, -2, 0, 0, 0, 0, "server", "A container for server configuration commands", "2.0.0")
            .subcommands({
                cmd("get", configGetCommand, -3, ADMIN, 0, 0, 0, "server", "Get the values of configuration parameters", "2.0.0"),
                cmd("set", configSetCommand, -4, ADMIN, 0, 0, 0, "server", "Set configuration parameters to the given values", "2.0.0")
                    .tips({"request_policy:all_nodes", "response_policy:all_succeeded"}),
                cmd("resetstat", configResetStatCommand, 2, ADMIN, 0, 0, 0, "server", "Reset the stats returned by INFO", "2.0.0"),
                cmd("rewrite", configRewriteCommand, 2, CMD_ADMIN | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Rewrite the configuration file with the in memory configuration", "2.8.0"),
                cmd("help", configHelpCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Show helpful text about the different subcommands", "5.0.0"),
            }),
        /* issue 19: bitmaps, LCS, SORT, HyperLogLog, geo, keyspace odds, functions */
        cmd("setbit", setbitCommand, 4, CMD_WRITE | CMD_DENYOOM, 1, 1, 1, "bitmap", "Sets or clears the bit at offset in the string value stored at key", "2.2.0").acl(ACL_CATEGORY_BITMAP),
        cmd("getbit", getbitCommand, 3, CMD_READONLY | CMD_FAST, 1, 1, 1, "bitmap", "Returns the bit value at offset in the string value stored at key", "2.2.0").acl(ACL_CATEGORY_BITMAP),
        cmd("bitcount", bitcountCommand, -2, CMD_READONLY, 1, 1, 1, "bitmap", "Count set bits in a string", "2.6.0").acl(ACL_CATEGORY_BITMAP),
        cmd("bitpos", bitposCommand, -3, CMD_READONLY, 1, 1, 1, "bitmap", "Find first bit set or clear in a string", "2.8.7").acl(ACL_CATEGORY_BITMAP),
        cmd("bitop", bitopCommand, -4, CMD_WRITE | CMD_DENYOOM, 2, -1, 1, "bitmap", "Perform bitwise operations between strings", "2.6.0").acl(ACL_CATEGORY_BITMAP),
        cmd("bitfield", bitfieldCommand, -2, CMD_WRITE | CMD_DENYOOM, 1, 1, 1, "bitmap", "Perform arbitrary bitfield integer operations on strings", "3.2.0").acl(ACL_CATEGORY_BITMAP).getkeys(bitfieldGetKeys),
        cmd("bitfield_ro", bitfieldroCommand, -2, CMD_READONLY | CMD_FAST, 1, 1, 1, "bitmap", "Perform arbitrary bitfield integer operations on strings. Read-only variant of BITFIELD", "6.0.0").acl(ACL_CATEGORY_BITMAP),
        cmd("lcs", lcsCommand, -3, CMD_READONLY, 1, 2, 1, "string", "Find longest common substring", "7.0.0").acl(ACL_CATEGORY_STRING),
        cmd("substr", getrangeCommand, 4, CMD_READONLY, 1, 1, 1, "string", "Get a substring of the string stored at a key", "1.0.0").acl(ACL_CATEGORY_STRING),
        cmd("sort", sortCommand, -2, CMD_WRITE | CMD_DENYOOM | CMD_MOVABLE_KEYS, 1, 1, 1, "generic", "Sort the elements in a list, set or sorted set", "1.0.0").acl(ACL_CATEGORY_SET | ACL_CATEGORY_SORTEDSET | ACL_CATEGORY_LIST | ACL_CATEGORY_DANGEROUS).getkeys(sortGetKeys),
        cmd("sort_ro", sortroCommand, -2, CMD_READONLY | CMD_MOVABLE_KEYS, 1, 1, 1, "generic", "Sort the elements in a list, set or sorted set. Read-only variant of SORT.", "7.0.0").acl(ACL_CATEGORY_SET | ACL_CATEGORY_SORTEDSET | ACL_CATEGORY_LIST | ACL_CATEGORY_DANGEROUS).getkeys(sortROGetKeys),
        cmd("pfadd", pfaddCommand, -2, CMD_WRITE | CMD_DENYOOM | CMD_FAST, 1, 1, 1, "hyperloglog", "Adds the specified elements to the specified HyperLogLog.", "2.8.9").acl(ACL_CATEGORY_HYPERLOGLOG),
        cmd("pfcount", pfcountCommand, -2, CMD_READONLY | CMD_MAY_REPLICATE, 1, -1, 1, "hyperloglog", "Return the approximated cardinality of the set(s) observed by the HyperLogLog at key(s).", "2.8.9").acl(ACL_CATEGORY_HYPERLOGLOG),
        cmd("pfmerge", pfmergeCommand, -2, CMD_WRITE | CMD_DENYOOM, 1, -1, 1, "hyperloglog", "Merge N different HyperLogLogs into a single one.", "2.8.9").acl(ACL_CATEGORY_HYPERLOGLOG),
        cmd("pfdebug", pfdebugCommand, 3, CMD_WRITE | CMD_DENYOOM | CMD_ADMIN, 2, 2, 1, "hyperloglog", "Internal commands for debugging HyperLogLog values", "2.8.9").acl(ACL_CATEGORY_HYPERLOGLOG),
        cmd("pfselftest", pfselftestCommand, 1, CMD_ADMIN, 0, 0, 0, "hyperloglog", "An internal command for testing HyperLogLog values", "2.8.9").acl(ACL_CATEGORY_HYPERLOGLOG),
        cmd("geoadd", geoaddCommand, -5, CMD_WRITE | CMD_DENYOOM, 1, 1, 1, "geo", "Add one or more geospatial items in the geospatial index represented using a sorted set", "3.2.0").acl(ACL_CATEGORY_GEO),
        cmd("geopos", geoposCommand, -2, CMD_READONLY, 1, 1, 1, "geo", "Returns longitude and latitude of members of a geospatial index", "3.2.0").acl(ACL_CATEGORY_GEO),
        cmd("geodist", geodistCommand, -4, CMD_READONLY, 1, 1, 1, "geo", "Returns the distance between two members of a geospatial index", "3.2.0").acl(ACL_CATEGORY_GEO),
        cmd("geohash", geohashCommand, -2, CMD_READONLY, 1, 1, 1, "geo", "Returns members of a geospatial index as standard geohash strings", "3.2.0").acl(ACL_CATEGORY_GEO),
        cmd("geosearch", geosearchCommand, -7, CMD_READONLY, 1, 1, 1, "geo", "Query a sorted set representing a geospatial index to fetch members inside an area of a box or a circle.", "6.2.0").acl(ACL_CATEGORY_GEO),
        cmd("geosearchstore", geosearchstoreCommand, -8, CMD_WRITE | CMD_DENYOOM, 1, 2, 1, "geo", "Query a sorted set representing a geospatial index to fetch members inside an area of a box or a circle, and store the result in another key.", "6.2.0").acl(ACL_CATEGORY_GEO),
        cmd("georadius", georadiusCommand, -6, CMD_WRITE | CMD_DENYOOM | CMD_MOVABLE_KEYS, 1, 1, 1, "geo", "Query a sorted set representing a geospatial index to fetch members matching a given maximum distance from a point", "3.2.0").acl(ACL_CATEGORY_GEO).getkeys(georadiusGetKeys),
        cmd("georadius_ro", georadiusroCommand, -6, CMD_READONLY, 1, 1, 1, "geo", "A read-only variant for GEORADIUS", "3.2.10").acl(ACL_CATEGORY_GEO),
        cmd("georadiusbymember", georadiusbymemberCommand, -5, CMD_WRITE | CMD_DENYOOM | CMD_MOVABLE_KEYS, 1, 1, 1, "geo", "Query a sorted set representing a geospatial index to fetch members matching a given maximum distance from a member", "3.2.0").acl(ACL_CATEGORY_GEO).getkeys(georadiusGetKeys),
        cmd("georadiusbymember_ro", georadiusbymemberroCommand, -5, CMD_READONLY, 1, 1, 1, "geo", "A read-only variant for GEORADIUSBYMEMBER", "3.2.10").acl(ACL_CATEGORY_GEO),
        cmd("swapdb", swapdbCommand, 3, CMD_WRITE | CMD_FAST, 0, 0, 0, "server", "Swaps two Redis databases", "4.0.0").acl(ACL_CATEGORY_KEYSPACE | ACL_CATEGORY_DANGEROUS),
        cmd("touch", touchCommand, -2, CMD_READONLY | CMD_FAST, 1, -1, 1, "generic", "Alters the last access time of a key(s). Returns the number of existing keys specified.", "3.2.1").acl(ACL_CATEGORY_KEYSPACE).tips({"request_policy:multi_shard", "response_policy:agg_sum"}),
        cmd("dump", dumpCommand, 2, CMD_READONLY, 1, 1, 1, "generic", "Return a serialized version of the value stored at the specified key.", "2.6.0").acl(ACL_CATEGORY_KEYSPACE).tips({"nondeterministic_output"}),
        cmd("restore", restoreCommand, -4, CMD_WRITE | CMD_DENYOOM, 1, 1, 1, "generic", "Create a key using the provided serialized value, previously obtained using DUMP.", "2.6.0").acl(ACL_CATEGORY_KEYSPACE | ACL_CATEGORY_DANGEROUS),
        cmd("migrate", migrateCommand, -6, CMD_WRITE | CMD_MOVABLE_KEYS, 3, 3, 1, "generic", "Atomically transfer a key from a Redis instance to another one.", "2.6.0").acl(ACL_CATEGORY_KEYSPACE | ACL_CATEGORY_DANGEROUS).tips({"nondeterministic_output"}).getkeys(migrateGetKeys),
        cmd("fcall", fcallCommand, -3, CMD_NOSCRIPT | CMD_STALE | CMD_SKIP_MONITOR | CMD_MAY_REPLICATE | CMD_NO_MANDATORY_KEYS | CMD_MOVABLE_KEYS, 0, 0, 0, "scripting", "Invoke a function", "7.0.0").acl(ACL_CATEGORY_SCRIPTING).getkeys(functionGetKeys),
        cmd("fcall_ro", fcallroCommand, -3, CMD_READONLY | CMD_NOSCRIPT | CMD_STALE | CMD_SKIP_MONITOR | CMD_NO_MANDATORY_KEYS | CMD_MOVABLE_KEYS, 0, 0, 0, "scripting", "Invoke a read-only function", "7.0.0").acl(ACL_CATEGORY_SCRIPTING).getkeys(functionGetKeys),
        cmd("function", nullptr, -2, 0, 0, 0, 0, "scripting", "A container for function commands", "7.0.0")
            .subcommands({
                cmd("load", functionLoadCommand, -3, CMD_WRITE | CMD_DENYOOM | CMD_NOSCRIPT, 0, 0, 0, "scripting", "Create a function with the given arguments (name, code, description)", "7.0.0").acl(ACL_CATEGORY_SCRIPTING).tips({"request_policy:all_shards", "response_policy:all_succeeded"}),
                cmd("delete", functionDeleteCommand, 3, CMD_WRITE | CMD_NOSCRIPT, 0, 0, 0, "scripting", "Delete a function by name", "7.0.0").acl(ACL_CATEGORY_SCRIPTING).tips({"request_policy:all_shards", "response_policy:all_succeeded"}),
                cmd("flush", functionFlushCommand, -2, CMD_WRITE | CMD_NOSCRIPT, 0, 0, 0, "scripting", "Deleting all functions", "7.0.0").acl(ACL_CATEGORY_SCRIPTING).tips({"request_policy:all_shards", "response_policy:all_succeeded"}),
                cmd("dump", functionDumpCommand, 2, CMD_NOSCRIPT, 0, 0, 0, "scripting", "Dump all functions into a serialized binary payload", "7.0.0").acl(ACL_CATEGORY_SCRIPTING),
                cmd("restore", functionRestoreCommand, -3, CMD_WRITE | CMD_DENYOOM | CMD_NOSCRIPT, 0, 0, 0, "scripting", "Restore all the functions on the given payload", "7.0.0").acl(ACL_CATEGORY_SCRIPTING).tips({"request_policy:all_shards", "response_policy:all_succeeded"}),
                cmd("list", functionListCommand, -2, CMD_NOSCRIPT, 0, 0, 0, "scripting", "List information about all the functions", "7.0.0").acl(ACL_CATEGORY_SCRIPTING).tips({"nondeterministic_output_order"}),
                cmd("stats", functionStatsCommand, 2, CMD_NOSCRIPT | CMD_ALLOW_BUSY, 0, 0, 0, "scripting", "Return information about the function currently running (name, description, duration)", "7.0.0").acl(ACL_CATEGORY_SCRIPTING).tips({"nondeterministic_output", "request_policy:all_shards", "response_policy:special"}),
                cmd("kill", functionKillCommand, 2, CMD_NOSCRIPT | CMD_ALLOW_BUSY, 0, 0, 0, "scripting", "Kill the function currently in execution.", "7.0.0").acl(ACL_CATEGORY_SCRIPTING).tips({"request_policy:all_shards", "response_policy:one_succeeded"}),
                cmd("help", functionHelpCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0, "scripting", "Show helpful text about the different subcommands", "7.0.0").acl(ACL_CATEGORY_SCRIPTING),
            }),
    };
    std::vector<redisCommand> table;
    for (const Cmd &row : rows) table.push_back(row.c);
    return table;
}

}  // namespace

/* Built on first use (no static-initialization-order dependency on
 * `server`); populateCommandTable() indexes it. */
static std::vector<redisCommand> &redisCommandTable() {
    static std::vector<redisCommand> table = buildCommandTable();
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
void populateCommandTable() {
    server.command_table = &redisCommandTable();
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
    addReplyArrayLen(c, n);
    for (auto &[flag, name] : kCommandFlagNames)
        if (cmd->flags & flag) addReplyStatus(c, name);
}

static void addReplyCommandCategories(client *c, const redisCommand *cmd) {
    addReplyArrayLen(c, std::popcount(cmd->acl_categories));
    for (size_t i = 0; i < std::size(ACL_CATEGORY_NAMES); i++)
        if (cmd->acl_categories & (1ULL << i)) addReplyStatus(c, std::string("@") + ACL_CATEGORY_NAMES[i]);
}

static void addReplyCommandTips(client *c, const redisCommand *cmd) {
    addReplyArrayLen(c, static_cast<long long>(cmd->tips.size()));
    for (const char *tip : cmd->tips) addReplyBulk(c, tip);
}

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
    addReply(c, commandKeySpecs(cmd->fullname));
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
        addReply(c, docs->resp);
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
    addReplyArrayLen(c, std::popcount(static_cast<unsigned>(flags)));
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

