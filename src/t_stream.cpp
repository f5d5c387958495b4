/* t_stream.cpp — the stream type's commands: Redis 5+'s t_stream.c, its
 * command half (the data structure, nodes, iterators and groups, is
 * stream.cpp), serving Redis 7.0's stream commands with their options,
 * replies and error texts.
 *
 * The first part is the type and its plain commands: the stream value (its row
 * of the types' operations: free, COPY, MEMORY USAGE), IDs as arguments
 * and replies, streamReplyWithRange (which XREADGROUP and XCLAIM share),
 * XADD, XRANGE, XREVRANGE, XLEN, XDEL, XTRIM, XSETID, and XREAD/XREADGROUP
 * up to the waiting (blocked.cpp's xreadCommand blocks, and wakes through
 * serveClientBlockedOnStream). The second is consumer groups' commands
 * and XINFO.
 *
 * Invariants kept here (t_stream.h has the type's own):
 *  - A stream stays in the keyspace however empty: XDEL, XTRIM and XADD
 *    MAXLEN 0 leave it, with its last ID, counters and groups.
 *  - What a replay must reproduce exactly is propagated exactly: XADD with
 *    the ID it produced, an approximate trim as the exact one it turned
 *    out to be, XREADGROUP as XCLAIMs and XGROUP SETID/CREATECONSUMER
 *    (XREAD and XREADGROUP never as themselves).
 *  - A read moves its group's last ID forward only (XGROUP SETID may set
 *    it anywhere); each entry a read delivers without NOACK is pending in
 *    the group's pel and in exactly the reading consumer's.
 */
#include "t_stream.h"

#include <algorithm>
#include <climits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "notify.h"
#include "server.h"

/* ========================================================================
 * The stream type and its commands: XADD, XRANGE, XREVRANGE, XLEN, XDEL,
 * XTRIM, XSETID, XREAD/XREADGROUP (without the waiting: blocked.cpp)
 * ====================================================================== */

/* ---- the stream value ----------------------------------------------------- */

ObjRef createStreamObject() { return createObject(OBJ_STREAM, OBJ_ENCODING_STREAM, new stream()); }

unsigned long streamLength(const robj *o) { return objectStream(o).length; }

streamNodeLimits streamServerNodeLimits() {
    return {static_cast<size_t>(server.stream_node_max_bytes), server.stream_node_max_entries};
}

static void freeStreamObject(robj *o) { delete &objectStream(o); }

static ObjRef streamDupObject(const robj *o) {
    return createObject(OBJ_STREAM, OBJ_ENCODING_STREAM, streamDup(objectStream(o)).release());
}

/* The bytes a rax's nodes hold: each node's block, its label when too
 * long to live in the node, its array of children. Redis estimates its own
 * rax from a node count; this one is measured, walking the tree with a
 * stack of its own (a tree is as deep as its longest key, a consumer's
 * name, say). */
static size_t raxAllocatedSize(const rax &r) {
    size_t size = 0;
    std::vector<const raxNode *> todo{r.head.get()};
    while (!todo.empty()) {
        const raxNode *n = todo.back();
        todo.pop_back();
        size += malloc_usable_size(const_cast<raxNode *>(n));
        if (n->labelOnHeap()) size += malloc_usable_size(const_cast<char *>(n->label().data()));
        auto children = n->children();
        if (!children.empty()) size += malloc_usable_size(const_cast<std::unique_ptr<raxNode> *>(children.data()));
        for (const auto &child : children) todo.push_back(child.get());
    }
    return size;
}

/* One node of the stream: the listpack object and its buffer. */
static size_t streamNodeAllocatedSize(void *node) {
    auto *lp = static_cast<listpack *>(node);
    return malloc_usable_size(lp) + malloc_usable_size(const_cast<unsigned char *>(lp->data()));
}

/* A group: its block, its pel (the NACKs are all one size: one is
 * measured), its consumers with their names and pels. */
static size_t streamCGAllocatedSize(streamCG *cg) {
    size_t size = malloc_usable_size(cg) + raxAllocatedSize(cg->pel) + raxAllocatedSize(cg->consumers);
    raxIterator ri;
    raxStart(&ri, &cg->pel);
    if (raxSeek(&ri, "^") && raxNext(&ri)) size += malloc_usable_size(ri.data) * raxSize(&cg->pel);
    raxStart(&ri, &cg->consumers);
    raxSeek(&ri, "^");
    while (raxNext(&ri)) {
        auto *consumer = static_cast<streamConsumer *>(ri.data);
        size += malloc_usable_size(consumer) + consumer->name.allocSize() + raxAllocatedSize(consumer->pel);
    }
    return size;
}

/* MEMORY USAGE of a stream, as Redis's objectComputeSize measures one,
 * over what cppredis allocates: the stream, its tree, `samples` nodes
 * whose average stands for all but the last one (often not full, so
 * measured itself; 0 measures every node), and every group. */
static size_t streamObjectComputeSize(const robj *o, size_t samples) {
    stream &s = objectStream(o);
    size_t size = malloc_usable_size(&s) + raxAllocatedSize(s.tree);
    raxIterator ri;
    raxStart(&ri, &s.tree);
    raxSeek(&ri, "^");
    size_t nodes = 0, measured = 0;
    while ((samples == 0 || measured < samples) && raxNext(&ri)) {
        nodes += streamNodeAllocatedSize(ri.data);
        measured++;
    }
    if (s.tree.numele <= measured) {
        size += nodes;
    } else {
        size += nodes / measured * (s.tree.numele - 1);
        raxSeek(&ri, "$");
        raxNext(&ri);
        size += streamNodeAllocatedSize(ri.data);
    }
    if (s.cgroups) {
        size += malloc_usable_size(s.cgroups.get()) + raxAllocatedSize(*s.cgroups);
        raxStart(&ri, s.cgroups.get());
        raxSeek(&ri, "^");
        while (raxNext(&ri)) size += streamCGAllocatedSize(static_cast<streamCG *>(ri.data));
    }
    return size;
}

/* Lazy freeing's cost of a stream (Redis's estimate, in constant time):
 * one allocation per tree node, and per group its own plus its pending
 * entries, the first group's count standing for every group's. */
static size_t streamFreeEffort(const robj *o) {
    const stream &s = objectStream(o);
    size_t effort = s.tree.numnodes;
    if (s.cgroups && s.cgroups->numele) {
        raxIterator ri;
        raxStart(&ri, s.cgroups.get());
        raxSeek(&ri, "^");
        raxNext(&ri);
        effort += s.cgroups->numele * (1 + static_cast<const streamCG *>(ri.data)->pel.numele);
    }
    return effort;
}

const objectType streamObjectType = {.free = freeStreamObject,
                                     .dup = streamDupObject,
                                     .computeSize = streamObjectComputeSize,
                                     .scan = nullptr, /* no XSCAN */
                                     .scan_pairs = false,
                                     .freeEffort = streamFreeEffort};

/* ---- IDs as arguments and replies ------------------------------------------ */

/* "ms-seq": two 20-digit numbers and the dash fit. */
constexpr size_t STREAM_ID_STR_LEN = 44;

static std::string_view streamIDString(const streamID &id, char (&buf)[STREAM_ID_STR_LEN]) {
    int len = ull2string(buf, sizeof(buf), id.ms);
    buf[len++] = '-';
    len += ull2string(buf + len, sizeof(buf) - len, id.seq);
    return {buf, static_cast<size_t>(len)};
}

void addReplyStreamID(client *c, const streamID &id) {
    char buf[STREAM_ID_STR_LEN];
    addReplyBulk(c, streamIDString(id, buf));
}

/* Redis's streamGenericParseIDOrReply, with no reply when `c` is null.
 * Redis reads the argument as a C string: it ends at a NUL byte. */
static bool streamGenericParseIDOrReply(client *c, std::string_view arg, streamID *id, uint64_t missing_seq,
                                        bool strict, bool *seq_given) {
    auto invalid = [c] {
        if (c) addReplyError(c, "Invalid stream ID specified as stream command argument");
        return false;
    };
    if (arg.size() > 127) return invalid();
    arg = arg.substr(0, arg.find('\0'));
    if (strict && (arg == "-" || arg == "+")) return invalid();
    if (seq_given) *seq_given = true;
    if (arg == "-") {
        *id = {0, 0};
        return true;
    }
    if (arg == "+") {
        *id = {UINT64_MAX, UINT64_MAX};
        return true;
    }
    size_t dash = arg.find('-');
    unsigned long long ms, seq = missing_seq;
    if (!string2ull(arg.substr(0, dash), &ms)) return invalid();
    if (dash != std::string_view::npos) {
        std::string_view rest = arg.substr(dash + 1);
        if (seq_given && rest == "*") {
            seq = 0;
            *seq_given = false;
        } else if (!string2ull(rest, &seq)) {
            return invalid();
        }
    }
    *id = {ms, seq};
    return true;
}

bool streamParseIDOrReply(client *c, std::string_view arg, streamID *id, uint64_t missing_seq, bool *seq_given) {
    return streamGenericParseIDOrReply(c, arg, id, missing_seq, false, seq_given);
}

bool streamParseStrictIDOrReply(client *c, std::string_view arg, streamID *id, uint64_t missing_seq,
                                bool *seq_given) {
    return streamGenericParseIDOrReply(c, arg, id, missing_seq, true, seq_given);
}

bool streamParseIntervalIDOrReply(client *c, std::string_view arg, streamID *id, bool *exclude,
                                  uint64_t missing_seq) {
    if (exclude) *exclude = arg.size() > 1 && arg[0] == '(';
    if (exclude && *exclude) return streamParseStrictIDOrReply(c, arg.substr(1), id, missing_seq);
    return streamParseIDOrReply(c, arg, id, missing_seq);
}

/* ---- consumer groups: what the commands add to stream.h's --------------------- */

bool streamRangeHasTombstones(stream *s, const streamID *start, const streamID *end) {
    if (!s->length || s->max_deleted_entry_id == streamID{}) return false;
    /* The latest tombstone is before the first entry. */
    if (s->first_id > s->max_deleted_entry_id) return false;
    streamID start_id = start ? *start : streamID{};
    streamID end_id = end ? *end : streamID{UINT64_MAX, UINT64_MAX};
    return start_id <= s->max_deleted_entry_id && s->max_deleted_entry_id <= end_id;
}

