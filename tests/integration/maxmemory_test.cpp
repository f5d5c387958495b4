/* maxmemory_test.cpp — integration tests of maxmemory and eviction
 * (evict.cpp, processCommand's OOM check, the LFU counter of object.cpp):
 * the configs and their errors, noeviction's -OOM for commands that may
 * grow memory (in MULTI and scripts too) while pops and reads still run,
 * OBJECT FREQ/IDLETIME under each kind of policy, what eviction removes
 * (and the "evicted" event it publishes), and blocked clients: an element
 * is either in its list or delivered, never lost to eviction or to OOM.
 *
 * Every test runs twice, against cppredis and against Debian's Redis 7.0.15
 * (skipped if it is missing), with the same expectations. Limits are set
 * relative to each server's own used_memory, as the two count differently
 * at start-up; no test waits on a timer. */
#include <gtest/gtest.h>

#include <set>
#include <utility>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

const std::string OOM = err("OOM command not allowed when used memory > 'maxmemory'.");

class Maxmemory : public EitherServerTest {
protected:
    long long used() { return infoNumber(*c, "memory", "used_memory"); }
    long long evicted() { return infoNumber(*c, "stats", "evicted_keys"); }
    void set(const std::string &name, const std::string &value) {
        ASSERT_EQ(call({"CONFIG", "SET", name, value}), OK) << name << " " << value;
    }
    /* n keys prefix0..prefix<n-1> of `size` bytes, with a TTL if ttl > 0. */
    void fill(const std::string &prefix, int n, size_t size, int ttl = 0) {
        std::vector<Args> cmds;
        for (int i = 0; i < n; i++) {
            Args cmd{"SET", prefix + std::to_string(i), std::string(size, 'v')};
            if (ttl > 0) cmd.insert(cmd.end(), {"EX", std::to_string(ttl + i)});
            cmds.push_back(cmd);
        }
        pipeline(*c, cmds);
    }
};
INSTANTIATE_TEST_SUITE_P(Servers, Maxmemory, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

TEST_P(Maxmemory, ConfigsDefaultsErrorsAndInfo) {
    for (auto [name, value] : {std::pair{"maxmemory", "0"}, {"maxmemory-policy", "noeviction"},
                               {"maxmemory-samples", "5"}, {"maxmemory-eviction-tenacity", "10"},
                               {"lfu-log-factor", "10"}, {"lfu-decay-time", "1"}})
        EXPECT_EQ(call({"CONFIG", "GET", name}), bulks({name, value}));
    auto failed = [](const std::string &name, const std::string &why) {
        return err("ERR CONFIG SET failed (possibly related to argument '" + name + "') - " + why);
    };
    EXPECT_EQ(call({"CONFIG", "SET", "maxmemory-policy", "lru"}),
              failed("maxmemory-policy", "argument(s) must be one of the following: volatile-lru, volatile-lfu, "
                                         "volatile-random, volatile-ttl, allkeys-lru, allkeys-lfu, allkeys-random, "
                                         "noeviction"));
    EXPECT_EQ(call({"CONFIG", "SET", "maxmemory-samples", "0"}),
              failed("maxmemory-samples", "argument must be between 1 and 2147483647 inclusive"));
    EXPECT_EQ(call({"CONFIG", "SET", "maxmemory-eviction-tenacity", "101"}),
              failed("maxmemory-eviction-tenacity", "argument must be between 0 and 100 inclusive"));
    EXPECT_EQ(call({"CONFIG", "SET", "maxmemory", "lots"}), failed("maxmemory", "argument must be a memory value"));
    EXPECT_EQ(call({"CONFIG", "SET", "lfu-log-factor", "-1"}),
              failed("lfu-log-factor", "argument must be between 0 and 2147483647 inclusive"));

    set("maxmemory", "1gb");
    set("maxmemory-policy", "volatile-ttl");
    Info in = info(*c, {"memory"});
    EXPECT_EQ(in.fields["maxmemory"], "1073741824");
    EXPECT_EQ(in.fields["maxmemory_human"], "1.00G");
    EXPECT_EQ(in.fields["maxmemory_policy"], "volatile-ttl");
    EXPECT_EQ(in.fields["mem_not_counted_for_evict"], "0"); /* no AOF */
    Info stats = info(*c, {"stats"});
    EXPECT_EQ(stats.fields["evicted_keys"], "0");
    EXPECT_EQ(stats.fields["current_eviction_exceeded_time"], "0");
    EXPECT_EQ(stats.fields["total_eviction_exceeded_time"], "0");
}

TEST_P(Maxmemory, NoevictionRefusesWhatMayGrowMemoryButPopsAndReadsRun) {
    ASSERT_EQ(call({"RPUSH", "q", "a", "b", "c", "d"}), integer(4));
    ASSERT_EQ(call({"SET", "s", "v"}), OK);
    RespConn waiter = srv->connect();
    waiter.cmd({"BLPOP", "empty", "0"}); /* blocked before the limit */
    ASSERT_TRUE(pollUntil([&] { return infoNumber(*c, "clients", "blocked_clients") == 1; }));
    set("maxmemory", "1");

    EXPECT_EQ(call({"LPUSH", "q", "x"}), OOM);
    EXPECT_EQ(call({"LPUSH", "empty", "x"}), OOM); /* nothing reaches the waiter */
    EXPECT_EQ(call({"SET", "s", "w"}), OOM);
    EXPECT_EQ(call({"LMOVE", "q", "p", "LEFT", "LEFT"}), OOM); /* denyoom: the element stays in q */
    EXPECT_EQ(call({"RPOP", "q"}), bulk("d"));
    EXPECT_EQ(call({"LPOP", "q"}), bulk("a"));
    EXPECT_EQ(call({"BLPOP", "q", "0"}), bulks({"q", "b"}));
    EXPECT_EQ(call({"GET", "s"}), bulk("v"));
    EXPECT_EQ(call({"DEL", "s"}), integer(1));
    EXPECT_EQ(call({"LRANGE", "q", "0", "-1"}), bulks({"c"}));

    /* In MULTI anything queued grows the queue: refused, and EXEC fails. */
    EXPECT_EQ(call({"MULTI"}), OK);
    EXPECT_EQ(call({"GET", "q"}), OOM);
    EXPECT_EQ(call({"EXEC"}), err("EXECABORT Transaction discarded because of previous errors."));
    /* Queued before the limit: EXEC itself is refused for its denyoom SET. */
    set("maxmemory", "0");
    EXPECT_EQ(call({"MULTI"}), OK);
    EXPECT_EQ(call({"SET", "t", "v"}), QUEUED);
    EXPECT_EQ(srv->connect().call({"CONFIG", "SET", "maxmemory", "1"}).raw, OK);
    EXPECT_EQ(call({"EXEC"}), err("EXECABORT Transaction discarded because of: OOM command not allowed when used "
                                  "memory > 'maxmemory'."));
    EXPECT_EQ(call({"EXISTS", "t"}), integer(0));

    /* A script: its first denyoom command fails, reads run; a shebang
     * script is a write unless it says otherwise. */
    EXPECT_EQ(call({"EVAL", "return redis.call('set','x','y')", "0"}),
              err("OOM command not allowed when used memory > 'maxmemory'. script: "
                  "71e6319f97b0fe8bdfa1c5df3ce4489946dda479, on @user_script:1."));
    EXPECT_EQ(call({"EVAL", "return redis.call('lpop','q')", "0"}), bulk("c"));
    EXPECT_EQ(call({"EVAL", "#!lua\nreturn redis.call('set','x','y')", "0"}), OOM);
    EXPECT_EQ(call({"EVAL", "#!lua flags=allow-oom\nreturn redis.call('set','x','y')", "0"}), OK);
    EXPECT_EQ(call({"EVAL", "#!lua flags=no-writes\nreturn redis.call('get','x')", "0"}), bulk("y"));
    EXPECT_EQ(evicted(), 0);

    /* The waiter got nothing while the pushes were refused; it gets the
     * first push accepted. */
    set("maxmemory", "0");
    EXPECT_EQ(call({"LPUSH", "empty", "z"}), integer(1));
    EXPECT_EQ(waiter.readReply().raw, bulks({"empty", "z"}));
    EXPECT_EQ(call({"EXISTS", "empty"}), integer(0));
}

TEST_P(Maxmemory, LfuCounterAndLruClockAsObjectFreqAndIdletimeRead) {
    ASSERT_EQ(call({"SET", "k", "v"}), OK);
    EXPECT_EQ(call({"OBJECT", "FREQ", "k"}),
              err("ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when "
                  "switching between policies at runtime LRU and LFU data will take some time to adjust."));
    EXPECT_EQ(call({"OBJECT", "IDLETIME", "k"}), integer(0));

    set("maxmemory-policy", "allkeys-lfu");
    EXPECT_EQ(call({"OBJECT", "IDLETIME", "k"}),
              err("ERR An LFU maxmemory policy is selected, idle time not tracked. Please note that when switching "
                  "between policies at runtime LRU and LFU data will take some time to adjust."));
    ASSERT_EQ(call({"SET", "n", "v"}), OK);
    EXPECT_EQ(call({"OBJECT", "FREQ", "n"}), integer(5)); /* LFU_INIT_VAL */
    EXPECT_EQ(call({"GET", "n"}), bulk("v"));
    EXPECT_EQ(call({"OBJECT", "FREQ", "n"}), integer(6)); /* the first step is certain */
    set("lfu-log-factor", "0");                           /* every access counts */
    for (int i = 0; i < 10; i++) ASSERT_EQ(call({"GET", "n"}), bulk("v"));
    EXPECT_EQ(call({"OBJECT", "FREQ", "n"}), integer(16));
    /* An overwrite is an access, and the new value keeps the counter. */
    EXPECT_EQ(call({"SET", "n", "w"}), OK);
    EXPECT_EQ(call({"OBJECT", "FREQ", "n"}), integer(17));
    EXPECT_EQ(call({"OBJECT", "FREQ", "missing"}), NIL);
    /* The counter is saved with the key and loaded back. */
    EXPECT_EQ(call({"DEBUG", "RELOAD"}), OK);
    EXPECT_EQ(call({"OBJECT", "FREQ", "n"}), integer(17));

    /* With a limit and an LRU or LFU policy each value has its own clock:
     * small integers are not shared. */
    ASSERT_EQ(call({"SET", "i", "5"}), OK);
    EXPECT_EQ(call({"OBJECT", "REFCOUNT", "i"}), integer(2147483647));
    set("maxmemory", "1gb");
    ASSERT_EQ(call({"SET", "i", "5"}), OK);
    EXPECT_EQ(call({"OBJECT", "REFCOUNT", "i"}), integer(1));
    EXPECT_EQ(call({"OBJECT", "ENCODING", "i"}), bulk("int"));
    set("maxmemory-policy", "allkeys-random");
    ASSERT_EQ(call({"SET", "i", "5"}), OK);
    EXPECT_EQ(call({"OBJECT", "REFCOUNT", "i"}), integer(2147483647));
}

TEST_P(Maxmemory, EvictionFreesMemoryAsThePolicySaysAndPublishesEvicted) {
    set("notify-keyspace-events", "Ee");
    RespConn sub = srv->connect();
    ASSERT_EQ(sub.call({"SUBSCRIBE", "__keyevent@0__:evicted"}).raw,
              array({bulk("subscribe"), bulk("__keyevent@0__:evicted"), integer(1)}));

    /* volatile-*: keys without a TTL are never candidates. */
    fill("keep", 200, 10);
    fill("vol", 300, 1000, 1000);
    long long limit = used() - 100 * 1000;
    set("maxmemory-policy", "volatile-lru");
    set("maxmemory", std::to_string(limit));
    EXPECT_TRUE(srv->waitForLog("WARNING: the new maxmemory value set via CONFIG SET (" + std::to_string(limit) +
                                ") is smaller than the current memory usage"));
    EXPECT_EQ(call({"PING"}), "+PONG\r\n"); /* any command evicts first */
    long long gone = evicted();
    EXPECT_GE(gone, 80);
    EXPECT_LT(gone, 300);
    EXPECT_LE(used(), limit);
    EXPECT_EQ(call({"DBSIZE"}), integer(500 - gone));
    for (int i = 0; i < 200; i++) ASSERT_EQ(call({"EXISTS", "keep" + std::to_string(i)}), integer(1)) << i;
    std::set<std::string> notified;
    for (long long i = 0; i < gone; i++) {
        Reply m = sub.readReply();
        ASSERT_EQ(m.elements.size(), 3u) << m;
        EXPECT_EQ(m.elements[1].str, "__keyevent@0__:evicted");
        notified.insert(m.elements[2].str);
    }
    EXPECT_EQ(notified.size(), static_cast<size_t>(gone));
    for (const std::string &key : notified) EXPECT_EQ(key.rfind("vol", 0), 0u) << key;

    /* With no volatile key left, nothing may go: writes get -OOM. */
    set("maxmemory", "1");
    EXPECT_EQ(call({"SET", "more", "x"}), OOM);
    EXPECT_EQ(call({"DBSIZE"}), integer(200));

    /* allkeys-lfu keeps what is read often (lfu-log-factor 0: every read
     * counts, so hot keys are far above the new ones' LFU_INIT_VAL). */
    set("maxmemory", "0");
    set("maxmemory-policy", "allkeys-lfu");
    set("lfu-log-factor", "0");
    ASSERT_EQ(call({"FLUSHALL"}), OK);
    fill("cold", 400, 500);
    std::vector<Args> reads;
    for (int i = 0; i < 40; i++)
        for (int r = 0; r < 10; r++) reads.push_back({"GET", "cold" + std::to_string(i)});
    pipeline(*c, reads);
    long long before = evicted();
    set("maxmemory", std::to_string(used() - 100 * 1000));
    EXPECT_EQ(call({"PING"}), "+PONG\r\n");
    EXPECT_GT(evicted(), before + 100);
    for (int i = 0; i < 40; i++) EXPECT_EQ(call({"EXISTS", "cold" + std::to_string(i)}), integer(1)) << i;
}

TEST_P(Maxmemory, EvictionGoesOnBetweenCommandsOnceAStepIsOutOfTime) {
    /* Tenacity 0: a step stops after 16 keys. The evictions past those the
     * subscriber sees come from evictionTimeProc: nobody sends a command. */
    fill("k", 1000, 1000);
    set("notify-keyspace-events", "Ee");
    set("maxmemory-eviction-tenacity", "0");
    set("maxmemory-policy", "allkeys-random");
    RespConn sub = srv->connect();
    ASSERT_EQ(sub.call({"SUBSCRIBE", "__keyevent@0__:evicted"}).raw,
              array({bulk("subscribe"), bulk("__keyevent@0__:evicted"), integer(1)}));
    set("maxmemory", std::to_string(used() - 500 * 1000));
    for (int i = 0; i < 200; i++) ASSERT_EQ(sub.readReply().elements.size(), 3u) << i;
    EXPECT_GE(evicted(), 200);
}

TEST_P(Maxmemory, BlockedClientsGetEveryElementWhileEvictionRuns) {
    /* Queue keys have no TTL and volatile-lru evicts only fillers, so every
     * element pushed is either delivered or still in a list. Memory is over
     * the limit before every push: each one evicts, then pushes, and the
     * waiter is served from the key in the same step. */
    fill("filler", 400, 1000, 1000);
    set("maxmemory-policy", "volatile-lru");
    set("maxmemory", std::to_string(used() - 50 * 1000));
    RespConn waiter = srv->connect();
    std::vector<std::string> delivered;
    for (int i = 0; i < 100; i++) {
        std::string e = "e" + std::to_string(i);
        waiter.cmd({"BLMOVE", "src", "dst", "LEFT", "RIGHT", "0"});
        ASSERT_TRUE(pollUntil([&] { return infoNumber(*c, "clients", "blocked_clients") == 1; }));
        ASSERT_EQ(call({"SET", "grow" + std::to_string(i), std::string(2000, 'g'), "EX", "1000"}), OK);
        ASSERT_EQ(call({"LPUSH", "src", e}), integer(1));
        Reply r = waiter.readReply();
        ASSERT_EQ(r.raw, bulk(e));
        delivered.push_back(e);
    }
    EXPECT_GT(evicted(), 100);
    EXPECT_EQ(call({"EXISTS", "src"}), integer(0));
    std::vector<std::string> dst;
    for (const Reply &r : c->call({"LRANGE", "dst", "0", "-1"}).elements) dst.push_back(r.str);
    EXPECT_EQ(dst, delivered);

    /* allkeys-lru: the queue itself may be evicted between rounds, but not
     * between the push that creates it and the serving of its waiter. */
    set("maxmemory-policy", "allkeys-lru");
    long long before = evicted();
    for (int i = 0; i < 50; i++) {
        std::string e = "f" + std::to_string(i);
        waiter.cmd({"BLPOP", "q", "0"});
        ASSERT_TRUE(pollUntil([&] { return infoNumber(*c, "clients", "blocked_clients") == 1; }));
        ASSERT_EQ(call({"SET", "more" + std::to_string(i), std::string(2000, 'g')}), OK);
        ASSERT_EQ(call({"LPUSH", "q", e}), integer(1));
        ASSERT_EQ(waiter.readReply().raw, bulks({"q", e}));
    }
    EXPECT_GT(evicted(), before);
}

}  // namespace
