/* hyperloglog_test.cpp — integration tests of HyperLogLog (hyperloglog.cpp):
 * PFADD, PFCOUNT (one key with its cached cardinality, several keys),
 * PFMERGE, PFDEBUG and PFSELFTEST, their replies and errors, the corrupt
 * and the non-HLL strings; and the bytes themselves.
 *
 * The `HyperLogLog` suite runs each scenario on cppredis and on Debian's
 * Redis 7.0.15 (the Servers/ instantiations), so every expected reply,
 * every estimate included, is proven against Redis by the same test. The
 * `HyperLogLogBytes` suite runs cppredis and a RedisReference side by side
 * and compares the HLL strings byte for byte (GET): after the same PFADDs
 * in the sparse form, across the sparse/dense limit and in the dense form,
 * after PFMERGE, PFDEBUG TODENSE and PFCOUNT's cache write; and moves HLLs
 * from one server to the other with GET/SET, where they must count alike. */
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

const std::string NOT_HLL = err("WRONGTYPE Key is not a valid HyperLogLog string value.");
const std::string INVALIDOBJ = err("INVALIDOBJ Corrupted HLL object detected");

/* PFADD key with the decimal strings from..from+n-1 (in one command). */
Args pfaddRange(const std::string &key, long from, long n) {
    Args a{"PFADD", key};
    for (long i = from; i < from + n; i++) a.push_back(std::to_string(i));
    return a;
}

/* A 16-byte HLL header with this magic and encoding byte, a stale cache. */
std::string header(std::string_view magic, char encoding) {
    std::string h(magic);
    h += encoding;
    h += std::string(3, '\0');
    h += std::string(7, '\0');
    h += '\x80';
    return h;
}

class HyperLogLog : public EitherServerTest {
protected:
    /* The elements from..from+n-1 added in commands of 1000. */
    void addRange(const std::string &key, long from, long n) {
        for (long done = 0; done < n; done += 1000) {
            std::string r = call(pfaddRange(key, from + done, std::min(1000L, n - done)));
            ASSERT_EQ(r.front(), ':') << r;
        }
    }
    long long dirty() { return infoNumber(*c, "persistence", "rdb_changes_since_last_save"); }
};

/* ========================================================================
 * PFADD and PFCOUNT
 * ====================================================================== */

TEST_P(HyperLogLog, PfaddRepliesWhetherARegisterChanged) {
    EXPECT_EQ(call({"PFADD", "h", "a", "b", "c"}), integer(1));
    EXPECT_EQ(call({"PFADD", "h", "a", "c"}), integer(0));
    EXPECT_EQ(call({"PFADD", "h"}), integer(0));
    EXPECT_EQ(call({"PFADD", "empty"}), integer(1)); /* created */
    EXPECT_EQ(call({"PFCOUNT", "empty"}), integer(0));
    EXPECT_EQ(call({"TYPE", "h"}), "+string\r\n");
    EXPECT_EQ(call({"STRLEN", "empty"}), integer(18)); /* the header and one XZERO */
}

TEST_P(HyperLogLog, PfcountEstimatesAsRedisDoes) {
    EXPECT_EQ(call({"PFCOUNT", "nokey"}), integer(0));
    EXPECT_EQ(call({"PFCOUNT", "nokey", "nokey2"}), integer(0));
    call({"PFADD", "h", "a", "b", "c"});
    EXPECT_EQ(call({"PFCOUNT", "h"}), integer(3));
    addRange("big", 1, 1000);
    EXPECT_EQ(call({"PFCOUNT", "big"}), integer(1001));
    EXPECT_EQ(call({"PFDEBUG", "ENCODING", "big"}), "+sparse\r\n");
    addRange("big2", 1, 100000);
    EXPECT_EQ(call({"PFCOUNT", "big2"}), integer(99562));
    EXPECT_EQ(call({"PFDEBUG", "ENCODING", "big2"}), "+dense\r\n");
    /* the union of sparse and dense ones, without touching them */
    std::string before = call({"GET", "big"});
    EXPECT_EQ(call({"PFCOUNT", "big", "big2", "h", "nokey"}), integer(99562));
    EXPECT_EQ(call({"GET", "big"}), before);
    EXPECT_EQ(call({"PFDEBUG", "ENCODING", "big"}), "+sparse\r\n");
}