streamConsumer *streamCreateConsumer(streamCG *cg, std::string_view name, std::string_view key, int dbid,
                                     int flags) {
    streamConsumer *consumer = streamCreateConsumer(cg, name, mstime());
    if (!consumer) return nullptr;
    if (!(flags & SCC_NO_DIRTIFY)) server.dirty++;
    if (!(flags & SCC_NO_NOTIFY)) notifyKeyspaceEvent(NOTIFY_STREAM, "xgroup-createconsumer", key, dbid);
    return consumer;
}

streamConsumer *streamLookupConsumer(streamCG *cg, std::string_view name, int flags) {
    streamConsumer *consumer = streamLookupConsumer(cg, name);
    if (consumer && !(flags & SLC_NO_REFRESH)) consumer->seen_time = mstime();
    return consumer;
}

void streamPropagateXCLAIM(client *c, std::string_view key, const streamCG *group, std::string_view groupname,
                           const streamID &id, const streamNACK *nack) {
    char idbuf[STREAM_ID_STR_LEN], lastidbuf[STREAM_ID_STR_LEN], timebuf[LONG_STR_SIZE], countbuf[LONG_STR_SIZE];
    std::string_view time(timebuf, ll2string(timebuf, sizeof(timebuf), nack->delivery_time));
    std::string_view count(countbuf, ull2string(countbuf, sizeof(countbuf), nack->delivery_count));
    /* Idempotent, whatever the replica's state: FORCE creates the entry,
     * JUSTID spares it fetching the entry. */
    alsoPropagate(c->db->id, {"XCLAIM", key, groupname, nack->consumer->name.view(), "0", streamIDString(id, idbuf),
                              "TIME", time, "RETRYCOUNT", count, "FORCE", "JUSTID", "LASTID",
                              streamIDString(group->last_id, lastidbuf)});
}

void streamPropagateGroupID(client *c, std::string_view key, const streamCG *group, std::string_view groupname) {
    char idbuf[STREAM_ID_STR_LEN], readbuf[LONG_STR_SIZE];
    std::string_view entries_read(readbuf, ll2string(readbuf, sizeof(readbuf), group->entries_read));
    alsoPropagate(c->db->id, {"XGROUP", "SETID", key, groupname, streamIDString(group->last_id, idbuf), "ENTRIESREAD",
                              entries_read});
}

void streamPropagateConsumerCreation(client *c, std::string_view key, std::string_view groupname,
                                     std::string_view consumername) {
    alsoPropagate(c->db->id, {"XGROUP", "CREATECONSUMER", key, groupname, consumername});
}

/* ---- ranges ------------------------------------------------------------------------ */

/* The entry `id` was delivered to `consumer` of `group`: pending now for
 * it, whether it was pending for nobody (a new NACK) or for another
 * consumer (XGROUP SETID moved the group back: the NACK changes hands and
 * starts over), and propagated as an XCLAIM. */
static void streamTrackDelivery(client *c, streamCG *group, streamConsumer *consumer, const streamID &id,
                                const streamPropInfo *spi) {
    unsigned char buf[STREAM_ID_BYTES];
    streamEncodeID(buf, id);
    std::string_view key(reinterpret_cast<const char *>(buf), sizeof(buf));
    std::unique_ptr<streamNACK> created = streamCreateNACK(consumer, mstime());
    void *existing = nullptr;
    streamNACK *nack;
    if (raxTryInsert(&group->pel, key, created.get(), &existing)) {
        nack = created.release(); /* the group's pel owns it now */
    } else {
        nack = static_cast<streamNACK *>(existing);
        raxRemove(&nack->consumer->pel, key);
        nack->consumer = consumer;
        nack->delivery_time = created->delivery_time;
        nack->delivery_count = 1;
    }
    raxInsert(&consumer->pel, key, nack);
    if (spi) streamPropagateXCLAIM(c, spi->keyname, group, spi->groupname, id, nack);
}

/* The group read past its last ID: it moves to `id`, and its entries_read
 * counts one more when that count is known and nothing ahead is deleted,
 * or is estimated afresh (Redis 7.0's lag tracking). */
static void streamAdvanceGroup(stream *s, streamCG *group, const streamID &id) {
    if (group->entries_read != SCG_INVALID_ENTRIES_READ && !streamRangeHasTombstones(s, &id, nullptr))
        group->entries_read++;
    else if (s->entries_added)
        group->entries_read = streamEstimateDistanceFromFirstEverEntry(s, id);
    group->last_id = id;
}

static size_t streamReplyWithRangeFromConsumerPEL(client *c, stream *s, const streamID *start,
                                                  const streamID *end, size_t count, streamConsumer *consumer);

size_t streamReplyWithRange(client *c, stream *s, const streamID *start, const streamID *end, size_t count,
                            bool rev, streamCG *group, streamConsumer *consumer, int flags,
                            const streamPropInfo *spi) {
    /* A consumer reading its history sees its own pending entries only. */
    if (group && (flags & STREAM_RWR_HISTORY))
        return streamReplyWithRangeFromConsumerPEL(c, s, start, end, count, consumer);

    bool noack = flags & STREAM_RWR_NOACK, propagate_last_id = false;
    void *arraylen_ptr = (flags & STREAM_RWR_RAWENTRIES) ? nullptr : addReplyDeferredLen(c);
    size_t arraylen = 0;
    streamIterator si;
    streamIteratorStart(&si, s, start, end, rev);
    streamID id;
    int64_t numfields;
    while (streamIteratorGetID(&si, &id, &numfields)) {
        if (group && id > group->last_id) {
            streamAdvanceGroup(s, group, id);
            /* Without NOACK the XCLAIMs carry the last ID (LASTID). */
            if (noack) propagate_last_id = true;
        }
        addReplyArrayLen(c, 2);
        addReplyStreamID(c, id);
        addReplyArrayLen(c, numfields * 2);
        while (numfields--) {
            std::string_view field, value;
            streamIteratorGetField(&si, &field, &value);
            addReplyBulk(c, field);
            addReplyBulk(c, value);
        }
        if (group && !noack) streamTrackDelivery(c, group, consumer, id, spi);
        if (++arraylen == count) break;
    }
    if (spi && propagate_last_id) streamPropagateGroupID(c, spi->keyname, group, spi->groupname);
    if (arraylen_ptr) setDeferredArrayLen(c, arraylen_ptr, arraylen);
    return arraylen;
}

/* XREADGROUP with an ID: the consumer's pending entries from `start`,
 * each delivered once more. An entry deleted meanwhile (XDEL, trimming)
 * is still pending: its ID comes with a null array for its fields. */
static size_t streamReplyWithRangeFromConsumerPEL(client *c, stream *s, const streamID *start,
                                                  const streamID *end, size_t count, streamConsumer *consumer) {
    unsigned char startkey[STREAM_ID_BYTES], endkey[STREAM_ID_BYTES];
    streamEncodeID(startkey, *start);
    if (end) streamEncodeID(endkey, *end);
    std::string_view endview(reinterpret_cast<const char *>(endkey), sizeof(endkey));
    size_t arraylen = 0;
    void *arraylen_ptr = addReplyDeferredLen(c);
    raxIterator ri;
    raxStart(&ri, &consumer->pel);
    raxSeek(&ri, ">=", std::string_view(reinterpret_cast<const char *>(startkey), sizeof(startkey)));
    while (raxNext(&ri) && (!count || arraylen < count)) {
        if (end && std::string_view(ri.key) > endview) break;
        streamID thisid = streamDecodeID(reinterpret_cast<const unsigned char *>(ri.key.data()));
        if (streamReplyWithRange(c, s, &thisid, &thisid, 1, false, nullptr, nullptr, STREAM_RWR_RAWENTRIES,
                                 nullptr) == 0) {
            addReplyArrayLen(c, 2);
            addReplyStreamID(c, thisid);
            addReplyNullArray(c);
        } else {
            auto *nack = static_cast<streamNACK *>(ri.data);
            nack->delivery_time = mstime();
            nack->delivery_count++;
        }
        arraylen++;
    }
    setDeferredArrayLen(c, arraylen_ptr, static_cast<long>(arraylen));
    return arraylen;
}

/* ---- XADD and XTRIM: their options -------------------------------------------------- */

/* What XADD and XTRIM were asked (Redis's streamAddTrimArgs). */
struct streamAddTrimArgs {
    streamTrimArgs trim;
    size_t trim_strategy_arg_idx = 0; /* the MAXLEN/MINID argument, rewritten for the AOF */
    /* XADD only. */
    streamID id;
    bool id_given = false;
    bool seq_given = false; /* "ms-*" says false */
    bool no_mkstream = false;
};

/* MAXLEN/MINID's value, after an optional "~" (approximate) or "=". */
static size_t parseTrimOperator(client *c, size_t i, streamAddTrimArgs *args) {
    args->trim.approx = false;
    size_t moreargs = c->argv.size() - 1 - i;
    std::string_view next = c->argv[i + 1];
    if (moreargs >= 2 && (next == "~" || next == "=")) {
        args->trim.approx = next == "~";
        i++;
    }
    return i + 1;
}

/* Parses XADD's (`xadd`) or XTRIM's options, replying on error: returns
 * the position of XADD's ID argument, or 0 after an error. */
