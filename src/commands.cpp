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

constexpr uint64_t CONN = CMD_NOSCRIPT | CMD_LOADING | CMD_STALE | CMD_FAST;

redisCommand cmd(const char *name, redisCommandProc proc, int arity, uint64_t flags, int first, int last,
                 int step, const char *group, const char *summary, const char *since,
                 std::vector<redisCommand> subs = {}) {
    redisCommand c{};
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
    c.subcommands = std::move(subs);
    return c;
}

std::vector<redisCommand> buildCommandTable() {
    return {
        /* connection */
        cmd("ping", pingCommand, -1, CMD_FAST | CMD_SENTINEL, 0, 0, 0, "connection", "Ping the server", "1.0.0"),
        cmd("echo", echoCommand, 2, CMD_FAST | CMD_LOADING | CMD_STALE, 0, 0, 0, "connection",
            "Echo the given string", "1.0.0"),
        cmd("quit", quitCommand, -1, CONN | CMD_NO_AUTH | CMD_ALLOW_BUSY, 0, 0, 0, "connection",
            "Close the connection", "1.0.0"),
        cmd("hello", helloCommand, -1, CONN | CMD_NO_AUTH | CMD_SENTINEL, 0, 0, 0, "connection",
            "Handshake with Redis", "6.0.0"),
        cmd("client", nullptr, -2, CMD_SENTINEL, 0, 0, 0, "connection",
            "A container for client connection commands", "2.4.0",
            {
                cmd("id", clientIdCommand, 2, CONN, 0, 0, 0, "connection", "Returns the client ID for the current connection", "5.0.0"),
                cmd("info", clientInfoCommand, 2, CONN, 0, 0, 0, "connection", "Returns information about the current client connection.", "6.2.0"),
                cmd("list", clientListCommand, -2, CMD_ADMIN | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE, 0, 0, 0, "connection", "Get the list of client connections", "2.4.0"),
                cmd("kill", clientKillCommand, -3, CMD_ADMIN | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE, 0, 0, 0, "connection", "Kill the connection of a client", "2.4.0"),
                cmd("setname", clientSetNameCommand, 3, CONN, 0, 0, 0, "connection", "Set the current connection name", "2.6.9"),
                cmd("getname", clientGetNameCommand, 2, CONN, 0, 0, 0, "connection", "Get the current connection name", "2.6.9"),
                cmd("help", clientHelpCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0, "connection", "Show helpful text about the different subcommands", "5.0.0"),
            }),
        /* server */
        cmd("info", infoCommand, -1, CMD_LOADING | CMD_STALE | CMD_SENTINEL, 0, 0, 0, "server",
            "Get information and statistics about the server", "1.0.0"),
        cmd("time", timeCommand, 1, CMD_LOADING | CMD_STALE | CMD_FAST, 0, 0, 0, "server",
            "Return the current server time", "2.6.0"),
        cmd("shutdown", shutdownCommand, -1, CMD_ADMIN | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE | CMD_NO_MULTI | CMD_SENTINEL | CMD_ALLOW_BUSY,
            0, 0, 0, "server", "Synchronously save the dataset to disk and then shut down the server", "1.0.0"),
        cmd("debug", debugCommand, -2, CMD_ADMIN | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE, 0, 0, 0, "server",
            "A container for debugging commands", "1.0.0"),
        cmd("command", commandCommand, -1, CMD_LOADING | CMD_STALE | CMD_SENTINEL, 0, 0, 0, "server",
            "Get array of Redis command details", "2.8.13",
            {
                cmd("count", commandCountCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Get total number of Redis commands", "2.8.13"),
                cmd("info", commandInfoCommand, -2, CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Get array of specific Redis command details, or all when no argument is given.", "2.8.13"),
                cmd("docs", commandDocsCommand, -2, CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Get array of specific Redis command documentation", "7.0.0"),
                cmd("list", commandListCommand, -2, CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Get an array of Redis command names", "7.0.0"),
                cmd("help", commandHelpCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Show helpful text about the different subcommands", "5.0.0"),
            }),
        cmd("config", nullptr, -2, 0, 0, 0, 0, "server", "A container for server configuration commands", "2.0.0",
            {
                cmd("get", configGetCommand, -3, CMD_ADMIN | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Get the values of configuration parameters", "2.0.0"),
                cmd("set", configSetCommand, -4, CMD_ADMIN | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Set configuration parameters to the given values", "2.0.0"),
                cmd("resetstat", configResetStatCommand, 2, CMD_ADMIN | CMD_NOSCRIPT | CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Reset the stats returned by INFO", "2.0.0"),
                cmd("help", configHelpCommand, 2, CMD_LOADING | CMD_STALE, 0, 0, 0, "server", "Show helpful text about the different subcommands", "5.0.0"),
            }),
    };
}

}  // namespace

/* Built on first use (no static-initialization-order dependency on
 * `server`); populateCommandTable() indexes it. */
std::vector<redisCommand> &redisCommandTable() {
    static std::vector<redisCommand> table = buildCommandTable();
    return table;
}