TEST_P(HyperLogLog, PfcountCachesTheCardinalityAndCountsTheWrite) {
    call({"PFADD", "h", "a", "b", "c"});
    long long before = dirty();
    EXPECT_EQ(call({"PFCOUNT", "h"}), integer(3)); /* computed and cached: a write */
    EXPECT_EQ(dirty(), before + 1);
    EXPECT_EQ(call({"PFCOUNT", "h"}), integer(3)); /* from the cache */
    EXPECT_EQ(dirty(), before + 1);
    EXPECT_EQ(call({"GETRANGE", "h", "8", "15"}), bulk(std::string("\x03\0\0\0\0\0\0\0", 8)));
    call({"PFADD", "h", "d"});
    EXPECT_EQ(call({"GETRANGE", "h", "15", "15"}), bulk("\x80"));
    /* several keys: nothing cached, nothing written */
    long long now = dirty();
    EXPECT_EQ(call({"PFCOUNT", "h", "nokey"}), integer(4));
    EXPECT_EQ(dirty(), now);
    EXPECT_EQ(call({"GETRANGE", "h", "15", "15"}), bulk("\x80"));
}

/* The cache write signals the key: a transaction WATCHing it fails. */
TEST_P(HyperLogLog, PfcountThatCachesTouchesWatchedKeys) {
    call({"PFADD", "h", "a"});
    RespConn other = srv->connect();
    EXPECT_EQ(other.call({"WATCH", "h"}).raw, OK);
    EXPECT_EQ(call({"PFCOUNT", "h"}), integer(1));
    other.call({"MULTI"});
    other.call({"PING"});
    EXPECT_EQ(other.call({"EXEC"}).raw, NIL_ARRAY);
    /* a count from the cache changes nothing */
    EXPECT_EQ(other.call({"WATCH", "h"}).raw, OK);
    EXPECT_EQ(call({"PFCOUNT", "h"}), integer(1));
    other.call({"MULTI"});
    other.call({"PING"});
    EXPECT_EQ(other.call({"EXEC"}).raw, array({"+PONG\r\n"}));
}

/* PFCOUNT may write (its cache), so Redis flags it may-replicate: refused
 * in a read-only script like a write. */
TEST_P(HyperLogLog, PfcountIsRefusedInReadOnlyScripts) {
    call({"PFADD", "h", "a"});
    std::string r = call({"EVAL_RO", "return redis.call('pfcount', KEYS[1])", "1", "h"});
    EXPECT_EQ(r.substr(0, r.find(" script:")),
              "-ERR Write commands are not allowed from read-only scripts.");
    EXPECT_EQ(call({"EVAL", "return redis.call('pfcount', KEYS[1])", "1", "h"}), integer(1));
    Reply info = c->call({"COMMAND", "INFO", "pfcount"});
    ASSERT_EQ(info.elements.size(), 1u);
    EXPECT_EQ(info.elements[0].elements.at(2).raw, array({"+readonly\r\n"})); /* may-replicate is not listed */
}

TEST_P(HyperLogLog, PfaddAndPfmergeNotifyPfadd) {
    call({"CONFIG", "SET", "notify-keyspace-events", "K$"});
    RespConn sub = srv->connect();
    sub.call({"SUBSCRIBE", "__keyspace@0__:h"});
    sub.call({"SUBSCRIBE", "__keyspace@0__:m"});
    call({"PFADD", "h", "a"});
    call({"PFADD", "h", "a"}); /* nothing changed: no event */
    call({"PFMERGE", "m", "h"});
    call({"PFCOUNT", "h"});    /* the cache write: no event */
    call({"PFADD", "h", "b"});
    EXPECT_EQ(sub.readReply().raw, array({bulk("message"), bulk("__keyspace@0__:h"), bulk("pfadd")}));
    EXPECT_EQ(sub.readReply().raw, array({bulk("message"), bulk("__keyspace@0__:m"), bulk("pfadd")}));
    EXPECT_EQ(sub.readReply().raw, array({bulk("message"), bulk("__keyspace@0__:h"), bulk("pfadd")}));
}

