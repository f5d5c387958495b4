/* t_string.cpp — the string type's commands (Redis's t_string.c): SET and
 * its variants, GET and its variants, the counters, APPEND and the ranges.
 *
 * A string value is an robj of type OBJ_STRING in one of three encodings
 * (object.h): INT (the number in the pointer slot, the shared objects for
 * 0..9999), EMBSTR (up to 44 bytes in the robj's own allocation) or RAW (an
 * sds). Invariants:
 *  - A value stored from an argument is in its most compact encoding, as
 *    Redis's tryObjectEncoding leaves it, so OBJECT ENCODING answers alike.
 *  - Only a RAW value with refcount 1 is edited in place (APPEND,
 *    SETRANGE); anything else is first replaced by a private RAW copy
 *    (dbUnshareStringValue). INCR edits an unshared INT value in place.
 *  - Every write signals the key (WATCH) and counts in server.dirty; an
 *    expire time is stored as absolute unix milliseconds.
 *  - Arguments are views into the query buffer: the hot commands (GET, SET,
 *    INCR, MSET) allocate nothing but the keys and values they store, and
 *    only once the write is certain to happen.
 *
 * One quirk of Redis is not copied: it compares options as C strings, so an
 * argument "NX\0junk" acts as NX there and is a syntax error here.
 */
#include "t_string.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <optional>

#include "notify.h"
#include "server.h"
#include "util.h"

namespace {

/* ========================================================================
 * Helpers
 * ====================================================================== */

/* The value a write stores from an argument. Redis's parser makes every
 * argument an robj and the command runs tryObjectEncoding on it; here the
 * object is created now. An integer goes straight to its INT form (or the
 * shared object), saving the embstr tryObjectEncoding would create only to
 * free it. */
ObjRef createStringValue(std::string_view s) {
    long long value;
    if (s.size() <= 20 && string2ll(s, &value)) return createStringObjectFromLongLong(value);
    return tryObjectEncoding(createStringObject(s));
}

void addReplyBulkObject(client *c, const robj *o) {
    StringBuf buf;
    addReplyBulk(c, objectStringView(o, buf));
}

/* Redis's checkStringLength: would a string of size + append bytes exceed
 * proto-max-bulk-len (or overflow)? Replies the error if so. */
bool checkStringLength(client *c, long long size, long long append) {
    long long total;
    if (__builtin_add_overflow(size, append, &total) || total > server.proto_max_bulk_len) {
        addReplyError(c, "string exceeds maximum allowed size (proto-max-bulk-len)");
        return false;
    }
    return true;
}

}  // namespace

/* Before an in-place edit: a value that is shared or not RAW (INT and
 * EMBSTR cannot grow) is replaced in the keyspace by a private RAW copy,
 * which is returned (Redis's dbUnshareStringValue). */
robj *dbUnshareStringValue(redisDb *db, std::string_view key, robj *o) {
    if (o->refcount == 1 && o->encoding == OBJ_ENCODING_RAW) return o;
    StringBuf buf;
    ObjRef copy = createRawStringObject(objectStringView(o, buf));
    robj *raw = copy.get();
    dbOverwrite(db, key, std::move(copy));
    return raw;
}

