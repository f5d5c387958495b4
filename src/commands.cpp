/* commands.cpp — the command table (Redis 7 generates it as commands.def).
 *
 * Each row: name, implementation, arity (negative = at least -arity
 * arguments, the name included), flags, first/last key position and step
 * (0 when the command takes no key), then the group, summary and version
 * shown by COMMAND DOCS. A container command (CONFIG, CLIENT...) lists its
 * subcommands; processCommand dispatches on the second word.
 * Adding a command is adding a row here and its implementation.
 */
#include "server.h"

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
                cmd("setname", clientSetNameCommand, 3, CONN, 0, 0, 0, "connection", "Set the current connection name", "2.6.9").acl(CONNECTION),
                cmd("getname", clientGetNameCommand, 2, CONN, 0, 0, 0, "connection", "Get the current connection name", "2.6.9").acl(CONNECTION),
                cmd("help", clientHelpCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0, "connection", "Show helpful text about the different subcommands", "5.0.0").acl(CONNECTION),
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
                cmd("help", commandHelpCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Show helpful text about the different subcommands", "5.0.0").acl(CONNECTION),
            }),
        cmd("config", nullptr, -2, 0, 0, 0, 0, "server", "A container for server configuration commands", "2.0.0")
            .subcommands({
                cmd("get", configGetCommand, -3, ADMIN, 0, 0, 0, "server", "Get the values of configuration parameters", "2.0.0"),
                cmd("set", configSetCommand, -4, ADMIN, 0, 0, 0, "server", "Set configuration parameters to the given values", "2.0.0")
                    .tips({"request_policy:all_nodes", "response_policy:all_succeeded"}),
                cmd("resetstat", configResetStatCommand, 2, ADMIN, 0, 0, 0, "server", "Reset the stats returned by INFO", "2.0.0"),
                cmd("help", configHelpCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Show helpful text about the different subcommands", "5.0.0"),
            }),
    };
    std::vector<redisCommand> table;
    for (const Cmd &row : rows) table.push_back(row.c);
    return table;
}

}  // namespace

/* Built on first use (no static-initialization-order dependency on
 * `server`); populateCommandTable() indexes it. */
std::vector<redisCommand> &redisCommandTable() {
    static std::vector<redisCommand> table = buildCommandTable();
    return table;
}