TEST_P(HyperLogLog, SparseTurnsDenseAtTheConfiguredSize) {
    call({"CONFIG", "SET", "hll-sparse-max-bytes", "30"});
    call({"PFADD", "h", "a", "b", "c"}); /* 27 bytes */
    EXPECT_EQ(call({"STRLEN", "h"}), integer(27));
    EXPECT_EQ(call({"PFDEBUG", "ENCODING", "h"}), "+sparse\r\n");
    call({"PFADD", "h", "d", "e", "f", "g"});
    EXPECT_EQ(call({"PFDEBUG", "ENCODING", "h"}), "+dense\r\n");
    EXPECT_EQ(call({"STRLEN", "h"}), integer(12304));
    EXPECT_EQ(call({"PFCOUNT", "h"}), integer(7));
}

/* ========================================================================
 * PFMERGE
 * ====================================================================== */

TEST_P(HyperLogLog, PfmergeUnitesIntoTheDestination) {
    call({"PFADD", "a", "1", "2", "3"});
    call({"PFADD", "b", "3", "4"});
    EXPECT_EQ(call({"PFMERGE", "m", "a", "b", "nokey"}), OK);
    EXPECT_EQ(call({"PFCOUNT", "m"}), integer(4));
    EXPECT_EQ(call({"PFDEBUG", "ENCODING", "m"}), "+sparse\r\n");
    /* the destination is a source too */
    call({"PFADD", "c", "5"});
    EXPECT_EQ(call({"PFMERGE", "m", "c"}), OK);
    EXPECT_EQ(call({"PFCOUNT", "m"}), integer(5));
    /* a dense source makes the destination dense */
    call({"PFADD", "d", "6"});
    call({"PFDEBUG", "TODENSE", "d"});
    EXPECT_EQ(call({"PFMERGE", "m", "d"}), OK);
    EXPECT_EQ(call({"PFDEBUG", "ENCODING", "m"}), "+dense\r\n");
    EXPECT_EQ(call({"PFCOUNT", "m"}), integer(6));
    EXPECT_EQ(call({"PFMERGE", "only"}), OK);
    EXPECT_EQ(call({"PFCOUNT", "only"}), integer(0));
    EXPECT_EQ(call({"EXISTS", "only"}), integer(1));
}

/* ========================================================================
 * Errors: other types, strings that are no HLL, corrupt HLLs
 * ====================================================================== */

TEST_P(HyperLogLog, OtherTypesAndNonHllStringsAreRefused) {
    call({"LPUSH", "l", "a"});
    call({"SET", "n", "123"}); /* INT-encoded: never a HLL */
    call({"SET", "s", "not a hyperloglog string"});
    call({"PFADD", "h", "a"});
    for (const Args &args : std::vector<Args>{{"PFADD", "l", "x"}, {"PFCOUNT", "l"}, {"PFCOUNT", "h", "l"},
                                              {"PFMERGE", "h", "l"}, {"PFMERGE", "l", "h"}, {"PFDEBUG", "ENCODING", "l"}})
        EXPECT_EQ(call(args), WRONGTYPE) << describe(args);
    for (std::string key : {"n", "s"}) {
        EXPECT_EQ(call({"PFADD", key, "x"}), NOT_HLL);
        EXPECT_EQ(call({"PFCOUNT", key}), NOT_HLL);
        EXPECT_EQ(call({"PFCOUNT", "h", key}), NOT_HLL);
        EXPECT_EQ(call({"PFMERGE", "h", key}), NOT_HLL);
        EXPECT_EQ(call({"PFDEBUG", "GETREG", key}), NOT_HLL);
    }
    EXPECT_EQ(call({"PFADD"}), arityErr("pfadd"));
    EXPECT_EQ(call({"PFCOUNT"}), arityErr("pfcount"));
    EXPECT_EQ(call({"PFMERGE"}), arityErr("pfmerge"));
    EXPECT_EQ(call({"PFDEBUG", "ENCODING"}), arityErr("pfdebug"));
    EXPECT_EQ(call({"PFSELFTEST", "x"}), arityErr("pfselftest"));
}