static size_t streamParseAddOrTrimArgsOrReply(client *c, streamAddTrimArgs *args, bool xadd) {
    streamTrimArgs &trim = args->trim;
    bool limit_given = false;
    size_t i = 2; /* the first option, or XADD's ID */
    for (; i < c->argv.size(); i++) {
        size_t moreargs = c->argv.size() - 1 - i;
        std::string_view opt = c->argv[i];
        if (xadd && opt == "*") {
            break; /* the common case, first */
        } else if ((strEqualNoCase(opt, "maxlen") || strEqualNoCase(opt, "minid")) && moreargs) {
            if (trim.strategy != TRIM_STRATEGY_NONE) {
                addReplyError(c, "syntax error, MAXLEN and MINID options at the same time are not compatible");
                return 0;
            }
            bool maxlen = strEqualNoCase(opt, "maxlen");
            i = parseTrimOperator(c, i, args);
            if (maxlen) {
                long long n;
                if (!getLongLongFromObjectOrReply(c, c->argv[i], &n)) return 0;
                if (n < 0) {
                    addReplyError(c, "The MAXLEN argument must be >= 0.");
                    return 0;
                }
                trim.maxlen = n;
                trim.strategy = TRIM_STRATEGY_MAXLEN;
            } else {
                if (!streamParseStrictIDOrReply(c, c->argv[i], &trim.minid, 0)) return 0;
                trim.strategy = TRIM_STRATEGY_MINID;
            }
            args->trim_strategy_arg_idx = i;
        } else if (strEqualNoCase(opt, "limit") && moreargs) {
            if (!getLongLongFromObjectOrReply(c, c->argv[i + 1], &trim.limit)) return 0;
            if (trim.limit < 0) {
                addReplyError(c, "The LIMIT argument must be >= 0.");
                return 0;
            }
            limit_given = true;
            i++;
        } else if (xadd && strEqualNoCase(opt, "nomkstream")) {
            args->no_mkstream = true;
        } else if (xadd) {
            /* The ID, or a syntax error. */
            if (!streamParseStrictIDOrReply(c, opt, &args->id, 0, &args->seq_given)) return 0;
            args->id_given = true;
            break;
        } else {
            addReplyErrorObject(c, shared::syntaxerr);
            return 0;
        }
    }

    if (trim.limit && trim.strategy == TRIM_STRATEGY_NONE) {
        addReplyError(c, "syntax error, LIMIT cannot be used without specifying a trimming strategy");
        return 0;
    }
    if (!xadd && trim.strategy == TRIM_STRATEGY_NONE) {
        addReplyError(c, "syntax error, XTRIM must be called with a trimming strategy");
        return 0;
    }
    if (mustObeyClient(c)) { /* the AOF or a master trims exactly as far as the rewritten argument says */
        trim.limit = 0;
    } else if (limit_given) {
        if (!trim.approx) {
            addReplyError(c, "syntax error, LIMIT cannot be used without the special ~ option");
            return 0;
        }
    } else if (trim.approx) {
        /* At most 100 nodes' worth of entries per call, so that trimming
         * stays short; capped both ways against odd node settings. */
        long long per_node = server.stream_node_max_entries;
        trim.limit = per_node <= 0 ? 10000 : per_node > 10000 ? 1000000 : 100 * per_node;
    } else {
        trim.limit = 0; /* exact trimming is never limited */
    }
    return i;
}

/* An approximate or limited trim depends on the node layout, which a
 * replay need not share: it is propagated as the exact trim it turned out
 * to be, MAXLEN = the length left or MINID = the first ID left. */
static void streamRewriteTrimArguments(client *c, stream *s, const streamAddTrimArgs &args) {
    char buf[STREAM_ID_STR_LEN];
    std::string_view value;
    if (args.trim.strategy == TRIM_STRATEGY_MAXLEN)
        value = std::string_view(buf, ll2string(buf, sizeof(buf), static_cast<long long>(s->length)));
    else
        value = streamIDString(streamGetEdgeID(s, true, false), buf);
    rewriteClientCommandArgument(c, args.trim_strategy_arg_idx - 1, "=");
    rewriteClientCommandArgument(c, args.trim_strategy_arg_idx, value);
}

/* ---- the commands ------------------------------------------------------------------- */

/* XADD key [NOMKSTREAM] [(MAXLEN | MINID) [= | ~] threshold [LIMIT count]] (* | id) field value
 *      [field value ...] */
void xaddCommand(client *c) {
    streamAddTrimArgs args;
    size_t idpos = streamParseAddOrTrimArgsOrReply(c, &args, true);
    if (!idpos) return;
    size_t field_pos = idpos + 1;
    if (c->argv.size() < field_pos + 2 || (c->argv.size() - field_pos) % 2 == 1) return addReplyErrorArity(c);

    /* Refused before the key is created: the append would fail, leaving
     * an empty stream behind. */
    if (args.id_given && args.seq_given && args.id == streamID{})
        return addReplyError(c, "The ID specified in XADD must be greater than 0-0");

    robj *o = lookupKeyWrite(c->db, c->argv[1]);
    if (checkType(c, o, OBJ_STREAM)) return;
    if (!o) {
        if (args.no_mkstream) return addReplyNull(c);
        ObjRef created = createStreamObject();
        o = created.get();
        dbAdd(c->db, c->argv[1], std::move(created));
    }
    stream *s = &objectStream(o);
    if (s->last_id == streamID{UINT64_MAX, UINT64_MAX})
        return addReplyError(c, "The stream has exhausted the last possible ID, unable to add more items");
    /* "ms-*" with no sequence left in that ms: Redis 7.0.15's append fails
     * there without setting errno, so its reply is the other error's. */
    if (args.id_given && !args.seq_given && args.id.ms == s->last_id.ms && s->last_id.seq == UINT64_MAX)
        return addReplyError(c, "Elements are too large to be stored");

    streamID id;
    std::span<const std::string_view> fields_values(c->argv.begin() + static_cast<ptrdiff_t>(field_pos), c->argv.end());
    switch (streamAppendItem(s, fields_values, mstime(), streamServerNodeLimits(), &id,
                             args.id_given ? &args.id : nullptr, args.seq_given)) {
    case streamAppendResult::ok: break;
    case streamAppendResult::id_not_greater:
        return addReplyError(c, "The ID specified in XADD is equal or smaller than the target stream top item");
    case streamAppendResult::too_large: return addReplyError(c, "Elements are too large to be stored");
    }
    addReplyStreamID(c, id);
    signalModifiedKey(c, c->db, c->argv[1]);
    notifyKeyspaceEvent(NOTIFY_STREAM, "xadd", c->argv[1], c->db->id);
    server.dirty++;

    if (args.trim.strategy != TRIM_STRATEGY_NONE) {
        if (streamTrim(s, args.trim)) notifyKeyspaceEvent(NOTIFY_STREAM, "xtrim", c->argv[1], c->db->id);
        /* LIMIT comes only with "~": approx alone tells a trim to rewrite. */
        if (args.trim.approx) streamRewriteTrimArguments(c, s, args);
    }
    /* The AOF replays the ID this XADD produced. */
    if (!args.id_given || !args.seq_given) {
        char buf[STREAM_ID_STR_LEN];
        rewriteClientCommandArgument(c, idpos, streamIDString(id, buf));
    }
    signalKeyAsReady(c->db, c->argv[1]);
}

/* XRANGE key start end [COUNT n] / XREVRANGE key end start [COUNT n]:
 * a start without its sequence is ms-0, an end ms-UINT64_MAX; "(" makes
 * a bound exclusive. */
static void xrangeGenericCommand(client *c, bool rev) {
    std::string_view startarg = c->argv[rev ? 3 : 2], endarg = c->argv[rev ? 2 : 3];
    streamID startid, endid;
    bool startex, endex;
    if (!streamParseIntervalIDOrReply(c, startarg, &startid, &startex, 0)) return;
    if (startex && !streamIncrID(&startid)) return addReplyError(c, "invalid start ID for the interval");
    if (!streamParseIntervalIDOrReply(c, endarg, &endid, &endex, UINT64_MAX)) return;
    if (endex && !streamDecrID(&endid)) return addReplyError(c, "invalid end ID for the interval");

    long long count = -1; /* none given */
    for (size_t j = 4; j < c->argv.size(); j++) {
        if (!strEqualNoCase(c->argv[j], "COUNT") || j + 1 == c->argv.size())
            return addReplyErrorObject(c, shared::syntaxerr);
        if (!getLongLongFromObjectOrReply(c, c->argv[++j], &count)) return;
        if (count < 0) count = 0;
    }

    robj *o = lookupKeyReadOrReply(c, c->argv[1], shared::empty_array);
    if (!o || checkType(c, o, OBJ_STREAM)) return;
    if (count == 0) return addReplyNullArray(c);
    streamReplyWithRange(c, &objectStream(o), &startid, &endid, count == -1 ? 0 : static_cast<size_t>(count), rev,
                         nullptr, nullptr, 0, nullptr);
}

void xrangeCommand(client *c) { xrangeGenericCommand(c, false); }
void xrevrangeCommand(client *c) { xrangeGenericCommand(c, true); }

/* XLEN key */
void xlenCommand(client *c) {
    robj *o = lookupKeyReadOrReply(c, c->argv[1], shared::czero);
    if (!o || checkType(c, o, OBJ_STREAM)) return;
    addReplyLongLong(c, static_cast<long long>(objectStream(o).length));
}

/* XDEL key id [id ...]: how many were there and are deleted. The IDs are
 * all checked first, so that a bad one deletes nothing. The stream stays,
 * however empty. */
void xdelCommand(client *c) {
    robj *o = lookupKeyWriteOrReply(c, c->argv[1], shared::czero);
    if (!o || checkType(c, o, OBJ_STREAM)) return;
    stream *s = &objectStream(o);
    streamID id;
    for (size_t j = 2; j < c->argv.size(); j++)
        if (!streamParseStrictIDOrReply(c, c->argv[j], &id, 0)) return;

    /* streamDeleteItem keeps first_id and max_deleted_entry_id. */
    long long deleted = 0;
    for (size_t j = 2; j < c->argv.size(); j++) {
        streamParseStrictIDOrReply(nullptr, c->argv[j], &id, 0);
        deleted += streamDeleteItem(s, id);
    }
    if (deleted) {
        signalModifiedKey(c, c->db, c->argv[1]);
        notifyKeyspaceEvent(NOTIFY_STREAM, "xdel", c->argv[1], c->db->id);
        server.dirty += deleted;
    }
    addReplyLongLong(c, deleted);
}

/* XTRIM key (MAXLEN | MINID) [= | ~] threshold [LIMIT count]: how many
 * entries went. The stream stays, however empty. */
