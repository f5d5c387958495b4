/* tracking.cpp — client-side caching (Redis's tracking.c): CLIENT
 * TRACKING/CACHING/GETREDIR/TRACKINGINFO, the tracking and prefix tables
 * and the invalidation messages. See tracking.h for the tables. */
#include "tracking.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "db.h"
#include "networking.h"
#include "object.h"
#include "server.h"
#include "util.h"

namespace {

/* The tracking table: key name -> IDs of the clients that may cache it,
 * sorted (a set: reading a key twice remembers it once). */
dict<sds, std::vector<uint64_t>> TrackingTable;
/* IDs stored across the whole table (INFO tracking_total_items): a hint of
 * the memory the table takes. */
unsigned long long TrackingTableTotalItems = 0;

/* One prefix of the prefix table (Redis's bcastState). */
struct bcastState {
    /* Keys under the prefix modified in this event-loop iteration, in byte
     * order (the order of the message), each with the ID of the client that
     * modified it last (0: the server), which NOLOOP leaves it out for. */
    std::map<std::string, uint64_t, std::less<>> keys;
    std::vector<client *> clients; /* the BCAST clients subscribed to it */
};
std::map<std::string, bcastState, std::less<>> PrefixTable;

long long tracking_clients = 0; /* clients with CLIENT_TRACKING */

/* The invalidations for the current client deferred until its reply is
 * written: a key name, or nullopt for a flush. */
std::vector<std::optional<std::string>> tracking_pending_keys;

constexpr std::string_view kTrackingChannelName = "__redis__:invalidate";
constexpr uint64_t kTrackingModeFlags = CLIENT_TRACKING_BROKEN_REDIR | CLIENT_TRACKING_BCAST | CLIENT_TRACKING_OPTIN |
                                        CLIENT_TRACKING_OPTOUT | CLIENT_TRACKING_NOLOOP;

client *lookupClientByID(uint64_t id) {
    auto it = server.clients_index.find(id);
    return it == server.clients_index.end() ? nullptr : it->second;
}

/* The null a flush is announced with, in the tracking client's protocol
 * (Redis's shared.null[resp]). */
std::string_view nullProto(const client *c) { return c->resp == 2 ? "$-1\r\n" : "_\r\n"; }

/* Writes an invalidation for tracking client c: `payload` is one key name,
 * or with `proto` the RESP of the whole value (BCAST's array of keys, a
 * flush's null). It goes to c's REDIRECT client if it has one: that one
 * gone, c is told (RESP3) and nothing else is sent. A RESP3 receiver gets a
 * push; a RESP2 one only as a redirect target subscribed to something
 * (pub/sub mode), as a message on __redis__:invalidate; otherwise nothing
 * can reach it. */
void sendTrackingMessage(client *c, std::string_view payload, bool proto) {
    client *receiver = c;
    const bool redirected = c->client_tracking_redirection != 0;
    if (redirected) {
        receiver = lookupClientByID(c->client_tracking_redirection);
        if (!receiver) {
            c->flags |= CLIENT_TRACKING_BROKEN_REDIR;
            if (c->resp > 2) {
                clientPushingScope pushing(c);
                addReplyPushLen(c, 2);
                addReplyBulk(c, "tracking-redir-broken");
                addReplyLongLong(c, static_cast<long long>(c->client_tracking_redirection));
            }
            return;
        }
    }
    bool as_pubsub = receiver->resp == 2;
    if (as_pubsub && !(redirected && (receiver->flags & CLIENT_PUBSUB))) return;
    clientPushingScope pushing(receiver);
    if (as_pubsub) {
        addReplyPushLen(receiver, 3); /* "*3": a RESP2 pub/sub message */
        addReplyBulk(receiver, "message");
        addReplyBulk(receiver, kTrackingChannelName);
    } else {
        addReplyPushLen(receiver, 2);
        addReplyBulk(receiver, "invalidate");
    }
    if (proto) {
        addReplyProto(receiver, payload.data(), payload.size());
    } else {
        addReplyArrayLen(receiver, 1);
        addReplyBulk(receiver, payload);
    }
}

/* The current client's own invalidations wait while its command runs: they
 * would land in the middle of its reply (or of EXEC's). */
bool mustDeferFor(const client *target) {
    return target == server.current_client && server.execution_nesting > 0;
}

/* Queues a modified key for the BCAST clients of every prefix it has. */
void trackingRememberKeyToBroadcast(client *c, std::string_view key) {
    uint64_t by = c ? c->id : 0;
    for (auto &[prefix, bs] : PrefixTable) {
        if (!key.starts_with(prefix)) continue;
        auto it = bs.keys.find(key);
        if (it == bs.keys.end()) bs.keys.emplace(key, by);
        else it->second = by;
    }
}

/* Whether two prefixes would invalidate the same key: one begins the other. */
bool prefixesOverlap(std::string_view a, std::string_view b) {
    size_t n = std::min(a.size(), b.size());
    return a.substr(0, n) == b.substr(0, n);
}

/* False, after replying why, if a new prefix overlaps one the client has
 * or another new one: each key must belong to one prefix of a client.
 * (Redis 7.0.15, when the pair does not involve the first new prefix,
 * sends this error and then +OK, tracking on: two replies to one command,
 * which would desynchronise the client. The error alone is sent here.) */
bool checkPrefixCollisionsOrReply(client *c, const std::vector<std::string_view> &prefixes) {
    for (size_t i = 0; i < prefixes.size(); i++) {
        for (const std::string &existing : c->client_tracking_prefixes) {
            if (!prefixesOverlap(existing, prefixes[i])) continue;
            addReplyErrorFormat(c,
                                "Prefix '%s' overlaps with an existing prefix '%s'. Prefixes for a single client "
                                "must not overlap.",
                                std::string(prefixes[i]).c_str(), existing.c_str());
            return false;
        }
        for (size_t j = i + 1; j < prefixes.size(); j++) {
            if (!prefixesOverlap(prefixes[i], prefixes[j])) continue;
            addReplyErrorFormat(c,
                                "Prefix '%s' overlaps with another provided prefix '%s'. Prefixes for a single "
                                "client must not overlap.",
                                std::string(prefixes[i]).c_str(), std::string(prefixes[j]).c_str());
            return false;
        }
    }
    return true;
}

/* Subscribes c to `prefix` (nothing if it already is). c's own list stays
 * sorted, as Redis's rax of them (CLIENT TRACKINGINFO lists it). */
void enableBcastTrackingForPrefix(client *c, std::string_view prefix) {
    auto it = PrefixTable.find(prefix);
    if (it == PrefixTable.end()) it = PrefixTable.emplace(prefix, bcastState{}).first;
    std::vector<client *> &subscribers = it->second.clients;
    if (std::find(subscribers.begin(), subscribers.end(), c) != subscribers.end()) return;
    subscribers.push_back(c);
    std::vector<std::string> &mine = c->client_tracking_prefixes;
    mine.emplace(std::lower_bound(mine.begin(), mine.end(), prefix), prefix);
}

/* CLIENT TRACKING on: the modes are replaced, a BCAST client's prefixes
 * added to those it has. */
void enableTracking(client *c, uint64_t redirect_to, uint64_t options, const std::vector<std::string_view> &prefixes) {
    if (!(c->flags & CLIENT_TRACKING)) tracking_clients++;
    c->flags = (c->flags & ~kTrackingModeFlags) | CLIENT_TRACKING;
    c->client_tracking_redirection = redirect_to;
    if (options & CLIENT_TRACKING_BCAST) {
        c->flags |= CLIENT_TRACKING_BCAST;
        if (prefixes.empty()) enableBcastTrackingForPrefix(c, "");
        for (std::string_view prefix : prefixes) enableBcastTrackingForPrefix(c, prefix);
    }
    c->flags |= options & (CLIENT_TRACKING_OPTIN | CLIENT_TRACKING_OPTOUT | CLIENT_TRACKING_NOLOOP);
}

/* The RESP array of the keys in `keys`, without those `excluded` (a NOLOOP
 * client's ID; 0 excludes none) modified last; false if none is left. */
bool trackingBuildBroadcastReply(const std::map<std::string, uint64_t, std::less<>> &keys, uint64_t excluded,
                                 std::string &proto) {
    size_t count = excluded ? std::count_if(keys.begin(), keys.end(),
                                            [excluded](const auto &kv) { return kv.second != excluded; })
                            : keys.size();
    if (count == 0) return false;
    proto.assign("*").append(std::to_string(count)).append("\r\n");
    for (const auto &[key, by] : keys) {
        if (excluded && by == excluded) continue;
        proto.append("$").append(std::to_string(key.size())).append("\r\n").append(key).append("\r\n");
    }
    return true;
}

}  // namespace

