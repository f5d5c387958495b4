/* sort.cpp — SORT and SORT_RO (Redis's sort.c).
 * CONTRACT STUB: the helper owning this file replaces it. */
#include "sort.h"

#include "networking.h"

void sortCommand(client *c) { addReplyError(c, "not implemented yet"); }
void sortroCommand(client *c) { addReplyError(c, "not implemented yet"); }
int sortGetKeys(const redisCommand *, std::span<const std::string_view>, getKeysResult *) { return 0; }
int sortROGetKeys(const redisCommand *, std::span<const std::string_view>, getKeysResult *) { return 0; }
