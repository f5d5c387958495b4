/* stream.cpp — the stream data structure (Redis 7.0's t_stream.c, its
 * low-level half): stream IDs, appending entries to the radix tree of listpack
 * nodes (streamAppendItem), deleting (tombstones) and trimming, the stream
 * iterator, consumer groups, consumers and their pending entries (NACKs),
 * streamDup for COPY, and the deep check of a node read from an RDB file.
 *
 * The layout is stream.h's. What this file keeps true (Redis's names):
 *  - Node bytes: the same calls in the same order as Redis 7.0's t_stream.c
 *    (lpAppendInteger, lpAppend, lpReplaceInteger on the master entry's
 *    count and deleted fields, the flags replaced in place for a tombstone),
 *    so that the same XADD/XDEL/XTRIM sequence leaves the same listpacks as
 *    Redis, which its RDB files then share.
 *  - A node's master count + deleted is the number of entries after its
 *    master entry; count is the number of those not flagged DELETED, and a
 *    node whose last live entry is deleted through the iterator (XDEL) is
 *    removed from the tree. Exact trimming by MINID may leave a node whose
 *    entries are all tombstones, as Redis 7.0 does (its tombstoned last entry
 *    is not below MINID); iteration skips it like any tombstone.
 *  - stream.length is the sum of the nodes' counts; first_id is the first
 *    live entry (0-0 when length is 0); last_id only grows; entries_added
 *    counts every append; max_deleted_entry_id is the greatest ID deleted
 *    by XDEL (streamDeleteItem): trimming leaves it, as in Redis 7.0.
 *  - Ownership: the tree's values are listpacks made with
 *    std::make_unique<listpack>(...).release() and freed by ~stream; the
 *    groups (streamCG) by ~stream; a group's NACKs and consumers by
 *    ~streamCG; a consumer's pel only points at its group's NACKs.
 *  - Integers are read from a node with lpGetInteger, which also accepts an
 *    integer stored as a string (string2ll), as Redis's lpGetIntegerIfValid;
 *    only nodes checked by streamValidateListpackIntegrity (or built here)
 *    are read, so every read stays inside the node.
 */
#include "stream.h"

#include <cassert>
#include <cstring>
#include <optional>
#include <vector>

#include "util.h"

/* ---- IDs ------------------------------------------------------------------ */

void streamEncodeID(unsigned char *buf, const streamID &id) {
    for (int i = 0; i < 8; i++) {
        buf[i] = static_cast<unsigned char>(id.ms >> (56 - 8 * i));
        buf[8 + i] = static_cast<unsigned char>(id.seq >> (56 - 8 * i));
    }
}

streamID streamDecodeID(const unsigned char *buf) {
    streamID id;
    for (int i = 0; i < 8; i++) {
        id.ms = (id.ms << 8) | buf[i];
        id.seq = (id.seq << 8) | buf[8 + i];
    }
    return id;
}

static std::string_view streamIDKey(const unsigned char (&buf)[STREAM_ID_BYTES]) {
    return {reinterpret_cast<const char *>(buf), STREAM_ID_BYTES};
}

static streamID streamDecodeKey(std::string_view key) {
    assert(key.size() == STREAM_ID_BYTES);
    return streamDecodeID(reinterpret_cast<const unsigned char *>(key.data()));
}

bool streamIncrID(streamID *id) {
    if (id->seq != UINT64_MAX) {
        id->seq++;
    } else if (id->ms != UINT64_MAX) {
        id->ms++;
        id->seq = 0;
    } else {
        return false;
    }
    return true;
}

bool streamDecrID(streamID *id) {
    if (id->seq != 0) {
        id->seq--;
    } else if (id->ms != 0) {
        id->ms--;
        id->seq = UINT64_MAX;
    } else {
        return false;
    }
    return true;
}

/* ---- reading a node --------------------------------------------------------- */

/* lpGetIntegerIfValid: an element's integer, also when it is stored as a
 * string; false when it is not an integer. */
static bool lpGetIntegerIfValid(const ziplistEntry &e, int64_t *v) {
    if (e.isInt) {
        *v = e.lval;
        return true;
    }
    long long ll;
    if (!string2ll(e.sval, &ll)) return false;
    *v = ll;
    return true;
}

static int64_t lpGetInteger(const listpack &lp, lppos p) {
    int64_t v = 0;
    [[maybe_unused]] bool valid = lpGetIntegerIfValid(lpGet(lp, p), &v);
    assert(valid);
    return v;
}

