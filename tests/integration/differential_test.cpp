/* differential_test.cpp — the same pseudo-random command stream goes to
 * cppredis and to Debian's real redis-server, and every reply must be
 * byte-identical.
 *
 * The generator draws from a small set of keys and of "interesting" values
 * (integers at the shared-integer and int64 edges, numeric-looking strings
 * that are not canonical, strings at the 44/45-byte embstr limit, binary
 * bytes), so commands collide on the same keys, change types and hit error
 * paths. Only deterministic commands are generated: no relative TTLs read
 * back, no KEYS/SCAN/RANDOMKEY, no HGETALL/HKEYS/HVALS/SMEMBERS (hash order
 * differs by design), no random picks; the compact encodings' names are
 * masked (see comparable). Streams get explicit IDs only (no "*", which
 * reads the clock). Later issues add their commands to `kCommands`.
 */
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "crc64.h"
#include "integration/harness.h"
#include "integration/replies.h"

namespace {

using itest::Args;

/* A DUMP payload of one of three values as Redis 7.0 writes them: the
 * string "hello", the intset {1, 2, 3}, the list [a, 1, bb] (a quicklist of
 * one listpack), each with the footer (RDB version 10, CRC-64). */
std::string dumpPayload(size_t which) {
    static const std::string kBodies[] = {
        std::string("\x00\x05hello", 7),
        std::string("\x0b\x0e\x02\x00\x00\x00\x03\x00\x00\x00\x01\x00\x02\x00\x03\x00", 16),
        std::string("\x12\x01\x02\x10\x10\x00\x00\x00\x03\x00\x81\x61\x02\x01\x01\x82\x62\x62\x03\xff", 20),
    };
    std::string p = kBodies[which] + std::string("\x0a\x00", 2);
    uint64_t crc = crc64(0, reinterpret_cast<const unsigned char *>(p.data()), p.size());
    for (int i = 0; i < 8; i++) p.push_back(static_cast<char>(crc >> (8 * i)));
    return p;
}

class CommandGenerator {
public:
    explicit CommandGenerator(uint64_t seed) : rng_(seed) {}

    Args next() {
        if (inMulti_ && pick(8) == 0) {
            inMulti_ = false;
            return {pick(4) ? "EXEC" : "DISCARD"};
        }
        if (!inMulti_ && pick(40) == 0) {
            inMulti_ = true;
            return {"MULTI"};
        }
        const auto &make = kCommands[pick(kCommands.size())];
        return make(*this);
    }

    bool inMulti() const { return inMulti_; }

    size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }

    std::string key() { return "k" + std::to_string(pick(6)); }

    std::string value() {
        static const std::vector<std::string> kValues = {
            "0", "1", "-1", "9999", "10000", "-10000", "123456789012", "9223372036854775807",
            "-9223372036854775808", "9223372036854775808", "007", " 1", "+1", "1.5", "-0.25", "1e3",
            "inf", "nan", "abc", "", std::string(44, 'e'), std::string(45, 'r'), std::string("bi\0n\r\n", 6),
            std::string(65, 'z'), /* past the 64-byte ziplist limit of hashes and sorted sets */
        };
        return kValues[pick(kValues.size())];
    }

    std::string integer() {
        static const std::vector<std::string> kInts = {"0", "1", "-1", "5", "100", "-100", "9223372036854775807",
                                                       "-9223372036854775808", "x", "1.5", ""};
        return kInts[pick(kInts.size())];
    }

    std::string floatArg() {
        static const std::vector<std::string> kFloats = {"0", "1.5", "-2.25", "1e3", "inf", "-inf", "nan", "abc", "5"};
        return kFloats[pick(kFloats.size())];
    }

    /* Absolute times only: far future, or the past (deletes the key). */
    std::string unixTime(bool ms) {
        static const std::vector<std::string> kTimes = {"4102444800", "1", "4102444801", "abc"};
        std::string t = kTimes[pick(kTimes.size())];
        return ms && t != "abc" ? t + "000" : t;
    }

    std::string offset() { return std::to_string(static_cast<long>(pick(12)) - 4); }

    /* A sorted-set score, or a score range's end: exclusive, infinite,
     * negative zero, and the malformed. */
    std::string score() { return scoreFrom(kScores.size()); }
    /* Mostly well-formed: ZADD fails whole on one bad score. */
    std::string memberScore() { return scoreFrom(pick(8) ? kValidScores : kScores.size()); }

    /* A lexicographic range's end: inclusive, exclusive, open, malformed. */
    std::string lexBound() {
        std::string v = value();
        switch (pick(5)) {
        case 0: return "-";
        case 1: return "+";
        case 2: return "(" + v;
        case 3: return v; /* no [ or (: an error */
        default: return "[" + v;
        }
    }

    std::string minMax() { return pick(2) ? "MIN" : "MAX"; }

    /* Geo arguments: a few places (the antimeridian, the latitudes' limits,
     * the same spot twice) and the refused; members of their own. */
    std::pair<std::string, std::string> geoPoint() {
        static const std::vector<std::pair<std::string, std::string>> kPoints = {
            {"13.361389", "38.115556"}, {"15.087269", "37.502669"}, {"180", "85.05112878"}, {"-180", "-85"},
            {"0", "0"}, {"179.999", "0.5"}, {"-179.999", "0.5"}, {"15.087269", "37.502669"}, {"200", "10"},
            {"x", "1"}};
        return kPoints[pick(kPoints.size())];
    }
    std::string geoMember() { return pick(8) ? "g" + std::to_string(pick(5)) : value(); }
    std::string geoUnit() {
        static const std::vector<std::string> kUnits = {"m", "km", "mi", "ft", "KM", "parsec"};
        return kUnits[pick(kUnits.size())];
    }
    std::string geoDistance() {
        static const std::vector<std::string> kDistances = {"0", "100", "250", "5000", "20000000", "-1", "x"};
        return kDistances[pick(kDistances.size())];
    }

