/* expire.cpp — key expiry (Redis's expire.c): the EXPIRE family, TTL/PTTL,
 * EXPIRETIME/PEXPIRETIME, PERSIST, and the active expire cycle.
 *
 * A key with a TTL has an entry in db->expires holding its deadline as a
 * unix time in milliseconds. Keys die in two ways:
 *  - lazily: every lookup first deletes a key whose deadline has passed
 *    (expireIfNeeded, db.cpp), so no command ever sees an expired key;
 *  - actively: serverCron runs activeExpireCycle, which samples keys with a
 *    TTL and deletes the expired ones, so the memory of keys nobody reads
 *    again is reclaimed too. It is bounded in time (25% of a cron tick) and
 *    resumes where it stopped, so it never stalls the event loop.
 * Both paths delete through deleteExpiredKeyAndPropagate, which counts the
 * expiry (INFO expired_keys) and tells WATCHers.
 *
 * Relative times (EXPIRE, TTL) are taken from server.mstime, the time the
 * command started, so a TTL read right after it was set is exact.
 */
#include "expire.h"

#include <algorithm>
#include <climits>
#include <string>

#include "latency.h"
#include "notify.h"
#include "server.h"
#include "livetrace.h"

/* ========================================================================
 * EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT
 * ====================================================================== */

constexpr int EXPIRE_NX = 1 << 0, EXPIRE_XX = 1 << 1, EXPIRE_GT = 1 << 2, EXPIRE_LT = 1 << 3;
enum class ExpireUnit { Seconds, Milliseconds };

/* The NX/XX/GT/LT options after the time: NX excludes all others, GT
 * excludes LT. */
static bool parseExtendedExpireArgumentsOrReply(client *c, int *flags) {
    for (size_t j = 3; j < c->argv.size(); j++) {
        std::string_view opt = c->argv[j];
        if (strEqualNoCase(opt, "nx")) *flags |= EXPIRE_NX;
        else if (strEqualNoCase(opt, "xx")) *flags |= EXPIRE_XX;
        else if (strEqualNoCase(opt, "gt")) *flags |= EXPIRE_GT;
        else if (strEqualNoCase(opt, "lt")) *flags |= EXPIRE_LT;
        else {
            addReplyErrorFormat(c, "Unsupported option %.*s", static_cast<int>(opt.size()), opt.data());
            return false;
        }
    }
    if ((*flags & EXPIRE_NX) && (*flags & (EXPIRE_XX | EXPIRE_GT | EXPIRE_LT))) {
        addReplyError(c, "NX and XX, GT or LT options at the same time are not compatible");
        return false;
    }
    if ((*flags & EXPIRE_GT) && (*flags & EXPIRE_LT)) {
        addReplyError(c, "GT and LT options at the same time are not compatible");
        return false;
    }
    return true;
}

static void addReplyErrorExpireTime(client *c) {
    addReplyErrorFormat(c, "invalid expire time in '%s' command", c->cmd->fullname.c_str());
}

/* Whether the options let a key whose deadline is `current` (-1: none)
 * take the deadline `when`. No TTL counts as an infinite one: GT never
 * beats it, LT always does. */
static bool expireConditionsMet(int flags, long long current, long long when) {
    if ((flags & EXPIRE_NX) && current != -1) return false;
    if ((flags & EXPIRE_XX) && current == -1) return false;
    if ((flags & EXPIRE_GT) && (current == -1 || when <= current)) return false;
    if ((flags & EXPIRE_LT) && current != -1 && when >= current) return false;
    return true;
}

/* The four commands in one: `basetime` is 0 for the *AT variants (absolute
 * time) or now for the relative ones; argv[2] is in `unit`. A deadline
 * already past deletes the key at once (replying 1, as it did expire). */
