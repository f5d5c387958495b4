/* listpack_test.cpp — the listpack writer: byte for byte against listpacks
 * built by Redis 7.0.15 for the same writes, and against a std::vector model
 * through random inserts, replaces and deletes (read back with lpDecode and
 * walked both ways). The decoding of hand-built blobs is tested in
 * rdb_test.cpp (Listpack.*).
 *
 * How the golden bytes were obtained: Debian's redis-server 7.0.15, started
 * with `redis-server --port P --bind 127.0.0.1 --save '' --daemonize no`,
 * then (redis-cli -p P, or the same commands over a socket)
 *   CONFIG SET hash-max-listpack-entries 100000
 *   CONFIG SET hash-max-listpack-value 100000
 *   CONFIG SET rdbcompression no
 *   HSET <key> <field> <value> ...      (the writes listed in each test)
 *   DUMP <key>
 * A listpack-encoded hash dumps as the RDB type byte 16 (RDB_TYPE_HASH_LISTPACK),
 * the listpack as an RDB length-prefixed string (uncompressed, since
 * rdbcompression is off), then the RDB version and CRC-64; the bytes below
 * are that string. HSET appends a new field and its value (lpAppend), replaces
 * the value of an existing field (lpReplace), HDEL deletes the pair (a range
 * of two) and then asks for the hash's length (lpLength). The stream golden
 * is the listpack of the one node of `DUMP s` (RDB type 19) after
 *   XADD s 1-1 f v; XADD s 1-2 f v2; XADD s 5-0 f 300 g x
 * Runs of one repeated byte are written as std::string(n, c). */
#include <gtest/gtest.h>

#include <climits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "listpack.h"
#include "sha1.h"

namespace {

/* "6b 00 ff" -> the bytes 0x6b 0x00 0xff. */
std::string hex(std::string_view s) {
    std::string out;
    for (size_t i = 0; i + 1 < s.size(); i += 3) out += static_cast<char>(std::stoi(std::string(s.substr(i, 2)), nullptr, 16));
    return out;
}

std::string bytesOf(const listpack &lp) {
    return std::string(reinterpret_cast<const char *>(lp.data()), lpBytes(lp));
}

/* The entries as strings, integers in their decimal form. */
std::vector<std::string> decoded(const listpack &lp) {
    const std::string blob = bytesOf(lp);
    auto entries = lpDecode(blob);
    EXPECT_TRUE(entries.has_value());
    std::vector<std::string> out;
    if (entries)
        for (const ziplistEntry &e : *entries) out.push_back(e.toString());
    return out;
}

const std::vector<std::string> kIntegers = {
    "0", "127", "128", "-1", "-4096", "4095", "4096", "-4097", "32767", "-32768", "32768", "-32769",
    "8388607", "-8388608", "8388608", "2147483647", "-2147483648", "2147483648",
    "9223372036854775807", "-9223372036854775808"};

/* HSET ints 0 127 128 -1 ... (kIntegers as field/value pairs) */
const std::string kIntegersGolden = hex(
    "6b 00 00 00 14 00 00 01 7f 01 c0 80 02 df ff 02 d0 00 02 cf ff 02 f1 00 10 03 f1 ff ef 03 f1 ff 7f 03 "
    "f1 00 80 03 f2 00 80 00 04 f2 ff 7f ff 04 f2 ff ff 7f 04 f2 00 00 80 04 f3 00 00 80 00 05 f3 ff ff ff "
    "7f 05 f3 00 00 00 80 05 f4 00 00 00 80 00 00 00 00 09 f4 ff ff ff ff ff ff ff 7f 09 f4 00 00 00 00 00 "
    "00 00 80 09 ff");

}  // namespace

TEST(ListpackWriter, NewIsHeaderAndEnd) {
    listpack lp = lpNew(4096);
    EXPECT_EQ(bytesOf(lp), hex("07 00 00 00 00 00 ff"));
    EXPECT_FALSE(lpFirst(lp));
    EXPECT_FALSE(lpLast(lp));
    EXPECT_FALSE(lpSeek(lp, 0));
    EXPECT_FALSE(lpSeek(lp, -1));
    EXPECT_EQ(lpLength(lp), 0u);
    lpShrinkToFit(lp);
    EXPECT_EQ(bytesOf(lp), hex("07 00 00 00 00 00 ff"));
}

