/* replication_test.cpp — replication across implementations (issue 18):
 * a master and a replica, each either cppredis or Debian's Redis 7.0.15, in
 * the four pairings cppredis→cppredis, cppredis→Redis, Redis→cppredis and
 * Redis→Redis (the last proves the expectations against Redis itself).
 *
 *   - a full sync of a mixed dataset (every type in both encodings, expiring
 *     keys, several dbs) with writes while the RDB is being produced, over
 *     disk and diskless transfers: DEBUG DIGEST equal at equal offsets;
 *   - a broken link (CLIENT KILL TYPE master on the replica, TYPE replica on
 *     the master, the replica pointed elsewhere for a while) continues with
 *     a partial resync when the backlog covers the gap, a full one when not;
 *   - a queue (LPUSH producers, BRPOP/BRPOPLPUSH consumers) replicates
 *     exactly;
 *   - WAIT: the count of acknowledging replicas, its timeout, CLIENT UNBLOCK
 *     (both forms), inside MULTI;
 *   - SYNC from a plain client (the Tcl suite's habit) streams an RDB, then
 *     the commands.
 * Every wait is bounded (pollUntil);
 * servers ping their replicas every second and start diskless transfers at
 * once, so a test takes about a second or two.
 */
#include <strings.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <ostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "integration/harness.h"

using namespace itest;

namespace {

/* Options every server of these tests gets: DEBUG DIGEST, a ping into the
 * stream every second, diskless transfers that start without waiting. */
const std::vector<std::string> kReplArgs{"--enable-debug-command", "yes", "--repl-ping-replica-period", "1",
                                         "--repl-diskless-sync-delay", "0"};
/* Bound on a resync: a replica reconnects from its once-a-second cron. */
constexpr Ms kSyncLimit{15000};

std::unique_ptr<TestServer> startServer(ServerImpl impl, const std::vector<std::string> &extra = {}) {
    std::vector<std::string> args = kReplArgs;
    args.insert(args.end(), extra.begin(), extra.end());
    if (impl == ServerImpl::Redis) return std::make_unique<RedisReference>(args);
    return std::make_unique<TestServer>(args);
}

/* Skips the test if it needs Redis 7 and it is not installed. */
#define REQUIRE_IMPLS(...)                                                     \
    do {                                                                       \
        for (ServerImpl impl_ : {__VA_ARGS__})                                 \
            if (impl_ == ServerImpl::Redis) REQUIRE_REDIS_REFERENCE();         \
    } while (0)

std::string digest(RespConn &c) { return c.call({"DEBUG", "DIGEST"}).str; }

long long numberOr(const std::string &s, long long dflt) { return isDigits(s) ? std::stoll(s) : dflt; }

/* A field of a slaveN:ip=..,port=..,state=..,offset=..,lag=.. line. */
std::string slaveLineField(const std::string &line, const std::string &key) {
    size_t at = ("," + line).find("," + key + "=");
    if (at == std::string::npos) return "";
    at += key.size() + 1;
    return line.substr(at, line.find(',', at) - at);
}

struct Stats {
    long long full, partialOk;
};
Stats syncStats(RespConn &master) {
    Info i = info(master, {"stats"});
    return {numberOr(i.fields["sync_full"], -1), numberOr(i.fields["sync_partial_ok"], -1)};
}

/* Which implementation runs the master, which the replica. */
struct ReplPair {
    ServerImpl master, replica;
};
const char *implName(ServerImpl i) { return i == ServerImpl::Cppredis ? "Cppredis" : "Redis7"; }
void PrintTo(const ReplPair &p, std::ostream *os) { *os << implName(p.master) << " -> " << implName(p.replica); }

/* A master and its replica, either implementation each. */
class Replication : public ::testing::TestWithParam<ReplPair> {
protected:
    ServerImpl masterImpl() const { return GetParam().master; }
    ServerImpl replicaImpl() const { return GetParam().replica; }

    void SetUp() override { REQUIRE_IMPLS(masterImpl(), replicaImpl()); }

    void startPair(const std::vector<std::string> &masterArgs = {}) {
        master = startServer(masterImpl(), masterArgs);
        replica = startServer(replicaImpl());
        m.emplace(master->connect());
        r.emplace(replica->connect());
    }
    void replicaOf(int port) {
        Reply ok = r->call({"REPLICAOF", "127.0.0.1", std::to_string(port)});
        ASSERT_EQ(ok.raw.rfind("+OK", 0), 0u) << ok; /* "+OK" or "+OK Already connected..." */
    }
    void attach() { replicaOf(master->port()); }

