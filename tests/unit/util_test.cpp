/* util_test.cpp — util.h against Redis 7.0's behaviour.
 *
 * Every expected value below was checked against a real redis-server 7.0.15:
 * glob cases through SCAN MATCH (case-sensitive) and CONFIG GET (nocase),
 * integers through INCRBY, doubles through ZADD/ZSCORE, long doubles
 * through INCRBYFLOAT, splitting through inline commands, memory values
 * through CONFIG SET proto-max-bulk-len.
 */
#include <gtest/gtest.h>

#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "util.h"

using namespace std::string_literals;

namespace {

/* ------------------------------------------------------------------------
 * stringmatchlen
 * ---------------------------------------------------------------------- */

struct GlobCase {
    std::string pattern, str;
    bool match;
};

TEST(StringMatch, BehavesAsRedis) {
    const GlobCase cases[] = {
        {"", "", true},
        {"", "a", false},
        {"*", "a", true},
        /* An empty string matches only the empty pattern: Redis's loop never
         * runs (KEYS and SCAN short-circuit a bare "*" before calling it). */
        {"*", "", false},
        {"**", "", false},
        {"a*", "", false},
        {"?", "", false},
        {"a", "a", true},
        {"a", "A", false},
        {"a", "ab", false},
        {"ab", "a", false},
        {"*", "anything", true},
        {"h*llo", "hello", true},
        {"h*llo", "hllo", true},
        {"h*llo", "heeeello", true},
        {"h*llo", "hello!", false},
        {"h?llo", "hello", true},
        {"h?llo", "hllo", false},
        {"h??lo", "hello", true},
        {"h[ae]llo", "hello", true},
        {"h[ae]llo", "hallo", true},
        {"h[ae]llo", "hillo", false},
        {"h[^e]llo", "hallo", true},
        {"h[^e]llo", "hello", false},
        {"h[a-b]llo", "hbllo", true},
        {"h[a-b]llo", "hcllo", false},
        {"h[b-a]llo", "hallo", true}, /* reversed ranges are swapped */
        {"a*b*c", "aXXbYYc", true},
        {"a*b*c", "aXXbYY", false},
        {"*a*b", "xxab", true},
        {"*a", "bbb", false},
        {"a**b", "ab", true},
        {"a**b", "axxb", true},
        {"*.txt", "a.txt", true},
        {"*.txt", "a.txtx", false},
        {"user:*:name", "user:1000:name", true},
        /* Escapes; a trailing backslash is a literal backslash. */
        {"\\*", "*", true},
        {"\\*", "a", false},
        {"\\a", "a", true},
        {"a\\", "a\\", true},
        {"\\", "\\", true},
        {"*\\", "a\\", true},
        /* Unterminated classes end with the pattern. */
        {"[", "[", false},
        {"[", "a", false},
        {"[a", "a", true},
        {"[a", "b", false},
        {"[^", "x", true},
        {"[^", "^", true},
        {"a[", "a", false},
        {"*[", "abc", false},
        /* "[a-]" is the range a..']' (swapped to ']'..'a'). */
        {"[a-]", "]", true},
        {"[a-]", "_", true},
        {"[a-]", "b", false},
        {"[a-]", "-", false},
        /* ']' closes even first in the class; escape it to include it. */
        {"[]]", "]", false},
        {"[]a]", "a", false},
        {"[\\]]", "]", true},
        {"[\\", "\\", true},
        {"[\\a]", "a", true},
        {"[a\\-z]", "b", false},
        {"[a\\-z]", "-", true},
        {"[*]", "*", true},
        {"[*]", "a", false},
        {"[?]", "?", true},
        {"[?]", "a", false},
        /* Binary safe: NUL and high bytes are ordinary bytes. */
        {"a?c"s, "a\0c"s, true},
        {"a\0*"s, "a\0xyz"s, true},
        {"a\0*"s, "a", false},
        /* Bytes compare as signed char: [a-\xff] is the range -1..'a'. */
        {"[a-\xff]", "\xff", true},
        {"[a-\xff]", "0", true},
        {"[a-\xff]", "\x80", false},
        {"[a-\xff]", "b", false},
    };
    for (const GlobCase &c : cases)
        EXPECT_EQ(stringmatchlen(c.pattern, c.str, false), c.match) << "pattern '" << c.pattern << "' string '" << c.str << "'";
}

TEST(StringMatch, NoCase) {
    EXPECT_TRUE(stringmatchlen("H?", "hz", true));
    EXPECT_FALSE(stringmatchlen("H?", "hz", false));
    EXPECT_TRUE(stringmatchlen("[H]z", "hz", true));
    EXPECT_TRUE(stringmatchlen("[G-I]Z", "hz", true));
    EXPECT_TRUE(stringmatchlen("APPEND*", "appendonly", true));
    EXPECT_TRUE(stringmatchlen("*ONLY", "appendonly", true));
    EXPECT_FALSE(stringmatchlen("h[^Z]", "hz", true));
    /* Escaped bytes in a class compare exactly, even with nocase. */
    EXPECT_FALSE(stringmatchlen("[\\H]z", "hz", true));
    EXPECT_TRUE(stringmatchlen("[\\h]z", "hz", true));
    /* Ranges are swapped before being folded: [Z-a] folds to the empty
     * range z..a. */
    EXPECT_FALSE(stringmatchlen("[Z-a]ppendonly", "appendonly", true));
    EXPECT_TRUE(stringmatchlen("[^Z-a]ppendonly", "appendonly", true));
    EXPECT_TRUE(stringmatchlen("[Z-a]ppendonly", "appendonly", false));
}

/* Redis 7 refuses patterns needing more than 1000 nested '*'. */
TEST(StringMatch, NestingCapAsRedis) {
    const std::string subject(1500, 'a');
    auto pattern = [](int stars) {
        std::string p;
        for (int i = 0; i < stars; i++) p += "a*";
        return p + "a";
    };
    EXPECT_TRUE(stringmatchlen(pattern(999), subject, false));
    EXPECT_TRUE(stringmatchlen(pattern(1000), subject, false));
    EXPECT_FALSE(stringmatchlen(pattern(1001), subject, false));
    /* A trailing '*' is not nested: 1000 groups plus a final one match. */
    EXPECT_TRUE(stringmatchlen(pattern(1000) + "*", subject, false));
}

/* The shape that makes a backtracking matcher exponential must run in
 * (much) less than a second. */
TEST(StringMatch, PathologicalPatternFinishesFast) {
    std::string pattern;
    for (int i = 0; i < 30; i++) pattern += "a*";
    pattern += "b";
    const std::string subject(10000, 'a');
    auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(stringmatchlen(pattern, subject, false));
    EXPECT_FALSE(stringmatchlen("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", subject, true));
    EXPECT_TRUE(stringmatchlen(pattern.substr(0, pattern.size() - 1), subject, false));
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

/* ------------------------------------------------------------------------
 * Integers
 * ---------------------------------------------------------------------- */

TEST(String2ll, AcceptsCanonicalDecimals) {
    const std::pair<const char *, long long> ok[] = {
        {"0", 0}, {"1", 1}, {"-1", -1}, {"1234567890", 1234567890},
        {"9223372036854775807", LLONG_MAX}, {"-9223372036854775808", LLONG_MIN},
    };
    for (auto [s, want] : ok) {
        long long v = 42;
        EXPECT_TRUE(string2ll(s, &v)) << s;
        EXPECT_EQ(v, want) << s;
    }
}

TEST(String2ll, RejectsEverythingElse) {
    for (const char *s : {"", "-", "+1", " 1", "1 ", "01", "00", "-0", "-01", "1a", "a1", "1.0", "0x10",
                          "9223372036854775808", "-9223372036854775809", "18446744073709551616",
                          "123456789012345678901"}) {
        long long v = 42;
        EXPECT_FALSE(string2ll(s, &v)) << "'" << s << "'";
        EXPECT_EQ(v, 42) << "value written on failure for '" << s << "'";
    }
    long long v;
    EXPECT_FALSE(string2ll("1\0"s, &v)); /* binary safe: the NUL is a byte */
}

TEST(String2ll, RoundTripsThroughLl2string) {
    std::mt19937_64 rng(12345);
    std::vector<long long> values = {0, 1, -1, 9, 10, 99, 100, -100, LLONG_MAX, LLONG_MIN, LLONG_MIN + 1};
    for (int i = 0; i < 10000; i++) values.push_back(static_cast<long long>(rng()) >> (rng() % 64));
    for (long long v : values) {
        char buf[LONG_STR_SIZE];
        int len = ll2string(buf, sizeof(buf), v);
        ASSERT_EQ(std::string(buf, len), std::to_string(v));
        ASSERT_EQ(buf[len], '\0');
        long long back;
        ASSERT_TRUE(string2ll(std::string_view(buf, len), &back));
        ASSERT_EQ(back, v);
    }
}

TEST(Ll2string, NeedsRoomForTheTerminator) {
    char buf[4];
    EXPECT_EQ(ll2string(buf, 4, 123), 3);
    EXPECT_STREQ(buf, "123");
    EXPECT_EQ(ll2string(buf, 4, 1234), 0);
    EXPECT_STREQ(buf, "");
    EXPECT_EQ(ll2string(buf, 4, -12), 3);
    EXPECT_STREQ(buf, "-12");
    EXPECT_EQ(ll2string(buf, 4, -123), 0);
    EXPECT_STREQ(buf, "");
    EXPECT_EQ(ll2string(buf, 1, 0), 0);
    char big[LONG_STR_SIZE];
    EXPECT_EQ(ull2string(big, sizeof(big), ULLONG_MAX), 20);
    EXPECT_STREQ(big, "18446744073709551615");
}

TEST(String2l, IsString2llOnLong) {
    long v;
    EXPECT_TRUE(string2l("-42", &v));
    EXPECT_EQ(v, -42);
    EXPECT_FALSE(string2l("042", &v));
}

/* Redis falls back to strtoull(), whose leniency shows. */
TEST(String2ull, AsRedis) {
    unsigned long long v;
    EXPECT_TRUE(string2ull("18446744073709551615", &v));
    EXPECT_EQ(v, ULLONG_MAX);
    EXPECT_TRUE(string2ull("42", &v));
    EXPECT_EQ(v, 42u);
    EXPECT_TRUE(string2ull(" +7", &v));
    EXPECT_EQ(v, 7u);
    EXPECT_FALSE(string2ull("-1", &v));
    EXPECT_FALSE(string2ull("18446744073709551616", &v));
    EXPECT_FALSE(string2ull("", &v));
    EXPECT_FALSE(string2ull("1x", &v));
}

/* ------------------------------------------------------------------------
 * Floating point
 * ---------------------------------------------------------------------- */

TEST(String2d, AcceptsWhatZaddAccepts) {
    const std::pair<const char *, double> ok[] = {
        {"1", 1}, {"-1.5", -1.5}, {"1e3", 1000}, {".5", 0.5}, {"5.", 5}, {"0x10", 16}, {"0x1p-3", 0.125},
        {"inf", INFINITY}, {"+inf", INFINITY}, {"-inf", -INFINITY}, {"infinity", INFINITY},
    };
    for (auto [s, want] : ok) {
        double v;
        EXPECT_TRUE(string2d(s, &v)) << s;
        EXPECT_EQ(v, want) << s;
    }
    double v;
    EXPECT_TRUE(string2d("4e-320", &v)); /* denormal: ERANGE but not zero */
    EXPECT_GT(v, 0);
}

TEST(String2d, RejectsWhatZaddRejects) {
    for (const char *s : {"", " 1", "1 ", "nan", "-nan", "1e400", "-1e400", "1e-400", "1e", "e5", "abc", "1,5"}) {
        double v;
        EXPECT_FALSE(string2d(s, &v)) << "'" << s << "'";
    }
    double v;
    EXPECT_FALSE(string2d("1\0"s, &v));
    EXPECT_FALSE(string2d(std::string(200, '1') + "x", &v)); /* long input, heap path */
    EXPECT_TRUE(string2d(std::string(200, '1'), &v));
}

TEST(String2ld, AsIncrbyfloat) {
    long double v;
    EXPECT_TRUE(string2ld("10.5", &v));
    EXPECT_EQ(v, 10.5L);
    EXPECT_TRUE(string2ld("1e400", &v)); /* fits a long double */
    EXPECT_TRUE(string2ld("0x10", &v));
    EXPECT_EQ(v, 16.0L);
    for (const char *s : {"", " 1", "1 ", "nan", "1e5000", "1e-5000", "abc"}) EXPECT_FALSE(string2ld(s, &v)) << s;
    EXPECT_FALSE(string2ld("1\0a"s, &v));
    EXPECT_FALSE(string2ld(std::string(MAX_LONG_DOUBLE_CHARS, '1'), &v));
}

std::string d2s(double d) {
    char buf[MAX_D2STRING_CHARS];
    int len = d2string(buf, sizeof(buf), d);
    return std::string(buf, len);
}

TEST(D2string, AsRedis) {
    EXPECT_EQ(d2s(0.0), "0");
    EXPECT_EQ(d2s(-0.0), "-0");
    EXPECT_EQ(d2s(3.0), "3");
    EXPECT_EQ(d2s(-42.0), "-42");
    EXPECT_EQ(d2s(1.1), "1.1000000000000001");
    EXPECT_EQ(d2s(0.5), "0.5");
    EXPECT_EQ(d2s(1e20), "1e+20");
    EXPECT_EQ(d2s(4503599627370495.0), "4503599627370495"); /* below 2^52: integer printer */
    EXPECT_EQ(d2s(4503599627370496.0), "4503599627370496"); /* 2^52: %.17g */
    EXPECT_EQ(d2s(9007199254740993.0), "9007199254740992");
    EXPECT_EQ(d2s(INFINITY), "inf");
    EXPECT_EQ(d2s(-INFINITY), "-inf");
    EXPECT_EQ(d2s(NAN), "nan");
    char small[3];
    EXPECT_EQ(d2string(small, sizeof(small), 1.5), 0);
    EXPECT_STREQ(small, "");
}

std::string ld2s(long double d, ld2string_mode mode) {
    char buf[MAX_LONG_DOUBLE_CHARS];
    int len = ld2string(buf, sizeof(buf), d, mode);
    return std::string(buf, len);
}

TEST(Ld2string, HumanModeAsIncrbyfloat) {
    EXPECT_EQ(ld2s(10.5L, LD_STR_HUMAN), "10.5");
    EXPECT_EQ(ld2s(16.0L, LD_STR_HUMAN), "16");
    EXPECT_EQ(ld2s(16.00001L, LD_STR_HUMAN), "16.00001");
    EXPECT_EQ(ld2s(-1.0L, LD_STR_HUMAN), "-1");
    EXPECT_EQ(ld2s(-0.0L, LD_STR_HUMAN), "0");
    EXPECT_EQ(ld2s(1e-20L, LD_STR_HUMAN), "0"); /* below 17 decimals */
    EXPECT_EQ(ld2s(-1e-20L, LD_STR_HUMAN), "0");
    EXPECT_EQ(ld2s(5e-17L, LD_STR_HUMAN), "0.00000000000000005");
    EXPECT_EQ(ld2s(INFINITY, LD_STR_HUMAN), "inf");
    EXPECT_EQ(ld2s(-INFINITY, LD_STR_HUMAN), "-inf");
    EXPECT_EQ(ld2s(1e20L, LD_STR_HUMAN), "100000000000000000000");
    EXPECT_EQ(ld2s(1e30L, LD_STR_HUMAN), "1000000000000000000024696061952"); /* every digit of the binary value */
    EXPECT_EQ(ld2s(1e400L, LD_STR_HUMAN).size(), 401u);
    char small[4];
    EXPECT_EQ(ld2string(small, sizeof(small), 10.5L, LD_STR_HUMAN), 0);
    EXPECT_STREQ(small, "");
}

TEST(Ld2string, AutoMode) {
    EXPECT_EQ(ld2s(10.5L, LD_STR_AUTO), "10.5");
    EXPECT_EQ(ld2s(1e30L, LD_STR_AUTO), "1e+30");
    EXPECT_EQ(ld2s(0.1L, LD_STR_AUTO), "0.1");
    EXPECT_EQ(ld2s(1.0L / 3, LD_STR_AUTO), "0.33333333333333333");
}

/* ------------------------------------------------------------------------
 * memtoull
 * ---------------------------------------------------------------------- */

TEST(Memtoull, UnitsAsRedis) {
    const std::pair<const char *, unsigned long long> ok[] = {
        {"0", 0}, {"42", 42}, {"42b", 42}, {"1k", 1000}, {"1kb", 1024}, {"1K", 1000}, {"1KB", 1024},
        {"2m", 2000000}, {"2mb", 2 * 1024 * 1024}, {"1g", 1000000000}, {"1gb", 1024ULL * 1024 * 1024},
        {"512mb", 512ULL * 1024 * 1024}, {"1Gb", 1024ULL * 1024 * 1024},
        /* No digits reads as 0; the unit check alone decides validity. */
        {"", 0}, {"gb", 0},
        /* Overflowing digits saturate; the unit product wraps (Redis 7.0). */
        {"18446744073709551616", ULLONG_MAX}, {"17179869185gb", 1024ULL * 1024 * 1024},
    };
    for (auto [s, want] : ok) {
        bool err = true;
        EXPECT_EQ(memtoull(s, &err), want) << s;
        EXPECT_FALSE(err) << s;
    }
}

TEST(Memtoull, RejectsSignsBlanksAndUnknownUnits) {
    for (const char *s : {"-1", "+1", " 1", "1 ", "1 gb", "1gbb", "1t", "1.5gb", "0x10", "1kib"}) {
        bool err = false;
        EXPECT_EQ(memtoull(s, &err), 0u) << s;
        EXPECT_TRUE(err) << s;
    }
    bool err = false;
    memtoull(std::string(128, '1'), &err);
    EXPECT_TRUE(err);
}

/* ------------------------------------------------------------------------
 * splitArgs / catRepr
 * ---------------------------------------------------------------------- */

std::vector<std::string> split(std::string_view line) {
    std::vector<std::string> out;
    EXPECT_TRUE(splitArgs(line, out)) << line;
    return out;
}

using Words = std::vector<std::string>;

TEST(SplitArgs, Words) {
    EXPECT_EQ(split(""), Words{});
    EXPECT_EQ(split("   \t "), Words{});
    EXPECT_EQ(split("set key value"), (Words{"set", "key", "value"}));
    EXPECT_EQ(split("  a \t b\r\nc  "), (Words{"a", "b", "c"}));
    /* \v and \f separate words but do not end one. */
    EXPECT_EQ(split("a\vb"), (Words{"a\vb"}));
    EXPECT_EQ(split("\va b\fc"), (Words{"a", "b\fc"}));
}

TEST(SplitArgs, DoubleQuotes) {
    EXPECT_EQ(split("\"hello world\" x"), (Words{"hello world", "x"}));
    EXPECT_EQ(split("\"\""), (Words{""}));
    EXPECT_EQ(split(R"("a\nb\rc\td\be\af\\g\"h")"), (Words{"a\nb\rc\td\be\af\\g\"h"}));
    EXPECT_EQ(split(R"("\x41\x7a\xff\x00")"), (Words{"Az\xff\0"s}));
    EXPECT_EQ(split(R"("\xZZ\q")"), (Words{"xZZq"})); /* bad hex or unknown escape: the char itself */
}