/* lpGet with an integer printed into `buf`: the element as a string. */
static std::string_view lpGetString(const listpack &lp, lppos p, char (&buf)[24]) {
    ziplistEntry e = lpGet(lp, p);
    if (!e.isInt) return e.sval;
    return {buf, static_cast<size_t>(ll2string(buf, sizeof buf, e.lval))};
}

/* The master entry's first field; *master_fields_count its number of fields. */
static lppos lpMasterFieldsStart(const listpack &lp, int64_t *master_fields_count) {
    lppos p = lpFirst(lp);                         /* count */
    p = lpNext(lp, p);                             /* deleted */
    p = lpNext(lp, p);                             /* num-fields */
    *master_fields_count = lpGetInteger(lp, p);
    return lpNext(lp, p);
}

/* lpGetEdgeStreamID's last edge: the ID of a node's last entry, tombstone
 * or not; false when the node holds no entry. */
static bool lpGetLastStreamID(const listpack &lp, const streamID &master_id, streamID *last_id) {
    lppos p = lpLast(lp);
    int64_t lp_count = lpGetInteger(lp, p);
    if (lp_count == 0) return false; /* the master entry's terminator */
    while (lp_count--) p = lpPrev(lp, p);
    p = lpNext(lp, p); /* past the flags */
    streamID id = master_id;
    id.ms += static_cast<uint64_t>(lpGetInteger(lp, p));
    p = lpNext(lp, p);
    id.seq += static_cast<uint64_t>(lpGetInteger(lp, p));
    *last_id = id;
    return true;
}

/* ---- ownership ------------------------------------------------------------------ */

static void freeListpack(void *lp) { std::unique_ptr<listpack>(static_cast<listpack *>(lp)); }
static void streamFreeNACK(void *na) { std::unique_ptr<streamNACK>(static_cast<streamNACK *>(na)); }
/* The consumer's pel points at NACKs its group's pel owns. */
static void streamFreeConsumer(void *sc) { std::unique_ptr<streamConsumer>(static_cast<streamConsumer *>(sc)); }
static void streamFreeCG(void *cg) { std::unique_ptr<streamCG>(static_cast<streamCG *>(cg)); }

streamCG::~streamCG() {
    raxFreeWithCallback(&pel, streamFreeNACK);
    raxFreeWithCallback(&consumers, streamFreeConsumer);
}

stream::~stream() {
    raxFreeWithCallback(&tree, freeListpack);
    if (cgroups) raxFreeWithCallback(cgroups.get(), streamFreeCG);
}

/* ---- appending ------------------------------------------------------------------- */

/* streamNextID: the ID "*" gives at now_ms; it wraps to 0-0 after the
 * greatest ID, which the caller's check then refuses. */
static streamID streamNextID(const streamID &last_id, long long now_ms) {
    uint64_t ms = static_cast<uint64_t>(now_ms);
    if (ms > last_id.ms) return {ms, 0};
    streamID id = last_id;
    if (!streamIncrID(&id)) id = {};
    return id;
}

/* Whether the next entry must start a new node (Redis's checks, in order:
 * the bytes, then the entries, live and deleted). */
static bool streamNodeIsFull(const listpack &lp, size_t totelelen, const streamNodeLimits &limits) {
    size_t node_max_bytes = limits.max_bytes;
    if (node_max_bytes == 0 || node_max_bytes > STREAM_LISTPACK_MAX_SIZE) node_max_bytes = STREAM_LISTPACK_MAX_SIZE;
    if (lpBytes(lp) + totelelen >= node_max_bytes) return true;
    if (limits.max_entries == 0) return false;
    lppos p = lpFirst(lp);
    int64_t count = lpGetInteger(lp, p) + lpGetInteger(lp, lpNext(lp, p));
    return count >= limits.max_entries;
}

/* A new node whose master entry has the entry's fields; its count is
 * already 1, for the entry about to be appended. */
static std::unique_ptr<listpack> streamNewNode(std::span<const std::string_view> fields_values,
                                               const streamNodeLimits &limits) {
    size_t prealloc = STREAM_LISTPACK_MAX_PRE_ALLOCATE;
    if (limits.max_bytes > 0 && limits.max_bytes < prealloc) prealloc = limits.max_bytes;
    auto lp = std::make_unique<listpack>(lpNew(prealloc));
    const size_t numfields = fields_values.size() / 2;
    lpAppendInteger(*lp, 1); /* count */
    lpAppendInteger(*lp, 0); /* deleted */
    lpAppendInteger(*lp, static_cast<long long>(numfields));
    for (size_t i = 0; i < numfields; i++) lpAppend(*lp, fields_values[2 * i]);
    lpAppendInteger(*lp, 0); /* the master entry's terminator */
    return lp;
}

