/* stream_test.cpp — the stream data structure (stream.cpp): IDs, appending
 * (byte for byte against Redis 7.0.15's nodes), the iterator both ways,
 * deleting and trimming against a std::map model, edge IDs, the consumer
 * groups' ownership of NACKs and consumers, streamDup, the lag estimate and
 * the validation of nodes read from RDB files.
 *
 * How the golden node bytes were obtained: Debian's redis-server 7.0.15,
 * started with `redis-server --port P --bind 127.0.0.1 --save '' --daemonize no`,
 * then over a socket:
 *   CONFIG SET rdbcompression no
 *   CONFIG SET stream-node-max-entries 5
 *   XADD s 1-1 name alice age 30
 *   XADD s 1-2 name bob age 25
 *   XADD s 2-0 name carol city paris
 *   XADD s 2-5 temp -12 ok 1
 *   XADD s 3-0 name dave age 1234567890123
 *   XADD s 5-1 name eve age 007
 *   XADD s 5-2 x 128 y -129
 *   XADD s 7-0 x -9223372036854775808 y 16384
 *   XDEL s 1-2
 *   XDEL s 5-2
 *   CONFIG SET stream-node-max-entries 0
 *   CONFIG SET stream-node-max-bytes 60
 *   XADD b 10-<i> f v<i> g <3*i times "x">     for i = 0..5
 *   DUMP s, DUMP b
 * A stream dumps as the RDB type byte 19 (RDB_TYPE_STREAM_LISTPACKS_2), the
 * number of nodes, then per node its master ID (a 16-byte string) and its
 * listpack (a string, uncompressed since rdbcompression is off); the hex
 * below are those two strings of each node, in order. */
#include <gtest/gtest.h>

#include <malloc.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "stream.h"

namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;
using Entry = std::pair<streamID, Fields>;

std::string unhex(std::string_view s) {
    std::string out;
    for (size_t i = 0; i + 1 < s.size(); i += 2) out += static_cast<char>(std::stoi(std::string(s.substr(i, 2)), nullptr, 16));
    return out;
}

std::string tohex(std::string_view s) {
    static const char *digits = "0123456789abcdef";
    std::string out;
    for (unsigned char c : s) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

std::string bytesOf(const listpack &lp) { return {reinterpret_cast<const char *>(lp.data()), lpBytes(lp)}; }

/* Every node: its rax key and its listpack, both in hex. */
std::vector<std::pair<std::string, std::string>> nodesOf(stream &s) {
    std::vector<std::pair<std::string, std::string>> out;
    raxIterator ri;
    raxStart(&ri, &s.tree);
    raxSeek(&ri, "^");
    while (raxNext(&ri)) out.emplace_back(tohex(ri.key), tohex(bytesOf(*static_cast<listpack *>(ri.data))));
    return out;
}

streamAppendResult add(stream &s, streamID id, const Fields &fv, streamNodeLimits limits = {4096, 100}) {
    std::vector<std::string_view> args;
    for (const auto &[f, v] : fv) {
        args.push_back(f);
        args.push_back(v);
    }
    streamID added;
    auto r = streamAppendItem(&s, args, 0, limits, &added, &id, true);
    if (r == streamAppendResult::ok) {
        EXPECT_EQ(added, id);
    }
    return r;
}

std::vector<Entry> range(stream &s, const streamID *start, const streamID *end, bool rev) {
    std::vector<Entry> out;
    streamIterator si;
    streamIteratorStart(&si, &s, start, end, rev);
    streamID id;
    int64_t numfields;
    while (streamIteratorGetID(&si, &id, &numfields)) {
        Fields fv;
        while (numfields--) {
            std::string_view f, v;
            streamIteratorGetField(&si, &f, &v);
            fv.emplace_back(f, v);
        }
        out.emplace_back(id, std::move(fv));
    }
    return out;
}

std::vector<Entry> all(stream &s) { return range(s, nullptr, nullptr, false); }

/* The bytes of Redis 7.0.15's nodes (see the top of the file). */
const std::vector<std::pair<std::string, std::string>> kRedisS = {
    {"00000000000000010000000000000001",
     "910000002a00040101010201846e616d65058361676504000102010001000185616c696365061e01050103010001010183626f"
     "62041901050100010101dfff020201846e616d6505856361726f6c0684636974790585706172697306080100010101040102"
     "018474656d7005dff402826f6b030101080102010201dfff02846461766505f4cb04fb711f010000090501ff"},
    {"00000000000000050000000000000001",
     "610000001e00020101010201846e616d6505836167650400010201000100018365766504833030370405010101000101010201"
     "817802c08002817902df7f02080100010201dfff020201817802f4000000000000008009817902f10040030801ff"},
};
const std::vector<std::pair<std::string, std::string>> kRedisB = {
    {"000000000000000a0000000000000000",
     "340000001200020100010201816602816702000102010001000182763003800105010201000101018276310383787878040501"
     "ff"},
    {"000000000000000a0000000000000002",
     "4000000012000201000102018166028167020001020100010001827632038678787878787807050102010001010182763303"
     "897878787878787878780a0501ff"},
    {"000000000000000a0000000000000004",
     "2f0000000c000101000102018166028167020001020100010001827634038c7878787878787878787878780d0501ff"},
    {"000000000000000a0000000000000005",
     "320000000c000101000102018166028167020001020100010001827635038f787878787878787878787878787878100501ff"},
};

/* The writes of the top comment, on `s` and `b`. */
void buildRedisSequence(stream &s, stream &b) {
    const streamNodeLimits five{4096, 5};
    ASSERT_EQ(add(s, {1, 1}, {{"name", "alice"}, {"age", "30"}}, five), streamAppendResult::ok);
    ASSERT_EQ(add(s, {1, 2}, {{"name", "bob"}, {"age", "25"}}, five), streamAppendResult::ok);
    ASSERT_EQ(add(s, {2, 0}, {{"name", "carol"}, {"city", "paris"}}, five), streamAppendResult::ok);
    ASSERT_EQ(add(s, {2, 5}, {{"temp", "-12"}, {"ok", "1"}}, five), streamAppendResult::ok);
    ASSERT_EQ(add(s, {3, 0}, {{"name", "dave"}, {"age", "1234567890123"}}, five), streamAppendResult::ok);
    ASSERT_EQ(add(s, {5, 1}, {{"name", "eve"}, {"age", "007"}}, five), streamAppendResult::ok);
    ASSERT_EQ(add(s, {5, 2}, {{"x", "128"}, {"y", "-129"}}, five), streamAppendResult::ok);
    ASSERT_EQ(add(s, {7, 0}, {{"x", "-9223372036854775808"}, {"y", "16384"}}, five), streamAppendResult::ok);
    ASSERT_TRUE(streamDeleteItem(&s, {1, 2}));
    ASSERT_TRUE(streamDeleteItem(&s, {5, 2}));
    for (uint64_t i = 0; i < 6; i++)
        ASSERT_EQ(add(b, {10, i}, {{"f", "v" + std::to_string(i)}, {"g", std::string(3 * i, 'x')}}, {60, 0}),
                  streamAppendResult::ok);
}

}  // namespace