TEST(SplitArgs, QuotesMayStartMidWord) {
    EXPECT_EQ(split("ab\"c d\""), (Words{"abc d"}));
    EXPECT_EQ(split("ab'c d'"), (Words{"abc d"}));
}

TEST(SplitArgs, SingleQuotes) {
    EXPECT_EQ(split("'hello world'"), (Words{"hello world"}));
    EXPECT_EQ(split(R"('it\'s')"), (Words{"it's"}));
    EXPECT_EQ(split(R"('a\nb\\c')"), (Words{"a\\nb\\\\c"})); /* only \' is an escape */
    EXPECT_EQ(split("'\"'"), (Words{"\""}));
}

TEST(SplitArgs, UnbalancedOrGluedQuotesFail) {
    std::vector<std::string> out = {"stale"};
    for (const char *line : {"\"abc", "'abc", "\"abc\"def", "'abc'def", "\"a\"\"b\"", "x \"abc\\\"", "\"\\"}) {
        EXPECT_FALSE(splitArgs(line, out)) << line;
        EXPECT_TRUE(out.empty()) << line;
    }
}

TEST(SplitArgs, InPlaceSpansIntoTheBuffer) {
    char line[] = "set \"k\\x41\" 'v w' end";
    std::vector<std::pair<size_t, size_t>> spans = {{999, 1}};
    ASSERT_TRUE(splitArgsInPlace(line, sizeof(line) - 1, spans));
    ASSERT_EQ(spans.size(), 5u);
    EXPECT_EQ(spans[0], std::make_pair(size_t{999}, size_t{1})); /* appended, not replaced */
    std::vector<std::string> words;
    for (size_t i = 1; i < spans.size(); i++) words.emplace_back(line + spans[i].first, spans[i].second);
    EXPECT_EQ(words, (Words{"set", "kA", "v w", "end"}));

    char bad[] = "a 'b";
    EXPECT_FALSE(splitArgsInPlace(bad, sizeof(bad) - 1, spans));
    EXPECT_EQ(spans.size(), 5u); /* left as it was */
}

