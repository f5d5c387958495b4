/* rax_test.cpp — the radix tree against std::map.
 *
 * The randomized tests drive a rax and a std::map<std::string, void *>
 * (whose order is that of unsigned bytes, as the rax's) with the same
 * operations, over keys that share prefixes: the empty key, short strings
 * over a few letters and the bytes 0x00, 0x80, 0xff, 16-byte big-endian
 * stream IDs, and binary tails behind common prefixes. After each batch an
 * independent walk of the nodes checks the shape rax.h promises (labels,
 * sorted children, no chain links left by removals, the node and key
 * counts) and that the keys in tree order are the map's. Seeks with every
 * operator, on keys present and absent, are checked against lower_bound /
 * upper_bound, followed by raxNext and raxPrev.
 */
#include "rax.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using Map = std::map<std::string, void *>;

/* Fake values, never dereferenced; sometimes null, a value too. */
void *randomValue(std::mt19937 &rng) {
    if (rng() % 10 == 0) return nullptr;
    return reinterpret_cast<void *>((uintptr_t{rng()} + 1) * 16);
}

/* A stream ID as streams key the rax: ms then seq, 8 bytes each, big-endian. */
std::string streamID(uint64_t ms, uint64_t seq) {
    std::string id(16, '\0');
    for (int i = 0; i < 8; i++) {
        id[i] = static_cast<char>(ms >> (56 - 8 * i));
        id[8 + i] = static_cast<char>(seq >> (56 - 8 * i));
    }
    return id;
}

std::string randomKey(std::mt19937 &rng) {
    unsigned kind = rng() % 100;
    if (kind < 2) return "";
    if (kind < 40) {
        static const char alphabet[] = {'a', 'b', 'c', '\x00', '\x80', '\xff'};
        std::string k(rng() % 8, '\0');
        for (char &c : k) c = alphabet[rng() % sizeof alphabet];
        return k;
    }
    if (kind < 80) return streamID(1700000000000ULL + rng() % 40, rng() % 300);
    static const char *const prefixes[] = {"user:", "user:1", "group", ""};
    std::string k = prefixes[rng() % 4];
    for (unsigned n = rng() % 20; n > 0; n--) k.push_back(static_cast<char>(rng()));
    return k;
}

/* Walks the nodes (iteratively, children in order) and checks rax.h's
 * invariants; the keys met in that order must be the map's. */
void checkShape(const rax &rt, const Map &m) {
    struct Frame {
        const raxNode *node;
        std::string key;
    };
    std::vector<Frame> pending{{rt.head.get(), ""}};
    uint64_t nodes = 0;
    auto expected = m.begin();
    ASSERT_TRUE(rt.head->label().empty());
    while (!pending.empty()) {
        Frame f = std::move(pending.back());
        pending.pop_back();
        const raxNode *n = f.node;
        nodes++;
        if (n != rt.head.get()) {
            ASSERT_FALSE(n->label().empty()) << "a node below the head with an empty label";
            ASSERT_TRUE(n->iskey || n->children().size() >= 2)
                << "chain link left at " << testing::PrintToString(f.key);
        }
        for (size_t i = 1; i < n->children().size(); i++)
            ASSERT_LT(static_cast<unsigned char>(n->children()[i - 1]->label()[0]),
                      static_cast<unsigned char>(n->children()[i]->label()[0]));
        if (n->iskey) {
            ASSERT_NE(expected, m.end()) << "extra key " << testing::PrintToString(f.key);
            ASSERT_EQ(f.key, expected->first);
            ASSERT_EQ(n->data, expected->second);
            ++expected;
        }
        for (size_t i = n->children().size(); i-- > 0;)
            pending.push_back({n->children()[i].get(), f.key + std::string(n->children()[i]->label())});
    }
    ASSERT_EQ(expected, m.end()) << "missing key " << testing::PrintToString(expected->first);
    ASSERT_EQ(rt.numnodes, nodes);
    ASSERT_EQ(raxSize(&rt), m.size());
}

