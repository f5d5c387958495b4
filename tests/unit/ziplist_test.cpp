/* ziplist_test.cpp — the ziplist against Redis's format, byte for byte.
 *
 * Golden tests spell out the exact bytes Redis writes, derived by hand from
 * the format (the layout comment of Redis 6's ziplist.c and ziplist.h here)
 * and from the order in which Redis's __ziplistInsert, __ziplistDelete and
 * __ziplistCascadeUpdate grow, shrink or keep prevlen fields. The randomized
 * test drives a ziplist and a std::deque with the same 100,000 operations and
 * after each one re-parses the whole buffer with an independent reader of the
 * format, so any inconsistent header, prevlen, tail or encoding shows up at
 * the step that caused it.
 */
#include "ziplist.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <deque>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "util.h"

namespace {

using Bytes = std::vector<unsigned char>;

/* One entry's bytes: its header bytes, then `data` (a string's bytes). */
Bytes E(std::initializer_list<int> header, std::string_view data = {}) {
    Bytes b;
    for (int byte : header) b.push_back(static_cast<unsigned char>(byte));
    b.insert(b.end(), data.begin(), data.end());
    return b;
}

void putLE(Bytes &b, uint64_t v, int n) {
    for (int i = 0; i < n; i++) b.push_back(static_cast<unsigned char>(v >> (8 * i)));
}

/* A whole ziplist: the header (zlbytes, zltail at the last entry, zllen),
 * the entries, the end byte. */
Bytes ZL(const std::vector<Bytes> &entries) {
    size_t body = 0, tail = 10;
    for (const Bytes &e : entries) {
        tail = 10 + body;
        body += e.size();
    }
    Bytes b;
    putLE(b, 10 + body + 1, 4);
    putLE(b, tail, 4);
    putLE(b, entries.size(), 2);
    for (const Bytes &e : entries) b.insert(b.end(), e.begin(), e.end());
    b.push_back(0xFF);
    return b;
}

std::string hex(const unsigned char *p, size_t n) {
    std::string out;
    char buf[4];
    for (size_t i = 0; i < n; i++) {
        snprintf(buf, sizeof(buf), "%02x ", p[i]);
        out += buf;
    }
    return out;
}

std::string hex(const Bytes &b) { return hex(b.data(), b.size()); }
std::string hex(const ziplist &zl) { return hex(zl.data(), zl.blobLen()); }

ziplist make(std::initializer_list<std::string_view> values) {
    ziplist zl;
    for (std::string_view v : values) zl.push(v, ZIPLIST_TAIL);
    return zl;
}

std::optional<ziplist> load(const Bytes &b) {
    return ziplist::fromBlob(std::string_view(reinterpret_cast<const char *>(b.data()), b.size()));
}

std::vector<std::string> contents(const ziplist &zl) {
    std::vector<std::string> out;
    for (zlpos p = zl.index(0); p; p = zl.next(p)) out.push_back(zl.get(p).toString());
    return out;
}

/* ------------------------------------------------------------------------
 * An independent reader of the format, for the consistency checks.
 * ---------------------------------------------------------------------- */

struct Parsed {
    std::vector<std::string> values;
    std::vector<unsigned> prevlenSizes;
};

uint64_t readLE(const unsigned char *p, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v |= uint64_t{p[i]} << (8 * i);
    return v;
}

/* Would Redis's zipTryEncoding store this string as an integer? */
bool integerEncodable(std::string_view s) {
    long long v;
    return !s.empty() && s.size() <= 31 && string2ll(s, &v);
}

unsigned smallestIntEncoding(long long v) {
    if (v >= 0 && v <= 12) return 0xF1 + static_cast<unsigned>(v);
    if (v >= INT8_MIN && v <= INT8_MAX) return 0xFE;
    if (v >= INT16_MIN && v <= INT16_MAX) return 0xC0;
    if (v >= -(1 << 23) && v < (1 << 23)) return 0xF0;
    if (v >= INT32_MIN && v <= INT32_MAX) return 0xD0;
    return 0xE0;
}

/* Reads every entry following the format alone and checks what must hold of
 * any ziplist Redis writes: header fields, prevlens, minimal encodings. */
Parsed parse(const ziplist &zl) {
    Parsed out;
    const unsigned char *p = zl.data();
    const size_t size = zl.blobLen();
    EXPECT_EQ(readLE(p, 4), size);
    EXPECT_EQ(p[size - 1], 0xFF);
    size_t off = 10, prevRaw = 0, last = 10;
    while (p[off] != 0xFF && !::testing::Test::HasFailure()) {
        size_t prevlen, q = off;
        if (p[off] < 0xFE) {
            prevlen = p[q++];
            out.prevlenSizes.push_back(1);
        } else {
            EXPECT_EQ(p[off], 0xFE);
            prevlen = readLE(p + off + 1, 4);
            q += 5;
            out.prevlenSizes.push_back(5);
        }
        EXPECT_EQ(prevlen, prevRaw) << "at offset " << off;
        if (prevRaw >= 254) {
            EXPECT_EQ(out.prevlenSizes.back(), 5u) << "at offset " << off;
        }

        const unsigned char enc = p[q];
        size_t len;
        if (enc >> 6 != 3) {
            if (enc >> 6 == 0) {
                len = enc & 0x3F;
                q += 1;
            } else if (enc >> 6 == 1) {
                len = (size_t{enc & 0x3Fu} << 8) | p[q + 1];
                EXPECT_GT(len, 63u) << "non-minimal 14-bit length at offset " << off;
                q += 2;
            } else {
                EXPECT_EQ(enc, 0x80);
                len = (size_t{p[q + 1]} << 24) | (size_t{p[q + 2]} << 16) | (size_t{p[q + 3]} << 8) | p[q + 4];
                EXPECT_GT(len, 16383u) << "non-minimal 32-bit length at offset " << off;
                q += 5;
            }
            std::string s(reinterpret_cast<const char *>(p + q), len);
            EXPECT_FALSE(integerEncodable(s)) << "\"" << s << "\" stored as a string";
            out.values.push_back(s);
        } else {
            long long v;
            q += 1;
            if (enc >= 0xF1 && enc <= 0xFD) {
                v = enc - 0xF1;
                len = 0;
            } else {
                const int n = enc == 0xFE ? 1 : enc == 0xC0 ? 2 : enc == 0xF0 ? 3 : enc == 0xD0 ? 4 : 8;
                EXPECT_TRUE(enc == 0xFE || enc == 0xC0 || enc == 0xF0 || enc == 0xD0 || enc == 0xE0);
                const int shift = 64 - 8 * n;
                v = static_cast<int64_t>(readLE(p + q, n) << shift) >> shift;
                len = static_cast<size_t>(n);
            }
            EXPECT_EQ(enc, smallestIntEncoding(v)) << v << " at offset " << off;
            out.values.push_back(std::to_string(v));
        }
        prevRaw = q + len - off;
        last = off;
        off = q + len;
        EXPECT_LT(off, size);
    }
    EXPECT_EQ(off, size - 1);
    EXPECT_EQ(readLE(p + 4, 4), last) << "zltail";
    EXPECT_EQ(readLE(p + 8, 2), std::min<size_t>(out.values.size(), 65535)) << "zllen";
    return out;
}

/* Does the entry read `want`? Without building a string: this runs for
 * every entry after every step of the randomized test. */
bool holds(const ziplistEntry &v, std::string_view want) {
    if (!v.isInt) return v.sval == want;
    char buf[LONG_STR_SIZE];
    return std::string_view(buf, static_cast<size_t>(ll2string(buf, sizeof(buf), v.lval))) == want;
}

/* The API's view (forward and backward walks, len) and the bytes' view
 * must both be `want`. */
template <typename Container>
void expectContents(const ziplist &zl, const Container &want) {
    const Parsed parsed = parse(zl);
    ASSERT_TRUE(std::equal(parsed.values.begin(), parsed.values.end(), want.begin(), want.end()));
    ASSERT_EQ(zl.len(), want.size());
    size_t i = 0;
    for (zlpos p = zl.index(0); p; p = zl.next(p), i++) {
        ASSERT_LT(i, want.size());
        ASSERT_TRUE(holds(zl.get(p), want[i])) << "forward at " << i << ": " << zl.get(p).toString();
    }
    ASSERT_EQ(i, want.size());
    for (zlpos p = zl.index(-1); p; p = zl.prev(p)) {
        ASSERT_GT(i, 0u);
        --i;
        ASSERT_TRUE(holds(zl.get(p), want[i])) << "backward at " << i << ": " << zl.get(p).toString();
    }
    ASSERT_EQ(i, 0u);
    ASSERT_TRUE(ziplist::validateIntegrity(zl.data(), zl.blobLen(), true));
}

/* ------------------------------------------------------------------------
 * Golden bytes
 * ---------------------------------------------------------------------- */

TEST(ZiplistGolden, Empty) {
    ziplist zl;
    EXPECT_EQ(hex(zl), hex(Bytes{0x0b, 0, 0, 0, 0x0a, 0, 0, 0, 0, 0, 0xff}));
    EXPECT_EQ(zl.len(), 0u);
    EXPECT_FALSE(zl.index(0));
    EXPECT_FALSE(zl.index(-1));
}

/* The example in the comment at the top of Redis's ziplist.c. */
TEST(ZiplistGolden, RedisDocumentationExample) {
    ziplist zl = make({"2", "5"});
    EXPECT_EQ(hex(zl), hex(Bytes{0x0f, 0, 0, 0, 0x0c, 0, 0, 0, 0x02, 0, 0x00, 0xf3, 0x02, 0xf6, 0xff}));
    zl.push("Hello World", ZIPLIST_TAIL);
    EXPECT_EQ(hex(zl), hex(ZL({E({0x00, 0xf3}), E({0x02, 0xf6}), E({0x02, 0x0b}, "Hello World")})));
}

struct IntCase {
    const char *value;
    Bytes encoding; /* encoding byte and data */
};

TEST(ZiplistGolden, IntegerEncodings) {
    const IntCase cases[] = {
        {"0", {0xf1}},
        {"12", {0xfd}},
        {"13", {0xfe, 0x0d}},
        {"-1", {0xfe, 0xff}},
        {"127", {0xfe, 0x7f}},
        {"-128", {0xfe, 0x80}},
        {"128", {0xc0, 0x80, 0x00}},
        {"-129", {0xc0, 0x7f, 0xff}},
        {"32767", {0xc0, 0xff, 0x7f}},
        {"-32768", {0xc0, 0x00, 0x80}},
        {"32768", {0xf0, 0x00, 0x80, 0x00}},
        {"-32769", {0xf0, 0xff, 0x7f, 0xff}},
        {"8388607", {0xf0, 0xff, 0xff, 0x7f}},
        {"-8388608", {0xf0, 0x00, 0x00, 0x80}},
        {"8388608", {0xd0, 0x00, 0x00, 0x80, 0x00}},
        {"-8388609", {0xd0, 0xff, 0xff, 0x7f, 0xff}},
        {"2147483647", {0xd0, 0xff, 0xff, 0xff, 0x7f}},
        {"-2147483648", {0xd0, 0x00, 0x00, 0x00, 0x80}},
        {"2147483648", {0xe0, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00}},
        {"-2147483649", {0xe0, 0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0xff}},
        {"9223372036854775807", {0xe0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}},
        {"-9223372036854775808", {0xe0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80}},
    };
    for (const IntCase &c : cases) {
        SCOPED_TRACE(c.value);
        ziplist zl = make({c.value});
        Bytes entry{0x00};
        entry.insert(entry.end(), c.encoding.begin(), c.encoding.end());
        EXPECT_EQ(hex(zl), hex(ZL({entry})));
        const ziplistEntry v = zl.get(zl.index(0));
        EXPECT_TRUE(v.isInt);
        EXPECT_EQ(v.toString(), c.value);
    }
}

/* What string2ll refuses stays a string, byte for byte. */
TEST(ZiplistGolden, NonCanonicalNumbersAreStrings) {
    for (const char *s : {"007", "+1", "1 ", " 1", "-0", "00", "1.5", "0x10", "-", "9223372036854775808",
                          "-9223372036854775809"}) {
        SCOPED_TRACE(s);
        const std::string_view sv(s);
        ziplist zl = make({sv});
        EXPECT_EQ(hex(zl), hex(ZL({E({0x00, static_cast<int>(sv.size())}, sv)})));
        const ziplistEntry v = zl.get(zl.index(0));
        EXPECT_FALSE(v.isInt);
        EXPECT_EQ(v.sval, sv);
    }
    ziplist zl = make({""});
    EXPECT_EQ(hex(zl), hex(ZL({E({0x00, 0x00})})));
    EXPECT_EQ(zl.get(zl.index(0)).sval, "");
}

TEST(ZiplistGolden, StringLengthEncodings) {
    const std::string s63(63, 'a'), s64(64, 'b'), s300(300, 'c'), s16383(16383, 'd'), s16384(16384, 'e');
    EXPECT_EQ(hex(make({s63})), hex(ZL({E({0x00, 0x3f}, s63)})));
    EXPECT_EQ(hex(make({s64})), hex(ZL({E({0x00, 0x40, 0x40}, s64)})));
    EXPECT_EQ(hex(make({s300})), hex(ZL({E({0x00, 0x41, 0x2c}, s300)})));
    EXPECT_EQ(hex(make({s16383})), hex(ZL({E({0x00, 0x7f, 0xff}, s16383)})));
    EXPECT_EQ(hex(make({s16384})), hex(ZL({E({0x00, 0x80, 0x00, 0x00, 0x40, 0x00}, s16384)})));
    EXPECT_EQ(contents(make({s16384, s63})), (std::vector<std::string>{s16384, s63}));
}

/* A string of 250 bytes makes a 253-byte entry (1 + 2 + 250): the next
 * prevlen still fits one byte. 251 bytes make 254, which does not. */
TEST(ZiplistGolden, PrevlenBoundary) {
    const std::string s250(250, 'x'), s251(251, 'y'), s252(252, 'z');
    EXPECT_EQ(hex(make({s250, "1"})), hex(ZL({E({0x00, 0x40, 0xfa}, s250), E({0xfd, 0xf2})})));
    EXPECT_EQ(hex(make({s251, "1"})), hex(ZL({E({0x00, 0x40, 0xfb}, s251), E({0xfe, 0xfe, 0, 0, 0, 0xf2})})));
    EXPECT_EQ(hex(make({s252, "1"})), hex(ZL({E({0x00, 0x40, 0xfc}, s252), E({0xfe, 0xff, 0, 0, 0, 0xf2})})));
    /* A 5-byte prevlen makes its own entry longer: 5 + 2 + 250 = 257 bytes. */
    EXPECT_EQ(hex(make({s251, s250, "1"})), hex(ZL({E({0x00, 0x40, 0xfb}, s251),
                                                    E({0xfe, 0xfe, 0, 0, 0, 0x40, 0xfa}, s250),
                                                    E({0xfe, 0x01, 0x01, 0, 0, 0xf2})})));
}

/* Five 253-byte entries: each prevlen is one byte. */
ziplist chainOf253(std::vector<std::string> *values) {
    ziplist zl;
    for (char c = 'a'; c < 'f'; c++) {
        values->push_back(std::string(250, c));
        zl.push(values->back(), ZIPLIST_TAIL);
    }
    return zl;
}

Bytes big(char c) { return E({0x00, 0x40, 0xfb}, std::string(251, c)); } /* 254 bytes at the head */
Bytes grown(int prevLo, int prevHi, char c) {                           /* 257 bytes */
    return E({0xfe, prevLo, prevHi, 0, 0, 0x40, 0xfa}, std::string(250, c));
}

TEST(ZiplistCascade, InsertAtHeadGrowsEveryPrevlen) {
    std::vector<std::string> v;
    ziplist zl = chainOf253(&v);
    EXPECT_EQ(hex(zl), hex(ZL({E({0x00, 0x40, 0xfa}, v[0]), E({0xfd, 0x40, 0xfa}, v[1]), E({0xfd, 0x40, 0xfa}, v[2]),
                               E({0xfd, 0x40, 0xfa}, v[3]), E({0xfd, 0x40, 0xfa}, v[4])})));

    /* The new 254-byte head needs a 5-byte prevlen in 'a', which makes 'a'
     * 257 bytes, which needs one in 'b', and so on to the tail. */
    zl.push(std::string(251, 'A'), ZIPLIST_HEAD);
    EXPECT_EQ(hex(zl), hex(ZL({big('A'), grown(0xfe, 0x00, 'a'), grown(0x01, 0x01, 'b'), grown(0x01, 0x01, 'c'),
                               grown(0x01, 0x01, 'd'), grown(0x01, 0x01, 'e')})));
    EXPECT_EQ(zl.blobLen(), 10 + 254 + 5 * 257 + 1u);
    v.insert(v.begin(), std::string(251, 'A'));
    expectContents(zl, v);
}

TEST(ZiplistCascade, InsertInTheMiddleGrowsTheRest) {
    std::vector<std::string> v;
    ziplist zl = chainOf253(&v);
    zl.insert(zl.index(2), std::string(251, 'M'));
    EXPECT_EQ(hex(zl), hex(ZL({E({0x00, 0x40, 0xfa}, v[0]), E({0xfd, 0x40, 0xfa}, v[1]),
                               E({0xfd, 0x40, 0xfb}, std::string(251, 'M')), grown(0xfe, 0x00, 'c'),
                               grown(0x01, 0x01, 'd'), grown(0x01, 0x01, 'e')})));
}

/* Deleting the big head: 'a' follows nothing, so its prevlen shrinks back
 * to one byte (a delete re-encodes the field it rewrites). 'a' is 253 bytes
 * again, but 'b' keeps its 5-byte field, now holding 253: a cascade never
 * shrinks, so the rest of the list is left alone. */
TEST(ZiplistCascade, DeleteNeverShrinksTheFieldsAfter) {
    std::vector<std::string> v;
    ziplist zl = chainOf253(&v);
    zl.push(std::string(251, 'A'), ZIPLIST_HEAD);
    EXPECT_EQ(zl.deleteEntry(zl.index(0)), zl.index(0));
    EXPECT_EQ(hex(zl), hex(ZL({E({0x00, 0x40, 0xfa}, v[0]), grown(0xfd, 0x00, 'b'), grown(0x01, 0x01, 'c'),
                               grown(0x01, 0x01, 'd'), grown(0x01, 0x01, 'e')})));
    expectContents(zl, v);
}

/* Inserting a 2-byte entry before a 5-byte prevlen that now holds a small
 * length: Redis keeps the field large (its `forcelarge` case). A 7-byte
 * entry instead shrinks the field, and the next field, still 5 bytes,
 * takes the new length in place. */
TEST(ZiplistCascade, ForceLargeAndShrinkOnInsert) {
    std::vector<std::string> v;
    ziplist zl = chainOf253(&v);
    zl.push(std::string(251, 'A'), ZIPLIST_HEAD);
    zl.deleteEntry(zl.index(0));

    ziplist small = std::move(zl);
    small.insert(small.index(1), "1");
    EXPECT_EQ(hex(small), hex(ZL({E({0x00, 0x40, 0xfa}, v[0]), E({0xfd, 0xf2}), grown(0x02, 0x00, 'b'),
                                  grown(0x01, 0x01, 'c'), grown(0x01, 0x01, 'd'), grown(0x01, 0x01, 'e')})));

    std::vector<std::string> v2;
    ziplist zl2 = chainOf253(&v2);
    zl2.push(std::string(251, 'A'), ZIPLIST_HEAD);
    zl2.deleteEntry(zl2.index(0));
    zl2.insert(zl2.index(1), "hello");
    EXPECT_EQ(hex(zl2), hex(ZL({E({0x00, 0x40, 0xfa}, v2[0]), E({0xfd, 0x05}, "hello"),
                                E({0x07, 0x40, 0xfa}, v2[1]), grown(0xfd, 0x00, 'c'), grown(0x01, 0x01, 'd'),
                                grown(0x01, 0x01, 'e')})));
}

/* Redis's "Regression test deleting next to last entries": deleting the
 * short middle entry puts a 259-byte entry before the last one, whose
 * prevlen grows to 5 bytes out of the deleted bytes. */
TEST(ZiplistCascade, DeleteGrowsTheSurvivorsPrevlen) {
    const std::string a(256, 'a'), b(1, 'b'), c(256, 'c');
    ziplist zl = make({a, b, c});
    EXPECT_EQ(parse(zl).prevlenSizes, (std::vector<unsigned>{1, 5, 1}));
    zl.deleteEntry(zl.index(1));
    EXPECT_EQ(parse(zl).prevlenSizes, (std::vector<unsigned>{1, 5}));
    EXPECT_EQ(hex(zl), hex(ZL({E({0x00, 0x41, 0x00}, a), E({0xfe, 0x03, 0x01, 0, 0, 0x41, 0x00}, c)})));
}

TEST(ZiplistCascade, ReplaceThatGrowsCascades) {
    std::vector<std::string> v;
    ziplist zl = chainOf253(&v);
    zl.replace(zl.index(0), std::string(251, 'R'));
    EXPECT_EQ(hex(zl), hex(ZL({big('R'), grown(0xfe, 0x00, 'b'), grown(0x01, 0x01, 'c'), grown(0x01, 0x01, 'd'),
                               grown(0x01, 0x01, 'e')})));
}

/* ------------------------------------------------------------------------
 * Operations
 * ---------------------------------------------------------------------- */

/* Redis's own test list: foo, quux, hello pushed at the head, 1024. */
ziplist redisTestList() {
    ziplist zl = make({"foo", "quux"});
    zl.push("hello", ZIPLIST_HEAD);
    zl.push("1024", ZIPLIST_TAIL);
    return zl;
}

TEST(ZiplistOps, IndexFromBothEnds) {
    ziplist zl = redisTestList();
    const std::vector<std::string> want{"hello", "foo", "quux", "1024"};
    for (long i = 0; i < 4; i++) {
        EXPECT_EQ(zl.get(zl.index(i)).toString(), want[i]);
        EXPECT_EQ(zl.index(i - 4), zl.index(i));
    }
    EXPECT_FALSE(zl.index(4));
    EXPECT_FALSE(zl.index(-5));
    EXPECT_FALSE(zl.index(LONG_MAX));
    EXPECT_FALSE(zl.index(LONG_MIN));
    EXPECT_TRUE(zl.get(zl.index(3)).isInt);
    EXPECT_EQ(zl.get(zl.index(3)).lval, 1024);
    EXPECT_FALSE(zl.prev(zl.index(0)));
    EXPECT_FALSE(zl.next(zl.index(-1)));
}

TEST(ZiplistOps, DeleteRange) {
    struct Case {
        long index;
        size_t num;
        std::vector<std::string> left;
    } cases[] = {
        {0, 1, {"foo", "quux", "1024"}}, {0, 2, {"quux", "1024"}},         {1, 2, {"hello", "1024"}},
        {5, 1, {"hello", "foo", "quux", "1024"}}, {1, 5, {"hello"}}, {-2, 2, {"hello", "foo"}},
        {-4, 100, {}},                   {3, 0, {"hello", "foo", "quux", "1024"}},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(testing::Message() << c.index << "," << c.num);
        ziplist zl = redisTestList();
        zl.deleteRange(c.index, c.num);
        expectContents(zl, c.left);
    }
    ziplist zl = redisTestList();
    zl.deleteRange(0, 4);
    EXPECT_EQ(hex(zl), hex(ziplist().data(), 11));
}

TEST(ZiplistOps, DeleteWhileIterating) {
    ziplist zl = redisTestList();
    for (zlpos p = zl.index(0); p;) p = zl.compare(p, "foo") || zl.compare(p, "1024") ? zl.deleteEntry(p) : zl.next(p);
    expectContents(zl, std::vector<std::string>{"hello", "quux"});

    /* Back to front, deleting everything: each delete hands back the end. */
    ziplist all = redisTestList();
    for (zlpos p = all.index(-1); p; p = all.index(-1)) EXPECT_FALSE(all.deleteEntry(p));
    EXPECT_EQ(all.len(), 0u);
    EXPECT_EQ(hex(all), hex(ziplist().data(), 11));
}

TEST(ZiplistOps, CompareAndFind) {
    ziplist zl = make({"a", "7", "b", "007", "a", "-5", "7"});
    EXPECT_TRUE(zl.compare(zl.index(1), "7"));
    EXPECT_FALSE(zl.compare(zl.index(1), "07"));
    EXPECT_FALSE(zl.compare(zl.index(1), "+7"));
    EXPECT_TRUE(zl.compare(zl.index(3), "007"));
    EXPECT_FALSE(zl.compare(zl.index(3), "7"));
    EXPECT_EQ(zl.find(zl.index(0), "7", 0), zl.index(1));
    EXPECT_EQ(zl.find(zl.index(2), "7", 0), zl.index(6));
    EXPECT_EQ(zl.find(zl.index(0), "007", 0), zl.index(3));
    EXPECT_EQ(zl.find(zl.index(0), "-5", 0), zl.index(5));
    EXPECT_FALSE(zl.find(zl.index(0), "c", 0));
    EXPECT_FALSE(zl.find(zl.index(0), "8", 0));
    /* skip 1 compares entries 0, 2, 4, 6 only: a hash's fields. */
    EXPECT_EQ(zl.find(zl.index(0), "a", 1), zl.index(0));
    EXPECT_EQ(zl.find(zl.index(0), "7", 1), zl.index(6));
    EXPECT_FALSE(zl.find(zl.index(0), "-5", 1));
    EXPECT_EQ(zl.find(zl.index(1), "-5", 1), zl.index(5));
}

TEST(ZiplistOps, ReplaceInPlaceOrNot) {
    ziplist zl = make({"abc", "100", "xyz"});
    const Bytes before(zl.data(), zl.data() + zl.blobLen());
    zl.replace(zl.index(0), "def"); /* same size: overwritten */
    EXPECT_EQ(hex(zl), hex(ZL({E({0x00, 0x03}, "def"), E({0x05, 0xfe, 100}), E({0x03, 0x03}, "xyz")})));
    zl.replace(zl.index(1), "-7"); /* int8 for int8 */
    zl.replace(zl.index(2), "12"); /* string for integer: delete and insert */
    EXPECT_EQ(hex(zl), hex(ZL({E({0x00, 0x03}, "def"), E({0x05, 0xfe, 0xf9}), E({0x03, 0xfd})})));
    zl.replace(zl.index(-1), std::string(70, 'q'));
    expectContents(zl, std::vector<std::string>{"def", "-7", std::string(70, 'q')});
}

uint16_t zllen(const ziplist &zl) { return static_cast<uint16_t>(zl.data()[8] | zl.data()[9] << 8); }

TEST(ZiplistOps, CountSaturatesAt65535) {
    /* 65534 entries "1", built as bytes: pushing them one by one would
     * cost a realloc each, slow under ASan. */
    std::vector<Bytes> ones(65534, E({0x02, 0xf2}));
    ones[0] = E({0x00, 0xf2});
    std::optional<ziplist> loaded = load(ZL(ones));
    ASSERT_TRUE(loaded);
    ziplist &zl = *loaded;
    EXPECT_EQ(zllen(zl), 65534);
    zl.push("2", ZIPLIST_HEAD);
    EXPECT_EQ(zllen(zl), 65535); /* unknown from here */
    EXPECT_EQ(zl.len(), 65535u);
    zl.push("3", ZIPLIST_TAIL);
    zl.insert(zl.index(1), "4");
    EXPECT_EQ(zllen(zl), 65535);
    EXPECT_EQ(zl.len(), 65537u);
    zl.deleteRange(0, 1); /* still too many to count in 16 bits */
    EXPECT_EQ(zllen(zl), 65535);
    EXPECT_EQ(zl.len(), 65536u);
    zl.deleteRange(-2, 2); /* what Redis's next ziplistLen would store */
    EXPECT_EQ(zllen(zl), 65534);
    EXPECT_EQ(zl.len(), 65534u);
    EXPECT_TRUE(ziplist::validateIntegrity(zl.data(), zl.blobLen(), true));
    EXPECT_EQ(parse(zl).values.size(), 65534u);
}

TEST(ZiplistOps, Repr) {
    ziplist zl = make({"foo", "1024", std::string(300, 'x')});
    const std::string r = zl.repr();
    EXPECT_EQ(r, "{total bytes 323} {num entries 3}\n{tail offset 19}\n"
                 "{index 0, offset 10, rawlen 5, prevrawlen 0, prevrawlensize 1, encoding ZIP_STR_06B, lensize 1, "
                 "header 00|03, [str] \"foo\"}\n"
                 "{index 1, offset 15, rawlen 4, prevrawlen 5, prevrawlensize 1, encoding ZIP_INT_16B, lensize 1, "
                 "header 05|c0, [int] 1024}\n"
                 "{index 2, offset 19, rawlen 303, prevrawlen 4, prevrawlensize 1, encoding ZIP_STR_14B, lensize 2, "
                 "header 04|41|2c, [str] \"" +
                     std::string(40, 'x') + "\"...}\n{end}\n");
}

/* ------------------------------------------------------------------------
 * Loading untrusted bytes
 * ---------------------------------------------------------------------- */

TEST(ZiplistLoad, AcceptsWhatItWrites) {
    const Bytes good = ZL({E({0x00, 0x03}, "foo"), E({0x05, 0xc0, 0x00, 0x04}), E({0x04, 0xf1})});
    std::optional<ziplist> zl = load(good);
    ASSERT_TRUE(zl);
    EXPECT_EQ(hex(*zl), hex(good));
    expectContents(*zl, std::vector<std::string>{"foo", "1024", "0"});
    zl->push("bar", ZIPLIST_TAIL);
    expectContents(*zl, std::vector<std::string>{"foo", "1024", "0", "bar"});
    ASSERT_TRUE(load(ZL({})));
}

/* A 5-byte prevlen holding a small length is what Redis leaves behind after
 * some deletes and inserts (see ZiplistCascade): valid, and kept as is. */
TEST(ZiplistLoad, AcceptsLargePrevlenFieldsForSmallLengths) {
    const Bytes b = ZL({E({0x00, 0x03}, "foo"), E({0xfe, 0x05, 0, 0, 0, 0xf2}), E({0x06, 0xf3})});
    std::optional<ziplist> zl = load(b);
    ASSERT_TRUE(zl);
    expectContents(*zl, std::vector<std::string>{"foo", "1", "2"});
    zl->deleteEntry(zl->index(-1));
    EXPECT_EQ(hex(*zl), hex(ZL({E({0x00, 0x03}, "foo"), E({0xfe, 0x05, 0, 0, 0, 0xf2})})));
}

TEST(ZiplistLoad, UnknownCountIsCountedOnLoad) {
    Bytes b = ZL({E({0x00, 0xf2}), E({0x02, 0xf3})});
    b[8] = b[9] = 0xff;
    std::optional<ziplist> zl = load(b);
    ASSERT_TRUE(zl);
    EXPECT_EQ(zl->len(), 2u);
    EXPECT_EQ(zl->data()[8], 2);
}

/* Redis reads any 10xxxxxx byte as a 32-bit string length. */
TEST(ZiplistLoad, LooseStringEncodingBitsAreAccepted) {
    const std::string s(16384, 's');
    Bytes b = ZL({E({0x00, 0x80, 0x00, 0x00, 0x40, 0x00}, s)});
    b[11] = 0x85;
    std::optional<ziplist> zl = load(b);
    ASSERT_TRUE(zl);
    EXPECT_EQ(zl->get(zl->index(0)).sval, s);
}

TEST(ZiplistLoad, RejectsCorruption) {
    const Bytes good = ZL({E({0x00, 0x03}, "foo"), E({0x05, 0xc0, 0x00, 0x04}), E({0x04, 0xf1})});
    ASSERT_TRUE(load(good));
    auto corrupt = [&](size_t at, unsigned char byte) {
        Bytes b = good;
        b[at] = byte;
        return b;
    };
    EXPECT_FALSE(load(Bytes(good.begin(), good.end() - 1))) << "truncated";
    EXPECT_FALSE(load(Bytes(good.begin(), good.begin() + 10))) << "header only";
    EXPECT_FALSE(load(corrupt(0, 0x30))) << "zlbytes";
    EXPECT_FALSE(load(corrupt(good.size() - 1, 0xfe))) << "end byte";
    EXPECT_FALSE(load(corrupt(4, 0x0f))) << "tail not at the last entry";
    EXPECT_FALSE(load(corrupt(4, 0x05))) << "tail inside the header";
    EXPECT_FALSE(load(corrupt(4, 0x40))) << "tail past the end";
    EXPECT_FALSE(load(corrupt(8, 0x02))) << "count";
    EXPECT_FALSE(load(corrupt(11, 0x3f))) << "string running past the end";
    EXPECT_FALSE(load(corrupt(16, 0xc1))) << "no such encoding";
    EXPECT_FALSE(load(corrupt(16, 0xff))) << "end byte inside an entry";
    EXPECT_FALSE(load(corrupt(15, 0x04))) << "prevlen";
    EXPECT_FALSE(load(corrupt(15, 0xfe))) << "5-byte prevlen overlapping the data";
    EXPECT_FALSE(load(corrupt(10, 0x01))) << "first prevlen not 0";
    EXPECT_FALSE(load(corrupt(11, 0x40))) << "14-bit length cut by the end";
    EXPECT_FALSE(load(ZL({E({0x00, 0x80, 0xff, 0xff, 0xff, 0xff})}))) << "4 GiB string";
}

/* Every prefix and every one-byte change of a real ziplist: rejected or
 * loaded, never a read out of bounds (ASan watches the latter). */
TEST(ZiplistLoad, FuzzedBlobsNeverCrash) {
    const Bytes good = ZL({E({0x00, 0x03}, "foo"), E({0x05, 0xd0, 1, 2, 3, 4}), E({0x06, 0x41, 0x2c}, std::string(300, 'z')),
                           E({0xfe, 0x2f, 0x01, 0, 0, 0xfe, 0x80})});
    ASSERT_TRUE(load(good));
    for (size_t n = 0; n < good.size(); n++) EXPECT_FALSE(load(Bytes(good.begin(), good.begin() + n)));
    for (size_t at = 0; at < good.size(); at++) {
        for (int byte : {0x00, 0x01, 0x3f, 0x40, 0x7f, 0x80, 0xbf, 0xc0, 0xf0, 0xfd, 0xfe, 0xff}) {
            Bytes b = good;
            b[at] = static_cast<unsigned char>(byte);
            if (std::optional<ziplist> zl = load(b)) {
                /* Valid but not necessarily what Redis would write (an
                 * integer in a wider encoding than needed, say): read it. */
                EXPECT_EQ(contents(*zl).size(), zl->len());
                for (zlpos p = zl->index(-1); p; p = zl->prev(p)) zl->get(p);
                zl->repr();
            }
        }
    }
}

/* ------------------------------------------------------------------------
 * Randomized: 100,000 operations against std::deque
 * ---------------------------------------------------------------------- */

class RandomValues {
public:
    explicit RandomValues(std::mt19937_64 &rng) : rng_(rng) {}

