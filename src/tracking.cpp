/* tracking.cpp — client-side caching (Redis's tracking.c).
 * CONTRACT STUB: the helper owning this file replaces it. */
#include "tracking.h"

#include "networking.h"

void trackingRememberKeys(client *) {}
void trackingInvalidateKey(client *, int, std::string_view) {}
void trackingInvalidateKeysOnFlush(bool) {}
void disableTracking(client *) {}
void trackingLimitUsedSlots() {}
unsigned long long trackingGetTotalItems() { return 0; }
unsigned long long trackingGetTotalKeys() { return 0; }
unsigned long long trackingGetTotalPrefixes() { return 0; }
long long trackingClientsCount() { return 0; }
void clientTrackingCommand(client *c) { addReplyError(c, "not implemented yet"); }
void clientCachingCommand(client *c) { addReplyError(c, "not implemented yet"); }
void clientGetredirCommand(client *c) { addReplyError(c, "not implemented yet"); }
void clientTrackingInfoCommand(client *c) { addReplyError(c, "not implemented yet"); }