/* A client being freed stops being tracked: the prefix table points at it
 * (networking.h, registerFreeClientProc). */
void freeClientTracking(client *c) {
    if (c->flags & CLIENT_TRACKING) disableTracking(c);
}

/* ========================================================================
 * Remembering and invalidating keys
 * ====================================================================== */

void trackingRememberKeys(client *c) {
    /* OPTIN remembers only after CLIENT CACHING yes, OPTOUT all but after
     * CLIENT CACHING no. */
    bool optin = c->flags & CLIENT_TRACKING_OPTIN, optout = c->flags & CLIENT_TRACKING_OPTOUT;
    bool caching_given = c->flags & CLIENT_TRACKING_CACHING;
    if ((optin && !caching_given) || (optout && caching_given)) return;
    /* Shard channels are keys only for the cluster's routing. */
    if (c->cmd->flags & CMD_PUBSUB) return;
    getKeysResult result;
    if (getKeysFromCommandWithSpecs(c->cmd, c->argv, GET_KEYSPEC_DEFAULT, &result) <= 0) return;
    for (const keyReference &ref : result.keys) {
        std::string_view key = c->argv[ref.pos];
        auto *de = TrackingTable.find(key);
        if (!de) de = TrackingTable.addRaw(sds(key));
        std::vector<uint64_t> &ids = de->val;
        auto pos = std::lower_bound(ids.begin(), ids.end(), c->id);
        if (pos != ids.end() && *pos == c->id) continue;
        ids.insert(pos, c->id);
        TrackingTableTotalItems++;
    }
}

