/* rdb_test.cpp — unit tests of the RDB building blocks: CRC-64 and SHA-1
 * against their published check values, the length and string encodings
 * (edge values, integers, LZF) through a save and a load, listpack
 * decoding of hand-built blobs (every entry encoding, and the malformed
 * ones refused), intset blobs, values of every encoding saved and loaded
 * back, and the file-level errors (signature, version, checksum, short
 * read). The server-level behaviour is tested in integration/rdb_test.cpp. */
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <string>
#include <vector>

#include "crc64.h"
#include "intset.h"
#include "listpack.h"
#include "rdb.h"
#include "rio.h"
#include "server.h"
#include "sha1.h"
#include "t_hash.h"
#include "t_list.h"
#include "t_set.h"
#include "t_zset.h"

namespace {

std::string saved(bool (*save)(rio &, std::string_view), std::string_view s) {
    rioBuffer out;
    EXPECT_TRUE(save(out, s));
    return out.contents();
}

std::string savedLen(uint64_t len) {
    rioBuffer out;
    EXPECT_TRUE(rdbSaveLen(out, len));
    return out.contents();
}

/* ------------------------------------------------------------------------
 * Checksums
 * ---------------------------------------------------------------------- */

TEST(Crc64, JonesCheckValue) {
    const std::string s = "123456789";
    EXPECT_EQ(crc64(0, reinterpret_cast<const unsigned char *>(s.data()), s.size()), 0xe9c6d914c4b8d9caULL);
    EXPECT_EQ(crc64(0, nullptr, 0), 0u);
}

/* Chunk by chunk equals all at once, whatever the split (the 8-byte fast
 * path and the byte loop must agree). */
TEST(Crc64, IncrementalEqualsWhole) {
    std::string data;
    for (int i = 0; i < 1000; i++) data += static_cast<char>(i * 31 + 7);
    const auto *p = reinterpret_cast<const unsigned char *>(data.data());
    uint64_t whole = crc64(0, p, data.size());
    for (size_t split : {size_t{1}, size_t{7}, size_t{8}, size_t{13}, size_t{500}, size_t{999}})
        EXPECT_EQ(crc64(crc64(0, p, split), p + split, data.size() - split), whole) << split;
}

TEST(Sha1, KnownDigests) {
    EXPECT_EQ(sha1hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    EXPECT_EQ(sha1hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
    EXPECT_EQ(sha1hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
    EXPECT_EQ(sha1hex(std::string(1000000, 'a')), "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}

TEST(Sha1, IncrementalEqualsWhole) {
    std::string data(200, 'x');
    for (size_t split : {size_t{0}, size_t{55}, size_t{64}, size_t{65}, size_t{130}}) {
        SHA1_CTX ctx;
        ctx.update(data.data(), split);
        ctx.update(data.data() + split, data.size() - split);
        unsigned char digest[20], whole[20];
        ctx.final(digest);
        sha1(whole, data.data(), data.size());
        EXPECT_EQ(std::string(reinterpret_cast<char *>(digest), 20), std::string(reinterpret_cast<char *>(whole), 20));
    }
}

/* ------------------------------------------------------------------------
 * Lengths and strings
 * ---------------------------------------------------------------------- */

/* 1 byte below 64, 2 below 16384, 5 up to 2^32-1, 9 beyond: each boundary
 * from both sides, and each read back. */
TEST(RdbLen, EdgeValuesRoundTrip) {
    const std::vector<std::pair<uint64_t, size_t>> cases = {
        {0, 1},           {63, 1},          {64, 2},         {16383, 2},       {16384, 5},
        {UINT32_MAX, 5},  {uint64_t{UINT32_MAX} + 1, 9},     {UINT64_MAX, 9}};
    for (auto [len, bytes] : cases) {
        std::string enc = savedLen(len);
        EXPECT_EQ(enc.size(), bytes) << len;
        rioBuffer in(enc);
        bool isencoded = true;
        EXPECT_EQ(rdbLoadLen(in, &isencoded), len);
        EXPECT_FALSE(isencoded);
    }
    EXPECT_EQ(savedLen(64), std::string("\x40\x40", 2));          /* 01|000000 01000000 */
    EXPECT_EQ(savedLen(16384), std::string("\x80\x00\x00\x40\x00", 5)); /* 0x80, big-endian */
}

TEST(RdbLen, TruncatedAndUnknownEncodingsThrow) {
    rioBuffer empty;
    EXPECT_THROW(rdbLoadLen(empty), RdbLoadError);
    rioBuffer half(std::string("\x80\x00", 2));
    EXPECT_THROW(rdbLoadLen(half), RdbLoadError);
    rioBuffer bad(std::string("\x82", 1)); /* 10|000010: neither 0x80 nor 0x81 */
    EXPECT_THROW(rdbLoadLen(bad), RdbLoadError);
    rioBuffer encoded(std::string("\xC0", 1)); /* a string encoding where a length must be */
    EXPECT_THROW(rdbLoadLen(encoded), RdbLoadError);
}

std::string roundTrip(std::string_view s) {
    rioBuffer in(saved(rdbSaveRawString, s));
    return rdbGenericLoadStringObject(in);
}

/* Canonical integers of 8, 16 and 32 bits take 2, 3 and 5 bytes; anything
 * that would not read back identical stays a string. */
TEST(RdbString, IntegerEncodings) {
    const std::vector<std::pair<std::string, size_t>> cases = {
        {"0", 2},          {"-128", 2},        {"127", 2},    {"128", 3},          {"-32768", 3},
        {"32767", 3},      {"32768", 5},       {"-2147483648", 5}, {"2147483647", 5},
        {"2147483648", 11}, {"-2147483649", 12}, {"007", 4},   {"+1", 3},           {"-0", 3},
        {"", 1},           {"12345678901", 12}};
    for (const auto &[s, bytes] : cases) {
        EXPECT_EQ(saved(rdbSaveRawString, s).size(), bytes) << s;
        EXPECT_EQ(roundTrip(s), s);
    }
}

/* LZF over 20 bytes when it saves room; incompressible or short strings
 * stay as they are; rdbcompression no turns it off. */
TEST(RdbString, LzfRoundTrip) {
    std::string compressible(1000, 'e');
    std::string enc = saved(rdbSaveRawString, compressible);
    EXPECT_LT(enc.size(), 100u);
    EXPECT_EQ(static_cast<unsigned char>(enc[0]), 0xC3); /* 11|000011: RDB_ENC_LZF */
    EXPECT_EQ(roundTrip(compressible), compressible);

    EXPECT_EQ(saved(rdbSaveRawString, std::string(20, 'e')).size(), 21u); /* 20 bytes: never compressed */
    EXPECT_EQ(saved(rdbSaveRawString, std::string(44, 'e')).size(), 12u); /* as Redis's serializedlength */

    std::string noise;
    for (uint32_t i = 0, x = 1; i < 300; i++) noise += static_cast<char>((x = x * 1103515245 + 12345) >> 16);
    EXPECT_EQ(saved(rdbSaveRawString, noise).size(), 2 + noise.size());
    EXPECT_EQ(roundTrip(noise), noise);

    server.rdb_compression = false;
    EXPECT_EQ(saved(rdbSaveRawString, compressible).size(), 2 + compressible.size());
    server.rdb_compression = true;
}

TEST(RdbString, CorruptLzfThrows) {
    std::string enc = saved(rdbSaveRawString, std::string(1000, 'e'));
    ASSERT_EQ(enc.substr(2, 2), "\x43\xE8"); /* 0xC3, the compressed length, then 1000 */
    enc[3] = '\xE7';                        /* claims 999 bytes: the data holds 1000 */
    rioBuffer in(enc);
    EXPECT_THROW(rdbGenericLoadStringObject(in), RdbLoadError);
    rioBuffer truncated(enc.substr(0, enc.size() - 3));
    EXPECT_THROW(rdbGenericLoadStringObject(truncated), RdbLoadError);
}

/* A huge claimed length in a tiny buffer: a short read, not an allocation
 * of the claimed size. */
TEST(RdbString, HugeLengthIsAShortRead) {
    rioBuffer in(std::string("\x81\x00\x00\x10\x00\x00\x00\x00\x00" "abc", 12));
    try {
        rdbGenericLoadStringObject(in);
        FAIL() << "no error";
    } catch (const RdbLoadError &e) {
        EXPECT_EQ(e.kind, RdbLoadError::ShortRead);
    }
}

/* ------------------------------------------------------------------------
 * Listpacks (as Redis 7 writes them) and intsets
 * ---------------------------------------------------------------------- */

/* A listpack builder for the tests: each entry is its encoding+data bytes,
 * followed by the backlen lpEncodeBacklen would write. */
class ListpackBuilder {
public:
    ListpackBuilder &raw(const std::string &entry) {
        body_ += entry;
        size_t l = entry.size();
        if (l <= 127) {
            body_ += static_cast<char>(l);
        } else {
            body_ += static_cast<char>(l >> 7);
            body_ += static_cast<char>((l & 127) | 128);
        }
        count_++;
        return *this;
    }
    ListpackBuilder &str(const std::string &s) {
        if (s.size() < 64) return raw(std::string(1, static_cast<char>(0x80 | s.size())) + s);
        if (s.size() < 4096) return raw(std::string{static_cast<char>(0xE0 | (s.size() >> 8)), static_cast<char>(s.size() & 0xFF)} + s);
        std::string hdr{'\xF0'};
        for (int i = 0; i < 4; i++) hdr += static_cast<char>(s.size() >> (8 * i));
        return raw(hdr + s);
    }
    std::string build(long count = -1) const {
        std::string lp(6, '\0');
        lp += body_;
        lp += '\xFF';
        for (int i = 0; i < 4; i++) lp[i] = static_cast<char>(lp.size() >> (8 * i));
        size_t n = count < 0 ? count_ : static_cast<size_t>(count);
        lp[4] = static_cast<char>(n & 0xFF);
        lp[5] = static_cast<char>(n >> 8);
        return lp;
    }

private:
    std::string body_;
    size_t count_ = 0;
};

/* One entry of every encoding, with both ends of each integer range. */
TEST(Listpack, DecodesEveryEncoding) {
    ListpackBuilder b;
    b.raw("\x05")                                            /* 7-bit uint: 5 */
        .raw("\x7f")                                         /* 127 */
        .str("hi")                                           /* 6-bit string */
        .str(std::string(100, 's'))                          /* 12-bit string */
        .str(std::string(5000, 'L'))                         /* 32-bit string */
        .raw(std::string("\xC0\x80", 2))                     /* 13-bit: 128 */
        .raw(std::string("\xDF\xFF", 2))                     /* 13-bit: -1 */
        .raw(std::string("\xF1\x00\x80", 3))                 /* int16: -32768 */
        .raw(std::string("\xF2\xFF\xFF\x7F", 4))             /* int24: 8388607 */
        .raw(std::string("\xF3\x00\x00\x00\x80", 5))         /* int32: -2^31 */
        .raw(std::string("\xF4\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x7F", 9)); /* int64 max */
    const std::string blob = b.build(); /* the string entries are views into it */
    auto entries = lpDecode(blob);
    ASSERT_TRUE(entries.has_value());
    ASSERT_EQ(entries->size(), 11u);
    const std::vector<long long> ints = {5, 127, 128, -1, -32768, 8388607, INT32_MIN, LLONG_MAX};
    std::vector<long long> got;
    std::vector<std::string> strs;
    for (const ziplistEntry &e : *entries) {
        if (e.isInt) got.push_back(e.lval);
        else strs.emplace_back(e.sval);
    }
    EXPECT_EQ(got, ints);
    EXPECT_EQ(strs, (std::vector<std::string>{"hi", std::string(100, 's'), std::string(5000, 'L')}));
}

TEST(Listpack, EmptyAndUnknownCount) {
    auto empty = lpDecode(ListpackBuilder().build());
    ASSERT_TRUE(empty.has_value());
    EXPECT_TRUE(empty->empty());
    /* 65535 means "count them": any actual count is fine. */
    auto unknown = lpDecode(ListpackBuilder().str("a").str("b").build(65535));
    ASSERT_TRUE(unknown.has_value());
    EXPECT_EQ(unknown->size(), 2u);
}

TEST(Listpack, MalformedBlobsAreRefused) {
    std::string good = ListpackBuilder().str("abc").raw("\x07").build();
    ASSERT_TRUE(lpDecode(good));
    std::string wrongTotal = good;
    wrongTotal[0]++;
    std::string noEnd = good;
    noEnd.back() = '\x00';
    std::string badBacklen = good;
    badBacklen[6 + 4] = 9; /* the string entry is 4 bytes long, not 9 */
    std::string stringPastEnd = ListpackBuilder().raw("\xBF" + std::string(3, 'x')).build(); /* claims 63 bytes */
    std::string unusedEncoding = ListpackBuilder().raw("\xF5").build();
    for (const std::string &bad : {wrongTotal, noEnd, badBacklen, stringPastEnd, unusedEncoding,
                                   ListpackBuilder().str("a").build(2), good.substr(0, 5), std::string()})
        EXPECT_FALSE(lpDecode(bad).has_value()) << bad.size() << " bytes";
}

TEST(Intset, FromBlobValidates) {
    intset is;
    for (int64_t v : {5, -3, 70000}) is.add(v);
    std::string blob(reinterpret_cast<const char *>(is.data()), is.blobLen());
    auto copy = intset::fromBlob(blob);
    ASSERT_TRUE(copy.has_value());
    EXPECT_EQ(copy->encoding(), INTSET_ENC_INT32);
    EXPECT_EQ(copy->len(), 3u);
    std::string unsorted = blob;
    std::swap_ranges(unsorted.begin() + 8, unsorted.begin() + 12, unsorted.begin() + 12); /* -3 and 5 swapped */
    std::string badEncoding = blob;
    badEncoding[0] = 3;
    for (const std::string &bad : {blob.substr(0, blob.size() - 1), badEncoding, unsorted, std::string("\x02\x00", 2)})
        EXPECT_FALSE(intset::fromBlob(bad).has_value());
}

/* ------------------------------------------------------------------------
 * Values: every encoding saved and loaded back
 * ---------------------------------------------------------------------- */

class RdbObject : public ::testing::Test {
protected:
    /* Saves `o` with its type byte and loads it back. */
    static ObjRef reload(const robj *o) {
        rioBuffer out;
        EXPECT_TRUE(rdbSaveObjectType(out, o));
        EXPECT_TRUE(rdbSaveObject(out, o));
        EXPECT_EQ(rdbSavedObjectLen(o) + 1, out.contents().size());
        rioBuffer in(out.contents());
        int type = rdbLoadType(in);
        return rdbLoadObject(type, in);
    }
    static std::vector<std::string> listItems(robj *o) {
        std::vector<std::string> out;
        listTypeIterator li = listTypeInitIterator(o, 0, LIST_TAIL);
        char buf[LONG_STR_SIZE];
        for (listTypeEntry e; listTypeNext(&li, &e);) out.emplace_back(listTypeValueView(listTypeGet(&e), buf));
        return out;
    }
};

TEST_F(RdbObject, ListsKeepTheirEncoding) {
    for (unsigned enc : {OBJ_ENCODING_ZIPLIST, OBJ_ENCODING_LINKEDLIST}) {
        ObjRef o = createZiplistObject();
        for (const char *v : {"a", "12", "-7", "hello world"}) listTypePush(o.get(), v, LIST_TAIL);
        if (enc == OBJ_ENCODING_LINKEDLIST) listTypePush(o.get(), std::string(65, 'x'), LIST_TAIL);
        ObjRef back = reload(o.get());
        ASSERT_TRUE(back);
        EXPECT_EQ(back->encoding, enc);
        EXPECT_EQ(listItems(back.get()), listItems(o.get()));
    }
}

TEST_F(RdbObject, SetsHashesZsets) {
    ObjRef is = createIntsetObject();
    for (const char *v : {"1", "70000", "-5"}) setTypeAdd(is.get(), v);
    ObjRef isBack = reload(is.get());
    EXPECT_EQ(isBack->encoding, OBJ_ENCODING_INTSET);
    EXPECT_EQ(objectIntset(isBack.get()).encoding(), INTSET_ENC_INT32);
    EXPECT_TRUE(setTypeIsMember(isBack.get(), "70000"));

    ObjRef hs = createSetObject();
    for (const char *v : {"a", "b", "1"}) setTypeAdd(hs.get(), v);
    ObjRef hsBack = reload(hs.get());
    EXPECT_EQ(hsBack->encoding, OBJ_ENCODING_HT);
    EXPECT_EQ(setTypeSize(hsBack.get()), 3u);

    ObjRef h = createHashObject();
    hashTypeSet(h.get(), "f", "v");
    hashTypeSet(h.get(), "n", "42");
    EXPECT_EQ(reload(h.get())->encoding, OBJ_ENCODING_ZIPLIST);
    hashTypeSet(h.get(), "long", std::string(65, 'v'));
    ObjRef hBack = reload(h.get());
    EXPECT_EQ(hBack->encoding, OBJ_ENCODING_HT);
    EXPECT_EQ(hashTypeGetValueLength(hBack.get(), "long"), 65u);

    ObjRef z = createZsetZiplistObject();
    int out;
    double newscore;
    for (auto [m, s] : std::vector<std::pair<std::string, double>>{
             {"a", 1}, {"b", 2.5}, {"c", -INFINITY}, {"d", INFINITY}, {"e", 0.1}})
        zsetAdd(z.get(), s, m, ZADD_IN_NONE, &out, &newscore);
    EXPECT_EQ(reload(z.get())->encoding, OBJ_ENCODING_ZIPLIST);
    zsetConvert(z.get(), OBJ_ENCODING_SKIPLIST, {"test"});
    ObjRef zBack = reload(z.get());
    EXPECT_EQ(zBack->encoding, OBJ_ENCODING_ZIPLIST); /* it fits the limits: compact again, as Redis */
    double score;
    ASSERT_TRUE(zsetScore(zBack.get(), "e", &score));
    EXPECT_EQ(score, 0.1);
    ASSERT_TRUE(zsetScore(zBack.get(), "c", &score));
    EXPECT_EQ(score, -INFINITY);
}

/* Redis 7's ZSET_LISTPACK: in (score, member) order, its entries become the
 * ziplist as they are; out of order, the set is rebuilt sorted; a member
 * twice (even under two scores) or a score that is no number is corrupt. */
TEST_F(RdbObject, ZsetListpackCopiedInOrderRebuiltOtherwise) {
    auto load = [](const std::string &lp) {
        rioBuffer in(saved(rdbSaveRawString, lp));
        return rdbLoadObject(RDB_TYPE_ZSET_LISTPACK, in);
    };
    auto entries = [](robj *o) {
        std::vector<std::string> out;
        const ziplist &zl = objectZiplist(o);
        for (zlpos p = zl.index(0); p; p = zl.next(p)) out.push_back(zl.get(p).toString());
        return out;
    };
    ObjRef in_order = load(ListpackBuilder().str("a").raw("\x01").str("b").str("2.5").str("c").str("2.5").build());
    ASSERT_TRUE(in_order);
    EXPECT_EQ(in_order->encoding, OBJ_ENCODING_ZIPLIST);
    EXPECT_EQ(entries(in_order.get()), (std::vector<std::string>{"a", "1", "b", "2.5", "c", "2.5"}));
    double score;
    ASSERT_TRUE(zsetScore(in_order.get(), "c", &score));
    EXPECT_EQ(score, 2.5);
    ObjRef out_of_order = load(ListpackBuilder().str("c").str("2.5").str("b").str("2.5").str("a").raw("\x01").build());
    ASSERT_TRUE(out_of_order);
    EXPECT_EQ(out_of_order->encoding, OBJ_ENCODING_ZIPLIST);
    EXPECT_EQ(entries(out_of_order.get()), entries(in_order.get()));
    EXPECT_THROW(load(ListpackBuilder().str("a").raw("\x01").str("a").raw("\x02").build()), RdbLoadError);
    EXPECT_THROW(load(ListpackBuilder().str("a").str("x1").build()), RdbLoadError);
}

/* Redis 3.2 - 6.2's lists: a count of ziplist nodes (empty ones skipped). */
TEST_F(RdbObject, QuicklistOfZiplists) {
    rioBuffer out;
    rdbSaveLen(out, 3);
    ziplist a, empty, b;
    for (const char *v : {"x", "1"}) a.push(v, ZIPLIST_TAIL);
    b.push(std::string(70, 'y'), ZIPLIST_TAIL);
    for (const ziplist *zl : {&a, &empty, &b})
        rdbSaveRawString(out, {reinterpret_cast<const char *>(zl->data()), zl->blobLen()});
    rioBuffer in(out.contents());
    ObjRef o = rdbLoadObject(RDB_TYPE_LIST_QUICKLIST, in);
    ASSERT_TRUE(o);
    EXPECT_EQ(o->encoding, OBJ_ENCODING_LINKEDLIST); /* a 70-byte element */
    EXPECT_EQ(listItems(o.get()), (std::vector<std::string>{"x", "1", std::string(70, 'y')}));
}

/* Redis < 2.6's small hashes: a zipmap, <zmlen> then <len>field <len><free>
 * value <free bytes>, ended by 255. */
TEST_F(RdbObject, Zipmap) {
    std::string zm = std::string("\x02") + "\x01" + "a" + "\x02\x01" + "vv" + "?" + "\x03" + "big" +
                     std::string("\xfe\x2c\x01\x00\x00\x00", 6) + std::string(300, 'z') + "\xff";
    rioBuffer out;
    rdbSaveRawString(out, zm);
    rioBuffer in(out.contents());
    ObjRef o = rdbLoadObject(RDB_TYPE_HASH_ZIPMAP, in);
    ASSERT_TRUE(o);
    EXPECT_EQ(o->encoding, OBJ_ENCODING_HT); /* a 300-byte value */
    EXPECT_EQ(hashTypeLength(o.get()), 2u);
    EXPECT_EQ(hashTypeGetValueLength(o.get(), "a"), 2u);
    EXPECT_EQ(hashTypeGetValueLength(o.get(), "big"), 300u);
    rioBuffer truncated;
    rdbSaveRawString(truncated, zm.substr(0, 12));
    rioBuffer bad(truncated.contents());
    EXPECT_THROW(rdbLoadObject(RDB_TYPE_HASH_ZIPMAP, bad), RdbLoadError);
}

/* Duplicates in a hash table payload mean a corrupt file, not a crash. */
TEST_F(RdbObject, DuplicatesAreCorrupt) {
    rioBuffer out;
    rdbSaveLen(out, 2);
    for (int i = 0; i < 2; i++) rdbSaveRawString(out, "same");
    rioBuffer in(out.contents());
    EXPECT_THROW(rdbLoadObject(RDB_TYPE_SET, in), RdbLoadError);
}

/* ------------------------------------------------------------------------
 * The file
 * ---------------------------------------------------------------------- */

class RdbFile : public ::testing::Test {
protected:
    void SetUp() override {
        if (!server.db) initDatabases();
        emptyData(-1, EMPTYDB_NO_FLAGS);
    }
    void TearDown() override { emptyData(-1, EMPTYDB_NO_FLAGS); }
    static std::string saveAll() {
        rioBuffer out;
        EXPECT_TRUE(rdbSaveRio(out));
        return out.contents();
    }
    static RdbLoadError::Kind loadError(const std::string &file) {
        emptyData(-1, EMPTYDB_NO_FLAGS);
        rioBuffer in(file);
        try {
            rdbLoadRio(in, RDBFLAGS_NONE);
        } catch (const RdbLoadError &e) {
            return e.kind;
        }
        ADD_FAILURE() << "the file loaded";
        return RdbLoadError::Corrupt;
    }
};

/* "REDIS0006", EOF, 8 bytes of CRC. */
TEST_F(RdbFile, EmptyDatasetIs18Bytes) {
    std::string file = saveAll();
    ASSERT_EQ(file.size(), 18u);
    EXPECT_EQ(file.substr(0, 10), std::string("REDIS0006\xFF", 10));
    rioBuffer in(file);
    EXPECT_NO_THROW(rdbLoadRio(in, RDBFLAGS_NONE));
}

/* A multi-part AOF's base, as Redis 7.0 writes one: version 10, the
 * aof-base field, each db's RESIZEDB after its SELECTDB; it loads back. */
TEST_F(RdbFile, AofBaseHasRedis7sAuxFieldAndResizeDb) {
    dbAdd(&server.db[0], "k", createStringObject("v"));
    dbAdd(&server.db[0], "t", createStringObject("w"));
    setExpire(nullptr, &server.db[0], "t", 4000000000000LL);
    rioBuffer out;
    ASSERT_TRUE(rdbSaveRio(out, RDBFLAGS_AOF_PREAMBLE));
    const std::string &file = out.contents();
    const std::string head = std::string("REDIS0010\xFA\x08" "aof-base\xC0\x01", 21) + /* AUX "aof-base" 1 (an int) */
                             std::string("\xFE\x00\xFB\x02\x01", 5);                  /* SELECTDB 0, RESIZEDB 2 1 */
    EXPECT_EQ(file.substr(0, head.size()), head);
    emptyData(-1, EMPTYDB_NO_FLAGS);
    rioBuffer in(file);
    ASSERT_NO_THROW(rdbLoadRio(in, RDBFLAGS_NONE));
    EXPECT_EQ(server.db[0].dict.size(), 2u);
    EXPECT_EQ(getExpire(&server.db[0], "t"), 4000000000000LL);
}

TEST_F(RdbFile, ErrorsByKind) {
    dbAdd(&server.db[0], "k", createStringObject("value"));
    std::string file = saveAll();
    rioBuffer in(file);
    emptyData(-1, EMPTYDB_NO_FLAGS);
    ASSERT_NO_THROW(rdbLoadRio(in, RDBFLAGS_NONE));
    EXPECT_EQ(server.db[0].dict.size(), 1u);

    std::string badCrc = file;
    badCrc[file.find("value")] = 'V';
    EXPECT_EQ(loadError(badCrc), RdbLoadError::Corrupt);
    for (size_t cut : {size_t{3}, size_t{9}, size_t{12}, file.size() - 1})
        EXPECT_EQ(loadError(file.substr(0, cut)), RdbLoadError::ShortRead) << cut;
    EXPECT_EQ(loadError("REDIS0011" + file.substr(9)), RdbLoadError::Unsupported);
    EXPECT_EQ(loadError("RUDIS0006" + file.substr(9)), RdbLoadError::Unsupported);
    EXPECT_EQ(loadError(std::string("REDIS0006\x08\x01k", 12)), RdbLoadError::Corrupt); /* no type 8 */
}

/* A zero checksum means "saved with rdbchecksum no": not verified. */
TEST_F(RdbFile, ZeroChecksumIsNotVerified) {
    dbAdd(&server.db[0], "k", createStringObject("v"));
    server.rdb_checksum = false;
    std::string file = saveAll();
    server.rdb_checksum = true;
    EXPECT_EQ(file.substr(file.size() - 8), std::string(8, '\0'));
    emptyData(-1, EMPTYDB_NO_FLAGS);
    rioBuffer in(file);
    EXPECT_NO_THROW(rdbLoadRio(in, RDBFLAGS_NONE));
}

}  // namespace
