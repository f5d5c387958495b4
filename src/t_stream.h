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

/* The stream's row of the objects' table (object.h): its free, dup,
 * size and scan (installServerHooks files it with registerObjectType). */
extern const objectType streamObjectType;

inline stream &objectStream(const robj *o) { return *static_cast<stream *>(o->ptr); }

/* A new, empty stream value (Redis's createStreamObject). */
ObjRef createStreamObject();
unsigned long streamLength(const robj *o);
/* The limits of a new node, from stream-node-max-bytes/-entries. */
streamNodeLimits streamServerNodeLimits();

/* ---- IDs as arguments and replies --------------------------------------- */
/* Parses "ms-seq" or "ms" (the sequence then `missing_seq`: 0, or
 * UINT64_MAX for the end of a range), and "-" / "+"; replies "Invalid
 * stream ID specified as stream command argument" otherwise. With
 * `seq_given`, "ms-*" is accepted too (*seq_given false, the sequence 0). */
bool streamParseIDOrReply(client *c, std::string_view arg, streamID *id, uint64_t missing_seq, bool *seq_given = nullptr);
/* The strict form (Redis's streamParseStrictIDOrReply: XADD, XDEL, XACK,
 * XCLAIM, XSETID, MINID...): "-" and "+" are refused as well. */
bool streamParseStrictIDOrReply(client *c, std::string_view arg, streamID *id, uint64_t missing_seq,
                                bool *seq_given = nullptr);
/* A range's bound (XRANGE, XPENDING, XAUTOCLAIM): "(" in front makes it
 * exclusive (*exclude), the rest then parsed strictly; with `exclude`
 * null, no "(" is recognized. */
bool streamParseIntervalIDOrReply(client *c, std::string_view arg, streamID *id, bool *exclude,
                                  uint64_t missing_seq);
/* An ID as a bulk string, "ms-seq". */
void addReplyStreamID(client *c, const streamID &id);

/* ---- ranges ------------------------------------------------------------- */
/* What streamReplyWithRange does beyond replying (Redis's STREAM_RWR_*). */
constexpr int STREAM_RWR_NOACK = 1 << 0;         /* XREADGROUP NOACK: no pending entries */
constexpr int STREAM_RWR_RAWENTRIES = 1 << 1;    /* the entries alone, no array around them */
constexpr int STREAM_RWR_HISTORY = 1 << 2;       /* from the consumer's pel, not the stream */
/* The key and group an XREADGROUP delivery is propagated under (XCLAIM). */
struct streamPropInfo {
    std::string_view keyname;
    std::string_view groupname;
};
/* Whether a tombstone may lie between `start` and `end` (nullptr: the
 * edges), judged from max_deleted_entry_id alone as Redis 7.0 does: a
 * group's entries_read can only be counted on across a range without. */
bool streamRangeHasTombstones(stream *s, const streamID *start, const streamID *end);

/* ---- propagating a group's state (AOF), as Redis 7.0 ------------------------
 * What XREADGROUP and XCLAIM change is propagated as its effects:
 *   XCLAIM key group consumer 0 id TIME ms RETRYCOUNT n FORCE JUSTID LASTID id
 *     for one pending entry (streamPropagateXCLAIM),
 *   XGROUP SETID key group id ENTRIESREAD n  for the group's last ID when
 *     no XCLAIM carried it (NOACK) (streamPropagateGroupID),
 *   XGROUP CREATECONSUMER key group consumer  for a consumer a NOACK read
 *     created (streamPropagateConsumerCreation). */
void streamPropagateXCLAIM(client *c, std::string_view key, const streamCG *group, std::string_view groupname,
                           const streamID &id, const streamNACK *nack);
void streamPropagateGroupID(client *c, std::string_view key, const streamCG *group, std::string_view groupname);
void streamPropagateConsumerCreation(client *c, std::string_view key, std::string_view groupname,
                                     std::string_view consumername);
/* A new consumer of `cg` on `key` (nullptr if it exists), as Redis 7.0's
 * streamCreateConsumer: seen now, and unless told otherwise (SCC_*) it
 * counts in server.dirty and notifies "xgroup-createconsumer". */
constexpr int SCC_DEFAULT = 0, SCC_NO_NOTIFY = 1 << 0, SCC_NO_DIRTIFY = 1 << 1;
streamConsumer *streamCreateConsumer(streamCG *cg, std::string_view name, std::string_view key, int dbid,
                                     int flags);
/* The consumer `name` of `cg` (nullptr: none), its seen_time refreshed
 * unless SLC_NO_REFRESH, as Redis 7.0's streamLookupConsumer. */
constexpr int SLC_DEFAULT = 0, SLC_NO_REFRESH = 1 << 0;
streamConsumer *streamLookupConsumer(streamCG *cg, std::string_view name, int flags);

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
    long count = 0;                        /* COUNT, or 1000 when none (XREAD_BLOCKED_DEFAULT_COUNT) */
    std::optional<std::string_view> group; /* XREADGROUP's group and consumer */
    std::string_view consumer;
    bool noack = false;
};
/* Runs XREAD or XREADGROUP (c->argv) as far as it goes now: replies and
 * returns true (entries, an error, or the null reply when nothing is there
 * and the command may not block: no BLOCK, inside MULTI or a script, where
 * BLOCK is an error); otherwise replies nothing, fills `block` (each "$"
 * resolved to the stream's last ID; ">" stays the greatest ID, the waiter
 * reading past its group's last ID when it wakes) and returns false: the
 * caller blocks the client (BLOCKED_STREAM). */
bool xreadGenericCommand(client *c, xreadBlockArgs *block);
/* BLOCKED_STREAM's serve-one-waiter (blocked.cpp's key_waiter_types): `receiver`
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