static void expireGenericCommand(client *c, long long basetime, ExpireUnit unit) {
    std::string_view key = c->argv[1];
    int flags = 0;
    long long when;
    if (!parseExtendedExpireArgumentsOrReply(c, &flags)) return;
    if (!getLongLongFromObjectOrReply(c, c->argv[2], &when)) return;

    /* Negative times are allowed (the key just dies), overflow is not. */
    if (unit == ExpireUnit::Seconds) {
        if (when > LLONG_MAX / 1000 || when < LLONG_MIN / 1000) return addReplyErrorExpireTime(c);
        when *= 1000;
    }
    if (when > LLONG_MAX - basetime) return addReplyErrorExpireTime(c);
    when += basetime;

    if (!lookupKeyWrite(c->db, key)) {
        addReply(c, shared::czero);
        return;
    }
    if (flags && !expireConditionsMet(flags, getExpire(c->db, key), when)) {
        addReply(c, shared::czero);
        return;
    }
    /* The AOF gets an absolute deadline (PEXPIREAT <unix ms>, the options
     * kept), or the DEL (UNLINK under lazyfree-lazy-expire) it came to.
     * While a file loads nothing is deleted (Redis's checkAlreadyExpired):
     * the key expires once the server is up. */
    if (when <= server.mstime && !server.loading) {
        bool lazy = server.lazyfree_lazy_expire;
        if (lazy) dbAsyncDelete(c->db, key);
        else dbSyncDelete(c->db, key);
        notifyKeyspaceEvent(NOTIFY_GENERIC, "del", key, c->db->id);
        rewriteClientCommandVector(c, {lazy ? "UNLINK" : "DEL", key});
    } else {
        setExpire(c, c->db, key, when);
        notifyKeyspaceEvent(NOTIFY_GENERIC, "expire", key, c->db->id);
        if (c->cmd->proc != pexpireatCommand && propagationTargets()) {
            std::vector<std::string_view> argv = c->argv;
            char ms[LONG_STR_SIZE];
            argv[0] = "PEXPIREAT";
            argv[2] = std::string_view(ms, ll2string(ms, sizeof(ms), when));
            rewriteClientCommandVector(c, argv);
        }
    }
    signalModifiedKey(c, c->db, key);
    server.dirty++;
    addReply(c, shared::cone);
}

void expireCommand(client *c) { expireGenericCommand(c, server.mstime, ExpireUnit::Seconds); }
void pexpireCommand(client *c) { expireGenericCommand(c, server.mstime, ExpireUnit::Milliseconds); }
void expireatCommand(client *c) { expireGenericCommand(c, 0, ExpireUnit::Seconds); }
void pexpireatCommand(client *c) { expireGenericCommand(c, 0, ExpireUnit::Milliseconds); }

/* ========================================================================
 * TTL, PTTL, EXPIRETIME, PEXPIRETIME, PERSIST
 * ====================================================================== */

/* -2: no such key, -1: no TTL. Otherwise the time left (never negative)
 * or the deadline (output_abs); in seconds rounded to the nearest, as
 * Redis does (1500 ms left is TTL 2, 1499 is 1). */
static void ttlGenericCommand(client *c, bool output_ms, bool output_abs) {
    if (!lookupKeyReadWithFlags(c->db, c->argv[1], LOOKUP_NOTOUCH)) {
        addReplyLongLong(c, -2);
        return;
    }
    long long expire = getExpire(c->db, c->argv[1]);
    if (expire == -1) {
        addReplyLongLong(c, -1);
        return;
    }
    long long ttl = std::max(0LL, output_abs ? expire : expire - server.mstime);
    /* Unsigned, so that rounding a deadline near LLONG_MAX cannot overflow
     * (Redis's compiled code gives the same answers). */
    long long secs = static_cast<long long>((static_cast<unsigned long long>(ttl) + 500) / 1000);
    addReplyLongLong(c, output_ms ? ttl : secs);
}

void ttlCommand(client *c) { ttlGenericCommand(c, false, false); }
void pttlCommand(client *c) { ttlGenericCommand(c, true, false); }
void expiretimeCommand(client *c) { ttlGenericCommand(c, false, true); }
void pexpiretimeCommand(client *c) { ttlGenericCommand(c, true, true); }