namespace {

/* ========================================================================
 * SET / GETEX options
 * ====================================================================== */

/* Option flags, Redis's OBJ_* names. */
constexpr int OBJ_NO_FLAGS = 0, OBJ_SET_NX = 1 << 0, OBJ_SET_XX = 1 << 1, OBJ_EX = 1 << 2,
              OBJ_PX = 1 << 3, OBJ_KEEPTTL = 1 << 4, OBJ_SET_GET = 1 << 5, OBJ_EXAT = 1 << 6,
              OBJ_PXAT = 1 << 7, OBJ_PERSIST = 1 << 8;
constexpr int OBJ_ANY_EXPIRE = OBJ_EX | OBJ_PX | OBJ_EXAT | OBJ_PXAT;

enum class ExpireUnit { Seconds, Milliseconds };
/* Which command parses its options: SET or GETEX. */
constexpr int COMMAND_SET = 1, COMMAND_GET = 2;

struct StringOption {
    std::string_view name;
    int flag;
    int conflicts; /* flags it cannot be combined with (repeating itself is fine) */
    int commands;  /* COMMAND_SET and/or COMMAND_GET */
};

/* The conflicts are Redis's: NX/XX exclude each other, the expire forms
 * exclude one another and KEEPTTL/PERSIST. GET combines with anything. */
constexpr StringOption stringOptions[] = {
    {"NX", OBJ_SET_NX, OBJ_SET_XX, COMMAND_SET},
    {"XX", OBJ_SET_XX, OBJ_SET_NX, COMMAND_SET},
    {"GET", OBJ_SET_GET, 0, COMMAND_SET},
    {"KEEPTTL", OBJ_KEEPTTL, OBJ_PERSIST | OBJ_ANY_EXPIRE, COMMAND_SET},
    {"PERSIST", OBJ_PERSIST, OBJ_KEEPTTL | OBJ_ANY_EXPIRE, COMMAND_GET},
    {"EX", OBJ_EX, OBJ_KEEPTTL | OBJ_PERSIST | (OBJ_ANY_EXPIRE & ~OBJ_EX), COMMAND_SET | COMMAND_GET},
    {"PX", OBJ_PX, OBJ_KEEPTTL | OBJ_PERSIST | (OBJ_ANY_EXPIRE & ~OBJ_PX), COMMAND_SET | COMMAND_GET},
    {"EXAT", OBJ_EXAT, OBJ_KEEPTTL | OBJ_PERSIST | (OBJ_ANY_EXPIRE & ~OBJ_EXAT), COMMAND_SET | COMMAND_GET},
    {"PXAT", OBJ_PXAT, OBJ_KEEPTTL | OBJ_PERSIST | (OBJ_ANY_EXPIRE & ~OBJ_PXAT), COMMAND_SET | COMMAND_GET},
};

const StringOption *findStringOption(std::string_view name) {
    for (const StringOption &opt : stringOptions)
        if (strEqualNoCase(name, opt.name)) return &opt;
    return nullptr;
}

/* The options after SET key value / GETEX key. Any unknown, misplaced or
 * conflicting option, or an expire option without its value, is a syntax
 * error; the expire value itself is checked later. */
bool parseExtendedStringArgumentsOrReply(client *c, int *flags, ExpireUnit *unit,
                                         std::optional<std::string_view> *expire, int command_type) {
    size_t argc = c->argv.size();
    for (size_t j = command_type == COMMAND_GET ? 2 : 3; j < argc; j++) {
        const StringOption *opt = findStringOption(c->argv[j]);
        bool takesValue = opt && (opt->flag & OBJ_ANY_EXPIRE);
        if (!opt || !(opt->commands & command_type) || (*flags & opt->conflicts) ||
            (takesValue && j + 1 == argc)) {
            addReplyErrorObject(c, shared::syntaxerr);
            return false;
        }
        *flags |= opt->flag;
        if (takesValue) {
            *expire = c->argv[++j];
            *unit = (opt->flag & (OBJ_EX | OBJ_EXAT)) ? ExpireUnit::Seconds : ExpireUnit::Milliseconds;
        }
    }
    return true;
}

void addReplyErrorExpireTime(client *c) {
    addReplyErrorFormat(c, "invalid expire time in '%s' command", c->cmd->fullname.c_str());
}

/* The expire argument as absolute unix ms: positive, and not overflowing
 * once converted to ms and, for EX/PX, added to now. */
bool getExpireMillisecondsOrReply(client *c, std::string_view expire, int flags, ExpireUnit unit,
                                  long long *milliseconds) {
    if (!getLongLongFromObjectOrReply(c, expire, milliseconds)) return false;
    bool seconds = unit == ExpireUnit::Seconds;
    if (*milliseconds <= 0 || (seconds && *milliseconds > LLONG_MAX / 1000)) {
        addReplyErrorExpireTime(c);
        return false;
    }
    if (seconds) *milliseconds *= 1000;
    if ((flags & (OBJ_EX | OBJ_PX)) && __builtin_add_overflow(*milliseconds, server.mstime, milliseconds)) {
        addReplyErrorExpireTime(c);
        return false;
    }
    return true;
}

/* ========================================================================
 * GET and SET families
 * ====================================================================== */

/* Replies the value or nil; false (after replying WRONGTYPE) when the key
 * holds another type. */
bool getGenericCommand(client *c) {
    robj *o = lookupKeyReadOrReply(c, c->argv[1], shared::null_bulk);
    if (!o) return true;
    if (checkType(c, o, OBJ_STRING)) return false;
    addReplyBulkObject(c, o);
    return true;
}

/* What the AOF gets for a SET (SETEX, PSETEX): with an expire, SET key
 * value PXAT <unix ms>, so a replay later does not push the deadline
 * further; otherwise the command without GET, whose answer no replay wants. */
void propagateSetCommand(client *c, std::string_view key, std::string_view val, long long pxat, int flags) {
    if (!propagationTargets()) return;
    if (pxat != -1) {
        char ms[LONG_STR_SIZE];
        std::string_view when(ms, ll2string(ms, sizeof(ms), pxat));
        return rewriteClientCommandVector(c, {"SET", key, val, "PXAT", when});
    }
    if (!(flags & OBJ_SET_GET)) return;
    std::vector<std::string_view> argv;
    for (size_t j = 0; j < c->argv.size(); j++)
        if (j < 3 || !strEqualNoCase(c->argv[j], "get")) argv.push_back(c->argv[j]);
    rewriteClientCommandVector(c, argv);
}

/* SET, SETNX, SETEX and PSETEX. ok_reply answers a completed write,
 * abort_reply a write NX/XX refused; with GET the old value is the answer. */
void setGenericCommand(client *c, int flags, std::string_view key, std::string_view val,
                       std::optional<std::string_view> expire, ExpireUnit unit,
                       std::string_view ok_reply = shared::ok, std::string_view abort_reply = shared::null_bulk) {
    long long milliseconds = 0;
    if (expire && !getExpireMillisecondsOrReply(c, *expire, flags, unit, &milliseconds)) return;
    if ((flags & OBJ_SET_GET) && !getGenericCommand(c)) return;

    bool found = lookupKeyWrite(c->db, key) != nullptr;
    if (((flags & OBJ_SET_NX) && found) || ((flags & OBJ_SET_XX) && !found)) {
        if (!(flags & OBJ_SET_GET)) addReplyOrErrorObject(c, abort_reply);
        return;
    }
    int setkey_flags = ((flags & OBJ_KEEPTTL) ? SETKEY_KEEPTTL : 0) |
                       (found ? SETKEY_ALREADY_EXIST : SETKEY_DOESNT_EXIST);
    setKey(c, c->db, key, createStringValue(val), setkey_flags);
    server.dirty++;
    notifyKeyspaceEvent(NOTIFY_STRING, "set", key, c->db->id);
    if (expire) {
        setExpire(c, c->db, key, milliseconds);
        notifyKeyspaceEvent(NOTIFY_GENERIC, "expire", key, c->db->id);
    }
    if (!(flags & OBJ_SET_GET)) addReply(c, ok_reply);
    propagateSetCommand(c, key, val, expire ? milliseconds : -1, flags);
}

}  // namespace

