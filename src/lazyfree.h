/* lazyfree.h — freeing big values on the background thread (Redis's
 * lazyfree.c, through bio.h).
 * CONTRACT STUB: the helper owning this file replaces it. */
#pragma once

/* INFO lazyfree_pending_objects / lazyfreed_objects. */
unsigned long long lazyfreeGetPendingObjectsCount();
unsigned long long lazyfreeGetFreedObjectsCount();
void lazyfreeResetStats();