TEST(StreamID, EncodeIsBigEndianAndOrdered) {
    unsigned char buf[STREAM_ID_BYTES];
    streamEncodeID(buf, {0x0102030405060708ULL, 0x1112131415161718ULL});
    EXPECT_EQ(tohex({reinterpret_cast<char *>(buf), STREAM_ID_BYTES}), "01020304050607081112131415161718");
    EXPECT_EQ(streamDecodeID(buf), (streamID{0x0102030405060708ULL, 0x1112131415161718ULL}));

    std::mt19937_64 rng(7);
    for (int i = 0; i < 1000; i++) {
        streamID a{rng() % 4, rng() % 4 == 0 ? UINT64_MAX : rng()}, b{rng() % 4, rng()};
        unsigned char ka[STREAM_ID_BYTES], kb[STREAM_ID_BYTES];
        streamEncodeID(ka, a);
        streamEncodeID(kb, b);
        EXPECT_EQ(streamDecodeID(ka), a);
        EXPECT_EQ(std::memcmp(ka, kb, STREAM_ID_BYTES) < 0, a < b);
    }
}

TEST(StreamID, IncrAndDecrCarryAndStopAtTheEdges) {
    streamID id{5, UINT64_MAX};
    EXPECT_TRUE(streamIncrID(&id));
    EXPECT_EQ(id, (streamID{6, 0}));
    EXPECT_TRUE(streamDecrID(&id));
    EXPECT_EQ(id, (streamID{5, UINT64_MAX}));
    id = {UINT64_MAX, UINT64_MAX};
    EXPECT_FALSE(streamIncrID(&id));
    EXPECT_EQ(id, (streamID{UINT64_MAX, UINT64_MAX}));
    id = {};
    EXPECT_FALSE(streamDecrID(&id));
    EXPECT_EQ(id, (streamID{}));
}

TEST(StreamAppend, NodesAreByteIdenticalToRedis) {
    stream s, b;
    buildRedisSequence(s, b);
    EXPECT_EQ(nodesOf(s), kRedisS);
    EXPECT_EQ(nodesOf(b), kRedisB);
    EXPECT_EQ(s.length, 6u);
    EXPECT_EQ(s.entries_added, 8u);
    EXPECT_EQ(s.first_id, (streamID{1, 1}));
    EXPECT_EQ(s.last_id, (streamID{7, 0}));
    EXPECT_EQ(s.max_deleted_entry_id, (streamID{5, 2}));
}

TEST(StreamAppend, IdGeneration) {
    stream s;
    const streamNodeLimits limits{4096, 100};
    std::vector<std::string_view> fv{"f", "v"};
    streamID id;
    /* "*": the time, then the next sequence while the clock does not move on. */
    ASSERT_EQ(streamAppendItem(&s, fv, 1000, limits, &id, nullptr, false), streamAppendResult::ok);
    EXPECT_EQ(id, (streamID{1000, 0}));
    ASSERT_EQ(streamAppendItem(&s, fv, 1000, limits, &id, nullptr, false), streamAppendResult::ok);
    EXPECT_EQ(id, (streamID{1000, 1}));
    ASSERT_EQ(streamAppendItem(&s, fv, 999, limits, &id, nullptr, false), streamAppendResult::ok);
    EXPECT_EQ(id, (streamID{1000, 2}));
    /* "ms-*": the next sequence at the last ms, 0 at a later one. */
    streamID use{1000, 77};
    ASSERT_EQ(streamAppendItem(&s, fv, 0, limits, &id, &use, false), streamAppendResult::ok);
    EXPECT_EQ(id, (streamID{1000, 3}));
    use = {2000, 77};
    ASSERT_EQ(streamAppendItem(&s, fv, 0, limits, &id, &use, false), streamAppendResult::ok);
    EXPECT_EQ(id, (streamID{2000, 0}));
    use = {1500, 0};
    EXPECT_EQ(streamAppendItem(&s, fv, 0, limits, &id, &use, false), streamAppendResult::id_not_greater);
    /* Explicit IDs: greater than the last only. */
    use = {2000, 0};
    EXPECT_EQ(streamAppendItem(&s, fv, 0, limits, &id, &use, true), streamAppendResult::id_not_greater);
    use = {2000, UINT64_MAX};
    ASSERT_EQ(streamAppendItem(&s, fv, 0, limits, &id, &use, true), streamAppendResult::ok);
    use = {2000, 5};
    EXPECT_EQ(streamAppendItem(&s, fv, 0, limits, &id, &use, false), streamAppendResult::id_not_greater);
    EXPECT_EQ(s.length, 6u);
    EXPECT_EQ(s.last_id, (streamID{2000, UINT64_MAX}));
    /* "0-*" on an empty stream is 0-1, as in Redis. */
    stream e;
    use = {0, 0};
    ASSERT_EQ(streamAppendItem(&e, fv, 0, limits, &id, &use, false), streamAppendResult::ok);
    EXPECT_EQ(id, (streamID{0, 1}));
    /* The greatest ID is accepted once; "*" after it wraps and is refused. */
    use = {UINT64_MAX, UINT64_MAX};
    ASSERT_EQ(streamAppendItem(&e, fv, 0, limits, &id, &use, true), streamAppendResult::ok);
    EXPECT_EQ(streamAppendItem(&e, fv, 5, limits, &id, nullptr, false), streamAppendResult::id_not_greater);
}