TEST(SplitArgs, StopsAtNulAsRedisReadsACString) {
    std::vector<std::pair<size_t, size_t>> spans;
    std::string line = "a b\0c d"s;
    ASSERT_TRUE(splitArgsInPlace(line.data(), line.size(), spans));
    EXPECT_EQ(spans.size(), 2u);
}

TEST(CatRepr, EscapesAsSdscatrepr) {
    std::string out = "x=";
    catRepr(out, "a\"b\\c\n\r\t\a\b\x01\x7f\xff ok"s + std::string(1, '\0'));
    EXPECT_EQ(out, R"(x="a\"b\\c\n\r\t\a\b\x01\x7f\xff ok\x00")");
}

TEST(CatRepr, SplitArgsReadsItBack) {
    std::mt19937 rng(7);
    for (int i = 0; i < 2000; i++) {
        std::string s(rng() % 12, '\0');
        for (char &c : s) c = static_cast<char>(rng());
        std::string quoted;
        catRepr(quoted, s);
        std::vector<std::string> out;
        ASSERT_TRUE(splitArgs(quoted + " tail", out));
        ASSERT_EQ(out, (Words{s, "tail"}));
    }
}

/* ------------------------------------------------------------------------
 * Case and randomness
 * ---------------------------------------------------------------------- */

TEST(Case, AsciiOnly) {
    EXPECT_EQ(toLower("HeLLo-World_09\xC9"), "hello-world_09\xC9");
    EXPECT_TRUE(strEqualNoCase("CONFIG", "config"));
    EXPECT_TRUE(strEqualNoCase("", ""));
    EXPECT_FALSE(strEqualNoCase("config", "configs"));
    EXPECT_FALSE(strEqualNoCase("[", "{")); /* '[' is not 'A'-'Z' shifted */
}

TEST(RandomHex, HexDigitsAndUnpredictable) {
    char a[41] = {}, b[41] = {};
    getRandomHexChars(a, 40);
    getRandomHexChars(b, 40);
    EXPECT_EQ(std::string(a).find_first_not_of("0123456789abcdef"), std::string::npos);
    EXPECT_EQ(strlen(a), 40u);
    EXPECT_STRNE(a, b);
    char odd[4] = {'x', 'x', 'x', 'x'};
    getRandomHexChars(odd, 3);
    EXPECT_EQ(odd[3], 'x'); /* writes exactly len bytes */
}

}  // namespace