/* Every integer encoding at both ends of its range, appended as strings
 * (the way HSET appends them) and as integers: the same bytes as Redis's. */
TEST(ListpackWriter, IntegersAsRedisEncodesThem) {
    listpack fromStrings = lpNew();
    listpack fromIntegers = lpNew();
    for (const std::string &s : kIntegers) {
        lpAppend(fromStrings, s);
        lpAppendInteger(fromIntegers, std::stoll(s));
    }
    EXPECT_EQ(bytesOf(fromStrings), kIntegersGolden);
    EXPECT_EQ(bytesOf(fromIntegers), kIntegersGolden);
    EXPECT_EQ(decoded(fromStrings), kIntegers);
}

/* Strings of every length class (6, 12 and 32-bit lengths, at each
 * boundary), the empty string, and strings that look like integers but are
 * not canonical or do not fit in 64 bits: these stay strings. The 20000-byte
 * entry has a 3-byte backlen. */
TEST(ListpackWriter, StringsAsRedisEncodesThem) {
    /* HSET strs a "" 007 +1 -0 9223372036854775808 <63 x> <64 y> <4095 z>
     *           <4096 w> <5000 v> -9223372036854775809 <20000 u> 1.5 */
    const std::vector<std::string> values = {
        "a", "", "007", "+1", "-0", "9223372036854775808", std::string(63, 'x'), std::string(64, 'y'),
        std::string(4095, 'z'), std::string(4096, 'w'), std::string(5000, 'v'), "-9223372036854775809",
        std::string(20000, 'u'), "1.5"};
    const std::string golden =
        hex("8e 82 00 00 0e 00 81 61 02 80 01 83 30 30 37 04 82 2b 31 03 82 2d 30 03 93 39 32 32 33 33 37 32 30 "
            "33 36 38 35 34 37 37 35 38 30 38 14 bf") +
        std::string(63, 'x') + hex("40 e0 40") + std::string(64, 'y') + hex("42 ef ff") + std::string(4095, 'z') +
        hex("20 81 f0 00 10 00 00") + std::string(4096, 'w') + hex("20 85 f0 88 13 00 00") + std::string(5000, 'v') +
        hex("27 8d 94 2d 39 32 32 33 33 37 32 30 33 36 38 35 34 37 37 35 38 30 39 15 f0 20 4e 00 00") +
        std::string(20000, 'u') + hex("01 9c a5 83 31 2e 35 04 ff");
    listpack lp = lpNew();
    for (const std::string &s : values) lpAppend(lp, s);
    EXPECT_EQ(bytesOf(lp), golden);
    EXPECT_EQ(decoded(lp), values);
}

/* The backlen of an entry of 16383 bytes takes 3 bytes, one of 16382 bytes 2:
 * Redis's threshold, which a reader could not tell from the other choice. */
TEST(ListpackWriter, BacklenBoundaryAsRedis) {
    /* HSET bl a <16377 x> b <16378 y> */
    listpack lp = lpNew();
    for (const std::string &s : {std::string("a"), std::string(16377, 'x'), std::string("b"), std::string(16378, 'y')})
        lpAppend(lp, s);
    EXPECT_EQ(bytesOf(lp), hex("0f 80 00 00 04 00 81 61 02 f0 f9 3f 00 00") + std::string(16377, 'x') +
                               hex("7f fe 81 62 02 f0 fa 3f 00 00") + std::string(16378, 'y') + hex("00 ff ff ff"));
    EXPECT_EQ(lpGet(lp, lpPrev(lp, lpLast(lp))).sval, "b");
}

/* Replacing with a smaller and a larger entry, then deleting, as HSET and
 * HDEL do to a hash. */