TEST(StreamAppend, NodeSplitsByEntriesAndBytes) {
    stream s;
    for (uint64_t i = 1; i <= 10; i++) ASSERT_EQ(add(s, {i, 0}, {{"f", "v"}}, {0, 3}), streamAppendResult::ok);
    EXPECT_EQ(raxSize(&s.tree), 4u); /* 3 + 3 + 3 + 1 */
    stream b;
    const std::string big(100, 'x');
    for (uint64_t i = 1; i <= 10; i++) ASSERT_EQ(add(b, {i, 0}, {{"f", big}}, {250, 0}), streamAppendResult::ok);
    /* 7 + header bytes, each entry ~106: a node takes 2 entries before 250. */
    EXPECT_EQ(raxSize(&b.tree), 5u);
    EXPECT_EQ(all(b).size(), 10u);
}

/* The bytes rule is Redis's: a new node when the node's bytes plus the
 * entry's strings reach stream-node-max-bytes (not only pass it). */
TEST(StreamAppend, NodeSplitsWhenTheBytesReachTheLimit) {
    for (size_t extra : {0, 1}) {
        stream s;
        ASSERT_EQ(add(s, {1, 0}, {{"f", "v"}}, {0, 0}), streamAppendResult::ok);
        const size_t node_bytes = nodesOf(s).front().second.size() / 2;
        const size_t max_bytes = node_bytes + 1 + 10 + extra; /* "f" and 10 bytes of value */
        ASSERT_EQ(add(s, {2, 0}, {{"f", std::string(10, 'x')}}, {max_bytes, 0}), streamAppendResult::ok);
        EXPECT_EQ(raxSize(&s.tree), extra ? 1u : 2u) << extra;
    }
}

/* A node is preallocated (4 KB, or stream-node-max-bytes when smaller) and
 * shrunk to fit when the next entry starts a new node. */
TEST(StreamAppend, NodePreallocationAndShrink) {
    stream s;
    ASSERT_EQ(add(s, {1, 0}, {{"f", "v"}}, {4096, 1}), streamAppendResult::ok);
    auto usable = [&](size_t i) {
        raxIterator ri;
        raxStart(&ri, &s.tree);
        raxSeek(&ri, "^");
        for (size_t j = 0; j <= i; j++) raxNext(&ri);
        return malloc_usable_size(const_cast<unsigned char *>(static_cast<listpack *>(ri.data)->data()));
    };
    EXPECT_GE(usable(0), STREAM_LISTPACK_MAX_PRE_ALLOCATE);
    ASSERT_EQ(add(s, {2, 0}, {{"f", "v"}}, {4096, 1}), streamAppendResult::ok);
    EXPECT_LT(usable(0), 100u);
    EXPECT_GE(usable(1), STREAM_LISTPACK_MAX_PRE_ALLOCATE);
    ASSERT_EQ(add(s, {3, 0}, {{"f", "v"}}, {200, 1}), streamAppendResult::ok);
    EXPECT_GE(usable(2), 200u);
    EXPECT_LT(usable(2), 1024u);
}

TEST(StreamIterator, ForwardsBackwardsAndBounds) {
    stream s, b;
    buildRedisSequence(s, b);
    std::vector<Entry> fwd = all(s);
    std::vector<Entry> expect = {
        {{1, 1}, {{"name", "alice"}, {"age", "30"}}},
        {{2, 0}, {{"name", "carol"}, {"city", "paris"}}},
        {{2, 5}, {{"temp", "-12"}, {"ok", "1"}}},
        {{3, 0}, {{"name", "dave"}, {"age", "1234567890123"}}},
        {{5, 1}, {{"name", "eve"}, {"age", "007"}}},
        {{7, 0}, {{"x", "-9223372036854775808"}, {"y", "16384"}}},
    };
    EXPECT_EQ(fwd, expect);
    std::vector<Entry> rev = range(s, nullptr, nullptr, true);
    std::reverse(rev.begin(), rev.end());
    EXPECT_EQ(rev, expect);

    streamID lo{2, 1}, hi{5, 1};
    std::vector<Entry> mid = range(s, &lo, &hi, false);
    ASSERT_EQ(mid.size(), 3u);
    EXPECT_EQ(mid.front().first, (streamID{2, 5}));
    EXPECT_EQ(mid.back().first, (streamID{5, 1}));
    std::vector<Entry> midrev = range(s, &lo, &hi, true);
    ASSERT_EQ(midrev.size(), 3u);
    EXPECT_EQ(midrev.front().first, (streamID{5, 1}));
    streamID gap_lo{4, 0}, gap_hi{5, 0};
    EXPECT_TRUE(range(s, &gap_lo, &gap_hi, false).empty());
    EXPECT_TRUE(range(s, &gap_lo, &gap_hi, true).empty());

    /* Tombstones, when asked for. */
    streamIterator si;
    streamIteratorStart(&si, &s, nullptr, nullptr, false);
    si.skip_tombstones = false;
    std::vector<streamID> ids;
    streamID id;
    int64_t nf;
    while (streamIteratorGetID(&si, &id, &nf)) {
        ids.push_back(id);
        std::string_view f, v;
        while (nf--) streamIteratorGetField(&si, &f, &v);
    }
    EXPECT_EQ(ids.size(), 8u);
}

