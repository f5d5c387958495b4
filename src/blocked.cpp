/* blocked.cpp — blocking operations (Redis 5.0–7.0's blocked.c, with Redis
 * 6's timeout.c): blocking a client on keys, waking it when one of them gets
 * a list, a sorted set or new stream entries, timing it out, and running
 * what it pipelined once it is free. Also here, though Redis has them
 * elsewhere: the blocking commands (BLPOP... from t_list.c, BZPOPMIN... from
 * t_zset.c, XREAD's waiting from t_stream.c), CLIENT UNBLOCK and CLIENT
 * PAUSE (networking.c): they sit above the types (tools/check_layers.sh).
 * blocked.h tells the whole story step by step and lists the invariants.
 * What depends on the type of value — the pop, and serving one woken
 * waiter (what a woken BLPOP, BLMOVE, BZPOPMIN or XREAD does) — lives with
 * the type, in t_list.cpp, t_zset.cpp and t_stream.cpp, which read the
 * waiter's c->bpop (networking.h) but call nothing of blocked.h; a table
 * below (key_waiter_types) names each type's serve function, through which
 * handleClientsBlockedOnKeys serves a ready key by the type of its value.
 *
 * Streams are the exception to what follows: a stream stays in the
 * keyspace however empty, so XREAD waits on keys that exist, and XADD
 * signals every entry it adds; a stream leaving the keyspace is signalled
 * too, for its XREADGROUP waiters (db.cpp).
 *
 * Why only dbAdd signals for lists and sorted sets (and SWAPDB, which
 * brings in a whole keyspace: scanDatabaseForReadyKeys, db.cpp): a client
 * blocks only when all its keys are missing (no list or sorted set in the
 * keyspace is ever empty), and handleClientsBlockedOnKeys runs after every
 * command that created one of them, leaving it either empty (so deleted) or
 * with nobody of its type left waiting. So a push onto a list (a ZADD to a
 * sorted set) that already exists can never concern a waiter; a write that
 * creates the key goes through dbAdd, as do RENAME, MOVE, COPY and the
 * *STORE commands onto a missing key. As in Redis 7.0, a key overwritten in
 * place (ZUNIONSTORE onto a string: dbOverwrite) wakes nobody.
 */
#include "blocked.h"

#include <algorithm>
#include <climits>
#include <cmath>

#include "latency.h"
#include "replication.h"
#include "server.h"
#include "slowlog.h"
#include "t_list.h"
#include "t_stream.h"
#include "t_zset.h"
#include "livetrace.h"
#include "util.h"

/* ========================================================================
 * Timeouts
 * ====================================================================== */

/* Deadlines are ae's monotonic clock, in microseconds: a wall-clock step can
 * neither time a client out early nor keep it waiting, and no rounding to a
 * whole millisecond makes it wait longer than it asked. (In Redis they are
 * wall-clock milliseconds, mstime_t, checked before each sleep, which may
 * last until the next cron tick.) */

/* The clock truncates to the microsecond, so the true "now" is up to 999 ns
 * later than it reads: the +1 makes the deadline at least `ms` and 1 ns after
 * the command ran. A timeout of millions of years saturates at LLONG_MAX
 * (as a monotime, so usable anywhere a deadline is) instead of wrapping. */
static monotime blockingDeadlineAfterMs(monotime ms) {
    constexpr auto max = static_cast<monotime>(LLONG_MAX);
    monotime now = getMonotonicUs() + 1;
    return ms > (max - now) / 1000 ? max : now + ms * 1000;
}

bool getTimeoutFromObjectOrReply(client *c, std::string_view arg, monotime *timeout, int unit) {
    if (unit == UNIT_MILLISECONDS) {
        long long ms;
        if (!getLongLongFromObjectOrReply(c, arg, &ms, "timeout is not an integer or out of range")) return false;
        if (ms < 0) {
            addReplyError(c, "timeout is negative");
            return false;
        }
        *timeout = ms == 0 ? 0 : blockingDeadlineAfterMs(static_cast<monotime>(ms));
        return true;
    }
    long double ftval;
    if (!string2ld(arg, &ftval)) {
        addReplyError(c, "timeout is not a float or out of range");
        return false;
    }
    /* Rounded up to the millisecond, as Redis 7.0.8 fixed it: truncated,
     * 0.0001 became 0, which means "forever". */
    long double ms = ceill(ftval * 1000.0L);
    /* Redis converts to long long unchecked, and on x86 anything beyond
     * LLONG_MAX (1e20, inf) comes out as LLONG_MIN: "negative" too. */
    if (ms < 0 || !(ms < 0x1p63L)) {
        addReplyError(c, "timeout is negative");
        return false;
    }
    /* A decimal fraction is rarely exact in binary: "2.026" times 1000 comes
     * out a hair above 2026, and ceill made it 2027 ms (Redis too), so one
     * timeout in a hundred with three decimals came a millisecond late.
     * Taking a picosecond off first keeps a whole number of milliseconds
     * whole and still rounds anything truly above it up; the picosecond is
     * less than the nanosecond the deadline adds (blockingDeadlineAfterMs),
     * so nobody is answered early. Any positive timeout still waits 1 ms. */
    if (ms > 0) ms = std::max(1.0L, ceill(ftval * 1000.0L - 1e-9L));
    *timeout = ms == 0 ? 0 : blockingDeadlineAfterMs(static_cast<monotime>(ms));
    return true;
}

