/* replication_master_test.cpp — cppredis as a master (replication_master.cpp):
 * a real Redis 7 replica syncing from it (disk and diskless), SYNC and
 * PSYNC driven raw, REPLCONF's answers beside Redis's, WAIT, and
 * min-replicas-to-write. Every wait is bounded (pollUntil). */
#include "harness.h"

#include <strings.h>

#include <regex>
#include <string>
#include <vector>

using namespace itest;

namespace {

std::vector<std::string> masterArgs(const char *diskless) {
    return {"--save", "", "--enable-debug-command", "yes", "--repl-diskless-sync", diskless,
            "--repl-diskless-sync-delay", "0", "--repl-ping-replica-period", "1"};
}

std::string digest(RespConn &c) { return c.call({"DEBUG", "DIGEST"}).str; }

/* `n` bytes LZF cannot shrink, so the RDB is as big as the data. */
std::string incompressible(size_t n, unsigned seed) {
    std::string s(n, ' ');
    for (char &ch : s) {
        seed = seed * 1103515245u + 12345u;
        ch = static_cast<char>('!' + (seed >> 16) % 90);
    }
    return s;
}

/* One of each type, in two dbs, with TTLs: what the RDB carries. */
void loadDataset(RespConn &m) {
    pipeline(m, {{"SET", "str", "hello"},
                 {"SET", "int", "12345"},
                 {"RPUSH", "list", "a", "b", "c"},
                 {"HSET", "hash", "f1", "v1", "f2", "v2"},
                 {"SADD", "set", "x", "y", "1"},
                 {"ZADD", "zset", "1", "one", "2.5", "two"},
                 {"XADD", "stream", "1-1", "f", "v"},
                 {"SET", "ttl", "v", "PX", "100000"},
                 {"SELECT", "1"},
                 {"SET", "db1key", "in db 1"},
                 {"SELECT", "0"}});
}

/* Writes of every shape the stream carries: plain, another db, a
 * transaction, an expiry turned absolute, a key that expires on the
 * master (its DEL). */
void writeMore(RespConn &m, const std::string &tag) {
    pipeline(m, {{"INCR", "int"},
                 {"LPUSH", "list", tag},
                 {"HSET", "hash", "f" + tag, tag},
                 {"ZINCRBY", "zset", "3", "one"},
                 {"XADD", "stream", "*", "tag", tag},
                 {"EXPIRE", "str", "1000"},
                 {"SET", "short" + tag, "v", "PX", "50"},
                 {"SELECT", "2"},
                 {"SADD", "db2set", tag},
                 {"SELECT", "0"},
                 {"MULTI"},
                 {"SET", "tx" + tag, "1"},
                 {"SELECT", "1"},
                 {"INCR", "counter"},
                 {"EXEC"},
                 {"SELECT", "0"}});
}

bool linkUp(RespConn &replica) { return infoField(replica, "replication", "master_link_status") == "up"; }

/* A Redis 7.0 replica follows a cppredis master through a full sync with
 * writes during and after it; both hold the same data. */
void redisReplicaFollows(const char *diskless) {
    TestServer master(masterArgs(diskless));
    RespConn m = master.connect();
    loadDataset(m);
    /* 10 MB: more than a socket takes at once, so the transfer waits on it. */
    std::vector<Args> big;
    for (int i = 0; i < 200; i++) big.push_back({"SET", "big" + std::to_string(i), incompressible(50000, i)});
    pipeline(m, big);
    /* A slow child, so that the writes below happen during the sync. */
    ASSERT_EQ(m.call({"CONFIG", "SET", "rdb-key-save-delay", "2000"}).str, "OK");
    RedisReference replica({"--replicaof", "127.0.0.1", std::to_string(master.port()), "--enable-debug-command",
                            "yes", "--repl-diskless-load", "disabled"});
    RespConn r = replica.connect();
    ASSERT_TRUE(master.waitForLog("Starting BGSAVE for SYNC with target: " +
                                  std::string(std::string(diskless) == "yes" ? "replicas sockets" : "disk")))
        << master.log();
    writeMore(m, "during");
    ASSERT_EQ(m.call({"CONFIG", "SET", "rdb-key-save-delay", "0"}).str, "OK");
    ASSERT_TRUE(pollUntil([&] { return linkUp(r); }, Ms{10000})) << master.log() << replica.log();
    writeMore(m, "after");
    /* The short-lived keys expire on the master: their DELs follow. */
    ASSERT_TRUE(pollUntil([&] { return m.call({"EXISTS", "shortduring", "shortafter"}).integer == 0; }));
    m.call({"SET", "last", "write"});
    ASSERT_TRUE(pollUntil([&] { return r.call({"GET", "last"}).str == "write" && digest(r) == digest(m); }))
        << "master " << digest(m) << " replica " << digest(r);
    EXPECT_EQ(r.call({"TTL", "str"}).integer > 900, true);
    EXPECT_EQ(infoNumber(m, "stats", "sync_full"), 1);
    EXPECT_NE(m.call({"CLIENT", "LIST"}).str.find("flags=S "), std::string::npos);
    /* WAIT with the replica acknowledging. */
    m.call({"SET", "acked", "1"});
    EXPECT_EQ(m.call({"WAIT", "1", "5000"}).integer, 1);
    /* The link breaks: the replica continues with PSYNC from the backlog. */
    EXPECT_EQ(m.call({"CLIENT", "KILL", "TYPE", "replica"}).integer, 1);
    m.call({"SET", "while", "down"});
    ASSERT_TRUE(pollUntil([&] { return infoNumber(m, "stats", "sync_partial_ok") == 1; }, Ms{10000})) << master.log();
    m.call({"SET", "after", "psync"});
    ASSERT_TRUE(pollUntil([&] { return r.call({"GET", "after"}).str == "psync" && digest(r) == digest(m); }));
    EXPECT_EQ(infoNumber(m, "stats", "sync_full"), 1);
    /* min-replicas-to-write is met by the good replica. */
    ASSERT_EQ(m.call({"CONFIG", "SET", "min-replicas-to-write", "1"}).str, "OK");
    EXPECT_EQ(m.call({"SET", "guarded", "1"}).raw, "+OK\r\n");
}

/* Reads a raw SYNC's payload: newlines (the keep-alive) then "$<len>\r\n"
 * and the RDB. */
std::string readSyncPayload(RespConn &c) {
    std::string line = c.readLine();
    line.erase(0, line.find_first_not_of('\n'));
    EXPECT_EQ(line[0], '$') << line;
    std::string rdb = c.readRaw(std::stoull(line.substr(1)));
    EXPECT_EQ(rdb.substr(0, 5), "REDIS");
    return rdb;
}

/* The stream's commands until one named `until` (PINGs come too). */
std::string readStreamUntil(RespConn &c, const std::string &until) {
    std::string raw;
    for (;;) {
        Reply r = c.readReply();
        raw += r.raw;
        if (r.type == Reply::Type::Array && !r.elements.empty() && strcasecmp(r.elements[0].str.c_str(), until.c_str()) == 0)
            return raw;
    }
}

}  // namespace