/* SET key value [NX|XX] [GET] [EX s|PX ms|EXAT ts|PXAT ms-ts|KEEPTTL] */
void setCommand(client *c) {
    int flags = OBJ_NO_FLAGS;
    ExpireUnit unit = ExpireUnit::Seconds;
    std::optional<std::string_view> expire;
    if (!parseExtendedStringArgumentsOrReply(c, &flags, &unit, &expire, COMMAND_SET)) return;
    setGenericCommand(c, flags, c->argv[1], c->argv[2], expire, unit);
}

void setnxCommand(client *c) {
    setGenericCommand(c, OBJ_SET_NX, c->argv[1], c->argv[2], std::nullopt, ExpireUnit::Seconds, shared::cone,
                      shared::czero);
}

void setexCommand(client *c) {
    setGenericCommand(c, OBJ_EX, c->argv[1], c->argv[3], c->argv[2], ExpireUnit::Seconds);
}

void psetexCommand(client *c) {
    setGenericCommand(c, OBJ_PX, c->argv[1], c->argv[3], c->argv[2], ExpireUnit::Milliseconds);
}

void getCommand(client *c) { getGenericCommand(c); }

/* GETEX key [EX s|PX ms|EXAT ts|PXAT ms-ts|PERSIST]: the value, then the
 * expire change. An absolute time already past deletes the key. */