/* Counts the entry in an existing node's master entry; returns whether its
 * fields are the master fields (STREAM_ITEM_FLAG_SAMEFIELDS). */
static bool streamNodeAddEntry(listpack &lp, std::span<const std::string_view> fields_values) {
    lppos p = lpFirst(lp);
    lpReplaceInteger(lp, p, lpGetInteger(lp, p) + 1);
    int64_t master_fields_count;
    p = lpMasterFieldsStart(lp, &master_fields_count);
    if (static_cast<size_t>(master_fields_count) != fields_values.size() / 2) return false;
    char buf[24];
    for (int64_t i = 0; i < master_fields_count; i++, p = lpNext(lp, p))
        if (lpGetString(lp, p, buf) != fields_values[2 * i]) return false;
    return true;
}

streamAppendResult streamAppendItem(stream *s, std::span<const std::string_view> fields_values, long long now_ms,
                                    streamNodeLimits limits, streamID *added_id, const streamID *use_id,
                                    bool seq_given) {
    streamID id;
    if (!use_id) {
        id = streamNextID(s->last_id, now_ms);
    } else if (seq_given) {
        id = *use_id;
    } else if (s->last_id.ms == use_id->ms) {
        /* "ms-*" at the last ID's ms: the next sequence, if there is one. */
        if (s->last_id.seq == UINT64_MAX) return streamAppendResult::id_not_greater;
        id = {s->last_id.ms, s->last_id.seq + 1};
    } else {
        id = {use_id->ms, 0};
    }
    if (id <= s->last_id) return streamAppendResult::id_not_greater;

    /* A listpack holds strings and a total below 4 GB: refuse what could
     * not fit a node. */
    size_t totelelen = 0;
    for (std::string_view ele : fields_values) totelelen += ele.size();
    if (totelelen > STREAM_LISTPACK_MAX_SIZE) return streamAppendResult::too_large;

    /* The tail node. The iterator outlives the call so that its key and
     * path keep their capacity: an XADD allocates nothing to seek it (the
     * server is single-threaded; raxStart forgets the previous tree). */
    static raxIterator ri;
    raxStart(&ri, &s->tree);
    raxSeek(&ri, "$");
    listpack *lp = raxNext(&ri) ? static_cast<listpack *>(ri.data) : nullptr;
    if (lp && streamNodeIsFull(*lp, totelelen, limits)) {
        lpShrinkToFit(*lp); /* it takes no more entries: give back the preallocation */
        lp = nullptr;
    }

    streamID master_id;
    int flags = STREAM_ITEM_FLAG_NONE;
    if (!lp) {
        master_id = id;
        unsigned char key[STREAM_ID_BYTES];
        streamEncodeID(key, id);
        lp = streamNewNode(fields_values, limits).release();
        raxInsert(&s->tree, streamIDKey(key), lp);
        flags |= STREAM_ITEM_FLAG_SAMEFIELDS;
    } else {
        master_id = streamDecodeKey(ri.key);
        if (streamNodeAddEntry(*lp, fields_values)) flags |= STREAM_ITEM_FLAG_SAMEFIELDS;
    }

    /* flags ms-diff seq-diff [num-fields field_1] value_1 ... lp-count */
    const bool samefields = flags & STREAM_ITEM_FLAG_SAMEFIELDS;
    const auto numfields = static_cast<long long>(fields_values.size() / 2);
    lpAppendInteger(*lp, flags);
    lpAppendInteger(*lp, static_cast<long long>(id.ms - master_id.ms));
    lpAppendInteger(*lp, static_cast<long long>(id.seq - master_id.seq));
    if (!samefields) lpAppendInteger(*lp, numfields);
    for (long long i = 0; i < numfields; i++) {
        if (!samefields) lpAppend(*lp, fields_values[2 * i]);
        lpAppend(*lp, fields_values[2 * i + 1]);
    }
    lpAppendInteger(*lp, samefields ? numfields + 3 : 2 * numfields + 4);

    s->length++;
    s->entries_added++;
    s->last_id = id;
    if (s->length == 1) s->first_id = id;
    if (added_id) *added_id = id;
    return streamAppendResult::ok;
}

