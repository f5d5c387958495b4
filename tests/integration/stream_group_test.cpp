/* stream_group_test.cpp — integration tests of the stream consumer groups
 * (t_stream.cpp, its section 2): XGROUP's subcommands with their options
 * and errors, XACK, XPENDING's two forms, XCLAIM with every option,
 * XAUTOCLAIM (its cursor, COUNT and its limits, the IDs it finds deleted),
 * XINFO STREAM [FULL [COUNT]], GROUPS and CONSUMERS, the keyspace events
 * and the AOF each of them leaves, and the reliable-queue pattern with
 * several clients at once.
 *
 * Differential: each command goes to cppredis and to Debian's Redis 7.0.15
 * (the tests are skipped if it is missing), which hold the same streams
 * (explicit IDs), and the replies must be the same bytes. What depends on
 * the clock is masked before comparing, and checked on its own where it
 * means something: absolute milliseconds (a NACK's delivery time, a
 * consumer's seen-time) and idle times (XPENDING's third column, XINFO
 * CONSUMERS' "idle"). XCLAIM's TIME option makes a delivery time exact. */
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

const std::string INVALID_ID = err("ERR Invalid stream ID specified as stream command argument");
const std::string NEEDS_KEY = err(
    "ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may want to use the MKSTREAM "
    "option to create an empty stream automatically.");
const std::string BUSYGROUP = err("BUSYGROUP Consumer Group name already exists");

std::string noGroupOfKey(const std::string &group, const std::string &key) {
    return err("NOGROUP No such consumer group '" + group + "' for key name '" + key + "'");
}
std::string noKeyOrGroup(const std::string &key, const std::string &group) {
    return err("NOGROUP No such key '" + key + "' or consumer group '" + group + "'");
}
std::string subcommandErr(const std::string &sub, const std::string &cmd) {
    return err("ERR unknown subcommand or wrong number of arguments for '" + sub + "'. Try " + cmd + " HELP.");
}

/* A unix time in ms, past and fixed: XCLAIM ... TIME makes delivery times
 * exact with it. Before 2001, so that no mask of "now" hides it. */
constexpr long long kPast = 999999999000;

/* Integers that are absolute unix milliseconds (after 2001) become 0. */
void maskAbsoluteTimes(Reply &r) {
    if (r.type == Reply::Type::Integer && r.integer >= 1000000000000LL) r.integer = 0;
    for (Reply &e : r.elements) maskAbsoluteTimes(e);
}
/* The value after each "idle" key of a map reply (XINFO CONSUMERS) becomes 0. */
void maskIdleFields(Reply &r) {
    for (size_t i = 0; i + 1 < r.elements.size(); i++)
        if (r.elements[i].type == Reply::Type::Bulk && r.elements[i].str == "idle" &&
            r.elements[i + 1].type == Reply::Type::Integer)
            r.elements[i + 1].integer = 0;
    for (Reply &e : r.elements) maskIdleFields(e);
}
/* XPENDING's extended form: each entry's idle time (third column) becomes 0. */
void maskPendingIdle(Reply &r) {
    for (Reply &e : r.elements)
        if (e.elements.size() == 4) e.elements[2].integer = 0;
}

enum Mask { kExact = 0, kTimes = 1, kIdle = 2, kPendingIdle = 4 };

class StreamGroups : public SharedServerTest {
protected:
    /* No RDB at exit: the streams' RDB format is not what is tested here. */
    static void SetUpTestSuite() { startSharedServer({.args = {"--save", ""}, .withReference = true}); }

    std::optional<RespConn> ours, ref;

    void SetUp() override {
        SharedServerTest::SetUp();
        if (HasFatalFailure()) return;
        REQUIRE_REDIS_REFERENCE();
        ours.emplace(conn());
        ref.emplace(refConn());
        ASSERT_EQ(ref->call({"FLUSHALL"}).raw, OK);
    }

    /* Sends `args` to both servers and expects the same reply (masked as
     * told); returns cppredis's. */
    Reply same(const Args &args, int mask = kExact) {
        Reply a = ours->call(args), b = ref->call(args);
        if (mask == kExact) {
            EXPECT_EQ(escape(a.raw), escape(b.raw)) << describe(args);
            return a;
        }
        Reply ma = a, mb = b;
        for (Reply *r : {&ma, &mb}) {
            if (mask & kTimes) maskAbsoluteTimes(*r);
            if (mask & kIdle) maskIdleFields(*r);
            if (mask & kPendingIdle) maskPendingIdle(*r);
        }
        EXPECT_EQ(toString(ma), toString(mb)) << describe(args);
        return a;
    }
    /* `args` on both, expecting `expected` from both (Redis's bytes). */
    void expect(const Args &args, const std::string &expected) {
        EXPECT_EQ(escape(same(args).raw), escape(expected)) << describe(args);
    }
    void script(const std::vector<Args> &cmds, int mask = kExact) {
        for (const Args &a : cmds) same(a, mask);
    }
    /* A stream `key` of entries 1-1 .. n-1, each {"f", "v<i>"}. */
    void fill(const std::string &key, int n) {
        for (int i = 1; i <= n; i++)
            same({"XADD", key, std::to_string(i) + "-1", "f", "v" + std::to_string(i)});
    }
};

/* ========================================================================
 * XGROUP
 * ====================================================================== */