TEST(StreamDelete, TombstonesAndNodeRemoval) {
    stream s;
    for (uint64_t i = 1; i <= 6; i++) ASSERT_EQ(add(s, {i, 0}, {{"f", "v"}}, {0, 3}), streamAppendResult::ok);
    EXPECT_FALSE(streamDeleteItem(&s, {9, 0}));
    EXPECT_TRUE(streamDeleteItem(&s, {1, 0}));
    EXPECT_FALSE(streamDeleteItem(&s, {1, 0}));
    EXPECT_EQ(s.first_id, (streamID{2, 0}));
    EXPECT_TRUE(streamDeleteItem(&s, {3, 0}));
    EXPECT_EQ(s.first_id, (streamID{2, 0}));
    EXPECT_EQ(s.max_deleted_entry_id, (streamID{3, 0}));
    EXPECT_TRUE(streamDeleteItem(&s, {2, 0})); /* the first node's last live entry */
    EXPECT_EQ(raxSize(&s.tree), 1u);
    EXPECT_EQ(s.first_id, (streamID{4, 0}));
    EXPECT_EQ(s.max_deleted_entry_id, (streamID{3, 0}));
    EXPECT_EQ(s.length, 3u);
    for (uint64_t i = 4; i <= 6; i++) EXPECT_TRUE(streamDeleteItem(&s, {i, 0}));
    EXPECT_EQ(s.length, 0u);
    EXPECT_EQ(raxSize(&s.tree), 0u);
    EXPECT_EQ(s.first_id, (streamID{}));
    EXPECT_EQ(s.last_id, (streamID{6, 0}));
    EXPECT_EQ(s.max_deleted_entry_id, (streamID{6, 0}));
}

TEST(StreamEdge, FirstAndLastWithAndWithoutTombstones) {
    stream s;
    EXPECT_EQ(streamGetEdgeID(&s, true, true), (streamID{UINT64_MAX, UINT64_MAX}));
    EXPECT_EQ(streamGetEdgeID(&s, false, true), (streamID{}));
    for (uint64_t i = 1; i <= 5; i++) ASSERT_EQ(add(s, {i, 0}, {{"f", "v"}}), streamAppendResult::ok);
    ASSERT_TRUE(streamDeleteItem(&s, {1, 0}));
    ASSERT_TRUE(streamDeleteItem(&s, {5, 0}));
    EXPECT_EQ(streamGetEdgeID(&s, true, true), (streamID{2, 0}));
    EXPECT_EQ(streamGetEdgeID(&s, true, false), (streamID{1, 0}));
    EXPECT_EQ(streamGetEdgeID(&s, false, true), (streamID{4, 0}));
    EXPECT_EQ(streamGetEdgeID(&s, false, false), (streamID{5, 0}));
}

TEST(StreamGroups, ConsumersAndNacksAreOwned) {
    stream s;
    EXPECT_EQ(streamLookupCG(&s, "g"), nullptr);
    EXPECT_FALSE(streamDestroyCG(&s, "g"));
    streamCG *cg = streamCreateCG(&s, "g", {5, 0}, 3);
    ASSERT_NE(cg, nullptr);
    EXPECT_EQ(streamCreateCG(&s, "g", {}, 0), nullptr);
    EXPECT_EQ(streamLookupCG(&s, "g"), cg);
    EXPECT_EQ(cg->last_id, (streamID{5, 0}));
    EXPECT_EQ(cg->entries_read, 3);

    streamConsumer *alice = streamCreateConsumer(cg, "alice", 100);
    ASSERT_NE(alice, nullptr);
    EXPECT_EQ(streamCreateConsumer(cg, "alice", 200), nullptr);
    EXPECT_EQ(streamLookupConsumer(cg, "alice"), alice);
    EXPECT_EQ(alice->seen_time, 100);
    EXPECT_EQ(alice->name, "alice");
    streamConsumer *bob = streamCreateConsumer(cg, "bob", 150);
    EXPECT_EQ(streamLookupConsumer(cg, "carol"), nullptr);

    /* Pending entries: in the group's pel (owned) and their consumer's. */
    auto deliver = [&](streamConsumer *c, streamID id) {
        unsigned char key[STREAM_ID_BYTES];
        streamEncodeID(key, id);
        std::string_view k(reinterpret_cast<char *>(key), STREAM_ID_BYTES);
        std::unique_ptr<streamNACK> nack = streamCreateNACK(c, 500);
        EXPECT_EQ(nack->delivery_count, 1u);
        EXPECT_EQ(nack->delivery_time, 500);
        EXPECT_EQ(nack->consumer, c);
        raxInsert(&c->pel, k, nack.get());
        raxInsert(&cg->pel, k, nack.release());
    };
    for (uint64_t i = 1; i <= 4; i++) deliver(alice, {i, 0});
    deliver(bob, {9, 0});
    EXPECT_EQ(streamDelConsumer(cg, alice), 4u);
    EXPECT_EQ(raxSize(&cg->pel), 1u);
    EXPECT_EQ(streamLookupConsumer(cg, "alice"), nullptr);

    /* A second group, destroyed with its pending entries; the first one is
     * freed with the stream (ASan checks that nothing leaks). */
    streamCG *other = streamCreateCG(&s, "other", {}, SCG_INVALID_ENTRIES_READ);
    cg = other;
    deliver(streamCreateConsumer(other, "c", 1), {1, 0});
    EXPECT_TRUE(streamDestroyCG(&s, "other"));
    EXPECT_EQ(streamLookupCG(&s, "other"), nullptr);
    EXPECT_NE(streamLookupCG(&s, "g"), nullptr);
}

