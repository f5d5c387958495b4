/* introspection_test.cpp — integration tests of what clients and learners use
 * to look inside the server (issue 3): OBJECT ENCODING|REFCOUNT|IDLETIME|FREQ|
 * HELP, DEBUG OBJECT, MEMORY USAGE, the INFO fields that count keyspace work,
 * and CLIENT LIST's db=/cmd=/age=/idle=.
 *
 * Expected bytes come from Debian's Redis 7.0.15; where Redis is installed
 * the deterministic replies are also compared with it byte for byte (and
 * MEMORY USAGE too when both servers use jemalloc, so sizes are comparable).
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

/* "k1:v1 k2:v2 ..." (DEBUG OBJECT's words after "Value ") as a map. */
std::map<std::string, std::string> debugFields(std::string_view line) {
    std::map<std::string, std::string> out;
    size_t pos = 0;
    while (pos < line.size()) {
        size_t end = line.find(' ', pos);
        if (end == std::string_view::npos) end = line.size();
        std::string_view word = line.substr(pos, end - pos);
        size_t colon = word.find(':');
        EXPECT_NE(colon, std::string_view::npos) << "field without ':': " << word;
        if (colon != std::string_view::npos)
            out[std::string(word.substr(0, colon))] = std::string(word.substr(colon + 1));
        pos = end + 1;
    }
    return out;
}

/* 64 distinct characters: no 3-byte sequence repeats, so Redis's LZF cannot
 * shrink it and its serializedlength is the plain length + bytes. */
const std::string kIncompressible64 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+/";

const std::string kObjectHelp =
    "*15\r\n+OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:\r\n+ENCODING <key>\r\n"
    "+    Return the kind of internal representation used in order to store the value\r\n"
    "+    associated with a <key>.\r\n+FREQ <key>\r\n"
    "+    Return the access frequency index of the <key>. The returned integer is\r\n"
    "+    proportional to the logarithm of the recent access frequency of the key.\r\n+IDLETIME <key>\r\n"
    "+    Return the idle time of the <key>, that is the approximated number of\r\n"
    "+    seconds elapsed since the last access to the key.\r\n+REFCOUNT <key>\r\n"
    "+    Return the number of references of the value associated with the specified\r\n"
    "+    <key>.\r\n+HELP\r\n+    Prints this help.\r\n";

const char *const kFreqError =
    "ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when "
    "switching between policies at runtime LRU and LFU data will take some time to adjust.";

}  // namespace

/* One cppredis (and, when installed, one Redis) for the whole suite; tests
 * use their own keys, and the server must still answer after each test. */
class Introspection : public SharedServerTest {
protected:
    static void SetUpTestSuite() {
        startSharedServer({.args = {"--enable-debug-command", "yes"}, .flushBeforeEachTest = false,
                           .withReference = true});
    }
};

/* ------------------------------------------------------------------------
 * OBJECT
 * ---------------------------------------------------------------------- */

TEST_F(Introspection, ObjectEncodingFollowsTheStringEncodings) {
    RespConn c = conn();
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"123", "int"},
        {"-9223372036854775808", "int"},
        {"12345678901", "int"},
        {"hello", "embstr"},
        {std::string(44, 'e'), "embstr"},
        {std::string(45, 'r'), "raw"},
        {"007", "embstr"}, /* not canonical: stays a string */
    };
    for (const auto &[value, encoding] : cases) {
        ASSERT_EQ(c.call({"SET", "enc", value}).raw, "+OK\r\n");
        EXPECT_EQ(c.call({"OBJECT", "ENCODING", "enc"}).str, encoding) << "value " << value;
    }
    EXPECT_EQ(c.call({"object", "encoding", "enc:missing"}).raw, "$-1\r\n");
}

TEST_F(Introspection, ObjectRefcountShowsSharedIntegers) {
    RespConn c = conn();
    ASSERT_EQ(c.call({"SET", "rc:shared", "123"}).raw, "+OK\r\n");
    ASSERT_EQ(c.call({"SET", "rc:int", "12345678901"}).raw, "+OK\r\n");
    ASSERT_EQ(c.call({"SET", "rc:str", "hello"}).raw, "+OK\r\n");
    EXPECT_EQ(c.call({"OBJECT", "REFCOUNT", "rc:shared"}).raw, ":2147483647\r\n");
    EXPECT_EQ(c.call({"OBJECT", "REFCOUNT", "rc:int"}).raw, ":1\r\n");
    EXPECT_EQ(c.call({"OBJECT", "REFCOUNT", "rc:str"}).raw, ":1\r\n");
    EXPECT_EQ(c.call({"OBJECT", "REFCOUNT", "rc:missing"}).raw, "$-1\r\n");
}

/* The LRU clock has a resolution of one second, so time must pass: DEBUG
 * SLEEP stops the server itself for 1.1 s, which is exactly that. */
