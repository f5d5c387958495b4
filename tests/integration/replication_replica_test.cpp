/* replication_replica_test.cpp — cppredis as the replica of a real Redis 7
 * master (replication_replica.cpp): the full sync (diskless, Redis 7.0's
 * default, and from disk), the stream applied after it, DEBUG DIGEST
 * equality, a replica's expiry, READONLY / MASTERDOWN, INFO replication
 * and ROLE beside a Redis replica of the same master, the partial resync
 * after CLIENT KILL TYPE master and after a re-point, REPLICAOF NO ONE, and
 * the replicaof directive of a config file. */
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "harness.h"

namespace {

using namespace itest;

constexpr Ms kSyncTimeout{15000};

/* A master for tests: no delay before a diskless sync, pings every second. */
std::vector<std::string> masterArgs(std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"--repl-diskless-sync-delay", "0", "--repl-ping-replica-period", "1",
                                  "--enable-debug-command", "yes"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

/* Every type in both encodings, TTLs, another database, a transaction:
 * keys named after `tag` so that each call adds new ones. */
void writeMixedDataset(RespConn &c, const std::string &tag) {
    Args biglist{"RPUSH", tag + ":biglist"}, bigset{"SADD", tag + ":bigset"}, bigzset{"ZADD", tag + ":bigzset"},
        bighash{"HSET", tag + ":bighash"};
    for (int i = 0; i < 200; i++) {
        std::string v = "element-" + std::to_string(i);
        biglist.push_back(v);
        bigset.push_back(v);
        bigzset.insert(bigzset.end(), {std::to_string(i), v});
        bighash.insert(bighash.end(), {v, std::to_string(i)});
    }
    pipeline(c, {{"SET", tag + ":str", "hello"},
                 {"SET", tag + ":int", "12345"},
                 {"SET", tag + ":raw", std::string(100, 'x')},
                 {"RPUSH", tag + ":list", "a", "b", "c"},
                 biglist,
                 {"SADD", tag + ":intset", "1", "2", "3"},
                 {"SADD", tag + ":set", "a", "b"},
                 bigset,
                 {"ZADD", tag + ":zset", "1", "a", "2.5", "b"},
                 bigzset,
                 {"HSET", tag + ":hash", "f", "v", "g", "w"},
                 bighash,
                 {"XADD", tag + ":stream", "*", "f", "v"},
                 {"SET", tag + ":ttl", "v", "PX", "100000"},
                 {"EXPIRE", tag + ":bighash", "1000"},
                 {"SELECT", "3"},
                 {"SET", tag + ":db3", "v"},
                 {"LPUSH", tag + ":db3list", "x", "y"},
                 {"SELECT", "0"},
                 {"MULTI"},
                 {"INCR", tag + ":ctr"},
                 {"LPOP", tag + ":list"},
                 {"EXEC"}});
}

/* True once the replica's link is up and it applied all the master wrote. */
bool caughtUp(RespConn &master, RespConn &replica) {
    return pollUntil(
        [&] {
            return infoField(replica, "replication", "master_link_status") == "up" &&
                   infoNumber(replica, "replication", "slave_repl_offset") ==
                       infoNumber(master, "replication", "master_repl_offset");
        },
        kSyncTimeout);
}

std::string digest(RespConn &c) { return c.call({"DEBUG", "DIGEST"}).str; }

/* INFO replication's field names, in order. */
std::vector<std::string> replicationFieldNames(RespConn &c) {
    std::string text = c.call({"INFO", "replication"}).str;
    std::vector<std::string> names;
    for (size_t pos = 0; pos < text.size();) {
        size_t end = text.find("\r\n", pos);
        std::string line = text.substr(pos, end - pos);
        pos = end == std::string::npos ? text.size() : end + 2;
        if (!line.empty() && line[0] != '#') names.push_back(line.substr(0, line.find(':')));
    }
    return names;
}

long long statsField(RespConn &c, const std::string &field) { return infoNumber(c, "stats", field); }

TEST(ReplicationReplica, FollowsARedisMaster) {
    REQUIRE_REDIS_REFERENCE();
    RedisReference master(masterArgs());
    RespConn m = master.connect();
    const std::string mport = std::to_string(master.port());
    writeMixedDataset(m, "before");

    TestServer replica({"--enable-debug-command", "yes", "--replicaof", "127.0.0.1", mport});
    RespConn r = replica.connect();
    writeMixedDataset(m, "during"); /* while the replica connects and syncs, or just after */
    ASSERT_TRUE(replica.waitForLog("MASTER <-> REPLICA sync: Finished with success", kSyncTimeout)) << replica.log();
    EXPECT_NE(replica.log().find("MASTER <-> REPLICA sync: receiving streamed RDB from master with EOF to disk"),
              std::string::npos);
    EXPECT_NE(replica.log().find("Partial resynchronization not possible (no cached master)"), std::string::npos);
    writeMixedDataset(m, "after");
    ASSERT_TRUE(caughtUp(m, r));
    EXPECT_EQ(digest(r), digest(m));
    EXPECT_EQ(r.call({"SET", "k", "v"}).raw, "-READONLY You can't write against a read only replica.\r\n");

    /* A Redis replica of the same master: cppredis says what it says. */
    RedisReference redisReplica({"--replicaof", "127.0.0.1", mport});
    RespConn rr = redisReplica.connect();
    ASSERT_TRUE(caughtUp(m, rr));
    ASSERT_TRUE(caughtUp(m, r));
    EXPECT_EQ(replicationFieldNames(r), replicationFieldNames(rr));
    EXPECT_EQ(infoField(r, "replication", "master_replid"), infoField(m, "replication", "master_replid"));
    EXPECT_EQ(infoField(r, "replication", "master_host"), "127.0.0.1");
    EXPECT_EQ(infoField(r, "replication", "master_port"), mport);
    EXPECT_EQ(infoField(r, "replication", "slave_read_only"), "1");
    Reply role = r.call({"ROLE"}), redisRole = rr.call({"ROLE"});
    ASSERT_EQ(role.elements.size(), 5u) << role;
    for (size_t i = 0; i < 4; i++) EXPECT_EQ(role.elements[i].raw, redisRole.elements[i].raw) << i;
    EXPECT_EQ(role.elements[4].integer, infoNumber(r, "replication", "slave_repl_offset"));
    EXPECT_EQ(r.call({"WAIT", "1", "0"}).raw, rr.call({"WAIT", "1", "0"}).raw);
    /* Our REPLCONF ACKs (to GETACK, and every second) tell the master
     * how far we are: its WAIT counts us. */
    EXPECT_EQ(m.call({"WAIT", "2", "3000"}).integer, 2);
    /* The master lists us once our ACKs come. */
    const std::string online = "ip=127.0.0.1,port=" + std::to_string(replica.port()) + ",state=online,";
    EXPECT_TRUE(pollUntil([&] {
        std::string text = m.call({"INFO", "replication"}).str;
        return text.find(online) != std::string::npos;
    }));
    bool listed = false;
    const Reply masterRole = m.call({"ROLE"});
    for (const Reply &entry : masterRole.elements.at(2).elements)
        listed |= entry.elements.at(1).str == std::to_string(replica.port());
    EXPECT_TRUE(listed);

    /* Keys expire by the master's DEL: an expired key reads as missing but
     * stays until then. */
    m.call({"DEBUG", "SET-ACTIVE-EXPIRE", "0"});
    m.call({"SET", "volatile", "v", "PX", "30"});
    ASSERT_TRUE(caughtUp(m, r));
    const long long keys = r.call({"DBSIZE"}).integer;
    ASSERT_TRUE(pollUntil([&] { return r.call({"GET", "volatile"}).isNil(); }));
    EXPECT_EQ(r.call({"EXISTS", "volatile"}).integer, 0);
    EXPECT_EQ(r.call({"DBSIZE"}).integer, keys);
    EXPECT_TRUE(m.call({"GET", "volatile"}).isNil()); /* the master expires it: DEL */
    EXPECT_TRUE(pollUntil([&] { return r.call({"DBSIZE"}).integer == keys - 1; }));
    m.call({"DEBUG", "SET-ACTIVE-EXPIRE", "1"});

    /* replica-ignore-maxmemory (the default): the master's writes are
     * applied whatever this replica's maxmemory, and nothing is evicted. */
    pipeline(r, {{"CONFIG", "SET", "maxmemory-policy", "allkeys-random"}, {"CONFIG", "SET", "maxmemory", "1"}});
    writeMixedDataset(m, "maxmemory");
    ASSERT_TRUE(caughtUp(m, r));
    EXPECT_EQ(digest(r), digest(m));
    pipeline(r, {{"CONFIG", "SET", "maxmemory", "0"}});

    /* The link breaks: PSYNC continues it, no new RDB. */
    const long long full = statsField(m, "sync_full"), partial = statsField(m, "sync_partial_ok");
    EXPECT_EQ(r.call({"CLIENT", "KILL", "TYPE", "master"}).integer, 1);
    writeMixedDataset(m, "gap");
    ASSERT_TRUE(pollUntil([&] { return statsField(m, "sync_partial_ok") == partial + 1; }, kSyncTimeout)) << replica.log();
    ASSERT_TRUE(caughtUp(m, r));
    EXPECT_EQ(statsField(m, "sync_full"), full);
    EXPECT_NE(replica.log().find("MASTER <-> REPLICA sync: Master accepted a Partial Resynchronization."),
              std::string::npos);
    EXPECT_EQ(digest(r), digest(m));

    /* Pointed at a master that is not there: the link is down, and with
     * replica-serve-stale-data no only what is allowed stale is answered. */
    EXPECT_EQ(r.call({"CONFIG", "SET", "replica-serve-stale-data", "no"}).raw, "+OK\r\n");
    EXPECT_EQ(r.call({"REPLICAOF", "127.0.0.1", std::to_string(pickFreePort())}).raw, "+OK\r\n");
    EXPECT_EQ(r.call({"GET", "before:str"}).raw,
              "-MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.\r\n");
    EXPECT_EQ(infoField(r, "replication", "master_link_status"), "down");
    EXPECT_NE(infoField(r, "replication", "master_link_down_since_seconds"), "");
    /* Back to the master: the cached position still holds, a partial sync. */
    EXPECT_EQ(r.call({"REPLICAOF", "127.0.0.1", mport}).raw, "+OK\r\n");
    EXPECT_EQ(r.call({"REPLICAOF", "127.0.0.1", mport}).raw, "+OK Already connected to specified master\r\n");
    EXPECT_EQ(r.call({"REPLICAOF", "127.0.0.1", "65536"}).raw, "-ERR Invalid master port\r\n");
    ASSERT_TRUE(pollUntil([&] { return statsField(m, "sync_partial_ok") == partial + 2; }, kSyncTimeout)) << replica.log();
    ASSERT_TRUE(caughtUp(m, r));
    EXPECT_EQ(statsField(m, "sync_full"), full);
    EXPECT_EQ(r.call({"CONFIG", "SET", "replica-serve-stale-data", "yes"}).raw, "+OK\r\n");

    /* Promoted as Sentinel does it: a master that kept the data. */
    pipeline(r, {{"MULTI"}, {"REPLICAOF", "NO", "ONE"}, {"EXEC"}});
    EXPECT_TRUE(replica.waitForLog("MASTER MODE enabled (user request from '"));
    EXPECT_EQ(r.call({"DBSIZE"}).integer, m.call({"DBSIZE"}).integer);
    EXPECT_EQ(digest(r), digest(m));
    EXPECT_EQ(r.call({"SET", "k", "v"}).raw, "+OK\r\n");
    EXPECT_EQ(infoField(r, "replication", "role"), "master");
    role = r.call({"ROLE"});
    ASSERT_EQ(role.elements.size(), 3u) << role;
    EXPECT_EQ(role.elements[0].str, "master");
    EXPECT_EQ(role.elements[2].raw, "*0\r\n");
    EXPECT_EQ(rr.call({"REPLICAOF", "NO", "ONE"}).raw, "+OK\r\n");
    EXPECT_EQ(replicationFieldNames(r), replicationFieldNames(rr));

    /* A replica again: who waited on this master's keys is told, and let go. */
    RespConn blocked = replica.connect();
    blocked.cmd({"BLPOP", "queue", "0"});
    ASSERT_TRUE(pollUntil([&] { return infoNumber(r, "clients", "blocked_clients") == 1; }));
    EXPECT_EQ(r.call({"REPLICAOF", "127.0.0.1", mport}).raw, "+OK\r\n");
    EXPECT_EQ(blocked.readReply().raw,
              "-UNBLOCKED force unblock from blocking operation, instance state changed (master -> replica?)\r\n");
    blocked.expectClosed();
    EXPECT_TRUE(pollUntil([&] { return infoField(r, "replication", "master_link_status") == "up"; }, kSyncTimeout));
}

/* A master that writes its RDB to disk first ($<size>) and wants a
 * password, and a replica whose config file names its master, the
 * password, and the address it announces. */
TEST(ReplicationReplica, DiskSyncFromTheConfigFileDirective) {
    REQUIRE_REDIS_REFERENCE();
    RedisReference master(masterArgs({"--repl-diskless-sync", "no", "--requirepass", "secret"}));
    RespConn m = master.connect();
    pipeline(m, {{"AUTH", "secret"}});
    writeMixedDataset(m, "before");
    TempFile conf("enable-debug-command yes\nreplicaof 127.0.0.1 " + std::to_string(master.port()) +
                  "\nmasterauth secret\nreplica-announce-ip 10.1.2.3\nreplica-announce-port 4567\n");
    TestServer replica(ServerOptions{.configFile = conf.path()});
    RespConn r = replica.connect();
    ASSERT_TRUE(replica.waitForLog("MASTER <-> REPLICA sync: Finished with success", kSyncTimeout)) << replica.log();
    EXPECT_NE(replica.log().find(" bytes from master to disk"), std::string::npos);
    writeMixedDataset(m, "after");
    ASSERT_TRUE(caughtUp(m, r));
    EXPECT_EQ(digest(r), digest(m));
    EXPECT_EQ(infoField(r, "replication", "role"), "slave");
    EXPECT_TRUE(pollUntil([&] {
        return infoField(m, "replication", "slave0").starts_with("ip=10.1.2.3,port=4567,state=online,");
    }));

    /* CONFIG REWRITE keeps the role in the file (what Sentinel relies on
     * after a promotion or a re-point): no line on a master, and one that
     * a restart follows on a replica. */
    const std::string line = "replicaof 127.0.0.1 " + std::to_string(master.port());
    auto confText = [&] {
        std::ifstream in(conf.path());
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    ASSERT_EQ(r.call({"REPLICAOF", "NO", "ONE"}).str, "OK");
    ASSERT_EQ(r.call({"CONFIG", "REWRITE"}).str, "OK");
    EXPECT_EQ(confText().find("replicaof"), std::string::npos) << confText();
    ASSERT_EQ(r.call({"REPLICAOF", "127.0.0.1", std::to_string(master.port())}).str, "OK");
    ASSERT_EQ(r.call({"CONFIG", "REWRITE"}).str, "OK");
    EXPECT_NE(confText().find(line + "\n"), std::string::npos) << confText();
    r.close();
    ASSERT_EQ(replica.stop(), 0);
    TestServer restarted(ServerOptions{.configFile = conf.path()});
    RespConn r2 = restarted.connect();
    ASSERT_TRUE(caughtUp(m, r2));
    EXPECT_EQ(infoField(r2, "replication", "role"), "slave");
    EXPECT_EQ(digest(r2), digest(m));
}

} // namespace