/* The key a seek with `op` must land on, per std::map (end() for none). */
Map::const_iterator expectedSeek(const Map &m, const std::string &op, const std::string &ele) {
    if (op == "^") return m.begin();
    if (op == "$") return m.empty() ? m.end() : std::prev(m.end());
    if (op == "=") return m.find(ele);
    if (op == ">=") return m.lower_bound(ele);
    if (op == ">") return m.upper_bound(ele);
    auto bound = op == "<=" ? m.upper_bound(ele) : m.lower_bound(ele);
    return bound == m.begin() ? m.end() : std::prev(bound);
}

/* Seeks `op ele`, then takes `steps` raxNext (forward) or raxPrev calls:
 * the first returns the sought key, the others its neighbours. */
void checkSeekAndWalk(rax &rt, const Map &m, const std::string &op, const std::string &ele, bool forward,
                      int steps) {
    raxIterator it;
    raxStart(&it, &rt);
    ASSERT_TRUE(raxSeek(&it, op, ele));
    auto want = expectedSeek(m, op, ele);
    ASSERT_EQ(raxEOF(&it), want == m.end()) << op << " " << testing::PrintToString(ele);
    for (int i = 0; i < steps; i++) {
        bool got = forward ? raxNext(&it) : raxPrev(&it);
        if (want == m.end()) {
            ASSERT_FALSE(got) << op << " " << testing::PrintToString(ele) << " step " << i;
            ASSERT_TRUE(raxEOF(&it));
            return;
        }
        ASSERT_TRUE(got) << op << " " << testing::PrintToString(ele) << " step " << i;
        ASSERT_EQ(it.key, want->first) << op << " " << testing::PrintToString(ele) << " step " << i;
        ASSERT_EQ(it.data, want->second);
        if (forward) ++want;
        else want = want == m.begin() ? m.end() : std::prev(want);
    }
}

/* The same operations on a rax and a map. */
void applyRandomOps(rax &rt, Map &m, std::mt19937 &rng, std::vector<std::string> &seen, int count) {
    for (int i = 0; i < count; i++) {
        unsigned op = rng() % 100;
        std::string key = (op >= 45 && !seen.empty() && rng() % 10 < 7) ? seen[rng() % seen.size()] : randomKey(rng);
        auto found = m.find(key);
        bool present = found != m.end();
        void *old = reinterpret_cast<void *>(1);
        if (op < 35) {
            void *v = randomValue(rng);
            ASSERT_EQ(raxInsert(&rt, key, v, &old), !present);
            if (present) {
                ASSERT_EQ(old, found->second);
            }
            m[key] = v;
            seen.push_back(key);
        } else if (op < 45) {
            void *v = randomValue(rng);
            ASSERT_EQ(raxTryInsert(&rt, key, v, &old), !present);
            if (present) {
                ASSERT_EQ(old, found->second);
            } else {
                m[key] = v;
            }
            seen.push_back(key);
        } else if (op < 85) {
            ASSERT_EQ(raxRemove(&rt, key, &old), present);
            if (present) {
                ASSERT_EQ(old, found->second);
                m.erase(found);
            }
        } else {
            ASSERT_EQ(raxFind(&rt, key), present ? found->second : raxNotFound);
        }
    }
}

TEST(Rax, RandomOperationsAgainstMap) {
    std::mt19937 rng(20261126);
    rax rt;
    Map m;
    std::vector<std::string> seen;
    for (int batch = 0; batch < 30; batch++) {
        applyRandomOps(rt, m, rng, seen, 1000);
        checkShape(rt, m);
    }
    ASSERT_GT(m.size(), 1000u);
    /* Emptying the tree key by key re-compresses down to the lone head. */
    for (const auto &[key, value] : Map(m)) {
        void *old = nullptr;
        ASSERT_TRUE(raxRemove(&rt, key, &old));
        ASSERT_EQ(old, value);
        m.erase(key);
        if (m.size() % 200 == 0) checkShape(rt, m);
    }
    EXPECT_EQ(raxSize(&rt), 0u);
    EXPECT_EQ(rt.numnodes, 1u);
    EXPECT_TRUE(rt.head->children().empty());
}