TEST_P(HyperLogLog, BadHeadersAreNoHll) {
    std::string sparseBody("\x7f\xff", 2); /* one XZERO of 16384 */
    const std::vector<std::string> bad = {
        "HYLL",                                          /* shorter than a header */
        header("HYLX", 1) + sparseBody,                  /* magic */
        header("HYLL", 2) + sparseBody,                  /* encoding */
        header("HYLL", 0) + std::string(12287, '\0'),    /* dense, a byte short */
        header("HYLL", 0) + std::string(12289, '\0'),    /* dense, a byte long */
    };
    for (const std::string &v : bad) {
        call({"SET", "bad", v});
        EXPECT_EQ(call({"PFCOUNT", "bad"}), NOT_HLL) << escape(v, 20);
        EXPECT_EQ(call({"PFADD", "bad", "x"}), NOT_HLL) << escape(v, 20);
    }
    /* a well-formed one made by SET (an embstr) is a HLL */
    call({"SET", "good", header("HYLL", 1) + sparseBody});
    EXPECT_EQ(call({"PFCOUNT", "good"}), integer(0));
    EXPECT_EQ(call({"PFADD", "good", "a", "b", "c"}), integer(1));
    EXPECT_EQ(call({"PFCOUNT", "good"}), integer(3));
}

/* A sparse HLL whose opcodes cover more or fewer than 16384 registers. */
TEST_P(HyperLogLog, SparseWithAWrongRegisterCountIsCorrupt) {
    const std::vector<std::string> corrupt = {
        header("HYLL", 1) + std::string("\x7f\xfe", 2),        /* 16383 registers */
        header("HYLL", 1) + std::string("\x7f\xff\x00", 3),    /* 16385 */
        header("HYLL", 1) + std::string("\x7f\xff\x80", 3),    /* a VAL past the end (CVE-2025-32023's fix) */
        header("HYLL", 1),                                     /* none */
    };
    for (const std::string &v : corrupt) {
        call({"SET", "bad", v});
        EXPECT_EQ(call({"PFCOUNT", "bad"}), INVALIDOBJ) << escape(v);
        EXPECT_EQ(call({"PFCOUNT", "bad", "nokey"}), INVALIDOBJ) << escape(v);
        EXPECT_EQ(call({"PFDEBUG", "GETREG", "bad"}), INVALIDOBJ) << escape(v);
    }
    call({"SET", "bad", header("HYLL", 1) + std::string("\x7f\xfe", 2)});
    EXPECT_EQ(call({"PFCOUNT", "bad", "nokey"}), INVALIDOBJ);
    EXPECT_EQ(call({"PFMERGE", "m", "bad"}), INVALIDOBJ);
    EXPECT_EQ(call({"EXISTS", "m"}), integer(0));
    EXPECT_EQ(call({"PFDEBUG", "TODENSE", "bad"}), INVALIDOBJ);
    EXPECT_EQ(call({"PFDEBUG", "GETREG", "bad"}), INVALIDOBJ);
    /* PFADD finds out only when it looks for a register's opcode past the
     * last one: here, any */
    call({"SET", "bad", header("HYLL", 1)});
    EXPECT_EQ(call({"PFADD", "bad", "a"}), INVALIDOBJ);
}

/* ========================================================================
 * PFDEBUG and PFSELFTEST
 * ====================================================================== */

