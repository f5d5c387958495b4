/* bitops.cpp — bitmaps on the string type: SETBIT, GETBIT, BITCOUNT, BITPOS, BITOP, BITFIELD (Redis's bitops.c).
 * CONTRACT STUB: the helper owning this file replaces it. */
#include "bitops.h"

#include "networking.h"

void setbitCommand(client *c) { addReplyError(c, "not implemented yet"); }
void getbitCommand(client *c) { addReplyError(c, "not implemented yet"); }
void bitcountCommand(client *c) { addReplyError(c, "not implemented yet"); }
void bitposCommand(client *c) { addReplyError(c, "not implemented yet"); }
void bitopCommand(client *c) { addReplyError(c, "not implemented yet"); }
void bitfieldCommand(client *c) { addReplyError(c, "not implemented yet"); }
void bitfieldroCommand(client *c) { addReplyError(c, "not implemented yet"); }
int bitfieldGetKeys(const redisCommand *, std::span<const std::string_view>, getKeysResult *) { return 0; }