TEST(Rax, SeekEveryOperatorAgainstMap) {
    std::mt19937 rng(15);
    rax rt;
    Map m;
    std::vector<std::string> seen;
    applyRandomOps(rt, m, rng, seen, 6000);
    checkShape(rt, m);
    /* Probes: random keys (mostly absent), present keys, and present keys
     * cut short, extended, or with the last byte moved by one either way. */
    std::vector<std::string> probes{"", std::string(1, '\0'), std::string(1, '\xff'), std::string(20, '\xff')};
    for (int i = 0; i < 300; i++) probes.push_back(randomKey(rng));
    for (const auto &[key, value] : m) {
        if (rng() % 8) continue;
        probes.push_back(key);
        if (key.empty()) continue;
        probes.push_back(key.substr(0, key.size() - 1));
        probes.push_back(key + std::string(1, static_cast<char>(rng())));
        std::string up = key, down = key;
        up.back()++;
        down.back()--;
        probes.push_back(up);
        probes.push_back(down);
    }
    for (const std::string &probe : probes)
        for (const char *op : {"=", ">=", ">", "<=", "<", "^", "$"})
            for (bool forward : {true, false}) {
                checkSeekAndWalk(rt, m, op, probe, forward, 4);
                if (HasFatalFailure()) return;
            }
}

TEST(Rax, IterateWholeTreeBothWays) {
    std::mt19937 rng(7);
    rax rt;
    Map m;
    std::vector<std::string> seen;
    applyRandomOps(rt, m, rng, seen, 5000);
    checkSeekAndWalk(rt, m, "^", "", true, static_cast<int>(m.size()) + 1);
    checkSeekAndWalk(rt, m, "$", "", false, static_cast<int>(m.size()) + 1);
}

/* Turning back: raxPrev after raxNext returns the key before, as in Redis. */
TEST(Rax, NextAndPrevMixed) {
    std::mt19937 rng(99);
    rax rt;
    Map m;
    std::vector<std::string> seen;
    applyRandomOps(rt, m, rng, seen, 3000);
    for (int round = 0; round < 50; round++) {
        std::string probe = randomKey(rng);
        raxIterator it;
        raxStart(&it, &rt);
        raxSeek(&it, ">=", probe);
        auto want = m.lower_bound(probe);
        if (want == m.end()) continue;
        ASSERT_TRUE(raxNext(&it));
        for (int step = 0; step < 40; step++) {
            bool forward = rng() % 2;
            if (forward) ++want;
            else want = want == m.begin() ? m.end() : std::prev(want);
            bool got = forward ? raxNext(&it) : raxPrev(&it);
            ASSERT_EQ(got, want != m.end());
            if (!got) break;
            ASSERT_EQ(it.key, want->first);
        }
    }
}

TEST(Rax, InsertOverwritesTryInsertKeeps) {
    rax rt;
    int a = 1, b = 2, c = 3;
    void *old = nullptr;
    EXPECT_TRUE(raxInsert(&rt, "k", &a));
    EXPECT_FALSE(raxInsert(&rt, "k", &b, &old));
    EXPECT_EQ(old, &a);
    EXPECT_EQ(raxFind(&rt, "k"), &b);
    EXPECT_FALSE(raxTryInsert(&rt, "k", &c, &old));
    EXPECT_EQ(old, &b);
    EXPECT_EQ(raxFind(&rt, "k"), &b);
    EXPECT_TRUE(raxTryInsert(&rt, "k2", &c));
    EXPECT_EQ(raxFind(&rt, "k2"), &c);
    EXPECT_EQ(raxSize(&rt), 2u);
    EXPECT_TRUE(raxRemove(&rt, "k", &old));
    EXPECT_EQ(old, &b);
    EXPECT_FALSE(raxRemove(&rt, "k"));
    EXPECT_EQ(raxSize(&rt), 1u);
}

/* A null value is a value: found as null, iterated, removed; absence is
 * raxNotFound. The empty key is a key like the others. */