TEST(StreamDup, DeepCopyIsEqualAndIndependent) {
    stream s, b;
    buildRedisSequence(s, b);
    streamCG *cg = streamCreateCG(&s, "g", {3, 0}, 4);
    streamConsumer *c1 = streamCreateConsumer(cg, "c1", 10);
    streamCreateConsumer(cg, "c2", 20);
    for (streamID id : {streamID{1, 1}, streamID{2, 0}}) {
        unsigned char key[STREAM_ID_BYTES];
        streamEncodeID(key, id);
        std::string_view k(reinterpret_cast<char *>(key), STREAM_ID_BYTES);
        auto nack = streamCreateNACK(c1, 42);
        nack->delivery_count = 3;
        raxInsert(&c1->pel, k, nack.get());
        raxInsert(&cg->pel, k, nack.release());
    }

    std::unique_ptr<stream> d = streamDup(s);
    EXPECT_EQ(nodesOf(*d), nodesOf(s));
    EXPECT_EQ(all(*d), all(s));
    EXPECT_EQ(d->length, s.length);
    EXPECT_EQ(d->first_id, s.first_id);
    EXPECT_EQ(d->last_id, s.last_id);
    EXPECT_EQ(d->max_deleted_entry_id, s.max_deleted_entry_id);
    EXPECT_EQ(d->entries_added, s.entries_added);

    streamCG *dcg = streamLookupCG(d.get(), "g");
    ASSERT_NE(dcg, nullptr);
    EXPECT_NE(dcg, cg);
    EXPECT_EQ(dcg->last_id, (streamID{3, 0}));
    EXPECT_EQ(dcg->entries_read, 4);
    EXPECT_EQ(raxSize(&dcg->pel), 2u);
    streamConsumer *dc1 = streamLookupConsumer(dcg, "c1");
    ASSERT_NE(dc1, nullptr);
    EXPECT_NE(dc1, c1);
    EXPECT_EQ(dc1->seen_time, 10);
    ASSERT_EQ(raxSize(&dc1->pel), 2u);
    ASSERT_NE(streamLookupConsumer(dcg, "c2"), nullptr);
    raxIterator ri;
    raxStart(&ri, &dc1->pel);
    raxSeek(&ri, "^");
    while (raxNext(&ri)) {
        auto *nack = static_cast<streamNACK *>(ri.data);
        EXPECT_EQ(raxFind(&dcg->pel, ri.key), nack); /* the group's copy, not the original */
        EXPECT_EQ(raxFind(&cg->pel, ri.key) == nack, false);
        EXPECT_EQ(nack->consumer, dc1);
        EXPECT_EQ(nack->delivery_count, 3u);
        EXPECT_EQ(nack->delivery_time, 42);
    }

    /* Writes to one leave the other as it was. */
    const auto before = nodesOf(s);
    ASSERT_EQ(add(*d, {8, 0}, {{"x", "1"}}), streamAppendResult::ok);
    ASSERT_TRUE(streamDeleteItem(d.get(), {1, 1}));
    EXPECT_EQ(streamDelConsumer(dcg, dc1), 2u);
    EXPECT_EQ(nodesOf(s), before);
    EXPECT_EQ(raxSize(&cg->pel), 2u);
    EXPECT_EQ(s.length, 6u);

    stream empty;
    EXPECT_EQ(streamDup(empty)->cgroups, nullptr);
}

TEST(StreamValidate, AcceptsRedisNodes) {
    for (const auto *nodes : {&kRedisS, &kRedisB}) {
        for (const auto &[key, lp] : *nodes) {
            const std::string k = unhex(key);
            const streamID master = streamDecodeID(reinterpret_cast<const unsigned char *>(k.data()));
            EXPECT_TRUE(streamValidateListpackIntegrity(unhex(lp), master)) << key;
        }
    }
}

namespace {

/* Redis 7.0.15's nodes after trimming (same server set-up as above):
 *   CONFIG SET stream-node-max-entries 4
 *   XADD t <i>-0 a <1000*i> b z   for i = 1..12 divisible by 3,
 *   XADD t <i>-0 f <i>            for the others
 *   XTRIM t MAXLEN 9          -> 3 (tombstones inside the first node)
 *   XDEL t 6-0
 *   XTRIM t MINID 7-0         -> 2 (the first node, then a tombstone)
 *   XTRIM t MAXLEN ~ 2        -> 2 (a whole node only)
 *   XADD u <i>-0 f v          for i = 1..4
 *   XDEL u 4-0
 *   XTRIM u MINID 4-0         -> 3 (the node's last entry, a tombstone, is
 *                                   not below 4-0: it stays, count 0)
 *   XADD u 5-0 f v
 *   DUMP t, DUMP u, and XINFO STREAM for the bookkeeping checked below. */
const std::vector<std::pair<std::string, std::string>> kRedisTrimmedT = {
    {"00000000000000090000000000000000",
     "5100000020000401000102018161028162020001020100010001f1282303817a02050100010101000101018166020a010601"
     "00010201000101018166020b010601020103010001f1e02e03817a020501ff"},
};
const std::vector<std::pair<std::string, std::string>> kRedisTrimmedU = {
    {"00000000000000010000000000000000",
     "3e000000190000010401010181660200010301000100018176020401030101010001817602040103010201000181760204"
     "01030103010001817602040" "1ff"},
    {"00000000000000050000000000000000", "1d0000000a0001010001010181660200010201000100018176020401ff"},
};

streamTrimArgs maxlenArgs(long long maxlen, bool approx = false, long long limit = 0) {
    streamTrimArgs a;
    a.strategy = TRIM_STRATEGY_MAXLEN;
    a.maxlen = maxlen;
    a.approx = approx;
    a.limit = limit;
    return a;
}

streamTrimArgs minidArgs(streamID minid, bool approx = false, long long limit = 0) {
    streamTrimArgs a;
    a.strategy = TRIM_STRATEGY_MINID;
    a.minid = minid;
    a.approx = approx;
    a.limit = limit;
    return a;
}

/* A listpack of these elements, as the writer appends them. */
std::string listpackOf(const std::vector<std::string> &elements) {
    listpack lp = lpNew();
    for (const std::string &e : elements) lpAppend(lp, e);
    return bytesOf(lp);
}

/* Every node of `s` passes streamValidateListpackIntegrity. */
void expectNodesValid(stream &s) {
    raxIterator ri;
    raxStart(&ri, &s.tree);
    raxSeek(&ri, "^");
    while (raxNext(&ri)) {
        streamID master = streamDecodeID(reinterpret_cast<const unsigned char *>(ri.key.data()));
        EXPECT_TRUE(streamValidateListpackIntegrity(bytesOf(*static_cast<listpack *>(ri.data)), master));
    }
}

}  // namespace

