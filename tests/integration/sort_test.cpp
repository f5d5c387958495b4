/* sort_test.cpp — integration tests of SORT and SORT_RO (sort.cpp): every
 * option on lists (ziplist and linkedlist), sets (intset and hashtable)
 * and sorted sets (ziplist, which SORT converts, and skiplist); BY nosort
 * and the native orders it keeps, LIMIT's clamping, BY and GET patterns
 * with hash fields, the errors, STORE (creating a list that wakes BLPOP
 * waiters, deleting the destination for an empty result, its event and
 * dirty count), the scripting rule for sets, COMMAND GETKEYS, and the ACL
 * rule on BY/GET patterns.
 *
 * Each scenario runs against cppredis and against Debian's Redis 7.0.15
 * (the Servers/ instantiations), so every expected byte is proven against
 * Redis by the same test. */
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/persistence_harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

class Sort : public EitherServerTest {
protected:
    /* RPUSH key with n decimal numbers, descending from n-1 (one command). */
    void pushDescending(const std::string &key, int n) {
        Args args{"RPUSH", key};
        for (int i = n - 1; i >= 0; i--) args.push_back(std::to_string(i));
        ASSERT_EQ(call(args), integer(n));
    }
    /* The numbers from..to as bulk strings, in that direction. */
    static std::vector<std::string> numbers(int from, int to) {
        std::vector<std::string> v;
        for (int i = from; from <= to ? i <= to : i >= to; from <= to ? i++ : i--) v.push_back(std::to_string(i));
        return v;
    }
    void waitBlocked(long long n) {
        long long now = -1;
        pollUntil([&] { return (now = infoNumber(*c, "clients", "blocked_clients")) == n; });
        ASSERT_EQ(now, n) << "blocked_clients never reached " << n;
    }
};

/* ========================================================================
 * Numeric and ALPHA sorts on each type and encoding
 * ====================================================================== */

TEST_P(Sort, NumericAndAlphaOnAList) {
    call({"RPUSH", "l", "3", "1", "2", "10", "-5", "2.5", "1e1"});
    if (cppredis()) {
        EXPECT_EQ(encoding("l"), "ziplist");
    }
    /* Equal numbers are ordered by their bytes, reversed too by DESC. */
    EXPECT_EQ(call({"SORT", "l"}), bulks({"-5", "1", "2", "2.5", "3", "10", "1e1"}));
    EXPECT_EQ(call({"SORT", "l", "DESC"}), bulks({"1e1", "10", "3", "2.5", "2", "1", "-5"}));
    EXPECT_EQ(call({"SORT", "l", "ASC"}), call({"SORT", "l"}));
    EXPECT_EQ(call({"SORT", "l", "ALPHA"}), bulks({"-5", "1", "10", "1e1", "2", "2.5", "3"}));
    EXPECT_EQ(call({"SORT", "l", "alpha", "desc"}), bulks({"3", "2.5", "2", "1e1", "10", "1", "-5"}));
    /* The last of ASC/DESC wins. */
    EXPECT_EQ(call({"SORT", "l", "DESC", "ASC", "LIMIT", "0", "2"}), bulks({"-5", "1"}));
}

TEST_P(Sort, NumericSortOfALinkedList) {
    pushDescending("big", 600);
    EXPECT_EQ(encoding("big"), cppredis() ? "linkedlist" : "quicklist");
    EXPECT_EQ(call({"SORT", "big"}), bulks(numbers(0, 599)));
    EXPECT_EQ(call({"SORT", "big", "DESC", "LIMIT", "10", "3"}), bulks({"589", "588", "587"}));
    EXPECT_EQ(call({"SORT", "big", "BY", "nosort", "LIMIT", "597", "5"}), bulks({"2", "1", "0"}));
    EXPECT_EQ(call({"SORT", "big", "BY", "nosort", "DESC", "LIMIT", "1", "2"}), bulks({"1", "2"}));
}