/* ---- iterating ----------------------------------------------------------------------- */

void streamIteratorStart(streamIterator *si, stream *s, const streamID *start, const streamID *end, bool rev) {
    if (start) {
        streamEncodeID(si->start_key, *start);
    } else {
        std::memset(si->start_key, 0, sizeof si->start_key);
    }
    if (end) {
        streamEncodeID(si->end_key, *end);
    } else {
        std::memset(si->end_key, 0xff, sizeof si->end_key);
    }

    /* The node that may hold the first entry to give: the last one whose
     * master ID is not after the bound, or the edge node. */
    raxStart(&si->ri, &s->tree);
    const streamID *bound = rev ? end : start;
    if (bound && *bound != streamID{}) {
        raxSeek(&si->ri, "<=", streamIDKey(rev ? si->end_key : si->start_key));
        if (raxEOF(&si->ri)) raxSeek(&si->ri, rev ? "$" : "^");
    } else {
        raxSeek(&si->ri, rev ? "$" : "^");
    }
    si->s = s;
    si->lp = nullptr;
    si->lp_ele = {};
    si->rev = rev;
    si->skip_tombstones = true;
}

/* Moves to the next node in the iteration's direction, its cursor on the
 * master entry's terminator (forwards) or on the node's last lp-count
 * (backwards); false when there is none. */
static bool streamIteratorNextNode(streamIterator *si) {
    if (!(si->rev ? raxPrev(&si->ri) : raxNext(&si->ri))) return false;
    si->master_id = streamDecodeKey(si->ri.key);
    si->lp = static_cast<listpack *>(si->ri.data);
    int64_t master_fields_count;
    si->lp_ele = lpMasterFieldsStart(*si->lp, &master_fields_count);
    si->master_fields_count = static_cast<uint64_t>(master_fields_count);
    si->master_fields_start = si->lp_ele;
    if (si->rev) {
        si->lp_ele = lpLast(*si->lp);
    } else {
        for (uint64_t i = 0; i < si->master_fields_count; i++) si->lp_ele = lpNext(*si->lp, si->lp_ele);
    }
    return true;
}

bool streamIteratorGetID(streamIterator *si, streamID *id, int64_t *numfields) {
    for (;;) {
        const listpack *lp = si->lp;
        if (!lp || !si->lp_ele) {
            if (!streamIteratorNextNode(si)) return false;
            lp = si->lp;
        } else if (si->rev) {
            /* Back over the entry given last, to the lp-count before it. */
            int64_t lp_count = lpGetInteger(*lp, si->lp_ele);
            while (lp_count--) si->lp_ele = lpPrev(*lp, si->lp_ele);
            si->lp_ele = lpPrev(*lp, si->lp_ele);
        }

        for (;;) {
            if (!si->rev) {
                /* Past the previous lp-count (or the master terminator). */
                si->lp_ele = lpNext(*lp, si->lp_ele);
                if (!si->lp_ele) break;
            } else {
                int64_t lp_count = lpGetInteger(*lp, si->lp_ele);
                if (lp_count == 0) { /* the master entry: this node is done */
                    si->lp = nullptr;
                    si->lp_ele = {};
                    break;
                }
                while (lp_count--) si->lp_ele = lpPrev(*lp, si->lp_ele);
            }

            si->lp_flags = si->lp_ele;
            int64_t flags = lpGetInteger(*lp, si->lp_ele);
            si->lp_ele = lpNext(*lp, si->lp_ele);
            *id = si->master_id;
            id->ms += static_cast<uint64_t>(lpGetInteger(*lp, si->lp_ele));
            si->lp_ele = lpNext(*lp, si->lp_ele);
            id->seq += static_cast<uint64_t>(lpGetInteger(*lp, si->lp_ele));
            si->lp_ele = lpNext(*lp, si->lp_ele);
            unsigned char buf[STREAM_ID_BYTES];
            streamEncodeID(buf, *id);

            const bool samefields = flags & STREAM_ITEM_FLAG_SAMEFIELDS;
            if (samefields) {
                *numfields = static_cast<int64_t>(si->master_fields_count);
            } else {
                *numfields = lpGetInteger(*lp, si->lp_ele);
                si->lp_ele = lpNext(*lp, si->lp_ele);
            }
            assert(*numfields >= 0);

            const bool visible = !si->skip_tombstones || !(flags & STREAM_ITEM_FLAG_DELETED);
            const unsigned char *near = si->rev ? si->end_key : si->start_key;
            const unsigned char *far = si->rev ? si->start_key : si->end_key;
            const int near_cmp = std::memcmp(buf, near, STREAM_ID_BYTES);
            if ((si->rev ? near_cmp <= 0 : near_cmp >= 0) && visible) {
                const int far_cmp = std::memcmp(buf, far, STREAM_ID_BYTES);
                if (si->rev ? far_cmp < 0 : far_cmp > 0) return false; /* past the range */
                si->entry_flags = static_cast<int>(flags);
                if (samefields) si->master_fields_ptr = si->master_fields_start;
                return true;
            }

            /* Not given: skip it forwards, or go back to the lp-count of
             * the entry before it (flags, ms, seq [, num-fields], then one). */
            if (!si->rev) {
                int64_t to_discard = samefields ? *numfields : *numfields * 2;
                while (to_discard--) si->lp_ele = lpNext(*lp, si->lp_ele);
            } else {
                int prev_times = samefields ? 4 : 5;
                while (prev_times--) si->lp_ele = lpPrev(*lp, si->lp_ele);
            }
        }
    }
}