void getexCommand(client *c) {
    int flags = OBJ_NO_FLAGS;
    ExpireUnit unit = ExpireUnit::Seconds;
    std::optional<std::string_view> expire;
    if (!parseExtendedStringArgumentsOrReply(c, &flags, &unit, &expire, COMMAND_GET)) return;

    std::string_view key = c->argv[1];
    robj *o = lookupKeyReadOrReply(c, key, shared::null_bulk);
    if (!o || checkType(c, o, OBJ_STRING)) return;

    long long milliseconds = 0;
    if (expire && !getExpireMillisecondsOrReply(c, *expire, flags, unit, &milliseconds)) return;

    addReplyBulkObject(c, o); /* before the key may be deleted */

    /* Redis's checkAlreadyExpired, but for its replica clause (while a file
     * loads, the deadline is set and the key expires once the server is up;
     * a read-only replica never runs this: its master sends the DEL). The
     * AOF gets what happened: DEL, PEXPIREAT <unix ms> or PERSIST. */
    char ms[LONG_STR_SIZE];
    if ((flags & (OBJ_EXAT | OBJ_PXAT)) && milliseconds <= server.mstime && !server.loading) {
        bool lazy = server.lazyfree_lazy_expire;
        if (lazy) dbAsyncDelete(c->db, key);
        else dbSyncDelete(c->db, key);
        notifyKeyspaceEvent(NOTIFY_GENERIC, "del", key, c->db->id);
        rewriteClientCommandVector(c, {lazy ? "UNLINK" : "DEL", key});
    } else if (expire) {
        setExpire(c, c->db, key, milliseconds);
        notifyKeyspaceEvent(NOTIFY_GENERIC, "expire", key, c->db->id);
        std::string_view when(ms, ll2string(ms, sizeof(ms), milliseconds));
        rewriteClientCommandVector(c, {"PEXPIREAT", key, when});
    } else if (flags & OBJ_PERSIST) {
        if (!removeExpire(c->db, key)) return; /* had no TTL: nothing changed */
        notifyKeyspaceEvent(NOTIFY_GENERIC, "persist", key, c->db->id);
        rewriteClientCommandVector(c, {"PERSIST", key});
    } else {
        return; /* plain GET */
    }
    signalModifiedKey(c, c->db, key);
    server.dirty++;
}

void getdelCommand(client *c) {
    if (!getGenericCommand(c)) return;
    std::string_view key = c->argv[1];
    bool lazy = server.lazyfree_lazy_user_del;
    if (lazy ? dbAsyncDelete(c->db, key) : dbSyncDelete(c->db, key)) {
        signalModifiedKey(c, c->db, key);
        notifyKeyspaceEvent(NOTIFY_GENERIC, "del", key, c->db->id);
        server.dirty++;
        rewriteClientCommandVector(c, {lazy ? "UNLINK" : "DEL", key});
    }
}