    /* True once the link is up, the replica's offset is the master's, and
     * both datasets digest the same (the master's offset read before and
     * after, so that nothing moved in between). `why` says what differed. */
    bool inSync(std::string &why) {
        long long before = numberOr(infoField(*m, "replication", "master_repl_offset"), -1);
        Info ri = info(*r, {"replication"});
        long long roff = numberOr(ri.fields["slave_repl_offset"], -2);
        why = "master_link_status:" + ri.fields["master_link_status"] + " master_repl_offset:" +
              std::to_string(before) + " slave_repl_offset:" + std::to_string(roff);
        if (ri.fields["master_link_status"] != "up" || before != roff) return false;
        std::string dm = digest(*m), dr = digest(*r);
        long long after = numberOr(infoField(*m, "replication", "master_repl_offset"), -1);
        why += ".." + std::to_string(after) + " digests " + dm + " / " + dr;
        return before == after && dm == dr;
    }
    /* Fatal when it does not hold within the limit: the steps after it
     * would only wait in vain (ASSERT_NO_FATAL_FAILURE around it). */
    void assertInSync() {
        std::string why;
        ASSERT_TRUE(pollUntil([&] { return inSync(why); }, kSyncLimit)) << why;
    }

    void fullSyncOfMixedDataset(bool diskless);
    /* The link broken by `breakLink`, `writes` sent meanwhile, then
     * `reconnect` (a no-op when the replica reconnects by itself): once the
     * replica is back, the master counts one more resync of the kind
     * expected (partial or full) and none of the other, and the two are
     * in sync. */
    void resyncAfter(const std::function<void()> &breakLink, const std::vector<Args> &writes,
                     const std::function<void()> &reconnect, bool partial);