void persistCommand(client *c) {
    if (!lookupKeyWrite(c->db, c->argv[1]) || !removeExpire(c->db, c->argv[1])) {
        addReply(c, shared::czero);
        return;
    }
    signalModifiedKey(c, c->db, c->argv[1]);
    notifyKeyspaceEvent(NOTIFY_GENERIC, "persist", c->argv[1], c->db->id);
    server.dirty++;
    addReply(c, shared::cone);
}

/* ========================================================================
 * The active expire cycle
 * ====================================================================== */

constexpr unsigned long ACTIVE_EXPIRE_CYCLE_KEYS_PER_LOOP = 20; /* keys sampled per round */
constexpr long long ACTIVE_EXPIRE_CYCLE_SLOW_TIME_PERC = 25;    /* max % of a cron tick */
constexpr unsigned long ACTIVE_EXPIRE_CYCLE_ACCEPTABLE_STALE = 10; /* % expired to go on */

/* One sampling round's findings. */
struct ExpireSample {
    unsigned long sampled = 0, expired = 0;
    __int128 ttl_sum = 0; /* over the sampled keys still alive: 20 TTLs may exceed LLONG_MAX */
    long ttl_samples = 0;
};

/* activeExpireCycleTryExpire: deletes the key if its time has passed. */
static bool activeExpireTryExpire(redisDb *db, expiresDict::entry &de, long long now) {
    if (now <= de.val) return false;
    /* The entry's key lives in the dict entry that is about to be freed. */
    sds key(std::string_view(de.key));
    deleteExpiredKeyAndPropagate(db, key);
    return true;
}

/* One round: walks db->expires from db->expires_cursor until `num` keys
 * were looked at (or num*20 buckets, for sparse tables), deleting the
 * expired ones. dict::scan visits each bucket once per pass even while
 * the table rehashes, and lets the callback delete the entry it is given. */
static ExpireSample activeExpireSampleDb(redisDb *db, unsigned long num) {
    ExpireSample s;
    long long now = mstime();
    unsigned long max_buckets = num * 20;
    for (unsigned long checked = 0; s.sampled < num && checked < max_buckets && db->expires.size(); checked++) {
        db->expires_cursor = db->expires.scan(db->expires_cursor, [&](expiresDict::entry &de) {
            long long ttl = de.val - now;
            if (activeExpireTryExpire(db, de, now)) s.expired++;
            if (ttl > 0) {
                s.ttl_sum += ttl;
                s.ttl_samples++;
            }
            s.sampled++;
        });
    }
    return s;
}

/* INFO keyspace's avg_ttl: a running average, each round weighing 2%. */
static void updateAvgTtl(redisDb *db, const ExpireSample &s) {
    if (!s.ttl_samples) return;
    auto avg_ttl = static_cast<long long>(s.ttl_sum / s.ttl_samples);
    if (db->avg_ttl == 0) db->avg_ttl = avg_ttl;
    db->avg_ttl = (db->avg_ttl / 50) * 49 + (avg_ttl / 50);
}

/* Redis's activeExpireCycle (the "slow" cycle run by serverCron). For each
 * database in turn, sample ACTIVE_EXPIRE_CYCLE_KEYS_PER_LOOP keys with a
 * TTL and delete the expired; while more than 10% of a sample had expired,
 * the database probably holds many more, so sample again. Stop when the
 * time budget — 25% of a cron tick — is spent, and resume at the next
 * database next time (all of them, if this call ran out of time).
 * Traced (TRACE_CRON) as one slice per call that sampled anything: an idle
 * server would otherwise print hz lines a second. */