    /* A bit offset: mostly within the first 8 bytes, sometimes refused. */
    std::string bitOffset() {
        static const std::vector<std::string> kOdd = {"-1", "x", "#2", "4294967296"};
        return pick(10) ? std::to_string(pick(64)) : kOdd[pick(kOdd.size())];
    }
    std::string bitUnit() {
        static const std::vector<std::string> kUnits = {"BIT", "byte", "bits"};
        return kUnits[pick(kUnits.size())];
    }
    /* A BITFIELD type, at the widths' edges, and the refused. */
    std::string bitfieldType() {
        static const std::vector<std::string> kTypes = {"i1", "u1", "i8", "u8", "i5", "u12", "i64", "u63", "u64", "i0", "x8"};
        return kTypes[pick(kTypes.size())];
    }

    /* A stream ID as an argument: explicit (no "*": it reads the clock),
     * "ms-*", incomplete, the range forms and the malformed. */
    std::string streamId() {
        static const std::vector<std::string> kIds = {"1-1", "1", "2-0", "3-5", "7", "0-1", "0", "12", "20-2", "-", "+"};
        static const std::vector<std::string> kOdd = {
            "(2", "(3-5", "x", "1-", "0-0", "2-*", "$", ">", "18446744073709551615-18446744073709551615"};
        return pick(4) ? kIds[pick(kIds.size())] : kOdd[pick(kOdd.size())];
    }
    /* The IDs XADD adds with: mostly ones past every earlier one (a clock
     * of the generator's own), sometimes the edges and the refused. */
    std::string addId() {
        static const std::vector<std::string> kIds = {"1-1", "2-*", "0-*", "0-0", "18446744073709551615-*"};
        if (pick(5) == 0) return kIds[pick(kIds.size())];
        std::string ms = std::to_string(addClock_ += pick(3));
        return pick(2) ? ms + "-*" : ms + "-" + std::to_string(pick(3));
    }
    /* A read's or a group's starting ID: mostly valid. */
    std::string readId() {
        static const std::vector<std::string> kIds = {"0", "$", "0-0", "3", "20-1", "x"};
        return kIds[pick(kIds.size())];
    }
    /* Mostly keys of their own, so that streams grow; sometimes the shared
     * ones, where they meet the other types. */
    std::string streamKey() { return pick(4) ? "x" + std::to_string(pick(2)) : key(); }
    std::string group() { return pick(2) ? "g1" : "g2"; }
    std::string consumer() { return pick(2) ? "alice" : "bob"; }

private:
    static constexpr size_t kValidScores = 11; /* the first ones below */
    inline static const std::vector<std::string> kScores = {"0",    "1",    "-1", "1.5", "2",   "3",   "-0", "1e3",
                                                            "inf",  "-inf", "+inf", "(1", "(2", "nan", "abc", ""};
    std::string scoreFrom(size_t n) { return kScores[pick(n)]; }

    using Maker = std::function<Args(CommandGenerator &)>;
    static const std::vector<Maker> kCommands;
    std::mt19937_64 rng_;
    bool inMulti_ = false;
    uint64_t addClock_ = 3;
};

