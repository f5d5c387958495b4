/* sds_test.cpp — the sds string type: header type by length, greedy growth,
 * sdsrange semantics, binary safety, allocation sizes and embedded strings.
 */
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <memory>
#include <string>
#include <utility>

#include "sds.h"

using namespace std::literals;

namespace {

/* What the allocator really hands out for a request of n bytes. */
size_t usableFor(size_t n) {
    void *p = malloc(n);
    size_t usable = malloc_usable_size(p);
    free(p);
    return usable;
}

/* The NUL after the content is part of the contract. */
void expectContent(const sds &s, const std::string &want) {
    ASSERT_EQ(s.size(), want.size());
    EXPECT_EQ(std::string(s.view()), want);
    EXPECT_EQ(s.data()[s.size()], '\0');
}

TEST(Sds, IsOnePointer) { static_assert(sizeof(sds) == sizeof(void *)); }

TEST(Sds, ReqTypeBoundaries) {
    EXPECT_EQ(sdsReqType(1), SDS_TYPE_5);
    EXPECT_EQ(sdsReqType(31), SDS_TYPE_5);
    EXPECT_EQ(sdsReqType(32), SDS_TYPE_8);
    EXPECT_EQ(sdsReqType(255), SDS_TYPE_8);
    EXPECT_EQ(sdsReqType(256), SDS_TYPE_16);
    EXPECT_EQ(sdsReqType(65535), SDS_TYPE_16);
    EXPECT_EQ(sdsReqType(65536), SDS_TYPE_32);
    EXPECT_EQ(sdsReqType((1ULL << 32) - 1), SDS_TYPE_32);
    EXPECT_EQ(sdsReqType(1ULL << 32), SDS_TYPE_64);
    EXPECT_EQ(sdsHdrSize(SDS_TYPE_5), 1u);
    EXPECT_EQ(sdsHdrSize(SDS_TYPE_8), 3u);
    EXPECT_EQ(sdsHdrSize(SDS_TYPE_16), 5u);
    EXPECT_EQ(sdsHdrSize(SDS_TYPE_32), 9u);
    EXPECT_EQ(sdsHdrSize(SDS_TYPE_64), 17u);
}

TEST(Sds, TypeChosenByLength) {
    const std::pair<size_t, unsigned char> cases[] = {
        {1, SDS_TYPE_5},    {31, SDS_TYPE_5},     {32, SDS_TYPE_8},     {255, SDS_TYPE_8},
        {256, SDS_TYPE_16}, {65535, SDS_TYPE_16}, {65536, SDS_TYPE_32},
    };
    for (auto [len, type] : cases) {
        std::string content(len, 'x');
        content.front() = 'a';
        content.back() = 'z';
        sds s(content);
        SCOPED_TRACE(len);
        EXPECT_EQ(sdsType(s.data()), type);
        expectContent(s, content);
        EXPECT_EQ(sdslen(s.data()), len);
    }
}

TEST(Sds, FlagsByteHoldsType5Length) {
    sds s("hello"sv);
    EXPECT_EQ(static_cast<unsigned char>(s.data()[-1]), SDS_TYPE_5 | (5 << SDS_TYPE_BITS));
    EXPECT_EQ(s.avail(), 0u);
}

TEST(Sds, ShortKeyTakesTheSmallestAllocation) {
    /* A 14-byte key: 1 header byte + 14 + NUL = a 16-byte request. */
    std::string key(14, 'k');
    EXPECT_EQ(sdsHdrSize(sdsReqType(key.size())) + key.size() + 1, 16u);
    sds s(key);
    EXPECT_EQ(s.allocSize(), usableFor(16));
}

TEST(Sds, EmptyOwnsNothing) {
    sds a, b(""sv);
    for (const sds *s : {&a, &b}) {
        expectContent(*s, "");
        EXPECT_TRUE(s->empty());
        EXPECT_EQ(s->avail(), 0u);
        EXPECT_EQ(s->allocSize(), 0u);
    }
    a.clear();
    a.range(0, -1);
    a.resize(0);
    a.removeFreeSpace();
    a.catlen(""sv);
    expectContent(a, "");
    a.catlen("x"sv);
    expectContent(a, "x");
    EXPECT_EQ(sdsType(a.data()), SDS_TYPE_8); /* grows: never type 5 */
}

TEST(Sds, MoveLeavesEmptyAndDupCopies) {
    sds a("some value"sv);
    const char *bytes = a.data();
    sds b(std::move(a));
    EXPECT_EQ(b.data(), bytes); /* the allocation moved, not the bytes */
    expectContent(a, "");
    sds c = b.dup();
    EXPECT_NE(c.data(), b.data());
    EXPECT_EQ(c, b);
    c.catlen("!"sv);
    expectContent(b, "some value");
    expectContent(c, "some value!");
    a = std::move(c);
    expectContent(a, "some value!");
    expectContent(c, "");
    a = std::move(a);
    expectContent(a, "some value!");
}

TEST(Sds, CatlenConvertsType5AndGrowsGreedily) {
    sds s("abc"sv);
    s.catlen("def"sv);
    expectContent(s, "abcdef");
    EXPECT_EQ(sdsType(s.data()), SDS_TYPE_8);
    EXPECT_GE(s.size() + s.avail(), 12u); /* (3 + 3) * 2 */
}

TEST(Sds, GrowthAcrossTypesKeepsContent) {
    sds s;
    std::string model;
    for (int i = 0; model.size() < 200000; i++) {
        std::string piece = std::to_string(i) + ",";
        s.catlen(piece);
        model += piece;
    }
    expectContent(s, model);
    EXPECT_EQ(sdsType(s.data()), SDS_TYPE_32);
}

TEST(Sds, AppendingIsAmortized) {
    sds s;
    int growths = 0;
    for (int i = 0; i < 100000; i++) {
        if (s.avail() == 0) growths++;
        s.catlen("x"sv);
    }
    EXPECT_EQ(s.size(), 100000u);
    EXPECT_LE(growths, 20); /* doubling: about log2(100000) */
}

TEST(Sds, GrowthPastOneMegabyteAddsOneMegabyte) {
    sds s(std::string(2 * SDS_MAX_PREALLOC, 'a'));
    s.catlen(std::string(s.avail() + 1, 'b')); /* past the allocator's slack */
    EXPECT_GE(s.avail(), SDS_MAX_PREALLOC);
    EXPECT_LT(s.avail(), s.size()); /* not doubled (whatever the size-class slack) */
}

TEST(Sds, MakeRoomForThenIncrLen) {
    /* readQueryFromClient's pattern: reserve, write into the spare room, commit. */
    sds s("GET "sv);
    s.makeRoomFor(100);
    ASSERT_GE(s.avail(), 100u);
    memcpy(s.data() + s.size(), "key", 3);
    s.incrLen(3);
    expectContent(s, "GET key");
    s.incrLen(-4);
    expectContent(s, "GET");
    size_t room = s.size() + s.avail();
    s.makeRoomFor(s.avail()); /* already there: no reallocation */
    EXPECT_EQ(s.size() + s.avail(), room);
    s.setlen(1);
    expectContent(s, "G");
}

TEST(Sds, ClearKeepsTheAllocation) {
    sds s;
    s.catlen("hello world"sv);
    size_t room = s.size() + s.avail();
    s.clear();
    expectContent(s, "");
    EXPECT_EQ(s.avail(), room);
    sds key("short"sv); /* type 5 can be cleared too */
    key.clear();
    expectContent(key, "");
}

TEST(Sds, RangeLikeRedis) {
    const struct {
        ssize_t start, end;
        std::string want;
    } cases[] = {
        {1, 1, "i"},   {1, -1, "iao"},  {-2, -1, "ao"},   {2, 1, ""},      {1, 100, "iao"},
        {100, 100, ""}, {0, 0, "c"},    {3, 6, "o"},      {4, 6, ""},      {-100, -1, "ciao"},
        {-100, -100, "c"}, {0, -5, "c"}, {-1, -2, ""},
    };
    for (const auto &c : cases) {
        SCOPED_TRACE(std::to_string(c.start) + "," + std::to_string(c.end));
        sds s("ciao"sv);
        s.range(c.start, c.end);
        expectContent(s, c.want);
    }
}

TEST(Sds, ResizePadsWithZerosAndTruncates) {
    sds s("ab"sv);
    s.resize(5);
    expectContent(s, "ab\0\0\0"s);
    s.resize(1);
    expectContent(s, "a");
}

TEST(Sds, BinarySafe) {
    const std::string bin = "a\0b\xff\0"s;
    sds s(bin);
    expectContent(s, bin);
    s.catlen("\0z"sv);
    expectContent(s, bin + "\0z"s);
    EXPECT_EQ(sds("a\0b"sv), "a\0b"sv);
    EXPECT_NE(sds("a\0b"sv), "a\0c"sv);
    EXPECT_NE(sds("a"sv), "a\0"sv);
}

TEST(Sds, ComparesAsUnsignedBytes) {
    EXPECT_LT(sds("a"sv), "b"sv);
    EXPECT_LT(sds("a"sv), "ab"sv);
    EXPECT_GT(sds("\xff"sv), "a"sv); /* memcmp order, not signed char */
    EXPECT_EQ(sds("abc"sv), sds("abc"sv));
    EXPECT_TRUE("abc"sv == sds("abc"sv));
}

TEST(Sds, RemoveFreeSpaceShrinksToTheTightestAllocation) {
    sds s;
    s.catlen(std::string(40, 'x'));
    s.catlen("y"sv);
    ASSERT_GT(s.avail(), 0u);
    s.removeFreeSpace();
    expectContent(s, std::string(40, 'x') + "y");
    EXPECT_EQ(sdsType(s.data()), SDS_TYPE_8);
    EXPECT_EQ(s.allocSize(), usableFor(sizeof(sdshdr8) + 41 + 1));
    EXPECT_EQ(s.avail(), s.allocSize() - sizeof(sdshdr8) - 41 - 1);

    sds small;
    small.catlen("tiny"sv); /* type 8 with room: back to type 5 */
    small.removeFreeSpace();
    expectContent(small, "tiny");
    EXPECT_EQ(sdsType(small.data()), SDS_TYPE_5);

    /* Shrinking a type 32 string: a type 16 header would save too little
     * to pay for a copy, a type 8 one is worth it. */
    sds big(std::string(70000, 'b'));
    big.range(0, 299);
    big.removeFreeSpace();
    expectContent(big, std::string(300, 'b'));
    EXPECT_EQ(sdsType(big.data()), SDS_TYPE_32);
    big.range(0, 99);
    big.removeFreeSpace();
    expectContent(big, std::string(100, 'b'));
    EXPECT_EQ(sdsType(big.data()), SDS_TYPE_8);
}

TEST(Sds, EmbeddedInCallerMemory) {
    /* An "embstr" object: a 16-byte object header, then the string. */
    constexpr size_t objHeader = 16;
    const std::string value(44, 'v');
    EXPECT_EQ(objHeader + sdsEmbedSize(value.size()), 64u); /* one 64-byte block */
    std::unique_ptr<char[]> mem(new char[objHeader + sdsEmbedSize(value.size())]);
    char *s = sdsInitEmbedded(mem.get() + objHeader, value);
    EXPECT_EQ(s, mem.get() + objHeader + sizeof(sdshdr8));
    EXPECT_EQ(sdsType(s), SDS_TYPE_8);
    EXPECT_EQ(sdslen(s), value.size());
    EXPECT_EQ(sdsavail(s), 0u);
    EXPECT_EQ(sdsview(s), value);
    EXPECT_EQ(s[value.size()], '\0');

    char tiny[sdsEmbedSize(0)];
    EXPECT_EQ(sdslen(sdsInitEmbedded(tiny, {})), 0u);
}

}  // namespace
