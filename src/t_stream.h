/* t_stream.h — the stream type (Redis 5+'s t_stream.c, its command half):
 * the stream commands of Redis 7.0 with their replies and error texts, on
 * the data structure of stream.h, and what the keyspace, blocking,
 * persistence and COPY need of a stream value.
 *
 *   OBJ_ENCODING_STREAM  ptr owns a `stream` (stream.h); the only encoding
 *
 * Invariants:
 *  - Unlike the other types, a stream may be empty and stay in the
 *    keyspace (XDEL, XTRIM, XADD MAXLEN 0, XGROUP CREATE MKSTREAM): its
 *    last ID and groups must survive.
 *  - Every write calls signalModifiedKey, notifies its keyspace event and
 *    adds to server.dirty as Redis 7.0 does; XADD also signals the key as
 *    ready (signalKeyAsReady) for the clients blocked in XREAD/XREADGROUP.
 *  - XREADGROUP and XCLAIM change the group's state; they are propagated
 *    (AOF, replicas) as their effects, never as themselves: an XCLAIM ...
 *    per entry delivered, an XGROUP SETID for the group's new last ID, as
 *    Redis 7.0.
 */
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "networking.h" /* blockedServe */
#include "object.h"
#include "stream.h"

struct client;

inline stream &objectStream(const robj *o) { return *static_cast<stream *>(o->ptr); }

/* A new, empty stream value (Redis's createStreamObject). */
ObjRef createStreamObject();
unsigned long streamLength(const robj *o);
/* The limits of a new node, from stream-node-max-bytes/-entries. */
streamNodeLimits streamServerNodeLimits();

/* ---- IDs as arguments and replies --------------------------------------- */
/* Parses "ms-seq" or "ms" (the sequence then 0, or UINT64_MAX when
 * `missing_seq_max`: the end of a range), and "-" / "+"; replies "Invalid
 * stream ID specified as stream command argument" otherwise. */
bool streamParseIDOrReply(client *c, std::string_view arg, streamID *id, uint64_t missing_seq, bool *seq_given = nullptr);
/* An ID as a bulk string, "ms-seq". */
void addReplyStreamID(client *c, const streamID &id);

/* ---- ranges ------------------------------------------------------------- */
/* What streamReplyWithRange does beyond replying (Redis's STREAM_RWR_*). */
constexpr int STREAM_RWR_NOACK = 1 << 0;         /* XREADGROUP NOACK: no pending entries */
constexpr int STREAM_RWR_RAWENTRIES = 1 << 1;    /* count only, no reply */
constexpr int STREAM_RWR_HISTORY = 1 << 2;       /* from the consumer's pel, not the stream */
/* The key and group an XREADGROUP delivery is propagated under (XCLAIM). */
struct streamPropInfo {
    std::string_view keyname;
    std::string_view groupname;
};
/* streamReplyWithRange: replies the entries from `start` to `end` (nullptr:
 * the edges), at most `count` (0: all), reversed when `rev`, as an array of
 * [id, [field, value...]]; returns how many. With a group and a consumer
 * (XREADGROUP), every entry given becomes pending for the consumer (unless
 * NOACK), the group's last_id and entries_read move forward, and each
 * delivery is propagated through `spi` as Redis 7.0 propagates it. */
size_t streamReplyWithRange(client *c, stream *s, const streamID *start, const streamID *end, size_t count,
                            bool rev, streamCG *group, streamConsumer *consumer, int flags,
                            const streamPropInfo *spi);

/* ---- XREAD / XREADGROUP and blocking (blocked.h) ---------------------------
 * XREAD and XREADGROUP run here as far as they go without waiting; the
 * waiting itself is blocked.cpp's (xreadCommand), since the types sit a
 * layer below blocking. */
struct xreadBlockArgs {
    long long timeout_ms = 0;              /* BLOCK's milliseconds: 0 waits forever */
    std::vector<std::string_view> keys;    /* views into the client's argv */
    std::vector<streamID> ids;             /* per key: entries after this one wake it */
    long count = 0;                        /* COUNT, 0: no limit */
    std::optional<std::string_view> group; /* XREADGROUP's group and consumer */
    std::string_view consumer;
    bool noack = false;
};
/* Runs XREAD or XREADGROUP (c->argv) as far as it goes now: replies and
 * returns true (entries, an error, or the null reply when nothing is there
 * and the command may not block: no BLOCK, inside MULTI or a script);
 * otherwise replies nothing, fills `block` (each "$" or ">" resolved to the
 * stream's or the group's last ID) and returns false: the caller blocks
 * the client (BLOCKED_STREAM). */
bool xreadGenericCommand(client *c, xreadBlockArgs *block);
/* BLOCKED_STREAM's serve-one-waiter (registerBlockedType): `receiver`
 * waits on `key`, which holds the stream `o`. Replies and returns
 * blockedServe::served when an entry past the waiter's ID is there;
 * replies -NOGROUP and returns served when its group is gone; else
 * returns not_ready and the waiter goes on waiting. */
blockedServe serveClientBlockedOnStream(client *receiver, robj *o, std::string_view key);

/* The stream commands (the command table is in commands.cpp). */
void xaddCommand(client *c);
void xrangeCommand(client *c);
void xrevrangeCommand(client *c);
void xlenCommand(client *c);
void xdelCommand(client *c);
void xtrimCommand(client *c);
void xsetidCommand(client *c);
void xgroupCommand(client *c);     /* CREATE, SETID, DESTROY, CREATECONSUMER, DELCONSUMER, HELP */
void xackCommand(client *c);
void xpendingCommand(client *c);
void xclaimCommand(client *c);
void xautoclaimCommand(client *c);
void xinfoCommand(client *c);      /* STREAM [FULL [COUNT n]], GROUPS, CONSUMERS, HELP */
