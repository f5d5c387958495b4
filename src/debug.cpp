/* debug.cpp — the DEBUG command: introspection and fault injection for
 * tests and learners (Redis's debug.c). Each later subsystem adds its
 * subcommands here (OBJECT, ZIPLIST, RELOAD...).
 */
#include <unistd.h>

#include "server.h"
#include "util.h"

static void debugHelp(client *c) {
    static const char *const help[] = {
        "SLEEP <seconds>",
        "    Stop the server for <seconds>. Decimals allowed.",
        nullptr};
    addReplyHelp(c, help);
}

/* DEBUG SLEEP blocks the whole server on purpose: it shows that one slow
 * command stalls every client of a single-threaded event loop. */
static void debugSleep(client *c) {
    double dtime = 0;
    if (c->argv.size() != 3 || !string2d(c->argv[2], &dtime) || dtime < 0)
        return addReplyError(c, "value is not a valid float");
    long long utime = static_cast<long long>(dtime * 1000000);
    timespec tv{static_cast<time_t>(utime / 1000000), static_cast<long>((utime % 1000000) * 1000)};
    nanosleep(&tv, nullptr);
    addReply(c, shared::ok);
}

void debugCommand(client *c) {
    std::string_view sub = c->argv[1];
    if (strEqualNoCase(sub, "help")) return debugHelp(c);
    if (strEqualNoCase(sub, "sleep")) return debugSleep(c);
    addReplySubcommandSyntaxError(c);
}