void getsetCommand(client *c) {
    if (!getGenericCommand(c)) return;
    setKey(c, c->db, c->argv[1], createStringValue(c->argv[2]), 0);
    notifyKeyspaceEvent(NOTIFY_STRING, "set", c->argv[1], c->db->id);
    server.dirty++;
    rewriteClientCommandArgument(c, 0, "SET");
}

/* ========================================================================
 * Multiple keys
 * ====================================================================== */

/* Values of other types read as nil: MGET never fails. */
void mgetCommand(client *c) {
    addReplyArrayLen(c, static_cast<long long>(c->argv.size() - 1));
    for (size_t j = 1; j < c->argv.size(); j++) {
        robj *o = lookupKeyRead(c->db, c->argv[j]);
        if (!o || o->type != OBJ_STRING) addReplyNull(c);
        else addReplyBulkObject(c, o);
    }
}

namespace {

/* MSET and MSETNX; with nx nothing is written if any key exists. A key
 * given twice takes its last value. */
void msetGenericCommand(client *c, bool nx) {
    size_t argc = c->argv.size();
    if (argc % 2 == 0) {
        addReplyErrorArity(c);
        return;
    }
    if (nx) {
        for (size_t j = 1; j < argc; j += 2) {
            if (lookupKeyWrite(c->db, c->argv[j])) {
                addReply(c, shared::czero);
                return;
            }
        }
    }
    for (size_t j = 1; j < argc; j += 2) {
        setKey(c, c->db, c->argv[j], createStringValue(c->argv[j + 1]), 0);
        notifyKeyspaceEvent(NOTIFY_STRING, "set", c->argv[j], c->db->id);
    }
    server.dirty += static_cast<long long>((argc - 1) / 2);
    addReply(c, nx ? shared::cone : shared::ok);
}

}  // namespace

void msetCommand(client *c) { msetGenericCommand(c, false); }
void msetnxCommand(client *c) { msetGenericCommand(c, true); }

/* ========================================================================
 * Counters
 * ====================================================================== */

namespace {

/* INCR, DECR, INCRBY, DECRBY. A missing key counts as 0. */
void incrDecrCommand(client *c, long long incr) {
    std::string_view key = c->argv[1];
    robj *o = lookupKeyWrite(c->db, key);
    if (checkType(c, o, OBJ_STRING)) return;
    long long value = 0;
    if (o && !getLongLongFromObject(o, &value)) {
        addReplyError(c, "value is not an integer or out of range");
        return;
    }
    if (__builtin_add_overflow(value, incr, &value)) {
        addReplyError(c, "increment or decrement would overflow");
        return;
    }
    /* An INT value nobody else holds is updated in place, unless the
     * result is one of the shared integers, which is cheaper to point at. */
    if (o && o->refcount == 1 && o->encoding == OBJ_ENCODING_INT &&
        (value < 0 || value >= OBJ_SHARED_INTEGERS)) {
        o->ptr = reinterpret_cast<void *>(static_cast<intptr_t>(value));
    } else if (o) {
        dbOverwrite(c->db, key, createStringObjectFromLongLong(value));
    } else {
        dbAdd(c->db, key, createStringObjectFromLongLong(value));
    }
    signalModifiedKey(c, c->db, key);
    notifyKeyspaceEvent(NOTIFY_STRING, "incrby", key, c->db->id);
    server.dirty++;
    addReplyLongLong(c, value);
}

}  // namespace

void incrCommand(client *c) { incrDecrCommand(c, 1); }
void decrCommand(client *c) { incrDecrCommand(c, -1); }

void incrbyCommand(client *c) {
    long long incr;
    if (!getLongLongFromObjectOrReply(c, c->argv[2], &incr)) return;
    incrDecrCommand(c, incr);
}