const std::vector<CommandGenerator::Maker> CommandGenerator::kCommands = {
    /* strings */
    [](CommandGenerator &g) { return Args{"SET", g.key(), g.value()}; },
    [](CommandGenerator &g) {
        static const std::vector<std::string> kOpts = {"NX", "XX", "GET", "KEEPTTL", "EXAT", "PXAT", "BAD"};
        Args a{"SET", g.key(), g.value(), kOpts[g.pick(kOpts.size())]};
        if (a[3] == "EXAT") a.push_back(g.unixTime(false));
        if (a[3] == "PXAT") a.push_back(g.unixTime(true));
        if (g.pick(3) == 0) a.push_back(kOpts[g.pick(kOpts.size())]);
        return a;
    },
    [](CommandGenerator &g) { return Args{"GET", g.key()}; },
    [](CommandGenerator &g) { return Args{"GETSET", g.key(), g.value()}; },
    [](CommandGenerator &g) { return Args{"GETDEL", g.key()}; },
    [](CommandGenerator &g) { return g.pick(2) ? Args{"GETEX", g.key(), "PERSIST"} : Args{"GETEX", g.key(), "EXAT", g.unixTime(false)}; },
    [](CommandGenerator &g) { return Args{"SETNX", g.key(), g.value()}; },
    [](CommandGenerator &g) { return Args{"MGET", g.key(), g.key(), g.key()}; },
    [](CommandGenerator &g) { return Args{"MSET", g.key(), g.value(), g.key(), g.value()}; },
    [](CommandGenerator &g) { return Args{"MSETNX", g.key(), g.value(), g.key(), g.value()}; },
    [](CommandGenerator &g) { return Args{"INCR", g.key()}; },
    [](CommandGenerator &g) { return Args{"DECR", g.key()}; },
    [](CommandGenerator &g) { return Args{"INCRBY", g.key(), g.integer()}; },
    [](CommandGenerator &g) { return Args{"DECRBY", g.key(), g.integer()}; },
    [](CommandGenerator &g) { return Args{"INCRBYFLOAT", g.key(), g.floatArg()}; },
    [](CommandGenerator &g) { return Args{"APPEND", g.key(), g.value()}; },
    [](CommandGenerator &g) { return Args{"STRLEN", g.key()}; },
    [](CommandGenerator &g) { return Args{"GETRANGE", g.key(), g.offset(), g.offset()}; },
    [](CommandGenerator &g) { return Args{"SETRANGE", g.key(), g.offset(), g.value()}; },
    [](CommandGenerator &g) { return Args{"OBJECT", "ENCODING", g.key()}; },
    /* Inside EXEC Redis also counts the queued argv's reference to a value
     * it just stored (an artifact of its argv objects): compare outside only. */
    [](CommandGenerator &g) { return g.inMulti() ? Args{"PING"} : Args{"OBJECT", "REFCOUNT", g.key()}; },
    /* keyspace */
    [](CommandGenerator &g) { return Args{"DEL", g.key(), g.key()}; },
    [](CommandGenerator &g) { return Args{"UNLINK", g.key()}; },
    [](CommandGenerator &g) { return Args{"EXISTS", g.key(), g.key(), g.key()}; },
    [](CommandGenerator &g) { return Args{"TYPE", g.key()}; },
    [](CommandGenerator &g) { return Args{"RENAME", g.key(), g.key()}; },
    [](CommandGenerator &g) { return Args{"RENAMENX", g.key(), g.key()}; },
    [](CommandGenerator &g) { return Args{"MOVE", g.key(), g.pick(2) ? "1" : "0"}; },
    [](CommandGenerator &g) { return g.pick(2) ? Args{"COPY", g.key(), g.key()} : Args{"COPY", g.key(), g.key(), "REPLACE"}; },
    [](CommandGenerator &g) { return Args{"SELECT", g.pick(4) ? "0" : "1"}; },
    [](CommandGenerator &) { return Args{"DBSIZE"}; },
    [](CommandGenerator &g) { return g.pick(30) ? Args{"PING"} : Args{"FLUSHDB"}; },
    /* expiry, with absolute times so replies do not depend on timing */
    [](CommandGenerator &g) { return Args{"EXPIREAT", g.key(), g.unixTime(false)}; },
    [](CommandGenerator &g) {
        static const std::vector<std::string> kFlags = {"NX", "XX", "GT", "LT"};
        return Args{"PEXPIREAT", g.key(), g.unixTime(true), kFlags[g.pick(kFlags.size())]};
    },
    [](CommandGenerator &g) { return Args{"EXPIRETIME", g.key()}; },
    [](CommandGenerator &g) { return Args{"PEXPIRETIME", g.key()}; },
    [](CommandGenerator &g) { return Args{"PERSIST", g.key()}; },
    /* lists, on the same keys: they collide with strings (WRONGTYPE on both
     * sides), get renamed, moved, copied and expired like any key */
    [](CommandGenerator &g) { return Args{"LPUSH", g.key(), g.value(), g.value()}; },
    [](CommandGenerator &g) { return Args{"RPUSH", g.key(), g.value()}; },
    [](CommandGenerator &g) { return Args{g.pick(2) ? "LPUSHX" : "RPUSHX", g.key(), g.value()}; },
    [](CommandGenerator &g) { return Args{"LINSERT", g.key(), g.pick(2) ? "BEFORE" : "AFTER", g.value(), g.value()}; },
    [](CommandGenerator &g) { return Args{"LLEN", g.key()}; },
    [](CommandGenerator &g) { return Args{"LINDEX", g.key(), g.offset()}; },
    [](CommandGenerator &g) { return Args{"LSET", g.key(), g.offset(), g.value()}; },
    [](CommandGenerator &g) { return Args{"LRANGE", g.key(), g.offset(), g.offset()}; },
    [](CommandGenerator &g) { return Args{"LTRIM", g.key(), g.offset(), g.offset()}; },
    [](CommandGenerator &g) { return Args{"LREM", g.key(), g.offset(), g.value()}; },
    [](CommandGenerator &g) { return g.pick(2) ? Args{"LPOP", g.key()} : Args{"LPOP", g.key(), g.integer()}; },
    [](CommandGenerator &g) { return g.pick(2) ? Args{"RPOP", g.key()} : Args{"RPOP", g.key(), g.integer()}; },
    [](CommandGenerator &g) { return Args{"RPOPLPUSH", g.key(), g.key()}; },
    [](CommandGenerator &g) { return Args{"LMOVE", g.key(), g.key(), g.pick(2) ? "LEFT" : "RIGHT", g.pick(2) ? "LEFT" : "RIGHT"}; },
    [](CommandGenerator &g) { return Args{"LPOS", g.key(), g.value(), "RANK", g.integer()}; },
    [](CommandGenerator &g) { return Args{"LMPOP", "2", g.key(), g.key(), g.pick(2) ? "LEFT" : "RIGHT", "COUNT", g.integer()}; },
    /* sets: only what replies in a fixed order (counts, membership, the
     * STORE forms; SPOP and SRANDMEMBER through their errors and count 0) */
    [](CommandGenerator &g) { return Args{"SADD", g.key(), g.value(), g.value(), g.value()}; },
    [](CommandGenerator &g) { return Args{"SREM", g.key(), g.value(), g.value()}; },
    [](CommandGenerator &g) { return Args{"SCARD", g.key()}; },
    [](CommandGenerator &g) { return Args{"SISMEMBER", g.key(), g.value()}; },
    [](CommandGenerator &g) { return Args{"SMISMEMBER", g.key(), g.value(), g.value()}; },
    [](CommandGenerator &g) { return Args{"SMOVE", g.key(), g.key(), g.value()}; },
    [](CommandGenerator &g) {
        static const std::vector<std::string> kStores = {"SINTERSTORE", "SUNIONSTORE", "SDIFFSTORE"};
        return Args{kStores[g.pick(kStores.size())], g.key(), g.key(), g.key()};
    },
    [](CommandGenerator &g) { return Args{"SINTERCARD", "2", g.key(), g.key(), "LIMIT", g.integer()}; },
    [](CommandGenerator &g) {
        static const std::vector<std::string> kCounts = {"0", "x", "1.5", "", "-9223372036854775808"};
        return Args{g.pick(2) ? "SPOP" : "SRANDMEMBER", g.key(), kCounts[g.pick(kCounts.size())]};
    },
    /* hashes: every command but the unordered replies (HGETALL, HKEYS,
     * HVALS) and the random ones (HRANDFIELD through its errors and count 0) */
    [](CommandGenerator &g) { return Args{"HSET", g.key(), g.value(), g.value(), g.value(), g.value()}; },
    [](CommandGenerator &g) { return Args{"HSETNX", g.key(), g.value(), g.value()}; },
    [](CommandGenerator &g) { return Args{"HMSET", g.key(), g.value(), g.value()}; },
    [](CommandGenerator &g) { return Args{"HGET", g.key(), g.value()}; },
    [](CommandGenerator &g) { return Args{"HMGET", g.key(), g.value(), g.value()}; },
    [](CommandGenerator &g) { return Args{"HDEL", g.key(), g.value(), g.value()}; },
    [](CommandGenerator &g) { return Args{"HLEN", g.key()}; },
    [](CommandGenerator &g) { return Args{"HEXISTS", g.key(), g.value()}; },
    [](CommandGenerator &g) { return Args{"HSTRLEN", g.key(), g.value()}; },
    [](CommandGenerator &g) { return Args{"HINCRBY", g.key(), g.value(), g.integer()}; },
    [](CommandGenerator &g) { return Args{"HINCRBYFLOAT", g.key(), g.value(), g.floatArg()}; },
    [](CommandGenerator &g) {
        static const std::vector<std::string> kCounts = {"0", "x", "1.5", ""};
        return Args{"HRANDFIELD", g.key(), kCounts[g.pick(kCounts.size())]};
    },
    /* sorted sets: their replies are ordered by score, then member */
    [](CommandGenerator &g) {
        static const std::vector<std::string> kFlags = {"NX", "XX", "GT", "LT", "CH", "INCR"};
        Args a{"ZADD", g.key()};
        for (size_t n = g.pick(3); n > 0; n--) a.push_back(kFlags[g.pick(kFlags.size())]);
        for (size_t n = 1 + g.pick(3); n > 0; n--) {
            a.push_back(g.memberScore());
            a.push_back(g.value());
        }
        return a;
    },
    [](CommandGenerator &g) { return Args{"ZINCRBY", g.key(), g.memberScore(), g.value()}; },
    [](CommandGenerator &g) { return Args{"ZREM", g.key(), g.value(), g.value()}; },
    [](CommandGenerator &g) { return Args{"ZCARD", g.key()}; },
    [](CommandGenerator &g) { return Args{"ZSCORE", g.key(), g.value()}; },
    [](CommandGenerator &g) { return Args{"ZMSCORE", g.key(), g.value(), g.value()}; },
    [](CommandGenerator &g) { return Args{g.pick(2) ? "ZRANK" : "ZREVRANK", g.key(), g.value()}; },
    [](CommandGenerator &g) { return Args{"ZCOUNT", g.key(), g.score(), g.score()}; },
    [](CommandGenerator &g) { return Args{"ZLEXCOUNT", g.key(), g.lexBound(), g.lexBound()}; },
    [](CommandGenerator &g) {
        static const std::vector<std::string> kOpts = {"BYSCORE", "BYLEX", "REV", "WITHSCORES", "LIMIT"};
        Args a{"ZRANGE", g.key()};
        bool lex = g.pick(4) == 0;
        a.push_back(lex ? g.lexBound() : g.pick(2) ? g.score() : g.offset());
        a.push_back(lex ? g.lexBound() : g.pick(2) ? g.score() : g.offset());
        for (size_t n = g.pick(4); n > 0; n--) {
            a.push_back(kOpts[g.pick(kOpts.size())]);
            if (a.back() == "LIMIT") {
                a.push_back(g.offset());
                a.push_back(g.offset());
            }
        }
        return a;
    },
    [](CommandGenerator &g) {
        Args a{g.pick(2) ? "ZRANGEBYSCORE" : "ZREVRANGEBYSCORE", g.key(), g.score(), g.score()};
        if (g.pick(2)) a.push_back("WITHSCORES");
        if (g.pick(2)) a.insert(a.end(), {"LIMIT", g.offset(), g.offset()});
        return a;
    },
    [](CommandGenerator &g) {
        Args a{g.pick(2) ? "ZRANGEBYLEX" : "ZREVRANGEBYLEX", g.key(), g.lexBound(), g.lexBound()};
        if (g.pick(2)) a.insert(a.end(), {"LIMIT", g.offset(), g.offset()});
        return a;
    },
    [](CommandGenerator &g) { return Args{"ZREVRANGE", g.key(), g.offset(), g.offset(), "WITHSCORES"}; },
    [](CommandGenerator &g) { return Args{"ZREMRANGEBYRANK", g.key(), g.offset(), g.offset()}; },
    [](CommandGenerator &g) { return Args{"ZREMRANGEBYSCORE", g.key(), g.score(), g.score()}; },
    [](CommandGenerator &g) { return Args{"ZREMRANGEBYLEX", g.key(), g.lexBound(), g.lexBound()}; },
    [](CommandGenerator &g) {
        Args a{g.pick(2) ? "ZPOPMIN" : "ZPOPMAX", g.key()};
        if (g.pick(2)) a.push_back(g.integer());
        return a;
    },
    [](CommandGenerator &g) { return Args{"ZMPOP", "2", g.key(), g.key(), g.minMax(), "COUNT", g.integer()}; },
    /* The blocking pops only inside MULTI, where they never block (outside,
     * a missing key would stall the pipeline until the timeout). */
    [](CommandGenerator &g) {
        if (!g.inMulti()) return Args{"ZCARD", g.key()};
        if (g.pick(2)) return Args{"BZMPOP", "0", "2", g.key(), g.key(), g.minMax(), "COUNT", g.integer()};
        return Args{g.pick(2) ? "BZPOPMIN" : "BZPOPMAX", g.key(), g.key(), g.pick(4) ? "0" : "-1"};
    },
    [](CommandGenerator &g) {
        static const std::vector<std::string> kStores = {"ZUNIONSTORE", "ZINTERSTORE", "ZDIFFSTORE"};
        static const std::vector<std::string> kAggregates = {"SUM", "MIN", "MAX", "AVG"};
        std::string cmd = kStores[g.pick(kStores.size())];
        Args a{cmd, g.key(), "2", g.key(), g.key()};
        if (cmd != "ZDIFFSTORE" && g.pick(2)) a.insert(a.end(), {"WEIGHTS", g.score(), g.score()});
        if (cmd != "ZDIFFSTORE" && g.pick(2)) a.insert(a.end(), {"AGGREGATE", kAggregates[g.pick(kAggregates.size())]});
        return a;
    },
    [](CommandGenerator &g) {
        static const std::vector<std::string> kOps = {"ZUNION", "ZINTER", "ZDIFF"};
        Args a{kOps[g.pick(kOps.size())], "2", g.key(), g.key()};
        if (g.pick(2)) a.push_back("WITHSCORES");
        return a;
    },
    [](CommandGenerator &g) { return Args{"ZINTERCARD", "2", g.key(), g.key(), "LIMIT", g.integer()}; },
    [](CommandGenerator &g) { return Args{"ZRANGESTORE", g.key(), g.key(), g.offset(), g.offset()}; },
    /* streams: explicit IDs only, so both servers hold the same entries;
     * the reads that block only inside MULTI, where they do not */
    [](CommandGenerator &g) {
        Args a{"XADD", g.streamKey()};
        if (g.pick(6) == 0) a.push_back("NOMKSTREAM");
        if (g.pick(4) == 0) {
            static const std::vector<std::string> kOps = {"=", "~", ""};
            a.push_back(g.pick(2) ? "MAXLEN" : "MINID");
            std::string op = kOps[g.pick(kOps.size())];
            if (!op.empty()) a.push_back(op);
            a.push_back(a[a.size() - (op.empty() ? 1 : 2)] == "MAXLEN" ? g.offset() : g.streamId());
            if (g.pick(4) == 0) a.insert(a.end(), {"LIMIT", g.integer()});
        }
        a.push_back(g.addId());
        for (size_t n = 1 + g.pick(2); n > 0; n--) {
            a.push_back(g.value());
            a.push_back(g.value());
        }
        return a;
    },
    [](CommandGenerator &g) {
        Args a{g.pick(2) ? "XRANGE" : "XREVRANGE", g.streamKey(), g.streamId(), g.streamId()};
        if (g.pick(2)) a.insert(a.end(), {"COUNT", g.integer()});
        return a;
    },
    [](CommandGenerator &g) { return Args{"XLEN", g.streamKey()}; },
    [](CommandGenerator &g) { return Args{"XDEL", g.streamKey(), g.streamId(), g.streamId()}; },
    [](CommandGenerator &g) {
        Args a{"XTRIM", g.streamKey(), g.pick(2) ? "MAXLEN" : "MINID"};
        if (g.pick(2)) a.push_back(g.pick(2) ? "~" : "=");
        a.push_back(a[2] == "MAXLEN" ? g.offset() : g.streamId());
        if (g.pick(4) == 0) a.insert(a.end(), {"LIMIT", g.integer()});
        return a;
    },
    [](CommandGenerator &g) {
        Args a{"XSETID", g.streamKey(), g.streamId()};
        if (g.pick(3) == 0) a.insert(a.end(), {"ENTRIESADDED", g.integer()});
        if (g.pick(3) == 0) a.insert(a.end(), {"MAXDELETEDID", g.streamId()});
        return a;
    },
    [](CommandGenerator &g) {
        Args a{"XREAD"};
        if (g.pick(2)) a.insert(a.end(), {"COUNT", g.integer()});
        if (g.inMulti() && g.pick(2)) a.insert(a.end(), {"BLOCK", g.pick(4) ? "0" : "-1"});
        a.insert(a.end(), {"STREAMS", g.streamKey(), g.streamKey(), g.readId(), g.pick(4) ? g.readId() : g.streamId()});
        return a;
    },
    [](CommandGenerator &g) {
        static const std::vector<std::string> kSubs = {"CREATE", "SETID", "DESTROY", "CREATECONSUMER", "DELCONSUMER"};
        std::string sub = kSubs[g.pick(kSubs.size())];
        Args a{"XGROUP", sub, g.streamKey(), g.group()};
        if (sub == "CREATE" || sub == "SETID") {
            a.push_back(g.pick(4) ? g.readId() : g.streamId());
            if (sub == "CREATE" && g.pick(2)) a.push_back("MKSTREAM");
        } else if (sub != "DESTROY") {
            a.push_back(g.consumer());
        }
        return a;
    },
    [](CommandGenerator &g) {
        Args a{"XREADGROUP", "GROUP", g.group(), g.consumer()};
        if (g.pick(2)) a.insert(a.end(), {"COUNT", g.integer()});
        if (g.pick(4) == 0) a.push_back("NOACK");
        if (g.inMulti() && g.pick(2)) a.insert(a.end(), {"BLOCK", "0"});
        a.insert(a.end(), {"STREAMS", g.streamKey(), g.pick(3) ? ">" : g.pick(2) ? "0" : g.streamId()});
        return a;
    },
    [](CommandGenerator &g) { return Args{"XACK", g.streamKey(), g.group(), g.streamId(), g.streamId()}; },
    /* docs: COMMAND DOCS / INFO of commands and subcommands (containers
     * left out: their subcommands come in each server's table order) */
    [](CommandGenerator &g) {
        static const char *const names[] = {"get", "SET", "sort", "georadius", "bitfield", "pfadd", "restore",
                                            "fcall", "lcs", "zadd", "xadd", "client|kill", "config|set", "nosuch"};
        Args a{"COMMAND", g.pick(2) ? "DOCS" : "INFO"};
        for (size_t n = 1 + g.pick(3); n > 0; n--) a.push_back(names[g.pick(std::size(names))]);
        return a;
    },
    /* keyspace odds (issue 19): TOUCH, SWAPDB 0 1 now and then, DUMP of
     * strings only (their payloads are the same bytes on both servers; the
     * "dump" keys hold nothing else), RESTORE of fixed payloads (a string,
     * an intset, a Redis 7 quicklist) with the TTL and REPLACE variants, and
     * of a payload with one byte flipped */
    [](CommandGenerator &g) {
        if (g.pick(20) == 0) return Args{"SWAPDB", "0", "1"};
        return Args{"TOUCH", g.key(), g.key()};
    },
    [](CommandGenerator &g) {
        std::string key = "dump" + std::to_string(g.pick(3));
        if (g.pick(2)) return Args{"SET", key, g.value()};
        return Args{"DUMP", key};
    },
    [](CommandGenerator &g) {
        std::string payload = dumpPayload(g.pick(3));
        if (g.pick(6) == 0) payload[g.pick(payload.size())] ^= 0x10;
        static const std::vector<Args> kTtls = {{"0"}, {"0", "REPLACE"}, {"1", "ABSTTL"}, {"1", "ABSTTL", "REPLACE"},
                                                 {"99999999999999", "ABSTTL"}, {"-1"}, {"0", "IDLETIME", "10"},
                                                 {"0", "FREQ", "300"}};
        const Args &ttl = kTtls[g.pick(kTtls.size())];
        Args a{"RESTORE", g.key(), ttl[0], payload};
        a.insert(a.end(), ttl.begin() + 1, ttl.end());
        return a;
    },
    /* SORT and SORT_RO (sort.cpp), deterministic output only: a set's
     * native order is its hash table's, so BY nosort comes with STORE
     * (which sorts a set ALPHA); ALPHA ties under BY keep the input order,
     * a hash table's again, so BY patterns sort by number (whose ties are
     * ordered by the elements' bytes). BY k* makes elements name the
     * shared keys. */
    [](CommandGenerator &g) {
        bool store = g.pick(3) == 0, ro = !store && g.pick(3) == 0;
        Args a{ro ? "SORT_RO" : "SORT", g.key()};
        static const std::vector<std::string> kBy = {"k*", "k*->1", "k*->abc", "nosort"};
        std::string by = kBy[g.pick(store ? kBy.size() : kBy.size() - 1)];
        bool use_by = g.pick(3) == 0;
        if (use_by) a.insert(a.end(), {"BY", by});
        if (!use_by && g.pick(2)) a.push_back("ALPHA");
        if (g.pick(3) == 0) a.insert(a.end(), {"LIMIT", g.offset(), g.pick(2) ? g.offset() : g.integer()});
        static const std::vector<std::string> kGet = {"#", "k*", "k*->1", "nokey"};
        for (size_t n = g.pick(4) == 0 ? 1 + g.pick(2) : 0; n > 0; n--)
            a.insert(a.end(), {"GET", kGet[g.pick(kGet.size())]});
        if (g.pick(2)) a.push_back(g.pick(2) ? "ASC" : "DESC");
        if (store) a.insert(a.end(), {"STORE", g.key()});
        return a;
    },
    [](CommandGenerator &g) {
        return Args{"COMMAND", "GETKEYS", "SORT", g.key(), g.pick(2) ? "LIMIT" : "GET", g.key(),
                    "STORE", g.key(), "BY", "STORE", g.key()};
    },
    /* geo (geo.cpp): points on the shared keys, from a few spots (the
     * antimeridian, the poles' limits) and the refused; searches sorted
     * ASC or DESC, so the order is the distance's. */
    [](CommandGenerator &g) {
        Args a{"GEOADD", g.key()};
        if (g.pick(4) == 0) a.push_back(g.pick(2) ? "NX" : "XX");
        if (g.pick(4) == 0) a.push_back("CH");
        for (size_t n = 1 + g.pick(3); n; n--) {
            auto [lon, lat] = g.geoPoint();
            a.insert(a.end(), {lon, lat, g.geoMember()});
        }
        return a;
    },
    [](CommandGenerator &g) { return Args{"GEOPOS", g.key(), g.geoMember(), g.geoMember()}; },
    [](CommandGenerator &g) { return Args{"GEOHASH", g.key(), g.geoMember(), g.geoMember()}; },
    [](CommandGenerator &g) {
        Args a{"GEODIST", g.key(), g.geoMember(), g.geoMember()};
        if (g.pick(2)) a.push_back(g.geoUnit());
        return a;
    },
    [](CommandGenerator &g) {
        Args a{"GEOSEARCH", g.key()};
        if (g.pick(2)) {
            a.insert(a.end(), {"FROMMEMBER", g.geoMember()});
        } else {
            auto [lon, lat] = g.geoPoint();
            a.insert(a.end(), {"FROMLONLAT", lon, lat});
        }
        if (g.pick(2)) a.insert(a.end(), {"BYRADIUS", g.geoDistance(), g.geoUnit()});
        else a.insert(a.end(), {"BYBOX", g.geoDistance(), g.geoDistance(), g.geoUnit()});
        a.push_back(g.pick(2) ? "ASC" : "DESC");
        if (g.pick(2)) a.push_back("WITHDIST");
        if (g.pick(3) == 0) a.push_back("WITHCOORD");
        if (g.pick(3) == 0) a.push_back("WITHHASH");
        return a;
    },
    /* HyperLogLog: on the shared keys (a string that is no HLL, another
     * type); GET shows the HLL's bytes, which must be Redis's */
    [](CommandGenerator &g) {
        Args a{"PFADD", g.key()};
        for (size_t n = g.pick(4); n > 0; n--) a.push_back(g.value());
        return a;
    },
    [](CommandGenerator &g) {
        Args a{"PFCOUNT", g.key()};
        for (size_t n = g.pick(3); n > 0; n--) a.push_back(g.key());
        return a;
    },
    [](CommandGenerator &g) {
        Args a{"PFMERGE", g.key()};
        for (size_t n = g.pick(3); n > 0; n--) a.push_back(g.key());
        return a;
    },
    [](CommandGenerator &g) {
        static const std::vector<std::string> kSubs = {"ENCODING", "DECODE", "TODENSE", "NOSUCH"};
        return Args{"PFDEBUG", kSubs[g.pick(kSubs.size())], g.key()};
    },
    /* functions: two libraries of one function each (so FUNCTION LIST has
     * no hash order to differ in), loaded with REPLACE or deleted now and
     * then; FCALL/FCALL_RO on the shared keys, a missing function, a bad
     * numkeys, and FUNCTION LIST WITHCODE of one library */
    [](CommandGenerator &g) {
        static const std::vector<std::string> kLibs = {
            "#!lua name=difflib\nredis.register_function('dset', function(keys, args) "
            "return redis.call('set', keys[1], args[1]) end)",
            "#!lua name=difflib2\nredis.register_function{function_name='dget', flags={'no-writes'}, "
            "description='get', callback=function(keys) return redis.call('get', keys[1]) end}"};
        if (g.pick(4) == 0) return Args{"FUNCTION", "DELETE", g.pick(2) ? "difflib" : "difflib2"};
        return Args{"FUNCTION", "LOAD", "REPLACE", kLibs[g.pick(kLibs.size())]};
    },
    [](CommandGenerator &g) { return Args{"FCALL", "dset", "1", g.key(), g.value()}; },
    [](CommandGenerator &g) { return Args{g.pick(2) ? "FCALL" : "FCALL_RO", g.pick(2) ? "dget" : "dset", "1", g.key(), g.value()}; },
    [](CommandGenerator &g) { return Args{"FCALL", g.pick(2) ? "nosuchfn" : "dget", g.pick(2) ? "x" : "2", g.key()}; },
    [](CommandGenerator &g) {
        return Args{"FUNCTION", "LIST", "LIBRARYNAME", g.pick(2) ? "difflib" : "difflib2", "WITHCODE"};
    },
    /* bitmaps and LCS (bitops.cpp, t_string.cpp): small offsets, so the
     * strings stay short; BITOP's destination among the shared keys */
    [](CommandGenerator &g) { return Args{"SETBIT", g.key(), g.bitOffset(), g.pick(6) ? std::to_string(g.pick(2)) : g.integer()}; },
    [](CommandGenerator &g) { return Args{"GETBIT", g.key(), g.bitOffset()}; },
    [](CommandGenerator &g) {
        Args a{"BITCOUNT", g.key()};
        if (g.pick(3)) a.insert(a.end(), {g.offset(), g.offset()});
        if (g.pick(3) == 0) a.push_back(g.bitUnit());
        return a;
    },
    [](CommandGenerator &g) {
        Args a{"BITPOS", g.key(), g.pick(8) ? std::to_string(g.pick(2)) : g.integer()};
        for (size_t n = g.pick(4); n > 0; n--) a.push_back(a.size() == 5 ? g.bitUnit() : g.offset());
        return a;
    },
    [](CommandGenerator &g) {
        static const std::vector<std::string> kOps = {"AND", "or", "XOR", "NOT", "nand"};
        Args a{"BITOP", kOps[g.pick(kOps.size())], g.key()};
        for (size_t n = 1 + (a[1] == "NOT" && g.pick(4) ? 0 : g.pick(3)); n > 0; n--) a.push_back(g.key());
        return a;
    },
    [](CommandGenerator &g) {
        static const std::vector<std::string> kSubs = {"GET", "SET", "INCRBY", "OVERFLOW"};
        static const std::vector<std::string> kOverflows = {"WRAP", "SAT", "FAIL", "x"};
        bool ro = g.pick(4) == 0;
        Args a{ro ? "BITFIELD_RO" : "BITFIELD", g.key()};
        for (size_t n = g.pick(4); n > 0; n--) {
            std::string sub = kSubs[g.pick(ro && g.pick(2) ? 1 : kSubs.size())];
            a.push_back(sub);
            if (sub == "OVERFLOW") {
                a.push_back(kOverflows[g.pick(kOverflows.size())]);
                continue;
            }
            a.insert(a.end(), {g.bitfieldType(), g.pick(3) ? g.bitOffset() : "#" + std::to_string(g.pick(4))});
            if (sub != "GET") a.push_back(g.pick(2) ? g.integer() : g.value());
        }
        return a;
    },
    [](CommandGenerator &g) {
        Args a{"LCS", g.key(), g.key()};
        static const std::vector<std::string> kOpts = {"LEN", "IDX", "WITHMATCHLEN", "MINMATCHLEN", "x"};
        for (size_t n = g.pick(4); n > 0; n--) {
            a.push_back(kOpts[g.pick(kOpts.size())]);
            if (a.back() == "MINMATCHLEN" && g.pick(6)) a.push_back(g.offset());
        }
        return a;
    },
    [](CommandGenerator &g) { return Args{"SUBSTR", g.key(), g.offset(), g.offset()}; },
    /* resp3-proto: sharded pub/sub with nobody subscribed (the generator's
     * connections never subscribe), so every count is 0 on both servers */
    [](CommandGenerator &g) { return Args{"SPUBLISH", g.key(), g.value()}; },
    [](CommandGenerator &g) {
        return g.pick(2) ? Args{"PUBSUB", "SHARDNUMSUB", g.key(), g.key()} : Args{"PUBSUB", "SHARDCHANNELS", "k*"};
    },
    /* info (issue 20): the INFO selections whose text is the same on both
     * servers (an unknown section selects nothing) */
    [](CommandGenerator &g) {
        static const std::vector<std::string> kSections = {"cluster", "CLUSTER", "modules", "module_list",
                                                           "nosuchsection"};
        return Args{"INFO", kSections[g.pick(kSections.size())]};
    },
    /* client-side caching (tracking): the modes, CACHING and their errors on
     * the generator's own connection. OPTIN always, so that only a read
     * after CACHING yes is remembered; BCAST only where it is refused (its
     * messages leave once per event-loop iteration, which the two servers
     * need not cut a batch into alike); REDIRECT only to a missing client
     * (IDs differ). */
    [](CommandGenerator &g) {
        static const std::vector<std::string> kOpts = {"OPTOUT", "NOLOOP", "PREFIX", "REDIRECT", "optin", "x"};
        Args a{"CLIENT", "TRACKING", g.pick(3) ? "on" : "off", "OPTIN"};
        for (size_t n = g.pick(3); n > 0; n--) {
            a.push_back(kOpts[g.pick(kOpts.size())]);
            if (a.back() == "PREFIX") a.push_back(g.key());
            if (a.back() == "REDIRECT") a.push_back(g.pick(2) ? "999999" : "x");
        }
        if (g.pick(8) == 0) a.push_back("BCAST");
        return a;
    },
    [](CommandGenerator &g) {
        static const std::vector<std::string> kArgs = {"yes", "no", "YES", "maybe"};
        return Args{"CLIENT", "CACHING", kArgs[g.pick(kArgs.size())]};
    },
    [](CommandGenerator &g) { return Args{"CLIENT", g.pick(2) ? "GETREDIR" : "TRACKINGINFO"}; },
    /* resp3-types: replies RESP3 types as sets ("~"), read from an intset,
     * whose order is the same in both servers; SRANDMEMBER's whole set
     * stays an array */
    [](CommandGenerator &g) { return Args{"SADD", "si", std::to_string(g.pick(20))}; },
    [](CommandGenerator &g) {
        static const std::vector<std::string> kReads = {"SMEMBERS", "SUNION", "SDIFF", "SINTER"};
        return Args{kReads[g.pick(kReads.size())], "si"};
    },
    [](CommandGenerator &) { return Args{"SRANDMEMBER", "si", "50"}; },
    /* clients (issue 20): CLIENT NO-EVICT and CLIENT REPLY ON, and CLIENT
     * PAUSE's errors (a pause of 0 ms ends at once). */
    [](CommandGenerator &g) {
        static const std::vector<std::string> kModes = {"on", "OFF", "x"};
        static const std::vector<std::string> kTimeouts = {"0", "-1", "x", "0.5"};
        static const std::vector<std::string> kPauses = {"WRITE", "all", "x"};
        switch (g.pick(3)) {
        case 0: return Args{"CLIENT", "NO-EVICT", kModes[g.pick(kModes.size())]};
        case 1: return Args{"CLIENT", "REPLY", "ON"};
        default: {
            Args a{"CLIENT", "PAUSE", kTimeouts[g.pick(kTimeouts.size())]};
            if (g.pick(2)) a.push_back(kPauses[g.pick(kPauses.size())]);
            return a;
        }
        }
    },
    /* lazyfree: the lazy paths reply as the eager ones */
    [](CommandGenerator &g) { return g.pick(30) ? Args{"PING"} : Args{"FLUSHDB", "ASYNC"}; },
    [](CommandGenerator &g) {
        static const std::vector<std::string> kOptions = {"lazyfree-lazy-server-del", "lazyfree-lazy-user-del",
                                                          "lazyfree-lazy-expire", "lazyfree-lazy-user-flush"};
        return Args{"CONFIG", "SET", kOptions[g.pick(kOptions.size())], g.pick(2) ? "yes" : "no"};
    },
    /* slowlog-latency: the answers that do not depend on how long commands
     * took (the monitor is off, latency-monitor-threshold 0) */
    [](CommandGenerator &g) {
        static const std::vector<Args> kFixed = {
            {"SLOWLOG", "HELP"},           {"SLOWLOG", "GET", "-2"},          {"SLOWLOG", "GET", "x"},
            {"LATENCY", "HELP"},           {"LATENCY", "LATEST"},             {"LATENCY", "DOCTOR"},
            {"LATENCY", "HISTORY", "command"}, {"LATENCY", "GRAPH", "command"}, {"LATENCY", "RESET", "command"},
            {"LATENCY", "HISTOGRAM", "nosuch"}};
        return kFixed[g.pick(kFixed.size())];
    },
    /* the keys ACL would check: numkeys counts of every kind, STREAMS
     * keywords anywhere (a key or a group may be named "streams") */
    [](CommandGenerator &g) {
        return Args{"COMMAND", g.pick(2) ? "GETKEYS" : "GETKEYSANDFLAGS", "ZUNIONSTORE", g.key(), g.integer(), g.key(), g.key()};
    },
    [](CommandGenerator &g) {
        Args a{"COMMAND", g.pick(2) ? "GETKEYS" : "GETKEYSANDFLAGS", g.pick(2) ? "XREAD" : "EVAL"};
        for (size_t n = 2 + g.pick(5); n > 0; n--) a.push_back(g.pick(3) ? g.key() : g.pick(2) ? "STREAMS" : g.integer());
        return a;
    },
    /* errors */
    [](CommandGenerator &g) { return Args{"GET", g.key(), "extra"}; },
    [](CommandGenerator &g) { return Args{"NOSUCHCOMMAND", g.key()}; },
};