TEST_F(Introspection, ObjectIdletimeGrowsAndObjectDoesNotTouchTheKey) {
    RespConn c = conn();
    ASSERT_EQ(c.call({"SET", "idle", "some string"}).raw, "+OK\r\n");
    /* The clock ticks whole seconds: a tick may fall between two commands. */
    EXPECT_LE(c.call({"OBJECT", "IDLETIME", "idle"}).integer, 1);
    ASSERT_EQ(c.call({"DEBUG", "SLEEP", "1.1"}).raw, "+OK\r\n");
    Reply first = c.call({"OBJECT", "IDLETIME", "idle"});
    ASSERT_EQ(first.type, Reply::Type::Integer) << first;
    EXPECT_GE(first.integer, 1);
    /* Neither OBJECT, DEBUG OBJECT nor MEMORY USAGE refreshed the clock... */
    c.call({"OBJECT", "ENCODING", "idle"});
    c.call({"DEBUG", "OBJECT", "idle"});
    c.call({"MEMORY", "USAGE", "idle"});
    EXPECT_GE(c.call({"OBJECT", "IDLETIME", "idle"}).integer, first.integer);
    /* ...but a read does. */
    ASSERT_EQ(c.call({"GET", "idle"}).str, "some string");
    EXPECT_LE(c.call({"OBJECT", "IDLETIME", "idle"}).integer, 1);
    EXPECT_EQ(c.call({"OBJECT", "IDLETIME", "idle:missing"}).raw, "$-1\r\n");
}

TEST_F(Introspection, ObjectFreqNeedsAnLfuPolicy) {
    RespConn c = conn();
    ASSERT_EQ(c.call({"SET", "freq", "v"}).raw, "+OK\r\n");
    EXPECT_EQ(c.call({"OBJECT", "FREQ", "freq"}).raw, err(kFreqError));
    /* The key is looked up first: a missing key is a null, not the error. */
    EXPECT_EQ(c.call({"OBJECT", "FREQ", "freq:missing"}).raw, "$-1\r\n");
}

TEST_F(Introspection, ObjectHelpAndArgumentErrors) {
    RespConn c = conn();
    EXPECT_EQ(c.call({"OBJECT", "HELP"}).raw, kObjectHelp);
    EXPECT_EQ(c.call({"object", "help"}).raw, kObjectHelp);
    EXPECT_EQ(c.call({"OBJECT", "HELP", "x"}).raw, err("ERR wrong number of arguments for 'object|help' command"));
    EXPECT_EQ(c.call({"OBJECT"}).raw, err("ERR wrong number of arguments for 'object' command"));
    EXPECT_EQ(c.call({"OBJECT", "ENCODING"}).raw,
              err("ERR wrong number of arguments for 'object|encoding' command"));
    EXPECT_EQ(c.call({"OBJECT", "ENCODING", "a", "b"}).raw,
              err("ERR wrong number of arguments for 'object|encoding' command"));
    EXPECT_EQ(c.call({"OBJECT", "REFCOUNT"}).raw,
              err("ERR wrong number of arguments for 'object|refcount' command"));
    EXPECT_EQ(c.call({"OBJECT", "foo", "k"}).raw, err("ERR unknown subcommand 'foo'. Try OBJECT HELP."));
}

TEST_F(Introspection, ObjectRepliesMatchRedis) {
    SKIP_UNLESS_PACKAGE("redis-server", haveRef());
    std::vector<Args> commands;
    const std::vector<std::string> values = {"0", "9999", "10000", "-1", "12345678901", "hello", "007",
                                             std::string(44, 'e'), std::string(45, 'r'), std::string("bi\0n", 4)};
    for (const std::string &v : values) {
        commands.push_back({"SET", "diff:obj", v});
        commands.push_back({"OBJECT", "ENCODING", "diff:obj"});
        commands.push_back({"OBJECT", "REFCOUNT", "diff:obj"});
        commands.push_back({"OBJECT", "FREQ", "diff:obj"});
    }
    for (const char *sub : {"ENCODING", "REFCOUNT", "IDLETIME", "FREQ"})
        commands.push_back({"OBJECT", sub, "diff:missing"});
    commands.push_back({"OBJECT", "HELP"});
    commands.push_back({"OBJECT", "Help", "extra"});
    commands.push_back({"OBJECT", "nosuch", "k"});
    expectSameAsRedis(commands);
}

/* ------------------------------------------------------------------------
 * DEBUG OBJECT
 * ---------------------------------------------------------------------- */

