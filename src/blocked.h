/* blocked.h — blocking operations (Redis 5.0–7.0's blocked.c, with Redis 6's
 * timeout.c): how a client running BLPOP, BRPOP, BRPOPLPUSH, BLMOVE or BLMPOP
 * on missing lists, BZPOPMIN, BZPOPMAX or BZMPOP on missing sorted sets, or
 * XREAD/XREADGROUP BLOCK on streams with nothing new, waits without
 * blocking the server, and the three ways it stops waiting.
 *
 * The life of a blocked client, step by step, under its Redis names:
 *
 *   blockForKeys         the command found every key empty: record the keys,
 *                        the deadline and the target in c->bpop, append c to
 *                        db->blocking_keys[key] (a FIFO per key) for each key,
 *                        then blockClient: flag CLIENT_BLOCKED, count it, and
 *                        file its deadline in the timeout table. Nothing is
 *                        replied; the socket stays open and is still read
 *                        (EOF is noticed at once), but processInputBuffer runs
 *                        nothing while the flag is set.
 *   signalKeyAsReady     a list, a sorted set or a stream entered the
 *                        keyspace (dbAdd), a stream got an entry (XADD) or
 *                        left the keyspace, under a key somebody waits on:
 *                        queue {db, key} in server.ready_keys, once
 *                        (db->ready_keys dedupes). The keyspace does it
 *                        itself (db.h), XADD and XGROUP DESTROY too.
 *   handleClientsBlockedOnKeys
 *                        after the command (processCommand, so after EXEC for
 *                        a transaction): serve each ready key's waiters of the
 *                        key's type (BLOCKED_LIST for a list, BLOCKED_ZSET for
 *                        a sorted set, BLOCKED_STREAM for a stream; the
 *                        others go on waiting, in place)
 *                        first-block-first-serve, one pop (or read) each by
 *                        the type's serve function (key_waiter_types),
 *                        then unblockClient, until the key is empty or nobody
 *                        waits; repeat while serving signalled more keys
 *                        (BLMOVE pushing to a key others wait on: the chained
 *                        wake). An XREADGROUP waiter whose stream is gone
 *                        (or is no longer a stream) gets an error instead.
 *   replyToBlockedClientTimedOut
 *                        the deadline passed: a null reply.
 *   unblockClient        every way out (served, timed out, CLIENT UNBLOCK,
 *                        freeClient) ends here: leave every waiting list and
 *                        the timeout table, clear CLIENT_BLOCKED, and
 *                        queueClientForReprocessing: flag CLIENT_UNBLOCKED and
 *                        queue the client in server.unblocked_clients.
 *   processUnblockedClients
 *                        in beforeSleep: run the commands the client pipelined
 *                        after its blocking one, waiting in its query buffer.
 *
 * Invariants:
 *  - A client is CLIENT_BLOCKED exactly while it is in the blocking_keys list
 *    of each of its bpop.keys (once per key) and, if bpop.timeout != 0, in
 *    server.clients_timeout_table; unblockClient removes it from all of them,
 *    so nothing is ever popped for, or replied to, a client that is gone.
 *  - A db->blocking_keys entry exists only while its list of waiters is not
 *    empty; the entry owns the key's name, which the waiters' bkinfo share.
 *  - A key is in db->ready_keys exactly while a readyList for it is queued
 *    in server.ready_keys.
 *  - Deadlines are monotonic microseconds (ae's clock), never earlier than
 *    the timeout after the command ran. The timeout table is ordered by
 *    deadline and one time event is armed at its earliest deadline, which
 *    ae sleeps until (to the microsecond where the backend can: ae.h), so a
 *    timeout is answered a fraction of a millisecond after it, whatever hz
 *    is (within a millisecond when deadlines crowd: the timer fires at most
 *    once a millisecond), and waiting clients cost nothing per cron tick.
 */
#pragma once

#include <cstdint>
#include <list>
#include <optional>
#include <set>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "server.h"

struct client;

/* ---- the clock and the timeout argument --------------------------------- */
/* Parses a timeout in seconds (fractions allowed, as Redis 6+) into a
 * deadline (getMonotonicUs's clock), or 0 for "forever"; replies Redis 7.0's
 * error otherwise. The timeout is rounded up to the millisecond, as Redis
 * does: any positive one waits at least 1 ms, 0.0001 must not become 0. */
/* With UNIT_MILLISECONDS (WAIT) the argument is an integer of milliseconds. */
constexpr int UNIT_SECONDS = 0, UNIT_MILLISECONDS = 1;
bool getTimeoutFromObjectOrReply(client *c, std::string_view arg, monotime *timeout, int unit = UNIT_SECONDS);

/* ---- blocking and unblocking -------------------------------------------- */
/* Pops from `o`, the value at `key`, in the command's reply shape (count
 * -1: BLPOP/BRPOP/BZPOPMIN/BZPOPMAX's single element). */
using popAndReplyProc = void (*)(client *c, robj *o, std::string_view key, int where, long count);
/* What every blocking pop shares (BLPOP, BRPOP, BLMPOP, BZPOPMIN, BZPOPMAX,
 * BZMPOP): the timeout argument is checked first; then the first of `keys`
 * holding a value of `type`, left to right, is popped at once with `pop`; a
 * key of another type stops the search with WRONGTYPE; inside MULTI (or a
 * script: CLIENT_DENY_BLOCKING) the answer is a null array at once;
 * otherwise the client blocks (`btype`) on all of the keys. */