/* The compact encodings' names are the one place the servers differ by
 * design: cppredis keeps Redis 2.6's ziplist/linkedlist, Redis 7 has a
 * quicklist for lists and a listpack for small hashes and sorted sets (the
 * same limits as cppredis's ziplist, so hashtable and skiplist must match).
 * OBJECT ENCODING's answer is masked wherever it appears (inside an EXEC
 * reply too); no generated value spells an encoding name. */
std::string comparable(std::string raw) {
    for (std::string_view name :
         {"$7\r\nziplist\r\n", "$10\r\nlinkedlist\r\n", "$9\r\nquicklist\r\n", "$8\r\nlistpack\r\n"})
        for (size_t at; (at = raw.find(name)) != std::string::npos;) raw.replace(at, name.size(), "<compact encoding>");
    return itest::escape(raw);
}

/* Runs `count` generated commands on both servers in pipelined batches and
 * stops at the first reply that differs, naming the command. `resp` is the
 * protocol both connections speak (HELLO 3 first for RESP3). */
void runDifferential(uint64_t seed, int count, int resp = 2) {
    itest::TestServer ours;
    itest::RedisReference ref;
    itest::RespConn a = ours.connect(), b = ref.connect();
    if (resp == 3) {
        ASSERT_EQ(a.call({"HELLO", "3"}).type, itest::Reply::Type::Map);
        ASSERT_EQ(b.call({"HELLO", "3"}).type, itest::Reply::Type::Map);
    }
    CommandGenerator gen(seed);
    constexpr int kBatch = 64;
    for (int done = 0; done < count; done += kBatch) {
        std::vector<Args> batch;
        std::string wire;
        for (int i = 0; i < kBatch; i++) {
            batch.push_back(gen.next());
            wire += itest::encodeCommand(batch.back());
        }
        a.send(wire);
        b.send(wire);
        for (int i = 0; i < kBatch; i++) {
            itest::Reply ra = a.readReply(), rb = b.readReply();
            ASSERT_EQ(comparable(ra.raw), comparable(rb.raw))
                << "RESP" << resp << ", seed " << seed << ", command #" << done + i << ": "
                << itest::describe(batch[i]);
        }
    }
}

class Differential : public ::testing::TestWithParam<uint64_t> {};

TEST_P(Differential, StringListSetHashZsetStreamKeyspaceExpiryAndTransactionCommands) {
    REQUIRE_REDIS_REFERENCE();
    runDifferential(GetParam(), 4000);
}

/* The same stream over RESP3 connections on both sides: every reply typed
 * as Redis 7.0 types it (nulls, doubles, sets, maps, score pairs). */
TEST_P(Differential, SameCommandsOverResp3) {
    REQUIRE_REDIS_REFERENCE();
    runDifferential(GetParam(), 4000, 3);
}

INSTANTIATE_TEST_SUITE_P(Seeds, Differential, ::testing::Values(1, 2, 3, 42, 2026));

}  // namespace
