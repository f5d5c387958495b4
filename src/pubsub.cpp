/* pubsub.cpp — publish/subscribe (Redis's pubsub.c): the subscription
 * bookkeeping, message delivery, and the SUBSCRIBE / UNSUBSCRIBE /
 * PSUBSCRIBE / PUNSUBSCRIBE / PUBLISH / PUBSUB commands. See pubsub.h for
 * the invariants.
 *
 * Delivery is the hot path (PUBLISH to many subscribers, and every keyspace
 * notification): the message's elements are encoded once into a buffer that
 * keeps its capacity between calls, then each subscriber gets the push
 * header of its protocol and those bytes. Nothing is allocated per
 * subscriber. Sharded pub/sub (SSUBSCRIBE, SPUBLISH) shares all of it
 * through a pubsubtype, as in Redis.
 */
#include "pubsub.h"

#include <algorithm>
#include <optional>

#include "server.h"
#include "util.h"

namespace {

/* The kind of each push (its first element), pre-encoded. */
constexpr std::string_view kSubscribeBulk = "$9\r\nsubscribe\r\n";
constexpr std::string_view kUnsubscribeBulk = "$11\r\nunsubscribe\r\n";
constexpr std::string_view kPsubscribeBulk = "$10\r\npsubscribe\r\n";
constexpr std::string_view kPunsubscribeBulk = "$12\r\npunsubscribe\r\n";
constexpr std::string_view kSsubscribeBulk = "$10\r\nssubscribe\r\n";
constexpr std::string_view kSunsubscribeBulk = "$12\r\nsunsubscribe\r\n";
constexpr std::string_view kMessageBulk = "$7\r\nmessage\r\n";
constexpr std::string_view kPmessageBulk = "$8\r\npmessage\r\n";
constexpr std::string_view kSmessageBulk = "$8\r\nsmessage\r\n";

/* Above this the encoding buffer is given back after a PUBLISH, so that one
 * huge message does not pin its size for the life of the server. */
constexpr size_t kPublishBufferKeep = 64 * 1024;

/* Redis's pubsubtype: what differs between the channels of SUBSCRIBE and
 * the shard channels of SSUBSCRIBE. */
struct pubsubtype {
    bool shard;
    clientChannelsDict client::*clientPubSubChannels;
    size_t (*subscriptionCount)(const client *);
    pubsubDict *serverPubSubChannels;
    std::string_view subscribeMsg, unsubscribeMsg, messageBulk;
};

const pubsubtype pubSubType{false, &client::pubsub_channels, clientSubscriptionsCount, &server.pubsub_channels,
                            kSubscribeBulk, kUnsubscribeBulk, kMessageBulk};
const pubsubtype pubSubShardType{true, &client::pubsub_shard_channels, clientShardSubscriptionsCount,
                                 &server.pubsub_shard_channels, kSsubscribeBulk, kSunsubscribeBulk, kSmessageBulk};

/* Starts a push of `len` elements: an array in RESP2, a push frame (">")
 * in RESP3, marked as a push for the object's lifetime. */
class PushWriter {
public:
    PushWriter(client *c, long long len) : pushing_(c) { addReplyPushLen(c, len); }

private:
    clientPushingScope pushing_;
};

/* [kind, name, subscriptions left]; the name is nil for an unsubscribe
 * without arguments from a client with nothing to leave. */
void addReplyPubsubConfirmation(client *c, std::string_view kind, std::optional<std::string_view> name,
                                size_t count) {
    PushWriter push(c, 3);
    addReply(c, kind);
    if (name) addReplyBulk(c, *name);
    else addReplyNull(c);
    addReplyLongLong(c, static_cast<long long>(count));
}

void addSubscriber(pubsubDict &d, std::string_view name, client *c) {
    pubsubDict::entry *de = d.find(name);
    if (!de) de = d.addRaw(sds(name));
    de->val.push_back(c);
}

/* The subscriber list keeps its order (delivery order) as c leaves it. */
void removeSubscriber(pubsubDict &d, std::string_view name, client *c) {
    pubsubDict::entry *de = d.find(name);
    std::vector<client *> &subscribers = de->val;
    subscribers.erase(std::find(subscribers.begin(), subscribers.end(), c));
    if (subscribers.empty()) d.erase(name);
}

/* Appends "$<len>\r\n<s>\r\n". */
void appendBulk(std::string &out, std::string_view s) {
    char len[LONG_STR_SIZE];
    out += '$';
    out.append(len, ll2string(len, sizeof(len), static_cast<long long>(s.size())));
    out += "\r\n";
    out += s;
    out += "\r\n";
}

/* `elements` are the push's `len` elements, encoded once for everybody;
 * only the push header depends on the subscriber's protocol. */
long long deliver(const std::vector<client *> &subscribers, long long len, std::string_view elements,
                  void (*received)(client *)) {
    for (client *c : subscribers) {
        {
            PushWriter push(c, len);
            addReplyProto(c, elements.data(), elements.size());
        }
        if (received) received(c);
    }
    return static_cast<long long>(subscribers.size());
}

/* A client leaves pub/sub mode (CLIENT_PUBSUB) with its last subscription
 * of any kind. */
void updatePubsubFlag(client *c) {
    if (clientTotalPubSubSubscriptionCount(c) == 0) c->flags &= ~CLIENT_PUBSUB;
}

bool pubsubSubscribeChannel(client *c, std::string_view channel, const pubsubtype &type) {
    bool added = (c->*type.clientPubSubChannels).addRaw(sds(channel)) != nullptr;
    if (added) addSubscriber(*type.serverPubSubChannels, channel, c);
    addReplyPubsubConfirmation(c, type.subscribeMsg, channel, type.subscriptionCount(c));
    return added;
}

bool pubsubUnsubscribeChannel(client *c, std::string_view channel, bool notify, const pubsubtype &type) {
    /* Held to the end: `channel` may view this very entry's key (from
     * pubsubUnsubscribeAllChannelsInternal). */
    auto held = (c->*type.clientPubSubChannels).unlink(channel);
    if (held) removeSubscriber(*type.serverPubSubChannels, channel, c);
    if (notify) addReplyPubsubConfirmation(c, type.unsubscribeMsg, channel, type.subscriptionCount(c));
    return held != nullptr;
}

/* In the client's dict order, as Redis (whose order is its own dict's). */
int pubsubUnsubscribeAllChannelsInternal(client *c, bool notify, const pubsubtype &type) {
    int count = 0;
    for (auto &de : (c->*type.clientPubSubChannels).safe())
        count += pubsubUnsubscribeChannel(c, de.key.view(), notify, type);
    if (notify && count == 0) addReplyPubsubConfirmation(c, type.unsubscribeMsg, std::nullopt, type.subscriptionCount(c));
    return count;
}

}  // namespace

