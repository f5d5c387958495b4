/* tracking.h — client-side caching (Redis's tracking.c): the keys a
 * tracking client read, and the invalidation messages sent when they change.
 *
 * Two tables, global to all the databases as in Redis (a key name read in
 * db 0 is invalidated by a write to that name in db 3):
 *  - the tracking table: key name -> the IDs of the clients that may hold
 *    it in their cache (default mode, OPTIN, OPTOUT). An entry leaves the
 *    table when its key is invalidated: the clients must read it again to
 *    be told of the next change.
 *  - the prefix table: prefix -> the BCAST clients subscribed to it and the
 *    keys under it modified during this event-loop iteration, sent to those
 *    clients in beforeSleep (trackingBroadcastInvalidationMessages).
 * Invalidations go to the client itself as a RESP3 push, or to its REDIRECT
 * client (a RESP3 push, or for a RESP2 client in pub/sub mode a message on
 * __redis__:invalidate). Clients are referred to by ID in the tracking
 * table, so one that is gone is skipped, not dereferenced; BCAST clients
 * are unsubscribed from their prefixes when tracking stops or they are
 * freed (disableTracking).
 */
#pragma once

#include <string_view>

struct client;

/* call()'s hook after a read-only command of a tracking client (not in
 * BCAST mode): the keys of c->cmd are remembered for c. */
void trackingRememberKeys(client *c);
/* signalModifiedKey's hook: `key` changed (by c, nullptr if the server:
 * expiry, eviction). `bcast` also queues it for the BCAST clients. */
void trackingInvalidateKey(client *c, std::string_view key, bool bcast);
/* The invalidations call() deferred until the current client's reply was
 * written (its own keys, NOLOOP off): sent once the top-level call ends. */
void trackingHandlePendingKeyInvalidations();
/* FLUSHALL/FLUSHDB (any emptyData): every tracked key is invalid, which
 * every tracking client is told with a null instead of the key names. */
void trackingInvalidateKeysOnFlush(bool async);
/* freeClient and CLIENT TRACKING off. */
void disableTracking(client *c);
/* freeClient's step for tracking (registerFreeClientProc, networking.h). */
void freeClientTracking(client *c);
/* serverCron and processCommand: evicts tracked keys past
 * tracking-table-max-keys, telling their clients as if they had changed. */
void trackingLimitUsedSlots();
/* beforeSleep: each BCAST client gets the keys modified under its prefixes. */
void trackingBroadcastInvalidationMessages();
/* INFO tracking_clients / tracking_total_keys / items / prefixes. */
unsigned long long trackingGetTotalItems();
unsigned long long trackingGetTotalKeys();
unsigned long long trackingGetTotalPrefixes();
long long trackingClientsCount();

void clientTrackingCommand(client *c);
void clientCachingCommand(client *c);
void clientGetredirCommand(client *c);
void clientTrackingInfoCommand(client *c);