/* After a pass over the due clients, the next one comes this much later at
 * the soonest. With deadlines far apart each is met to the microsecond; when
 * they crowd (10,000 waiters timing out over 2 s: one every 0.2 ms) the
 * loop wakes at most once a millisecond and answers all that came due
 * meanwhile, instead of once for each: a timeout is then up to 1 ms late,
 * and the wake-ups cost what they cost when deadlines were whole
 * milliseconds. */
constexpr monotime BLOCKED_TIMEOUT_MIN_INTERVAL_US = 1000;

static void updateBlockedTimeoutTimer(monotime not_before = 0);

/* The one time event of the timeout table: answers the clients whose
 * deadline has come, then arms a new event at the next deadline, or
 * BLOCKED_TIMEOUT_MIN_INTERVAL_US from now if that is later (a time proc
 * can only re-arm itself a whole number of milliseconds later, so it ends
 * and a new event is created at the microsecond). */
static long long blockedClientsTimeoutProc(aeEventLoop *, long long, void *) {
    handleBlockedClientsTimeout();
    server.blocked_timeout_te = -1;
    if (!server.clients_timeout_table.empty())
        updateBlockedTimeoutTimer(getMonotonicUs() + BLOCKED_TIMEOUT_MIN_INTERVAL_US);
    return AE_NOMORE;
}

/* Moves the timer earlier if the table's earliest deadline now comes before
 * it (but not before `not_before`). A timer left later is never a problem:
 * when clients leave the table it is not moved, and if it fires with nothing
 * due it just re-arms. So it is recreated only when a client blocks with the
 * nearest deadline of all — rarely, when deadlines are spread or all use the
 * same timeout. */
static void updateBlockedTimeoutTimer(monotime not_before) {
    monotime earliest = std::max(server.clients_timeout_table.begin()->first, not_before);
    if (server.blocked_timeout_te != -1) {
        if (server.blocked_timeout_te_when <= earliest) return;
        aeDeleteTimeEvent(server.el.get(), server.blocked_timeout_te);
    }
    server.blocked_timeout_te =
        aeCreateTimeEventAt(server.el.get(), earliest, blockedClientsTimeoutProc, nullptr, nullptr);
    server.blocked_timeout_te_when = earliest;
}

void addClientToTimeoutTable(client *c) {
    if (c->bpop.timeout == 0) return;
    server.clients_timeout_table.emplace(c->bpop.timeout, c);
    updateBlockedTimeoutTimer();
}

void removeClientFromTimeoutTable(client *c) {
    if (c->bpop.timeout == 0) return;
    server.clients_timeout_table.erase({c->bpop.timeout, c});
}

/* Only the clients due are visited: the table is ordered by deadline. */
void handleBlockedClientsTimeout() {
    monotime now = getMonotonicUs();
    clientsTimeoutTable &table = server.clients_timeout_table;
    while (!table.empty() && table.begin()->first <= now) {
        client *c = table.begin()->second;
        replyToBlockedClientTimedOut(c);
        unblockClient(c, "timeout"); /* erases it from the table */
    }
}

/* ========================================================================
 * Blocking and unblocking
 * ====================================================================== */

void blockClient(client *c, int btype) {
    c->flags |= CLIENT_BLOCKED;
    c->btype = btype;
    server.blocked_clients++;
    server.blocked_clients_by_type[btype]++;
    addClientToTimeoutTable(c);
    if (btype == BLOCKED_POSTPONE) server.postponed_clients.push_back(c);
}