size_t clientSubscriptionsCount(const client *c) { return c->pubsub_channels.size() + c->pubsub_patterns.size(); }
size_t clientShardSubscriptionsCount(const client *c) { return c->pubsub_shard_channels.size(); }
size_t clientTotalPubSubSubscriptionCount(const client *c) {
    return clientSubscriptionsCount(c) + clientShardSubscriptionsCount(c);
}

/* ========================================================================
 * Subscribing and unsubscribing
 * ====================================================================== */

bool pubsubSubscribeChannel(client *c, std::string_view channel) {
    return pubsubSubscribeChannel(c, channel, pubSubType);
}

bool pubsubUnsubscribeChannel(client *c, std::string_view channel, bool notify) {
    return pubsubUnsubscribeChannel(c, channel, notify, pubSubType);
}

bool pubsubSubscribePattern(client *c, std::string_view pattern) {
    auto &patterns = c->pubsub_patterns;
    bool added = std::find(patterns.begin(), patterns.end(), pattern) == patterns.end();
    if (added) {
        patterns.emplace_back(pattern);
        addSubscriber(server.pubsub_patterns, pattern, c);
    }
    addReplyPubsubConfirmation(c, kPsubscribeBulk, pattern, clientSubscriptionsCount(c));
    return added;
}

bool pubsubUnsubscribePattern(client *c, std::string_view pattern, bool notify) {
    auto &patterns = c->pubsub_patterns;
    auto it = std::find(patterns.begin(), patterns.end(), pattern);
    bool removed = it != patterns.end();
    sds held; /* keeps the bytes `pattern` may view alive past the erase */
    if (removed) {
        held = std::move(*it);
        patterns.erase(it);
        removeSubscriber(server.pubsub_patterns, pattern, c);
    }
    if (notify) addReplyPubsubConfirmation(c, kPunsubscribeBulk, pattern, clientSubscriptionsCount(c));
    return removed;
}

int pubsubUnsubscribeAllChannels(client *c, bool notify) {
    return pubsubUnsubscribeAllChannelsInternal(c, notify, pubSubType);
}