TEST_F(StreamGroups, XgroupCreateWithItsOptionsAndErrors) {
    expect({"XGROUP", "CREATE", "s", "g", "$"}, NEEDS_KEY);
    expect({"XGROUP", "CREATE", "s", "g", "$", "MKSTREAM"}, OK);
    expect({"TYPE", "s"}, "+stream\r\n");
    expect({"XLEN", "s"}, integer(0));
    expect({"XGROUP", "CREATE", "s", "g", "$"}, BUSYGROUP);
    expect({"XGROUP", "CREATE", "s", "g", "0", "MKSTREAM"}, BUSYGROUP);
    fill("s", 3);
    expect({"XGROUP", "CREATE", "s", "at-last", "$"}, OK);
    expect({"XGROUP", "CREATE", "s", "at-zero", "0"}, OK);
    expect({"XGROUP", "CREATE", "s", "at-two", "2"}, OK); /* the sequence defaults to 0 */
    expect({"XGROUP", "CREATE", "s", "read", "2-1", "ENTRIESREAD", "2"}, OK);
    expect({"XGROUP", "CREATE", "s", "unknown", "2-1", "ENTRIESREAD", "-1", "MKSTREAM"}, OK);
    expect({"xgroup", "create", "s", "lower", "0", "mkstream", "entriesread", "0"}, OK);
    /* "-" and "+" name no entry: refused, as any malformed ID. */
    for (const char *id : {"-", "+", "1-x", "abc", "1-2-3", ""})
        expect({"XGROUP", "CREATE", "s", "bad", id}, INVALID_ID);
    expect({"XGROUP", "CREATE", "s", "bad", "0", "ENTRIESREAD", "-2"},
           err("ERR value for ENTRIESREAD must be positive or -1"));
    expect({"XGROUP", "CREATE", "s", "bad", "0", "ENTRIESREAD", "x"}, NOT_INT);
    expect({"XGROUP", "CREATE", "s", "bad", "0", "ENTRIESREAD"}, subcommandErr("CREATE", "XGROUP"));
    expect({"XGROUP", "CREATE", "s", "bad", "0", "NOSUCH"}, subcommandErr("CREATE", "XGROUP"));
    expect({"XGROUP", "CREATE", "s", "bad", "0", "MKSTREAM", "MKSTREAM", "MKSTREAM", "MKSTREAM"},
           subcommandErr("CREATE", "XGROUP")); /* more than 8 arguments */
    expect({"XGROUP", "CREATE", "s", "g"}, arityErr("xgroup|create"));
    /* Options are checked before the key: a bad option on a missing key. */
    expect({"XGROUP", "CREATE", "nokey", "g", "0", "NOSUCH"}, subcommandErr("CREATE", "XGROUP"));
    expect({"XGROUP", "CREATE", "nokey", "g", "bad-id", "MKSTREAM"}, INVALID_ID);
    expect({"EXISTS", "nokey"}, integer(0)); /* nothing created when the ID is bad */
    same({"SET", "str", "x"});
    expect({"XGROUP", "CREATE", "str", "g", "$", "MKSTREAM"}, WRONGTYPE);
    same({"XINFO", "GROUPS", "s"});
}

TEST_F(StreamGroups, XgroupSetid) {
    fill("s", 3);
    expect({"XGROUP", "SETID", "s", "g", "0"}, noGroupOfKey("g", "s"));
    expect({"XGROUP", "SETID", "nokey", "g", "0"}, NEEDS_KEY);
    same({"XGROUP", "CREATE", "s", "g", "0"});
    expect({"XGROUP", "SETID", "s", "g", "$"}, OK);
    same({"XINFO", "GROUPS", "s"});
    expect({"XGROUP", "SETID", "s", "g", "2-1", "ENTRIESREAD", "2"}, OK);
    same({"XINFO", "GROUPS", "s"});
    expect({"XGROUP", "SETID", "s", "g", "1"}, OK);
    same({"XINFO", "GROUPS", "s"}); /* entries-read unknown again */
    /* Not strict: "-" and "+" are the smallest and greatest IDs. */
    expect({"XGROUP", "SETID", "s", "g", "+"}, OK);
    same({"XINFO", "GROUPS", "s"});
    expect({"XGROUP", "SETID", "s", "g", "-"}, OK);
    same({"XINFO", "GROUPS", "s"});
    expect({"XGROUP", "SETID", "s", "g", "x"}, INVALID_ID);
    expect({"XGROUP", "SETID", "s", "g", "0", "MKSTREAM"}, subcommandErr("SETID", "XGROUP"));
    expect({"XGROUP", "SETID", "s", "g", "0", "ENTRIESREAD"}, subcommandErr("SETID", "XGROUP"));
    expect({"XGROUP", "SETID", "s", "g", "0", "ENTRIESREAD", "-5"},
           err("ERR value for ENTRIESREAD must be positive or -1"));
    expect({"XGROUP", "SETID", "s", "g", "0", "ENTRIESREAD", "1", "ENTRIESREAD", "2"},
           subcommandErr("SETID", "XGROUP")); /* parsed, but SETID takes 5 or 7 arguments */
}

TEST_F(StreamGroups, XgroupDestroyConsumersAndHelp) {
    fill("s", 3);
    expect({"XGROUP", "DESTROY", "nokey", "g"}, NEEDS_KEY);
    expect({"XGROUP", "DESTROY", "s", "g"}, integer(0));
    same({"XGROUP", "CREATE", "s", "g", "0"});
    expect({"XGROUP", "CREATECONSUMER", "s", "nogroup", "alice"}, noGroupOfKey("nogroup", "s"));
    expect({"XGROUP", "CREATECONSUMER", "s", "g", "alice"}, integer(1));
    expect({"XGROUP", "CREATECONSUMER", "s", "g", "alice"}, integer(0));
    expect({"XGROUP", "CREATECONSUMER", "s", "g", "bob"}, integer(1));
    same({"XINFO", "CONSUMERS", "s", "g"}, kIdle);
    /* DELCONSUMER answers how many entries the consumer still held, and
     * they leave the group's PEL with it. */
    same({"XCLAIM", "s", "g", "alice", "0", "1-1", "2-1", "FORCE", "JUSTID"});
    same({"XCLAIM", "s", "g", "bob", "0", "3-1", "FORCE", "JUSTID"});
    expect({"XGROUP", "DELCONSUMER", "s", "g", "alice"}, integer(2));
    expect({"XGROUP", "DELCONSUMER", "s", "g", "alice"}, integer(0));
    expect({"XGROUP", "DELCONSUMER", "s", "nogroup", "alice"}, noGroupOfKey("nogroup", "s"));
    same({"XPENDING", "s", "g"});
    same({"XINFO", "CONSUMERS", "s", "g"}, kIdle);
    expect({"XGROUP", "DESTROY", "s", "g"}, integer(1));
    expect({"XGROUP", "DESTROY", "s", "g"}, integer(0));
    same({"XINFO", "GROUPS", "s"});
    same({"XGROUP", "HELP"});
    same({"xgroup", "help"});
    same({"XGROUP", "HELP", "x"});
    same({"XGROUP", "NOSUCH", "s", "g"});
    same({"XGROUP", "DESTROY", "s"});
    same({"XGROUP", "CREATECONSUMER", "s", "g"});
}

/* A client blocked in XREADGROUP on a group that XGROUP DESTROY removes is
 * told so at once, whatever it waits for; one blocked on another group of
 * the key goes on waiting. */