TEST_P(Sort, SetsOfBothEncodings) {
    call({"SADD", "i", "5", "-3", "9", "1"});
    EXPECT_EQ(encoding("i"), "intset");
    EXPECT_EQ(call({"SORT", "i"}), bulks({"-3", "1", "5", "9"}));
    EXPECT_EQ(call({"SORT", "i", "DESC", "ALPHA"}), bulks({"9", "5", "1", "-3"}));
    call({"SADD", "h", "b", "a", "c", "aa"});
    EXPECT_EQ(encoding("h"), "hashtable");
    EXPECT_EQ(call({"SORT", "h", "ALPHA"}), bulks({"a", "aa", "b", "c"}));
    EXPECT_EQ(call({"SORT", "h", "ALPHA", "LIMIT", "1", "2"}), bulks({"aa", "b"}));
    EXPECT_EQ(call({"SORT", "h"}), err("ERR One or more scores can't be converted into double"));
}

TEST_P(Sort, SortedSetsKeepTheirOrderUnderNosortAndBecomeSkiplists) {
    call({"ZADD", "z", "1", "c", "2", "b", "3", "a", "4", "d"});
    EXPECT_EQ(encoding("z"), "ziplist");
    EXPECT_EQ(call({"SORT", "z", "BY", "nosort"}), bulks({"c", "b", "a", "d"}));
    /* SORT converts a small sorted set for good, as Redis 7.0 does. */
    EXPECT_EQ(encoding("z"), "skiplist");
    EXPECT_EQ(call({"SORT", "z", "BY", "nosort", "DESC"}), bulks({"d", "a", "b", "c"}));
    EXPECT_EQ(call({"SORT", "z", "BY", "nosort", "LIMIT", "1", "2"}), bulks({"b", "a"}));
    EXPECT_EQ(call({"SORT", "z", "BY", "nosort", "DESC", "LIMIT", "1", "2"}), bulks({"a", "b"}));
    EXPECT_EQ(call({"SORT", "z", "BY", "nosort", "LIMIT", "3", "10"}), bulks({"d"}));
    EXPECT_EQ(call({"SORT", "z", "ALPHA"}), bulks({"a", "b", "c", "d"}));
    EXPECT_EQ(call({"SORT_RO", "z", "ALPHA", "DESC"}), bulks({"d", "c", "b", "a"}));
}

TEST_P(Sort, NumbersThatAreNotDoubles) {
    call({"RPUSH", "nan", "1", "nan"});
    call({"RPUSH", "huge", "1e400"});
    call({"RPUSH", "tiny", "1e-400"});
    call({"RPUSH", "odd", "", " 7", "0x10", "+3", "inf"});
    const std::string bad = err("ERR One or more scores can't be converted into double");
    /* What strtod reads whole is a number, "" and hex included. (First:
     * Redis does not clear errno before strtod, so on this connection an
     * ERANGE below would fail the next SORT of such strings.) */
    EXPECT_EQ(call({"SORT", "odd"}), bulks({"", "+3", " 7", "0x10", "inf"}));
    EXPECT_EQ(call({"SORT", "nan"}), bad);
    EXPECT_EQ(call({"SORT", "huge"}), bad);
    EXPECT_EQ(call({"SORT", "tiny"}), bad);
    EXPECT_EQ(call({"SORT", "nan", "STORE", "dst"}), bad);
    EXPECT_EQ(call({"EXISTS", "dst"}), integer(0));
}

/* ========================================================================
 * LIMIT
 * ====================================================================== */