/* `keys` and `target` are views into argv, which dies with the command: the
 * keys are copied into db->blocking_keys (once per key, whoever waits on
 * it), the target into c->bpop. */
void blockingPopGenericCommand(client *c, std::span<const std::string_view> keys, unsigned type, int btype,
                               int where, size_t timeout_idx, long count, popAndReplyProc pop) {
    monotime timeout;
    if (!getTimeoutFromObjectOrReply(c, c->argv[timeout_idx], &timeout)) return;
    for (std::string_view key : keys) {
        robj *o = lookupKeyWrite(c->db, key);
        if (!o) continue;
        if (checkType(c, o, type)) return;
        return pop(c, o, key, where, count);
    }
    if (c->flags & (CLIENT_MULTI | CLIENT_DENY_BLOCKING)) return addReplyNullArray(c);
    blockForKeys(c, btype, keys, count, timeout, std::nullopt, {where, 0});
}

static const char *blockedTypeName(int btype) {
    switch (btype) {
    case BLOCKED_LIST: return "list";
    case BLOCKED_ZSET: return "zset";
    case BLOCKED_STREAM: return "stream";
    case BLOCKED_WAIT: return "wait";
    case BLOCKED_POSTPONE: return "postpone";
    default: return "?";
    }
}

/* The start of the client's blocked span: what it waits on, until when. */
static void traceBlockForKeys(client *c, std::span<const std::string_view> keys,
                              std::optional<std::string_view> target) {
    std::string names;
    for (std::string_view key : keys) {
        if (!names.empty()) names += ' ';
        names += key;
    }
    monotime now = getMonotonicUs();
    traceEvent ev(TRACE_BLOCK, "blockForKeys", tracePhase::asyncBegin);
    ev.client(c->id).id(c->id).str("keys", names).str("type", blockedTypeName(c->btype));
    /* The time left, rounded up: a 50 ms timeout reads 50, not 49.99. */
    monotime left = c->bpop.timeout - std::min(now, c->bpop.timeout);
    ev.num("timeout_ms", c->bpop.timeout == 0 ? 0 : static_cast<long long>((left + 999) / 1000));
    if (target) ev.str("target", *target);
    ev.emit();
}

void blockForKeys(client *c, int btype, std::span<const std::string_view> keys, long count,
                  monotime timeout, std::optional<std::string_view> target, blockPos blockpos,
                  std::span<const streamID> ids) {
    blockingState &bpop = c->bpop;
    bpop.timeout = timeout;
    bpop.count = count;
    bpop.blockpos = blockpos;
    if (target) bpop.target.emplace(*target);

    for (size_t j = 0; j < keys.size(); j++) {
        std::string_view key = keys[j];
        blockingKeysDict::entry *de = c->db->blocking_keys.find(key);
        if (!de) de = c->db->blocking_keys.addRaw(sds(key));
        std::list<client *> &waiters = de->val;
        /* A key named twice (BLPOP k k 0) is waited on once: its first
         * mention already made c the last waiter of this very list. */
        if (!waiters.empty() && waiters.back() == c) continue;
        waiters.push_back(c);
        bpop.keys.push_back({de, std::prev(waiters.end()), ids.empty() ? streamID{} : ids[j]});
    }
    blockClient(c, btype);
    if (traceOn(TRACE_BLOCK)) traceBlockForKeys(c, keys, target);
}

/* Leaves every waiting list; an emptied one takes its key's entry along. */
static void unblockClientWaitingData(client *c) {
    for (const bkinfo &bki : c->bpop.keys) {
        std::list<client *> &waiters = bki.de->val;
        waiters.erase(bki.listnode);
        if (waiters.empty()) c->db->blocking_keys.erase(bki.de->key.view());
    }
    c->bpop.keys.clear(); /* keeps its capacity for the next block */
    c->bpop.target.reset();
    c->bpop.xread_group.reset();
    c->bpop.xread_consumer.reset();
}

/* A served command's accounting, held back when it blocked (Redis 7.0's
 * updateStatsOnUnblock): its time is call()'s plus the serving, the wait
 * left out; only now does it enter the slow log and its histogram. */
static void updateStatsOnUnblock(client *c, long long reply_us, bool had_errors) {
    const long long total_cmd_duration = c->duration + reply_us;
    c->lastcmd->microseconds += total_cmd_duration;
    if (had_errors) c->lastcmd->failed_calls++;
    if (server.latency_tracking_enabled) updateCommandLatencyHistogram(c->lastcmd, total_cmd_duration * 1000);
    slowlogPushCurrentCommand(c, c->lastcmd, total_cmd_duration);
    latencyAddSampleIfNeeded("command-unblocking", reply_us / 1000);
}