TEST_F(StreamGroups, XgroupDestroyWakesItsXreadgroupWaiters) {
    same({"XGROUP", "CREATE", "s", "g", "$", "MKSTREAM"});
    same({"XGROUP", "CREATE", "s", "other", "$"});
    RespConn ours_waiter = conn(), ref_waiter = refConn(), ours_other = conn(), ref_other = refConn();
    for (auto [admin, waiter, other] : {std::tuple{&*ours, &ours_waiter, &ours_other},
                                        std::tuple{&*ref, &ref_waiter, &ref_other}}) {
        waiter->cmd({"XREADGROUP", "GROUP", "g", "alice", "BLOCK", "0", "STREAMS", "s", ">"});
        other->cmd({"XREADGROUP", "GROUP", "other", "bob", "BLOCK", "0", "STREAMS", "s", ">"});
        ASSERT_TRUE(pollUntil([&] { return infoNumber(*admin, "clients", "blocked_clients") == 2; }));
    }
    expect({"XGROUP", "DESTROY", "s", "g"}, integer(1));
    const std::string gone = err("NOGROUP the consumer group this client was blocked on no longer exists");
    EXPECT_EQ(ours_waiter.readReply().raw, gone);
    EXPECT_EQ(ref_waiter.readReply().raw, gone);
    for (RespConn *admin : {&*ours, &*ref})
        EXPECT_EQ(infoNumber(*admin, "clients", "blocked_clients"), 1);
    same({"XADD", "s", "1-1", "f", "v"});
    EXPECT_EQ(escape(ours_other.readReply().raw), escape(ref_other.readReply().raw));
}

/* WATCH sees what Redis's group commands signal as a change of the key:
 * only XGROUP CREATE ... MKSTREAM making the stream. */
TEST_F(StreamGroups, WatchSeesWhatRedisSignals) {
    fill("s", 2);
    same({"XGROUP", "CREATE", "s", "g", "0"});
    same({"XREADGROUP", "GROUP", "g", "alice", "COUNT", "1", "STREAMS", "s", ">"});
    RespConn ours_other = conn(), ref_other = refConn();
    const std::vector<Args> writes{
        {"XGROUP", "CREATE", "s", "g2", "0"},
        {"XGROUP", "SETID", "s", "g2", "$"},
        {"XGROUP", "CREATECONSUMER", "s", "g", "bob"},
        {"XCLAIM", "s", "g", "bob", "0", "1-1"},
        {"XAUTOCLAIM", "s", "g", "carol", "0", "0"},
        {"XACK", "s", "g", "1-1"},
        {"XGROUP", "DELCONSUMER", "s", "g", "bob"},
        {"XGROUP", "DESTROY", "s", "g2"},
        {"XGROUP", "CREATE", "fresh", "g", "$", "MKSTREAM"},
    };
    for (const Args &write : writes) {
        const std::string &key = write[0] == "XGROUP" ? write[2] : write[1];
        for (auto [c, other] : {std::pair{&*ours, &ours_other}, std::pair{&*ref, &ref_other}}) {
            ASSERT_EQ(c->call({"WATCH", key}).raw, OK);
            ASSERT_EQ(c->call({"MULTI"}).raw, OK);
            ASSERT_EQ(c->call({"PING"}).raw, QUEUED);
            other->call(write);
        }
        same({"EXEC"});
    }
}

/* ========================================================================
 * The PEL: XACK and XPENDING
 * ====================================================================== */

TEST_F(StreamGroups, XackRemovesFromBothPelsAllOrNothing) {
    fill("s", 5);
    same({"XGROUP", "CREATE", "s", "g", "0"});
    expect({"XACK", "nokey", "g", "1-1"}, integer(0));
    expect({"XACK", "s", "nogroup", "1-1"}, integer(0));
    expect({"XACK", "s", "nogroup", "bad-id"}, integer(0)); /* no group: the IDs are not even read */
    same({"XREADGROUP", "GROUP", "g", "alice", "COUNT", "3", "STREAMS", "s", ">"});
    same({"XREADGROUP", "GROUP", "g", "bob", "STREAMS", "s", ">"});
    same({"XPENDING", "s", "g"});
    /* One bad ID and nothing is acknowledged. */
    expect({"XACK", "s", "g", "1-1", "-"}, INVALID_ID);
    expect({"XACK", "s", "g", "1-1", "2-x"}, INVALID_ID);
    same({"XPENDING", "s", "g"});
    expect({"XACK", "s", "g", "1-1", "1-1", "4-1", "9-9", "2"}, integer(2)); /* "2" is 2-0, not pending */
    same({"XPENDING", "s", "g"});
    same({"XPENDING", "s", "g", "-", "+", "10"}, kPendingIdle);
    same({"XPENDING", "s", "g", "-", "+", "10", "alice"}, kPendingIdle);
    same({"XPENDING", "s", "g", "-", "+", "10", "bob"}, kPendingIdle);
    expect({"XACK", "s", "g", "2-1", "3-1", "5-1"}, integer(3));
    same({"XPENDING", "s", "g"});
    same({"XINFO", "CONSUMERS", "s", "g"}, kIdle);
    same({"SET", "str", "x"});
    expect({"XACK", "str", "g", "1-1"}, WRONGTYPE);
    expect({"XACK", "s", "g"}, arityErr("xack"));
}

TEST_F(StreamGroups, XpendingSummaryAndExtendedForms) {
    fill("s", 6);
    same({"XGROUP", "CREATE", "s", "g", "0"});
    same({"XPENDING", "s", "g"}); /* empty: 0, nil, nil, nil array */
    same({"XPENDING", "s", "g", "-", "+", "10"});
    same({"XREADGROUP", "GROUP", "g", "bob", "COUNT", "2", "STREAMS", "s", ">"});
    same({"XREADGROUP", "GROUP", "g", "alice", "COUNT", "3", "STREAMS", "s", ">"});
    same({"XGROUP", "CREATECONSUMER", "s", "g", "carol"}); /* holds nothing: not in the summary */
    same({"XPENDING", "s", "g"});
    for (const Args &range : std::vector<Args>{{"-", "+", "10"},
                                               {"-", "+", "2"},
                                               {"-", "+", "0"},
                                               {"-", "+", "-3"},
                                               {"2", "4", "10"},
                                               {"2-1", "4-1", "10"},
                                               {"(2-1", "(4-1", "10"},
                                               {"(1-1", "+", "1"},
                                               {"3-1", "2-1", "10"},
                                               {"-", "+", "10", "alice"},
                                               {"-", "+", "10", "nobody"},
                                               {"-", "+", "10", "carol"},
                                               {"IDLE", "0", "-", "+", "10"},
                                               {"IDLE", "3600000", "-", "+", "10"},
                                               {"IDLE", "-5", "-", "+", "10", "bob"},
                                               {"idle", "0", "(1-1", "5", "2", "alice"},
                                               {"-", "+", "10", "alice", "ignored"}}) {
        Args cmd{"XPENDING", "s", "g"};
        cmd.insert(cmd.end(), range.begin(), range.end());
        same(cmd, kPendingIdle);
    }
    /* The errors, the range's before the key's. */
    expect({"XPENDING", "s", "g", "-"}, SYNTAX);
    expect({"XPENDING", "s", "g", "-", "+"}, SYNTAX);
    expect({"XPENDING", "s", "g", "IDLE", "10", "-", "+"}, SYNTAX);
    expect({"XPENDING", "s", "g", "IDLE", "x", "-", "+", "10"}, NOT_INT);
    expect({"XPENDING", "s", "g", "-", "+", "x"}, NOT_INT);
    expect({"XPENDING", "s", "g", "x", "+", "10"}, INVALID_ID);
    expect({"XPENDING", "s", "g", "-", "(+", "10"}, INVALID_ID);
    expect({"XPENDING", "s", "g", "(18446744073709551615-18446744073709551615", "+", "10"},
           err("ERR invalid start ID for the interval"));
    expect({"XPENDING", "s", "g", "-", "(0-0", "10"}, err("ERR invalid end ID for the interval"));
    expect({"XPENDING", "s", "g", "-", "+", "10", "a", "b", "c", "d"}, SYNTAX);
    expect({"XPENDING", "nokey", "g"}, noKeyOrGroup("nokey", "g"));
    expect({"XPENDING", "s", "nogroup", "-", "+", "10"}, noKeyOrGroup("s", "nogroup"));
    expect({"XPENDING", "nokey", "g", "x", "+", "10"}, INVALID_ID);
    same({"SET", "str", "x"});
    expect({"XPENDING", "str", "g"}, WRONGTYPE);
}