void xtrimCommand(client *c) {
    streamAddTrimArgs args;
    if (!streamParseAddOrTrimArgsOrReply(c, &args, false)) return;
    robj *o = lookupKeyWriteOrReply(c, c->argv[1], shared::czero);
    if (!o || checkType(c, o, OBJ_STREAM)) return;
    stream *s = &objectStream(o);
    int64_t deleted = streamTrim(s, args.trim);
    if (deleted) {
        notifyKeyspaceEvent(NOTIFY_STREAM, "xtrim", c->argv[1], c->db->id);
        if (args.trim.approx) streamRewriteTrimArguments(c, s, args);
        signalModifiedKey(c, c->db, c->argv[1]);
        server.dirty += deleted;
    }
    addReplyLongLong(c, deleted);
}

/* XSETID key last-id [ENTRIESADDED entries-added] [MAXDELETEDID max-deleted-id]:
 * what a replay needs to rebuild a stream's counters. */
void xsetidCommand(client *c) {
    streamID id, max_xdel_id;
    long long entries_added = -1;
    if (!streamParseStrictIDOrReply(c, c->argv[2], &id, 0)) return;
    for (size_t i = 3; i < c->argv.size(); i += 2) {
        bool moreargs = i + 1 < c->argv.size();
        std::string_view opt = c->argv[i];
        if (strEqualNoCase(opt, "ENTRIESADDED") && moreargs) {
            if (!getLongLongFromObjectOrReply(c, c->argv[i + 1], &entries_added)) return;
            if (entries_added < 0) return addReplyError(c, "entries_added must be positive");
        } else if (strEqualNoCase(opt, "MAXDELETEDID") && moreargs) {
            if (!streamParseStrictIDOrReply(c, c->argv[i + 1], &max_xdel_id, 0)) return;
            if (id < max_xdel_id)
                return addReplyError(c, "The ID specified in XSETID is smaller than the provided max_deleted_entry_id");
        } else {
            return addReplyErrorObject(c, shared::syntaxerr);
        }
    }

    robj *o = lookupKeyWriteOrReply(c, c->argv[1], shared::nokeyerr);
    if (!o || checkType(c, o, OBJ_STREAM)) return;
    stream *s = &objectStream(o);
    /* IDs only grow: not below the last entry there is. */
    if (s->length > 0) {
        if (id < streamGetEdgeID(s, false, true))
            return addReplyError(c, "The ID specified in XSETID is smaller than the target stream top item");
        if (entries_added != -1 && s->length > static_cast<uint64_t>(entries_added))
            return addReplyError(c, "The entries_added specified in XSETID is smaller than the target stream length");
    }
    s->last_id = id;
    if (entries_added != -1) s->entries_added = static_cast<uint64_t>(entries_added);
    if (max_xdel_id != streamID{}) s->max_deleted_entry_id = max_xdel_id;
    addReply(c, shared::ok);
    server.dirty++;
    notifyKeyspaceEvent(NOTIFY_STREAM, "xsetid", c->argv[1], c->db->id);
}

/* ---- XREAD and XREADGROUP ------------------------------------------------------------- */

/* A blocked XREAD without COUNT is served this many entries at most, so
 * that an old ID does not make the wake reply with the whole stream. */
constexpr long XREAD_BLOCKED_DEFAULT_COUNT = 1000;

/* The ">" ID of XREADGROUP: new entries only, past the group's last ID. */
constexpr streamID STREAM_ID_NEW_ENTRIES{UINT64_MAX, UINT64_MAX};

/* Whether XREAD/XREADGROUP has something to give at once from `s` past
 * `*gt` (XREADGROUP: past ">", the group's last ID, which *gt becomes;
 * any other ID reads the consumer's history, *history, always given). */
static bool xreadCanServe(stream *s, streamCG *group, streamID *gt, bool *history) {
    *history = group && *gt != STREAM_ID_NEW_ENTRIES;
    if (*history) return true;
    if (group) *gt = group->last_id;
    return s->length && streamGetEdgeID(s, false, true) > *gt;
}

/* Replies key => entries for one stream of XREAD/XREADGROUP (an entry of
 * the streams' map, [key, entries] in RESP2): the entries
 * after `gt`, read as `consumername` of `group` for XREADGROUP (the
 * consumer created if new). */
static void xreadServeStream(client *c, std::string_view key, stream *s, streamID gt, bool history, size_t count,
                             streamCG *group, std::string_view groupname, std::string_view consumername, bool noack) {
    streamID start = gt; /* the range is inclusive: start after gt */
    streamIncrID(&start);
    addReplyPairedMapEntry(c);
    addReplyBulk(c, key);
    streamConsumer *consumer = nullptr;
    if (group) {
        consumer = streamLookupConsumer(group, consumername, SLC_DEFAULT);
        if (!consumer) {
            consumer = streamCreateConsumer(group, consumername, key, c->db->id, SCC_DEFAULT);
            /* Without NOACK the XCLAIMs create it on replay. */
            if (noack) streamPropagateConsumerCreation(c, key, groupname, consumername);
        }
    }
    int flags = (noack ? STREAM_RWR_NOACK : 0) | (history ? STREAM_RWR_HISTORY : 0);
    streamPropInfo spi{key, groupname};
    streamReplyWithRange(c, s, &start, nullptr, count, false, group, consumer, flags, &spi);
    if (group) server.dirty++;
}

/* XREAD [COUNT count] [BLOCK ms] STREAMS key [key ...] id [id ...]
 * XREADGROUP GROUP group consumer [COUNT count] [BLOCK ms] [NOACK] STREAMS key [key ...] id [id ...]
 * Never propagated as itself: XREAD writes nothing, XREADGROUP is
 * propagated as its effects (streamReplyWithRange). */
bool xreadGenericCommand(client *c, xreadBlockArgs *block) {
    preventCommandPropagation(c);
    const std::vector<std::string_view> &argv = c->argv;
    bool xreadgroup = argv[0].size() == 10;
    long long timeout = -1, count = 0; /* -1: no BLOCK */
    size_t streams_arg = 0, streams_count = 0;
    bool noack = false;
    std::optional<std::string_view> groupname;
    std::string_view consumername;

    for (size_t i = 1; i < argv.size(); i++) {
        size_t moreargs = argv.size() - i - 1;
        std::string_view o = argv[i];
        if (strEqualNoCase(o, "BLOCK") && moreargs) {
            /* Not even the null reply of a client that may not block: a
             * script blocking would make no sense. */
            if (c->flags & CLIENT_SCRIPT) {
                addReplyErrorFormat(c, "%s command is not allowed with BLOCK option from scripts",
                                    std::string(argv[0]).c_str());
                return true;
            }
            if (!getLongLongFromObjectOrReply(c, argv[++i], &timeout, "timeout is not an integer or out of range"))
                return true;
            if (timeout < 0) {
                addReplyError(c, "timeout is negative");
                return true;
            }
        } else if (strEqualNoCase(o, "COUNT") && moreargs) {
            if (!getLongLongFromObjectOrReply(c, argv[++i], &count)) return true;
            if (count < 0) count = 0;
        } else if (strEqualNoCase(o, "STREAMS") && moreargs) {
            streams_arg = i + 1;
            streams_count = argv.size() - streams_arg;
            if (streams_count % 2 != 0) {
                addReplyError(c, "Unbalanced XREAD list of streams: for each stream key an ID or '$' must be "
                                 "specified.");
                return true;
            }
            streams_count /= 2;
            break;
        } else if (strEqualNoCase(o, "GROUP") && moreargs >= 2) {
            if (!xreadgroup) {
                addReplyError(c, "The GROUP option is only supported by XREADGROUP. You called XREAD instead.");
                return true;
            }
            groupname = argv[i + 1];
            consumername = argv[i + 2];
            i += 2;
        } else if (strEqualNoCase(o, "NOACK")) {
            if (!xreadgroup) {
                addReplyError(c, "The NOACK option is only supported by XREADGROUP. You called XREAD instead.");
                return true;
            }
            noack = true;
        } else {
            addReplyErrorObject(c, shared::syntaxerr);
            return true;
        }
    }
    if (streams_arg == 0) {
        addReplyErrorObject(c, shared::syntaxerr);
        return true;
    }
    if (xreadgroup && !groupname) {
        addReplyError(c, "Missing GROUP option for XREADGROUP");
        return true;
    }

    /* The IDs, each "$" or ">" resolved; kept between calls, so that a
     * read served at once allocates nothing. */
    static std::vector<streamID> ids;
    ids.resize(streams_count);
    for (size_t i = 0; i < streams_count; i++) {
        std::string_view key = argv[streams_arg + i], idarg = argv[streams_arg + streams_count + i];
        robj *o = lookupKeyRead(c->db, key);
        if (checkType(c, o, OBJ_STREAM)) return true;
        if (groupname && (!o || !streamLookupCG(&objectStream(o), *groupname))) {
            addReplyErrorFormat(c, "-NOGROUP No such key '%s' or consumer group '%s' in XREADGROUP with GROUP option",
                                std::string(key).c_str(), std::string(*groupname).c_str());
            return true;
        }
        if (idarg == "$") {
            if (xreadgroup) {
                addReplyError(c, "The $ ID is meaningless in the context of XREADGROUP: you want to read the history "
                                 "of this consumer by specifying a proper ID, or use the > ID to get new messages. "
                                 "The $ ID would just return an empty result set.");
                return true;
            }
            ids[i] = o ? objectStream(o).last_id : streamID{};
        } else if (idarg == ">") {
            if (!xreadgroup) {
                addReplyError(c, "The > ID can be specified only when calling XREADGROUP using the GROUP <group> "
                                 "<consumer> option.");
                return true;
            }
            ids[i] = STREAM_ID_NEW_ENTRIES;
        } else if (!streamParseStrictIDOrReply(c, idarg, &ids[i], 0)) {
            return true;
        }
    }

    /* Served at once if any stream has something. */
    size_t served = 0;
    void *arraylen_ptr = nullptr;
    for (size_t i = 0; i < streams_count; i++) {
        std::string_view key = argv[streams_arg + i];
        robj *o = lookupKeyRead(c->db, key);
        if (!o) continue;
        stream *s = &objectStream(o);
        streamCG *group = groupname ? streamLookupCG(s, *groupname) : nullptr;
        streamID gt = ids[i];
        bool history;
        if (!xreadCanServe(s, group, &gt, &history)) continue;
        if (served++ == 0) arraylen_ptr = addReplyDeferredLen(c);
        xreadServeStream(c, key, s, gt, history, static_cast<size_t>(count), group, groupname.value_or(""),
                         consumername, noack);
    }
    if (served) {
        setDeferredPairedMapLen(c, arraylen_ptr, static_cast<long>(served));
        return true;
    }

    /* Nothing yet: a client that may not block gets what a timeout gives. */
    if (timeout == -1 || (c->flags & (CLIENT_MULTI | CLIENT_DENY_BLOCKING))) {
        addReplyNullArray(c);
        return true;
    }
    block->timeout_ms = timeout;
    block->keys.assign(argv.begin() + static_cast<ptrdiff_t>(streams_arg),
                       argv.begin() + static_cast<ptrdiff_t>(streams_arg + streams_count));
    block->ids.assign(ids.begin(), ids.end());
    block->count = count ? static_cast<long>(count) : XREAD_BLOCKED_DEFAULT_COUNT;
    block->group = groupname;
    block->consumer = consumername;
    block->noack = noack;
    return false;
}