void activeExpireCycle() {
    static unsigned current_db = 0;     /* next database to look at */
    static bool timelimit_exit = false; /* the previous call hit the time limit */
    if (checkClientPauseTimeoutAndReturnIfPaused()) return; /* the dataset stays as it is */

    /* active-expire-effort (1..10): each step above 1 samples a quarter
     * more keys per round, allows 2% more of a tick, and goes on at 1%
     * fewer expired keys (Redis's formulas). */
    const unsigned long effort = static_cast<unsigned long>(server.active_expire_effort - 1);
    const unsigned long keys_per_loop = ACTIVE_EXPIRE_CYCLE_KEYS_PER_LOOP + ACTIVE_EXPIRE_CYCLE_KEYS_PER_LOOP / 4 * effort;
    const long long slow_time_perc = ACTIVE_EXPIRE_CYCLE_SLOW_TIME_PERC + 2 * static_cast<long long>(effort);
    const unsigned long acceptable_stale = ACTIVE_EXPIRE_CYCLE_ACCEPTABLE_STALE - effort;
    int dbs_per_call = CRON_DBS_PER_CALL;
    if (dbs_per_call > server.dbnum || timelimit_exit) dbs_per_call = server.dbnum;
    long long start = ustime();
    long long timelimit = std::max(1LL, slow_time_perc * 1000000 / server.hz / 100);
    timelimit_exit = false;
    unsigned long total_sampled = 0, total_expired = 0;
    int iteration = 0;
    const bool traced = traceOn(TRACE_CRON);
    const monotime trace_start = traced ? traceNow() : 0;
    std::string sampled_dbs; /* "0,3": where keys were sampled (traced only) */
    int dbs_visited = 0;

    for (int j = 0; j < dbs_per_call && !timelimit_exit; j++) {
        /* Advance first: if time runs out here, the next call starts elsewhere. */
        redisDb *db = &server.db[current_db++ % server.dbnum];
        unsigned long sampled_before = total_sampled;
        dbs_visited++;
        ExpireSample s;
        do {
            iteration++;
            unsigned long num = db->expires.size();
            if (num == 0) {
                db->avg_ttl = 0;
                break;
            }
            /* Under 1% full, sampling finds little; databasesCron shrinks it. */
            size_t slots = db->expires.buckets();
            if (slots > DICT_HT_INITIAL_SIZE && num * 100 / slots < 1) break;

            s = activeExpireSampleDb(db, std::min(num, keys_per_loop));
            total_sampled += s.sampled;
            total_expired += s.expired;
            updateAvgTtl(db, s);

            if ((iteration & 0xf) == 0 && ustime() - start > timelimit) { /* checked every 16 rounds */
                timelimit_exit = true;
                server.stat_expired_time_cap_reached_count++;
                break;
            }
        } while (s.sampled == 0 || s.expired * 100 / s.sampled > acceptable_stale);
        if (traced && total_sampled > sampled_before)
            sampled_dbs += (sampled_dbs.empty() ? "" : ",") + std::to_string(db->id);
    }
    if (traced && total_sampled) {
        traceEvent(TRACE_CRON, "activeExpireCycle")
            .since(trace_start)
            .num("sampled", static_cast<long long>(total_sampled))
            .num("expired", static_cast<long long>(total_expired))
            .num("stale_perc", static_cast<long long>(total_expired * 100 / total_sampled))
            .str("dbs", sampled_dbs)
            .num("dbs_visited", dbs_visited)
            .num("timelimit_us", timelimit)
            .num("timelimit_exit", timelimit_exit)
            .emit();
    }

    latencyAddSampleIfNeeded("expire-cycle", (ustime() - start) / 1000);

    /* INFO expired_stale_perc: the share of sampled keys found already
     * expired, as a running average weighing this call 5%. */
    double current_perc = total_sampled ? static_cast<double>(total_expired) / total_sampled : 0;
    server.stat_expired_stale_perc = current_perc * 0.05 + server.stat_expired_stale_perc * 0.95;
    server.stat_expire_cycle_time_used += ustime() - start; /* INFO expire_cycle_cpu_milliseconds */
}
