/* stream.h — the stream data structure (Redis 5+'s stream.h, with the "low
 * level stream encoding" and the consumer-group structures of t_stream.c):
 * an append-only log of entries, each a 128-bit ID and field-value pairs,
 * kept as Redis keeps it, and the consumer groups that read it. A plain data
 * structure: it knows nothing of the server (the commands are t_stream.h);
 * what it needs of the server (the time, stream-node-max-*) it is given.
 *
 * The layout, as Redis 5+ builds it:
 *   stream.tree   a rax keyed by the 16-byte big-endian ID of the first
 *                 entry of each node (the node's master ID); the value is a
 *                 listpack (owned) holding that node's entries:
 *
 *     master entry:  count deleted num-fields field_1 ... field_N 0
 *     each entry:    flags ms-diff seq-diff
 *                    [num-fields field_1 value_1 ... field_N value_N]  (no SAMEFIELDS)
 *                    [value_1 ... value_N]                            (SAMEFIELDS)
 *                    lp-count
 *
 *   count / deleted  the node's live and deleted (tombstoned) entries
 *   master fields    the field names of the node's first entry; an entry
 *                    with exactly those fields, in that order, stores only
 *                    its values (STREAM_ITEM_FLAG_SAMEFIELDS)
 *   ms-diff seq-diff the entry's ID minus the master ID, part by part
 *   flags            STREAM_ITEM_FLAG_* below
 *   lp-count         the number of listpack elements of the entry before
 *                    lp-count (3 + the rest), so the node can be walked
 *                    backwards
 *   A node takes new entries until it holds stream-node-max-entries
 *   entries (live or deleted) or stream-node-max-bytes bytes; then the
 *   next entry starts a new node, whose master entry repeats the new
 *   entry's fields.
 *
 * Invariants:
 *  - IDs only grow: every entry's ID is greater than last_id before it was
 *    added, and last_id never decreases (XSETID cannot move it back below
 *    the greatest ID in the stream).
 *  - `length` counts the live entries; a deleted entry stays in its node as
 *    a tombstone (flag DELETED, `deleted` counted) until its node is
 *    emptied, which removes the node from the tree.
 *  - first_id is the first live entry's ID (0-0 when the stream is empty).
 *  - A group's pel owns its streamNACKs; each NACK is also in the pel of
 *    exactly the consumer it names (same key), which does not own it.
 *  - Every pointer stored in a rax here is owned by the structure holding
 *    the rax and freed with it (~stream, ~streamCG).
 */
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "listpack.h"
#include "rax.h"
#include "sds.h"

/* A stream ID: milliseconds and a sequence number, ordered as a pair. */
struct streamID {
    uint64_t ms = 0;
    uint64_t seq = 0;
    auto operator<=>(const streamID &) const = default;
};

/* The rax key of an ID: 16 bytes, both parts big-endian, so that the
 * tree's byte order is the IDs' order. */
constexpr size_t STREAM_ID_BYTES = 16;
void streamEncodeID(unsigned char *buf, const streamID &id);
streamID streamDecodeID(const unsigned char *buf);
/* The next / previous ID; false, leaving `id` as it is, when there is none
 * (UINT64_MAX-UINT64_MAX / 0-0). */
bool streamIncrID(streamID *id);
bool streamDecrID(streamID *id);

/* The flags of an entry in a node. */
constexpr int STREAM_ITEM_FLAG_NONE = 0;
constexpr int STREAM_ITEM_FLAG_DELETED = 1 << 0;    /* a tombstone: skipped */
constexpr int STREAM_ITEM_FLAG_SAMEFIELDS = 1 << 1; /* the master entry's fields */

/* Redis's caps on one node's listpack: growth is preallocated up to 4 KB,
 * and no node grows past 1 GB whatever stream-node-max-bytes says. */
constexpr size_t STREAM_LISTPACK_MAX_PRE_ALLOCATE = 4096;
constexpr size_t STREAM_LISTPACK_MAX_SIZE = size_t{1} << 30;

/* What a node may hold: the stream-node-max-bytes and
 * stream-node-max-entries settings (0: no limit of that kind). */
struct streamNodeLimits {
    size_t max_bytes;
    long long max_entries;
};