/* "Value at:0x... refcount:N encoding:E serializedlength:N lru:N lru_seconds_idle:N" */
std::map<std::string, std::string> debugObject(RespConn &c, const std::string &key) {
    Reply r = c.call({"DEBUG", "OBJECT", key});
    EXPECT_EQ(r.type, Reply::Type::Status) << r;
    std::string_view line = r.str;
    EXPECT_TRUE(line.starts_with("Value ")) << r;
    if (line.starts_with("Value ")) line.remove_prefix(6);
    auto fields = debugFields(line);
    std::vector<std::string> names;
    for (const auto &kv : fields) names.push_back(kv.first);
    EXPECT_EQ(names, (std::vector<std::string>{"at", "encoding", "lru", "lru_seconds_idle", "refcount",
                                               "serializedlength"}))
        << r;
    const std::string &at = fields["at"];
    EXPECT_TRUE(at.size() > 2 && at.starts_with("0x") &&
                at.find_first_not_of("0123456789abcdef", 2) == std::string::npos)
        << "address " << at;
    for (const char *n : {"refcount", "serializedlength", "lru", "lru_seconds_idle"})
        EXPECT_TRUE(isDigits(fields[n])) << n << " = " << fields[n];
    return fields;
}

TEST_F(Introspection, DebugObjectFormatAndFieldOrder) {
    RespConn c = conn();
    ASSERT_EQ(c.call({"SET", "dbg", "hello"}).raw, "+OK\r\n");
    Reply r = c.call({"DEBUG", "OBJECT", "dbg"});
    ASSERT_EQ(r.type, Reply::Type::Status) << r;
    /* The fields in Redis's order, as scripts that split the line expect. */
    size_t at = r.str.find(" refcount:1 encoding:embstr serializedlength:6 lru:");
    EXPECT_TRUE(r.str.starts_with("Value at:0x")) << r;
    EXPECT_NE(at, std::string::npos) << r;
    EXPECT_NE(r.str.find(" lru_seconds_idle:"), std::string::npos) << r;
    auto fields = debugObject(c, "dbg");
    EXPECT_LE(std::stoll(fields["lru_seconds_idle"]), 1);
    /* lru is the 24-bit clock in seconds, the same INFO reports as lru_clock. */
    long long clock = infoNumber(c, "server", "lru_clock");
    long long lru = std::stoll(fields["lru"]);
    EXPECT_LE(lru, clock);
    EXPECT_GE(lru, clock - 5);
}

TEST_F(Introspection, DebugObjectSerializedLengthIsTheRdbLength) {
    RespConn c = conn();
    const std::vector<std::tuple<std::string, std::string, std::string, std::string>> cases = {
        /* value, encoding, refcount, serializedlength */
        {"hello", "embstr", "1", "6"},                   /* 1-byte length + 5 */
        {"123", "int", "2147483647", "2"},               /* int8: type byte + 1 */
        {"-128", "int", "1", "2"},                       /* negatives are not shared */
        {"-129", "int", "1", "3"},                       /* int16 */
        {"100000", "int", "1", "5"},                     /* int32 */
        {"12345678901", "int", "1", "12"},               /* past 32 bits: its 11 digits */
        {"007", "embstr", "1", "4"},                     /* not canonical: a string */
        {kIncompressible64, "raw", "1", "66"},           /* 64 bytes: 2-byte length */
        {std::string("bi\0n", 4), "embstr", "1", "5"},
    };
    for (const auto &[value, encoding, refcount, len] : cases) {
        ASSERT_EQ(c.call({"SET", "dbg:len", value}).raw, "+OK\r\n");
        auto fields = debugObject(c, "dbg:len");
        EXPECT_EQ(fields["encoding"], encoding) << "value " << value;
        EXPECT_EQ(fields["refcount"], refcount) << "value " << value;
        EXPECT_EQ(fields["serializedlength"], len) << "value " << value;
    }
    /* A raw string that reads as a small integer is saved as the integer. */
    c.call({"DEL", "dbg:app"});
    ASSERT_EQ(c.call({"APPEND", "dbg:app", "12"}).raw, ":2\r\n");
    ASSERT_EQ(c.call({"APPEND", "dbg:app", "3"}).raw, ":3\r\n");
    auto fields = debugObject(c, "dbg:app");
    EXPECT_EQ(fields["encoding"], "raw");
    EXPECT_EQ(fields["serializedlength"], "2");
}

TEST_F(Introspection, DebugObjectErrorsAndHelp) {
    RespConn c = conn();
    EXPECT_EQ(c.call({"DEBUG", "OBJECT", "dbg:missing"}).raw, "-ERR no such key\r\n");
    EXPECT_EQ(c.call({"DEBUG", "OBJECT"}).raw,
              err("ERR unknown subcommand or wrong number of arguments for 'OBJECT'. Try DEBUG HELP."));
    EXPECT_EQ(c.call({"debug", "object", "a", "b"}).raw,
              err("ERR unknown subcommand or wrong number of arguments for 'object'. Try DEBUG HELP."));
    Reply help = c.call({"DEBUG", "HELP"});
    ASSERT_EQ(help.type, Reply::Type::Array) << help;
    std::vector<std::string> lines;
    for (const Reply &l : help.elements) lines.push_back(l.str);
    auto it = std::find(lines.begin(), lines.end(), "OBJECT <key>");
    ASSERT_NE(it, lines.end()) << help;
    ASSERT_NE(it + 1, lines.end());
    EXPECT_EQ(*(it + 1), "    Show low level info about `key` and associated value.");
}