/* The key's ID in the waiter's list (each key is there once). */
static streamID *blockedStreamID(client *receiver, std::string_view key) {
    for (bkinfo &bki : receiver->bpop.keys)
        if (bki.de->key.view() == key) return &bki.stream_id;
    return nullptr;
}

/* Replies to a waiter of `key` with the entries past its ID, reading as
 * its consumer for XREADGROUP; false when there is nothing for it yet. */
static bool serveStreamWaiter(client *receiver, stream *s, std::string_view key, streamCG *group,
                              std::string_view groupname) {
    streamID *gt = blockedStreamID(receiver, key);
    /* Blocked on ">": the entries past the group's last ID now, which
     * other consumers served before this one may have moved. */
    if (group) *gt = group->last_id;
    if (!(s->last_id > *gt)) return false;

    streamID start = *gt;
    streamIncrID(&start);
    streamConsumer *consumer = nullptr;
    bool noack = false;
    if (group) {
        noack = receiver->bpop.xread_group_noack;
        std::string_view name = receiver->bpop.xread_consumer->view();
        consumer = streamLookupConsumer(group, name, SLC_DEFAULT);
        if (!consumer) {
            consumer = streamCreateConsumer(group, name, key, receiver->db->id, SCC_DEFAULT);
            if (noack) streamPropagateConsumerCreation(receiver, key, groupname, name);
        }
    }
    /* One stream: {key => entries} ([[key, entries]] in RESP2). */
    addReplyPairedMapLen(receiver, 1);
    addReplyPairedMapEntry(receiver);
    addReplyBulk(receiver, key);
    streamPropInfo spi{key, groupname};
    streamReplyWithRange(receiver, s, &start, nullptr, static_cast<size_t>(receiver->bpop.count), false, group,
                         consumer, noack ? STREAM_RWR_NOACK : 0, &spi);
    return true;
}

blockedServe serveClientBlockedOnStream(client *receiver, robj *o, std::string_view key) {
    stream *s = &objectStream(o);
    streamCG *group = nullptr;
    std::string_view groupname;
    if (receiver->bpop.xread_group) {
        groupname = receiver->bpop.xread_group->view();
        group = streamLookupCG(s, groupname);
        if (!group) {
            addReplyError(receiver, "-NOGROUP the consumer group this client was blocked on no longer exists");
            return blockedServe::served;
        }
    }
    /* Served outside any command: what the waiter's read propagates (its
     * XCLAIMs, XGROUP CREATECONSUMER and SETID) is one execution unit of
     * its own, as Redis 7.0 closes one per served client. */
    server.execution_nesting++;
    bool served = serveStreamWaiter(receiver, s, key, group, groupname);
    if (--server.execution_nesting == 0) propagatePendingCommands();
    return served ? blockedServe::served : blockedServe::not_ready;
}

/* ========================================================================
 * Consumer groups: XGROUP, XACK, XPENDING, XCLAIM, XAUTOCLAIM; and XINFO
 * ====================================================================== */

/* The parts of Redis's t_stream.c that serve consumer groups: a group's
 * pending entries list (PEL) is a rax of streamNACKs keyed by the 16-byte
 * encoded ID, shared by the group (which owns them) and the consumer each
 * names. The commands here read and change it; what they change in a
 * group's state other than by their own argv (XCLAIM, XAUTOCLAIM) is
 * propagated as one idempotent XCLAIM per entry, as Redis 7.0 does. "Now"
 * is the clock's, read once per command, as Redis 7.0 reads it (mstime())
 * wherever it stamps a delivery or a consumer. */

/* A rax key of an ID, in `buf`. */
static std::string_view streamIDKey(const streamID &id, unsigned char (&buf)[STREAM_ID_BYTES]) {
    streamEncodeID(buf, id);
    return {reinterpret_cast<const char *>(buf), STREAM_ID_BYTES};
}
static streamID streamKeyID(std::string_view key) {
    return streamDecodeID(reinterpret_cast<const unsigned char *>(key.data()));
}

/* Whether the entry `id` is in the stream (not deleted). */
static bool streamEntryExists(stream *s, const streamID &id) {
    streamIterator si;
    streamIteratorStart(&si, s, &id, &id, false);
    streamID found;
    int64_t numfields;
    return streamIteratorGetID(&si, &found, &numfields);
}

/* Removes the pending entry `key` from its group and its consumer, and
 * frees it. */
static void streamDeleteNACK(streamCG *cg, std::string_view key, streamNACK *nack) {
    raxRemove(&cg->pel, key);
    if (nack->consumer) raxRemove(&nack->consumer->pel, key);
    std::unique_ptr<streamNACK> owned(nack);
}

/* A group's lag: the entries not yet delivered to it, or null when the
 * stream's deletions make it unknowable (Redis 7.0's streamReplyWithCGLag). */
static void streamReplyWithCGLag(client *c, stream *s, const streamCG *cg) {
    long long entries_read;
    if (s->entries_added == 0) {
        entries_read = 0;
    } else if (cg->entries_read != SCG_INVALID_ENTRIES_READ && !streamRangeHasTombstones(s, &cg->last_id, nullptr)) {
        entries_read = cg->entries_read;
    } else {
        entries_read = streamEstimateDistanceFromFirstEverEntry(s, cg->last_id);
        if (entries_read == SCG_INVALID_ENTRIES_READ) return addReplyNull(c);
    }
    addReplyLongLong(c, static_cast<long long>(s->entries_added) - entries_read);
}

/* The consumer that claims (XCLAIM, XAUTOCLAIM): seen now, created if new. */
static streamConsumer *streamClaimingConsumer(client *c, streamCG *cg, std::string_view name, std::string_view key) {
    if (streamConsumer *consumer = streamLookupConsumer(cg, name, SLC_DEFAULT)) return consumer;
    return streamCreateConsumer(cg, name, key, c->db->id, SCC_DEFAULT);
}

/* Gives the pending entry `key` to `consumer` (from its previous owner, if
 * any: FORCE creates NACKs of none). */
static void streamNACKChangeOwner(streamNACK *nack, std::string_view key, streamConsumer *consumer) {
    if (nack->consumer == consumer) return;
    if (nack->consumer) raxRemove(&nack->consumer->pel, key);
    raxInsert(&consumer->pel, key, nack);
    nack->consumer = consumer;
}

/* One claimed entry in XCLAIM's or XAUTOCLAIM's reply: its ID alone
 * (JUSTID), or the entry. */
static void streamReplyClaimedEntry(client *c, stream *s, const streamID &id, bool justid) {
    if (justid) addReplyStreamID(c, id);
    else streamReplyWithRange(c, s, &id, &id, 1, false, nullptr, nullptr, STREAM_RWR_RAWENTRIES, nullptr);
}

static void replyNoGroupForKey(client *c, std::string_view key, std::string_view group) {
    addReplyErrorFormat(c, "-NOGROUP No such key '%s' or consumer group '%s'", std::string(key).c_str(),
                        std::string(group).c_str());
}
static void replyNoGroupOfKey(client *c, std::string_view group, std::string_view key) {
    addReplyErrorFormat(c, "-NOGROUP No such consumer group '%s' for key name '%s'", std::string(group).c_str(),
                        std::string(key).c_str());
}

/* The stream at argv[1] and its group argv[2] (XCLAIM, XAUTOCLAIM,
 * XPENDING): replies (WRONGTYPE or NOGROUP) and returns false when there
 * is none. */
static bool streamLookupGroupOrReply(client *c, stream **s, streamCG **group) {
    robj *o = lookupKeyRead(c->db, c->argv[1]);
    if (o && checkType(c, o, OBJ_STREAM)) return false;
    if (!o || !(*group = streamLookupCG(&objectStream(o), c->argv[2]))) {
        replyNoGroupForKey(c, c->argv[1], c->argv[2]);
        return false;
    }
    *s = &objectStream(o);
    return true;
}

/* XGROUP CREATE <key> <group> <id|$> [MKSTREAM] [ENTRIESREAD <n>]
 * XGROUP SETID <key> <group> <id|$> [ENTRIESREAD <n>]
 * XGROUP DESTROY <key> <group>
 * XGROUP CREATECONSUMER <key> <group> <consumer>
 * XGROUP DELCONSUMER <key> <group> <consumer>
 * The options are checked first, then the key, then the group, as Redis
 * does, so that each error is the one Redis gives. */
