/* tracking.h — client-side caching (Redis's tracking.c): the keys a
 * tracking client read, and the invalidation messages sent when they change.
 * CONTRACT STUB: the helper owning this file replaces it. */
#pragma once

#include <string_view>

struct client;

/* call()'s hook after a read-only command of a tracking client. */
void trackingRememberKeys(client *c);
/* signalModifiedKey's hook: `key` of `db` changed (by c, nullptr if the server). */
void trackingInvalidateKey(client *c, int dbid, std::string_view key);
/* FLUSHALL/FLUSHDB: every tracked key is invalid. */
void trackingInvalidateKeysOnFlush(bool async);
/* freeClient and CLIENT TRACKING off. */
void disableTracking(client *c);
/* serverCron: evicts tracked keys past tracking-table-max-keys. */
void trackingLimitUsedSlots();
/* INFO tracking_clients / tracking_total_keys / items / prefixes. */
unsigned long long trackingGetTotalItems();
unsigned long long trackingGetTotalKeys();
unsigned long long trackingGetTotalPrefixes();
long long trackingClientsCount();

void clientTrackingCommand(client *c);
void clientCachingCommand(client *c);
void clientGetredirCommand(client *c);
void clientTrackingInfoCommand(client *c);