void trackingInvalidateKey(client *c, std::string_view key, bool bcast) {
    if (bcast && !PrefixTable.empty()) trackingRememberKeyToBroadcast(c, key);
    if (TrackingTable.size() == 0) return;
    std::unique_ptr<dict<sds, std::vector<uint64_t>>::entry> de = TrackingTable.unlink(key);
    if (!de) return;
    TrackingTableTotalItems -= de->val.size();
    for (uint64_t id : de->val) {
        client *target = lookupClientByID(id);
        /* Gone, or no longer tracking in this mode: a client switching to
         * BCAST gets no leftover of its earlier reads. */
        if (!target || (target->flags & (CLIENT_TRACKING | CLIENT_TRACKING_BCAST)) != CLIENT_TRACKING) continue;
        if ((target->flags & CLIENT_TRACKING_NOLOOP) && target == server.current_client) continue;
        if (mustDeferFor(target)) tracking_pending_keys.emplace_back(std::string(key));
        else sendTrackingMessage(target, key, false);
    }
}

void trackingHandlePendingKeyInvalidations() {
    if (tracking_pending_keys.empty()) return;
    /* The current client may have been freed meanwhile (CLIENT KILL of
     * itself in a transaction): then there is nobody to tell. */
    if (client *c = server.current_client) {
        for (const std::optional<std::string> &key : tracking_pending_keys) {
            if (key) sendTrackingMessage(c, *key, false);
            else sendTrackingMessage(c, nullProto(c), true);
        }
    }
    tracking_pending_keys.clear();
}

void trackingInvalidateKeysOnFlush(bool) {
    if (tracking_clients) {
        for (const std::unique_ptr<client> &owned : server.clients) {
            client *c = owned.get();
            if (!(c->flags & CLIENT_TRACKING)) continue;
            if (mustDeferFor(c)) tracking_pending_keys.emplace_back(std::nullopt);
            else sendTrackingMessage(c, nullProto(c), true);
        }
    }
    TrackingTable.clear();
    TrackingTableTotalItems = 0;
}

/* Over tracking-table-max-keys, random keys are dropped from the table, and
 * their clients told as if the keys had changed (they would otherwise miss
 * the next change). The effort grows each time a run could not get under
 * the limit. */