TEST(ListpackWriter, ReplaceAndDeleteAsRedis) {
    listpack lp = lpNew();
    for (const char *s : {"f1", "v1", "f2", "v2", "f3", "v3"}) lpAppend(lp, s);
    /* HSET edit f1 v1 f2 v2 f3 v3 */
    EXPECT_EQ(bytesOf(lp), hex("1f 00 00 00 06 00 82 66 31 03 82 76 31 03 82 66 32 03 82 76 32 03 82 66 33 03 "
                               "82 76 33 03 ff"));
    /* HSET edit f2 12345 */
    lpReplace(lp, lpSeek(lp, 3), "12345");
    EXPECT_EQ(bytesOf(lp), hex("1f 00 00 00 06 00 82 66 31 03 82 76 31 03 82 66 32 03 f1 39 30 03 82 66 33 03 "
                               "82 76 33 03 ff"));
    /* HSET edit f1 <200 p> */
    const lppos v1 = lpSeek(lp, 1);
    lpReplace(lp, v1, std::string(200, 'p'));
    EXPECT_EQ(lpGet(lp, v1).sval, std::string(200, 'p'));
    EXPECT_EQ(bytesOf(lp), hex("e7 00 00 00 06 00 82 66 31 03 e0 c8") + std::string(200, 'p') +
                               hex("01 ca 82 66 32 03 f1 39 30 03 82 66 33 03 82 76 33 03 ff"));
    /* HDEL edit f3 */
    lpDeleteRange(lp, 4, 2);
    EXPECT_EQ(bytesOf(lp), hex("df 00 00 00 04 00 82 66 31 03 e0 c8") + std::string(200, 'p') +
                               hex("01 ca 82 66 32 03 f1 39 30 03 ff"));
    /* HDEL edit f1 */
    lppos p = lpDelete(lp, lpFirst(lp));
    EXPECT_EQ(p, lpFirst(lp));
    p = lpDelete(lp, p);
    EXPECT_EQ(lpGet(lp, p).sval, "f2");
    EXPECT_EQ(bytesOf(lp), hex("0f 00 00 00 02 00 82 66 32 03 f1 39 30 03 ff"));
    EXPECT_FALSE(lpDelete(lp, lpLast(lp))); /* nothing follows the last */
    EXPECT_EQ(decoded(lp), std::vector<std::string>{"f2"});
}

/* A stream node as t_stream.c's streamAppendItem builds it: the master entry,
 * then each entry, the master's count replaced in place at every XADD. */
TEST(ListpackWriter, StreamNodeAsRedis) {
    listpack lp = lpNew(4096);
    /* XADD s 1-1 f v: master entry (count, deleted, fields, "f", 0), then
     * flags SAMEFIELDS, ms and seq deltas, the value, lp-count. */
    for (long long v : {1, 0, 1}) lpAppendInteger(lp, v);
    lpAppend(lp, "f");
    lpAppendInteger(lp, 0);
    for (long long v : {2, 0, 0}) lpAppendInteger(lp, v);
    lpAppend(lp, "v");
    lpAppendInteger(lp, 4);
    /* XADD s 1-2 f v2 */
    lpReplaceInteger(lp, lpFirst(lp), 2);
    for (long long v : {2, 0, 1}) lpAppendInteger(lp, v);
    lpAppend(lp, "v2");
    lpAppendInteger(lp, 4);
    /* XADD s 5-0 f 300 g x: other fields, so no SAMEFIELDS flag */
    lpReplaceInteger(lp, lpFirst(lp), 3);
    for (long long v : {0, 4, -1, 2}) lpAppendInteger(lp, v);
    for (const char *s : {"f", "300", "g", "x"}) lpAppend(lp, s);
    lpAppendInteger(lp, 8);
    EXPECT_EQ(bytesOf(lp), hex("40 00 00 00 18 00 03 01 00 01 01 01 81 66 02 00 01 02 01 00 01 00 01 81 76 02 04 "
                               "01 02 01 00 01 01 01 82 76 32 03 04 01 00 01 04 01 df ff 02 02 01 81 66 02 c1 "
                               "2c 02 81 67 02 81 78 02 08 01 ff"));
    /* Backwards from the end, as XREVRANGE reads: lp-count, then the entry. */
    lppos p = lpLast(lp);
    EXPECT_EQ(lpGet(lp, p).lval, 8);
    for (int i = 0; i < 8; i++) p = lpPrev(lp, p);
    EXPECT_EQ(lpGet(lp, p).lval, 0); /* the flags of the third entry */
    EXPECT_EQ(lpGet(lp, lpNext(lp, lpNext(lp, p))).lval, -1);
}

/* Past 65534 entries num-elements says "unknown" (65535) and writes leave it
 * so; lpLength counts and stores the count once it fits again. Redis's bytes
 * are compared by SHA-1: the hash `big` was built with
 *   HSET big 0 0 1 1 ... 32767 32767   (in batches of 1024 pairs)
 * and dumped (65536 entries), then `HDEL big 0` (a range of two, then
 * lpLength from HDEL's emptiness check) and dumped again. */