TEST_P(Sort, LimitIsClampedAsRedisDoes) {
    call({"RPUSH", "l", "5", "4", "3", "2", "1"});
    EXPECT_EQ(call({"SORT", "l", "LIMIT", "1", "2"}), bulks({"2", "3"}));
    EXPECT_EQ(call({"SORT", "l", "LIMIT", "-10", "2"}), bulks({"1", "2"}));
    EXPECT_EQ(call({"SORT", "l", "LIMIT", "3", "-1"}), bulks({"4", "5"}));
    EXPECT_EQ(call({"SORT", "l", "LIMIT", "3", "-100"}), bulks({"4", "5"}));
    EXPECT_EQ(call({"SORT", "l", "LIMIT", "0", "0"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"SORT", "l", "LIMIT", "5", "1"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"SORT", "l", "LIMIT", "4", "100"}), bulks({"5"}));
    EXPECT_EQ(call({"SORT", "l", "LIMIT", "9223372036854775807", "9223372036854775807"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"SORT", "l", "LIMIT", "2", "9223372036854775807"}), bulks({"3", "4", "5"}));
    EXPECT_EQ(call({"SORT", "l", "BY", "nosort", "LIMIT", "5", "1"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"SORT", "l", "BY", "nosort", "LIMIT", "-1", "-1"}), bulks({"5", "4", "3", "2", "1"}));
    EXPECT_EQ(call({"SORT", "missing", "LIMIT", "0", "1"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"SORT", "l", "LIMIT", "x", "1"}), NOT_INT);
    EXPECT_EQ(call({"SORT", "l", "LIMIT", "1"}), SYNTAX);
}

/* ========================================================================
 * BY and GET patterns
 * ====================================================================== */

TEST_P(Sort, ByPatternWeightsAndGet) {
    call({"RPUSH", "l", "a", "b", "c", "d"});
    call({"MSET", "w_a", "30", "w_b", "10", "w_c", "20", "n_a", "A", "n_b", "B", "n_d", "D"});
    /* d has no weight: 0. */
    EXPECT_EQ(call({"SORT", "l", "BY", "w_*"}), bulks({"d", "b", "c", "a"}));
    EXPECT_EQ(call({"SORT", "l", "BY", "w_*", "DESC"}), bulks({"a", "c", "b", "d"}));
    EXPECT_EQ(call({"SORT", "l", "BY", "w_*", "LIMIT", "1", "2"}), bulks({"b", "c"}));
    EXPECT_EQ(call({"SORT", "l", "BY", "w_*", "GET", "#", "GET", "n_*", "GET", "w_*"}),
              array({bulk("d"), bulk("D"), NIL, bulk("b"), bulk("B"), bulk("10"), bulk("c"), NIL, bulk("20"), bulk("a"),
                     bulk("A"), bulk("30")}));
    /* A GET pattern without '*' names no key. */
    EXPECT_EQ(call({"SORT", "l", "BY", "w_*", "GET", "w_a", "LIMIT", "0", "2"}), array({NIL, NIL}));
    /* Weights that are not numbers. */
    EXPECT_EQ(call({"SORT", "l", "BY", "n_*"}), err("ERR One or more scores can't be converted into double"));
    /* ALPHA on weights; missing ones first, in input order. */
    EXPECT_EQ(call({"SORT", "l", "BY", "n_*", "ALPHA", "DESC"}), bulks({"d", "b", "a", "c"}));
    EXPECT_EQ(call({"SORT", "l", "BY", "n_*", "ALPHA"}), bulks({"c", "a", "b", "d"}));
    /* A weight of another type is missing. */
    call({"RPUSH", "w_d", "x"});
    EXPECT_EQ(call({"SORT", "l", "BY", "w_*", "GET", "w_*"}), array({NIL, bulk("10"), bulk("20"), bulk("30")}));
}

