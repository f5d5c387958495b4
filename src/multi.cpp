/* multi.cpp — transactions (Redis's multi.c): MULTI queues commands, EXEC
 * runs them back to back with nothing from other clients in between,
 * DISCARD drops them, and WATCH turns EXEC into a check-and-set: it fails
 * (a null array) if a watched key changed since it was watched.
 *
 * Invariants:
 *  - CLIENT_MULTI is set from MULTI until EXEC/DISCARD; meanwhile
 *    processCommand queues every command but EXEC, DISCARD, MULTI, WATCH and
 *    QUIT. A command rejected while queueing (unknown, wrong arity, not
 *    allowed in MULTI) sets CLIENT_DIRTY_EXEC: EXEC then aborts the whole
 *    transaction with EXECABORT. A command that fails while EXEC runs it
 *    fails alone: its error is one element of EXEC's reply.
 *  - WATCH is two-sided: db->watched_keys maps a key to the clients
 *    watching it (what a write consults), and client->watched_keys lists
 *    the (db, key) pairs a client watches (what unwatching walks). Both
 *    change together, in watchForKey and unwatchAllKeys only.
 *  - Every change to a key reaches touchWatchedKey through
 *    signalModifiedKey (writes and expiry) or signalFlushedDb (FLUSHDB,
 *    FLUSHALL, called while the keys are still there); each watcher gets
 *    CLIENT_DIRTY_CAS and, having nothing more to learn, stops watching.
 *  - A key that was already logically expired when watched does not count
 *    as changed when it is finally deleted; one that expires after it was
 *    watched does, even if nobody has deleted it yet (isWatchedKeyExpired).
 *  - EXEC unwatches everything before running the queue, so the
 *    transaction's own writes never abort it.
 */
#include "multi.h"

#include "acl.h"

#include "server.h"

/* ========================================================================
 * MULTI / EXEC / DISCARD
 * ====================================================================== */

/* Copies the command in c->argv to the end of the queue. */
void queueMultiCommand(client *c) {
    /* An aborted transaction will not run: queueing would only waste memory
     * (a client pipelining a transaction does not see the abort in time). */
    if (c->flags & (CLIENT_DIRTY_CAS | CLIENT_DIRTY_EXEC)) return;
    multiState &ms = c->mstate;
    ms.commands.push_back({c->cmd, c->argv.size()});
    for (std::string_view arg : c->argv) {
        ms.argbytes.append(arg);
        ms.arglens.push_back(arg.size());
    }
    ms.argv_len_sums += c->argv_len_sum + sizeof(void *) * c->argv.size();
}

static void freeClientMultiState(client *c) { c->mstate = multiState{}; }

void discardTransaction(client *c) {
    freeClientMultiState(c);
    c->flags &= ~(CLIENT_MULTI | CLIENT_DIRTY_CAS | CLIENT_DIRTY_EXEC);
    unwatchAllKeys(c);
}

/* Called for every command rejected while queueing: EXEC will refuse. */
void flagTransaction(client *c) {
    if (c->flags & CLIENT_MULTI) c->flags |= CLIENT_DIRTY_EXEC;
}

void multiCommand(client *c) {
    if (c->flags & CLIENT_MULTI) {
        addReplyError(c, "MULTI calls can not be nested");
        return;
    }
    c->flags |= CLIENT_MULTI;
    addReply(c, shared::ok);
}

void discardCommand(client *c) {
    if (!(c->flags & CLIENT_MULTI)) {
        addReplyError(c, "DISCARD without MULTI");
        return;
    }
    discardTransaction(c);
    addReply(c, shared::ok);
}

/* EXEC itself was rejected (by processCommand, e.g. for its arity): the
 * transaction ends either way, and the client is told why. */
void execCommandAbort(client *c, std::string_view error) {
    discardTransaction(c);
    if (error.starts_with('-')) error.remove_prefix(1);
    std::string reply = "-EXECABORT Transaction discarded because of: ";
    reply.append(error);
    addReplyError(c, reply);
    /* MONITOR saw MULTI: EXEC shows it the transaction is over. */
    replicationFeedMonitors(c, c->db->id, c->argv);
}