/* XPENDING's idle column and IDLE filter against the delivery times that
 * XCLAIM's IDLE option sets. */
TEST_F(StreamGroups, XpendingIdleTimesFollowDeliveries) {
    fill("s", 3);
    same({"XGROUP", "CREATE", "s", "g", "0"});
    same({"XCLAIM", "s", "g", "alice", "0", "1-1", "FORCE", "JUSTID", "IDLE", "500000"});
    same({"XCLAIM", "s", "g", "alice", "0", "2-1", "FORCE", "JUSTID", "IDLE", "100000"});
    same({"XCLAIM", "s", "g", "alice", "0", "3-1", "FORCE", "JUSTID"});
    Reply all = same({"XPENDING", "s", "g", "-", "+", "10"}, kPendingIdle);
    ASSERT_EQ(all.elements.size(), 3u);
    const long long idle[] = {500000, 100000, 0};
    for (size_t i = 0; i < 3; i++) {
        EXPECT_GE(all.elements[i].elements[2].integer, idle[i]);
        EXPECT_LT(all.elements[i].elements[2].integer, idle[i] + 5000);
    }
    Reply idle_ones = same({"XPENDING", "s", "g", "IDLE", "50000", "-", "+", "10"}, kPendingIdle);
    EXPECT_EQ(idle_ones.elements.size(), 2u);
    idle_ones = same({"XPENDING", "s", "g", "IDLE", "200000", "-", "+", "10"}, kPendingIdle);
    EXPECT_EQ(idle_ones.elements.size(), 1u);
}

/* ========================================================================
 * XCLAIM
 * ====================================================================== */

TEST_F(StreamGroups, XclaimMovesEntriesBetweenConsumers) {
    fill("s", 4);
    same({"XGROUP", "CREATE", "s", "g", "0"});
    same({"XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", ">"});
    /* Idle for less than min-idle-time: left where it is. */
    expect({"XCLAIM", "s", "g", "bob", "3600000", "1-1"}, EMPTY_ARRAY);
    same({"XCLAIM", "s", "g", "bob", "0", "1-1", "2-1"});      /* the entries, deliveries + 1 */
    same({"XCLAIM", "s", "g", "bob", "0", "3-1", "JUSTID"});   /* IDs alone, deliveries as they were */
    same({"XCLAIM", "s", "g", "bob", "-10", "4-1", "9-9", "RETRYCOUNT", "7"}); /* 9-9 is not pending */
    same({"XPENDING", "s", "g", "-", "+", "10"}, kPendingIdle);
    same({"XPENDING", "s", "g"});
    same({"XINFO", "CONSUMERS", "s", "g"}, kIdle);
    /* The claimer is created if new. */
    same({"XCLAIM", "s", "g", "carol", "0", "1-1", "TIME", std::to_string(kPast)});
    same({"XINFO", "STREAM", "s", "FULL"}, kTimes | kIdle);
    same({"XCLAIM", "s", "g", "bob", "0", "1-1", "1-1", "JUSTID"}); /* an ID twice */
}

TEST_F(StreamGroups, XclaimOptions) {
    fill("s", 4);
    same({"XGROUP", "CREATE", "s", "g", "0"});
    /* FORCE: an entry of the stream not pending becomes pending; an ID
     * that is not in the stream stays out. */
    same({"XCLAIM", "s", "g", "alice", "0", "1-1", "2-1", "7-7", "FORCE", "TIME", std::to_string(kPast)});
    same({"XCLAIM", "s", "g", "alice", "0", "3-1", "FORCE", "JUSTID", "TIME", std::to_string(kPast + 1)});
    same({"XPENDING", "s", "g", "-", "+", "10"}, kPendingIdle);
    same({"XINFO", "STREAM", "s", "FULL"}, kIdle | kTimes);
    Reply full = ours->call({"XINFO", "STREAM", "s", "FULL"});
    EXPECT_NE(full.raw.find(":" + std::to_string(kPast) + "\r\n"), std::string::npos)
        << "TIME is the delivery time as given: " << full;
    /* A TIME in the future or before the epoch is taken as now. */
    same({"XCLAIM", "s", "g", "alice", "0", "1-1", "JUSTID", "TIME", "99999999999999"});
    same({"XCLAIM", "s", "g", "alice", "0", "2-1", "JUSTID", "TIME", "-1"});
    same({"XPENDING", "s", "g", "IDLE", "1000000", "-", "+", "10"}, kPendingIdle); /* only 3-1 is old */
    /* RETRYCOUNT sets the count, JUSTID alone keeps it, otherwise +1. */
    same({"XCLAIM", "s", "g", "bob", "0", "1-1", "RETRYCOUNT", "42", "JUSTID"});
    same({"XCLAIM", "s", "g", "bob", "0", "2-1", "retrycount", "0"});
    same({"XCLAIM", "s", "g", "bob", "0", "3-1"});
    same({"XPENDING", "s", "g", "-", "+", "10"}, kPendingIdle);
    /* LASTID moves the group's last delivered ID forward, never back. */
    same({"XCLAIM", "s", "g", "bob", "0", "1-1", "LASTID", "3-1", "JUSTID"});
    same({"XINFO", "GROUPS", "s"});
    same({"XCLAIM", "s", "g", "bob", "0", "9-9", "LASTID", "1-1"});
    same({"XINFO", "GROUPS", "s"});
    same({"XCLAIM", "s", "g", "bob", "0", "9-9", "LASTID", "4-1"}); /* nothing claimed, the ID moves */
    same({"XINFO", "GROUPS", "s"});
    /* The errors. */
    expect({"XCLAIM", "nokey", "g", "bob", "0", "1-1"}, noKeyOrGroup("nokey", "g"));
    expect({"XCLAIM", "s", "nogroup", "bob", "x", "1-1"}, noKeyOrGroup("s", "nogroup"));
    expect({"XCLAIM", "s", "g", "bob", "x", "1-1"}, err("ERR Invalid min-idle-time argument for XCLAIM"));
    expect({"XCLAIM", "s", "g", "bob", "0", "1-1", "IDLE", "x"}, err("ERR Invalid IDLE option argument for XCLAIM"));
    expect({"XCLAIM", "s", "g", "bob", "0", "1-1", "TIME", "x"}, err("ERR Invalid TIME option argument for XCLAIM"));
    expect({"XCLAIM", "s", "g", "bob", "0", "1-1", "RETRYCOUNT", "x"},
           err("ERR Invalid RETRYCOUNT option argument for XCLAIM"));
    expect({"XCLAIM", "s", "g", "bob", "0", "1-1", "LASTID", "+"}, INVALID_ID);
    expect({"XCLAIM", "s", "g", "bob", "0", "1-1", "NOSUCH"}, err("ERR Unrecognized XCLAIM option 'NOSUCH'"));
    expect({"XCLAIM", "s", "g", "bob", "0", "1-1", "IDLE"}, err("ERR Unrecognized XCLAIM option 'IDLE'"));
    expect({"XCLAIM", "s", "g", "bob", "0", "+"}, err("ERR Unrecognized XCLAIM option '+'"));
    /* An ID after the options is an unknown option. */
    expect({"XCLAIM", "s", "g", "bob", "0", "1-1", "JUSTID", "2-1"}, err("ERR Unrecognized XCLAIM option '2-1'"));
    expect({"XCLAIM", "s", "g", "bob", "0"}, arityErr("xclaim"));
    same({"XPENDING", "s", "g", "-", "+", "10"}, kPendingIdle); /* none of the errors changed a thing */
    same({"SET", "str", "x"});
    expect({"XCLAIM", "str", "g", "bob", "0", "1-1"}, WRONGTYPE);
}