void trackingLimitUsedSlots() {
    static unsigned int timeout_counter = 0;
    if (server.tracking_table_max_keys == 0) return;
    const size_t max_keys = static_cast<size_t>(server.tracking_table_max_keys);
    if (TrackingTable.size() <= max_keys) {
        timeout_counter = 0;
        return;
    }
    for (int effort = 100 * (timeout_counter + 1); effort > 0; effort--) {
        auto *de = TrackingTable.randomEntry();
        if (!de) break;
        std::string key(de->key.view());
        trackingInvalidateKey(nullptr, key, false);
        if (TrackingTable.size() <= max_keys) {
            timeout_counter = 0;
            return;
        }
    }
    timeout_counter++;
}

void trackingBroadcastInvalidationMessages() {
    if (!tracking_clients) return;
    static std::string proto, adhoc;
    for (auto &[prefix, bs] : PrefixTable) {
        if (bs.keys.empty()) continue;
        trackingBuildBroadcastReply(bs.keys, 0, proto);
        for (client *c : bs.clients) {
            if (!(c->flags & CLIENT_TRACKING_NOLOOP)) sendTrackingMessage(c, proto, true);
            else if (trackingBuildBroadcastReply(bs.keys, c->id, adhoc)) sendTrackingMessage(c, adhoc, true);
        }
        bs.keys.clear();
    }
}

void disableTracking(client *c) {
    for (const std::string &prefix : c->client_tracking_prefixes) {
        auto it = PrefixTable.find(prefix);
        std::vector<client *> &subscribers = it->second.clients;
        subscribers.erase(std::find(subscribers.begin(), subscribers.end(), c));
        if (subscribers.empty()) PrefixTable.erase(it);
    }
    c->client_tracking_prefixes.clear();
    if (c->flags & CLIENT_TRACKING) {
        tracking_clients--;
        c->flags &= ~(CLIENT_TRACKING | kTrackingModeFlags | CLIENT_TRACKING_CACHING);
    }
}

unsigned long long trackingGetTotalItems() { return TrackingTableTotalItems; }
unsigned long long trackingGetTotalKeys() { return TrackingTable.size(); }
unsigned long long trackingGetTotalPrefixes() { return PrefixTable.size(); }
long long trackingClientsCount() { return tracking_clients; }

/* ========================================================================
 * Commands
 * ====================================================================== */

/* CLIENT TRACKING ON|OFF [REDIRECT id] [PREFIX p ...] [BCAST] [OPTIN] [OPTOUT] [NOLOOP] */
void clientTrackingCommand(client *c) {
    long long redir = 0;
    uint64_t options = 0;
    std::vector<std::string_view> prefixes;
    for (size_t j = 3; j < c->argv.size(); j++) {
        std::string_view opt = c->argv[j];
        bool moreargs = j + 1 < c->argv.size();
        if (strEqualNoCase(opt, "redirect") && moreargs) {
            j++;
            if (redir != 0) return addReplyError(c, "A client can only redirect to a single other client");
            if (!getLongLongFromObjectOrReply(c, c->argv[j], &redir)) return;
            /* It may go away later (then the tracking client is told), but
             * it must exist now. */
            if (!lookupClientByID(static_cast<uint64_t>(redir)))
                return addReplyError(c, "The client ID you want redirect to does not exist");
        } else if (strEqualNoCase(opt, "bcast")) {
            options |= CLIENT_TRACKING_BCAST;
        } else if (strEqualNoCase(opt, "optin")) {
            options |= CLIENT_TRACKING_OPTIN;
        } else if (strEqualNoCase(opt, "optout")) {
            options |= CLIENT_TRACKING_OPTOUT;
        } else if (strEqualNoCase(opt, "noloop")) {
            options |= CLIENT_TRACKING_NOLOOP;
        } else if (strEqualNoCase(opt, "prefix") && moreargs) {
            prefixes.push_back(c->argv[++j]);
        } else {
            return addReplyErrorObject(c, shared::syntaxerr);
        }
    }
    if (strEqualNoCase(c->argv[2], "on")) {
        if (!(options & CLIENT_TRACKING_BCAST) && !prefixes.empty())
            return addReplyError(c, "PREFIX option requires BCAST mode to be enabled");
        if ((c->flags & CLIENT_TRACKING) && !(c->flags & CLIENT_TRACKING_BCAST) != !(options & CLIENT_TRACKING_BCAST))
            return addReplyError(c, "You can't switch BCAST mode on/off before disabling tracking for this client, "
                                    "and then re-enabling it with a different mode.");
        if ((options & CLIENT_TRACKING_BCAST) && (options & (CLIENT_TRACKING_OPTIN | CLIENT_TRACKING_OPTOUT)))
            return addReplyError(c, "OPTIN and OPTOUT are not compatible with BCAST");
        if ((options & CLIENT_TRACKING_OPTIN) && (options & CLIENT_TRACKING_OPTOUT))
            return addReplyError(c, "You can't specify both OPTIN mode and OPTOUT mode");
        if (((options & CLIENT_TRACKING_OPTIN) && (c->flags & CLIENT_TRACKING_OPTOUT)) ||
            ((options & CLIENT_TRACKING_OPTOUT) && (c->flags & CLIENT_TRACKING_OPTIN)))
            return addReplyError(c, "You can't switch OPTIN/OPTOUT mode before disabling tracking for this client, "
                                    "and then re-enabling it with a different mode.");
        if ((options & CLIENT_TRACKING_BCAST) && !checkPrefixCollisionsOrReply(c, prefixes)) return;
        enableTracking(c, static_cast<uint64_t>(redir), options, prefixes);
    } else if (strEqualNoCase(c->argv[2], "off")) {
        disableTracking(c);
    } else {
        return addReplyErrorObject(c, shared::syntaxerr);
    }
    addReply(c, shared::ok);
}