void streamIteratorGetField(streamIterator *si, std::string_view *field, std::string_view *value) {
    const listpack &lp = *si->lp;
    if (si->entry_flags & STREAM_ITEM_FLAG_SAMEFIELDS) {
        *field = lpGetString(lp, si->master_fields_ptr, si->field_buf);
        si->master_fields_ptr = lpNext(lp, si->master_fields_ptr);
    } else {
        *field = lpGetString(lp, si->lp_ele, si->field_buf);
        si->lp_ele = lpNext(lp, si->lp_ele);
    }
    *value = lpGetString(lp, si->lp_ele, si->value_buf);
    si->lp_ele = lpNext(lp, si->lp_ele);
}

/* Flags the entry DELETED and moves it from the node's count to its
 * deleted; the node goes when it was its last live entry. Only
 * stream.length is updated here (first_id and max_deleted_entry_id are
 * streamDeleteItem's, as XDEL's in Redis). */
void streamIteratorRemoveEntry(streamIterator *si, streamID *current) {
    listpack &lp = *si->lp;
    lpReplaceInteger(lp, si->lp_flags, lpGetInteger(lp, si->lp_flags) | STREAM_ITEM_FLAG_DELETED);

    lppos p = lpFirst(lp);
    int64_t count = lpGetInteger(lp, p);
    if (count == 1) {
        raxRemove(&si->s->tree, si->ri.key);
        freeListpack(si->lp);
    } else {
        lpReplaceInteger(lp, p, count - 1);
        p = lpNext(lp, p);
        lpReplaceInteger(lp, p, lpGetInteger(lp, p) + 1);
    }
    si->s->length--;

    /* The tree or the node changed: seek again, from the entry removed
     * (now skipped) to the same far bound. */
    streamID start, end;
    if (si->rev) {
        start = streamDecodeID(si->start_key);
        end = *current;
    } else {
        start = *current;
        end = streamDecodeID(si->end_key);
    }
    streamIteratorStart(si, si->s, &start, &end, si->rev);
}

/* ---- deleting, trimming, edges ------------------------------------------------------------ */

streamID streamGetEdgeID(stream *s, bool first, bool skip_tombstones) {
    streamIterator si;
    streamIteratorStart(&si, s, nullptr, nullptr, !first);
    si.skip_tombstones = skip_tombstones;
    streamID id;
    int64_t numfields;
    if (streamIteratorGetID(&si, &id, &numfields)) return id;
    return first ? streamID{UINT64_MAX, UINT64_MAX} : streamID{};
}

bool streamDeleteItem(stream *s, const streamID &id) {
    streamIterator si;
    streamIteratorStart(&si, s, &id, &id, false);
    streamID myid;
    int64_t numfields;
    if (!streamIteratorGetID(&si, &myid, &numfields)) return false;
    streamIteratorRemoveEntry(&si, &myid);

    /* XDEL's bookkeeping. */
    if (id > s->max_deleted_entry_id) s->max_deleted_entry_id = id;
    if (s->length == 0) {
        s->first_id = {};
    } else if (id == s->first_id) {
        s->first_id = streamGetEdgeID(s, true, true);
    }
    return true;
}