/* Entries deleted from the stream leave the PEL when XCLAIM meets them,
 * and are not in its reply (Redis 7.0). */
TEST_F(StreamGroups, XclaimDropsDeletedEntries) {
    fill("s", 4);
    same({"XGROUP", "CREATE", "s", "g", "0"});
    same({"XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", ">"});
    same({"XDEL", "s", "2-1", "3-1"});
    same({"XPENDING", "s", "g"});
    same({"XCLAIM", "s", "g", "bob", "0", "1-1", "2-1", "3-1", "4-1"});
    same({"XPENDING", "s", "g"});
    same({"XPENDING", "s", "g", "-", "+", "10"}, kPendingIdle);
    /* FORCE does not bring a deleted entry back either. */
    same({"XCLAIM", "s", "g", "bob", "0", "2-1", "FORCE"});
    same({"XPENDING", "s", "g"});
}

/* ========================================================================
 * XAUTOCLAIM
 * ====================================================================== */

TEST_F(StreamGroups, XautoclaimWalksThePelWithACursor) {
    fill("s", 7);
    same({"XGROUP", "CREATE", "s", "g", "0"});
    same({"XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", ">"});
    same({"XAUTOCLAIM", "s", "g", "bob", "0", "0", "COUNT", "3"}); /* cursor 4-1 */
    same({"XAUTOCLAIM", "s", "g", "bob", "0", "4-1", "COUNT", "3", "JUSTID"}); /* cursor 7-1 */
    same({"XAUTOCLAIM", "s", "g", "bob", "0", "7-1", "COUNT", "3"});  /* the end: cursor 0-0 */
    same({"XAUTOCLAIM", "s", "g", "carol", "0", "(5-1"});             /* exclusive start */
    same({"XAUTOCLAIM", "s", "g", "carol", "0", "-", "count", "2", "justid"});
    same({"XPENDING", "s", "g", "-", "+", "10"}, kPendingIdle);
    same({"XINFO", "CONSUMERS", "s", "g"}, kIdle);
    /* Too fresh to claim. */
    same({"XAUTOCLAIM", "s", "g", "dave", "3600000", "0"});
    same({"XINFO", "CONSUMERS", "s", "g"}, kIdle); /* dave was not created */
}

/* Deleted entries are dropped from the PEL, named in the third element, and
 * count against COUNT. */
TEST_F(StreamGroups, XautoclaimReportsDeletedEntries) {
    fill("s", 6);
    same({"XGROUP", "CREATE", "s", "g", "0"});
    same({"XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", ">"});
    same({"XDEL", "s", "1-1", "3-1", "4-1"});
    same({"XAUTOCLAIM", "s", "g", "bob", "0", "0", "COUNT", "3"});
    same({"XAUTOCLAIM", "s", "g", "bob", "0", "0"});
    same({"XPENDING", "s", "g"});
    same({"XPENDING", "s", "g", "-", "+", "10"}, kPendingIdle);
}

/* At most 10 * COUNT entries are looked at, claimed or not. */
TEST_F(StreamGroups, XautoclaimGivesUpAfterTenTimesCount) {
    fill("s", 30);
    same({"XGROUP", "CREATE", "s", "g", "0"});
    same({"XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", ">"});
    Reply r = same({"XAUTOCLAIM", "s", "g", "bob", "3600000", "0", "COUNT", "1"});
    EXPECT_EQ(r.raw, array({bulk("11-1"), EMPTY_ARRAY, EMPTY_ARRAY}));
    same({"XAUTOCLAIM", "s", "g", "bob", "3600000", "11-1", "COUNT", "2"});
    same({"XAUTOCLAIM", "s", "g", "bob", "3600000", "0"});
}

