/* lazyfree.cpp — freeing big values on the background thread (Redis's lazyfree.c).
 * CONTRACT STUB: the helper owning this file replaces it. */
#include "lazyfree.h"

unsigned long long lazyfreeGetPendingObjectsCount() { return 0; }
unsigned long long lazyfreeGetFreedObjectsCount() { return 0; }
void lazyfreeResetStats() {}