TEST(ListpackWriter, CountSaturatesAt65535) {
    /* Room for it all up front, as streams preallocate: without it every
     * append reallocates, and under ASan each realloc copies the lot. */
    listpack lp = lpNew(256 * 1024);
    for (int i = 0; i < 32768; i++) {
        const std::string s = std::to_string(i);
        lpAppend(lp, s);
        lpAppend(lp, s);
    }
    std::string bytes = bytesOf(lp);
    EXPECT_EQ(bytes.size(), 253703u);
    EXPECT_EQ(bytes.substr(4, 2), hex("ff ff"));
    EXPECT_EQ(sha1hex(bytes), "bb7b5758635134e6ac41e08c0d86d54136981273");
    EXPECT_EQ(lpLength(lp), 65536u);
    EXPECT_EQ(lpGet(lp, lpSeek(lp, -1)).lval, 32767); /* backwards: the count is unknown */
    EXPECT_EQ(lpGet(lp, lpSeek(lp, 40001)).lval, 20000);

    lpDeleteRange(lp, 0, 2);
    EXPECT_EQ(bytesOf(lp).substr(4, 2), hex("ff ff")); /* still unknown */
    EXPECT_EQ(lpLength(lp), 65534u);
    bytes = bytesOf(lp);
    EXPECT_EQ(bytes.substr(4, 2), hex("fe ff"));
    EXPECT_EQ(bytes.size(), 253699u);
    EXPECT_EQ(sha1hex(bytes), "a583486c35e52050aafb172ac593512549c0409b");
}

TEST(ListpackWriter, InsertBeforeAndAfter) {
    listpack lp = lpNew();
    lppos p = lpInsertString(lp, "b", lppos{static_cast<uint32_t>(lpBytes(lp) - 1)}, LP_BEFORE);
    EXPECT_EQ(p, lpFirst(lp));
    lppos a = lpInsertInteger(lp, -5, p, LP_BEFORE);
    EXPECT_EQ(a, lpFirst(lp));
    lppos c = lpInsertString(lp, "c", lpNext(lp, a), LP_AFTER);
    EXPECT_EQ(c, lpLast(lp));
    lpInsertInteger(lp, 1000, lpFirst(lp), LP_REPLACE);
    EXPECT_EQ(decoded(lp), (std::vector<std::string>{"1000", "b", "c"}));
    EXPECT_EQ(lpLength(lp), 3u);
}

/* Random writes against a std::vector: after each, lpDecode reads back the
 * model, and the walks forward, backward and by index agree with it. */
TEST(ListpackWriter, RandomWritesMatchModel) {
    std::mt19937_64 rng(15);
    auto value = [&]() -> std::string {
        switch (rng() % 6) {
        case 0: return std::to_string(static_cast<long long>(rng()) >> (rng() % 64));
        case 1: return std::to_string(static_cast<int>(rng() % 20000) - 10000);
        case 2: return std::string(rng() % 70, 'a' + rng() % 26);
        case 3: return std::string(rng() % 5000, 'A' + rng() % 26);
        case 4: return std::string(16380 + rng() % 8, 's'); /* backlen 2 or 3 bytes */
        default: return "0" + std::to_string(rng() % 100);  /* never an integer */
        }
    };
    listpack lp = lpNew();
    std::vector<std::string> model;
    for (int op = 0; op < 600; op++) {
        const long n = static_cast<long>(model.size());
        const long i = n ? static_cast<long>(rng() % n) : 0;
        switch (n ? rng() % 6 : 0) {
        case 0:
        case 1: {
            std::string v = value();
            lpAppend(lp, v);
            model.push_back(v);
            break;
        }
        case 2: {
            std::string v = value();
            lpInsertString(lp, v, lpSeek(lp, i), LP_BEFORE);
            model.insert(model.begin() + i, v);
            break;
        }
        case 3: {
            std::string v = value();
            lpReplace(lp, lpSeek(lp, i - n), v); /* a negative index */
            model[i] = v;
            break;
        }
        case 4: {
            lppos next = lpDelete(lp, lpSeek(lp, i));
            model.erase(model.begin() + i);
            EXPECT_EQ(next, i + 1 < n ? lpSeek(lp, i) : lppos{});
            break;
        }
        default: {
            const unsigned long num = rng() % 4;
            lpDeleteRange(lp, i, num);
            model.erase(model.begin() + i, model.begin() + std::min<long>(n, i + num));
            break;
        }
        }
        ASSERT_EQ(decoded(lp), model) << "after op " << op;
        ASSERT_EQ(lpLength(lp), model.size());
        std::vector<std::string> backwards;
        for (lppos p = lpLast(lp); p; p = lpPrev(lp, p)) backwards.insert(backwards.begin(), lpGet(lp, p).toString());
        ASSERT_EQ(backwards, model);
        if (!model.empty()) {
            const long k = static_cast<long>(rng() % model.size());
            ASSERT_EQ(lpGet(lp, lpSeek(lp, k)).toString(), model[k]);
            ASSERT_EQ(lpGet(lp, lpSeek(lp, k - static_cast<long>(model.size()))).toString(), model[k]);
        }
        ASSERT_FALSE(lpSeek(lp, static_cast<long>(model.size())));
    }
}

