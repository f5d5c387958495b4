/* command_fuzz.cpp — libFuzzer target over command dispatch: random
 * commands run through the request parser and processCommand on
 * socketless clients (as tests/unit/command_test.h runs them), against the
 * real keyspace, with the server's invariants checked after every command.
 *
 * An input is read as a little program (FuzzInput): up to kMaxCommands
 * commands, each sent by one of kClients clients, with a name mostly taken
 * from the command table and arguments mostly drawn from small pools — a
 * handful of keys, small integers, float-ish numbers, the options commands
 * take — so that commands meet each other's values. The keyspace and the
 * clients live for one input: at its end the clients are freed (a blocked
 * one is unblocked then) and every database is emptied, and the server must
 * be back to nothing.
 *
 * After each command (and what it woke: blocked clients served, their
 * pipelined commands, timeouts, active expiry):
 *  - each database's key count is its dict's size, and every expire is on
 *    a key of the dict (the very sds the dict owns);
 *  - each value's type and encoding agree with its content and the
 *    encoding limits (the invariants t_list.h, t_set.h, t_hash.h and
 *    t_zset.h state): a ziplist is well formed, within its entries and
 *    value limits, an intset well formed and within its limit, a skiplist
 *    as long as its dict, an embstr at most 44 bytes, no collection empty;
 *  - the blocked clients are exactly the waiters of db->blocking_keys.
 * ASan, UBSan and LeakSanitizer watch every input.
 *
 * Left out: what reaches outside the process or stops it (SHUTDOWN, DEBUG,
 * SAVE, BGSAVE, BGREWRITEAOF, CONFIG SET/REWRITE, MONITOR, CLIENT KILL and
 * PAUSE, replication), and scripts (EVAL and FUNCTION run Lua, whose loops
 * can run forever). Count and size arguments are capped (kMaxNumber) so
 * that no command allocates much: SETRANGE key 500000000 would. */
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "acl.h"
#include "blocked.h"
#include "commands.h"
#include "db.h"
#include "hooks.h"
#include "intset.h"
#include "server.h"
#include "server_main.h"
#include "skiplist.h"
#include "t_hash.h"
#include "t_list.h"
#include "t_set.h"
#include "t_zset.h"
#include "ziplist.h"