/* ---- consumer groups ----------------------------------------------------- */
struct streamConsumer;

/* A delivered, not yet acknowledged entry of a group. */
struct streamNACK {
    long long delivery_time;  /* ms, the last delivery */
    uint64_t delivery_count;  /* deliveries so far */
    streamConsumer *consumer; /* the consumer of the last delivery */
};

struct streamConsumer {
    long long seen_time = 0; /* ms, its last read or claim */
    sds name;
    rax pel; /* ID -> streamNACK: its pending entries (the group's pel owns them) */
};

/* The value of streamCG::entries_read when it is not known. */
constexpr long long SCG_INVALID_ENTRIES_READ = -1;

struct streamCG {
    streamID last_id;        /* the last entry delivered to the group */
    long long entries_read;  /* logical reads so far, or SCG_INVALID_ENTRIES_READ */
    rax pel;                 /* ID -> streamNACK, owned */
    rax consumers;           /* name -> streamConsumer, owned */
    ~streamCG();
};

/* ---- the stream ----------------------------------------------------------- */
struct stream {
    rax tree;                       /* master ID -> listpack, owned (Redis's s->rax) */
    uint64_t length = 0;            /* live entries */
    streamID last_id;               /* the greatest ID ever added (or set by XSETID) */
    streamID first_id;              /* the first live entry's ID, 0-0 when empty */
    streamID max_deleted_entry_id;  /* the greatest ID deleted by XDEL (trimming leaves it, as Redis 7.0) */
    uint64_t entries_added = 0;     /* entries ever added */
    std::unique_ptr<rax> cgroups;   /* name -> streamCG, owned; created with the first group */
    stream() = default;
    ~stream();
    stream(const stream &) = delete;
    stream &operator=(const stream &) = delete;
};

/* A deep copy (COPY): nodes, groups, consumers and their pending entries. */
std::unique_ptr<stream> streamDup(const stream &s);

/* ---- adding, deleting, trimming --------------------------------------------- */
/* What streamAppendItem reports. */
enum class streamAppendResult {
    ok,
    id_not_greater, /* the ID given is equal or smaller than last_id (Redis's EDOM) */
    too_large,      /* the entry cannot fit a node (Redis's ERANGE) */
};
/* streamAppendItem: appends an entry of `fields_values` (field, value,
 * field, value...). Its ID is `use_id` when given (with `seq_given` false,
 * only use_id->ms was given: the sequence is the next one for that ms),
 * else the next ID after last_id at `now_ms` ("*"). The ID added is
 * returned in *added_id. The caller has checked that an ID is left
 * (last_id is not the greatest one) when none is given. */
streamAppendResult streamAppendItem(stream *s, std::span<const std::string_view> fields_values, long long now_ms,
                                    streamNodeLimits limits, streamID *added_id, const streamID *use_id,
                                    bool seq_given);
/* streamDeleteItem: tombstones the entry `id` with XDEL's bookkeeping
 * (length, first_id, max_deleted_entry_id); false when it is not there. */
bool streamDeleteItem(stream *s, const streamID &id);

/* How XADD and XTRIM trim (Redis's streamAddTrimArgs, its trimming half). */
constexpr int TRIM_STRATEGY_NONE = 0, TRIM_STRATEGY_MAXLEN = 1, TRIM_STRATEGY_MINID = 2;
struct streamTrimArgs {
    int strategy = TRIM_STRATEGY_NONE;
    bool approx = false;  /* "~": only whole nodes are removed */
    long long limit = 0;  /* at most this many entries removed (0: no limit) */
    long long maxlen = 0; /* MAXLEN: keep at most this many */
    streamID minid;       /* MINID: remove the entries below it */
};
/* streamTrim: removes entries from the start by the args; returns how many.
 * Whole nodes are dropped; with `approx` nothing more, otherwise the last
 * entries to go are tombstoned inside their node. */
int64_t streamTrim(stream *s, const streamTrimArgs &args);

/* streamGetEdgeID: the first (`first`) or last ID of the stream, counting
 * tombstones or not; with no such entry, the greatest ID for the first edge
 * and 0-0 for the last, as Redis. */