TEST_F(StreamGroups, XautoclaimErrors) {
    fill("s", 2);
    same({"XGROUP", "CREATE", "s", "g", "0"});
    expect({"XAUTOCLAIM", "s", "g", "bob", "x", "0"}, err("ERR Invalid min-idle-time argument for XAUTOCLAIM"));
    expect({"XAUTOCLAIM", "s", "g", "bob", "0", "x"}, INVALID_ID);
    expect({"XAUTOCLAIM", "s", "g", "bob", "0", "(+"}, INVALID_ID);
    expect({"XAUTOCLAIM", "s", "g", "bob", "0", "(18446744073709551615-18446744073709551615"},
           err("ERR invalid start ID for the interval"));
    for (const char *count : {"0", "-1", "x", "576460752303423488"})
        expect({"XAUTOCLAIM", "s", "g", "bob", "0", "0", "COUNT", count}, err("ERR COUNT must be > 0"));
    expect({"XAUTOCLAIM", "s", "g", "bob", "0", "0", "COUNT"}, SYNTAX);
    expect({"XAUTOCLAIM", "s", "g", "bob", "0", "0", "NOSUCH"}, SYNTAX);
    /* The options are checked before the key. */
    expect({"XAUTOCLAIM", "nokey", "g", "bob", "0", "0", "NOSUCH"}, SYNTAX);
    expect({"XAUTOCLAIM", "nokey", "g", "bob", "0", "0"}, noKeyOrGroup("nokey", "g"));
    expect({"XAUTOCLAIM", "s", "nogroup", "bob", "0", "0"}, noKeyOrGroup("s", "nogroup"));
    expect({"XAUTOCLAIM", "s", "g", "bob", "0"}, arityErr("xautoclaim"));
    same({"SET", "str", "x"});
    expect({"XAUTOCLAIM", "str", "g", "bob", "0", "0"}, WRONGTYPE);
}

/* The largest COUNT accepted cannot be allocated for: Redis's error, from
 * a server whose allocator may say no (ASan's aborts by default). */
TEST(StreamGroupsAlone, XautoclaimCountTooHighForMemory) {
    REQUIRE_REDIS_REFERENCE();
    const Args cmd{"XAUTOCLAIM", "s", "g", "bob", "0", "0", "COUNT", "576460752303423487"};
    const std::string expected =
        err("ERR Insufficient memory, failed allocating transient memory, COUNT too high.");
    const char *asan = std::getenv("ASAN_OPTIONS");
    TestServer ours(ServerOptions{
        .args = {"--save", ""},
        .env = {"ASAN_OPTIONS=" + std::string(asan ? asan : "") + ":allocator_may_return_null=1"}});
    RedisReference ref;
    for (TestServer *srv : {static_cast<TestServer *>(&ours), static_cast<TestServer *>(&ref)}) {
        RespConn c = srv->connect();
        ASSERT_EQ(c.call({"XGROUP", "CREATE", "s", "g", "$", "MKSTREAM"}).raw, OK);
        EXPECT_EQ(c.call(cmd).raw, expected) << (srv == &ours ? "cppredis" : "redis");
        EXPECT_EQ(c.call({"PING"}).raw, "+PONG\r\n");
    }
}

/* ========================================================================
 * XINFO
 * ====================================================================== */

TEST_F(StreamGroups, XinfoStreamPlainAndFull) {
    same({"XGROUP", "CREATE", "s", "g0", "$", "MKSTREAM"});
    same({"XINFO", "STREAM", "s"}); /* empty: no first or last entry */
    same({"XINFO", "STREAM", "s", "FULL"});
    fill("s", 15);
    same({"XADD", "s", "16-1", "other", "fields", "a", "b"});
    same({"XINFO", "STREAM", "s"});
    same({"XGROUP", "CREATE", "s", "g1", "0"});
    same({"XREADGROUP", "GROUP", "g1", "alice", "COUNT", "12", "STREAMS", "s", ">"});
    same({"XREADGROUP", "GROUP", "g1", "bob", "COUNT", "2", "STREAMS", "s", ">"});
    same({"XCLAIM", "s", "g1", "bob", "0", "1-1", "2-1", "JUSTID", "TIME", std::to_string(kPast)});
    same({"XGROUP", "CREATECONSUMER", "s", "g1", "carol"});
    same({"XDEL", "s", "16-1"});
    same({"XINFO", "STREAM", "s"});
    for (const Args &opts : std::vector<Args>{{"FULL"},
                                              {"full", "count", "0"},
                                              {"FULL", "COUNT", "3"},
                                              {"FULL", "COUNT", "-1"},
                                              {"FULL", "COUNT", "100"}}) {
        Args cmd{"XINFO", "STREAM", "s"};
        cmd.insert(cmd.end(), opts.begin(), opts.end());
        same(cmd, kTimes);
    }
    expect({"XINFO", "STREAM", "s", "FULL", "COUNT", "x"}, NOT_INT);
    expect({"XINFO", "STREAM", "s", "FULL", "COUNT"}, subcommandErr("STREAM", "XINFO"));
    expect({"XINFO", "STREAM", "s", "PARTIAL"}, subcommandErr("STREAM", "XINFO"));
    expect({"XINFO", "STREAM", "s", "FULL", "LIMIT", "1"}, subcommandErr("STREAM", "XINFO"));
    expect({"XINFO", "STREAM", "nokey"}, NO_KEY);
    same({"SET", "str", "x"});
    expect({"XINFO", "STREAM", "str"}, WRONGTYPE);
}

/* entries-read and lag as Redis 7.0 counts them: exact while nothing was
 * deleted ahead of the group, unknown (nil) when a deletion makes them so. */
TEST_F(StreamGroups, XinfoGroupsEntriesReadAndLag) {
    same({"XGROUP", "CREATE", "s", "g", "$", "MKSTREAM"});
    same({"XINFO", "GROUPS", "s"});
    fill("s", 5);
    same({"XGROUP", "CREATE", "s", "late", "$"});
    same({"XGROUP", "CREATE", "s", "mid", "3-1"});
    same({"XINFO", "GROUPS", "s"});
    same({"XREADGROUP", "GROUP", "g", "alice", "COUNT", "2", "STREAMS", "s", ">"});
    same({"XINFO", "GROUPS", "s"});
    same({"XDEL", "s", "4-1"});
    same({"XINFO", "GROUPS", "s"});
    same({"XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", ">"});
    same({"XINFO", "GROUPS", "s"});
    same({"XADD", "s", "6-1", "f", "v"});
    same({"XDEL", "s", "1-1"});
    same({"XGROUP", "SETID", "s", "mid", "0", "ENTRIESREAD", "0"});
    same({"XINFO", "GROUPS", "s"});
    same({"XTRIM", "s", "MAXLEN", "0"});
    same({"XINFO", "GROUPS", "s"});
    expect({"XINFO", "GROUPS", "nokey"}, NO_KEY);
    same({"XINFO", "GROUPS", "s", "extra"});
}