TEST_P(HyperLogLog, PfdebugSubcommands) {
    call({"PFADD", "h", "a", "b", "c"});
    EXPECT_EQ(call({"PFDEBUG", "DECODE", "h"}),
              bulk("Z:8436 v:1,1 Z:4274 v:2,1 Z:3068 v:1,1 Z:603"));
    EXPECT_EQ(call({"PFDEBUG", "encoding", "h"}), "+sparse\r\n");
    long long before = dirty();
    EXPECT_EQ(call({"PFDEBUG", "TODENSE", "h"}), integer(1));
    EXPECT_EQ(dirty(), before + 1);
    EXPECT_EQ(call({"PFDEBUG", "TODENSE", "h"}), integer(0));
    EXPECT_EQ(dirty(), before + 1);
    EXPECT_EQ(call({"PFDEBUG", "ENCODING", "h"}), "+dense\r\n");
    EXPECT_EQ(call({"PFDEBUG", "DECODE", "h"}), err("ERR HLL encoding is not sparse"));
    EXPECT_EQ(call({"PFCOUNT", "h"}), integer(3));
    EXPECT_EQ(call({"PFDEBUG", "NOSUCH", "h"}), err("ERR Unknown PFDEBUG subcommand 'NOSUCH'"));
    EXPECT_EQ(call({"PFDEBUG", "ENCODING", "nokey"}), err("ERR The specified key does not exist"));
    EXPECT_EQ(call({"PFDEBUG", "NOSUCH", "nokey"}), err("ERR The specified key does not exist"));

    /* GETREG: every register, a sparse HLL made dense on the way */
    call({"PFADD", "s", "a", "b", "c"});
    Reply regs = c->call({"PFDEBUG", "GETREG", "s"});
    ASSERT_EQ(regs.elements.size(), 16384u);
    EXPECT_EQ(regs.elements[8436].integer, 1);
    EXPECT_EQ(regs.elements[8436 + 1 + 4274].integer, 2);
    EXPECT_EQ(regs.elements[8436 + 1 + 4274 + 1 + 3068].integer, 1);
    long long sum = 0;
    for (const Reply &r : regs.elements) sum += r.integer;
    EXPECT_EQ(sum, 4);
    EXPECT_EQ(call({"PFDEBUG", "ENCODING", "s"}), "+dense\r\n");
}

TEST_P(HyperLogLog, PfselftestPasses) {
    EXPECT_EQ(call({"PFSELFTEST"}), OK);
}