void decrbyCommand(client *c) {
    long long incr;
    if (!getLongLongFromObjectOrReply(c, c->argv[2], &incr)) return;
    if (incr == LLONG_MIN) { /* -incr would overflow */
        addReplyError(c, "decrement would overflow");
        return;
    }
    incrDecrCommand(c, -incr);
}

/* The sum is computed in long double and stored as text in its
 * human-friendly form ("3.5", never an exponent), so a value read back and
 * incremented again loses nothing. */
void incrbyfloatCommand(client *c) {
    std::string_view key = c->argv[1];
    robj *o = lookupKeyWrite(c->db, key);
    if (checkType(c, o, OBJ_STRING)) return;
    long double value = 0, incr;
    if (o && !getLongDoubleFromObject(o, &value)) {
        addReplyError(c, "value is not a valid float");
        return;
    }
    if (!getLongDoubleFromObjectOrReply(c, c->argv[2], &incr)) return;
    value += incr;
    if (std::isnan(value) || std::isinf(value)) {
        addReplyError(c, "increment would produce NaN or Infinity");
        return;
    }
    ObjRef result = createStringObjectFromLongDouble(value, true);
    robj *stored = result.get();
    if (o) dbOverwrite(c->db, key, std::move(result));
    else dbAdd(c->db, key, std::move(result));
    signalModifiedKey(c, c->db, key);
    notifyKeyspaceEvent(NOTIFY_STRING, "incrbyfloat", key, c->db->id);
    server.dirty++;
    addReplyBulkObject(c, stored);
    /* The result, not the increment: a float sum replayed elsewhere (other
     * libc, other precision) could round differently. */
    StringBuf buf;
    rewriteClientCommandVector(c, {"SET", key, objectStringView(stored, buf), "KEEPTTL"});
}

/* ========================================================================
 * Appending and ranges
 * ====================================================================== */

/* A new key is stored like SET's value (so it may be INT); appending to an
 * existing one makes it RAW, with sds's greedy growth for the next append. */
void appendCommand(client *c) {
    std::string_view key = c->argv[1], append = c->argv[2];
    robj *o = lookupKeyWrite(c->db, key);
    size_t totlen;
    if (!o) {
        dbAdd(c->db, key, createStringValue(append));
        totlen = append.size();
    } else {
        if (checkType(c, o, OBJ_STRING)) return;
        if (!checkStringLength(c, static_cast<long long>(stringObjectLen(o)), static_cast<long long>(append.size())))
            return;
        sds &s = objectRawSds(dbUnshareStringValue(c->db, key, o));
        s.catlen(append);
        totlen = s.size();
    }
    signalModifiedKey(c, c->db, key);
    notifyKeyspaceEvent(NOTIFY_STRING, "append", key, c->db->id);
    server.dirty++;
    addReplyLongLong(c, static_cast<long long>(totlen));
}

void strlenCommand(client *c) {
    robj *o = lookupKeyReadOrReply(c, c->argv[1], shared::czero);
    if (!o || checkType(c, o, OBJ_STRING)) return;
    addReplyLongLong(c, static_cast<long long>(stringObjectLen(o)));
}

/* Negative indexes count from the end; the range is clamped to the
 * string, and an empty range is an empty bulk (never nil). */
void getrangeCommand(client *c) {
    constexpr std::string_view emptybulk = "$0\r\n\r\n";
    long long start, end;
    if (!getLongLongFromObjectOrReply(c, c->argv[2], &start) || !getLongLongFromObjectOrReply(c, c->argv[3], &end))
        return;
    robj *o = lookupKeyReadOrReply(c, c->argv[1], emptybulk);
    if (!o || checkType(c, o, OBJ_STRING)) return;

    StringBuf buf;
    std::string_view str = objectStringView(o, buf);
    auto strlen = static_cast<long long>(str.size());
    if (start < 0 && end < 0 && start > end) return addReply(c, emptybulk);
    if (start < 0) start = std::max(strlen + start, 0LL);
    if (end < 0) end = std::max(strlen + end, 0LL);
    end = std::min(end, strlen - 1);
    if (start > end || strlen == 0) return addReply(c, emptybulk);
    addReplyBulk(c, str.substr(static_cast<size_t>(start), static_cast<size_t>(end - start + 1)));
}