TEST(ReplicationMaster, RedisReplicaFollowsDiskless) {
    REQUIRE_REDIS_REFERENCE();
    redisReplicaFollows("yes");
}

TEST(ReplicationMaster, RedisReplicaFollowsDisk) {
    REQUIRE_REDIS_REFERENCE();
    redisReplicaFollows("no");
}

/* The 2.8 test habit: a plain client sends SYNC and gets the RDB, then the
 * writes as commands, SELECT first. */
TEST(ReplicationMaster, SyncFromPlainClientStreamsRdbThenCommands) {
    TestServer master(masterArgs("yes"));
    RespConn m = master.connect();
    m.call({"SET", "before", "1"});
    RespConn s = master.connect();
    s.send("SYNC\r\n");
    readSyncPayload(s);
    m.call({"SET", "after", "2"});
    std::string stream = readStreamUntil(s, "SET");
    EXPECT_NE(stream.find("*2\r\n$6\r\nSELECT\r\n$1\r\n0\r\n*3\r\n$3\r\nSET\r\n$5\r\nafter\r\n$1\r\n2\r\n"),
              std::string::npos)
        << escape(stream);
    EXPECT_NE(m.call({"CLIENT", "LIST"}).str.find("flags=S "), std::string::npos);
    /* A script's set_repl() chooses the targets: the AOF alone, or the
     * replicas (one op for them, so no MULTI). */
    m.call({"EVAL",
            "redis.set_repl(redis.REPL_AOF) redis.call('set','aofonly','1') "
            "redis.set_repl(redis.REPL_REPLICA) redis.call('set','replonly','1')",
            "0"});
    stream = readStreamUntil(s, "SET");
    EXPECT_EQ(stream.find("aofonly"), std::string::npos) << escape(stream);
    EXPECT_NE(stream.find("replonly"), std::string::npos) << escape(stream);
    EXPECT_EQ(stream.find("MULTI"), std::string::npos) << escape(stream);
    /* Its connection is no client of the keyspace. */
    s.send("GET after\r\n");
    for (;;) {
        Reply r = s.readReply();
        if (r.type == Reply::Type::Array) continue; /* a PING of the stream */
        EXPECT_EQ(r.raw, "-ERR Replica can't interact with the keyspace\r\n");
        break;
    }
}