TEST_P(Sort, HashFieldsInByAndGet) {
    call({"RPUSH", "l", "1", "2", "3"});
    call({"HSET", "o_1", "name", "zed", "age", "40"});
    call({"HSET", "o_2", "name", "amy", "age", "25"});
    call({"HSET", "o_3", "name", "kim"});
    EXPECT_EQ(call({"SORT", "l", "BY", "o_*->age", "GET", "#", "GET", "o_*->name"}),
              bulks({"3", "kim", "2", "amy", "1", "zed"}));
    EXPECT_EQ(call({"SORT", "l", "BY", "o_*->name", "ALPHA", "GET", "o_*->age"}), array({bulk("25"), NIL, bulk("40")}));
    /* "->" with nothing after it is part of the key name. */
    call({"SET", "o_1->", "k"});
    EXPECT_EQ(call({"SORT", "l", "BY", "nosort", "GET", "o_*->"}), array({bulk("k"), NIL, NIL}));
    /* A field of a key that is not a hash is missing. */
    call({"SET", "s_1", "str"});
    EXPECT_EQ(call({"SORT", "l", "BY", "nosort", "GET", "s_*->f", "LIMIT", "0", "1"}), array({NIL}));
    /* The '*' may be in the middle; the field follows the key's suffix. */
    call({"HSET", "p1q", "f", "v1"});
    EXPECT_EQ(call({"SORT", "l", "GET", "p*q->f"}), array({bulk("v1"), NIL, NIL}));
}

TEST_P(Sort, ByAConstantIsNosort) {
    call({"RPUSH", "l", "3", "x", "1"});
    EXPECT_EQ(call({"SORT", "l", "BY", "nosort"}), bulks({"3", "x", "1"}));
    EXPECT_EQ(call({"SORT", "l", "BY", "anykey", "DESC"}), bulks({"1", "x", "3"}));
    EXPECT_EQ(call({"SORT", "l", "BY", "nosort", "GET", "#", "GET", "#"}), bulks({"3", "3", "x", "x", "1", "1"}));
}

/* ========================================================================
 * Errors
 * ====================================================================== */

TEST_P(Sort, Errors) {
    call({"SET", "str", "x"});
    call({"RPUSH", "l", "1"});
    EXPECT_EQ(call({"SORT", "str"}), WRONGTYPE);
    call({"HSET", "h", "f", "v"});
    EXPECT_EQ(call({"SORT", "h"}), WRONGTYPE);
    EXPECT_EQ(call({"SORT", "missing"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"SORT", "l", "FOO"}), SYNTAX);
    EXPECT_EQ(call({"SORT", "l", "BY"}), SYNTAX);
    EXPECT_EQ(call({"SORT", "l", "GET"}), SYNTAX);
    EXPECT_EQ(call({"SORT", "l", "STORE"}), SYNTAX);
    /* Options are parsed before the key is looked at. */
    EXPECT_EQ(call({"SORT", "str", "FOO"}), SYNTAX);
    EXPECT_EQ(call({"SORT_RO", "l", "STORE", "dst"}), SYNTAX);
    EXPECT_EQ(call({"SORT"}), arityErr("sort"));
    EXPECT_EQ(call({"SORT_RO"}), arityErr("sort_ro"));
}

/* ========================================================================
 * STORE
 * ====================================================================== */

TEST_P(Sort, StoreCreatesAListAndAnEmptyResultDeletes) {
    call({"RPUSH", "l", "3", "1", "2"});
    call({"SET", "dst", "string"});
    call({"EXPIRE", "dst", "100"});
    EXPECT_EQ(call({"SORT", "l", "STORE", "dst"}), integer(3));
    EXPECT_EQ(call({"TYPE", "dst"}), "+list\r\n");
    EXPECT_EQ(call({"TTL", "dst"}), integer(-1));
    EXPECT_EQ(call({"LRANGE", "dst", "0", "-1"}), bulks({"1", "2", "3"}));
    /* The source itself may be the destination. */
    EXPECT_EQ(call({"SORT", "l", "DESC", "STORE", "l"}), integer(3));
    EXPECT_EQ(call({"LRANGE", "l", "0", "-1"}), bulks({"3", "2", "1"}));
    /* GET values; a missing one is stored as "". */
    call({"SET", "n_1", "one"});
    EXPECT_EQ(call({"SORT", "l", "GET", "n_*", "GET", "#", "STORE", "dst"}), integer(6));
    EXPECT_EQ(call({"LRANGE", "dst", "0", "-1"}), bulks({"one", "1", "", "2", "", "3"}));
    /* The last STORE wins. */
    EXPECT_EQ(call({"SORT", "l", "STORE", "x", "STORE", "y"}), integer(3));
    EXPECT_EQ(call({"EXISTS", "x"}), integer(0));
    EXPECT_EQ(call({"EXISTS", "y"}), integer(1));
    /* An empty result deletes the destination. */
    EXPECT_EQ(call({"SORT", "l", "LIMIT", "0", "0", "STORE", "dst"}), integer(0));
    EXPECT_EQ(call({"EXISTS", "dst"}), integer(0));
    EXPECT_EQ(call({"SORT", "missing", "STORE", "y"}), integer(0));
    EXPECT_EQ(call({"EXISTS", "y"}), integer(0));
}