streamID streamGetEdgeID(stream *s, bool first, bool skip_tombstones);

/* ---- iterating ---------------------------------------------------------------- */
/* An iterator over the live entries between two IDs, forwards or backwards
 * (Redis's streamIterator). The stream must not be written while it is in
 * use, but through streamIteratorRemoveEntry. The strings it gives are
 * views into the node, or into the iterator's own buffers for integers:
 * valid until the next step. */
struct streamIterator {
    stream *s = nullptr;
    streamID master_id;              /* the current node's master ID */
    uint64_t master_fields_count = 0;
    lppos master_fields_start;       /* the master entry's first field */
    lppos master_fields_ptr;         /* the master field to give next */
    int entry_flags = 0;             /* the current entry's flags */
    bool rev = false;
    bool skip_tombstones = true;
    unsigned char start_key[STREAM_ID_BYTES];
    unsigned char end_key[STREAM_ID_BYTES];
    raxIterator ri;
    listpack *lp = nullptr;          /* the current node, or none */
    lppos lp_ele;                    /* the cursor in it */
    lppos lp_flags;                  /* the current entry's flags */
    char field_buf[24];              /* integers read back as strings */
    char value_buf[24];
};
/* streamIteratorStart: from `start` to `end`, both included (nullptr: the
 * stream's edge), in reverse order when `rev`. */
void streamIteratorStart(streamIterator *si, stream *s, const streamID *start, const streamID *end, bool rev);
/* streamIteratorGetID: steps to the next entry; false when none is left.
 * Gives its ID and how many field-value pairs to read with GetField: all of
 * them must be read before the next step (Redis's rule: the cursor walks
 * through them). */
bool streamIteratorGetID(streamIterator *si, streamID *id, int64_t *numfields);
/* streamIteratorGetField: the entry's next field and value. */
void streamIteratorGetField(streamIterator *si, std::string_view *field, std::string_view *value);
/* streamIteratorRemoveEntry: tombstones the current entry (for
 * streamDeleteItem, as in Redis; it updates only `length`, not first_id nor
 * max_deleted_entry_id); the iteration goes on after it. */
void streamIteratorRemoveEntry(streamIterator *si, streamID *current);

/* ---- consumer groups ------------------------------------------------------------ */
/* streamCreateCG: a new group at `id`; nullptr if `name` exists. */
streamCG *streamCreateCG(stream *s, std::string_view name, const streamID &id, long long entries_read);
streamCG *streamLookupCG(stream *s, std::string_view name); /* nullptr: none */
/* streamDestroyCG: removes and frees the group; false if there is none. */
bool streamDestroyCG(stream *s, std::string_view name);
/* streamCreateConsumer: a new consumer seen at `now_ms`; nullptr if it exists. */
streamConsumer *streamCreateConsumer(streamCG *cg, std::string_view name, long long now_ms);
streamConsumer *streamLookupConsumer(streamCG *cg, std::string_view name); /* nullptr: none */
/* streamDelConsumer: removes the consumer and its pending entries from the
 * group; returns how many were pending. */
uint64_t streamDelConsumer(streamCG *cg, streamConsumer *consumer);
/* streamCreateNACK: a NACK delivered once to `consumer` at `now_ms`, to be
 * inserted in the group's pel (which then owns it) and the consumer's. */
std::unique_ptr<streamNACK> streamCreateNACK(streamConsumer *consumer, long long now_ms);

/* streamEstimateDistanceFromFirstEverEntry: the number of entries added up
 * to `id` (the group's entries_read for it), when it can be known exactly;
 * SCG_INVALID_ENTRIES_READ otherwise (Redis 7.0's consumer group lag). */
long long streamEstimateDistanceFromFirstEverEntry(stream *s, const streamID &id);

/* ---- loading ------------------------------------------------------------------------ */
/* streamValidateListpackIntegrity: whether `lp`, a node read from an RDB
 * file under the master ID `master`, is a well-formed listpack holding a
 * well-formed stream node (master entry, entries whose IDs are not below
 * `master`, lp-counts that match), so that iterating it reads nothing out
 * of bounds. */
bool streamValidateListpackIntegrity(std::string_view lp, const streamID &master);