/* serializedlength is the RDB length, LZF included for strings over 20
 * bytes that compress (44 'e's: 12). */
TEST_F(Introspection, DebugObjectFieldsMatchRedis) {
    SKIP_UNLESS_PACKAGE("redis-server", haveRef());
    RespConn ours = conn(), ref = refConn();
    const std::vector<std::string> values = {
        "0", "-1", "127", "128", "-32768", "32768", "2147483647", "2147483648", "-2147483648", "-2147483649",
        "9223372036854775807", "hello", "007", "+1", "", std::string(20, 'a'), kIncompressible64.substr(0, 44),
        kIncompressible64, std::string("bi\0n\r\n", 6), std::string(44, 'e'), std::string(21, 'e')};
    for (const std::string &v : values) {
        ASSERT_EQ(ours.call({"SET", "diff:dbg", v}).raw, "+OK\r\n");
        ASSERT_EQ(ref.call({"SET", "diff:dbg", v}).raw, "+OK\r\n");
        auto a = debugObject(ours, "diff:dbg"), b = debugObject(ref, "diff:dbg");
        for (const char *f : {"refcount", "encoding", "serializedlength"})
            EXPECT_EQ(a[f], b[f]) << f << " of \"" << escape(v) << "\" (ours, then Redis's)";
    }
    expectSameReplies(ours, ref, encodeCommand({"DEBUG", "OBJECT", "diff:missing"}));
    expectSameReplies(ours, ref, encodeCommand({"DEBUG", "OBJECT"}));
}

/* ------------------------------------------------------------------------
 * MEMORY USAGE
 * ---------------------------------------------------------------------- */

TEST_F(Introspection, MemoryUsageOfExistingAndMissingKeys) {
    RespConn c = conn();
    ASSERT_EQ(c.call({"SET", "mem:small", "hello"}).raw, "+OK\r\n");
    ASSERT_EQ(c.call({"SET", "mem:big", std::string(100000, 'x')}).raw, "+OK\r\n");
    Reply small = c.call({"MEMORY", "USAGE", "mem:small"});
    Reply big = c.call({"memory", "usage", "mem:big", "SAMPLES", "0"});
    ASSERT_EQ(small.type, Reply::Type::Integer) << small;
    ASSERT_EQ(big.type, Reply::Type::Integer) << big;
    /* robj + key + dictEntry at least; the big one holds its 100 KB. */
    EXPECT_GE(small.integer, 16 + 9 + 24);
    EXPECT_LT(small.integer, 200);
    EXPECT_GE(big.integer, 100000);
    EXPECT_LT(big.integer, 100000 + 200000 / 10);
    EXPECT_EQ(c.call({"MEMORY", "USAGE", "mem:missing"}).raw, "$-1\r\n");
    EXPECT_EQ(c.call({"MEMORY", "USAGE", "mem:missing", "samples", "5"}).raw, "$-1\r\n");
}

TEST_F(Introspection, MemoryArgumentErrorsAndHelp) {
    RespConn c = conn();
    /* Options are checked before the key is looked up, as Redis does. */
    EXPECT_EQ(c.call({"MEMORY", "USAGE", "mem:missing", "SAMPLES"}).raw, "-ERR syntax error\r\n");
    EXPECT_EQ(c.call({"MEMORY", "USAGE", "mem:missing", "SAMPLES", "-1"}).raw, "-ERR syntax error\r\n");
    EXPECT_EQ(c.call({"MEMORY", "USAGE", "mem:missing", "FOO", "1"}).raw, "-ERR syntax error\r\n");
    EXPECT_EQ(c.call({"MEMORY", "USAGE", "mem:missing", "SAMPLES", "x"}).raw,
              "-ERR value is not an integer or out of range\r\n");
    EXPECT_EQ(c.call({"MEMORY", "USAGE"}).raw, err("ERR wrong number of arguments for 'memory|usage' command"));
    EXPECT_EQ(c.call({"MEMORY"}).raw, err("ERR wrong number of arguments for 'memory' command"));
    EXPECT_EQ(c.call({"MEMORY", "foo"}).raw, err("ERR unknown subcommand 'foo'. Try MEMORY HELP."));
    /* MEMORY HELP: debug_test.cpp's MemoryHelp, against Redis. */
}

/* With the same allocator the figures are the same bytes as Redis's:
 * the same robj, sds and dictEntry layouts in the same size classes. */
