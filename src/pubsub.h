/* pubsub.h — publish/subscribe (Redis's pubsub.c).
 *
 * A client SUBSCRIBEs to channels (exact names) and PSUBSCRIBEs to glob
 * patterns; PUBLISH hands a message to every subscriber of the channel,
 * then to every subscriber of each pattern the channel matches, in that
 * order and, within a channel or pattern, in the order they subscribed.
 * Keyspace notifications (notify.h) publish through the same function.
 * Sharded pub/sub (SSUBSCRIBE / SPUBLISH, Redis 7.0) keeps shard channels
 * apart: no pattern matches them, and their confirmations count only them.
 *
 * Messages and (un)subscribe confirmations are pushes: arrays to a RESP2
 * client, push frames (">") to a RESP3 one, written with CLIENT_PUSHING
 * set (they are not the reply to the command being run).
 *
 * Invariants:
 *  - Each subscription is recorded twice, kept in step by the functions
 *    below: on the server (server.pubsub_channels / pubsub_patterns: name ->
 *    subscribers, and server.pubsub_shard_channels) and on the client
 *    (c->pubsub_channels / pubsub_patterns / pubsub_shard_channels).
 *    A name with no subscriber left leaves the server's dict.
 *  - CLIENT_PUBSUB is set while the client has at least one subscription
 *    of any kind (clientTotalPubSubSubscriptionCount() > 0); a RESP2 client
 *    in that state may only run (P|S)(UN)SUBSCRIBE, PING, QUIT and RESET
 *    (processCommand); a RESP3 client may run anything.
 *  - freeClient unsubscribes the client from everything before it dies, so
 *    the server's lists never hold a dangling pointer.
 */
#pragma once

#include <string_view>

struct client;

/* Each returns whether the subscription changed; with notify, the client
 * gets the (p)(un)subscribe confirmation. */
bool pubsubSubscribeChannel(client *c, std::string_view channel);
bool pubsubUnsubscribeChannel(client *c, std::string_view channel, bool notify);
bool pubsubSubscribePattern(client *c, std::string_view pattern);
bool pubsubUnsubscribePattern(client *c, std::string_view pattern, bool notify);
/* Return how many subscriptions were dropped. */
int pubsubUnsubscribeAllChannels(client *c, bool notify);
int pubsubUnsubscribeAllPatterns(client *c, bool notify);
int pubsubUnsubscribeShardAllChannels(client *c, bool notify);
/* freeClient's step for pub/sub: every channel, pattern and shard channel,
 * unnotified (registerFreeClientProc, networking.h). */
void pubsubUnsubscribeAllOnFree(client *c);

/* Delivers `message` and returns how many clients received it (a client
 * subscribed to the channel and to two matching patterns counts 3). */
long long pubsubPublishMessage(std::string_view channel, std::string_view message);
/* The same, calling received(c) for each client handed the message (the
 * live trace marks its readers, livetrace_output.h). */
long long pubsubPublishMessageVisit(std::string_view channel, std::string_view message, void (*received)(client *));
/* Whether a message on `channel` may reach anybody: it has subscribers, or
 * some pattern exists (which might match it). */
bool pubsubMayHaveReceivers(std::string_view channel);

/* Channels plus patterns the client is subscribed to; its shard channels;
 * all three. */
size_t clientSubscriptionsCount(const client *c);
size_t clientShardSubscriptionsCount(const client *c);
size_t clientTotalPubSubSubscriptionCount(const client *c);

/* The publish/subscribe commands (the command table is in commands.cpp). */
void subscribeCommand(client *c);
void unsubscribeCommand(client *c);
void psubscribeCommand(client *c);
void punsubscribeCommand(client *c);
void publishCommand(client *c);
void pubsubChannelsCommand(client *c);
void pubsubNumsubCommand(client *c);
void pubsubNumpatCommand(client *c);
void pubsubHelpCommand(client *c);
/* Sharded pub/sub (Redis 7.0; without a cluster, one shard). */
void ssubscribeCommand(client *c);
void sunsubscribeCommand(client *c);
void spublishCommand(client *c);
void pubsubShardChannelsCommand(client *c);
void pubsubShardNumsubCommand(client *c);