TEST_P(Sort, StoreOfALongResultIsALinkedList) {
    pushDescending("big", 600);
    EXPECT_EQ(call({"SORT", "big", "STORE", "dst"}), integer(600));
    EXPECT_EQ(encoding("dst"), cppredis() ? "linkedlist" : "quicklist");
    EXPECT_EQ(call({"LRANGE", "dst", "0", "-1"}), bulks(numbers(0, 599)));
}

TEST_P(Sort, StoreCountsDirtyAndNotifies) {
    call({"RPUSH", "l", "b", "a"});
    call({"CONFIG", "SET", "notify-keyspace-events", "KEA"});
    RespConn sub(srv->port());
    ASSERT_EQ(sub.call({"PSUBSCRIBE", "__keyevent@0__:*"}).type, Reply::Type::Array);
    long long before = infoNumber(*c, "persistence", "rdb_changes_since_last_save");
    EXPECT_EQ(call({"SORT", "l", "ALPHA", "STORE", "dst"}), integer(2));
    EXPECT_EQ(infoNumber(*c, "persistence", "rdb_changes_since_last_save"), before + 2);
    EXPECT_EQ(sub.readReply().elements.at(2).str, "__keyevent@0__:sortstore");
    EXPECT_EQ(call({"SORT", "l", "ALPHA", "LIMIT", "0", "0", "STORE", "dst"}), integer(0));
    EXPECT_EQ(infoNumber(*c, "persistence", "rdb_changes_since_last_save"), before + 3);
    EXPECT_EQ(sub.readReply().elements.at(2).str, "__keyevent@0__:del");
    /* Nothing to delete: nothing changes. */
    EXPECT_EQ(call({"SORT", "l", "ALPHA", "LIMIT", "0", "0", "STORE", "dst"}), integer(0));
    EXPECT_EQ(infoNumber(*c, "persistence", "rdb_changes_since_last_save"), before + 3);
    /* A plain SORT writes nothing. */
    call({"SORT", "l", "ALPHA"});
    EXPECT_EQ(infoNumber(*c, "persistence", "rdb_changes_since_last_save"), before + 3);
}

/* Redis 2.8's own test: SORT ... STORE creates a list that wakes BLPOP;
 * each waiter gets one element, in the order they blocked. */
TEST_P(Sort, StoreWakesBlockedClients) {
    call({"RPUSH", "src", "3", "1", "2"});
    std::vector<RespConn> waiters;
    for (int i = 0; i < 3; i++) {
        waiters.emplace_back(srv->port());
        waiters.back().cmd({"BLPOP", "dst", "0"});
        ASSERT_NO_FATAL_FAILURE(waitBlocked(i + 1));
    }
    EXPECT_EQ(call({"SORT", "src", "STORE", "dst"}), integer(3));
    EXPECT_EQ(waiters[0].readReply().raw, bulks({"dst", "1"}));
    EXPECT_EQ(waiters[1].readReply().raw, bulks({"dst", "2"}));
    EXPECT_EQ(waiters[2].readReply().raw, bulks({"dst", "3"}));
    EXPECT_EQ(call({"EXISTS", "dst"}), integer(0));
    ASSERT_NO_FATAL_FAILURE(waitBlocked(0));
}