/* Exact trimming inside the first node that must stay: tombstones its
 * live entries from the start until the strategy is met; returns how many. */
static int64_t streamTrimNode(stream *s, listpack &lp, const streamID &master_id, const streamTrimArgs &args) {
    int64_t master_fields_count;
    lppos p = lpMasterFieldsStart(lp, &master_fields_count);
    for (int64_t j = 0; j < master_fields_count; j++) p = lpNext(lp, p);
    p = lpNext(lp, p); /* past the terminator: the first entry's flags */

    int64_t deleted_from_lp = 0;
    while (p) {
        const lppos flags_pos = p;
        int64_t flags = lpGetInteger(lp, p);
        p = lpNext(lp, p);
        streamID currid = master_id;
        currid.ms += static_cast<uint64_t>(lpGetInteger(lp, p));
        p = lpNext(lp, p);
        currid.seq += static_cast<uint64_t>(lpGetInteger(lp, p));
        p = lpNext(lp, p);

        const bool stop = args.strategy == TRIM_STRATEGY_MAXLEN
                              ? s->length <= static_cast<uint64_t>(args.maxlen)
                              : currid >= args.minid; /* the rest are greater still */
        if (stop) break;

        int64_t to_skip = master_fields_count;
        if (!(flags & STREAM_ITEM_FLAG_SAMEFIELDS)) {
            to_skip = lpGetInteger(lp, p) * 2;
            p = lpNext(lp, p);
        }
        while (to_skip--) p = lpNext(lp, p);
        p = lpNext(lp, p); /* past lp-count */

        if (!(flags & STREAM_ITEM_FLAG_DELETED)) {
            /* The flags keep their one-byte size: positions after stay valid. */
            lpReplaceInteger(lp, flags_pos, flags | STREAM_ITEM_FLAG_DELETED);
            deleted_from_lp++;
            s->length--;
        }
    }

    p = lpFirst(lp);
    lpReplaceInteger(lp, p, lpGetInteger(lp, p) - deleted_from_lp);
    p = lpNext(lp, p);
    lpReplaceInteger(lp, p, lpGetInteger(lp, p) + deleted_from_lp);
    return deleted_from_lp;
}

int64_t streamTrim(stream *s, const streamTrimArgs &args) {
    if (args.strategy == TRIM_STRATEGY_NONE) return 0;
    const auto maxlen = static_cast<uint64_t>(args.maxlen);

    raxIterator ri;
    raxStart(&ri, &s->tree);
    raxSeek(&ri, "^");
    int64_t deleted = 0;
    while (raxNext(&ri)) {
        if (args.strategy == TRIM_STRATEGY_MAXLEN && s->length <= maxlen) break;

        auto *lp = static_cast<listpack *>(ri.data);
        const int64_t entries = lpGetInteger(*lp, lpFirst(*lp));
        if (args.limit && deleted + entries > args.limit) break; /* the work allowed is done */

        const streamID master_id = streamDecodeKey(ri.key);
        bool remove_node;
        if (args.strategy == TRIM_STRATEGY_MAXLEN) {
            remove_node = s->length - static_cast<uint64_t>(entries) >= maxlen;
        } else {
            streamID last_id; /* the node's last entry, tombstone or not */
            lpGetLastStreamID(*lp, master_id, &last_id);
            remove_node = last_id < args.minid;
        }

        if (remove_node) {
            raxRemove(&s->tree, ri.key);
            freeListpack(lp);
            raxSeek(&ri, ">=", ri.key);
            s->length -= static_cast<uint64_t>(entries);
            deleted += entries;
            continue;
        }

        /* Approximate trimming removes whole nodes only. */
        if (!args.approx) deleted += streamTrimNode(s, *lp, master_id, args);
        break;
    }

    if (s->length == 0) {
        s->first_id = {};
    } else if (deleted) {
        s->first_id = streamGetEdgeID(s, true, true);
    }
    return deleted;
}

/* ---- consumer groups -------------------------------------------------------------------- */

streamCG *streamCreateCG(stream *s, std::string_view name, const streamID &id, long long entries_read) {
    if (!s->cgroups) s->cgroups = std::make_unique<rax>();
    if (raxFind(s->cgroups.get(), name) != raxNotFound) return nullptr;
    auto cg = std::make_unique<streamCG>();
    cg->last_id = id;
    cg->entries_read = entries_read;
    raxInsert(s->cgroups.get(), name, cg.get());
    return cg.release();
}