/* Every way out of CLIENT_BLOCKED ends here; the caller has replied (or,
 * from freeClient, there is nobody to reply to). */
void unblockClient(client *c, const char *reason) {
    if (traceOn(TRACE_BLOCK))
        traceEvent(TRACE_BLOCK, "unblockClient", tracePhase::asyncEnd)
            .client(c->id)
            .id(c->id)
            .str("reason", reason)
            .emit();
    if (c->btype == BLOCKED_LIST || c->btype == BLOCKED_ZSET || c->btype == BLOCKED_STREAM)
        unblockClientWaitingData(c);
    else if (c->btype == BLOCKED_WAIT)
        server.clients_waiting_acks.remove(c);
    else if (c->btype == BLOCKED_POSTPONE)
        server.postponed_clients.remove(c);
    removeClientFromTimeoutTable(c);
    server.blocked_clients--;
    server.blocked_clients_by_type[c->btype]--;
    c->flags &= ~CLIENT_BLOCKED;
    /* Done with its command (replied, or gone); a postponed one is yet to run. */
    if (c->btype != BLOCKED_POSTPONE) resetClient(c);
    c->btype = BLOCKED_NONE;
    c->bpop.timeout = 0;
    freeClientOriginalArgv(c);
    queueClientForReprocessing(c);
}

/* The reply of a wait that ran out (or CLIENT UNBLOCK ... TIMEOUT): the
 * null array, for every list command, BRPOPLPUSH and BLMOVE included;
 * WAIT's is the number of replicas that acknowledged so far. */
void replyToBlockedClientTimedOut(client *c) {
    if (c->btype == BLOCKED_LIST || c->btype == BLOCKED_ZSET || c->btype == BLOCKED_STREAM)
        addReplyNullArray(c);
    else if (c->btype == BLOCKED_WAIT)
        addReplyLongLong(c, replicationCountAcksByOffset(c->bpop.reploffset));
}

/* CLIENT_UNBLOCKED: what the client sent while blocked is still in its query
 * buffer, and no read event may ever come to process it (it may all have
 * arrived already). So it is queued for beforeSleep. */
/* The CLIENT_UNBLOCKED path, with what the client left in its query buffer. */
static void traceUnblockedClient(const client *c, const char *name) {
    traceEvent(TRACE_BLOCK, name)
        .client(c->id)
        .num("pending_bytes", static_cast<long long>(c->querybuf.size() - c->req.pos))
        .emit();
}

void queueClientForReprocessing(client *c) {
    if (c->flags & CLIENT_UNBLOCKED) return; /* already queued by an earlier unblock */
    c->flags |= CLIENT_UNBLOCKED;
    server.unblocked_clients.push_back(c);
    c->unblocked_node = std::prev(server.unblocked_clients.end());
    if (traceOn(TRACE_BLOCK)) traceUnblockedClient(c, "queueClientForReprocessing");
}

/* From beforeSleep. Running a client's commands may unblock others, queued
 * at the tail and run in this same call, or free some (CLIENT KILL), which
 * removes them from the queue: hence one pop at a time. */
int processUnblockedClients() {
    int processed = 0;
    while (!server.unblocked_clients.empty()) {
        client *c = server.unblocked_clients.front();
        server.unblocked_clients.pop_front();
        c->flags &= ~CLIENT_UNBLOCKED;
        processed++;
        if (traceOn(TRACE_BLOCK)) traceUnblockedClient(c, "processUnblockedClients");
        if (!(c->flags & CLIENT_BLOCKED)) processInputBuffer(c);
    }
    return processed;
}

/* ========================================================================
 * Waking
 * ====================================================================== */

/* The block types served from keys: each waits for one type of value and
 * is served by that type's serve-one-waiter (t_*.h). */
struct keyWaiterType {
    int btype;
    unsigned objtype;
    serveClientBlockedProc serve;
};
static constexpr keyWaiterType key_waiter_types[] = {
    {BLOCKED_LIST, OBJ_LIST, serveClientBlockedOnList},
    {BLOCKED_ZSET, OBJ_ZSET, serveClientBlockedOnSortedSet},
    {BLOCKED_STREAM, OBJ_STREAM, serveClientBlockedOnStream},
};