TEST_F(Introspection, MemoryUsageMatchesRedisUnderJemalloc) {
    SKIP_UNLESS_PACKAGE("redis-server", haveRef());
    RespConn probe = conn();
    std::string ours = info(probe, {"memory"}).fields["mem_allocator"];
    if (!ours.starts_with("jemalloc")) GTEST_SKIP() << "cppredis runs on " << ours << ", sizes differ from jemalloc's";
    std::vector<Args> commands;
    int i = 0;
    const std::vector<std::string> values = {"1", "123", "12345678901", "hello", std::string(44, 'e'),
                                             std::string(45, 'r'), kIncompressible64, std::string(1000, 'z')};
    for (const std::string &v : values) {
        std::string key = "diff:mem:" + std::string(static_cast<size_t>(i++ * 7), 'k');
        commands.push_back({"SET", key, v});
        commands.push_back({"MEMORY", "USAGE", key});
    }
    commands.push_back({"MEMORY", "USAGE", "diff:mem:missing"});
    commands.push_back({"MEMORY", "USAGE", "diff:mem:missing", "SAMPLES", "x"});
    commands.push_back({"MEMORY", "USAGE", "diff:mem:missing", "SAMPLES", "-1"});
    expectSameAsRedis(commands);
}

/* ------------------------------------------------------------------------
 * INFO
 * ---------------------------------------------------------------------- */

TEST_F(Introspection, InfoStatsCountCommandsHitsAndMisses) {
    RespConn c = conn();
    ASSERT_EQ(c.call({"SET", "info:k", "v"}).raw, "+OK\r\n");
    auto before = info(c, {"stats"}).fields;
    for (const char *f : {"total_commands_processed", "instantaneous_ops_per_sec", "keyspace_hits",
                          "keyspace_misses", "expired_keys"})
        ASSERT_TRUE(before.count(f) && isDigits(before[f])) << "INFO stats lacks " << f;
    c.call({"GET", "info:k"});
    c.call({"GET", "info:k"});
    c.call({"GET", "info:missing"});
    auto after = info(c, {"stats"}).fields;
    EXPECT_EQ(std::stoll(after["keyspace_hits"]) - std::stoll(before["keyspace_hits"]), 2);
    EXPECT_EQ(std::stoll(after["keyspace_misses"]) - std::stoll(before["keyspace_misses"]), 1);
    /* The three GETs and the INFO before them (other tests run nothing meanwhile). */
    EXPECT_EQ(std::stoll(after["total_commands_processed"]) - std::stoll(before["total_commands_processed"]), 4);
}

TEST_F(Introspection, InfoKeyspaceListsNonEmptyDatabases) {
    RespConn c = conn();
    ASSERT_EQ(c.call({"SELECT", "9"}).raw, "+OK\r\n");
    ASSERT_EQ(c.call({"FLUSHDB"}).raw, "+OK\r\n");
    EXPECT_EQ(info(c, {"keyspace"}).fields.count("db9"), 0u) << "an empty database is not listed";
    ASSERT_EQ(c.call({"SET", "ks:a", "1"}).raw, "+OK\r\n");
    ASSERT_EQ(c.call({"SET", "ks:b", "2"}).raw, "+OK\r\n");
    ASSERT_EQ(c.call({"EXPIRE", "ks:b", "1000"}).raw, ":1\r\n");
    std::string db9 = info(c, {"keyspace"}).fields["db9"];
    EXPECT_TRUE(db9.starts_with("keys=2,expires=1,avg_ttl=")) << db9;
    EXPECT_TRUE(isDigits(db9.substr(db9.find("avg_ttl=") + 8))) << db9;
    ASSERT_EQ(c.call({"FLUSHDB"}).raw, "+OK\r\n");
}

/* used_memory is the allocator's count of live bytes, not an estimate: a
 * 4 MB value shows up in it, and its deletion gives it back. SETRANGE builds
 * the value inside the server, so no 4 MB query buffer blurs the figures. */
TEST_F(Introspection, InfoUsedMemoryFollowsRealAllocations) {
    RespConn c = conn();
    constexpr long long kSize = 4 << 20;
    long long before = infoNumber(c, "memory", "used_memory");
    ASSERT_EQ(c.call({"SETRANGE", "info:huge", std::to_string(kSize - 1), "m"}).raw,
              ":" + std::to_string(kSize) + "\r\n");
    long long with = infoNumber(c, "memory", "used_memory");
    EXPECT_GE(with - before, kSize);
    ASSERT_EQ(c.call({"DEL", "info:huge"}).raw, ":1\r\n");
    long long after = infoNumber(c, "memory", "used_memory");
    EXPECT_LE(after - before, kSize / 4) << "before " << before << ", with " << with << ", after " << after;
}

/* ------------------------------------------------------------------------
 * CLIENT LIST
 * ---------------------------------------------------------------------- */

/* The CLIENT LIST line of the connection whose local address is `addr`. */
ClientFields clientLine(RespConn &asker, const std::string &addr) { return clientListLine(asker, "addr", addr); }