TEST(Rax, NullValuesAndEmptyKey) {
    rax rt;
    EXPECT_EQ(raxFind(&rt, ""), raxNotFound);
    EXPECT_TRUE(raxInsert(&rt, "", nullptr));
    EXPECT_TRUE(raxInsert(&rt, "x", nullptr));
    EXPECT_EQ(raxFind(&rt, ""), nullptr);
    EXPECT_EQ(raxFind(&rt, "x"), nullptr);
    EXPECT_EQ(raxFind(&rt, "y"), raxNotFound);
    EXPECT_EQ(raxSize(&rt), 2u);
    raxIterator it;
    raxStart(&it, &rt);
    ASSERT_TRUE(raxSeek(&it, "^"));
    ASSERT_TRUE(raxNext(&it));
    EXPECT_EQ(it.key, "");
    EXPECT_EQ(it.data, nullptr);
    ASSERT_TRUE(raxNext(&it));
    EXPECT_EQ(it.key, "x");
    EXPECT_FALSE(raxNext(&it));
    void *old = &rt;
    EXPECT_TRUE(raxRemove(&rt, "", &old));
    EXPECT_EQ(old, nullptr);
    EXPECT_EQ(raxFind(&rt, ""), raxNotFound);
    EXPECT_EQ(raxFind(&rt, "x"), nullptr);
}

/* A removal that leaves a node with no key and one child merges the two;
 * one that drops a leaf may leave its parent so, merged in turn. */
TEST(Rax, RemovalRecompresses) {
    rax rt;
    for (const char *k : {"foo", "foobar", "footer"}) raxInsert(&rt, k, nullptr);
    EXPECT_EQ(rt.numnodes, 4u); /* head, "foo", "bar", "ter" */
    raxRemove(&rt, "foo");
    EXPECT_EQ(rt.numnodes, 4u); /* "foo" still branches */
    raxRemove(&rt, "foobar");
    ASSERT_EQ(rt.numnodes, 2u); /* head, "footer" */
    ASSERT_EQ(rt.head->children().size(), 1u);
    EXPECT_EQ(rt.head->children()[0]->label(), "footer");

    for (const char *k : {"a", "ab", "ac"}) raxInsert(&rt, k, nullptr);
    raxRemove(&rt, "a");
    raxRemove(&rt, "ab"); /* "a" is left with the single child "c" */
    ASSERT_EQ(rt.head->children().size(), 2u);
    EXPECT_EQ(rt.head->children()[0]->label(), "ac");
    EXPECT_EQ(rt.numnodes, 3u);

    /* Inserting a key inside an edge splits it. */
    raxInsert(&rt, "foot", nullptr);
    EXPECT_EQ(rt.numnodes, 4u); /* head, "ac", "foot", "er" */
    EXPECT_EQ(rt.head->children()[1]->label(), "foot");
    raxRemove(&rt, "foot");
    EXPECT_EQ(rt.numnodes, 3u);
    EXPECT_EQ(rt.head->children()[1]->label(), "footer");
}

TEST(Rax, EmptyTreeAndBadOperator) {
    rax rt;
    raxIterator it;
    raxStart(&it, &rt);
    EXPECT_TRUE(raxEOF(&it));
    EXPECT_FALSE(raxNext(&it)); /* never seeked */
    for (const char *op : {"^", "$", "=", ">=", ">", "<=", "<"}) {
        ASSERT_TRUE(raxSeek(&it, op, "a"));
        EXPECT_TRUE(raxEOF(&it));
        EXPECT_FALSE(raxNext(&it));
        EXPECT_FALSE(raxPrev(&it));
    }
    raxInsert(&rt, "a", nullptr);
    EXPECT_FALSE(raxSeek(&it, "=>", "a"));
    EXPECT_TRUE(raxEOF(&it));
    EXPECT_FALSE(raxNext(&it));
}

/* Redis's way to remove while iterating: remove it.key, seek ">" it again
 * (the iterator's own key as the argument). */
TEST(Rax, RemoveWhileIteratingByReseeking) {
    rax rt;
    Map m;
    for (int i = 0; i < 1000; i++) {
        std::string k = streamID(1000 + i / 7, i % 7);
        raxInsert(&rt, k, nullptr);
        m[k] = nullptr;
    }
    raxIterator it;
    raxStart(&it, &rt);
    raxSeek(&it, "^");
    int n = 0;
    while (raxNext(&it)) {
        if (n++ % 2 == 0) {
            m.erase(it.key);
            ASSERT_TRUE(raxRemove(&rt, it.key));
            raxSeek(&it, ">", it.key);
        }
    }
    EXPECT_EQ(n, 1000);
    checkShape(rt, m);
}

/* Streams append increasing IDs and seek the last one: each walks one path
 * of at most 17 nodes (the head and one per byte), whatever the size. */