/* The block type waiting for a value of `objtype`, or BLOCKED_NONE. */
static int blockedTypeOf(unsigned objtype) {
    for (const keyWaiterType &t : key_waiter_types)
        if (t.objtype == objtype) return t.btype;
    return BLOCKED_NONE;
}

/* How waiters of `btype` (one of the table's) are served. */
static serveClientBlockedProc serveProcOf(int btype) {
    for (const keyWaiterType &t : key_waiter_types)
        if (t.btype == btype) return t.serve;
    return nullptr;
}

/* Which round of handleClientsBlockedOnKeys serves: 2 and up are chained
 * wakes (a served BRPOPLPUSH/BLMOVE pushed to a key others wait on). */
static int serve_round = 0;

/* A waiter served: the end of the arrow from the command that signalled
 * the key, with the reply it got (when it fits the static buffer). */
static void traceServed(const readyList &rl, const client *receiver, blockedServe served, size_t reply_mark) {
    traceEvent ev(TRACE_BLOCK, "handleClientsBlockedOnKeys", tracePhase::flowEnd);
    ev.client(receiver->id).id(rl.trace_flow).str("key", rl.key.view()).num("round", serve_round);
    ev.str("result", served == blockedServe::served_emptied ? "served, key emptied" : "served");
    if (receiver->reply.empty() && receiver->bufpos >= reply_mark)
        ev.str("reply", std::string_view(receiver->buf.get() + reply_mark, receiver->bufpos - reply_mark));
    ev.emit();
}

/* First-block-first-serve: the waiters of `key` blocked as `btype`, in the
 * order they blocked, one serve each, until the key is gone or nobody is
 * left. Clients waiting here for another type keep their place (Redis 7.0
 * skips them): a list waiter and a sorted-set waiter on one key each wait
 * for their own type. A waiter is served once however many keys it waits
 * on: unblockClient takes it off all of them. */
static void serveClientsBlockedOnKey(robj *o, const readyList &rl, int btype) {
    redisDb *db = rl.db;
    std::string_view key = rl.key.view();
    if (!server.blocked_clients_by_type[btype]) return;
    blockingKeysDict::entry *de = db->blocking_keys.find(key);
    if (!de) return;
    serveClientBlockedProc serve = serveProcOf(btype);
    std::list<client *> &waiters = de->val; /* never empty while it exists */
    auto it = waiters.begin();
    for (bool last = false; !last;) {
        client *receiver = *it++;
        /* Decided now: unblocking the last waiter frees `waiters` itself. */
        last = it == waiters.end();
        if (receiver->btype != btype) continue;
        /* As Redis: what serving does (a BRPOPLPUSH's push, its errors) is
         * the receiver's doing. */
        client *old_client = server.current_client;
        server.current_client = receiver;
        size_t reply_mark = traceOn(TRACE_BLOCK) ? receiver->bufpos : 0;
        long long prev_error_replies = server.stat_total_error_replies;
        monotime reply_start = getMonotonicUs();
        blockedServe served = serve(receiver, o, key);
        server.current_client = old_client;
        if (served == blockedServe::not_ready) continue;
        updateStatsOnUnblock(receiver, static_cast<long long>(getMonotonicUs() - reply_start),
                             server.stat_total_error_replies != prev_error_replies);
        if (traceOn(TRACE_BLOCK)) traceServed(rl, receiver, served, reply_mark);
        unblockClient(receiver, "served");
        if (served == blockedServe::served_emptied) break;
    }
}

/* The XREADGROUP waiters of a key that no longer holds a stream (deleted,
 * overwritten, flushed): their group is gone with it, so they are told at
 * once rather than left waiting (Redis 7.0's
 * unblockDeletedStreamReadgroupClients). */
static void unblockDeletedStreamReadgroupClients(redisDb *db, std::string_view key) {
    if (!server.blocked_clients_by_type[BLOCKED_STREAM]) return;
    blockingKeysDict::entry *de = db->blocking_keys.find(key);
    if (!de) return;
    std::list<client *> &waiters = de->val;
    auto it = waiters.begin();
    for (bool last = false; !last;) {
        client *receiver = *it++;
        last = it == waiters.end(); /* unblocking the last waiter frees `waiters` */
        if (receiver->btype != BLOCKED_STREAM || !receiver->bpop.xread_group) continue;
        monotime reply_start = getMonotonicUs();
        addReplyError(receiver, "-UNBLOCKED the stream key no longer exists");
        updateStatsOnUnblock(receiver, static_cast<long long>(getMonotonicUs() - reply_start), true);
        unblockClient(receiver, "stream deleted");
    }
}