static bool isWatchedKeyExpired(const client *c);

static const char *execACLDenialReason(int acl_retval) {
    switch (acl_retval) {
    case ACL_DENIED_CMD: return "no permission to execute the command or subcommand";
    case ACL_DENIED_KEY: return "no permission to touch the specified keys";
    default: return "no permission to access one of the channels used as arguments";
    }
}

/* Runs each queued command through call() with c->argv and c->cmd set as
 * if it had just been read, then puts EXEC's own back. */
static void execQueuedCommands(client *c) {
    multiState &ms = c->mstate;
    std::vector<std::string_view> exec_argv = std::move(c->argv);
    redisCommand *exec_cmd = c->cmd;
    size_t exec_argv_len_sum = c->argv_len_sum;

    addReplyArrayLen(c, static_cast<long long>(ms.commands.size()));
    const char *bytes = ms.argbytes.data();
    const size_t *len = ms.arglens.data();
    for (const multiCmd &mc : ms.commands) {
        c->argv.clear();
        c->argv_len_sum = 0;
        for (size_t j = 0; j < mc.argc; j++, len++) {
            c->argv.emplace_back(bytes, *len);
            c->argv_len_sum += *len;
            bytes += *len;
        }
        c->cmd = mc.cmd;
        /* Checked again: the user's rules may have changed since queueing. */
        if (int acl_errpos, acl_retval = ACLCheckAllPerm(c, &acl_errpos); acl_retval != ACL_OK) {
            addACLLogEntry(c, acl_retval, ACL_LOG_CTX_MULTI, acl_errpos);
            addReplyErrorFormat(c,
                                "-NOPERM ACLs rules changed between the moment the transaction was accumulated and "
                                "the EXEC call. This command is no longer allowed for the following reason: %s",
                                execACLDenialReason(acl_retval));
            continue;
        }
        call(c);
    }

    c->argv = std::move(exec_argv);
    c->cmd = exec_cmd;
    c->argv_len_sum = exec_argv_len_sum;
}

void execCommand(client *c) {
    if (!(c->flags & CLIENT_MULTI)) {
        addReplyError(c, "EXEC without MULTI");
        return;
    }
    if (isWatchedKeyExpired(c)) c->flags |= CLIENT_DIRTY_CAS;

    /* A queueing error aborts with an error; a touched WATCHed key is not an
     * error but the agreed "nothing done" answer, the null array. */
    if (c->flags & (CLIENT_DIRTY_CAS | CLIENT_DIRTY_EXEC)) {
        if (c->flags & CLIENT_DIRTY_EXEC)
            addReplyError(c, "-EXECABORT Transaction discarded because of previous errors.");
        else
            addReplyNullArray(c);
        discardTransaction(c);
        return;
    }

    unwatchAllKeys(c); /* the transaction's own writes must not abort it */
    execQueuedCommands(c);
    discardTransaction(c);
    /* Its commands reached the AOF one by one, inside MULTI/EXEC (call()):
     * EXEC itself is not propagated. Redis's call() tests for EXEC instead,
     * which here would make the server layer call up into this one. */
    preventCommandPropagation(c);
}

/* ========================================================================
 * WATCH
 * ====================================================================== */

static watchedKey *findWatchedKey(client *c, const redisDb *db, std::string_view key) {
    for (watchedKey &wk : c->watched_keys)
        if (wk.db == db && wk.de->key == key) return &wk;
    return nullptr;
}

static void watchForKey(client *c, std::string_view key) {
    if (findWatchedKey(c, c->db, key)) return;
    watchedKeysDict &index = c->db->watched_keys;
    watchedKeysDict::entry *de = index.find(key);
    if (!de) de = index.addRaw(sds(key));
    de->val.push_back(c);
    c->watched_keys.push_back({c->db, de, std::prev(de->val.end()), keyIsExpired(c->db, key)});
}

/* Stops watching every key. Clearing CLIENT_DIRTY_CAS is the caller's
 * business. */