TEST_F(Introspection, ClientListShowsDbCmdAgeAndIdle) {
    RespConn asker = conn(), other = conn();
    ASSERT_EQ(other.call({"PING"}).raw, "+PONG\r\n"); /* accepted and counted */
    auto fresh = clientLine(asker, other.localAddr());
    EXPECT_EQ(clientField(fresh, "cmd"), "ping");
    EXPECT_EQ(clientField(fresh, "db"), "0");
    const std::string age = clientField(fresh, "age"), idle = clientField(fresh, "idle");
    EXPECT_TRUE(isDigits(age) && isDigits(idle)) << age << " " << idle;

    ASSERT_EQ(other.call({"SELECT", "3"}).raw, "+OK\r\n");
    ASSERT_EQ(other.call({"GET", "cl:nothing"}).raw, "$-1\r\n");
    auto line = clientLine(asker, other.localAddr());
    EXPECT_EQ(clientField(line, "db"), "3");
    EXPECT_EQ(clientField(line, "cmd"), "get");

    /* Subcommands show as container|sub, the asker's own line included. */
    ASSERT_EQ(other.call({"OBJECT", "ENCODING", "cl:nothing"}).raw, "$-1\r\n");
    EXPECT_EQ(clientField(clientLine(asker, other.localAddr()), "cmd"), "object|encoding");
    EXPECT_EQ(clientField(clientLine(asker, asker.localAddr()), "cmd"), "client|list");
}

TEST_F(Introspection, ClientListIdleCountsSecondsSinceLastCommand) {
    RespConn asker = conn(), other = conn();
    ASSERT_EQ(other.call({"PING"}).raw, "+PONG\r\n");
    /* DEBUG SLEEP stops the server's clock-reading loop for 1.1 s. */
    ASSERT_EQ(asker.call({"DEBUG", "SLEEP", "1.1"}).raw, "+OK\r\n");
    auto line = clientLine(asker, other.localAddr());
    EXPECT_GE(std::stoll(clientField(line, "idle")), 1);
    EXPECT_GE(std::stoll(clientField(line, "age")), 1);
    EXPECT_EQ(clientField(clientLine(asker, asker.localAddr()), "idle"), "0");
}

/* Pre-encoded errors (WRONGTYPE, "no such key"...) count like any error:
 * INFO's total_error_replies and the command's failed_calls, as Redis's
 * addReplyErrorObject. */
TEST_F(Introspection, SharedErrorRepliesCountAsErrors) {
    RespConn c = conn();
    ASSERT_EQ(c.call({"SET", "errstat:s", "abc"}).raw, OK);
    ASSERT_EQ(c.call({"CONFIG", "RESETSTAT"}).raw, OK);
    EXPECT_EQ(c.call({"LPUSH", "errstat:s", "x"}).raw, WRONGTYPE);
    EXPECT_EQ(c.call({"LSET", "errstat:missing", "0", "x"}).raw, "-ERR no such key\r\n");
    EXPECT_EQ(infoNumber(c, "stats", "total_error_replies"), 2);
    const std::string stats = c.call({"INFO", "commandstats"}).str;
    for (const char *cmd : {"lpush", "lset"}) {
        size_t at = stats.find(std::string("cmdstat_") + cmd + ":calls=1,");
        ASSERT_NE(at, std::string::npos) << stats;
        EXPECT_TRUE(stats.substr(at, stats.find("\r\n", at) - at).ends_with(",failed_calls=1")) << stats;
    }
}

namespace {

/* The commands COMMAND LIST names, cppredis's own (TRACE, livetrace_output.h) left
 * out: they have no Redis counterpart to compare with. */
std::vector<std::string> commandsRedisHas(RespConn &c) {
    std::vector<std::string> names;
    for (const Reply &name : c.call({"COMMAND", "LIST"}).elements)
        if (name.str != "trace" && !name.str.starts_with("trace|")) names.push_back(name.str);
    return names;
}

/* The subcommands of Redis 7.0 that cppredis lacks: the Lua debugger.
 * Their containers' replies are compared without them. */
const std::set<std::string> kSubcommandsCppredisLacks = {"script|debug"};

/* A COMMAND INFO entry with its subcommands' entries sorted: Redis lists
 * them in its hash table's order, cppredis in its table's. */
std::string infoWithSortedSubcommands(const Reply &entry) {
    if (entry.elements.size() != 10) return entry.raw;
    std::string out = "*10\r\n";
    for (size_t i = 0; i < 9; i++) out += entry.elements[i].raw;
    std::vector<std::string> subs;
    for (const Reply &sub : entry.elements[9].elements)
        if (!kSubcommandsCppredisLacks.contains(sub.elements.at(0).str)) subs.push_back(sub.raw);
    std::sort(subs.begin(), subs.end());
    out += "*" + std::to_string(subs.size()) + "\r\n";
    for (const std::string &sub : subs) out += sub;
    return out;
}

/* A COMMAND DOCS map (RESP2: name, value...) with its "subcommands" map
 * sorted by name, for the same reason. */
std::string docsWithSortedSubcommands(const Reply &map) {
    std::string out = "*" + std::to_string(map.elements.size()) + "\r\n";
    for (size_t i = 0; i + 1 < map.elements.size(); i += 2) {
        out += map.elements[i].raw;
        if (map.elements[i].str != "subcommands") {
            out += map.elements[i + 1].raw;
            continue;
        }
        const Reply &subs = map.elements[i + 1];
        std::vector<std::string> entries;
        for (size_t j = 0; j + 1 < subs.elements.size(); j += 2)
            if (!kSubcommandsCppredisLacks.contains(subs.elements[j].str))
                entries.push_back(subs.elements[j].raw + docsWithSortedSubcommands(subs.elements[j + 1]));
        std::sort(entries.begin(), entries.end());
        out += "*" + std::to_string(2 * entries.size()) + "\r\n";
        for (const std::string &entry : entries) out += entry;
    }
    return out;
}

}  // namespace