int pubsubUnsubscribeShardAllChannels(client *c, bool notify) {
    return pubsubUnsubscribeAllChannelsInternal(c, notify, pubSubShardType);
}

/* In subscription order, as Redis 7.0 (a list there too). */
int pubsubUnsubscribeAllPatterns(client *c, bool notify) {
    std::vector<sds> patterns = std::move(c->pubsub_patterns);
    c->pubsub_patterns.clear();
    size_t left = patterns.size();
    for (const sds &pattern : patterns) {
        removeSubscriber(server.pubsub_patterns, pattern, c);
        if (notify) addReplyPubsubConfirmation(c, kPunsubscribeBulk, pattern, c->pubsub_channels.size() + --left);
    }
    if (notify && patterns.empty())
        addReplyPubsubConfirmation(c, kPunsubscribeBulk, std::nullopt, clientSubscriptionsCount(c));
    return static_cast<int>(patterns.size());
}

/* ========================================================================
 * Publishing
 * ====================================================================== */

/* `buf` holds the encoded message and keeps its capacity between calls.
 * Shard channels are matched by no pattern (Redis's pubsubtype.shard). */
static long long publishMessage(std::string_view channel, std::string_view message, void (*received)(client *),
                                std::string &buf, const pubsubtype &type) {
    long long receivers = 0;
    if (pubsubDict::entry *de = type.serverPubSubChannels->find(channel)) {
        buf.assign(type.messageBulk);
        appendBulk(buf, channel);
        appendBulk(buf, message);
        receivers += deliver(de->val, 3, buf, received);
    }
    if (!type.shard && server.pubsub_patterns.size()) {
        for (auto &de : server.pubsub_patterns) {
            if (!stringmatchlen(de.key.view(), channel, false)) continue;
            buf.assign(kPmessageBulk);
            appendBulk(buf, de.key.view());
            appendBulk(buf, channel);
            appendBulk(buf, message);
            receivers += deliver(de.val, 4, buf, received);
        }
    }
    if (buf.capacity() > kPublishBufferKeep) std::string().swap(buf);
    return receivers;
}

static std::string publish_buf;

long long pubsubPublishMessage(std::string_view channel, std::string_view message) {
    return publishMessage(channel, message, nullptr, publish_buf, pubSubType);
}

/* SPUBLISH's delivery: a PUBLISH is never running beside it, so it shares
 * the buffer. */
static long long pubsubPublishShardMessage(std::string_view channel, std::string_view message) {
    return publishMessage(channel, message, nullptr, publish_buf, pubSubShardType);
}

/* A buffer of its own: a trace event may be emitted while a PUBLISH is
 * delivering from the other one (a subscriber cut off, say). */
long long pubsubPublishMessageVisit(std::string_view channel, std::string_view message, void (*received)(client *)) {
    static std::string buf;
    return publishMessage(channel, message, received, buf, pubSubType);
}

bool pubsubMayHaveReceivers(std::string_view channel) {
    return server.pubsub_patterns.size() != 0 || server.pubsub_channels.find(channel) != nullptr;
}

/* ========================================================================
 * Commands
 * ====================================================================== */

void subscribeCommand(client *c) {
    for (size_t j = 1; j < c->argv.size(); j++) pubsubSubscribeChannel(c, c->argv[j]);
    c->flags |= CLIENT_PUBSUB;
}

void unsubscribeCommand(client *c) {
    if (c->argv.size() == 1) pubsubUnsubscribeAllChannels(c, true);
    else
        for (size_t j = 1; j < c->argv.size(); j++) pubsubUnsubscribeChannel(c, c->argv[j], true);
    updatePubsubFlag(c);
}

void psubscribeCommand(client *c) {
    for (size_t j = 1; j < c->argv.size(); j++) pubsubSubscribePattern(c, c->argv[j]);
    c->flags |= CLIENT_PUBSUB;
}

void punsubscribeCommand(client *c) {
    if (c->argv.size() == 1) pubsubUnsubscribeAllPatterns(c, true);
    else
        for (size_t j = 1; j < c->argv.size(); j++) pubsubUnsubscribePattern(c, c->argv[j], true);
    updatePubsubFlag(c);
}

/* The replicas get it too (Redis without cluster), the AOF not. */
void publishCommand(client *c) {
    addReplyLongLong(c, pubsubPublishMessage(c->argv[1], c->argv[2]));
    forceCommandPropagation(c, PROPAGATE_REPL);
}