/* ========================================================================
 * Scripts, SORT_RO, keys and ACL
 * ====================================================================== */

/* A set has no order of its own: in a script (and with STORE) "no order"
 * sorts ALPHA, so that replicas and the AOF see the same result. */
TEST_P(Sort, SetsSortAlphaInScriptsAndStore) {
    call({"SADD", "s", "c", "10", "a", "b", "9"});
    const std::string alpha = bulks({"10", "9", "a", "b", "c"});
    EXPECT_EQ(call({"EVAL", "return redis.call('sort', KEYS[1], 'BY', 'nosort')", "1", "s"}), alpha);
    EXPECT_EQ(call({"EVAL", "return redis.call('sort_ro', KEYS[1], 'BY', 'x', 'DESC')", "1", "s"}),
              bulks({"c", "b", "a", "9", "10"}));
    EXPECT_EQ(call({"SORT", "s", "BY", "nosort", "STORE", "dst"}), integer(5));
    EXPECT_EQ(call({"LRANGE", "dst", "0", "-1"}), alpha);
    /* The same for an intset, whose natural order is numeric. */
    call({"SADD", "i", "10", "9", "100"});
    EXPECT_EQ(call({"EVAL", "return redis.call('sort', KEYS[1], 'BY', 'nosort')", "1", "i"}),
              bulks({"10", "100", "9"}));
    /* A list keeps its order in a script. */
    call({"RPUSH", "l", "b", "a"});
    EXPECT_EQ(call({"EVAL", "return redis.call('sort', KEYS[1], 'BY', 'nosort')", "1", "l"}), bulks({"b", "a"}));
}

TEST_P(Sort, SortRoReadsOnly) {
    call({"RPUSH", "l", "2", "1"});
    call({"SET", "w_1", "5"});
    EXPECT_EQ(call({"SORT_RO", "l"}), bulks({"1", "2"}));
    EXPECT_EQ(call({"SORT_RO", "l", "BY", "w_*", "GET", "#", "LIMIT", "0", "5", "DESC"}), bulks({"1", "2"}));
    EXPECT_EQ(call({"EVAL", "return redis.call('sort_ro', KEYS[1])", "1", "l"}), bulks({"1", "2"}));
    /* It runs on a replica, where SORT is refused as a write. */
    EXPECT_EQ(call({"COMMAND", "INFO", "sort_ro"}).find("readonly") != std::string::npos, true);
}

TEST_P(Sort, CommandGetkeys) {
    EXPECT_EQ(call({"COMMAND", "GETKEYS", "SORT", "k"}), bulks({"k"}));
    EXPECT_EQ(call({"COMMAND", "GETKEYS", "SORT", "k", "LIMIT", "1", "2", "STORE", "d1", "GET", "store", "BY",
                    "store", "STORE", "d2"}),
              bulks({"k", "d2"}));
    /* STORE's argument is not skipped, LIMIT's two are. */
    EXPECT_EQ(call({"COMMAND", "GETKEYS", "SORT", "k", "STORE", "limit", "x", "y"}), bulks({"k", "limit"}));
    EXPECT_EQ(call({"COMMAND", "GETKEYS", "SORT", "k", "LIMIT", "store", "x", "y"}), bulks({"k"}));
    EXPECT_EQ(call({"COMMAND", "GETKEYS", "SORT", "k", "STORE"}), bulks({"k"}));
    EXPECT_EQ(call({"COMMAND", "GETKEYS", "SORT_RO", "k", "STORE", "d"}), bulks({"k"}));
    EXPECT_EQ(call({"COMMAND", "GETKEYSANDFLAGS", "SORT", "k", "STORE", "d"}),
              array({array({bulk("k"), array({"+RO\r\n", "+access\r\n"})}),
                     array({bulk("d"), array({"+OW\r\n", "+update\r\n"})})}));
}