/* lpFromBytes adopts a listpack read from an RDB file (a stream node): the
 * same bytes, which the writers then extend as any listpack of their own. */
TEST(ListpackFromBytes, AdoptsAWellFormedListpack) {
    const std::string node = hex("40 00 00 00 18 00 03 01 00 01 01 01 81 66 02 00 01 02 01 00 01 00 01 81 76 02 04 "
                                 "01 02 01 00 01 01 01 82 76 32 03 04 01 00 01 04 01 df ff 02 02 01 81 66 02 c1 "
                                 "2c 02 81 67 02 81 78 02 08 01 ff");
    std::optional<listpack> lp = lpFromBytes(node);
    ASSERT_TRUE(lp.has_value());
    EXPECT_EQ(bytesOf(*lp), node);
    EXPECT_EQ(lpLength(*lp), 24u);
    EXPECT_EQ(lpGet(*lp, lpLast(*lp)).lval, 8);
    lpReplaceInteger(*lp, lpFirst(*lp), 4);
    lpAppend(*lp, "more");
    EXPECT_EQ(decoded(*lp).front(), "4");
    EXPECT_EQ(decoded(*lp).back(), "more");

    const std::string empty = hex("07 00 00 00 00 00 ff");
    ASSERT_TRUE(lpFromBytes(empty).has_value());
    EXPECT_FALSE(lpFirst(*lpFromBytes(empty)));
}

/* Every flaw lpDecode refuses, lpFromBytes refuses too: nothing outside the
 * blob is ever read by the listpack it would return. */
TEST(ListpackFromBytes, RefusesMalformedBytes) {
    const std::string good = hex("0f 00 00 00 02 00 82 66 32 03 f1 39 30 03 ff"); /* "f2", 12345 */
    ASSERT_TRUE(lpFromBytes(good).has_value());
    auto with = [&](size_t at, char byte) {
        std::string s = good;
        s[at] = byte;
        return s;
    };
    EXPECT_FALSE(lpFromBytes(""));
    EXPECT_FALSE(lpFromBytes(good.substr(0, 6)));            /* no end byte */
    EXPECT_FALSE(lpFromBytes(good.substr(0, good.size() - 1))); /* total-bytes says more */
    EXPECT_FALSE(lpFromBytes(good + "\xff"));                 /* total-bytes says less */
    EXPECT_FALSE(lpFromBytes(with(0, 0x10)));                 /* a header that lies */
    EXPECT_FALSE(lpFromBytes(with(4, 3)));                    /* the element count */
    EXPECT_FALSE(lpFromBytes(with(9, 4)));                    /* a backlen */
    EXPECT_FALSE(lpFromBytes(with(6, static_cast<char>(0xbf)))); /* a string running past the end */
    EXPECT_FALSE(lpFromBytes(with(10, static_cast<char>(0xf5)))); /* an unused encoding */
    EXPECT_FALSE(lpFromBytes(with(14, 0)));                   /* the end byte */
    std::string unknown = good; /* 65535: a count not kept, which Redis accepts */
    unknown[4] = unknown[5] = static_cast<char>(0xff);
    EXPECT_TRUE(lpFromBytes(unknown).has_value());
}