/* Writes value at offset, zero-padding the string up to it. An empty value
 * changes nothing (and creates no key): the reply is the current length. */
void setrangeCommand(client *c) {
    std::string_view key = c->argv[1], value = c->argv[3];
    long offset;
    if (!getLongFromObjectOrReply(c, c->argv[2], &offset)) return;
    if (offset < 0) {
        addReplyError(c, "offset is out of range");
        return;
    }
    robj *o = lookupKeyWrite(c->db, key);
    if (checkType(c, o, OBJ_STRING)) return;
    if (value.empty()) {
        addReplyLongLong(c, o ? static_cast<long long>(stringObjectLen(o)) : 0);
        return;
    }
    if (!checkStringLength(c, offset, static_cast<long long>(value.size()))) return;

    if (o) {
        o = dbUnshareStringValue(c->db, key, o);
    } else {
        ObjRef created = createRawStringObject({});
        o = created.get();
        dbAdd(c->db, key, std::move(created));
    }
    sds &s = objectRawSds(o);
    size_t end = static_cast<size_t>(offset) + value.size();
    if (s.size() < end) s.resize(end);
    memcpy(s.data() + offset, value.data(), value.size());
    signalModifiedKey(c, c->db, key);
    notifyKeyspaceEvent(NOTIFY_STRING, "setrange", key, c->db->id);
    server.dirty++;
    addReplyLongLong(c, static_cast<long long>(s.size()));
}

/* ========================================================================
 * LCS
 * ====================================================================== */

namespace {

/* LCS's table: at (i, j) the length of the longest common subsequence of
 * a's first i bytes and b's first j bytes. */
class lcsTable {
public:
    lcsTable(std::string_view a, std::string_view b, uint32_t *cells) : a_(a), b_(b), cells_(cells) {
        for (uint32_t i = 0; i <= a.size(); i++) {
            for (uint32_t j = 0; j <= b.size(); j++) {
                if (i == 0 || j == 0) at(i, j) = 0;
                else if (a[i - 1] == b[j - 1]) at(i, j) = at(i - 1, j - 1) + 1;
                else at(i, j) = std::max(at(i - 1, j), at(i, j - 1));
            }
        }
    }
    uint32_t at(uint32_t i, uint32_t j) const { return cells_[j + i * (b_.size() + 1)]; }
    uint32_t length() const { return at(static_cast<uint32_t>(a_.size()), static_cast<uint32_t>(b_.size())); }

private:
    uint32_t &at(uint32_t i, uint32_t j) { return cells_[j + i * (b_.size() + 1)]; }
    std::string_view a_, b_;
    uint32_t *cells_;
};

/* One run of consecutive matching bytes: a[astart..aend] == b[bstart..]. */
struct lcsMatch {
    uint32_t astart, aend, bstart;
};

/* Walks the table back from the end of both strings, filling the common
 * subsequence (when lcs is given) and calling emit with each run of
 * consecutive matches, the last runs first, as Redis reports them. */
template <typename Emit>
void lcsWalkBack(const lcsTable &table, std::string_view a, std::string_view b, std::string *lcs, Emit &&emit) {
    auto i = static_cast<uint32_t>(a.size()), j = static_cast<uint32_t>(b.size());
    uint32_t idx = table.length();
    std::optional<lcsMatch> run;
    while (i > 0 && j > 0) {
        if (a[i - 1] == b[j - 1]) {
            if (lcs) (*lcs)[--idx] = a[i - 1];
            if (run) run->astart = i - 1, run->bstart = j - 1; /* the run extends backwards */
            else run = lcsMatch{i - 1, i - 1, j - 1};
            i--, j--;
            if (i > 0 && j > 0) continue;
        } else if (table.at(i - 1, j) > table.at(i, j - 1)) {
            i--;
        } else {
            j--;
        }
        if (run) emit(*run);
        run.reset();
    }
}

}  // namespace