/* A replica that does not read is dropped once its output buffer passes
 * the replica class's limit. */
TEST(ReplicationMaster, ReplicaOverOutputBufferLimitIsDropped) {
    TestServer master(masterArgs("no"));
    RespConn m = master.connect();
    ASSERT_EQ(m.call({"CONFIG", "SET", "client-output-buffer-limit", "replica 100000 0 0"}).str, "OK");
    RespConn s = master.connect();
    s.send("SYNC\r\n");
    readSyncPayload(s);
    std::string big(100000, 'x');
    for (int i = 0; i < 100 && master.log().find("overcoming of output buffer limits") == std::string::npos; i++)
        m.call({"SET", "big" + std::to_string(i), big});
    EXPECT_TRUE(master.waitForLog("overcoming of output buffer limits")) << master.log();
    EXPECT_TRUE(master.waitForLog("Connection with replica 127.0.0.1:<unknown-replica-port> lost."));
    EXPECT_TRUE(pollUntil([&] { return m.call({"CLIENT", "LIST"}).str.find("flags=S ") == std::string::npos; }));
}

/* PSYNC: the replica's ID and offset covered by the backlog get +CONTINUE
 * and exactly the bytes after the offset; an offset outside it, or another
 * ID, a full resync. */
TEST(ReplicationMaster, PsyncContinuesFromTheBacklog) {
    TestServer master(masterArgs("no"));
    RespConn m = master.connect();
    RespConn a = master.connect();
    a.send("PSYNC ? -1\r\n");
    std::string full = a.readLine();
    ASSERT_EQ(full.substr(0, 12), "+FULLRESYNC ") << full;
    std::string replid = full.substr(12, 40);
    long long offset = std::stoll(full.substr(53));
    readSyncPayload(a);
    m.call({"SET", "k", "v"});
    m.call({"RPUSH", "l", "x"});
    std::string stream = readStreamUntil(a, "RPUSH");

    RespConn b = master.connect();
    EXPECT_EQ(b.call({"REPLCONF", "capa", "psync2"}).raw, "+OK\r\n");
    b.send("PSYNC " + replid + " " + std::to_string(offset + 1) + "\r\n");
    EXPECT_EQ(b.readLine(), "+CONTINUE " + replid);
    EXPECT_EQ(escape(b.readRaw(stream.size())), escape(stream));

    RespConn c = master.connect();
    c.send("PSYNC " + replid + " " + std::to_string(offset + 1000000) + "\r\n");
    EXPECT_EQ(c.readLine().substr(0, 12), "+FULLRESYNC ");
    RespConn d = master.connect();
    d.send("PSYNC 0123456789012345678901234567890123456789 " + std::to_string(offset + 1) + "\r\n");
    EXPECT_EQ(d.readLine().substr(0, 12), "+FULLRESYNC ");
    EXPECT_EQ(infoNumber(m, "stats", "sync_partial_ok"), 1);
    EXPECT_EQ(infoNumber(m, "stats", "sync_partial_err"), 2);
    EXPECT_EQ(infoNumber(m, "stats", "sync_full"), 3);
}