void xgroupCommand(client *c) {
    static const char *const help[] = {
        "CREATE <key> <groupname> <id|$> [option]",
        "    Create a new consumer group. Options are:",
        "    * MKSTREAM",
        "      Create the empty stream if it does not exist.",
        "    * ENTRIESREAD entries_read",
        "      Set the group's entries_read counter (internal use).",
        "CREATECONSUMER <key> <groupname> <consumer>",
        "    Create a new consumer in the specified group.",
        "DELCONSUMER <key> <groupname> <consumer>",
        "    Remove the specified consumer.",
        "DESTROY <key> <groupname>",
        "    Remove the specified group.",
        "SETID <key> <groupname> <id|$> [ENTRIESREAD entries_read]",
        "    Set the current group ID and entries_read counter.",
        nullptr,
    };
    const std::string_view opt = c->argv[1];
    const size_t argc = c->argv.size();
    if (argc == 2 && strEqualNoCase(opt, "HELP")) return addReplyHelp(c, help);

    stream *s = nullptr;
    streamCG *cg = nullptr;
    bool mkstream = false;
    long long entries_read = SCG_INVALID_ENTRIES_READ;
    std::string_view key, grpname;
    if (argc >= 4) {
        const bool create = strEqualNoCase(opt, "CREATE"), setid = strEqualNoCase(opt, "SETID");
        for (size_t i = 5; i < argc;) {
            if (create && strEqualNoCase(c->argv[i], "MKSTREAM")) {
                mkstream = true;
                i++;
            } else if ((create || setid) && strEqualNoCase(c->argv[i], "ENTRIESREAD") && i + 1 < argc) {
                if (!getLongLongFromObjectOrReply(c, c->argv[i + 1], &entries_read)) return;
                if (entries_read < 0 && entries_read != SCG_INVALID_ENTRIES_READ)
                    return addReplyError(c, "value for ENTRIESREAD must be positive or -1");
                i += 2;
            } else {
                return addReplySubcommandSyntaxError(c);
            }
        }
        key = c->argv[2];
        grpname = c->argv[3];
        robj *o = lookupKeyWrite(c->db, key);
        if (o) {
            if (checkType(c, o, OBJ_STREAM)) return;
            s = &objectStream(o);
        }
        if (!mkstream) {
            if (!s)
                return addReplyError(c, "The XGROUP subcommand requires the key to exist. "
                                        "Note that for CREATE you may want to use the MKSTREAM "
                                        "option to create an empty stream automatically.");
            cg = streamLookupCG(s, grpname);
            if (!cg && (setid || strEqualNoCase(opt, "CREATECONSUMER") || strEqualNoCase(opt, "DELCONSUMER")))
                return replyNoGroupOfKey(c, grpname, key);
        }
    }

    if (strEqualNoCase(opt, "CREATE") && argc >= 5 && argc <= 8) {
        streamID id;
        if (c->argv[4] == "$") {
            if (s) id = s->last_id;
        } else if (!streamParseStrictIDOrReply(c, c->argv[4], &id, 0)) {
            return;
        }
        if (!s) { /* MKSTREAM, now that nothing can fail */
            ObjRef o = createStreamObject();
            s = &objectStream(o.get());
            dbAdd(c->db, key, std::move(o));
            signalModifiedKey(c, c->db, key);
        }
        if (!streamCreateCG(s, grpname, id, entries_read))
            return addReplyError(c, "-BUSYGROUP Consumer Group name already exists");
        addReply(c, shared::ok);
        server.dirty++;
        notifyKeyspaceEvent(NOTIFY_STREAM, "xgroup-create", key, c->db->id);
    } else if (strEqualNoCase(opt, "SETID") && (argc == 5 || argc == 7)) {
        streamID id;
        if (c->argv[4] == "$") id = s->last_id;
        else if (!streamParseIDOrReply(c, c->argv[4], &id, 0)) return;
        cg->last_id = id;
        cg->entries_read = entries_read;
        addReply(c, shared::ok);
        server.dirty++;
        notifyKeyspaceEvent(NOTIFY_STREAM, "xgroup-setid", key, c->db->id);
    } else if (strEqualNoCase(opt, "DESTROY") && argc == 4) {
        if (!cg) return addReply(c, shared::czero);
        streamDestroyCG(s, grpname);
        addReply(c, shared::cone);
        server.dirty++;
        notifyKeyspaceEvent(NOTIFY_STREAM, "xgroup-destroy", key, c->db->id);
        /* Its XREADGROUP waiters are told -NOGROUP. */
        signalKeyAsReady(c->db, key);
    } else if (strEqualNoCase(opt, "CREATECONSUMER") && argc == 5) {
        addReply(c, streamCreateConsumer(cg, c->argv[4], key, c->db->id, SCC_DEFAULT) ? shared::cone : shared::czero);
    } else if (strEqualNoCase(opt, "DELCONSUMER") && argc == 5) {
        uint64_t pending = 0;
        if (streamConsumer *consumer = streamLookupConsumer(cg, c->argv[4], SLC_NO_REFRESH)) {
            pending = streamDelConsumer(cg, consumer);
            server.dirty++;
            notifyKeyspaceEvent(NOTIFY_STREAM, "xgroup-delconsumer", key, c->db->id);
        }
        addReplyLongLong(c, static_cast<long long>(pending));
    } else {
        addReplySubcommandSyntaxError(c);
    }
}

/* XACK <key> <group> <id> [<id> ...]: removes the IDs from the group's
 * PEL; returns how many were there. All or nothing: every ID is checked
 * before the first is acknowledged (and parsed again then, rather than
 * kept: a queue's every message goes through here, allocating nothing). */
void xackCommand(client *c) {
    streamCG *group = nullptr;
    if (robj *o = lookupKeyRead(c->db, c->argv[1])) {
        if (checkType(c, o, OBJ_STREAM)) return;
        group = streamLookupCG(&objectStream(o), c->argv[2]);
    }
    if (!group) return addReply(c, shared::czero);

    streamID id;
    for (size_t j = 3; j < c->argv.size(); j++)
        if (!streamParseStrictIDOrReply(c, c->argv[j], &id, 0)) return;
    long long acknowledged = 0;
    for (size_t j = 3; j < c->argv.size(); j++) {
        streamParseStrictIDOrReply(nullptr, c->argv[j], &id, 0);
        unsigned char buf[STREAM_ID_BYTES];
        std::string_view key = streamIDKey(id, buf);
        void *nack = raxFind(&group->pel, key);
        if (nack == raxNotFound) continue;
        streamDeleteNACK(group, key, static_cast<streamNACK *>(nack));
        acknowledged++;
        server.dirty++;
    }
    addReplyLongLong(c, acknowledged);
}

/* XPENDING's summary: how many entries are pending, the first and last,
 * and how many each consumer holds. */
static void xpendingReplySummary(client *c, streamCG *group) {
    addReplyArrayLen(c, 4);
    addReplyLongLong(c, static_cast<long long>(raxSize(&group->pel)));
    if (raxSize(&group->pel) == 0) {
        addReplyNull(c);
        addReplyNull(c);
        addReplyNullArray(c);
        return;
    }
    raxIterator ri;
    raxStart(&ri, &group->pel);
    raxSeek(&ri, "^");
    raxNext(&ri);
    addReplyStreamID(c, streamKeyID(ri.key));
    raxSeek(&ri, "$");
    raxNext(&ri);
    addReplyStreamID(c, streamKeyID(ri.key));

    raxStart(&ri, &group->consumers);
    raxSeek(&ri, "^");
    void *arraylen_ptr = addReplyDeferredLen(c);
    long arraylen = 0;
    while (raxNext(&ri)) {
        auto *consumer = static_cast<streamConsumer *>(ri.data);
        if (raxSize(&consumer->pel) == 0) continue;
        addReplyArrayLen(c, 2);
        addReplyBulk(c, ri.key);
        addReplyBulkLongLong(c, static_cast<long long>(raxSize(&consumer->pel)));
        arraylen++;
    }
    setDeferredArrayLen(c, arraylen_ptr, arraylen);
}

/* XPENDING <key> <group> [[IDLE <min-idle>] <start> <end> <count> [<consumer>]]
 * The range's arguments are checked before the key, as Redis does. */
void xpendingCommand(client *c) {
    const size_t argc = c->argv.size();
    if (argc != 3 && (argc < 6 || argc > 9)) return addReplyErrorObject(c, shared::syntaxerr);

    streamID startid, endid;
    long long count = 0, minidle = 0;
    std::optional<std::string_view> consumername;
    if (argc >= 6) {
        size_t startidx = 3;
        if (strEqualNoCase(c->argv[3], "IDLE")) {
            if (!getLongLongFromObjectOrReply(c, c->argv[4], &minidle)) return;
            if (argc < 8) return addReplyErrorObject(c, shared::syntaxerr);
            startidx += 2;
        }
        if (!getLongLongFromObjectOrReply(c, c->argv[startidx + 2], &count)) return;
        if (count < 0) count = 0;
        bool startex, endex;
        if (!streamParseIntervalIDOrReply(c, c->argv[startidx], &startid, &startex, 0)) return;
        if (startex && !streamIncrID(&startid)) return addReplyError(c, "invalid start ID for the interval");
        if (!streamParseIntervalIDOrReply(c, c->argv[startidx + 1], &endid, &endex, UINT64_MAX)) return;
        if (endex && !streamDecrID(&endid)) return addReplyError(c, "invalid end ID for the interval");
        if (startidx + 3 < argc) consumername = c->argv[startidx + 3];
    }

    stream *s;
    streamCG *group;
    if (!streamLookupGroupOrReply(c, &s, &group)) return;
    if (argc == 3) return xpendingReplySummary(c, group);

    rax *pel = &group->pel;
    if (consumername) {
        streamConsumer *consumer = streamLookupConsumer(group, *consumername, SLC_NO_REFRESH);
        if (!consumer) return addReply(c, shared::empty_array);
        pel = &consumer->pel;
    }
    unsigned char startbuf[STREAM_ID_BYTES], endbuf[STREAM_ID_BYTES];
    std::string_view endkey = streamIDKey(endid, endbuf);
    raxIterator ri;
    raxStart(&ri, pel);
    raxSeek(&ri, ">=", streamIDKey(startid, startbuf));
    const long long now = mstime();
    void *arraylen_ptr = addReplyDeferredLen(c);
    long arraylen = 0;
    while (count && raxNext(&ri) && std::string_view(ri.key) <= endkey) {
        auto *nack = static_cast<streamNACK *>(ri.data);
        if (minidle && now - nack->delivery_time < minidle) continue;
        arraylen++;
        count--;
        addReplyArrayLen(c, 4);
        addReplyStreamID(c, streamKeyID(ri.key));
        addReplyBulk(c, nack->consumer->name.view());
        addReplyLongLong(c, std::max(0LL, now - nack->delivery_time));
        addReplyLongLong(c, static_cast<long long>(nack->delivery_count));
    }
    setDeferredArrayLen(c, arraylen_ptr, arraylen);
}