/* Serves the waiters of every ready key. The outer loop is the chained wake:
 * serving BRPOPLPUSH/BLMOVE pushes to its target, which may signal a key
 * other clients wait on; that lands in a fresh server.ready_keys, served in
 * the next round. The two vectors trade places and keep their capacity. */
void handleClientsBlockedOnKeys() {
    static std::vector<readyList> l;
    serve_round = 0;
    while (!server.ready_keys.empty()) {
        serve_round++;
        l.swap(server.ready_keys);
        for (const readyList &rl : l) {
            /* First, so that serving may signal this same key again. */
            rl.db->ready_keys.erase(rl.key.view());
            /* Gone again, or re-created as another type: the waiters go on
             * waiting, but for XREADGROUP's, whose group went with the
             * stream. */
            robj *o = lookupKeyWrite(rl.db, rl.key.view());
            if (!o || o->type != OBJ_STREAM) unblockDeletedStreamReadgroupClients(rl.db, rl.key.view());
            if (!o) continue;
            int btype = blockedTypeOf(o->type);
            if (btype != BLOCKED_NONE) serveClientsBlockedOnKey(o, rl, btype);
        }
        l.clear();
    }
}

/* ---- leaving: freeClient and CLIENT UNBLOCK ------------------------------ */

/* A client being freed leaves every waiting list, and the queue of clients
 * to reprocess, first (networking.h, registerFreeClientProc). */
void unblockClientOnFree(client *c) {
    if (c->flags & CLIENT_BLOCKED) unblockClient(c, "disconnect");
    if (c->flags & CLIENT_UNBLOCKED) server.unblocked_clients.erase(c->unblocked_node);
}

/* In Redis, CLIENT UNBLOCK is in networking.c's clientCommand; here it is
 * with the blocking path, above networking. */
/* CLIENT UNBLOCK id [TIMEOUT|ERROR]: ends another client's wait as if it had
 * timed out (its null reply), or with an error. :1 if it was blocked. */
void clientUnblockCommand(client *c) {
    if (c->argv.size() > 4) return addReplySubcommandSyntaxError(c);
    bool unblock_error = false;
    if (c->argv.size() == 4) {
        if (strEqualNoCase(c->argv[3], "error")) unblock_error = true;
        else if (!strEqualNoCase(c->argv[3], "timeout"))
            return addReplyError(c, "CLIENT UNBLOCK reason should be TIMEOUT or ERROR");
    }
    long long id;
    if (!getLongLongFromObjectOrReply(c, c->argv[2], &id)) return;
    auto it = server.clients_index.find(static_cast<uint64_t>(id));
    client *target = it == server.clients_index.end() ? nullptr : it->second;
    if (!target || !(target->flags & CLIENT_BLOCKED)) return addReply(c, shared::czero);
    if (unblock_error) addReplyError(target, "-UNBLOCKED client unblocked via CLIENT UNBLOCK");
    else replyToBlockedClientTimedOut(target);
    unblockClient(target, unblock_error ? "CLIENT UNBLOCK ERROR" : "CLIENT UNBLOCK TIMEOUT");
    addReply(c, shared::cone);
}

/* ========================================================================
 * CLIENT PAUSE (in Redis, networking.c's pauseClients and friends; here
 * with the blocking path, which postponed clients wait on)
 *
 * processCommand blocks (BLOCKED_POSTPONE, no deadline) every client but
 * a replica or a monitor whose command the pause holds: any command under
 * ALL, a write or may-replicate one (a script that may write, an EXEC
 * holding one) under WRITE. The request stays in its query buffer; when
 * the pause ends or becomes less restrictive, every postponed client is
 * unblocked and its request runs again from the start, through
 * processCommand (so it may be postponed again). Deadlines of other
 * blocked clients (BLPOP ... 1) keep running meanwhile.
 * ====================================================================== */

static long long client_pause_te = -1; /* the time event at the pause's end */

/* Each postponed client goes back to processInputBuffer (in beforeSleep). */
static void unblockPostponedClients() {
    while (!server.postponed_clients.empty()) unblockClient(server.postponed_clients.front(), "pause ended");
}

/* The pause ends at its deadline; clients wait no longer than its new type makes them. */
static void updateClientPauseTypeAndEndTime() {
    int old_type = server.client_pause_type;
    if (old_type != CLIENT_PAUSE_OFF && server.client_pause_end_time <= getMonotonicUs()) {
        server.client_pause_type = CLIENT_PAUSE_OFF;
        server.client_pause_end_time = 0;
    }
    if (server.client_pause_type < old_type) unblockPostponedClients();
}

