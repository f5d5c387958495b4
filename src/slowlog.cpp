/* slowlog.cpp — the slow log (Redis's slowlog.c). */
#include "slowlog.h"

#include <ctime>
#include <deque>
#include <span>
#include <string>
#include <vector>

#include "networking.h"
#include "object.h"
#include "server.h"

namespace {

constexpr size_t SLOWLOG_ENTRY_MAX_ARGC = 32;   /* the last one then says how many more there were */
constexpr size_t SLOWLOG_ENTRY_MAX_STRING = 128; /* longer arguments are cut, saying by how much */

struct slowlogEntry {
    std::vector<std::string> argv;
    long long id;
    time_t time;
    long long duration; /* µs */
    std::string peerid, cname;
};

std::deque<slowlogEntry> slowlog; /* the newest first */
long long slowlog_entry_id = 0;

slowlogEntry slowlogCreateEntry(client *c, std::span<const std::string_view> argv, long long duration) {
    slowlogEntry se;
    size_t slargc = std::min(argv.size(), SLOWLOG_ENTRY_MAX_ARGC);
    se.argv.reserve(slargc);
    for (size_t j = 0; j < slargc; j++) {
        if (slargc != argv.size() && j == slargc - 1) {
            se.argv.push_back("... (" + std::to_string(argv.size() - slargc + 1) + " more arguments)");
        } else if (argv[j].size() > SLOWLOG_ENTRY_MAX_STRING) {
            se.argv.emplace_back(argv[j].substr(0, SLOWLOG_ENTRY_MAX_STRING));
            se.argv.back() += "... (" + std::to_string(argv[j].size() - SLOWLOG_ENTRY_MAX_STRING) + " more bytes)";
        } else {
            se.argv.emplace_back(argv[j]);
        }
    }
    se.id = slowlog_entry_id++;
    se.time = time(nullptr);
    se.duration = duration;
    /* A socketless client (a script's) has no peer: Redis shows "?:0". */
    se.peerid = !c->conn ? "?:0" : getClientPeerId(c);
    se.cname = c->name;
    return se;
}

void slowlogPushEntryIfNeeded(client *c, std::span<const std::string_view> argv, long long duration) {
    if (server.slowlog_log_slower_than < 0) return; /* disabled */
    if (duration >= server.slowlog_log_slower_than) slowlog.push_front(slowlogCreateEntry(c, argv, duration));
    /* Here rather than in a CONFIG SET hook, as Redis: a lowered
     * slowlog-max-len trims at the next command (the CONFIG SET itself). */
    while (slowlog.size() > static_cast<unsigned long long>(server.slowlog_max_len)) slowlog.pop_back();
}

}  // namespace

void slowlogPushCurrentCommand(client *c, redisCommand *cmd, long long duration_us) {
    if (cmd->flags & CMD_SKIP_SLOWLOG) return; /* EXEC: its commands are logged one by one */
    slowlogPushEntryIfNeeded(c, c->original_argv.empty() ? c->argv : c->original_argv, duration_us);
}

void slowlogGetCommand(client *c) {
    if (c->argv.size() > 3) return addReplySubcommandSyntaxError(c);
    long count = 10;
    if (c->argv.size() == 3) {
        if (!getRangeLongFromObjectOrReply(c, c->argv[2], -1, LONG_MAX, &count,
                                           "count should be greater than or equal to -1"))
            return;
        if (count == -1) count = static_cast<long>(slowlog.size());
    }
    size_t sent = std::min(slowlog.size(), static_cast<size_t>(count));
    addReplyArrayLen(c, static_cast<long long>(sent));
    for (size_t i = 0; i < sent; i++) {
        const slowlogEntry &se = slowlog[i];
        addReplyArrayLen(c, 6);
        addReplyLongLong(c, se.id);
        addReplyLongLong(c, se.time);
        addReplyLongLong(c, se.duration);
        addReplyArrayLen(c, static_cast<long long>(se.argv.size()));
        for (const std::string &arg : se.argv) addReplyBulk(c, arg);
        addReplyBulk(c, se.peerid);
        addReplyBulk(c, se.cname);
    }
}

void slowlogLenCommand(client *c) { addReplyLongLong(c, static_cast<long long>(slowlog.size())); }

void slowlogResetCommand(client *c) {
    slowlog.clear();
    addReply(c, shared::ok);
}

void slowlogHelpCommand(client *c) {
    static const char *const help[] = {
        "GET [<count>]",
        "    Return top <count> entries from the slowlog (default: 10, -1 mean all).",
        "    Entries are made of:",
        "    id, timestamp, time in microseconds, arguments array, client IP and port,",
        "    client name",
        "LEN",
        "    Return the length of the slowlog.",
        "RESET",
        "    Reset the slowlog.",
        nullptr,
    };
    addReplyHelp(c, help);
}
