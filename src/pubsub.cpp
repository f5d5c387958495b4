/* pubsub.cpp — publish/subscribe (Redis's pubsub.c): the subscription
 * bookkeeping, message delivery, and the SUBSCRIBE / UNSUBSCRIBE /
 * PSUBSCRIBE / PUNSUBSCRIBE / PUBLISH / PUBSUB commands. See pubsub.h for
 * the invariants.
 *
 * Delivery is the hot path (PUBLISH to many subscribers, and every keyspace
 * notification): the message is encoded once into a buffer that keeps its
 * capacity between calls, then each subscriber gets those bytes with one
 * append to its reply buffer. Nothing is allocated per subscriber.
 */
#include "pubsub.h"

#include <algorithm>
#include <optional>

#include "notify.h"
#include "server.h"
#include "util.h"

namespace {

/* The first two elements of each kind of push, pre-encoded. */
constexpr std::string_view kSubscribeHeader = "*3\r\n$9\r\nsubscribe\r\n";
constexpr std::string_view kUnsubscribeHeader = "*3\r\n$11\r\nunsubscribe\r\n";
constexpr std::string_view kPsubscribeHeader = "*3\r\n$10\r\npsubscribe\r\n";
constexpr std::string_view kPunsubscribeHeader = "*3\r\n$12\r\npunsubscribe\r\n";
constexpr std::string_view kMessageHeader = "*3\r\n$7\r\nmessage\r\n";
constexpr std::string_view kPmessageHeader = "*4\r\n$8\r\npmessage\r\n";

/* Above this the encoding buffer is given back after a PUBLISH, so that one
 * huge message does not pin its size for the life of the server. */
constexpr size_t kPublishBufferKeep = 64 * 1024;

/* [kind, name, subscriptions left]; the name is nil for an UNSUBSCRIBE or
 * PUNSUBSCRIBE without arguments from a client with nothing to leave. */
void addReplyPubsubConfirmation(client *c, std::string_view header, std::optional<std::string_view> name,
                                size_t count) {
    addReply(c, header);
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

long long deliver(const std::vector<client *> &subscribers, std::string_view bytes, void (*received)(client *)) {
    for (client *c : subscribers) {
        addReplyProto(c, bytes.data(), bytes.size());
        if (received) received(c);
    }
    return static_cast<long long>(subscribers.size());
}

void unsubscribeGenericCommand(client *c, int (*all)(client *, bool),
                               bool (*one)(client *, std::string_view, bool)) {
    if (c->argv.size() == 1) all(c, true);
    else
        for (size_t j = 1; j < c->argv.size(); j++) one(c, c->argv[j], true);
    if (clientSubscriptionsCount(c) == 0) c->flags &= ~CLIENT_PUBSUB;
}

}  // namespace

size_t clientSubscriptionsCount(const client *c) { return c->pubsub_channels.size() + c->pubsub_patterns.size(); }

/* ========================================================================
 * Subscribing and unsubscribing
 * ====================================================================== */

bool pubsubSubscribeChannel(client *c, std::string_view channel) {
    bool added = c->pubsub_channels.addRaw(sds(channel)) != nullptr;
    if (added) addSubscriber(server.pubsub_channels, channel, c);
    addReplyPubsubConfirmation(c, kSubscribeHeader, channel, clientSubscriptionsCount(c));
    return added;
}

bool pubsubUnsubscribeChannel(client *c, std::string_view channel, bool notify) {
    /* Held to the end: `channel` may view this very entry's key (from
     * pubsubUnsubscribeAllChannels). */
    auto held = c->pubsub_channels.unlink(channel);
    if (held) removeSubscriber(server.pubsub_channels, channel, c);
    if (notify) addReplyPubsubConfirmation(c, kUnsubscribeHeader, channel, clientSubscriptionsCount(c));
    return held != nullptr;
}

bool pubsubSubscribePattern(client *c, std::string_view pattern) {
    auto &patterns = c->pubsub_patterns;
    bool added = std::find(patterns.begin(), patterns.end(), pattern) == patterns.end();
    if (added) {
        patterns.emplace_back(pattern);
        addSubscriber(server.pubsub_patterns, pattern, c);
    }
    addReplyPubsubConfirmation(c, kPsubscribeHeader, pattern, clientSubscriptionsCount(c));
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
    if (notify) addReplyPubsubConfirmation(c, kPunsubscribeHeader, pattern, clientSubscriptionsCount(c));
    return removed;
}

/* In the client's dict order, as Redis (whose order is its own dict's). */
int pubsubUnsubscribeAllChannels(client *c, bool notify) {
    int count = 0;
    for (auto &de : c->pubsub_channels.safe()) count += pubsubUnsubscribeChannel(c, de.key.view(), notify);
    if (notify && count == 0)
        addReplyPubsubConfirmation(c, kUnsubscribeHeader, std::nullopt, clientSubscriptionsCount(c));
    return count;
}

/* In subscription order, as Redis 7.0 (a list there too). */
int pubsubUnsubscribeAllPatterns(client *c, bool notify) {
    std::vector<sds> patterns = std::move(c->pubsub_patterns);
    c->pubsub_patterns.clear();
    size_t left = patterns.size();
    for (const sds &pattern : patterns) {
        removeSubscriber(server.pubsub_patterns, pattern, c);
        if (notify) addReplyPubsubConfirmation(c, kPunsubscribeHeader, pattern, c->pubsub_channels.size() + --left);
    }
    if (notify && patterns.empty())
        addReplyPubsubConfirmation(c, kPunsubscribeHeader, std::nullopt, clientSubscriptionsCount(c));
    return static_cast<int>(patterns.size());
}

/* ========================================================================
 * Publishing
 * ====================================================================== */

/* `buf` holds the encoded message and keeps its capacity between calls. */
static long long publishMessage(std::string_view channel, std::string_view message, void (*received)(client *),
                                std::string &buf) {
    long long receivers = 0;
    if (pubsubDict::entry *de = server.pubsub_channels.find(channel)) {
        buf.assign(kMessageHeader);
        appendBulk(buf, channel);
        appendBulk(buf, message);
        receivers += deliver(de->val, buf, received);
    }
    if (server.pubsub_patterns.size()) {
        for (auto &de : server.pubsub_patterns) {
            if (!stringmatchlen(de.key.view(), channel, false)) continue;
            buf.assign(kPmessageHeader);
            appendBulk(buf, de.key.view());
            appendBulk(buf, channel);
            appendBulk(buf, message);
            receivers += deliver(de.val, buf, received);
        }
    }
    if (buf.capacity() > kPublishBufferKeep) std::string().swap(buf);
    return receivers;
}

long long pubsubPublishMessage(std::string_view channel, std::string_view message) {
    static std::string buf;
    return publishMessage(channel, message, nullptr, buf);
}

/* A buffer of its own: a trace event may be emitted while a PUBLISH is
 * delivering from the other one (a subscriber cut off, say). */
long long pubsubPublishMessageVisit(std::string_view channel, std::string_view message, void (*received)(client *)) {
    static std::string buf;
    return publishMessage(channel, message, received, buf);
}

bool pubsubMayHaveReceivers(std::string_view channel) {
    return server.pubsub_patterns.size() != 0 || server.pubsub_channels.find(channel) != nullptr;
}

/* Keyspace notifications (notify.h) publish through this too. */
[[maybe_unused]] static const bool keyspace_event_publisher_registered =
    registerKeyspaceEventPublisher(pubsubPublishMessage);

/* ========================================================================
 * Commands
 * ====================================================================== */

void subscribeCommand(client *c) {
    for (size_t j = 1; j < c->argv.size(); j++) pubsubSubscribeChannel(c, c->argv[j]);
    c->flags |= CLIENT_PUBSUB;
}

void unsubscribeCommand(client *c) {
    unsubscribeGenericCommand(c, pubsubUnsubscribeAllChannels, pubsubUnsubscribeChannel);
}

void psubscribeCommand(client *c) {
    for (size_t j = 1; j < c->argv.size(); j++) pubsubSubscribePattern(c, c->argv[j]);
    c->flags |= CLIENT_PUBSUB;
}

void punsubscribeCommand(client *c) {
    unsubscribeGenericCommand(c, pubsubUnsubscribeAllPatterns, pubsubUnsubscribePattern);
}

/* The replicas get it too (Redis without cluster), the AOF not. */
void publishCommand(client *c) {
    addReplyLongLong(c, pubsubPublishMessage(c->argv[1], c->argv[2]));
    forceCommandPropagation(c, PROPAGATE_REPL);
}

/* PUBSUB CHANNELS [pattern]: the channels with at least one subscriber
 * (pattern subscriptions do not make a channel active). */
void pubsubChannelsCommand(client *c) {
    if (c->argv.size() > 3) return addReplySubcommandSyntaxError(c);
    std::optional<std::string_view> pattern;
    if (c->argv.size() == 3) pattern = c->argv[2];
    void *replylen = addReplyDeferredLen(c);
    long n = 0;
    for (auto &de : server.pubsub_channels) {
        if (pattern && !stringmatchlen(*pattern, de.key.view(), false)) continue;
        addReplyBulk(c, de.key.view());
        n++;
    }
    setDeferredArrayLen(c, replylen, n);
}

/* PUBSUB NUMSUB [channel ...]: channel, count, channel, count... */
void pubsubNumsubCommand(client *c) {
    addReplyArrayLen(c, static_cast<long long>(c->argv.size() - 2) * 2);
    for (size_t j = 2; j < c->argv.size(); j++) {
        pubsubDict::entry *de = server.pubsub_channels.find(c->argv[j]);
        addReplyBulk(c, c->argv[j]);
        addReplyLongLong(c, de ? static_cast<long long>(de->val.size()) : 0);
    }
}

/* PUBSUB NUMPAT: distinct patterns, however many clients share each. */
void pubsubNumpatCommand(client *c) {
    addReplyLongLong(c, static_cast<long long>(server.pubsub_patterns.size()));
}

/* Redis 7.0's text less SHARDCHANNELS / SHARDNUMSUB (sharded pub/sub is a
 * cluster feature cppredis does not have). */
void pubsubHelpCommand(client *c) {
    static const char *const help[] = {
        "CHANNELS [<pattern>]",
        "    Return the currently active channels matching a <pattern> (default: '*').",
        "NUMPAT",
        "    Return number of subscriptions to patterns.",
        "NUMSUB [<channel> ...]",
        "    Return the number of subscribers for the specified channels, excluding",
        "    pattern subscriptions(default: no channels).",
        nullptr};
    addReplyHelp(c, help);
}

/* A client being freed leaves every channel and pattern: the server's
 * subscriber lists point at it (networking.h, registerFreeClientProc). */
static void pubsubUnsubscribeAllOnFree(client *c) {
    pubsubUnsubscribeAllChannels(c, false);
    pubsubUnsubscribeAllPatterns(c, false);
}
[[maybe_unused]] static const bool unsubscribe_on_free_registered = registerFreeClientProc(pubsubUnsubscribeAllOnFree);

/* CONTRACT STUBS (issue 20): sharded pub/sub. */
void ssubscribeCommand(client *c) { addReplyError(c, "not implemented yet"); }
void sunsubscribeCommand(client *c) { addReplyError(c, "not implemented yet"); }
void spublishCommand(client *c) { addReplyError(c, "not implemented yet"); }
void pubsubShardChannelsCommand(client *c) { addReplyError(c, "not implemented yet"); }
void pubsubShardNumsubCommand(client *c) { addReplyError(c, "not implemented yet"); }