/* COMMAND INFO is what client libraries read to route and classify
 * commands: for every command and subcommand cppredis has, the same bytes
 * as Redis 7 (flags, arity, key positions, ACL categories, tips, key
 * specs, subcommands, these in any order). */
TEST_F(Introspection, CommandInfoMatchesRedisForEveryCommand) {
    SKIP_UNLESS_PACKAGE("redis-server", haveRef());
    RespConn c = conn(), ref = refConn();
    for (const std::string &name : kSubcommandsCppredisLacks) {
        EXPECT_EQ(c.call({"COMMAND", "INFO", name}).raw, "*1\r\n$-1\r\n") << name << " now exists: compare it";
        EXPECT_NE(ref.call({"COMMAND", "INFO", name}).raw, "*1\r\n$-1\r\n") << name;
    }
    const std::vector<std::string> names = commandsRedisHas(c);
    ASSERT_GT(names.size(), 250u);
    for (const std::string &name : names) {
        Reply ours = c.call({"COMMAND", "INFO", name}), theirs = ref.call({"COMMAND", "INFO", name});
        ASSERT_EQ(ours.elements.size(), 1u) << name;
        ASSERT_EQ(theirs.elements.size(), 1u) << name;
        EXPECT_EQ(infoWithSortedSubcommands(ours.elements[0]), infoWithSortedSubcommands(theirs.elements[0]))
            << name;
    }
}

/* COMMAND DOCS is what redis-cli's hints and client generators read: for
 * every command and subcommand cppredis has, Redis 7's bytes (summary,
 * since, group, complexity, doc flags, history, nested arguments...,
 * subcommands in any order). */
TEST_F(Introspection, CommandDocsMatchesRedisForEveryCommand) {
    SKIP_UNLESS_PACKAGE("redis-server", haveRef());
    RespConn c = conn(), ref = refConn();
    const std::vector<std::string> names = commandsRedisHas(c);
    ASSERT_GT(names.size(), 250u);
    for (const std::string &name : names) {
        Reply ours = c.call({"COMMAND", "DOCS", name}), theirs = ref.call({"COMMAND", "DOCS", name});
        ASSERT_EQ(ours.elements.size(), 2u) << name;
        ASSERT_EQ(theirs.elements.size(), 2u) << name;
        EXPECT_EQ(ours.elements[0].raw, theirs.elements[0].raw) << name;
        EXPECT_EQ(docsWithSortedSubcommands(ours.elements[1]), docsWithSortedSubcommands(theirs.elements[1]))
            << name;
    }
    /* several names, in any case, unknown ones skipped */
    expectSameAsRedis({{"COMMAND", "DOCS", "GET", "nosuch", "config|get", "Set"},
                       {"COMMAND", "DOCS", "nosuch"},
                       {"COMMAND", "DOCS", "get|x"}});
}

/* COMMAND DOCS with no name: one entry per top-level command, each the
 * entry COMMAND DOCS <name> gives; COMMAND COUNT counts the same commands,
 * as Redis's does. */
TEST_F(Introspection, CommandDocsAndCountCoverEveryTopLevelCommand) {
    SKIP_UNLESS_PACKAGE("redis-server", haveRef());
    std::vector<RespConn> servers;
    servers.push_back(conn());
    servers.push_back(refConn());
    for (RespConn &c : servers) {
        std::set<std::string> topLevel;
        for (const Reply &name : c.call({"COMMAND", "LIST"}).elements)
            if (name.str.find('|') == std::string::npos) topLevel.insert(name.str);
        EXPECT_EQ(c.call({"COMMAND", "COUNT"}).integer, static_cast<long long>(topLevel.size()));
        Reply all = c.call({"COMMAND", "DOCS"});
        ASSERT_EQ(all.elements.size(), 2 * topLevel.size());
        std::set<std::string> documented;
        for (size_t i = 0; i < all.elements.size(); i += 2) {
            const std::string &name = all.elements[i].str;
            EXPECT_TRUE(documented.insert(name).second) << name << " twice";
            Reply one = c.call({"COMMAND", "DOCS", name});
            ASSERT_EQ(one.elements.size(), 2u) << name;
            EXPECT_EQ(all.elements[i + 1].raw, one.elements[1].raw) << name;
        }
        EXPECT_EQ(documented, topLevel);
    }
}