TEST(ReplicationMaster, ReplconfRepliesAsRedis) {
    REQUIRE_REDIS_REFERENCE();
    TestServer ours(masterArgs("yes"));
    RedisReference ref;
    RespConn o = ours.connect(), r = ref.connect();
    for (const char *req : {"REPLCONF\r\n", "REPLCONF listening-port\r\n", "REPLCONF listening-port abc\r\n",
                            "REPLCONF listening-port 6380 ip-address 127.0.0.1 capa eof capa psync2 capa foo\r\n",
                            "REPLCONF nosuch 1\r\n", "REPLCONF capa eof nosuch 1\r\n"})
        expectSameReplies(o, r, req);
    /* ACK from a non-replica and GETACK on a master: no reply at all. */
    expectSameReplies(o, r, "REPLCONF ACK 10\r\nREPLCONF GETACK *\r\nPING\r\n");
    expectSameReplies(o, r, "PSYNC ? -1 FAILOVER\r\n");
    expectSameReplies(o, r, "WAIT 0 0\r\n");
    expectSameReplies(o, r, "WAIT 1 -1\r\n");
    expectSameReplies(o, r, "WAIT 1 abc\r\n");
    expectSameReplies(o, r, "WAIT abc 0\r\n");
}

/* WAIT without replicas: at once when nothing is asked, the count when the
 * timeout passes, at once inside MULTI; CLIENT UNBLOCK ends it. */
TEST(ReplicationMaster, WaitWithoutReplicas) {
    TestServer master(masterArgs("yes"));
    RespConn m = master.connect();
    m.call({"SET", "k", "v"});
    EXPECT_EQ(m.call({"WAIT", "0", "0"}).raw, ":0\r\n");
    auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(m.call({"WAIT", "1", "100"}).raw, ":0\r\n");
    EXPECT_GE(std::chrono::steady_clock::now() - start, Ms{100});

    EXPECT_EQ(m.call({"MULTI"}).str, "OK");
    EXPECT_EQ(m.call({"WAIT", "1", "0"}).str, "QUEUED");
    EXPECT_EQ(m.call({"EXEC"}).raw, "*1\r\n:0\r\n");

    RespConn admin = master.connect();
    long long id = m.call({"CLIENT", "ID"}).integer;
    m.send("WAIT 1 0\r\n");
    ASSERT_TRUE(pollUntil([&] { return infoNumber(admin, "clients", "blocked_clients") == 1; }));
    EXPECT_EQ(admin.call({"CLIENT", "UNBLOCK", std::to_string(id)}).raw, ":1\r\n");
    EXPECT_EQ(m.readReply().raw, ":0\r\n");
    m.send("WAIT 1 0\r\n");
    ASSERT_TRUE(pollUntil([&] { return infoNumber(admin, "clients", "blocked_clients") == 1; }));
    EXPECT_EQ(admin.call({"CLIENT", "UNBLOCK", std::to_string(id), "ERROR"}).raw, ":1\r\n");
    EXPECT_EQ(m.readReply().raw, "-UNBLOCKED client unblocked via CLIENT UNBLOCK\r\n");
    EXPECT_EQ(m.call({"PING"}).raw, "+PONG\r\n");
}

TEST(ReplicationMaster, MinReplicasToWriteRefusesWithoutReplicas) {
    TestServer master(masterArgs("yes"));
    RespConn m = master.connect();
    ASSERT_EQ(m.call({"CONFIG", "SET", "min-replicas-to-write", "1"}).str, "OK");
    EXPECT_EQ(m.call({"SET", "k", "v"}).raw, "-NOREPLICAS Not enough good replicas to write.\r\n");
    EXPECT_EQ(m.call({"GET", "k"}).raw, "$-1\r\n");
}

/* Two replicas, one child: on disk the second attaches to the BGSAVE the
 * first started (its buffer copied); diskless, the fork waits for
 * repl-diskless-sync-max-replicas of them and the pipe feeds both. */
