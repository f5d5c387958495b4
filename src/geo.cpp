/* geo.cpp — geo commands on sorted sets (Redis's geo.c).
 * CONTRACT STUB: the helper owning this file replaces it. */
#include "geo.h"

#include "networking.h"

void geoaddCommand(client *c) { addReplyError(c, "not implemented yet"); }
void geoposCommand(client *c) { addReplyError(c, "not implemented yet"); }
void geodistCommand(client *c) { addReplyError(c, "not implemented yet"); }
void geohashCommand(client *c) { addReplyError(c, "not implemented yet"); }
void geosearchCommand(client *c) { addReplyError(c, "not implemented yet"); }
void geosearchstoreCommand(client *c) { addReplyError(c, "not implemented yet"); }
void georadiusCommand(client *c) { addReplyError(c, "not implemented yet"); }
void georadiusroCommand(client *c) { addReplyError(c, "not implemented yet"); }
void georadiusbymemberCommand(client *c) { addReplyError(c, "not implemented yet"); }
void georadiusbymemberroCommand(client *c) { addReplyError(c, "not implemented yet"); }
int georadiusGetKeys(const redisCommand *, std::span<const std::string_view>, getKeysResult *) { return 0; }