void blockingPopGenericCommand(client *c, std::span<const std::string_view> keys, unsigned type, int btype,
                               int where, size_t timeout_idx, long count, popAndReplyProc pop);
/* `ids` (BLOCKED_STREAM only): per key, the ID its entries must pass. */
void blockForKeys(client *c, int btype, std::span<const std::string_view> keys, long count,
                  monotime timeout, std::optional<std::string_view> target, blockPos blockpos,
                  std::span<const streamID> ids = {});
void blockClient(client *c, int btype);
/* `reason` (served, timeout, CLIENT UNBLOCK, disconnect...) is for the trace. */
void unblockClient(client *c, const char *reason);
void replyToBlockedClientTimedOut(client *c);
void queueClientForReprocessing(client *c);
/* Returns how many clients it reprocessed. */
int processUnblockedClients();
/* freeClient's step for blocking: off every waiting list and the queue of
 * clients to reprocess (registerFreeClientProc, networking.h). */
void unblockClientOnFree(client *c);
/* Gives the live trace the names of the time events of blocking (the
 * timeouts' timer, CLIENT PAUSE's end); installServerHooks calls it once. */
void traceNameBlockedProcs();

/* ---- waking (signalKeyAsReady, which queues a ready key, is db.h's) ------ */
void handleClientsBlockedOnKeys();
/* A blocking type's one part of serving (its "serve one waiter"): gives
 * `receiver` what its command asked for from `o`, the value under `key`,
 * replies, and propagates what it did (rewriteOrAlsoPropagate, server.h);
 * says whether it served and whether that emptied (so deleted) the key, or
 * that nothing is there for this waiter yet (blockedServe, networking.h).
 * It does not unblock: handleClientsBlockedOnKeys does, after it. */
using serveClientBlockedProc = blockedServe (*)(client *receiver, robj *o, std::string_view key);

/* How a new blocking type plugs in (BLOCKED_LIST and BLOCKED_ZSET are the
 * examples):
 *  - Waiting on keys (BLOCKED_STREAM, XREAD BLOCK):
 *    1. in the type's file (t_x.cpp; the types, a layer below this file,
 *       know nothing of blocking), implement and declare in t_x.h what the
 *       command does at once when a key holds data (its pop:
 *       listPopWithKeyAndReply, zpopWithKeyAndReply) and a
 *       serveClientBlockedProc, its "serve one waiter"
 *       (serveClientBlockedOnList, serveClientBlockedOnSortedSet);
 *    2. the blocking command goes in blocked.cpp (Redis has them in the
 *       types' files): with data there, it calls the type's pop; otherwise blockForKeys with its btype and
 *       what it will need when served (bpop.target, blockpos, count; a new
 *       field of blockingState if none fits). A command that pops the first
 *       key it finds just calls blockingPopGenericCommand;
 *    3. add a row to blocked.cpp's table of key waiters, next to the others:
 *         {BLOCKED_X, OBJ_X, serveClientBlockedOnX},
 *       One block type per type of value: handleClientsBlockedOnKeys
 *       serves a key's waiters of the block type of its value's row;
 *    4. signal: dbAdd signals a new key holding a list or a sorted set (its
 *       mayUnblock test, db.cpp): add the type there; a type that gives
 *       waiters something on a key that exists (XADD) calls
 *       signalKeyAsReady (db.h) itself;
 *    5. unblockClient and replyToBlockedClientTimedOut already treat
 *       BLOCKED_STREAM as a key waiter.
 *    handleClientsBlockedOnKeys unblocks every waiter `serve` served; one
 *    it says is not_ready (XREAD's ID not passed yet) goes on waiting.
 *  - Waiting on something else (BLOCKED_WAIT: replicas' acknowledgements):
 *    no registration; the command calls blockClient, its own event serves
 *    the client and calls unblockClient, and the type's timeout reply is
 *    added to replyToBlockedClientTimedOut. */

/* ---- timeouts (Redis 6's timeout.c) ------------------------------------- */
void addClientToTimeoutTable(client *c);
void removeClientFromTimeoutTable(client *c);
void handleBlockedClientsTimeout();

/* CLIENT UNBLOCK, CLIENT PAUSE, CLIENT UNPAUSE (the command table is in commands.cpp). */
void clientUnblockCommand(client *c);
void clientPauseCommand(client *c);
void clientUnpauseCommand(client *c);

/* The blocking commands (the command table is in commands.cpp). In Redis
 * they are in t_list.c and t_zset.c; here in blocked.cpp, so that the types
 * need nothing of blocking (see "How a new blocking type plugs in"). */
void blpopCommand(client *c);
void brpopCommand(client *c);
void brpoplpushCommand(client *c);
void blmoveCommand(client *c);
void blmpopCommand(client *c);
void bzpopminCommand(client *c);
void bzpopmaxCommand(client *c);
void bzmpopCommand(client *c);
void xreadCommand(client *c); /* XREAD and XREADGROUP: the stream half is t_stream.h's */