static void twoReplicasShareOneChild(const char *diskless) {
    const bool socket = std::string(diskless) == "yes";
    std::vector<std::string> args = masterArgs(diskless);
    if (socket) args.insert(args.end(), {"--repl-diskless-sync-delay", "30", "--repl-diskless-sync-max-replicas", "2"});
    TestServer master(args);
    RespConn m = master.connect();
    loadDataset(m);
    std::vector<Args> big;
    for (int i = 0; i < 100; i++) big.push_back({"SET", "big" + std::to_string(i), incompressible(50000, i)});
    pipeline(m, big);
    ASSERT_EQ(m.call({"CONFIG", "SET", "rdb-key-save-delay", "5000"}).str, "OK");
    const std::vector<std::string> replicaArgs{"--replicaof", "127.0.0.1", std::to_string(master.port()),
                                               "--enable-debug-command", "yes"};
    RedisReference first(replicaArgs);
    if (!socket) {
        ASSERT_TRUE(master.waitForLog("Starting BGSAVE for SYNC with target: disk")) << master.log();
    }
    RedisReference second(replicaArgs);
    ASSERT_TRUE(master.waitForLog(socket ? "Starting BGSAVE for SYNC with target: replicas sockets"
                                         : "Waiting for end of BGSAVE for SYNC"))
        << master.log();
    writeMore(m, "during");
    RespConn r1 = first.connect(), r2 = second.connect();
    ASSERT_TRUE(pollUntil([&] { return linkUp(r1) && linkUp(r2); }, Ms{15000})) << master.log();
    m.call({"SET", "last", "write"});
    ASSERT_TRUE(pollUntil([&] {
        return r1.call({"GET", "last"}).str == "write" && r2.call({"GET", "last"}).str == "write" &&
               digest(r1) == digest(m) && digest(r2) == digest(m);
    }));
    EXPECT_EQ(infoNumber(m, "stats", "sync_full"), 2);
    std::string log = master.log();
    EXPECT_EQ(log.find("Starting BGSAVE for SYNC"), log.rfind("Starting BGSAVE for SYNC")) << log;
}

TEST(ReplicationMaster, TwoReplicasShareOneDiskBgsave) {
    REQUIRE_REDIS_REFERENCE();
    twoReplicasShareOneChild("no");
}

TEST(ReplicationMaster, TwoReplicasShareOneDisklessTransfer) {
    REQUIRE_REDIS_REFERENCE();
    twoReplicasShareOneChild("yes");
}

namespace {

/* What a plain SYNC client receives for a few writes, PINGs left out: a
 * transaction, a served BLPOP, a key that expires, a script, another db. */
std::string streamForWrites(TestServer &master) {
    RespConn m = master.connect(), s = master.connect(), blocked = master.connect();
    s.send("SYNC\r\n");
    readSyncPayload(s);
    pipeline(m, {{"MULTI"}, {"INCR", "ctr"}, {"LPUSH", "l", "a", "b"}, {"EXEC"}});
    blocked.cmd({"BLPOP", "q", "0"});
    EXPECT_TRUE(pollUntil([&] { return infoNumber(m, "clients", "blocked_clients") == 1; }));
    m.call({"LPUSH", "q", "x"});
    EXPECT_EQ(blocked.readReply().elements.size(), 2u);
    m.call({"SET", "tmp", "v", "PX", "20"});
    EXPECT_TRUE(pollUntil([&] { return m.call({"PTTL", "tmp"}).integer == -2; }));
    m.call({"EVAL", "redis.call('set','s1','1') redis.call('incr','ctr')", "0"});
    pipeline(m, {{"SELECT", "5"}, {"SET", "k5", "v"}, {"SET", "end", "1"}});
    std::string stream;
    for (;;) {
        Reply r = s.readReply();
        if (r.type != Reply::Type::Array || r.elements.empty()) continue;
        if (strcasecmp(r.elements[0].str.c_str(), "ping") == 0) continue;
        stream += r.raw;
        if (r.elements.size() == 3 && r.elements[1].str == "end")
            return std::regex_replace(stream, std::regex("PXAT\r\n\\$13\r\n[0-9]{13}"), "PXAT\r\n$$13\r\n<unix ms>");
    }
}

}  // namespace

/* The Tcl suite's habit (multi.tcl, expire.tcl attach a SYNC client to see
 * what is propagated): the stream holds the same bytes as Redis 7.0's for
 * the same writes — MULTI/EXEC around a transaction and a script's
 * effects, a served BLPOP as LPOP, SET ... PX as PXAT (the instant masked),
 * an expired key as DEL, SELECT when the db changes. */
TEST(ReplicationMaster, SyncStreamIsRedisStreamForTheSameWrites) {
    REQUIRE_REDIS_REFERENCE();
    TestServer ours(masterArgs("no"));
    RedisReference redis(masterArgs("no"));
    std::string mine = streamForWrites(ours), theirs = streamForWrites(redis);
    EXPECT_EQ(escape(mine), escape(theirs));
    EXPECT_NE(mine.find("LPOP"), std::string::npos) << escape(mine);
    EXPECT_NE(mine.find("DEL"), std::string::npos) << escape(mine);
}