/* CLIENT CACHING YES|NO: whether the next command's keys are remembered
 * (OPTIN: yes; OPTOUT: no). resetClient drops it after that command. */
void clientCachingCommand(client *c) {
    if (!(c->flags & CLIENT_TRACKING))
        return addReplyError(c, "CLIENT CACHING can be called only when the client is in tracking mode with OPTIN or "
                                "OPTOUT mode enabled");
    std::string_view opt = c->argv[2];
    if (strEqualNoCase(opt, "yes")) {
        if (!(c->flags & CLIENT_TRACKING_OPTIN))
            return addReplyError(c, "CLIENT CACHING YES is only valid when tracking is enabled in OPTIN mode.");
    } else if (strEqualNoCase(opt, "no")) {
        if (!(c->flags & CLIENT_TRACKING_OPTOUT))
            return addReplyError(c, "CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.");
    } else {
        return addReplyErrorObject(c, shared::syntaxerr);
    }
    c->flags |= CLIENT_TRACKING_CACHING;
    addReply(c, shared::ok);
}

/* The REDIRECT client's ID, 0 for none, -1 if not tracking. */
static long long trackingRedirection(const client *c) {
    return (c->flags & CLIENT_TRACKING) ? static_cast<long long>(c->client_tracking_redirection) : -1;
}

void clientGetredirCommand(client *c) { addReplyLongLong(c, trackingRedirection(c)); }

void clientTrackingInfoCommand(client *c) {
    std::vector<const char *> flags{(c->flags & CLIENT_TRACKING) ? "on" : "off"};
    if (c->flags & CLIENT_TRACKING_BCAST) flags.push_back("bcast");
    if (c->flags & CLIENT_TRACKING_OPTIN) {
        flags.push_back("optin");
        if (c->flags & CLIENT_TRACKING_CACHING) flags.push_back("caching-yes");
    }
    if (c->flags & CLIENT_TRACKING_OPTOUT) {
        flags.push_back("optout");
        if (c->flags & CLIENT_TRACKING_CACHING) flags.push_back("caching-no");
    }
    if (c->flags & CLIENT_TRACKING_NOLOOP) flags.push_back("noloop");
    if (c->flags & CLIENT_TRACKING_BROKEN_REDIR) flags.push_back("broken_redirect");
    addReplyMapLen(c, 3);
    addReplyBulk(c, "flags");
    addReplySetLen(c, static_cast<long long>(flags.size()));
    for (const char *flag : flags) addReplyBulk(c, flag);
    addReplyBulk(c, "redirect");
    addReplyLongLong(c, trackingRedirection(c));
    addReplyBulk(c, "prefixes");
    addReplyArrayLen(c, static_cast<long long>(c->client_tracking_prefixes.size()));
    for (const std::string &prefix : c->client_tracking_prefixes) addReplyBulk(c, prefix);
}