TEST_F(StreamGroups, XinfoConsumersAndHelp) {
    fill("s", 3);
    same({"XGROUP", "CREATE", "s", "g", "0"});
    same({"XINFO", "CONSUMERS", "s", "g"});
    same({"XREADGROUP", "GROUP", "g", "bob", "COUNT", "2", "STREAMS", "s", ">"});
    same({"XGROUP", "CREATECONSUMER", "s", "g", "alice"});
    Reply r = same({"XINFO", "CONSUMERS", "s", "g"}, kIdle);
    ASSERT_EQ(r.elements.size(), 2u);
    for (const Reply &consumer : r.elements) {
        ASSERT_EQ(consumer.elements.size(), 6u);
        EXPECT_GE(consumer.elements[5].integer, 0);
        EXPECT_LT(consumer.elements[5].integer, 10000);
    }
    expect({"XINFO", "CONSUMERS", "s", "nogroup"}, noGroupOfKey("nogroup", "s"));
    expect({"XINFO", "CONSUMERS", "nokey", "g"}, NO_KEY);
    same({"XINFO", "HELP"});
    same({"xinfo", "help"});
    same({"XINFO", "HELP", "extra"});
    same({"XINFO", "NOSUCH", "s"});
    same({"XINFO", "CONSUMERS", "s"});
    same({"XINFO", "CONSUMERS", "s", "g", "extra"});
}

/* ========================================================================
 * Keyspace events
 * ====================================================================== */

/* The events each group command publishes: what Redis publishes, in its
 * order (a subscriber on both servers, a marker after each command). */
TEST_F(StreamGroups, KeyspaceEvents) {
    std::vector<RespConn> subs;
    for (RespConn *c : {&*ours, &*ref}) {
        ASSERT_EQ(c->call({"CONFIG", "SET", "notify-keyspace-events", "KEA"}).raw, OK);
        subs.push_back(c == &*ours ? conn() : refConn());
        subs.back().call({"PSUBSCRIBE", "__key*__:*"});
        subs.back().call({"SUBSCRIBE", "marker"});
    }
    auto eventsOf = [&](RespConn &pub, RespConn &sub) {
        EXPECT_EQ(pub.call({"PUBLISH", "marker", "m"}).raw, integer(1));
        std::vector<std::string> out;
        for (Reply r = sub.readReply(); r.elements.size() == 4; r = sub.readReply())
            out.push_back(r.elements[2].str + " " + r.elements[3].str);
        return out;
    };
    const std::vector<Args> steps{
        {"XGROUP", "CREATE", "s", "g", "$", "MKSTREAM"},
        {"XGROUP", "CREATE", "s", "g", "$"}, /* BUSYGROUP: nothing */
        {"XADD", "s", "1-1", "f", "v"},
        {"XADD", "s", "2-1", "f", "v"},
        {"XGROUP", "SETID", "s", "g", "0"},
        {"XGROUP", "CREATECONSUMER", "s", "g", "alice"},
        {"XGROUP", "CREATECONSUMER", "s", "g", "alice"},
        {"XREADGROUP", "GROUP", "g", "alice", "STREAMS", "s", ">"},
        {"XACK", "s", "g", "1-1"},
        {"XCLAIM", "s", "g", "bob", "0", "2-1"}, /* creates bob */
        {"XCLAIM", "s", "g", "bob", "0", "2-1"},
        {"XAUTOCLAIM", "s", "g", "carol", "0", "0"},
        {"XPENDING", "s", "g"},
        {"XGROUP", "DELCONSUMER", "s", "g", "alice"},
        {"XGROUP", "DELCONSUMER", "s", "g", "nobody"},
        {"XGROUP", "DESTROY", "s", "g"},
        {"XGROUP", "DESTROY", "s", "g"},
    };
    for (const Args &step : steps) {
        same(step);
        EXPECT_EQ(eventsOf(*ours, subs[0]), eventsOf(*ref, subs[1])) << describe(step);
    }
    for (RespConn *c : {&*ours, &*ref})
        ASSERT_EQ(c->call({"CONFIG", "SET", "notify-keyspace-events", ""}).raw, OK);
}

/* ========================================================================
 * Propagation: the AOF each command leaves
 * ====================================================================== */

/* Explicit IDs and TIME (12 digits) make everything exact but XAUTOCLAIM's
 * and IDLE's delivery times, unix ms of now, which maskUnixMs masks. */
const std::vector<Args> kPropagationScript{
    {"XGROUP", "CREATE", "s", "g", "$", "MKSTREAM", "ENTRIESREAD", "0"},
    {"XADD", "s", "1-1", "f", "v1"},
    {"XADD", "s", "2-1", "f", "v2"},
    {"XADD", "s", "3-1", "f", "v3"},
    {"XADD", "s", "4-1", "f", "v4"},
    {"XGROUP", "CREATECONSUMER", "s", "g", "alice"},
    {"XGROUP", "CREATECONSUMER", "s", "g", "alice"}, /* no change: not propagated */
    {"XCLAIM", "s", "g", "alice", "0", "1", "2-1", "3-1", "FORCE", "TIME", "999999999000"},
    {"XCLAIM", "s", "g", "bob", "0", "1-1", "RETRYCOUNT", "5", "IDLE", "10", "JUSTID", "LASTID", "2-1"},
    {"XCLAIM", "s", "g", "bob", "0", "9-9", "LASTID", "3-1"}, /* nothing claimed: XGROUP SETID */
    {"XCLAIM", "s", "g", "bob", "0", "9-9", "LASTID", "1-1"}, /* nothing at all */
    {"XDEL", "s", "2-1"},
    {"XCLAIM", "s", "g", "bob", "0", "2-1", "3-1", "TIME", "999999999001"}, /* 2-1 dropped */
    {"XAUTOCLAIM", "s", "g", "carol", "0", "0", "COUNT", "1"},
    {"XACK", "s", "g", "3-1", "4-1"},
    {"XACK", "s", "g", "4-1"},
    {"XGROUP", "SETID", "s", "g", "$", "ENTRIESREAD", "4"},
    {"XGROUP", "DELCONSUMER", "s", "g", "alice"},
    {"XGROUP", "DELCONSUMER", "s", "g", "alice"},
    {"XGROUP", "CREATE", "s", "h", "0"},
    {"XCLAIM", "s", "h", "dave", "0", "1-1", "3-1", "FORCE", "TIME", "999999999002"},
    {"XDEL", "s", "1-1"},
    {"XAUTOCLAIM", "s", "h", "erin", "0", "0"}, /* 1-1 dropped, 3-1 claimed */
    {"XGROUP", "DESTROY", "s", "g"},
    {"XGROUP", "DESTROY", "s", "g"},
};

