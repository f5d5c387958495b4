/* notify.cpp — keyspace notifications (Redis's notify.c): the letters of
 * notify-keyspace-events, and publishing an event on its two channels.
 * See notify.h for the invariants. */
#include "notify.h"

#include "pubsub.h"
#include "util.h"

namespace {

/* Every letter but 'A' names one flag; the order is CONFIG GET's. */
struct EventClass {
    char letter;
    int flag;
};
constexpr EventClass kClassLetters[] = {
    {'g', NOTIFY_GENERIC}, {'$', NOTIFY_STRING}, {'l', NOTIFY_LIST},    {'s', NOTIFY_SET},
    {'h', NOTIFY_HASH},    {'z', NOTIFY_ZSET},   {'x', NOTIFY_EXPIRED}, {'e', NOTIFY_EVICTED},
    {'t', NOTIFY_STREAM},  {'d', NOTIFY_MODULE}, {'n', NOTIFY_NEW},
};
/* Printed after the classes, even after "A". */
constexpr EventClass kChannelLetters[] = {{'K', NOTIFY_KEYSPACE}, {'E', NOTIFY_KEYEVENT}, {'m', NOTIFY_KEY_MISS}};

/* "__keyspace@<db>__:" or "__keyevent@<db>__:" then `suffix`. */
void buildChannel(std::string &out, std::string_view prefix, int dbid, std::string_view suffix) {
    char num[LONG_STR_SIZE];
    out.assign(prefix);
    out.append(num, ll2string(num, sizeof(num), dbid));
    out += "__:";
    out += suffix;
}

int letterFlag(char ch) {
    for (const EventClass &ec : kClassLetters)
        if (ec.letter == ch) return ec.flag;
    for (const EventClass &ec : kChannelLetters)
        if (ec.letter == ch) return ec.flag;
    return 0;
}

}  // namespace

int keyspaceEventsStringToFlags(std::string_view classes) {
    int flags = 0;
    for (char ch : classes) {
        if (ch == 'A') {
            flags |= NOTIFY_ALL;
            continue;
        }
        int flag = letterFlag(ch);
        if (!flag) return -1;
        flags |= flag;
    }
    return flags;
}

/* As Redis 7.0 prints it: with every class of "A" on, "A" stands for the
 * classes and 'n' is not shown (a quirk CONFIG GET keeps). */
std::string keyspaceEventsFlagsToString(int flags) {
    std::string out;
    if ((flags & NOTIFY_ALL) == NOTIFY_ALL) {
        out += 'A';
    } else {
        for (const EventClass &ec : kClassLetters)
            if (flags & ec.flag) out += ec.letter;
    }
    for (const EventClass &ec : kChannelLetters)
        if (flags & ec.flag) out += ec.letter;
    return out;
}

void publishKeyspaceEvent(const char *event, std::string_view key, int dbid) {
    /* Nobody listens to anything: skip building the channel names. */
    if (server.pubsub_channels.size() == 0 && server.pubsub_patterns.size() == 0) return;
    static std::string channel; /* reused: no allocation per event */
    std::string_view name = event;
    if (server.notify_keyspace_events & NOTIFY_KEYSPACE) {
        buildChannel(channel, "__keyspace@", dbid, key);
        pubsubPublishMessage(channel, name);
    }
    if (server.notify_keyspace_events & NOTIFY_KEYEVENT) {
        buildChannel(channel, "__keyevent@", dbid, name);
        pubsubPublishMessage(channel, key);
    }
}