streamCG *streamLookupCG(stream *s, std::string_view name) {
    if (!s->cgroups) return nullptr;
    void *cg = raxFind(s->cgroups.get(), name);
    return cg == raxNotFound ? nullptr : static_cast<streamCG *>(cg);
}

bool streamDestroyCG(stream *s, std::string_view name) {
    void *cg;
    if (!s->cgroups || !raxRemove(s->cgroups.get(), name, &cg)) return false;
    streamFreeCG(cg);
    return true;
}

streamConsumer *streamCreateConsumer(streamCG *cg, std::string_view name, long long now_ms) {
    if (raxFind(&cg->consumers, name) != raxNotFound) return nullptr;
    auto consumer = std::make_unique<streamConsumer>();
    consumer->name = sds(name);
    consumer->seen_time = now_ms;
    raxInsert(&cg->consumers, name, consumer.get());
    return consumer.release();
}

streamConsumer *streamLookupConsumer(streamCG *cg, std::string_view name) {
    void *consumer = raxFind(&cg->consumers, name);
    return consumer == raxNotFound ? nullptr : static_cast<streamConsumer *>(consumer);
}

uint64_t streamDelConsumer(streamCG *cg, streamConsumer *consumer) {
    const uint64_t pending = raxSize(&consumer->pel);
    raxIterator ri;
    raxStart(&ri, &consumer->pel);
    raxSeek(&ri, "^");
    while (raxNext(&ri)) {
        raxRemove(&cg->pel, ri.key);
        streamFreeNACK(ri.data);
    }
    raxRemove(&cg->consumers, consumer->name.view());
    streamFreeConsumer(consumer);
    return pending;
}

std::unique_ptr<streamNACK> streamCreateNACK(streamConsumer *consumer, long long now_ms) {
    return std::make_unique<streamNACK>(streamNACK{now_ms, 1, consumer});
}

/* ---- COPY ------------------------------------------------------------------------------------ */

/* A node's copy, appended element by element: listpacks built by this
 * writer (or Redis's) encode each value one way only, so the bytes are the
 * same. */
static std::unique_ptr<listpack> lpDupNode(const listpack &src) {
    auto lp = std::make_unique<listpack>(lpNew(lpBytes(src)));
    for (lppos p = lpFirst(src); p; p = lpNext(src, p)) {
        ziplistEntry e = lpGet(src, p);
        if (e.isInt) {
            lpAppendInteger(*lp, e.lval);
        } else {
            lpAppend(*lp, e.sval);
        }
    }
    return lp;
}

/* The group's pel copied, then each consumer with its pel pointing at the
 * copied NACKs. */
static void streamDupCG(stream *dst, std::string_view name, const streamCG &cg) {
    streamCG *new_cg = streamCreateCG(dst, name, cg.last_id, cg.entries_read);
    raxIterator ri;
    raxStart(&ri, const_cast<rax *>(&cg.pel));
    raxSeek(&ri, "^");
    while (raxNext(&ri)) {
        auto nack = std::make_unique<streamNACK>(*static_cast<const streamNACK *>(ri.data));
        nack->consumer = nullptr; /* set below by the consumer whose pel holds it */
        raxInsert(&new_cg->pel, ri.key, nack.release());
    }

    raxStart(&ri, const_cast<rax *>(&cg.consumers));
    raxSeek(&ri, "^");
    while (raxNext(&ri)) {
        const auto *consumer = static_cast<const streamConsumer *>(ri.data);
        streamConsumer *new_consumer = streamCreateConsumer(new_cg, ri.key, consumer->seen_time);
        raxIterator cri;
        raxStart(&cri, const_cast<rax *>(&consumer->pel));
        raxSeek(&cri, "^");
        while (raxNext(&cri)) {
            auto *nack = static_cast<streamNACK *>(raxFind(&new_cg->pel, cri.key));
            assert(nack != raxNotFound);
            nack->consumer = new_consumer;
            raxInsert(&new_consumer->pel, cri.key, nack);
        }
    }
}