TEST(StreamTrim, NodesAndBookkeepingMatchRedis) {
    stream t;
    const streamNodeLimits four{4096, 4};
    for (uint64_t i = 1; i <= 12; i++) {
        Fields fv = i % 3 == 0 ? Fields{{"a", std::to_string(i * 1000)}, {"b", "z"}} : Fields{{"f", std::to_string(i)}};
        ASSERT_EQ(add(t, {i, 0}, fv, four), streamAppendResult::ok);
    }
    EXPECT_EQ(streamTrim(&t, maxlenArgs(9)), 3);
    EXPECT_EQ(t.first_id, (streamID{4, 0}));
    ASSERT_TRUE(streamDeleteItem(&t, {6, 0}));
    EXPECT_EQ(streamTrim(&t, minidArgs({7, 0})), 2);
    EXPECT_EQ(streamTrim(&t, maxlenArgs(2, true)), 2);
    EXPECT_EQ(nodesOf(t), kRedisTrimmedT);
    EXPECT_EQ(t.length, 4u);
    EXPECT_EQ(t.first_id, (streamID{9, 0}));
    EXPECT_EQ(t.last_id, (streamID{12, 0}));
    EXPECT_EQ(t.max_deleted_entry_id, (streamID{6, 0}));
    EXPECT_EQ(t.entries_added, 12u);

    stream u;
    for (uint64_t i = 1; i <= 4; i++) ASSERT_EQ(add(u, {i, 0}, {{"f", "v"}}, four), streamAppendResult::ok);
    ASSERT_TRUE(streamDeleteItem(&u, {4, 0}));
    EXPECT_EQ(streamTrim(&u, minidArgs({4, 0})), 3);
    EXPECT_EQ(u.length, 0u);
    EXPECT_EQ(u.first_id, (streamID{}));
    EXPECT_TRUE(all(u).empty());
    ASSERT_EQ(add(u, {5, 0}, {{"f", "v"}}, four), streamAppendResult::ok);
    EXPECT_EQ(nodesOf(u), kRedisTrimmedU);
    EXPECT_EQ(u.length, 1u);
    EXPECT_EQ(u.first_id, (streamID{5, 0}));
    EXPECT_EQ(u.max_deleted_entry_id, (streamID{4, 0}));
    EXPECT_EQ(range(u, nullptr, nullptr, true).size(), 1u);
    expectNodesValid(u);
}

TEST(StreamTrim, ApproxRemovesWholeNodesAndLimitBoundsTheWork) {
    stream s;
    for (uint64_t i = 1; i <= 10; i++) ASSERT_EQ(add(s, {i, 0}, {{"f", "v"}}, {0, 3}), streamAppendResult::ok);
    EXPECT_EQ(streamTrim(&s, maxlenArgs(5, true)), 3); /* 7 left: removing 3 more would go below 5 */
    EXPECT_EQ(s.first_id, (streamID{4, 0}));
    EXPECT_EQ(streamTrim(&s, minidArgs({9, 0}, true)), 3); /* 4..6; 7..9 holds 9 */
    EXPECT_EQ(streamTrim(&s, minidArgs({9, 0}, true)), 0);
    EXPECT_EQ(streamTrim(&s, maxlenArgs(0, true, 2)), 0); /* the next node has 3: over the limit */
    EXPECT_EQ(streamTrim(&s, maxlenArgs(0, true, 3)), 3);
    EXPECT_EQ(s.first_id, (streamID{10, 0}));
    EXPECT_EQ(streamTrim(&s, maxlenArgs(0)), 1);
    EXPECT_EQ(s.length, 0u);
    EXPECT_EQ(s.first_id, (streamID{}));
    EXPECT_EQ(s.last_id, (streamID{10, 0}));
    EXPECT_EQ(s.max_deleted_entry_id, (streamID{}));
    streamTrimArgs none;
    EXPECT_EQ(streamTrim(&s, none), 0);
}

/* Random appends (random field sets, integer and string values, node
 * limits changing as CONFIG SET would), deletes and trims, checked after
 * each step against a std::map of the live entries. */
