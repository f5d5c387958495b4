/* notify.h — keyspace notifications (Redis's notify.c).
 *
 * With notify-keyspace-events set, every change to a key is published as
 * two pub/sub messages (pubsub.h, through the publisher pubsub.cpp
 * registers: registerKeyspaceEventPublisher): on "__keyspace@<db>__:<key>"
 * the event's name ("lpush", "del", "expired" ...), and on
 * "__keyevent@<db>__:<event>" the key. Each command calls
 * notifyKeyspaceEvent after its change, with the class of the event (the
 * config's letters) and Redis 7.0's event name.
 *
 * Invariants:
 *  - With the class off (the default: nothing is on), notifyKeyspaceEvent
 *    is one inlined test of server.notify_keyspace_events: the hot path pays
 *    a branch, no call.
 *  - K and E choose the channels, the other letters the classes; neither
 *    alone publishes anything. "A" is every class but m (key misses) and n
 *    (new keys), which are only on when named.
 */
#pragma once

#include <string>
#include <string_view>

#include "server.h"

constexpr int NOTIFY_KEYSPACE = 1 << 0; /* K */
constexpr int NOTIFY_KEYEVENT = 1 << 1; /* E */
constexpr int NOTIFY_GENERIC = 1 << 2;  /* g: DEL, EXPIRE, RENAME ... */
constexpr int NOTIFY_STRING = 1 << 3;   /* $ */
constexpr int NOTIFY_LIST = 1 << 4;     /* l */
constexpr int NOTIFY_SET = 1 << 5;      /* s */
constexpr int NOTIFY_HASH = 1 << 6;     /* h */
constexpr int NOTIFY_ZSET = 1 << 7;     /* z */
constexpr int NOTIFY_EXPIRED = 1 << 8;  /* x: a key's TTL ran out */
constexpr int NOTIFY_EVICTED = 1 << 9;  /* e: maxmemory evicted a key (evict.cpp) */
constexpr int NOTIFY_STREAM = 1 << 10;  /* t */
constexpr int NOTIFY_KEY_MISS = 1 << 11; /* m: a read found no key */
constexpr int NOTIFY_MODULE = 1 << 13;  /* d: accepted; no modules here */
constexpr int NOTIFY_NEW = 1 << 14;     /* n: a key entered the keyspace */
constexpr int NOTIFY_ALL = NOTIFY_GENERIC | NOTIFY_STRING | NOTIFY_LIST | NOTIFY_SET | NOTIFY_HASH | NOTIFY_ZSET |
                           NOTIFY_EXPIRED | NOTIFY_EVICTED | NOTIFY_STREAM | NOTIFY_MODULE; /* A */

/* The config's letters to flags; -1 for a letter Redis does not know. */
int keyspaceEventsStringToFlags(std::string_view classes);
/* Flags to letters, as CONFIG GET prints them ("AKE", "gxE" ...). */
std::string keyspaceEventsFlagsToString(int flags);

/* Publishes the event's messages (the part behind the inlined test). */
void publishKeyspaceEvent(const char *event, std::string_view key, int dbid);

/* How publishKeyspaceEvent hands a message to the subscribers: Redis's
 * notify.c calls pubsubPublishMessage; here pubsub.cpp registers it from a
 * static initializer of its own, before main runs. (Pub/sub is in the
 * keyspace's own layer, 3 in tools/check_layers.sh, and includes this
 * header only to register: notify.cpp could include pubsub.h instead
 * without making a cycle.) Only pubsub.cpp
 * adds subscribers, so with any listener it is set (and it always is in
 * the server: the command table names PUBLISH). Always returns true. */
using keyspaceEventPublishProc = long long (*)(std::string_view channel, std::string_view message);
bool registerKeyspaceEventPublisher(keyspaceEventPublishProc publish);

inline void notifyKeyspaceEvent(int type, const char *event, std::string_view key, int dbid) {
    if (server.notify_keyspace_events & type) [[unlikely]]
        publishKeyspaceEvent(event, key, dbid);
}
