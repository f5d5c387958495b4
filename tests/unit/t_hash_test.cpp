/* t_hash_test.cpp — the Hash Type API of t_hash.cpp, without a server:
 * random sets, deletes and reads against a std::map, in both encodings and
 * across the conversion (at the entry and at the value-length threshold),
 * the iterator, hashTypeDup and the numbers the ziplist stores as integers.
 */
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <random>
#include <string>
#include <string_view>

#include "server.h"
#include "t_hash.h"

namespace {

/* Every field and value, read through the iterator. */
std::map<std::string, std::string> readAll(robj *o) {
    std::map<std::string, std::string> m;
    char fbuf[LONG_STR_SIZE], vbuf[LONG_STR_SIZE];
    for (hashTypeIterator hi(o); hashTypeNext(&hi);) {
        std::string field(hashTypeValueView(hashTypeCurrent(&hi, OBJ_HASH_KEY), fbuf));
        EXPECT_EQ(m.count(field), 0u) << "field twice: " << field;
        m[field] = hashTypeValueView(hashTypeCurrent(&hi, OBJ_HASH_VALUE), vbuf);
    }
    return m;
}

std::optional<std::string> get(robj *o, const std::string &field) {
    std::optional<hashTypeValue> v = hashTypeGetValue(o, field);
    if (!v) return std::nullopt;
    char buf[LONG_STR_SIZE];
    return std::string(hashTypeValueView(*v, buf));
}

/* The thresholds are the server's: each test sets its own, then restores. */
class HashType : public ::testing::Test {
protected:
    void SetUp() override {
        saved_ = {server.hash_max_ziplist_entries, server.hash_max_ziplist_value};
    }
    void TearDown() override {
        server.hash_max_ziplist_entries = saved_.first;
        server.hash_max_ziplist_value = saved_.second;
    }
    std::pair<long long, long long> saved_;
};

TEST_F(HashType, NewHashIsAnEmptyZiplist) {
    ObjRef o = createHashObject();
    EXPECT_EQ(o->type, OBJ_HASH);
    EXPECT_EQ(o->encoding, OBJ_ENCODING_ZIPLIST);
    EXPECT_EQ(hashTypeLength(o.get()), 0u);
    EXPECT_FALSE(hashTypeExists(o.get(), "a"));
    EXPECT_FALSE(hashTypeDelete(o.get(), "a"));
    EXPECT_TRUE(readAll(o.get()).empty());
}

TEST_F(HashType, ZiplistKeepsIntegersAndGivesTheBytesBack) {
    ObjRef o = createHashObject();
    EXPECT_FALSE(hashTypeSet(o.get(), "12", "-300"));
    EXPECT_FALSE(hashTypeSet(o.get(), "012", "007"));
    EXPECT_TRUE(hashTypeSet(o.get(), "12", "70000"));
    /* Canonical numbers are integer entries; the others stay strings. */
    std::optional<hashTypeValue> v = hashTypeGetValue(o.get(), "12");
    ASSERT_TRUE(v);
    EXPECT_TRUE(v->isInt);
    EXPECT_EQ(v->lval, 70000);
    v = hashTypeGetValue(o.get(), "012");
    ASSERT_TRUE(v);
    EXPECT_FALSE(v->isInt);
    EXPECT_EQ(v->sval, "007");
    EXPECT_EQ(hashTypeGetValueLength(o.get(), "12"), 5u);
    EXPECT_EQ(hashTypeGetValueLength(o.get(), "nope"), 0u);
    EXPECT_EQ(readAll(o.get()), (std::map<std::string, std::string>{{"12", "70000"}, {"012", "007"}}));
}

TEST_F(HashType, ConvertsForGoodPastEitherThreshold) {
    server.hash_max_ziplist_entries = 4;
    server.hash_max_ziplist_value = 8;
    ObjRef byEntries = createHashObject();
    for (int i = 0; i < 4; i++) hashTypeSet(byEntries.get(), "f" + std::to_string(i), "v");
    EXPECT_EQ(byEntries->encoding, OBJ_ENCODING_ZIPLIST);
    hashTypeSet(byEntries.get(), "f4", "v");
    EXPECT_EQ(byEntries->encoding, OBJ_ENCODING_HT);
    for (int i = 0; i < 5; i++) EXPECT_TRUE(hashTypeDelete(byEntries.get(), "f" + std::to_string(i)));
    EXPECT_EQ(byEntries->encoding, OBJ_ENCODING_HT) << "never back";

    ObjRef byValue = createHashObject();
    hashTypeSet(byValue.get(), "f", "12345678");
    EXPECT_EQ(byValue->encoding, OBJ_ENCODING_ZIPLIST);
    hashTypeSet(byValue.get(), "f", "123456789");
    EXPECT_EQ(byValue->encoding, OBJ_ENCODING_HT);
    EXPECT_EQ(get(byValue.get(), "f"), "123456789");

    /* TryConversion looks at every argument before any is set. */
    ObjRef byArgs = createHashObject();
    std::string_view args[] = {"a", "1", "b", "a-long-value"};
    hashTypeTryConversion(byArgs.get(), args);
    EXPECT_EQ(byArgs->encoding, OBJ_ENCODING_HT);
    EXPECT_EQ(hashTypeLength(byArgs.get()), 0u);
}

/* Random operations mirrored on a std::map, with thresholds that make some
 * hashes convert on the way and leave others ziplists; every step compares
 * a read, and each round the whole content, the length and a deep copy. */
TEST_F(HashType, RandomOperationsMatchAMap) {
    std::mt19937_64 rng(20260403);
    auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
    auto token = [&] {
        switch (pick(4)) {
        case 0: return std::to_string(static_cast<long long>(pick(2000)) - 1000);
        case 1: return std::string(pick(12), 'a' + static_cast<char>(pick(3)));
        case 2: return "0" + std::to_string(pick(100));
        default: return "k" + std::to_string(pick(40));
        }
    };
    int converted = 0;
    for (int round = 0; round < 40; round++) {
        server.hash_max_ziplist_entries = round % 2 ? 16 : 1000;
        server.hash_max_ziplist_value = round % 3 ? 100 : 10;
        ObjRef o = createHashObject();
        std::map<std::string, std::string> model;
        for (int step = 0; step < 300; step++) {
            std::string field = token(), value = token();
            if (pick(3)) {
                EXPECT_EQ(hashTypeSet(o.get(), field, value), model.count(field) == 1) << field;
                model[field] = value;
            } else {
                EXPECT_EQ(hashTypeDelete(o.get(), field), model.erase(field) == 1) << field;
            }
            std::string probe = token();
            auto it = model.find(probe);
            EXPECT_EQ(get(o.get(), probe), it == model.end() ? std::nullopt : std::optional(it->second));
            EXPECT_EQ(hashTypeExists(o.get(), probe), it != model.end());
        }
        ASSERT_EQ(hashTypeLength(o.get()), model.size());
        ASSERT_EQ(readAll(o.get()), model);
        ObjRef copy = hashTypeDup(o.get());
        EXPECT_EQ(copy->encoding, o->encoding);
        EXPECT_EQ(readAll(copy.get()), model);
        converted += o->encoding == OBJ_ENCODING_HT;
    }
    EXPECT_GT(converted, 0);
    EXPECT_LT(converted, 40);
}

}  // namespace