static long long clientPauseEndProc(aeEventLoop *, long long, void *) {
    client_pause_te = -1;
    updateClientPauseTypeAndEndTime();
    return AE_NOMORE;
}

/* A pause on a pause keeps the more restrictive type and the later end. */
static void pauseClients(monotime end, int type) {
    if (server.client_pause_type == CLIENT_PAUSE_OFF) {
        server.client_pause_type = type;
        server.client_pause_end_time = end;
    } else {
        server.client_pause_type = std::max(server.client_pause_type, type);
        server.client_pause_end_time = std::max(server.client_pause_end_time, end);
    }
    updateClientPauseTypeAndEndTime();
    if (client_pause_te != -1) aeDeleteTimeEvent(server.el.get(), client_pause_te);
    client_pause_te = -1;
    if (server.client_pause_type != CLIENT_PAUSE_OFF)
        client_pause_te = aeCreateTimeEventAt(server.el.get(), server.client_pause_end_time, clientPauseEndProc,
                                              nullptr, nullptr);
}

static void unpauseClients() {
    server.client_pause_end_time = 0; /* due now */
    updateClientPauseTypeAndEndTime();
    if (client_pause_te != -1) aeDeleteTimeEvent(server.el.get(), client_pause_te);
    client_pause_te = -1;
}

/* CLIENT PAUSE timeout [WRITE|ALL]: timeout in milliseconds. */
void clientPauseCommand(client *c) {
    if (c->argv.size() > 4) return addReplySubcommandSyntaxError(c);
    int type = CLIENT_PAUSE_ALL;
    if (c->argv.size() == 4) {
        if (strEqualNoCase(c->argv[3], "write")) type = CLIENT_PAUSE_WRITE;
        else if (!strEqualNoCase(c->argv[3], "all")) return addReplyError(c, "CLIENT PAUSE mode must be WRITE or ALL");
    }
    monotime end;
    if (!getTimeoutFromObjectOrReply(c, c->argv[2], &end, UNIT_MILLISECONDS)) return;
    pauseClients(end, type);
    addReply(c, shared::ok);
}

void clientUnpauseCommand(client *c) {
    unpauseClients();
    addReply(c, shared::ok);
}

void traceNameBlockedProcs() {
    traceNameProc(reinterpret_cast<const void *>(blockedClientsTimeoutProc), "blockedClientsTimeoutProc");
    traceNameProc(reinterpret_cast<const void *>(clientPauseEndProc), "clientPauseEndProc");
}

/* ========================================================================
 * The blocking commands: BLPOP, BRPOP, BLMPOP, BRPOPLPUSH, BLMOVE (in
 * Redis, in t_list.c) and BZPOPMIN, BZPOPMAX, BZMPOP (in t_zset.c)
 *
 * Here so that the types, a layer below (tools/check_layers.sh), need
 * nothing of blocking: each gives its pop (t_list.h, t_zset.h). A command
 * acts at once, as its non-blocking twin, when a key it reads holds its
 * type; otherwise it blocks — except inside MULTI or a script, where nobody
 * could push while it waits: it answers as a timeout would (BRPOPLPUSH and
 * BLMOVE as RPOPLPUSH on a missing key).
 * ====================================================================== */

/* BLPOP, BRPOP, BLMPOP: blockingPopGenericCommand on lists. */
static void blockingListPopCommand(client *c, std::span<const std::string_view> keys, int where,
                                   size_t timeout_idx, long count) {
    blockingPopGenericCommand(c, keys, OBJ_LIST, BLOCKED_LIST, where, timeout_idx, count,
                              [](client *c, robj *o, std::string_view key, int where, long count) {
                                  listPopWithKeyAndReply(c, o, key, where, count);
                              });
}

/* BLPOP/BRPOP key [key ...] timeout */
static void blpopGenericCommand(client *c, int where) {
    size_t argc = c->argv.size();
    blockingListPopCommand(c, std::span(c->argv).subspan(1, argc - 2), where, argc - 1, -1);
}

void blpopCommand(client *c) { blpopGenericCommand(c, LIST_HEAD); }
void brpopCommand(client *c) { blpopGenericCommand(c, LIST_TAIL); }

/* BLMPOP timeout numkeys key [key ...] LEFT|RIGHT [COUNT count]: the
 * arguments are checked as LMPOP's, then the timeout. */