TEST(StreamGroupsAof, SameBytesAsRedis7AndReplayed) {
    REQUIRE_REDIS_REFERENCE();
    TempDir ours_dir, theirs_dir;
    std::string ours_aof, theirs_aof, before;
    {
        TestServer srv({"--dir", ours_dir.path(), "--appendonly", "yes", "--appendfsync", "always", "--save", ""});
        RespConn c = srv.connect();
        for (const Args &cmd : kPropagationScript) c.call(cmd);
        before = c.call({"XINFO", "STREAM", "s", "FULL"}).raw;
        ours_aof = readFile(ours_dir.file("appendonlydir/appendonly.aof.1.incr.aof"));
    }
    {
        RedisReference ref({"--appendonly", "yes", "--appendfsync", "always", "--aof-use-rdb-preamble", "no", "--dir",
                            theirs_dir.path()});
        RespConn c = ref.connect();
        for (const Args &cmd : kPropagationScript) c.call(cmd);
        theirs_aof = readFile(theirs_dir.file("appendonlydir/appendonly.aof.1.incr.aof"));
    }
    ASSERT_FALSE(theirs_aof.empty());
    EXPECT_EQ(escape(maskUnixMs(ours_aof), 1 << 20), escape(maskUnixMs(theirs_aof), 1 << 20));

    /* Replayed, the file gives back the groups, their PELs and delivery
     * times, and the consumers (whose seen-time is the replay's). */
    TestServer srv({"--dir", ours_dir.path(), "--appendonly", "yes", "--save", ""});
    RespConn c = srv.connect();
    Reply now = c.call({"XINFO", "STREAM", "s", "FULL"});
    EXPECT_EQ(escape(maskUnixMs(now.raw)), escape(maskUnixMs(before)));
}

/* ========================================================================
 * The reliable queue
 * ====================================================================== */

/* Producers XADD, consumers XREADGROUP BLOCK and XACK each message after
 * its work; one consumer crashes holding messages, which the others take
 * over with XAUTOCLAIM once idle for a second. Every message is
 * acknowledged exactly once (XACK answers 1 once per ID: a message a slow
 * worker held past the second may be worked on twice, at least once is the
 * pattern's promise, but its second XACK answers 0), none is lost, and the
 * PEL ends empty. */
class StreamGroupsQueue : public ::testing::TestWithParam<ServerImpl> {};
INSTANTIATE_TEST_SUITE_P(Servers, StreamGroupsQueue, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

TEST_P(StreamGroupsQueue, NoMessageLostOrAcknowledgedTwice) {
    std::unique_ptr<TestServer> srv;
    if (GetParam() == ServerImpl::Redis) {
        REQUIRE_REDIS_REFERENCE();
        srv = std::make_unique<RedisReference>();
    } else {
        srv = std::make_unique<TestServer>(std::vector<std::string>{"--save", ""});
    }
    constexpr int kProducers = 3, kPerProducer = 300, kConsumers = 3, kCrashBatch = 25;
    constexpr int kTotal = kProducers * kPerProducer;
    RespConn admin = srv->connect();
    ASSERT_EQ(admin.call({"XGROUP", "CREATE", "q", "workers", "$", "MKSTREAM"}).raw, OK);

    /* The crashed consumer: takes a batch and disappears without acking. */
    std::set<std::string> produced_early;
    for (int i = 0; i < kCrashBatch; i++) {
        std::string job = "early-" + std::to_string(i);
        ASSERT_FALSE(admin.call({"XADD", "q", "*", "job", job}).isError());
        produced_early.insert(job);
    }
    {
        RespConn crasher = srv->connect();
        Reply r = crasher.call({"XREADGROUP", "GROUP", "workers", "crasher", "COUNT", "100", "STREAMS", "q", ">"});
        ASSERT_EQ(r.elements.size(), 1u);
        ASSERT_EQ(r.elements[0].elements[1].elements.size(), size_t{kCrashBatch});
    }

    std::mutex mu;
    std::map<std::string, int> acked_ids; /* stream ID -> XACKs that answered 1 */
    std::map<std::string, int> jobs_done; /* payload -> times acknowledged */
    std::atomic<int> acked{0}, failures{0};
    /* One entry [id, [field, value]] worked on: done once XACK says so. */
    auto work = [&](RespConn &c, const Reply &entry) {
        const std::string &id = entry.elements[0].str;
        if (entry.elements[1].type != Reply::Type::Array || entry.elements[1].elements.size() != 2) {
            failures++;
            return;
        }
        const std::string &job = entry.elements[1].elements[1].str;
        Reply ack = c.call({"XACK", "q", "workers", id});
        if (ack.integer != 1) return; /* taken over and acknowledged by another */
        std::lock_guard lock(mu);
        acked_ids[id]++;
        jobs_done[job]++;
        acked++;
    };

    std::vector<std::thread> threads;
    for (int p = 0; p < kProducers; p++)
        threads.emplace_back([&, p] {
            RespConn c = srv->connect();
            for (int i = 0; i < kPerProducer; i++)
                if (c.call({"XADD", "q", "*", "job", "p" + std::to_string(p) + "-" + std::to_string(i)}).isError())
                    failures++;
        });
    for (int k = 0; k < kConsumers; k++)
        threads.emplace_back([&, k] {
            RespConn c = srv->connect();
            const std::string name = "worker-" + std::to_string(k);
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
            while (acked < kTotal + kCrashBatch && failures == 0) {
                if (std::chrono::steady_clock::now() > deadline) {
                    failures++;
                    return;
                }
                /* Take over what has been idle a second (the crasher's), then read new work. */
                Reply claimed = c.call({"XAUTOCLAIM", "q", "workers", name, "1000", "0", "COUNT", "10"});
                if (claimed.elements.size() != 3) {
                    failures++;
                    return;
                }
                for (const Reply &entry : claimed.elements[1].elements) work(c, entry);
                Reply r = c.call({"XREADGROUP", "GROUP", "workers", name, "COUNT", "7", "BLOCK", "50", "STREAMS",
                                  "q", ">"});
                if (r.isNil()) continue;
                if (r.elements.size() != 1) {
                    failures++;
                    return;
                }
                for (const Reply &entry : r.elements[0].elements[1].elements) work(c, entry);
            }
        });
    for (std::thread &t : threads) t.join();

    ASSERT_EQ(failures.load(), 0);
    EXPECT_EQ(acked.load(), kTotal + kCrashBatch);
    EXPECT_EQ(acked_ids.size(), size_t{kTotal + kCrashBatch});
    for (const auto &[id, n] : acked_ids) EXPECT_EQ(n, 1) << id;
    for (const std::string &job : produced_early) EXPECT_EQ(jobs_done[job], 1) << job;
    for (int p = 0; p < kProducers; p++)
        for (int i = 0; i < kPerProducer; i++) {
            std::string job = "p" + std::to_string(p) + "-" + std::to_string(i);
            EXPECT_EQ(jobs_done[job], 1) << job;
        }
    EXPECT_EQ(admin.call({"XPENDING", "q", "workers"}).raw, array({integer(0), NIL, NIL, NIL_ARRAY}));
    EXPECT_EQ(admin.call({"XLEN", "q"}).raw, integer(kTotal + kCrashBatch));
}

}  // namespace