namespace {

constexpr int kClients = 3;
constexpr int kMaxCommands = 32;
constexpr int kMaxArgs = 12;
/* Any integer argument beyond this (counts, offsets, sizes) is cut to it. */
constexpr long long kMaxNumber = 5000;

/* The encoding limits, small so that conversions happen within a few
 * commands; set once (a CONFIG SET between commands would leave older
 * values legitimately outside the new limits). */
void setEncodingLimits() {
    server.list_max_ziplist_entries = 6;
    server.list_max_ziplist_value = 16;
    server.hash_max_ziplist_entries = 6;
    server.hash_max_ziplist_value = 16;
    server.set_max_intset_entries = 6;
    server.zset_max_ziplist_entries = 6;
    server.zset_max_ziplist_value = 16;
    server.stream_node_max_entries = 4;
    server.stream_node_max_bytes = 256;
}

[[noreturn]] void fail(const std::string &what) {
    fprintf(stderr, "command_fuzz: invariant broken: %s\n", what.c_str());
    abort();
}

/* ------------------------------------------------------------------------
 * The commands
 * ---------------------------------------------------------------------- */

bool excluded(std::string_view fullname) {
    static constexpr std::string_view kExcluded[] = {
        "shutdown", "debug", "save", "bgsave", "bgrewriteaof", "monitor", "sync", "psync", "replicaof", "slaveof",
        "failover", "migrate", "config|set", "config|rewrite", "client|kill", "client|pause", "eval", "evalsha",
        "eval_ro", "evalsha_ro", "script", "function", "fcall", "fcall_ro", "trace",
        /* The command table's own dumps: slow, and they read no data. */
        "command|docs", "command|info", "command|list"};
    for (std::string_view e : kExcluded)
        if (fullname == e || (fullname.size() > e.size() && fullname.starts_with(e) && fullname[e.size()] == '|'))
            return true;
    return false;
}

struct CommandName {
    std::vector<std::string> words; /* "config" "get" for a subcommand */
    int arity;
};

const std::vector<CommandName> &commandNames() {
    static const std::vector<CommandName> names = [] {
        std::vector<CommandName> v;
        for (auto &[name, cmd] : server.commands) {
            if (cmd->subcommands_dict.empty()) {
                if (!excluded(cmd->fullname)) v.push_back({{cmd->fullname}, cmd->arity});
                continue;
            }
            for (auto &[sub, subcmd] : cmd->subcommands_dict)
                if (!excluded(subcmd->fullname)) v.push_back({{cmd->fullname, sub}, subcmd->arity});
        }
        /* The table is a hash map: sort, so an input means the same
         * commands in every run. */
        std::sort(v.begin(), v.end(), [](auto &a, auto &b) { return a.words < b.words; });
        return v;
    }();
    return names;
}

/* ------------------------------------------------------------------------
 * Reading an input as commands
 * ---------------------------------------------------------------------- */

class FuzzInput {
public:
    FuzzInput(const uint8_t *data, size_t size) : p_(data), end_(data + size) {}
    bool empty() const { return p_ == end_; }
    uint8_t byte() { return p_ < end_ ? *p_++ : 0; }
    std::string_view bytes(size_t n) {
        n = std::min<size_t>(n, end_ - p_);
        std::string_view s(reinterpret_cast<const char *>(p_), n);
        p_ += n;
        return s;
    }

private:
    const uint8_t *p_, *end_;
};

std::string pick(FuzzInput &in, std::initializer_list<const char *> pool) {
    return pool.begin()[in.byte() % pool.size()];
}

/* An integer argument past kMaxNumber is cut to it ("#12345678" too,
 * BITFIELD's offsets in units of the type). */
std::string capNumber(std::string arg) {
    size_t digits = arg.starts_with('#') ? 1 : 0;
    long long v;
    if (!string2ll(std::string_view(arg).substr(digits), &v)) return arg;
    if (v > kMaxNumber) v = kMaxNumber;
    if (v < -kMaxNumber) v = -kMaxNumber;
    return arg.substr(0, digits) + std::to_string(v);
}

/* The ids of this input's clients (CLIENT UNBLOCK, CLIENT KILL ID). */
uint64_t client_ids[kClients];

std::string argument(FuzzInput &in) {
    switch (in.byte() % 11) {
    case 10: return std::to_string(client_ids[in.byte() % kClients]);
    case 0:
    case 1: return pick(in, {"k0", "k1", "k2", "k3"}); /* the key space */
    case 2: return std::to_string(static_cast<int>(in.byte() % 24) - 3);
    case 3:
        return pick(in, {"0.5", "-1.5", "1e3", "inf", "-inf", "+inf", "nan", "(1", "(2.5", "[a", "(b", "-", "+",
                         "0", "1", "2", "10", "100", "-1", "-100", "9223372036854775807", "-9223372036854775808",
                         "4294967296", "3.0000000000000001", "1.7976931348623157e308", "0-1", "1-1", "0-0", "*",
                         "$", ">", "1-*", "#1", "#2", "u8", "i16", "u63", "i64"});
    case 4:
    case 5:
        return pick(in, {"NX", "XX", "GT", "LT", "CH", "INCR", "WITHSCORES", "LIMIT", "COUNT", "MATCH", "TYPE",
                         "BLOCK", "STREAMS", "MKSTREAM", "LEFT", "RIGHT", "BEFORE", "AFTER", "EX", "PX", "EXAT",
                         "PXAT", "KEEPTTL", "PERSIST", "GET", "SET", "INCRBY", "OVERFLOW", "WRAP", "SAT", "FAIL",
                         "BYSCORE", "BYLEX", "REV", "MIN", "MAX", "AGGREGATE", "SUM", "WEIGHTS", "STORE", "ALPHA",
                         "BY", "ASC", "DESC", "IDLE", "TIME", "RETRYCOUNT", "FORCE", "JUSTID", "GROUP", "CONSUMER",
                         "NOACK", "MAXLEN", "MINID", "~", "=", "ENTRIESREAD", "REPLACE", "DB", "ABSTTL", "FREQ",
                         "IDLETIME", "RANK", "MAXLEN", "WITHVALUES", "CREATE", "DESTROY", "SETID", "CREATECONSUMER",
                         "DELCONSUMER", "CONSUMERS", "GROUPS", "FULL", "ENCODING", "REFCOUNT", "USAGE", "SAMPLES",
                         "ON", "OFF", "SKIP", "ASYNC", "SYNC", "AND", "OR", "XOR", "NOT", "BIT", "BYTE", "LEN",
                         "IDX", "MINMATCHLEN", "WITHMATCHLEN", "KEYS", "NOVALUES", "SETNAME", "ID", "UNBLOCK"});
    case 6:
    case 7: return pick(in, {"a", "b", "c", "1", "2", "300", "-5", "a:b", "", "x1", "70000"}); /* members */
    case 8: return std::string(in.bytes(in.byte() % 48));                                    /* raw bytes */
    default: return std::string(in.byte() % 80, static_cast<char>('a' + in.byte() % 3));   /* long values */
    }
}

std::vector<std::string> command(FuzzInput &in) {
    const auto &names = commandNames();
    std::vector<std::string> argv;
    int arity;
    uint8_t b = in.byte();
    if (b < 248) {
        /* Two bytes pick the command: one alone would reach 248 of them. */
        const CommandName &n = names[(b | in.byte() << 8) % names.size()];
        argv = n.words;
        arity = n.arity;
    } else {
        /* A name of the input's own (and any argument count): what the
         * seeds use, as it stays valid when the table changes. */
        argv.push_back(std::string(in.bytes(in.byte() % 16)));
        arity = -1 - in.byte() % kMaxArgs;
    }
    /* Mostly the arity the command wants, else anything. */
    int argc = arity > 0 && in.byte() % 8 ? arity : std::max<int>(-arity, 1) + in.byte() % 6;
    argc = std::min(argc, kMaxArgs);
    while (static_cast<int>(argv.size()) < argc) argv.push_back(capNumber(argument(in)));
    return argv;
}

std::string toMultibulk(const std::vector<std::string> &argv) {
    std::string req = "*" + std::to_string(argv.size()) + "\r\n";
    for (const std::string &a : argv) req += "$" + std::to_string(a.size()) + "\r\n" + a + "\r\n";
    return req;
}

/* ------------------------------------------------------------------------
 * Invariants
 * ---------------------------------------------------------------------- */

std::string keyName(std::string_view key) {
    std::string s;
    catRepr(s, key);
    return s;
}

size_t entryLength(const ziplistEntry &e) {
    char buf[LONG_STR_SIZE];
    return e.isInt ? static_cast<size_t>(ll2string(buf, sizeof(buf), e.lval)) : e.sval.size();
}

void checkZiplist(const ziplist &zl, std::string_view key) {
    if (!ziplist::validateIntegrity(zl.data(), zl.blobLen(), true)) fail("malformed ziplist at " + keyName(key));
}

void checkList(robj *o, std::string_view key) {
    unsigned long len = listTypeLength(o);
    if (len == 0) fail("empty list at " + keyName(key));
    if (o->encoding == OBJ_ENCODING_LINKEDLIST) return;
    if (o->encoding != OBJ_ENCODING_ZIPLIST) fail("list encoding " + std::to_string(o->encoding));
    const ziplist &zl = objectZiplist(o);
    checkZiplist(zl, key);
    if (zl.len() != len) fail("list length differs from its ziplist's at " + keyName(key));
    if (static_cast<long long>(len) > server.list_max_ziplist_entries)
        fail("ziplist list past list-max-ziplist-entries at " + keyName(key));
    for (zlpos p = zl.index(0); p; p = zl.next(p))
        if (static_cast<long long>(entryLength(zl.get(p))) > server.list_max_ziplist_value)
            fail("ziplist list holds a value past list-max-ziplist-value at " + keyName(key));
}

void checkSet(robj *o, std::string_view key) {
    unsigned long size = setTypeSize(o);
    if (size == 0) fail("empty set at " + keyName(key));
    if (o->encoding == OBJ_ENCODING_HT) return;
    if (o->encoding != OBJ_ENCODING_INTSET) fail("set encoding " + std::to_string(o->encoding));
    const intset &is = objectIntset(o);
    /* fromBlob checks the header and that values ascend strictly. */
    if (!intset::fromBlob({reinterpret_cast<const char *>(is.data()), is.blobLen()}))
        fail("malformed intset at " + keyName(key));
    if (static_cast<long long>(is.len()) > server.set_max_intset_entries)
        fail("intset past set-max-intset-entries at " + keyName(key));
}

void checkHash(robj *o, std::string_view key) {
    unsigned long len = hashTypeLength(o);
    if (len == 0) fail("empty hash at " + keyName(key));
    if (o->encoding == OBJ_ENCODING_HT) return;
    if (o->encoding != OBJ_ENCODING_ZIPLIST) fail("hash encoding " + std::to_string(o->encoding));
    const ziplist &zl = objectZiplist(o);
    checkZiplist(zl, key);
    if (zl.len() != 2 * len) fail("hash length differs from its ziplist's at " + keyName(key));
    if (static_cast<long long>(len) > server.hash_max_ziplist_entries)
        fail("ziplist hash past hash-max-ziplist-entries at " + keyName(key));
    std::vector<std::string> fields;
    bool field = true;
    for (zlpos p = zl.index(0); p; p = zl.next(p), field = !field) {
        ziplistEntry e = zl.get(p);
        if (static_cast<long long>(entryLength(e)) > server.hash_max_ziplist_value)
            fail("ziplist hash holds a field or value past hash-max-ziplist-value at " + keyName(key));
        if (field) fields.push_back(e.toString());
    }
    std::sort(fields.begin(), fields.end());
    if (std::adjacent_find(fields.begin(), fields.end()) != fields.end())
        fail("a field twice in a ziplist hash at " + keyName(key));
}

void checkZset(robj *o, std::string_view key) {
    unsigned long len = zsetLength(o);
    if (len == 0) fail("empty sorted set at " + keyName(key));
    if (o->encoding == OBJ_ENCODING_SKIPLIST) {
        zset &zs = objectZset(o);
        if (zs.dict.size() != zs.zsl.length) fail("skiplist and dict lengths differ at " + keyName(key));
        double prev = -INFINITY;
        for (zskiplistNode *x = zs.zsl.header->level[0].forward; x; x = x->level[0].forward) {
            if (std::isnan(x->score) || x->score < prev) fail("skiplist out of order at " + keyName(key));
            prev = x->score;
        }
        return;
    }
    if (o->encoding != OBJ_ENCODING_ZIPLIST) fail("zset encoding " + std::to_string(o->encoding));
    const ziplist &zl = objectZiplist(o);
    checkZiplist(zl, key);
    if (zl.len() != 2 * len) fail("zset length differs from its ziplist's at " + keyName(key));
    if (static_cast<long long>(len) > server.zset_max_ziplist_entries)
        fail("ziplist zset past zset-max-ziplist-entries at " + keyName(key));
    double prev = -INFINITY;
    for (zlpos p = zl.index(0); p; p = zl.next(zl.next(p))) {
        if (static_cast<long long>(entryLength(zl.get(p))) > server.zset_max_ziplist_value)
            fail("ziplist zset holds a member past zset-max-ziplist-value at " + keyName(key));
        double score = zzlGetScore(zl, zl.next(p));
        if (std::isnan(score) || score < prev) fail("ziplist zset out of order at " + keyName(key));
        prev = score;
    }
}

void checkValue(robj *o, std::string_view key) {
    if (o->refcount <= 0) fail("value with refcount " + std::to_string(o->refcount) + " at " + keyName(key));
    switch (o->type) {
    case OBJ_STRING:
        if (o->encoding == OBJ_ENCODING_EMBSTR && stringObjectLen(o) > OBJ_ENCODING_EMBSTR_SIZE_LIMIT)
            fail("embstr past 44 bytes at " + keyName(key));
        if (o->encoding != OBJ_ENCODING_EMBSTR && o->encoding != OBJ_ENCODING_RAW && o->encoding != OBJ_ENCODING_INT)
            fail("string encoding " + std::to_string(o->encoding));
        break;
    case OBJ_LIST: checkList(o, key); break;
    case OBJ_SET: checkSet(o, key); break;
    case OBJ_HASH: checkHash(o, key); break;
    case OBJ_ZSET: checkZset(o, key); break;
    case OBJ_STREAM:
        if (o->encoding != OBJ_ENCODING_STREAM) fail("stream encoding " + std::to_string(o->encoding));
        break;
    default: fail("value of type " + std::to_string(o->type) + " at " + keyName(key));
    }
}

void checkDb(redisDb &db) {
    size_t keys = 0;
    for (auto &de : db.dict) {
        keys++;
        checkValue(de.val.get(), de.key.view());
    }
    if (keys != db.dict.size()) fail("db " + std::to_string(db.id) + " counts " + std::to_string(db.dict.size()) +
                                     " keys and holds " + std::to_string(keys));
    size_t expires = 0;
    for (auto &de : db.expires) {
        expires++;
        auto *kde = db.dict.find(std::string_view(de.key));
        if (!kde) fail("an expire on a missing key " + keyName(de.key));
        if (kde->key.data() != de.key.s) fail("an expire not sharing its key's sds at " + keyName(de.key));
    }
    if (expires != db.expires.size()) fail("expires miscounted in db " + std::to_string(db.id));
    for (auto &de : db.blocking_keys) {
        if (de.val.empty()) fail("a blocking_keys entry with no waiter");
        for (client *c : de.val)
            if (!(c->flags & CLIENT_BLOCKED)) fail("a waiter in blocking_keys that is not blocked");
    }
}

void checkServer(client *const (&clients)[kClients]) {
    for (int j = 0; j < server.dbnum; j++) {
        redisDb &db = server.db[j];
        if (db.dict.size() || db.expires.size() || db.blocking_keys.size()) checkDb(db);
    }
    unsigned blocked = 0;
    for (client *c : clients) blocked += c && (c->flags & CLIENT_BLOCKED);
    if (blocked != server.blocked_clients) fail("blocked_clients is " + std::to_string(server.blocked_clients) +
                                                " for " + std::to_string(blocked) + " blocked clients");
    if (!server.ready_keys.empty()) fail("ready keys left after a command");
}

/* Everything one input made is gone once its clients are freed and the
 * databases emptied. */
void checkServerIsEmpty() {
    for (int j = 0; j < server.dbnum; j++) {
        redisDb &db = server.db[j];
        if (db.dict.size() || db.expires.size() || db.blocking_keys.size() || db.ready_keys.size() ||
            db.watched_keys.size())
            fail("db " + std::to_string(j) + " not empty between inputs");
    }
    if (server.blocked_clients || !server.clients_timeout_table.empty() || !server.unblocked_clients.empty() ||
        !server.ready_keys.empty())
        fail("blocking state left between inputs");
    if (server.pubsub_channels.size() || server.pubsub_patterns.size()) fail("subscriptions left between inputs");
    if (!server.clients.empty()) fail("clients left between inputs");
}

/* Socketless clients' replies are only kept to be thrown away. */
void dropOutput(client *c) {
    c->bufpos = 0;
    c->sentlen = 0;
    c->reply.clear();
    c->reply_bytes = 0;
}

/* COMMAND_FUZZ_VERBOSE=1: each command and the replies it caused, to read
 * what a crashing input does (and replay it over a socket). */
bool verbose = false;

void printCommand(const client *c, const std::vector<std::string> &argv) {
    std::string line;
    for (const std::string &a : argv) {
        catRepr(line, a);
        line += ' ';
    }
    fprintf(stderr, "client %llu> %s\n", static_cast<unsigned long long>(c->id), line.c_str());
}

void printOutput(int j, const client *c) {
    std::string out = clientOutputBytes(c), repr;
    if (out.empty()) return;
    catRepr(repr, out.substr(0, 300));
    fprintf(stderr, "client %llu< %s\n", static_cast<unsigned long long>(client_ids[j]), repr.c_str());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    installServerHooks(); /* as serverMain: commands, freeClient, the types all go through them */
    server.verbosity = LL_WARNING;
    initCommandTable();
    initDatabases();
    server.el = aeCreateEventLoop(128);
    updateCachedTime();
    setEncodingLimits();
    verbose = getenv("COMMAND_FUZZ_VERBOSE") != nullptr;
    return 0;
}

/* The input's client j, or nullptr once the server freed it (ACL DELUSER
 * frees the clients of the user it deletes). */
client *liveClient(int j) {
    auto it = server.clients_index.find(client_ids[j]);
    return it == server.clients_index.end() ? nullptr : it->second;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    FuzzInput in(data, size);
    ACLInit(); /* only the default user, as at start-up: an input's ACL SETUSER stays its own */
    client *clients[kClients];
    for (int j = 0; j < kClients; j++) {
        clients[j] = createClient(nullptr);
        client_ids[j] = clients[j]->id;
    }
    for (int n = 0; n < kMaxCommands && !in.empty(); n++) {
        client *c = liveClient(in.byte() % kClients);
        /* A client closing (QUIT, a protocol error) takes no more commands. */
        if (!c || (c->flags & (CLIENT_CLOSE_AFTER_REPLY | CLIENT_CLOSE_ASAP))) continue;
        std::vector<std::string> argv = command(in);
        if (verbose) printCommand(c, argv);
        c->querybuf.append(toMultibulk(argv));
        processInputBuffer(c);
        /* What the event loop does next: timeouts, then beforeSleep's
         * pipelined commands of the clients unblocked meanwhile. */
        handleBlockedClientsTimeout();
        processUnblockedClients();
        databasesCron();
        for (int j = 0; j < kClients; j++) {
            clients[j] = liveClient(j);
            if (!clients[j]) continue;
            if (verbose) printOutput(j, clients[j]);
            dropOutput(clients[j]);
        }
        checkServer(clients);
    }
    for (int j = 0; j < kClients; j++)
        if (client *c = liveClient(j)) freeClient(c);
    processUnblockedClients();
    freeClientsInAsyncFreeQueue();
    emptyData(-1, EMPTYDB_NO_FLAGS);
    checkServerIsEmpty();
    return 0;
}