TEST(StreamModel, RandomOperationsMatchAMap) {
    std::mt19937_64 rng(20261126);
    auto pick = [&](uint64_t n) { return rng() % n; };
    const std::vector<std::string> names = {"f", "g", "name", "123", "-7", "a-long-field-name"};

    for (int round = 0; round < 6; round++) {
        stream s;
        std::map<streamID, Fields> model;
        streamID last_id, max_deleted;
        uint64_t added = 0;
        long long now = 1000;
        for (int step = 0; step < 1500; step++) {
            const uint64_t op = pick(100);
            if (op < 60) {
                const streamNodeLimits limits{pick(4) == 0 ? 0 : 40 + pick(400), static_cast<long long>(pick(8))};
                Fields fv;
                const uint64_t n = 1 + pick(3);
                for (uint64_t i = 0; i < n; i++) {
                    std::string value = pick(2) ? std::to_string(static_cast<long long>(rng()) >> pick(64))
                                                : std::string(pick(30), static_cast<char>('a' + pick(26)));
                    fv.emplace_back(names[pick(2) ? i : pick(names.size())], value);
                }
                std::vector<std::string_view> args;
                for (const auto &[f, v] : fv) {
                    args.push_back(f);
                    args.push_back(v);
                }
                streamID id, use;
                const uint64_t how = pick(3);
                streamAppendResult r;
                if (how == 0) {
                    now += static_cast<long long>(pick(3));
                    r = streamAppendItem(&s, args, now - 1, limits, &id, nullptr, false);
                } else {
                    use = {last_id.ms + pick(3), pick(5)};
                    r = streamAppendItem(&s, args, 0, limits, &id, &use, how == 1);
                }
                if (how == 1 && use <= last_id) {
                    EXPECT_EQ(r, streamAppendResult::id_not_greater);
                    continue;
                }
                ASSERT_EQ(r, streamAppendResult::ok);
                ASSERT_GT(id, last_id);
                model[id] = fv;
                last_id = id;
                added++;
            } else if (op < 80) {
                streamID id{last_id.ms - pick(std::min<uint64_t>(last_id.ms + 1, 4)), pick(5)};
                if (!model.empty() && pick(2)) {
                    auto it = model.begin();
                    std::advance(it, pick(model.size()));
                    id = it->first;
                }
                const bool there = model.erase(id) == 1;
                ASSERT_EQ(streamDeleteItem(&s, id), there);
                if (there) max_deleted = std::max(max_deleted, id);
            } else {
                const bool approx = pick(2);
                const long long limit = approx && pick(2) ? static_cast<long long>(pick(10)) : 0;
                streamTrimArgs args = pick(2) ? maxlenArgs(static_cast<long long>(pick(model.size() + 2)), approx, limit)
                                              : minidArgs({last_id.ms - pick(std::min<uint64_t>(last_id.ms + 1, 20)),
                                                           pick(5)},
                                                          approx, limit);
                const int64_t n = streamTrim(&s, args);
                ASSERT_GE(n, 0);
                ASSERT_LE(static_cast<uint64_t>(n), model.size());
                if (limit) {
                    EXPECT_LE(n, limit);
                }
                /* The oldest entries go, never one that the strategy keeps. */
                for (int64_t i = 0; i < n; i++) {
                    if (args.strategy == TRIM_STRATEGY_MINID) {
                        ASSERT_LT(model.begin()->first, args.minid);
                    }
                    model.erase(model.begin());
                }
                if (args.strategy == TRIM_STRATEGY_MAXLEN) {
                    EXPECT_GE(model.size(), std::min<uint64_t>(model.size() + n, args.maxlen));
                    if (!approx) {
                        EXPECT_LE(model.size(), static_cast<uint64_t>(args.maxlen));
                    }
                } else if (!approx && !model.empty()) {
                    EXPECT_GE(model.begin()->first, args.minid);
                }
            }

            ASSERT_EQ(s.length, model.size());
            ASSERT_EQ(s.last_id, last_id);
            ASSERT_EQ(s.entries_added, added);
            ASSERT_EQ(s.max_deleted_entry_id, max_deleted);
            ASSERT_EQ(s.first_id, model.empty() ? streamID{} : model.begin()->first);
            ASSERT_EQ(streamGetEdgeID(&s, true, true), model.empty() ? (streamID{UINT64_MAX, UINT64_MAX}) : model.begin()->first);
            ASSERT_EQ(streamGetEdgeID(&s, false, true), model.empty() ? streamID{} : model.rbegin()->first);
            if (step % 25 == 0 || model.size() < 20) {
                std::vector<Entry> expect(model.begin(), model.end());
                ASSERT_EQ(all(s), expect);
                std::vector<Entry> rev = range(s, nullptr, nullptr, true);
                std::reverse(rev.begin(), rev.end());
                ASSERT_EQ(rev, expect);
                expectNodesValid(s);
            }
            /* A random range, both ways. */
            streamID lo{last_id.ms - pick(std::min<uint64_t>(last_id.ms + 1, 30)), pick(4)};
            streamID hi{lo.ms + pick(10), pick(4)};
            std::vector<Entry> expect(model.lower_bound(lo), hi < lo ? model.lower_bound(lo) : model.upper_bound(hi));
            ASSERT_EQ(range(s, &lo, &hi, false), expect);
            std::reverse(expect.begin(), expect.end());
            ASSERT_EQ(range(s, &lo, &hi, true), expect);
        }
    }
}

TEST(StreamLag, EstimateDistanceFromFirstEverEntry) {
    stream s;
    EXPECT_EQ(streamEstimateDistanceFromFirstEverEntry(&s, {5, 0}), 0); /* never used */
    for (uint64_t i = 1; i <= 6; i++) ASSERT_EQ(add(s, {i, 0}, {{"f", "v"}}), streamAppendResult::ok);
    EXPECT_EQ(streamEstimateDistanceFromFirstEverEntry(&s, {6, 0}), 6);  /* the last ID */
    EXPECT_EQ(streamEstimateDistanceFromFirstEverEntry(&s, {7, 0}), SCG_INVALID_ENTRIES_READ); /* future */
    EXPECT_EQ(streamEstimateDistanceFromFirstEverEntry(&s, {1, 0}), 1);  /* the first, no tombstone */
    EXPECT_EQ(streamEstimateDistanceFromFirstEverEntry(&s, {0, 5}), 0);  /* before the first */
    EXPECT_EQ(streamEstimateDistanceFromFirstEverEntry(&s, {3, 0}), SCG_INVALID_ENTRIES_READ); /* inside */

    ASSERT_EQ(streamTrim(&s, maxlenArgs(4)), 2); /* trimming leaves no XDEL tombstone behind */
    EXPECT_EQ(streamEstimateDistanceFromFirstEverEntry(&s, {3, 0}), 3);
    EXPECT_EQ(streamEstimateDistanceFromFirstEverEntry(&s, {2, 0}), 2);

    ASSERT_TRUE(streamDeleteItem(&s, {5, 0})); /* a tombstone ahead of the first entry */
    EXPECT_EQ(streamEstimateDistanceFromFirstEverEntry(&s, {3, 0}), SCG_INVALID_ENTRIES_READ);
    EXPECT_EQ(streamEstimateDistanceFromFirstEverEntry(&s, {2, 0}), SCG_INVALID_ENTRIES_READ);
    EXPECT_EQ(streamEstimateDistanceFromFirstEverEntry(&s, {6, 0}), 6);
    ASSERT_TRUE(streamDeleteItem(&s, {3, 0}));
    ASSERT_TRUE(streamDeleteItem(&s, {4, 0})); /* the last tombstone is now before the first entry */
    EXPECT_EQ(s.first_id, (streamID{6, 0}));
    EXPECT_EQ(streamEstimateDistanceFromFirstEverEntry(&s, {6, 0}), 6);
    EXPECT_EQ(streamEstimateDistanceFromFirstEverEntry(&s, {5, 5}), 5);

    ASSERT_TRUE(streamDeleteItem(&s, {6, 0})); /* empty: every ID up to the last is at entries_added */
    EXPECT_EQ(streamEstimateDistanceFromFirstEverEntry(&s, {1, 0}), 6);
    EXPECT_EQ(streamEstimateDistanceFromFirstEverEntry(&s, {6, 1}), SCG_INVALID_ENTRIES_READ);
}