    std::string operator()() {
        switch (pick(10)) {
        case 0: return std::to_string(pick(13)); /* immediate */
        case 1: return kBoundaries[pick(std::size(kBoundaries))];
        case 2: return std::to_string(static_cast<long long>(rng_()) >> pick(64));
        case 3: return kNonCanonical[pick(std::size(kNonCanonical))];
        case 4: return bytes(kLongLengths[pick(std::size(kLongLengths))] + pick(3) - 1);
        case 5:
        case 6: /* entries of 250..258 bytes: neighbours of these cascade */
            return bytes(pick(100) == 0 ? 16383 + pick(2) : 247 + pick(9));
        default: return bytes(pick(70));
        }
    }

private:
    size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }

    std::string bytes(size_t n) {
        std::string s(n, '\0');
        const bool binary = pick(2) == 0;
        for (char &c : s) c = static_cast<char>(binary ? pick(256) : 'a' + pick(26));
        return s;
    }

    static constexpr const char *kBoundaries[] = {
        "12", "13", "-1", "127", "128", "-128", "-129", "32767", "32768", "-32768", "-32769", "8388607",
        "8388608", "-8388608", "-8388609", "2147483647", "2147483648", "-2147483648", "-2147483649",
        "9223372036854775807", "-9223372036854775808"};
    static constexpr const char *kNonCanonical[] = {"007", "+1", "1 ", " 1", "-0", "00", "", "1e3", "0x1f",
                                                    "9223372036854775808", "-9223372036854775809", "١"};
    static constexpr size_t kLongLengths[] = {63, 64, 253, 254, 255};
    std::mt19937_64 &rng_;
};