/* LCS key1 key2 [LEN] [IDX] [MINMATCHLEN len] [WITHMATCHLEN]: the longest
 * common subsequence of two strings (missing keys are empty), its length
 * (LEN), or the ranges of its runs of consecutive matches (IDX). */
void lcsCommand(client *c) {
    robj *obja = lookupKeyRead(c->db, c->argv[1]);
    robj *objb = lookupKeyRead(c->db, c->argv[2]);
    if ((obja && obja->type != OBJ_STRING) || (objb && objb->type != OBJ_STRING))
        return addReplyError(c, "The specified keys must contain string values");

    bool getlen = false, getidx = false, withmatchlen = false;
    long long minmatchlen = 0;
    for (size_t j = 3; j < c->argv.size(); j++) {
        std::string_view opt = c->argv[j];
        bool moreargs = j + 1 < c->argv.size();
        if (strEqualNoCase(opt, "IDX")) {
            getidx = true;
        } else if (strEqualNoCase(opt, "LEN")) {
            getlen = true;
        } else if (strEqualNoCase(opt, "WITHMATCHLEN")) {
            withmatchlen = true;
        } else if (strEqualNoCase(opt, "MINMATCHLEN") && moreargs) {
            if (!getLongLongFromObjectOrReply(c, c->argv[++j], &minmatchlen)) return;
            minmatchlen = std::max(minmatchlen, 0LL);
        } else {
            return addReplyErrorObject(c, shared::syntaxerr);
        }
    }
    if (getlen && getidx) return addReplyError(c, "If you want both the length and indexes, please just use IDX.");

    StringBuf bufa, bufb;
    std::string_view a = obja ? objectStringView(obja, bufa) : std::string_view{};
    std::string_view b = objb ? objectStringView(objb, bufb) : std::string_view{};
    if (a.size() >= UINT32_MAX - 1 || b.size() >= UINT32_MAX - 1) return addReplyError(c, "String too long for LCS");

    /* The table is transient memory bounded like a request: proto-max-bulk-len. */
    unsigned long long cells = (a.size() + 1ULL) * (b.size() + 1ULL);
    if (cells > static_cast<unsigned long long>(server.proto_max_bulk_len) / sizeof(uint32_t))
        return addReplyError(c, "Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len");
    std::unique_ptr<uint32_t[]> cellsbuf(new (std::nothrow) uint32_t[cells]);
    if (!cellsbuf) return addReplyError(c, "Insufficient memory, failed allocating transient memory for LCS");
    lcsTable table(a, b, cellsbuf.get());

    if (getlen) return addReplyLongLong(c, table.length());
    if (!getidx) {
        std::string lcs(table.length(), '\0');
        lcsWalkBack(table, a, b, &lcs, [](const lcsMatch &) {});
        return addReplyBulk(c, lcs);
    }
    addReplyMapLen(c, 2);
    addReplyBulk(c, "matches");
    void *arraylen = addReplyDeferredLen(c);
    long matches = 0;
    lcsWalkBack(table, a, b, nullptr, [&](const lcsMatch &m) {
        uint32_t len = m.aend - m.astart + 1;
        if (len < minmatchlen) return;
        addReplyArrayLen(c, withmatchlen ? 3 : 2);
        addReplyArrayLen(c, 2);
        addReplyLongLong(c, m.astart);
        addReplyLongLong(c, m.aend);
        addReplyArrayLen(c, 2);
        addReplyLongLong(c, m.bstart);
        addReplyLongLong(c, m.bstart + len - 1);
        if (withmatchlen) addReplyLongLong(c, len);
        matches++;
    });
    addReplyBulk(c, "len");
    addReplyLongLong(c, table.length());
    setDeferredArrayLen(c, arraylen, matches);
}