std::unique_ptr<stream> streamDup(const stream &s) {
    auto copy = std::make_unique<stream>();
    raxIterator ri;
    raxStart(&ri, const_cast<rax *>(&s.tree));
    raxSeek(&ri, "^");
    while (raxNext(&ri)) raxInsert(&copy->tree, ri.key, lpDupNode(*static_cast<listpack *>(ri.data)).release());
    copy->length = s.length;
    copy->first_id = s.first_id;
    copy->last_id = s.last_id;
    copy->max_deleted_entry_id = s.max_deleted_entry_id;
    copy->entries_added = s.entries_added;
    if (!s.cgroups) return copy;

    raxStart(&ri, s.cgroups.get());
    raxSeek(&ri, "^");
    while (raxNext(&ri)) streamDupCG(copy.get(), ri.key, *static_cast<const streamCG *>(ri.data));
    return copy;
}

/* ---- consumer group lag ------------------------------------------------------------------------ */

long long streamEstimateDistanceFromFirstEverEntry(stream *s, const streamID &id) {
    /* Every ID of a stream that never had an entry is at 0. */
    if (!s->entries_added) return 0;
    /* An empty stream: every ID up to its last is at entries_added. */
    if (!s->length && id <= s->last_id) return static_cast<long long>(s->entries_added);
    if (id == s->last_id) return static_cast<long long>(s->entries_added);
    if (id > s->last_id) return SCG_INVALID_ENTRIES_READ; /* the future */

    /* With no tombstone from the first entry on, the entries before the
     * first one are exactly those added and gone. */
    const bool no_tombstones = s->max_deleted_entry_id == streamID{} || s->max_deleted_entry_id < s->first_id;
    if (no_tombstones) {
        const auto gone = static_cast<long long>(s->entries_added - s->length);
        if (id < s->first_id) return gone;
        if (id == s->first_id) return gone + 1;
    }
    /* Somewhere inside the stream, or before a tombstone: unknown. */
    return SCG_INVALID_ENTRIES_READ;
}

/* ---- loading ------------------------------------------------------------------------------------- */

/* A walk over a decoded node that fails, rather than reads past its end. */
struct streamNodeReader {
    const std::vector<ziplistEntry> &ele;
    size_t pos = 0;

    bool integer(int64_t *v) { return pos < ele.size() && lpGetIntegerIfValid(ele[pos++], v); }
    bool count(int64_t *v) { return integer(v) && *v >= 0; }
    bool skip(int64_t n) {
        if (static_cast<uint64_t>(n) > ele.size() - pos) return false;
        pos += static_cast<size_t>(n);
        return true;
    }
};

/* One entry: flags ms-diff seq-diff [num-fields fields] values lp-count,
 * its ID above the previous one (the master ID for the first). */
/* An entry's ID parts are differences from the node's master ID (not from
 * the previous entry), the sequence one possibly negative. */
static bool streamValidateEntry(streamNodeReader &r, int64_t master_fields, const streamID &master, streamID *prev,
                                bool first) {
    int64_t flags, ms_diff, seq_diff, lp_count;
    if (!r.integer(&flags) || !r.integer(&ms_diff) || !r.integer(&seq_diff)) return false;
    streamID id{master.ms + static_cast<uint64_t>(ms_diff), master.seq + static_cast<uint64_t>(seq_diff)};
    if (first ? id < *prev : id <= *prev) return false;
    *prev = id;

    int64_t fields = master_fields, extra_fields = 3;
    if (!(flags & STREAM_ITEM_FLAG_SAMEFIELDS)) {
        if (!r.count(&fields) || !r.skip(fields)) return false;
        extra_fields += fields + 1;
    }
    if (!r.skip(fields) || !r.integer(&lp_count)) return false;
    return lp_count == fields + extra_fields;
}

bool streamValidateListpackIntegrity(std::string_view lp, const streamID &master) {
    std::optional<std::vector<ziplistEntry>> decoded = lpDecode(lp);
    if (!decoded) return false;
    streamNodeReader r{*decoded};

    /* The master entry: count deleted num-fields field_1 ... field_N 0 */
    int64_t count, deleted, master_fields, zero;
    if (!r.count(&count) || !r.count(&deleted) || !r.count(&master_fields)) return false;
    if (!r.skip(master_fields) || !r.integer(&zero) || zero != 0) return false;
    if (static_cast<uint64_t>(count) + static_cast<uint64_t>(deleted) > decoded->size()) return false;

    streamID prev = master;
    for (int64_t i = 0; i < count + deleted; i++)
        if (!streamValidateEntry(r, master_fields, master, &prev, i == 0)) return false;
    return r.pos == decoded->size(); /* nothing after the last entry */
}