/* 100,000 random operations; 30,000 under ASan (make test's second run),
 * where each costs ten times more and the same paths are reached. */
#if defined(__SANITIZE_ADDRESS__)
constexpr int kZiplistRandomSteps = 30000;
#else
constexpr int kZiplistRandomSteps = 100000;
#endif

TEST(ZiplistRandom, RandomOperationsAgainstDeque) {
    std::mt19937_64 rng(20240601);
    RandomValues value(rng);
    auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
    /* A random index into a list of n, or up to `extra` past its end; half
     * of them written negatively (-1 is the last, -(n+1) is out of range). */
    auto randomIndex = [&](size_t n, size_t extra, long *index) {
        const size_t i = pick(n + extra);
        const long li = static_cast<long>(i), ln = static_cast<long>(n);
        *index = pick(2) ? li : i < n ? li - ln : -(li + 1);
        return i;
    };

    ziplist zl;
    std::deque<std::string> d;
    for (int step = 0; step < kZiplistRandomSteps; step++) {
        const size_t n = d.size();
        /* Grow while small, shrink while large: the list wanders 0..~150. */
        const size_t op = n == 0 ? pick(2) : n > 150 ? 4 + pick(3) : pick(10);
        long index;
        switch (op) {
        case 0: {
            const std::string v = value();
            zl.push(v, ZIPLIST_HEAD);
            d.push_front(v);
            break;
        }
        case 1: {
            const std::string v = value();
            zl.push(v, ZIPLIST_TAIL);
            d.push_back(v);
            break;
        }
        case 2: { /* LINSERT BEFORE */
            const size_t i = randomIndex(n, 0, &index);
            const std::string v = value();
            zl.insert(zl.index(index), v);
            d.insert(d.begin() + static_cast<long>(i), v);
            ASSERT_EQ(zl.get(zl.index(static_cast<long>(i))).toString(), v);
            break;
        }
        case 3: { /* LINSERT AFTER */
            const size_t i = randomIndex(n, 0, &index);
            const std::string v = value();
            if (zlpos next = zl.next(zl.index(index))) zl.insert(next, v);
            else zl.push(v, ZIPLIST_TAIL);
            d.insert(d.begin() + static_cast<long>(i) + 1, v);
            break;
        }
        case 4: { /* LPOP, RPOP, LREM of one */
            const size_t i = randomIndex(n, 0, &index);
            const zlpos after = zl.deleteEntry(zl.index(index));
            d.erase(d.begin() + static_cast<long>(i));
            if (i < d.size()) {
                ASSERT_EQ(zl.get(after).toString(), d[i]);
            } else {
                ASSERT_FALSE(after);
            }
            break;
        }
        case 5: { /* LTRIM */
            const size_t i = randomIndex(n, 2, &index), num = pick(8);
            zl.deleteRange(index, num);
            if (i < n) d.erase(d.begin() + static_cast<long>(i), d.begin() + static_cast<long>(std::min(n, i + num)));
            break;
        }
        case 6: { /* LSET */
            const size_t i = randomIndex(n, 0, &index);
            const std::string v = value();
            zl.replace(zl.index(index), v);
            d[i] = v;
            break;
        }
        case 7: { /* LINDEX, in and out of range */
            const size_t i = randomIndex(n, 3, &index);
            const zlpos p = zl.index(index);
            if (i < n) {
                ASSERT_EQ(zl.get(p).toString(), d[i]);
            } else {
                ASSERT_FALSE(p) << index;
            }
            break;
        }
        default: { /* LPOS / a hash's field lookup */
            const std::string v = pick(2) ? d[pick(n)] : value();
            const unsigned skip = static_cast<unsigned>(pick(2));
            size_t want = n;
            for (size_t i = 0; i < n; i += skip + 1) {
                if (d[i] == v) {
                    want = i;
                    break;
                }
            }
            const zlpos found = zl.find(zl.index(0), v, skip);
            ASSERT_EQ(found, want < n ? zl.index(static_cast<long>(want)) : zlpos{}) << v;
            if (found) {
                ASSERT_TRUE(zl.compare(found, v));
            }
            break;
        }
        }
        expectContents(zl, d);
        if (HasFailure()) FAIL() << "at step " << step << ", operation " << op;
    }
}

}  // namespace