/* XCLAIM's options after the IDs. */
struct xclaimOptions {
    long long delivery_time = -1; /* IDLE / TIME, -1: not given */
    long long retrycount = -1;    /* RETRYCOUNT, -1: not given */
    bool force = false;
    bool justid = false;
    streamID last_id;             /* LASTID, 0-0: not given */
};

static bool xclaimParseOptionsOrReply(client *c, size_t j, long long now, xclaimOptions *opts) {
    for (; j < c->argv.size(); j++) {
        const std::string_view opt = c->argv[j];
        const bool moreargs = j + 1 < c->argv.size();
        if (strEqualNoCase(opt, "FORCE")) {
            opts->force = true;
        } else if (strEqualNoCase(opt, "JUSTID")) {
            opts->justid = true;
        } else if (strEqualNoCase(opt, "IDLE") && moreargs) {
            long long idle;
            if (!getLongLongFromObjectOrReply(c, c->argv[++j], &idle, "Invalid IDLE option argument for XCLAIM"))
                return false;
            opts->delivery_time = now - idle;
        } else if (strEqualNoCase(opt, "TIME") && moreargs) {
            if (!getLongLongFromObjectOrReply(c, c->argv[++j], &opts->delivery_time,
                                              "Invalid TIME option argument for XCLAIM"))
                return false;
        } else if (strEqualNoCase(opt, "RETRYCOUNT") && moreargs) {
            if (!getLongLongFromObjectOrReply(c, c->argv[++j], &opts->retrycount,
                                              "Invalid RETRYCOUNT option argument for XCLAIM"))
                return false;
        } else if (strEqualNoCase(opt, "LASTID") && moreargs) {
            if (!streamParseStrictIDOrReply(c, c->argv[++j], &opts->last_id, 0)) return false;
        } else {
            addReplyErrorFormat(c, "Unrecognized XCLAIM option '%s'", std::string(opt).c_str());
            return false;
        }
    }
    return true;
}

/* XCLAIM <key> <group> <consumer> <min-idle-time> <id> [<id> ...]
 *        [IDLE <ms>] [TIME <ms-unix-time>] [RETRYCOUNT <count>] [FORCE]
 *        [JUSTID] [LASTID <id>]
 * Gives the pending entries idle for at least min-idle-time to the
 * consumer (created if new). An entry no longer in the stream is dropped
 * from the PEL instead; FORCE creates the NACK of an entry not pending.
 * The IDs end at the first argument that is not one. */
void xclaimCommand(client *c) {
    stream *s;
    streamCG *group;
    if (!streamLookupGroupOrReply(c, &s, &group)) return;
    long long minidle;
    if (!getLongLongFromObjectOrReply(c, c->argv[4], &minidle, "Invalid min-idle-time argument for XCLAIM")) return;
    if (minidle < 0) minidle = 0;

    size_t ids_end = 5;
    streamID id;
    while (ids_end < c->argv.size() && streamParseStrictIDOrReply(nullptr, c->argv[ids_end], &id, 0)) ids_end++;
    const long long now = mstime();
    xclaimOptions opts;
    if (!xclaimParseOptionsOrReply(c, ids_end, now, &opts)) return;

    bool propagate_last_id = false;
    if (opts.last_id > group->last_id) {
        group->last_id = opts.last_id;
        propagate_last_id = true;
    }
    /* A delivery time in the future or before the epoch is a client's
     * clock error, not worth failing for: it becomes now. */
    if (opts.delivery_time < 0 || opts.delivery_time > now) opts.delivery_time = now;

    const std::string_view keyname = c->argv[1], groupname = c->argv[2];
    streamConsumer *consumer = nullptr;
    void *arraylen_ptr = addReplyDeferredLen(c);
    long arraylen = 0;
    for (size_t j = 5; j < ids_end; j++) {
        streamParseStrictIDOrReply(nullptr, c->argv[j], &id, 0);
        unsigned char buf[STREAM_ID_BYTES];
        std::string_view key = streamIDKey(id, buf);
        void *found = raxFind(&group->pel, key);
        auto *nack = found == raxNotFound ? nullptr : static_cast<streamNACK *>(found);

        if (!streamEntryExists(s, id)) {
            if (nack) {
                streamPropagateXCLAIM(c, keyname, group, groupname, id, nack);
                propagate_last_id = false; /* the XCLAIM carries it */
                server.dirty++;
                streamDeleteNACK(group, key, nack);
            }
            continue;
        }
        if (!nack) {
            if (!opts.force) continue;
            nack = streamCreateNACK(nullptr, now).release();
            raxInsert(&group->pel, key, nack);
        }
        /* A NACK just made by FORCE has no owner and no idle time to check. */
        if (nack->consumer && minidle && now - nack->delivery_time < minidle) continue;

        if (!consumer) consumer = streamClaimingConsumer(c, group, c->argv[3], keyname);
        streamNACKChangeOwner(nack, key, consumer);
        nack->delivery_time = opts.delivery_time;
        if (opts.retrycount >= 0) nack->delivery_count = static_cast<uint64_t>(opts.retrycount);
        else if (!opts.justid) nack->delivery_count++;
        streamReplyClaimedEntry(c, s, id, opts.justid);
        arraylen++;

        streamPropagateXCLAIM(c, keyname, group, groupname, id, nack);
        propagate_last_id = false;
        server.dirty++;
    }
    if (propagate_last_id) {
        streamPropagateGroupID(c, keyname, group, groupname);
        server.dirty++;
    }
    setDeferredArrayLen(c, arraylen_ptr, arraylen);
    preventCommandPropagation(c);
}

/* XAUTOCLAIM <key> <group> <consumer> <min-idle-time> <start> [COUNT <count>] [JUSTID]
 * XCLAIM for the PEL's entries from `start` on, idle for min-idle-time:
 * at most COUNT entries claimed or found deleted (and dropped from the
 * PEL), after at most 10 * COUNT looked at. Replies the cursor to go on
 * from (0-0 at the end of the PEL), the entries claimed, and the IDs
 * dropped, as Redis 7.0. */
void xautoclaimCommand(client *c) {
    constexpr long attempts_factor = 10;
    long long minidle;
    if (!getLongLongFromObjectOrReply(c, c->argv[4], &minidle, "Invalid min-idle-time argument for XAUTOCLAIM"))
        return;
    if (minidle < 0) minidle = 0;
    streamID startid;
    bool startex;
    if (!streamParseIntervalIDOrReply(c, c->argv[5], &startid, &startex, 0)) return;
    if (startex && !streamIncrID(&startid)) return addReplyError(c, "invalid start ID for the interval");

    long count = 100;
    bool justid = false;
    for (size_t j = 6; j < c->argv.size(); j++) {
        const std::string_view opt = c->argv[j];
        if (strEqualNoCase(opt, "COUNT") && j + 1 < c->argv.size()) {
            /* So that count * max(ID size, attempts_factor) cannot overflow. */
            const long max_count = LONG_MAX / std::max<long>(sizeof(streamID), attempts_factor);
            if (!getRangeLongFromObjectOrReply(c, c->argv[++j], 1, max_count, &count, "COUNT must be > 0"))
                return;
        } else if (strEqualNoCase(opt, "JUSTID")) {
            justid = true;
        } else {
            return addReplyErrorObject(c, shared::syntaxerr);
        }
    }

    stream *s;
    streamCG *group;
    if (!streamLookupGroupOrReply(c, &s, &group)) return;

    /* The IDs claimed fill it from the front, the IDs found deleted from the
     * back: together they are at most COUNT. Allocated up front, as Redis
     * does, so that a COUNT too high is an error and not a failure later. */
    std::unique_ptr<streamID, decltype(&free)> ids(static_cast<streamID *>(malloc(count * sizeof(streamID))), &free);
    if (!ids)
        return addReplyError(c, "Insufficient memory, failed allocating transient memory, COUNT too high.");
    streamID *claimed = ids.get(), *deleted_end = ids.get() + count;
    long nclaimed = 0, ndeleted = 0;

    const std::string_view keyname = c->argv[1], groupname = c->argv[2];
    const long long now = mstime();
    streamConsumer *consumer = nullptr;
    long long attempts = count * attempts_factor;
    unsigned char buf[STREAM_ID_BYTES];
    raxIterator ri;
    raxStart(&ri, &group->pel);
    raxSeek(&ri, ">=", streamIDKey(startid, buf));
    while (attempts-- && count && raxNext(&ri)) {
        auto *nack = static_cast<streamNACK *>(ri.data);
        const streamID id = streamKeyID(ri.key);
        std::string_view key = streamIDKey(id, buf); /* ri.key moves on with the iterator */

        if (!streamEntryExists(s, id)) {
            streamPropagateXCLAIM(c, keyname, group, groupname, id, nack);
            server.dirty++;
            streamDeleteNACK(group, key, nack);
            deleted_end[-++ndeleted] = id;
            raxSeek(&ri, ">=", key); /* the removal invalidated the iterator */
            count--;
            continue;
        }
        if (minidle && now - nack->delivery_time < minidle) continue;

        if (!consumer) consumer = streamClaimingConsumer(c, group, c->argv[3], keyname);
        streamNACKChangeOwner(nack, key, consumer);
        nack->delivery_time = now;
        if (!justid) nack->delivery_count++;
        claimed[nclaimed++] = id;
        count--;

        streamPropagateXCLAIM(c, keyname, group, groupname, id, nack);
        server.dirty++;
    }
    /* The cursor: the next entry of the PEL, if any. */
    raxNext(&ri);
    const streamID cursor = raxEOF(&ri) ? streamID{} : streamKeyID(ri.key);

    addReplyArrayLen(c, 3);
    addReplyStreamID(c, cursor);
    addReplyArrayLen(c, nclaimed);
    for (long i = 0; i < nclaimed; i++) streamReplyClaimedEntry(c, s, claimed[i], justid);
    addReplyArrayLen(c, ndeleted);
    for (long i = 1; i <= ndeleted; i++) addReplyStreamID(c, deleted_end[-i]);
    preventCommandPropagation(c);
}