void unwatchAllKeys(client *c) {
    for (watchedKey &wk : c->watched_keys) {
        std::list<client *> &clients = wk.de->val;
        clients.erase(wk.node);
        /* The entry (and the key it owns) goes with its last watcher. */
        if (clients.empty()) wk.db->watched_keys.erase(wk.de->key.view());
    }
    c->watched_keys.clear();
}

/* Keys already expired when watched are skipped: only a key that expired
 * since counts as a change. */
static bool isWatchedKeyExpired(const client *c) {
    for (const watchedKey &wk : c->watched_keys)
        if (!wk.expired && keyIsExpired(wk.db, wk.de->key.view())) return true;
    return false;
}

/* Whether a change to a watched key matters to this watcher. Deleting a key
 * that had expired before WATCH changes nothing visible: the client saw it
 * as absent then and sees it absent now. The deletion ends that special
 * case, so a later write counts again. */
static bool watchedKeyChanged(watchedKey &wk, bool deleted) {
    if (wk.expired && deleted) {
        wk.expired = false;
        return false;
    }
    return true;
}

/* "Touches" a key: every client watching it will see EXEC fail. */
void touchWatchedKey(redisDb *db, std::string_view key) {
    if (db->watched_keys.size() == 0) return;
    watchedKeysDict::entry *de = db->watched_keys.find(key);
    if (!de) return;
    std::list<client *> &clients = de->val;
    for (auto it = clients.begin(); it != clients.end();) {
        client *c = *it++;
        /* Unwatching c below removes only c's node of this list, but if
         * that was the last one the list itself is freed. */
        bool last = it == clients.end();
        if (!watchedKeyChanged(*findWatchedKey(c, db, key), !dbExists(db, key))) continue;
        c->flags |= CLIENT_DIRTY_CAS;
        unwatchAllKeys(c); /* dirty for good: no need to hear of more changes */
        if (last) break;
    }
}

/* FLUSHDB/FLUSHALL of `emptied` (replaced_with nullptr), or SWAPDB, which
 * gives `emptied` the keys of `replaced_with`; called while the keys are
 * still where they were. A watched key that exists before or after changes,
 * with the expired-key cases as Redis 7.0: a key that had expired when
 * watched and is gone or still expired after is no change, and an absent
 * key replaced with an expired one is not either (the watcher then counts
 * it as expired). Watchers are only flagged, not unwatched: unwatching
 * could free the entry being iterated. */
void touchAllWatchedKeysInDb(redisDb *emptied, redisDb *replaced_with) {
    if (emptied->watched_keys.size() == 0) return;
    for (auto &de : emptied->watched_keys) {
        std::string_view key = de.key.view();
        bool exists_in_emptied = dbExists(emptied, key);
        bool exists_in_replacement = replaced_with && dbExists(replaced_with, key);
        if (!exists_in_emptied && !exists_in_replacement) continue;
        for (client *c : de.val) {
            watchedKey &wk = *findWatchedKey(c, emptied, key);
            if (wk.expired) {
                if (!exists_in_replacement) {
                    wk.expired = false;
                    continue;
                }
                if (keyIsExpired(replaced_with, key)) continue;
            } else if (!exists_in_emptied && keyIsExpired(replaced_with, key)) {
                wk.expired = true;
                continue;
            }
            c->flags |= CLIENT_DIRTY_CAS;
        }
    }
}

void watchCommand(client *c) {
    if (c->flags & CLIENT_MULTI) {
        addReplyError(c, "WATCH inside MULTI is not allowed");
        return;
    }
    /* Already doomed: watching more cannot change the outcome. */
    if (!(c->flags & CLIENT_DIRTY_CAS))
        for (size_t j = 1; j < c->argv.size(); j++) watchForKey(c, c->argv[j]);
    addReply(c, shared::ok);
}

void unwatchCommand(client *c) {
    unwatchAllKeys(c);
    c->flags &= ~CLIENT_DIRTY_CAS;
    addReply(c, shared::ok);
}