TEST(StreamValidate, RejectsBrokenShapes) {
    const streamID master{10, 5};
    /* count deleted num-fields f 0 | flags ms seq value lp-count */
    const std::vector<std::string> good = {"2", "0", "1", "f", "0", "2", "0", "0", "v", "4",
                                           "0", "1", "3", "2", "f", "w", "g", "x", "8"};
    ASSERT_TRUE(streamValidateListpackIntegrity(listpackOf(good), master));

    auto with = [&](size_t i, const std::string &v) {
        std::vector<std::string> e = good;
        e[i] = v;
        return listpackOf(e);
    };
    EXPECT_FALSE(streamValidateListpackIntegrity(with(0, "3"), master));  /* an entry missing */
    EXPECT_FALSE(streamValidateListpackIntegrity(with(0, "1"), master));  /* an entry too many */
    EXPECT_FALSE(streamValidateListpackIntegrity(with(0, "x"), master));  /* count not an integer */
    EXPECT_FALSE(streamValidateListpackIntegrity(with(1, "-1"), master)); /* negative deleted */
    EXPECT_FALSE(streamValidateListpackIntegrity(with(2, "2"), master));  /* master fields */
    EXPECT_FALSE(streamValidateListpackIntegrity(with(2, "-1"), master));
    EXPECT_FALSE(streamValidateListpackIntegrity(with(4, "1"), master));  /* the terminator */
    EXPECT_FALSE(streamValidateListpackIntegrity(with(5, "z"), master));  /* flags */
    EXPECT_FALSE(streamValidateListpackIntegrity(with(9, "5"), master));  /* lp-count */
    EXPECT_FALSE(streamValidateListpackIntegrity(with(18, "7"), master));
    EXPECT_FALSE(streamValidateListpackIntegrity(with(13, "3"), master)); /* num-fields */
    EXPECT_FALSE(streamValidateListpackIntegrity(with(13, "-2"), master));
    EXPECT_FALSE(streamValidateListpackIntegrity(with(7, "-1"), master)); /* an ID below the master */
    std::vector<std::string> same_id = good;
    same_id[11] = same_id[12] = "0";
    EXPECT_FALSE(streamValidateListpackIntegrity(listpackOf(same_id), master)); /* not after the previous */
    EXPECT_TRUE(streamValidateListpackIntegrity(with(11, "0"), master));
    /* Differences are from the master: 11-5 then 10-8 goes backwards. */
    std::vector<std::string> backwards = good;
    backwards[6] = "1";
    backwards[11] = "0";
    EXPECT_FALSE(streamValidateListpackIntegrity(listpackOf(backwards), master));
    EXPECT_FALSE(streamValidateListpackIntegrity(with(0, "9223372036854775807"), master));
    EXPECT_FALSE(streamValidateListpackIntegrity(listpackOf({}), master));
    EXPECT_FALSE(streamValidateListpackIntegrity(listpackOf({"0", "0", "0", "0", "7"}), master)); /* a trailing element */
    EXPECT_TRUE(streamValidateListpackIntegrity(listpackOf({"0", "0", "0", "0"}), master));
    EXPECT_FALSE(streamValidateListpackIntegrity("", master));
    EXPECT_FALSE(streamValidateListpackIntegrity(listpackOf(good).substr(0, 20), master));
}

/* Every truncation of Redis's nodes is refused, and every one-byte
 * corruption is either refused or leaves a node that iterates without
 * reading out of bounds (ASan checks) in both directions. */
TEST(StreamValidate, TruncatedAndCorruptedRedisNodes) {
    for (const auto *nodes : {&kRedisS, &kRedisB, &kRedisTrimmedT, &kRedisTrimmedU}) {
        for (const auto &[key, hex] : *nodes) {
            const std::string k = unhex(key), lp = unhex(hex);
            const streamID master = streamDecodeID(reinterpret_cast<const unsigned char *>(k.data()));
            for (size_t n = 0; n < lp.size(); n++) EXPECT_FALSE(streamValidateListpackIntegrity(lp.substr(0, n), master));
            for (size_t i = 0; i < lp.size(); i++) {
                for (unsigned char x : {0x01, 0x02, 0x10, 0x80, 0xff}) {
                    std::string bad = lp;
                    bad[i] = static_cast<char>(bad[i] ^ x);
                    if (!streamValidateListpackIntegrity(bad, master)) continue;
                    /* Accepted: its elements, appended again, make a node to walk. */
                    stream s;
                    auto node = std::make_unique<listpack>(lpNew());
                    const std::optional<std::vector<ziplistEntry>> elements = lpDecode(bad);
                    for (const ziplistEntry &e : *elements) {
                        if (e.isInt) {
                            lpAppendInteger(*node, e.lval);
                        } else {
                            lpAppend(*node, e.sval);
                        }
                    }
                    raxInsert(&s.tree, k, node.release());
                    EXPECT_LE(all(s).size(), lp.size());
                    EXPECT_LE(range(s, nullptr, nullptr, true).size(), lp.size());
                }
            }
        }
    }
}