void blmpopCommand(client *c) {
    lmpopGenericCommand(c, 2, [](client *c, std::span<const std::string_view> keys, int where, long count) {
        blockingListPopCommand(c, keys, where, 1, count);
    });
}

/* BRPOPLPUSH and BLMOVE block on their source only; the destination's type
 * is checked when an element moves. `twin` is the non-blocking command the
 * AOF gets for a move done at once. */
static void blmoveGenericCommand(client *c, int wherefrom, int whereto, monotime timeout, std::string_view twin) {
    robj *src = lookupKeyWrite(c->db, c->argv[1]);
    if (checkType(c, src, OBJ_LIST)) return;
    if (src) {
        lmoveGenericCommand(c, wherefrom, whereto);
        if (!propagationTargets()) return;
        /* The twin, without the timeout. */
        std::vector<std::string_view> argv(c->argv.begin(), c->argv.end() - 1);
        argv[0] = twin;
        return rewriteClientCommandVector(c, argv);
    }
    if (c->flags & (CLIENT_MULTI | CLIENT_DENY_BLOCKING)) return addReplyNull(c);
    blockForKeys(c, BLOCKED_LIST, std::span(c->argv).subspan(1, 1), -1, timeout, c->argv[2], {wherefrom, whereto});
}

/* BRPOPLPUSH source destination timeout */
void brpoplpushCommand(client *c) {
    monotime timeout;
    if (!getTimeoutFromObjectOrReply(c, c->argv[3], &timeout)) return;
    blmoveGenericCommand(c, LIST_TAIL, LIST_HEAD, timeout, "RPOPLPUSH");
}

/* BLMOVE source destination LEFT|RIGHT LEFT|RIGHT timeout */
void blmoveCommand(client *c) {
    int wherefrom, whereto;
    monotime timeout;
    if (!getListPositionFromObjectOrReply(c, c->argv[3], &wherefrom) ||
        !getListPositionFromObjectOrReply(c, c->argv[4], &whereto) ||
        !getTimeoutFromObjectOrReply(c, c->argv[5], &timeout))
        return;
    blmoveGenericCommand(c, wherefrom, whereto, timeout, "LMOVE");
}

/* BZPOPMIN, BZPOPMAX, BZMPOP: blockingPopGenericCommand on sorted sets. */
static void blockingGenericZpopCommand(client *c, std::span<const std::string_view> keys, int where,
                                       size_t timeout_idx, long count) {
    blockingPopGenericCommand(c, keys, OBJ_ZSET, BLOCKED_ZSET, where, timeout_idx, count,
                              [](client *c, robj *, std::string_view key, int where, long count) {
                                  zpopWithKeyAndReply(c, key, where, count);
                              });
}

/* BZPOPMIN/BZPOPMAX key [key ...] timeout */
static void bzpopMinMaxCommand(client *c, int where) {
    size_t argc = c->argv.size();
    blockingGenericZpopCommand(c, std::span(c->argv).subspan(1, argc - 2), where, argc - 1, -1);
}

void bzpopminCommand(client *c) { bzpopMinMaxCommand(c, ZSET_MIN); }
void bzpopmaxCommand(client *c) { bzpopMinMaxCommand(c, ZSET_MAX); }

/* BZMPOP timeout numkeys key [key ...] MIN|MAX [COUNT count]: the
 * arguments are checked as ZMPOP's, then the timeout. */
void bzmpopCommand(client *c) {
    zmpopGenericCommand(c, 2, [](client *c, std::span<const std::string_view> keys, int where, long count) {
        blockingGenericZpopCommand(c, keys, where, 1, count);
    });
}

/* XREAD [COUNT count] [BLOCK ms] STREAMS key [key ...] id [id ...]
 * XREADGROUP GROUP group consumer [COUNT count] [BLOCK ms] [NOACK]
 *            STREAMS key [key ...] id [id ...]
 * All but the waiting is the stream's (xreadGenericCommand, t_stream.h). */
void xreadCommand(client *c) {
    xreadBlockArgs block;
    if (xreadGenericCommand(c, &block)) return;
    monotime timeout = block.timeout_ms == 0 ? 0 : blockingDeadlineAfterMs(block.timeout_ms);
    if (block.group) {
        c->bpop.xread_group.emplace(*block.group);
        c->bpop.xread_consumer.emplace(block.consumer);
        c->bpop.xread_group_noack = block.noack;
    }
    blockForKeys(c, BLOCKED_STREAM, block.keys, block.count, timeout, std::nullopt, {}, block.ids);
}