TEST_P(Sort, ByAndGetPatternsNeedAccessToEveryKey) {
    call({"RPUSH", "l", "2", "1"});
    ASSERT_EQ(call({"ACL", "SETUSER", "some", "on", "nopass", "+@all", "~l", "~d"}), OK);
    ASSERT_EQ(call({"ACL", "SETUSER", "reader", "on", "nopass", "+@all", "%R~*", "~d"}), OK);
    RespConn u(srv->port());
    ASSERT_EQ(u.call({"AUTH", "some", "x"}).raw, OK);
    EXPECT_EQ(u.call({"SORT", "l"}).raw, bulks({"1", "2"}));
    EXPECT_EQ(u.call({"SORT", "l", "BY", "nosort"}).raw, bulks({"2", "1"}));
    EXPECT_EQ(u.call({"SORT", "l", "BY", "w_*"}).raw,
              err("ERR BY option of SORT denied due to insufficient ACL permissions."));
    EXPECT_EQ(u.call({"SORT", "l", "GET", "#"}).raw,
              err("ERR GET option of SORT denied due to insufficient ACL permissions."));
    EXPECT_EQ(u.call({"SORT", "l", "STORE", "d"}).raw, integer(2));
    /* Reading every key is enough. */
    ASSERT_EQ(u.call({"AUTH", "reader", "x"}).raw, OK);
    EXPECT_EQ(u.call({"SORT", "l", "BY", "w_*", "GET", "#", "STORE", "d"}).raw, integer(2));
    EXPECT_EQ(u.call({"SORT_RO", "l", "BY", "w_*", "GET", "w_*"}).raw, array({NIL, NIL}));
}

/* ========================================================================
 * Propagation: what the AOF gets, compared with Redis 7.0.15's
 * ====================================================================== */

/* SORT ... STORE goes to the AOF as it was sent (an empty result too, when
 * it deleted the destination), a SORT that wrote nothing does not, a
 * script's SORT of a set goes as its effect, and a BLPOP waiter served by
 * the stored list as the LPOP it did. */
void runSortPropagationScript(RespConn &c, RespConn &waiter) {
    std::vector<Args> script = {
        {"SELECT", "2"},
        {"RPUSH", "l", "3", "1", "2"},
        {"SADD", "s", "b", "a", "c"},
        {"SORT", "l"},
        {"SORT", "l", "DESC", "STORE", "d"},
        {"SORT", "l", "LIMIT", "0", "0", "STORE", "d"},
        {"SORT", "l", "LIMIT", "0", "0", "STORE", "d"},
        {"SORT", "s", "BY", "nosort", "STORE", "d"},
        {"EVAL", "return redis.call('sort', KEYS[1], 'BY', 'nosort', 'STORE', KEYS[2])", "2", "s", "e"},
        {"SORT", "missing", "STORE", "e"},
    };
    for (const Args &cmd : script) c.call(cmd);
    waiter.call({"SELECT", "2"});
    waiter.cmd({"BLPOP", "w", "0"});
    EXPECT_TRUE(pollUntil([&] { return infoNumber(c, "clients", "blocked_clients") == 1; }));
    c.call({"SORT", "l", "STORE", "w"});
    EXPECT_EQ(waiter.readReply().raw, bulks({"w", "1"}));
}

TEST(SortPropagation, AofSameBytesAsRedis7) {
    REQUIRE_REDIS_REFERENCE();
    std::string theirs = aofWrittenBy(ServerImpl::Redis, runSortPropagationScript);
    ASSERT_FALSE(theirs.empty());
    EXPECT_EQ(escape(aofWrittenBy(ServerImpl::Cppredis, runSortPropagationScript), 1 << 20), escape(theirs, 1 << 20));
}

INSTANTIATE_TEST_SUITE_P(Servers, Sort, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis), serverImplName);

} // namespace