TEST(Rax, StreamIDsAppendAndSeekLast) {
    rax rt;
    std::string last;
    uint64_t ms = 1700000000000ULL;
    for (uint64_t i = 0; i < 200000; i++) {
        if (i % 3 == 0) ms += 1 + i % 5;
        last = streamID(ms, i % 11);
        ASSERT_TRUE(raxInsert(&rt, last, nullptr));
    }
    raxIterator it;
    raxStart(&it, &rt);
    raxSeek(&it, "$");
    ASSERT_TRUE(raxPrev(&it));
    EXPECT_EQ(it.key, last);
    EXPECT_LE(it.stack.size(), 17u);
    raxSeek(&it, "<=", streamID(ms + 1, 0));
    ASSERT_TRUE(raxNext(&it));
    EXPECT_EQ(it.key, last);
    EXPECT_LE(rt.numnodes, 2 * raxSize(&rt) + 1);
}

/* Teardown frees every node of a big tree (ASan's leak check watches), and
 * of a deep one without recursing; raxFreeWithCallback frees the values. */
TEST(Rax, TeardownBigAndDeepTrees) {
    {
        rax rt;
        std::mt19937 rng(3);
        for (int i = 0; i < 100000; i++) raxInsert(&rt, randomKey(rng), nullptr);
    }
    {
        rax rt;
        std::string k;
        for (int i = 0; i < 3000; i++) {
            k.push_back('a');
            raxInsert(&rt, k, nullptr);
        }
        EXPECT_EQ(rt.numnodes, 3001u);
    }
    rax rt;
    for (int i = 0; i < 1000; i++) raxInsert(&rt, streamID(i, 0), std::malloc(16));
    raxFreeWithCallback(&rt, std::free);
    EXPECT_EQ(raxSize(&rt), 0u);
    EXPECT_EQ(rt.numnodes, 1u);
    EXPECT_EQ(raxFind(&rt, streamID(1, 0)), raxNotFound);
}

/* rax.h's "Memory": a node fits jemalloc's 32-byte class, with its label
 * inline up to 14 bytes, merged labels moving to a block past that. */
TEST(Rax, NodeIsCompact) {
    static_assert(sizeof(raxNode) <= 32);
    rax rt;
    std::string k14(14, 'k'), k15(15, 'k');
    raxInsert(&rt, k14, nullptr);
    raxInsert(&rt, k15, nullptr);
    const raxNode *n = rt.head->children()[0].get();
    EXPECT_EQ(n->label(), k14);
    EXPECT_FALSE(n->labelOnHeap());
    ASSERT_EQ(n->children().size(), 1u);
    EXPECT_EQ(n->children()[0]->label(), "k");
    raxRemove(&rt, k14);
    n = rt.head->children()[0].get();
    EXPECT_EQ(n->label(), k15);
    EXPECT_TRUE(n->labelOnHeap());
    EXPECT_EQ(raxFind(&rt, k15), nullptr);
}

/* Labels longer than the inline buffer (long consumer names) move to the
 * heap and back as edges are split and merged. */
TEST(Rax, LongLabelsSplitAndMerge) {
    rax rt;
    std::string a(40, 'a'), ab = a + std::string(30, 'b'), ac = a + "c";
    raxInsert(&rt, ab, &rt);
    const raxNode *n = rt.head->children()[0].get();
    EXPECT_TRUE(n->labelOnHeap());
    EXPECT_EQ(n->label(), ab);
    raxInsert(&rt, ac, nullptr); /* splits at 40 bytes: heap, heap and inline */
    raxInsert(&rt, "a", nullptr); /* splits at 1 byte: the rest stays on the heap */
    raxInsert(&rt, a.substr(0, 20), nullptr); /* splits at 20 */
    Map m{{ab, &rt}, {ac, nullptr}, {"a", nullptr}, {a.substr(0, 20), nullptr}};
    checkShape(rt, m);
    for (const std::string &k : {std::string("a"), a.substr(0, 20), ac}) {
        ASSERT_TRUE(raxRemove(&rt, k));
        m.erase(k);
        checkShape(rt, m);
    }
    EXPECT_EQ(rt.numnodes, 2u);
    EXPECT_EQ(rt.head->children()[0]->label(), ab);
    EXPECT_EQ(raxFind(&rt, ab), &rt);
}

} // namespace