/* The "entries-read" and "lag" fields both XINFO GROUPS and XINFO STREAM
 * FULL give a group (null when not known). */
static void addReplyStreamCGEntriesReadAndLag(client *c, stream *s, streamCG *cg) {
    addReplyBulk(c, "entries-read");
    if (cg->entries_read != SCG_INVALID_ENTRIES_READ) addReplyLongLong(c, cg->entries_read);
    else addReplyNull(c);
    addReplyBulk(c, "lag");
    streamReplyWithCGLag(c, s, cg);
}

/* XINFO STREAM <key> FULL [COUNT <count>]: the groups, each with its PEL
 * and consumers (at most `count` pending entries each, 0: all). */
static void xinfoReplyWithGroupsFull(client *c, stream *s, long long count) {
    if (!s->cgroups) return addReplyArrayLen(c, 0);
    addReplyArrayLen(c, static_cast<long long>(raxSize(s->cgroups.get())));
    raxIterator ri_cgroups;
    raxStart(&ri_cgroups, s->cgroups.get());
    raxSeek(&ri_cgroups, "^");
    while (raxNext(&ri_cgroups)) {
        auto *cg = static_cast<streamCG *>(ri_cgroups.data);
        addReplyMapLen(c, 7);
        addReplyBulk(c, "name");
        addReplyBulk(c, ri_cgroups.key);
        addReplyBulk(c, "last-delivered-id");
        addReplyStreamID(c, cg->last_id);
        addReplyStreamCGEntriesReadAndLag(c, s, cg);
        addReplyBulk(c, "pel-count");
        addReplyLongLong(c, static_cast<long long>(raxSize(&cg->pel)));

        addReplyBulk(c, "pending");
        void *pel_len_ptr = addReplyDeferredLen(c);
        long pel_len = 0;
        raxIterator ri;
        raxStart(&ri, &cg->pel);
        raxSeek(&ri, "^");
        while (raxNext(&ri) && (!count || pel_len < count)) {
            auto *nack = static_cast<streamNACK *>(ri.data);
            addReplyArrayLen(c, 4);
            addReplyStreamID(c, streamKeyID(ri.key));
            addReplyBulk(c, nack->consumer->name.view());
            addReplyLongLong(c, nack->delivery_time);
            addReplyLongLong(c, static_cast<long long>(nack->delivery_count));
            pel_len++;
        }
        setDeferredArrayLen(c, pel_len_ptr, pel_len);

        addReplyBulk(c, "consumers");
        addReplyArrayLen(c, static_cast<long long>(raxSize(&cg->consumers)));
        raxIterator ri_consumers;
        raxStart(&ri_consumers, &cg->consumers);
        raxSeek(&ri_consumers, "^");
        while (raxNext(&ri_consumers)) {
            auto *consumer = static_cast<streamConsumer *>(ri_consumers.data);
            addReplyMapLen(c, 4);
            addReplyBulk(c, "name");
            addReplyBulk(c, consumer->name.view());
            addReplyBulk(c, "seen-time");
            addReplyLongLong(c, consumer->seen_time);
            addReplyBulk(c, "pel-count");
            addReplyLongLong(c, static_cast<long long>(raxSize(&consumer->pel)));
            addReplyBulk(c, "pending");
            void *cpel_len_ptr = addReplyDeferredLen(c);
            long cpel_len = 0;
            raxStart(&ri, &consumer->pel);
            raxSeek(&ri, "^");
            while (raxNext(&ri) && (!count || cpel_len < count)) {
                auto *nack = static_cast<streamNACK *>(ri.data);
                addReplyArrayLen(c, 3);
                addReplyStreamID(c, streamKeyID(ri.key));
                addReplyLongLong(c, nack->delivery_time);
                addReplyLongLong(c, static_cast<long long>(nack->delivery_count));
                cpel_len++;
            }
            setDeferredArrayLen(c, cpel_len_ptr, cpel_len);
        }
    }
}

/* XINFO STREAM <key> [FULL [COUNT <count>]] */
static void xinfoReplyWithStreamInfo(client *c, stream *s) {
    const size_t optc = c->argv.size() - 3;
    const bool full = optc > 0;
    long long count = 10; /* FULL's default, so that it cannot block the server for long */
    if (full) {
        if ((optc != 1 && optc != 3) || !strEqualNoCase(c->argv[3], "FULL"))
            return addReplySubcommandSyntaxError(c);
        if (optc == 3) {
            if (!strEqualNoCase(c->argv[4], "COUNT")) return addReplySubcommandSyntaxError(c);
            if (!getLongLongFromObjectOrReply(c, c->argv[5], &count)) return;
            if (count < 0) count = 10;
        }
    }

    addReplyMapLen(c, full ? 9 : 10);
    addReplyBulk(c, "length");
    addReplyLongLong(c, static_cast<long long>(s->length));
    addReplyBulk(c, "radix-tree-keys");
    addReplyLongLong(c, static_cast<long long>(raxSize(&s->tree)));
    addReplyBulk(c, "radix-tree-nodes");
    addReplyLongLong(c, static_cast<long long>(s->tree.numnodes));
    addReplyBulk(c, "last-generated-id");
    addReplyStreamID(c, s->last_id);
    addReplyBulk(c, "max-deleted-entry-id");
    addReplyStreamID(c, s->max_deleted_entry_id);
    addReplyBulk(c, "entries-added");
    addReplyLongLong(c, static_cast<long long>(s->entries_added));
    addReplyBulk(c, "recorded-first-entry-id");
    addReplyStreamID(c, s->first_id);

    if (full) {
        addReplyBulk(c, "entries");
        streamReplyWithRange(c, s, nullptr, nullptr, static_cast<size_t>(count), false, nullptr, nullptr, 0, nullptr);
        addReplyBulk(c, "groups");
        xinfoReplyWithGroupsFull(c, s, count);
        return;
    }
    addReplyBulk(c, "groups");
    addReplyLongLong(c, s->cgroups ? static_cast<long long>(raxSize(s->cgroups.get())) : 0);
    addReplyBulk(c, "first-entry");
    if (!streamReplyWithRange(c, s, nullptr, nullptr, 1, false, nullptr, nullptr, STREAM_RWR_RAWENTRIES, nullptr))
        addReplyNull(c);
    addReplyBulk(c, "last-entry");
    if (!streamReplyWithRange(c, s, nullptr, nullptr, 1, true, nullptr, nullptr, STREAM_RWR_RAWENTRIES, nullptr))
        addReplyNull(c);
}

/* XINFO CONSUMERS <key> <group> */
static void xinfoReplyWithConsumers(client *c, stream *s) {
    streamCG *cg = streamLookupCG(s, c->argv[3]);
    if (!cg) return replyNoGroupOfKey(c, c->argv[3], c->argv[2]);
    addReplyArrayLen(c, static_cast<long long>(raxSize(&cg->consumers)));
    const long long now = mstime();
    raxIterator ri;
    raxStart(&ri, &cg->consumers);
    raxSeek(&ri, "^");
    while (raxNext(&ri)) {
        auto *consumer = static_cast<streamConsumer *>(ri.data);
        addReplyMapLen(c, 3);
        addReplyBulk(c, "name");
        addReplyBulk(c, consumer->name.view());
        addReplyBulk(c, "pending");
        addReplyLongLong(c, static_cast<long long>(raxSize(&consumer->pel)));
        addReplyBulk(c, "idle");
        addReplyLongLong(c, std::max(0LL, now - consumer->seen_time));
    }
}

/* XINFO GROUPS <key> */
static void xinfoReplyWithGroups(client *c, stream *s) {
    if (!s->cgroups) return addReplyArrayLen(c, 0);
    addReplyArrayLen(c, static_cast<long long>(raxSize(s->cgroups.get())));
    raxIterator ri;
    raxStart(&ri, s->cgroups.get());
    raxSeek(&ri, "^");
    while (raxNext(&ri)) {
        auto *cg = static_cast<streamCG *>(ri.data);
        addReplyMapLen(c, 6);
        addReplyBulk(c, "name");
        addReplyBulk(c, ri.key);
        addReplyBulk(c, "consumers");
        addReplyLongLong(c, static_cast<long long>(raxSize(&cg->consumers)));
        addReplyBulk(c, "pending");
        addReplyLongLong(c, static_cast<long long>(raxSize(&cg->pel)));
        addReplyBulk(c, "last-delivered-id");
        addReplyStreamID(c, cg->last_id);
        addReplyStreamCGEntriesReadAndLag(c, s, cg);
    }
}

/* XINFO STREAM <key> [FULL [COUNT <count>]] | GROUPS <key> |
 * CONSUMERS <key> <group> | HELP */
void xinfoCommand(client *c) {
    static const char *const help[] = {
        "CONSUMERS <key> <groupname>",
        "    Show consumers of <groupname>.",
        "GROUPS <key>",
        "    Show the stream consumer groups.",
        "STREAM <key> [FULL [COUNT <count>]",
        "    Show information about the stream.",
        nullptr,
    };
    const std::string_view opt = c->argv[1];
    const size_t argc = c->argv.size();
    if (strEqualNoCase(opt, "HELP")) {
        if (argc != 2) return addReplySubcommandSyntaxError(c);
        return addReplyHelp(c, help);
    }
    if (argc < 3) return addReplySubcommandSyntaxError(c);

    robj *o = lookupKeyReadOrReply(c, c->argv[2], shared::nokeyerr);
    if (!o || checkType(c, o, OBJ_STREAM)) return;
    stream *s = &objectStream(o);
    if (strEqualNoCase(opt, "CONSUMERS") && argc == 4) xinfoReplyWithConsumers(c, s);
    else if (strEqualNoCase(opt, "GROUPS") && argc == 3) xinfoReplyWithGroups(c, s);
    else if (strEqualNoCase(opt, "STREAM")) xinfoReplyWithStreamInfo(c, s);
    else addReplySubcommandSyntaxError(c);
}

