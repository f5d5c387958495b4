/* pubsub.cpp — publish/subscribe (Redis's pubsub.c). Work in progress. */
#include "pubsub.h"

#include "server.h"

void subscribeCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void unsubscribeCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void psubscribeCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void punsubscribeCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void publishCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void pubsubChannelsCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void pubsubNumsubCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void pubsubNumpatCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
void pubsubHelpCommand(client *c) { addReplyError(c, "ERR not implemented yet"); }