/* The names in `channels` matching `pattern` (all without one): PUBSUB
 * CHANNELS and SHARDCHANNELS (pattern subscriptions do not make a channel
 * active). */
static void channelList(client *c, pubsubDict &channels) {
    if (c->argv.size() > 3) return addReplySubcommandSyntaxError(c);
    std::optional<std::string_view> pattern;
    if (c->argv.size() == 3) pattern = c->argv[2];
    void *replylen = addReplyDeferredLen(c);
    long n = 0;
    for (auto &de : channels) {
        if (pattern && !stringmatchlen(*pattern, de.key.view(), false)) continue;
        addReplyBulk(c, de.key.view());
        n++;
    }
    setDeferredArrayLen(c, replylen, n);
}

/* channel, count, channel, count...: PUBSUB NUMSUB and SHARDNUMSUB. */
static void numsubReply(client *c, pubsubDict &channels) {
    addReplyArrayLen(c, static_cast<long long>(c->argv.size() - 2) * 2);
    for (size_t j = 2; j < c->argv.size(); j++) {
        pubsubDict::entry *de = channels.find(c->argv[j]);
        addReplyBulk(c, c->argv[j]);
        addReplyLongLong(c, de ? static_cast<long long>(de->val.size()) : 0);
    }
}

void pubsubChannelsCommand(client *c) { channelList(c, server.pubsub_channels); }
void pubsubNumsubCommand(client *c) { numsubReply(c, server.pubsub_channels); }

/* PUBSUB NUMPAT: distinct patterns, however many clients share each. */
void pubsubNumpatCommand(client *c) {
    addReplyLongLong(c, static_cast<long long>(server.pubsub_patterns.size()));
}

void pubsubHelpCommand(client *c) {
    static const char *const help[] = {
        "CHANNELS [<pattern>]",
        "    Return the currently active channels matching a <pattern> (default: '*').",
        "NUMPAT",
        "    Return number of subscriptions to patterns.",
        "NUMSUB [<channel> ...]",
        "    Return the number of subscribers for the specified channels, excluding",
        "    pattern subscriptions(default: no channels).",
        "SHARDCHANNELS [<pattern>]",
        "    Return the currently active shard level channels matching a <pattern> (default: '*').",
        "SHARDNUMSUB [<shardchannel> ...]",
        "    Return the number of subscribers for the specified shard level channel(s)",
        nullptr};
    addReplyHelp(c, help);
}

/* A client being freed leaves every channel, pattern and shard channel: the
 * server's subscriber lists point at it (networking.h,
 * registerFreeClientProc). */
void pubsubUnsubscribeAllOnFree(client *c) {
    pubsubUnsubscribeShardAllChannels(c, false);
    pubsubUnsubscribeAllChannels(c, false);
    pubsubUnsubscribeAllPatterns(c, false);
}

/* ========================================================================
 * Sharded pub/sub (Redis 7.0 without a cluster: one shard, every slot)
 * ====================================================================== */

/* SSUBSCRIBE shardchannel [shardchannel ...]. Unlike SUBSCRIBE, refused
 * inside MULTI too, as Redis 7.0 (whose EXEC denies blocking). */
void ssubscribeCommand(client *c) {
    if (c->flags & (CLIENT_DENY_BLOCKING | CLIENT_MULTI))
        return addReplyError(c, "SSUBSCRIBE isn't allowed for a DENY BLOCKING client");
    for (size_t j = 1; j < c->argv.size(); j++) pubsubSubscribeChannel(c, c->argv[j], pubSubShardType);
    c->flags |= CLIENT_PUBSUB;
}

/* SUNSUBSCRIBE [shardchannel ...] */
void sunsubscribeCommand(client *c) {
    if (c->argv.size() == 1) pubsubUnsubscribeShardAllChannels(c, true);
    else
        for (size_t j = 1; j < c->argv.size(); j++) pubsubUnsubscribeChannel(c, c->argv[j], true, pubSubShardType);
    updatePubsubFlag(c);
}

/* SPUBLISH shardchannel message: propagated to the replicas as PUBLISH. */
void spublishCommand(client *c) {
    addReplyLongLong(c, pubsubPublishShardMessage(c->argv[1], c->argv[2]));
    forceCommandPropagation(c, PROPAGATE_REPL);
}

void pubsubShardChannelsCommand(client *c) { channelList(c, server.pubsub_shard_channels); }
void pubsubShardNumsubCommand(client *c) { numsubReply(c, server.pubsub_shard_channels); }