INSTANTIATE_TEST_SUITE_P(Servers, HyperLogLog, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* What the writes propagate (cppredis's single-file AOF): PFADD as it is
 * when a register changed, nothing when none did; a PFCOUNT that wrote its
 * cache, itself (so the replica's copy gets the cache too); a PFCOUNT from
 * the cache, nothing; PFDEBUG TODENSE when it converted. */
TEST(HyperLogLogPropagation, WritesAndCacheWritesReachTheAof) {
    TempDir dir;
    TestServer srv({"--dir", dir.path(), "--appendonly", "yes", "--appendfsync", "always", "--save", ""});
    RespConn c = srv.connect();
    const std::string aof = dir.file("appendonlydir/appendonly.aof.1.incr.aof");
    auto step = [&](const Args &args) {
        size_t before = readFile(aof).size();
        c.call(args);
        return readFile(aof).substr(before);
    };
    EXPECT_EQ(escape(step({"PFADD", "h", "a", "b"})),
              escape(encodeCommand({"SELECT", "0"}) + encodeCommand({"PFADD", "h", "a", "b"})));
    EXPECT_EQ(step({"PFADD", "h", "a"}), "");
    EXPECT_EQ(escape(step({"PFCOUNT", "h"})), escape(encodeCommand({"PFCOUNT", "h"})));
    EXPECT_EQ(step({"PFCOUNT", "h"}), "");
    EXPECT_EQ(step({"PFCOUNT", "h", "h"}), "");
    EXPECT_EQ(escape(step({"PFDEBUG", "TODENSE", "h"})), escape(encodeCommand({"PFDEBUG", "TODENSE", "h"})));
    EXPECT_EQ(step({"PFDEBUG", "TODENSE", "h"}), "");
}

/* ========================================================================
 * The bytes, against Redis 7.0.15 in the same run
 * ====================================================================== */

class HyperLogLogBytes : public ::testing::Test {
protected:
    void SetUp() override {
        REQUIRE_REDIS_REFERENCE();
        ours.emplace();
        ref.emplace();
        a.emplace(ours->connect());
        b.emplace(ref->connect());
    }

    /* The same command on both, with identical replies. */
    void both(const Args &args) {
        Reply ra = a->call(args), rb = b->call(args);
        EXPECT_EQ(ra.raw, rb.raw) << describe(args);
    }
    /* The key's HLL string on both, byte for byte. */
    void expectSameBytes(const std::string &key, const std::string &when) {
        std::string ra = a->call({"GET", key}).raw, rb = b->call({"GET", key}).raw;
        EXPECT_EQ(ra.size(), rb.size()) << when;
        EXPECT_TRUE(ra == rb) << when << ": first difference at byte "
                              << std::mismatch(ra.begin(), ra.end(), rb.begin(), rb.end()).first - ra.begin();
    }

    std::optional<TestServer> ours;
    std::optional<RedisReference> ref;
    std::optional<RespConn> a, b;
};

/* Adds elements a few at a time, comparing the bytes after each PFADD
 * through the sparse form, its promotion at 3000 bytes and the dense form,
 * and the counts at every step. */
TEST_F(HyperLogLogBytes, SameAddsGiveTheSameBytes) {
    long next = 0;
    for (int step = 0; step < 400; step++) {
        long n = step < 300 ? 1 + step % 7 : 200;
        both(pfaddRange("h", next, n));
        next += n;
        expectSameBytes("h", "after " + std::to_string(next) + " elements");
        both({"PFDEBUG", "ENCODING", "h"});
        if (step % 10 == 0) {
            both({"PFCOUNT", "h"});
            expectSameBytes("h", "cached at " + std::to_string(next) + " elements");
        }
        if (HasFailure()) return;
    }
    Reply enc = a->call({"PFDEBUG", "ENCODING", "h"});
    EXPECT_EQ(enc.str, "dense"); /* the walk went past the promotion */
}

/* The promotion at the limit, for limits that fall on every kind of split. */
TEST_F(HyperLogLogBytes, PromotionAtTheSparseLimitMatches) {
    for (int limit : {20, 50, 101, 256, 700}) {
        std::string key = "h" + std::to_string(limit);
        both({"CONFIG", "SET", "hll-sparse-max-bytes", std::to_string(limit)});
        for (long i = 0; i < 400; i++) {
            both({"PFADD", key, "e" + std::to_string(i)});
            expectSameBytes(key, key + " after " + std::to_string(i + 1));
            if (HasFailure()) return;
        }
    }
}

/* The estimates of many sizes, sparse and dense, single and multi-key. */
TEST_F(HyperLogLogBytes, EstimatesMatchAtEverySize) {
    long next = 0;
    for (long size = 1; size <= 300000; size = size * 3 / 2 + 1) {
        for (long done = next; done < size; done += 2000) {
            Args add = pfaddRange("h", done, std::min(2000L, size - done));
            a->call(add);
            b->call(add);
        }
        next = size;
        both({"PFCOUNT", "h"});
        both({"PFCOUNT", "h", "nokey"});
        if (HasFailure()) return;
    }
}

TEST_F(HyperLogLogBytes, PfmergeAndTodenseGiveTheSameBytes) {
    for (RespConn *c : {&*a, &*b}) {
        c->call(pfaddRange("s1", 0, 50));
        c->call(pfaddRange("s2", 25, 80));
        c->call(pfaddRange("d1", 1000, 5000));
    }
    both({"PFMERGE", "sparse", "s1", "s2"});
    expectSameBytes("sparse", "sparse merge");
    both({"PFMERGE", "s1", "s2"}); /* into an existing sparse one */
    expectSameBytes("s1", "merge into a source");
    both({"PFMERGE", "dense", "s1", "d1"});
    expectSameBytes("dense", "dense merge");
    both({"PFMERGE", "s2", "d1"}); /* an existing sparse one turned dense */
    expectSameBytes("s2", "sparse destination, dense source");
    both({"PFDEBUG", "TODENSE", "sparse"});
    expectSameBytes("sparse", "TODENSE");
    both({"PFCOUNT", "sparse"});
    expectSameBytes("sparse", "TODENSE then PFCOUNT");
}

/* A HLL string made by one server and SET on the other counts alike there,
 * and grows alike. */
TEST_F(HyperLogLogBytes, HllsCopiedByGetAndSetCountTheSame) {
    struct Case {
        RespConn *from, *to;
        const char *name;
    };
    for (const Case &cs : {Case{&*b, &*a, "Redis -> cppredis"}, Case{&*a, &*b, "cppredis -> Redis"}}) {
        for (long size : {5L, 300L, 20000L}) {
            std::string key = "h" + std::to_string(size);
            cs.from->call({"DEL", key});
            for (long done = 0; done < size; done += 2000)
                cs.from->call(pfaddRange(key, done, std::min(2000L, size - done)));
            std::string bytes = cs.from->call({"GET", key}).str;
            /* both get the same string, whose cache is stale */
            a->call({"SET", key, bytes});
            b->call({"SET", key, bytes});
            both({"PFCOUNT", key});
            both({"PFCOUNT", key, "nokey"});
            expectSameBytes(key, std::string(cs.name) + " cached, size " + std::to_string(size));
            both(pfaddRange(key, size, 100));
            expectSameBytes(key, std::string(cs.name) + " grown, size " + std::to_string(size));
        }
    }
}

/* The corrupt and the non-HLL strings get the same errors (and the same
 * side effects: a failed PFADD may have changed registers before). */
TEST_F(HyperLogLogBytes, CorruptHllsAreRefusedAlike) {
    const std::vector<std::string> values = {
        "HYLL",
        header("HYLL", 0) + std::string(100, '\0'),
        header("HYLX", 1) + std::string("\x7f\xff", 2),
        header("HYLL", 1) + std::string("\x7f\xfe", 2),
        header("HYLL", 1) + std::string("\x7f\xff\x80", 3),
        header("HYLL", 1) + std::string("\x7f\xfe\x81", 3),
        header("HYLL", 1) + std::string("\x7e\x7f\x7e\x7f", 4),
        header("HYLL", 1) + std::string("\x7f\xff\x7f\xff\x84", 5),
        header("HYLL", 1) + std::string("\x7f\xfe\x88", 3), /* valid */
        header("HYLL", 1) + std::string("\x7f\xff\x80\x80", 4),
        header("HYLL", 1) + std::string("\x50\x00\x80\x7f", 4),
        header("HYLL", 1) + std::string("\x00", 1),
        header("HYLL", 1) + std::string("\x7f", 1), /* an XZERO cut short */
        header("HYLL", 1),
    };
    for (const std::string &v : values) {
        for (const Args &args : std::vector<Args>{{"PFCOUNT", "x"}, {"PFCOUNT", "x", "nokey"}, {"PFMERGE", "m", "x"},
                                                  {"PFADD", "x", "a", "b", "c"}, {"PFDEBUG", "TODENSE", "x"},
                                                  {"PFDEBUG", "DECODE", "x"}}) {
            a->call({"SET", "x", v});
            b->call({"SET", "x", v});
            both(args);
            expectSameBytes("x", describe(args) + " on " + escape(v));
            expectSameBytes("m", describe(args) + " on " + escape(v));
        }
    }
}

}  // namespace