    std::unique_ptr<TestServer> master, replica;
    std::optional<RespConn> m, r;
};

std::string pairName(const ::testing::TestParamInfo<ReplPair> &info) {
    return std::string(implName(info.param.master)) + "To" + implName(info.param.replica);
}

/* ------------------------------------------------------------------------
 * A mixed dataset, full sync, writes during it.
 * ---------------------------------------------------------------------- */
std::string big(char c, int i) { return std::string(100, c) + std::to_string(i); }

/* Every type cppredis has, in both encodings, with and without a TTL, in
 * db `db`: about 30 keys. */
std::vector<Args> mixedDataset(int db) {
    std::string p = "db" + std::to_string(db) + ":";
    std::vector<Args> cmds{{"SELECT", std::to_string(db)}};
    cmds.push_back({"SET", p + "str", "hello"});
    cmds.push_back({"SET", p + "int", "123456"});
    cmds.push_back({"SET", p + "raw", big('s', db)});
    cmds.push_back({"INCRBY", p + "counter", "41"});
    cmds.push_back({"SET", p + "ttl:str", "v", "EX", "100000"});
    cmds.push_back({"RPUSH", p + "list:small", "a", "b", "1", "2"});
    cmds.push_back({"RPUSH", p + "list:bigvalue", "a", big('l', db)});
    Args many{"RPUSH", p + "list:long"};
    for (int i = 0; i < 600; i++) many.push_back("e" + std::to_string(i));
    cmds.push_back(many);
    cmds.push_back({"HSET", p + "hash:small", "f1", "v1", "f2", "2"});
    cmds.push_back({"HSET", p + "hash:bigvalue", "f", big('h', db)});
    Args fields{"HSET", p + "hash:long"};
    for (int i = 0; i < 200; i++) fields.insert(fields.end(), {"f" + std::to_string(i), std::to_string(i)});
    cmds.push_back(fields);
    cmds.push_back({"HSET", p + "ttl:hash", "f", "v"});
    cmds.push_back({"PEXPIRE", p + "ttl:hash", "90000000"});
    cmds.push_back({"SADD", p + "set:int", "1", "2", "3", "-7"});
    cmds.push_back({"SADD", p + "set:str", "a", "b", "c"});
    Args ints{"SADD", p + "set:manyints"};
    for (int i = 0; i < 600; i++) ints.push_back(std::to_string(i * 3));
    cmds.push_back(ints);
    cmds.push_back({"ZADD", p + "zset:small", "1", "a", "2.5", "b"});
    cmds.push_back({"ZADD", p + "zset:bigvalue", "1", big('z', db)});
    Args members{"ZADD", p + "zset:long"};
    for (int i = 0; i < 200; i++) members.insert(members.end(), {std::to_string(i), "m" + std::to_string(i)});
    cmds.push_back(members);
    for (int i = 1; i <= 20; i++)
        cmds.push_back({"XADD", p + "stream", std::to_string(i) + "-1", "f", std::to_string(i)});
    cmds.push_back({"XGROUP", "CREATE", p + "stream", "g", "0"});
    cmds.push_back({"XREADGROUP", "GROUP", "g", "alice", "COUNT", "5", "STREAMS", p + "stream", ">"});
    cmds.push_back({"XACK", p + "stream", "g", "1-1", "2-1"});
    cmds.push_back({"XGROUP", "CREATECONSUMER", p + "stream", "g", "bob"});
    return cmds;
}

/* Writes of every kind while the RDB is being made: to the keys of dbs 0
 * and 1, and new keys in db 3, which the RDB does not have. */
std::vector<Args> writesDuringSync() {
    std::vector<Args> cmds;
    for (int db : {0, 1}) {
        std::string p = "db" + std::to_string(db) + ":";
        cmds.push_back({"SELECT", std::to_string(db)});
        cmds.push_back({"SET", p + "str", "changed"});
        cmds.push_back({"INCR", p + "counter"});
        cmds.push_back({"SET", p + "new", "v", "PX", "80000000"});
        cmds.push_back({"LPUSH", p + "list:long", "head"});
        cmds.push_back({"RPOP", p + "list:small"});
        cmds.push_back({"HSET", p + "hash:small", "f3", big('H', db)});
        cmds.push_back({"SREM", p + "set:manyints", "0", "3"});
        cmds.push_back({"ZINCRBY", p + "zset:long", "10", "m1"});
        cmds.push_back({"XADD", p + "stream", "*", "f", "new"});
        cmds.push_back({"XREADGROUP", "GROUP", "g", "bob", "COUNT", "2", "STREAMS", p + "stream", ">"});
        cmds.push_back({"DEL", p + "raw"});
    }
    cmds.push_back({"SELECT", "3"});
    cmds.push_back({"RPUSH", "db3:list", "x", big('y', 3)});
    cmds.push_back({"SADD", "db3:set", "1", "2"});
    cmds.push_back({"XADD", "db3:stream", "*", "f", "v"});
    /* Keys that expire soon on the master: their deletion reaches the
     * replica as a DEL. */
    for (int db : {0, 3}) {
        cmds.push_back({"SELECT", std::to_string(db)});
        for (int i = 0; i < 5; i++)
            cmds.push_back({"SET", "db" + std::to_string(db) + ":short:" + std::to_string(i), "v", "PX", "20"});
    }
    cmds.push_back({"SELECT", "0"});
    return cmds;
}

/* Until every short-lived key is gone from the master (touching them
 * expires them there, and the master sends the replica their DEL). */
bool shortKeysExpired(RespConn &c) {
    for (int db : {0, 3}) {
        std::string p = "db" + std::to_string(db) + ":short:";
        c.call({"SELECT", std::to_string(db)});
        Reply n = c.call({"EXISTS", p + "0", p + "1", p + "2", p + "3", p + "4"});
        if (n.integer != 0) {
            c.call({"SELECT", "0"});
            return false;
        }
    }
    c.call({"SELECT", "0"});
    return true;
}

void Replication::fullSyncOfMixedDataset(bool diskless) {
    startPair({"--repl-diskless-sync", diskless ? "yes" : "no"});
    for (int db : {0, 1, 2}) pipeline(*m, mixedDataset(db));
    /* The child sleeps 4 ms a key (~100 keys): a window for the writes. */
    ASSERT_EQ(m->call({"CONFIG", "SET", "rdb-key-save-delay", "4000"}).raw, "+OK\r\n");
    attach();
    ASSERT_TRUE(pollUntil([&] { return infoField(*m, "persistence", "rdb_bgsave_in_progress") == "1"; }))
        << "the master never started an RDB for its replica";
    pipeline(*m, writesDuringSync());
    EXPECT_EQ(infoField(*m, "persistence", "rdb_bgsave_in_progress"), "1")
        << "the writes did not overlap the RDB's production";
    ASSERT_EQ(m->call({"CONFIG", "SET", "rdb-key-save-delay", "0"}).raw, "+OK\r\n");
    EXPECT_TRUE(pollUntil([&] { return shortKeysExpired(*m); }));
    ASSERT_NO_FATAL_FAILURE(assertInSync());
    EXPECT_EQ(syncStats(*m).full, 1);
    /* A few values read back on the replica, beside the digest. */
    EXPECT_EQ(r->call({"GET", "db0:str"}).str, "changed");
    EXPECT_EQ(r->call({"LLEN", "db0:list:long"}).integer, 601);
    EXPECT_EQ(r->call({"EXISTS", "db0:raw"}).integer, 0);
    EXPECT_GT(r->call({"PTTL", "db0:new"}).integer, 0);
    EXPECT_EQ(r->call({"SELECT", "2"}).raw, "+OK\r\n");
    EXPECT_EQ(r->call({"XLEN", "db2:stream"}).integer, 20);
    EXPECT_EQ(r->call({"HLEN", "db2:hash:long"}).integer, 200);
    EXPECT_EQ(r->call({"SET", "x", "y"}).raw, "-READONLY You can't write against a read only replica.\r\n");
}

TEST_P(Replication, FullSyncOverDiskWithWritesDuringIt) { fullSyncOfMixedDataset(false); }
TEST_P(Replication, DisklessFullSyncWithWritesDuringIt) { fullSyncOfMixedDataset(true); }

/* ------------------------------------------------------------------------
 * A broken link: partial resync when the backlog covers the gap.
 * ---------------------------------------------------------------------- */
std::vector<Args> someWrites(const std::string &tag, int n, size_t valueSize) {
    std::vector<Args> cmds;
    for (int i = 0; i < n; i++) {
        cmds.push_back({"SET", tag + ":" + std::to_string(i % 50), std::string(valueSize, 'v') + std::to_string(i)});
        cmds.push_back({"LPUSH", tag + ":list", std::to_string(i)});
    }
    cmds.push_back({"SELECT", "5"});
    cmds.push_back({"INCR", tag + ":in5"});
    cmds.push_back({"SELECT", "0"});
    return cmds;
}

void Replication::resyncAfter(const std::function<void()> &breakLink, const std::vector<Args> &writes,
                              const std::function<void()> &reconnect, bool partial) {
    Stats before = syncStats(*m);
    breakLink();
    pipeline(*m, writes);
    reconnect();
    Stats now{};
    ASSERT_TRUE(pollUntil([&] {
        now = syncStats(*m);
        return now.full + now.partialOk > before.full + before.partialOk;
    }, kSyncLimit)) << "the replica never resynchronised";
    EXPECT_EQ(now.partialOk, before.partialOk + (partial ? 1 : 0));
    EXPECT_EQ(now.full, before.full + (partial ? 0 : 1));
    ASSERT_NO_FATAL_FAILURE(assertInSync());
}

TEST_P(Replication, BrokenLinkResyncsPartiallyIfTheBacklogCoversTheGapElseFully) {
    /* Redis's smallest backlog: 16 KB. */
    startPair({"--repl-backlog-size", "16kb"});
    pipeline(*m, someWrites("before", 20, 10));
    attach();
    ASSERT_NO_FATAL_FAILURE(assertInSync());
    ASSERT_EQ(syncStats(*m).full, 1);

    const auto itself = [] {};
    /* The replica drops its master, and reconnects by itself. */
    ASSERT_NO_FATAL_FAILURE(
        resyncAfter([&] { EXPECT_EQ(r->call({"CLIENT", "KILL", "TYPE", "master"}).integer, 1); },
                    someWrites("killmaster", 20, 10), itself, true));
    /* The master drops its replica. */
    ASSERT_NO_FATAL_FAILURE(
        resyncAfter([&] { EXPECT_EQ(m->call({"CLIENT", "KILL", "TYPE", "replica"}).integer, 1); },
                    someWrites("killreplica", 20, 10), itself, true));
    /* The replica follows a master that is not there, then comes back:
     * PSYNC from the offset it had, which the backlog still holds. */
    const int nobody = pickFreePort();
    const auto goAway = [&] {
        replicaOf(nobody);
        EXPECT_TRUE(pollUntil([&] { return infoField(*r, "replication", "master_link_status") == "down"; }));
    };
    const auto comeBack = [&] { replicaOf(master->port()); };
    ASSERT_NO_FATAL_FAILURE(resyncAfter(goAway, someWrites("away", 20, 10), comeBack, true));
    /* Away again while ~64 KB go through the 16 KB backlog: the gap is
     * lost, the master sends a new RDB. */
    const auto gapExceedsTheBacklogThenComeBack = [&] {
        EXPECT_GT(numberOr(infoField(*m, "replication", "master_repl_offset"), 0) -
                      numberOr(infoField(*r, "replication", "slave_repl_offset"), 0),
                  16 * 1024);
        comeBack();
    };
    resyncAfter(goAway, someWrites("faraway", 200, 300), gapExceedsTheBacklogThenComeBack, false);
}

/* ------------------------------------------------------------------------
 * A queue under replication.
 * ---------------------------------------------------------------------- */
TEST_P(Replication, QueueWithBlockingConsumersReplicatesExactly) {
    startPair();
    attach();
    ASSERT_NO_FATAL_FAILURE(assertInSync());

    constexpr int kMessages = 1500; /* per producer */
    std::atomic<int> producing{2};
    std::atomic<long> consumed{0};
    std::vector<std::string> errors(4);
    auto guarded = [&](int slot, auto body) {
        return std::thread([&, slot, body] {
            try {
                body();
            } catch (const std::exception &e) {
                errors[slot] = e.what();
            }
        });
    };
    std::vector<std::thread> threads;
    for (int p = 0; p < 2; p++) {
        threads.push_back(guarded(p, [&, p] {
            RespConn c = master->connect();
            for (int i = 0; i < kMessages; i += 50) {
                std::vector<Args> batch;
                for (int j = i; j < i + 50; j++)
                    batch.push_back({"LPUSH", "q:" + std::to_string(j % 2), "p" + std::to_string(p) + ":" + std::to_string(j)});
                pipeline(c, batch);
            }
            producing--;
        }));
    }
    /* A consumer pops until the producers are done and a pop times out. */
    auto consumer = [&](Args pop) {
        RespConn c = master->connect();
        for (;;) {
            bool done = producing.load() == 0;
            Reply got = c.call(pop);
            if (got.isError()) throw HarnessError(toString(got));
            if (got.isNil()) {
                if (done) return;
                continue;
            }
            consumed++;
        }
    };
    threads.push_back(guarded(2, [&] { consumer({"BRPOP", "q:0", "q:1", "0.05"}); }));
    threads.push_back(guarded(3, [&] { consumer({"BRPOPLPUSH", "q:1", "done", "0.05"}); }));
    for (std::thread &t : threads) t.join();
    for (const std::string &e : errors) EXPECT_EQ(e, "");

    long left = m->call({"LLEN", "q:0"}).integer + m->call({"LLEN", "q:1"}).integer;
    EXPECT_EQ(consumed.load() + left, 2L * kMessages);
    ASSERT_NO_FATAL_FAILURE(assertInSync());
    for (const char *key : {"q:0", "q:1", "done"})
        EXPECT_EQ(r->call({"LRANGE", key, "0", "-1"}).raw, m->call({"LRANGE", key, "0", "-1"}).raw) << key;
}

/* ------------------------------------------------------------------------
 * WAIT.
 * ---------------------------------------------------------------------- */
/* The master's view of its first replica's acknowledged offset. */
long long ackedOffset(RespConn &master) {
    return numberOr(slaveLineField(infoField(master, "replication", "slave0"), "offset"), -1);
}

TEST_P(Replication, WaitCountsAcknowledgingReplicas) {
    startPair();
    /* No replica: 0 at once, or once the timeout passes. */
    EXPECT_EQ(m->call({"WAIT", "0", "0"}).raw, ":0\r\n");
    EXPECT_EQ(m->call({"WAIT", "1", "20"}).raw, ":0\r\n");
    attach();
    ASSERT_NO_FATAL_FAILURE(assertInSync());

    /* A write, then WAIT on the same connection: the replica acknowledges. */
    RespConn w = master->connect();
    EXPECT_EQ(w.call({"SET", "k", "1"}).raw, "+OK\r\n");
    EXPECT_EQ(w.call({"WAIT", "1", "0"}).raw, ":1\r\n");

    /* Two asked, one there: the timeout answers the count reached. */
    EXPECT_EQ(w.call({"SET", "k", "2"}).raw, "+OK\r\n");
    auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(w.call({"WAIT", "2", "200"}).raw, ":1\r\n");
    EXPECT_GE(std::chrono::steady_clock::now() - start, Ms{190});

    /* Inside MULTI it never blocks. */
    EXPECT_EQ(w.call({"MULTI"}).raw, "+OK\r\n");
    EXPECT_EQ(w.call({"WAIT", "2", "0"}).raw, "+QUEUED\r\n");
    Reply exec = w.call({"EXEC"});
    ASSERT_EQ(exec.type, Reply::Type::Array) << exec;
    ASSERT_EQ(exec.elements.size(), 1u) << exec;
    EXPECT_EQ(exec.elements[0].type, Reply::Type::Integer) << exec;
    EXPECT_LE(exec.elements[0].integer, 1) << exec;
}

TEST_P(Replication, BlockedWaitIsUnblockedByClientUnblock) {
    startPair();
    attach();
    ASSERT_NO_FATAL_FAILURE(assertInSync());
    RespConn w = master->connect();
    const std::string id = std::to_string(w.call({"CLIENT", "ID"}).integer);
    /* WAIT 2 0 blocks for good; once the replica has acknowledged the
     * write, CLIENT UNBLOCK answers it with the count reached (TIMEOUT
     * form), or with an -UNBLOCKED error. */
    auto blockedWait = [&] {
        EXPECT_EQ(w.call({"SET", "k", "v"}).raw, "+OK\r\n");
        long long written = numberOr(infoField(*m, "replication", "master_repl_offset"), -1);
        w.cmd({"WAIT", "2", "0"});
        EXPECT_TRUE(pollUntil([&] {
            return clientField(clientListLine(*m, "id", id), "flags").find('b') != std::string::npos &&
                   ackedOffset(*m) >= written;
        })) << "WAIT did not block, or the replica never acknowledged";
    };
    blockedWait();
    EXPECT_EQ(m->call({"CLIENT", "UNBLOCK", id}).raw, ":1\r\n");
    EXPECT_EQ(w.readReply().raw, ":1\r\n");
    blockedWait();
    EXPECT_EQ(m->call({"CLIENT", "UNBLOCK", id, "ERROR"}).raw, ":1\r\n");
    EXPECT_EQ(w.readReply().raw, "-UNBLOCKED client unblocked via CLIENT UNBLOCK\r\n");
    EXPECT_EQ(w.call({"PING"}).raw, "+PONG\r\n");
}

INSTANTIATE_TEST_SUITE_P(Pairs, Replication,
                         ::testing::Values(ReplPair{ServerImpl::Cppredis, ServerImpl::Cppredis},
                                           ReplPair{ServerImpl::Cppredis, ServerImpl::Redis},
                                           ReplPair{ServerImpl::Redis, ServerImpl::Cppredis},
                                           ReplPair{ServerImpl::Redis, ServerImpl::Redis}),
                         pairName);

/* ------------------------------------------------------------------------
 * SYNC from a plain client: one server, either implementation.
 * ---------------------------------------------------------------------- */
class SyncFromClient : public ::testing::TestWithParam<ServerImpl> {
protected:
    void SetUp() override { REQUIRE_IMPLS(GetParam()); }
};
INSTANTIATE_TEST_SUITE_P(Servers, SyncFromClient, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* A client that sends SYNC gets "$<len>" and the RDB (a client without
 * "capa eof" gets the file even when diskless sync is on: the default),
 * then the writes as commands, perhaps after a SELECT and PINGs. */
TEST_P(SyncFromClient, StreamsTheRdbThenTheCommands) {
    std::unique_ptr<TestServer> srv = startServer(GetParam());
    RespConn c = srv->connect();
    pipeline(c, mixedDataset(0));
    RespConn s = srv->connect();
    s.cmd({"SYNC"});
    /* Newlines keep the link alive while the RDB is made. */
    std::string first;
    do first = s.readRaw(1);
    while (first == "\n");
    std::string header = first + s.readLine();
    ASSERT_EQ(header[0], '$') << escape(header);
    ASSERT_TRUE(isDigits(header.substr(1))) << escape(header);
    std::string rdb = s.readRaw(std::stoull(header.substr(1)));
    EXPECT_EQ(rdb.substr(0, 5), "REDIS");

    EXPECT_EQ(c.call({"SET", "after", "sync"}).raw, "+OK\r\n");
    for (int i = 0;; i++) {
        ASSERT_LT(i, 10) << "no SET in the stream";
        Reply cmd = s.readReply();
        ASSERT_EQ(cmd.type, Reply::Type::Array) << cmd;
        ASSERT_FALSE(cmd.elements.empty()) << cmd;
        if (cmd.elements[0].str == "SET") {
            EXPECT_EQ(toString(cmd), R"(["SET", "after", "sync"])");
            break;
        }
        /* Redis sends "ping" in lower case. */
        EXPECT_TRUE(strcasecmp(cmd.elements[0].str.c_str(), "SELECT") == 0 ||
                    strcasecmp(cmd.elements[0].str.c_str(), "PING") == 0)
            << cmd;
    }
}

}  // namespace