/* COMMAND GETKEYS / GETKEYSANDFLAGS: the keys ACL checks, as Redis 7 finds
 * them from the key specs (index and keyword begins, ranges with negative
 * or limited ends, numkeys counts) or, for SET's variable flags and calls
 * the specs do not fit (a bad numkeys), from the command's getkeys
 * procedure; and the errors of an unknown command, one without keys, a bad
 * arity and a call with no keys. */
TEST_F(Introspection, CommandGetKeysMatchesRedis) {
    SKIP_UNLESS_PACKAGE("redis-server", haveRef());
    const std::vector<Args> calls = {
        {"GET", "k"}, {"SET", "k", "v"}, {"SET", "k", "v", "EX", "10", "GeT"}, {"SET", "k", "v", "NX"},
        {"MSET", "a", "1", "b", "2"}, {"MGET", "a", "b", "c"}, {"BLPOP", "a", "b", "0"},
        {"LMOVE", "a", "b", "LEFT", "RIGHT"}, {"SMOVE", "a", "b", "m"}, {"SUNIONSTORE", "d", "a", "b"},
        {"ZRANGESTORE", "d", "s", "0", "1"}, {"COPY", "a", "b", "DB", "1"}, {"DEL", "a", "b"},
        {"OBJECT", "ENCODING", "k"}, {"MEMORY", "USAGE", "k"}, {"XGROUP", "CREATE", "s", "g", "$"},
        /* keynum: a valid count, zero, too many, negative, not canonical,
         * past INT_MAX (Redis counts in an int) */
        {"ZUNIONSTORE", "d", "2", "a", "b"}, {"ZUNIONSTORE", "d", "0", "a"}, {"ZUNIONSTORE", "d", "3", "a", "b"},
        {"ZUNIONSTORE", "d", "-1", "a"}, {"ZUNIONSTORE", "d", "1abc", "a", "b"}, {"ZUNIONSTORE", "d", "01", "a"},
        {"ZUNIONSTORE", "d", "+1", "a"}, {"ZUNIONSTORE", "d", " 1", "a"}, {"ZUNIONSTORE", "d", "4294967297", "a"},
        {"ZINTERSTORE", "d", "1", "a", "WEIGHTS", "2"}, {"ZDIFFSTORE", "d", "1", "a"},
        {"ZUNION", "2", "a", "b", "WITHSCORES"}, {"ZUNION", " +2", "a", "b"}, {"ZINTER", "1x", "a"}, {"ZDIFF", "1", "a"},
        {"ZINTERCARD", "2", "a", "b", "LIMIT", "1"}, {"SINTERCARD", "3", "a", "b"}, {"SINTERCARD", "x", "a"},
        {"LMPOP", "2", "a", "b", "LEFT"}, {"LMPOP", "0", "a", "LEFT"}, {"BLMPOP", "0", "2", "a", "b", "LEFT"},
        {"BLMPOP", "0", "9", "a", "LEFT"}, {"ZMPOP", "1", "a", "MIN"}, {"BZMPOP", "0", "2x", "a", "b", "MIN"},
        {"EVAL", "s", "0"}, {"EVAL", "s", "2", "a", "b"}, {"EVAL", "s", "3", "a"}, {"EVAL", "s", "2x", "a", "b"},
        {"EVALSHA_RO", "s", "1", "a"}, {"EVAL_RO", "s", "x", "a"},
        /* keyword STREAMS from startfrom, keys the first half of the rest */
        {"XREAD", "STREAMS", "a", "0"}, {"XREAD", "COUNT", "1", "STREAMS", "a", "b", "0", "0"},
        {"XREAD", "COUNT", "1", "STREAMS", "a", "b", "0"}, {"XREAD", "BLOCK", "0", "STREAMS", "streams", "a"},
        {"XREAD", "COUNT", "5", "STREAMS", "a"}, {"XREAD", "COUNT", "STREAMS", "a"},
        {"XREADGROUP", "GROUP", "g", "c", "STREAMS", "a", "0"},
        {"XREADGROUP", "GROUP", "streams", "c", "STREAMS", "a", "0"},
        {"XREADGROUP", "GROUP", "g", "c", "NOACK", "STREAMS", "a", "b", "0"},
        /* errors */
        {"NOSUCH", "a"}, {"PING", "x"}, {"CONFIG", "GET", "x"}, {"CONFIG", "NOSUCH"}, {"GET", "a", "b"},
        {"GETRANGE", "k", "0"},
    };
    std::vector<Args> script;
    for (const Args &call : calls) {
        for (const char *sub : {"GETKEYS", "GETKEYSANDFLAGS"}) {
            Args a{"COMMAND", sub};
            a.insert(a.end(), call.begin(), call.end());
            script.push_back(std::move(a));
        }
    }
    script.push_back({"COMMAND", "GETKEYS", "GET"});
    script.push_back({"COMMAND", "HELP"});
    expectSameAsRedis(script);
}
