/* dict_test.cpp — the dict: lookups and ownership, when tables grow and
 * shrink, incremental rehashing (operations during a rehash, against a
 * std::unordered_map model), safe and unsafe iteration, the SCAN guarantee
 * across resizes, random sampling, and the SipHash functions.
 */
#include <gtest/gtest.h>

#include <cctype>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "dict.h"
#include "sds.h"

using namespace std::literals;

namespace {

using StrDict = dict<sds, long long>;

std::string keyName(const std::string &prefix, int i) { return prefix + std::to_string(i); }

void addKeys(StrDict &d, const std::string &prefix, int n) {
    for (int i = 0; i < n; i++) ASSERT_NE(d.add(sds(keyName(prefix, i)), i), nullptr);
}

void finishRehash(StrDict &d) {
    while (d.rehash(100)) {
    }
}

/* Restores dict_can_resize however the test ends. */
struct ResizeDisabled {
    ResizeDisabled() { dict_can_resize = false; }
    ~ResizeDisabled() { dict_can_resize = true; }
};

/* A dict that is mid-rehash from 1024 to 2048 buckets, with 1025 keys. */
void makeRehashing(StrDict &d) {
    addKeys(d, "k", 1024);
    finishRehash(d);
    ASSERT_EQ(d.buckets(), 1024u);
    ASSERT_NE(d.add(sds("k1024"sv), 1024), nullptr);
    ASSERT_TRUE(d.isRehashing());
}

TEST(Dict, EntryLayout) {
    struct NoValue {};
    static_assert(sizeof(dictEntry<sds, void *>) == 24);
    static_assert(sizeof(dictEntry<sds, std::unique_ptr<std::string>>) == 24);
    static_assert(sizeof(dictEntry<sds, NoValue>) == 16);
}

TEST(Dict, AddFindErase) {
    StrDict d;
    EXPECT_EQ(d.size(), 0u);
    EXPECT_EQ(d.find("a"), nullptr);
    EXPECT_FALSE(d.erase("a"));
    StrDict::entry *e = d.add(sds("a"sv), 1);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->key, "a"sv);
    EXPECT_EQ(d.find("a"), e);
    EXPECT_EQ(d.size(), 1u);

    sds again("a"sv);
    EXPECT_EQ(d.add(std::move(again), 2), nullptr);
    EXPECT_EQ(again, "a"sv); /* not inserted, so not consumed */
    EXPECT_EQ(d.find("a")->val, 1);

    StrDict::entry *existing = nullptr;
    EXPECT_EQ(d.addRaw(sds("a"sv), &existing), nullptr);
    EXPECT_EQ(existing, e);
    StrDict::entry *b = d.addRaw(sds("b"sv), &existing);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->val, 0); /* addRaw leaves the value default */

    EXPECT_TRUE(d.erase("a"));
    EXPECT_FALSE(d.erase("a"));
    EXPECT_EQ(d.find("a"), nullptr);
    EXPECT_EQ(d.size(), 1u);
}

TEST(Dict, FindPositionForInsertThenInsertAtPosition) {
    StrDict d;
    addKeys(d, "k", 4);
    StrDict::entry *existing = nullptr;
    EXPECT_EQ(d.findPositionForInsert("k2", &existing), nullptr);
    ASSERT_NE(existing, nullptr);
    EXPECT_EQ(existing->val, 2);
    /* The fifth key makes the dict grow first: the position is in the new table. */
    StrDict::entry **position = d.findPositionForInsert("new", &existing);
    ASSERT_NE(position, nullptr);
    EXPECT_TRUE(d.isRehashing());
    StrDict::entry *e = d.insertAtPosition(sds("new"sv), position);
    e->val = 42;
    EXPECT_EQ(d.size(), 5u);
    ASSERT_NE(d.find("new"), nullptr);
    EXPECT_EQ(d.find("new")->val, 42);
    finishRehash(d);
    for (int i = 0; i < 4; i++) EXPECT_NE(d.find(keyName("k", i)), nullptr);
    EXPECT_EQ(d.find("new")->val, 42);
}

TEST(Dict, BinaryKeys) {
    StrDict d;
    ASSERT_NE(d.add(sds("a\0b"sv), 1), nullptr);
    ASSERT_NE(d.add(sds("a\0c"sv), 2), nullptr);
    ASSERT_NE(d.add(sds("a"sv), 3), nullptr);
    EXPECT_EQ(d.find("a\0b"sv)->val, 1);
    EXPECT_EQ(d.find("a\0c"sv)->val, 2);
    EXPECT_EQ(d.find("a"sv)->val, 3);
    EXPECT_EQ(d.find("a\0"sv), nullptr);
}

TEST(Dict, UnlinkHandsOverTheValue) {
    dict<sds, std::unique_ptr<std::string>> d;
    d.add(sds("k"sv), std::make_unique<std::string>("value"));
    auto e = d.unlink("k");
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(d.size(), 0u);
    EXPECT_EQ(d.find("k"), nullptr);
    std::unique_ptr<std::string> v = std::move(e->val);
    e.reset(); /* dictFreeUnlinkedEntry: the value survives */
    EXPECT_EQ(*v, "value");
    EXPECT_EQ(d.unlink("k"), nullptr);
}

TEST(Dict, OwnsItsValues) {
    auto tracker = std::make_shared<int>(0);
    {
        dict<sds, std::shared_ptr<int>> d;
        for (int i = 0; i < 100; i++) d.add(sds(keyName("k", i)), tracker);
        EXPECT_EQ(tracker.use_count(), 101);
        d.erase("k0");
        EXPECT_EQ(tracker.use_count(), 100);
        d.clear();
        EXPECT_EQ(tracker.use_count(), 1);
        EXPECT_EQ(d.buckets(), 0u);
        for (int i = 0; i < 100; i++) d.add(sds(keyName("k", i)), tracker);
    }
    EXPECT_EQ(tracker.use_count(), 1);
}

TEST(Dict, ExpandsAtLoadFactorOne) {
    StrDict d;
    EXPECT_EQ(d.buckets(), 0u);
    addKeys(d, "k", 4);
    EXPECT_EQ(d.buckets(), DICT_HT_INITIAL_SIZE);
    EXPECT_FALSE(d.isRehashing());
    d.add(sds("k4"sv), 4);
    EXPECT_TRUE(d.isRehashing());
    EXPECT_EQ(d.buckets(), 4u + 8u);
    finishRehash(d);
    EXPECT_EQ(d.buckets(), 8u);
    EXPECT_EQ(d.size(), 5u);
}

TEST(Dict, OnlyForcedExpandWhileResizeDisabled) {
    StrDict d;
    ResizeDisabled disabled;
    addKeys(d, "k", 24); /* up to 5 per bucket is tolerated */
    EXPECT_EQ(d.buckets(), 4u);
    EXPECT_FALSE(d.isRehashing());
    d.add(sds("k24"sv), 24);
    EXPECT_TRUE(d.isRehashing());
    finishRehash(d);
    EXPECT_EQ(d.buckets(), 32u);
    for (int i = 0; i < 25; i++) EXPECT_NE(d.find(keyName("k", i)), nullptr);
}

/* Sets dict_prefault_min_bytes for one test: every table of at least
 * `bytes` of buckets is faulted in before the rehash into it. */
struct PrefaultFrom {
    explicit PrefaultFrom(size_t bytes) : saved(std::exchange(dict_prefault_min_bytes, bytes)) {}
    ~PrefaultFrom() { dict_prefault_min_bytes = saved; }
    size_t saved;
};

TEST(Dict, BigTableIsFaultedInBeforeTheRehashIntoIt) {
    PrefaultFrom prefault(1024 * sizeof(void *)); /* tables of 1024+ buckets */
    StrDict d;
    addKeys(d, "k", 512);
    finishRehash(d);
    ASSERT_EQ(d.buckets(), 512u);
    /* The 1024-bucket table qualifies: prepared from 384 keys on, it is the
     * one the 513th key's rehash moves into. */
    addKeys(d, "a", 256);
    finishRehash(d);
    ASSERT_EQ(d.buckets(), 1024u);
    EXPECT_EQ(d.pendingBuckets(), 0u) << "768 keys: not yet 3/4 of 1024 when last inserted";
    ASSERT_NE(d.add(sds("b0"sv), 0), nullptr); /* inserted at 3/4: the 2048 table is prepared */
    EXPECT_EQ(d.pendingBuckets(), 2048u);
    addKeys(d, "c", 255); /* 1024 keys: full */
    EXPECT_FALSE(d.isRehashing());
    EXPECT_EQ(d.buckets(), 1024u) << "the pending table is not in use yet";
    ASSERT_NE(d.add(sds("over"sv), 0), nullptr); /* the rehash starts, into the pending table */
    EXPECT_TRUE(d.isRehashing());
    EXPECT_EQ(d.pendingBuckets(), 0u);
    EXPECT_EQ(d.buckets(), 1024u + 2048u);
    finishRehash(d);
    EXPECT_EQ(d.size(), 1025u);
    for (int i = 0; i < 512; i++) EXPECT_NE(d.find(keyName("k", i)), nullptr);
    for (int i = 0; i < 255; i++) EXPECT_NE(d.find(keyName("c", i)), nullptr);
}

TEST(Dict, SmallTablesAreNotPreparedAhead) {
    StrDict d; /* the default threshold: 32 MB of buckets */
    addKeys(d, "k", 1000);
    EXPECT_EQ(d.pendingBuckets(), 0u);
}

TEST(Dict, ShrinkDropsAPendingTable) {
    PrefaultFrom prefault(1024 * sizeof(void *));
    StrDict d;
    addKeys(d, "k", 900);
    finishRehash(d);
    ASSERT_EQ(d.pendingBuckets(), 2048u);
    for (int i = 0; i < 900; i++) d.erase(keyName("k", i));
    ASSERT_TRUE(d.needsShrink());
    ASSERT_TRUE(d.resizeToFit());
    EXPECT_EQ(d.pendingBuckets(), 0u);
    finishRehash(d);
    EXPECT_EQ(d.buckets(), DICT_HT_INITIAL_SIZE);
}

TEST(Dict, EveryOperationRehashesOneStep) {
    const std::function<void(StrDict &)> ops[] = {
        [](StrDict &d) { d.find("absent"); },
        [](StrDict &d) { d.erase("absent"); },
        [](StrDict &d) { d.add(sds("k0"sv), 0); /* exists: only the step */ },
        [](StrDict &d) { d.randomEntry(); },
    };
    for (const auto &op : ops) {
        StrDict d;
        addKeys(d, "k", 5); /* 4 buckets, rehashing into 8 */
        ASSERT_TRUE(d.isRehashing());
        /* At most 4 non-empty buckets to move, one per step. */
        for (int i = 0; i < 4 && d.isRehashing(); i++) op(d);
        EXPECT_FALSE(d.isRehashing());
        EXPECT_EQ(d.size(), 5u);
    }
}

TEST(Dict, RehashStepVisitsBoundedEmptyBuckets) {
    StrDict d;
    d.add(sds("only"sv), 1);
    ASSERT_TRUE(d.expand(65536));
    finishRehash(d);
    ASSERT_TRUE(d.resizeToFit()); /* 65536 buckets holding one key, down to 4 */
    int steps = 0;
    while (d.rehash(1)) steps++;
    EXPECT_LE(steps, 65536 / 10 + 1);
    EXPECT_EQ(d.buckets(), 4u);
    EXPECT_EQ(d.find("only")->val, 1);
}

TEST(Dict, ShrinksWhenSparse) {
    StrDict d;
    addKeys(d, "k", 1000);
    finishRehash(d);
    EXPECT_EQ(d.buckets(), 1024u);
    EXPECT_FALSE(d.needsShrink());
    for (int i = 10; i < 1000; i++) ASSERT_TRUE(d.erase(keyName("k", i)));
    EXPECT_TRUE(d.needsShrink());
    {
        ResizeDisabled disabled;
        EXPECT_FALSE(d.resizeToFit());
    }
    ASSERT_TRUE(d.resizeToFit());
    EXPECT_TRUE(d.isRehashing());
    EXPECT_FALSE(d.resizeToFit()); /* not while rehashing */
    finishRehash(d);
    EXPECT_EQ(d.buckets(), 16u);
    EXPECT_FALSE(d.needsShrink());
    for (int i = 0; i < 10; i++) EXPECT_EQ(d.find(keyName("k", i))->val, i);
}

TEST(Dict, ExpandRules) {
    StrDict d;
    EXPECT_TRUE(d.expand(100)); /* first table: no rehash needed */
    EXPECT_FALSE(d.isRehashing());
    EXPECT_EQ(d.buckets(), 128u);
    EXPECT_FALSE(d.expand(128)); /* same size */
    addKeys(d, "k", 100);
    EXPECT_FALSE(d.expand(50)); /* smaller than the content */
    EXPECT_TRUE(d.expand(1000));
    EXPECT_FALSE(d.expand(5000)); /* already rehashing */
    while (d.rehashMilliseconds(1) > 0) { /* 0 once a call finishes the rehash */
    }
    EXPECT_FALSE(d.isRehashing());
    EXPECT_EQ(d.buckets(), 1024u);
}

/* Checks every view of the dict against the model: size, lookups, and an
 * iteration over both tables that sees each key exactly once. */
void expectSameContent(StrDict &d, const std::unordered_map<std::string, long long> &model) {
    ASSERT_EQ(d.size(), model.size());
    std::set<std::string> seen;
    for (auto &e : d) {
        auto it = model.find(std::string(e.key.view()));
        ASSERT_NE(it, model.end()) << "unexpected key " << e.key.view();
        EXPECT_EQ(e.val, it->second);
        EXPECT_TRUE(seen.insert(std::string(e.key.view())).second) << "twice: " << e.key.view();
    }
    EXPECT_EQ(seen.size(), model.size());
    for (const auto &[k, v] : model) {
        StrDict::entry *e = d.find(k);
        ASSERT_NE(e, nullptr) << k;
        EXPECT_EQ(e->val, v);
    }
}

TEST(Dict, RandomizedAgainstUnorderedMap) {
    std::mt19937 rng(12345);
    StrDict d;
    std::unordered_map<std::string, long long> model;
    auto pick = [&](int n) { return static_cast<int>(rng() % n); };
    int opsWhileRehashing = 0;
    for (int op = 0; op < 200000; op++) {
        /* Phases of growth and of shrinkage, so tables keep resizing. */
        bool growing = (op / 5000) % 2 == 0;
        std::string key = keyName("key:", pick(3000));
        if (d.isRehashing()) opsWhileRehashing++;
        int r = pick(100);
        if (r < (growing ? 45 : 20)) {
            bool inserted = d.add(sds(key), op) != nullptr;
            EXPECT_EQ(inserted, model.emplace(key, op).second) << key;
        } else if (r < 65) {
            bool erased = d.erase(key);
            EXPECT_EQ(erased, model.erase(key) == 1) << key;
        } else if (r < 90) {
            StrDict::entry *e = d.find(key);
            auto it = model.find(key);
            ASSERT_EQ(e != nullptr, it != model.end()) << key;
            if (e) {
                EXPECT_EQ(e->val, it->second);
            }
        } else if (r < 93) {
            StrDict::entry *existing = nullptr;
            StrDict::entry *e = d.addRaw(sds(key), &existing);
            if (e) {
                e->val = op;
                model[key] = op;
            } else {
                EXPECT_EQ(existing->val, model.at(key));
            }
        } else if (r < 95) {
            d.expand(model.size() + pick(4096));
        } else if (r < 97) {
            if (d.needsShrink()) d.resizeToFit();
        } else {
            d.rehash(1 + pick(3));
        }
        if (op % 4999 == 0) expectSameContent(d, model);
    }
    expectSameContent(d, model);
    EXPECT_GT(opsWhileRehashing, 20000);
}

TEST(Dict, IteratorsVisitEachEntryOnceWhileRehashing) {
    StrDict d;
    makeRehashing(d);
    std::map<std::string, int> visits;
    for (auto &e : d) visits[std::string(e.key.view())]++;
    EXPECT_TRUE(d.isRehashing());
    EXPECT_EQ(visits.size(), 1025u);
    for (const auto &[k, n] : visits) EXPECT_EQ(n, 1) << k;

    visits.clear();
    for (auto &e : d.safe()) visits[std::string(e.key.view())]++;
    EXPECT_EQ(visits.size(), 1025u);
    for (const auto &[k, n] : visits) EXPECT_EQ(n, 1) << k;

    StrDict empty;
    for (auto &e : empty) ADD_FAILURE() << e.key.view();
    for (auto &e : empty.safe()) ADD_FAILURE() << e.key.view();
}

TEST(Dict, RehashedPagesGivenBackStillReadAsEmptyBuckets) {
    StrDict d;
    addKeys(d, "k", 65536);
    finishRehash(d);
    d.add(sds("k65536"sv), 65536); /* 65536 buckets (512 KB) rehashing into 131072 */
    d.rehash(30000);                /* ~46000 buckets passed: several 64 KB batches */
    ASSERT_TRUE(d.isRehashing());
    std::set<std::string> seen;
    for (auto &e : d.safe()) seen.insert(std::string(e.key.view()));
    EXPECT_EQ(seen.size(), 65537u);
    size_t unsafeCount = 0;
    for (auto &e : d) unsafeCount += e.key.size() > 0;
    EXPECT_EQ(unsafeCount, 65537u);
    seen.clear();
    unsigned long cursor = 0;
    do {
        cursor = d.scan(cursor, [&](StrDict::entry &e) { seen.insert(std::string(e.key.view())); });
    } while (cursor != 0);
    EXPECT_EQ(seen.size(), 65537u);
    finishRehash(d);
    for (int i = 0; i <= 65536; i++) ASSERT_EQ(d.find(keyName("k", i))->val, i);
}

TEST(Dict, UnsafeIteratorMayChangeValues) {
    StrDict d;
    makeRehashing(d);
    for (auto &e : d) e.val = -1;
    for (auto &e : d) EXPECT_EQ(e.val, -1);
}

TEST(Dict, SafeIteratorAllowsDeletingTheCurrentEntryAndPausesRehash) {
    StrDict d;
    makeRehashing(d);
    size_t buckets = d.buckets();
    int visited = 0;
    for (auto &e : d.safe()) {
        visited++;
        /* Three lookups per entry would finish an unpaused rehash of 1024
         * buckets three times over. */
        for (int i = 0; i < 3; i++) d.find(keyName("k", visited % 1025));
        EXPECT_TRUE(d.erase(e.key.view()));
        if (visited == 1) {
            EXPECT_EQ(d.rehashMilliseconds(100), 0); /* serverCron waits too */
        }
        ASSERT_TRUE(d.isRehashing());
        ASSERT_EQ(d.buckets(), buckets);
    }
    EXPECT_EQ(visited, 1025);
    EXPECT_EQ(d.size(), 0u);
    EXPECT_FALSE(d.rehash(1)); /* resumed: the now empty ht[0] is retired */
}

TEST(Dict, SafeIteratorAllowsAdding) {
    StrDict d;
    addKeys(d, "k", 500);
    finishRehash(d);
    std::map<std::string, int> visits;
    int added = 0;
    for (auto &e : d.safe()) {
        visits[std::string(e.key.view())]++;
        /* New entries may or may not be visited: only the old ones add more. */
        if (e.key.view().starts_with("k")) d.add(sds(keyName("new", added++)), 0);
    }
    EXPECT_TRUE(d.isRehashing()); /* the adds started one, paused till now */
    EXPECT_EQ(d.size(), 1000u);
    for (int i = 0; i < 500; i++) EXPECT_EQ(visits[keyName("k", i)], 1);
}

TEST(Dict, UnsafeIteratorDetectsModification) {
#ifdef NDEBUG
    GTEST_SKIP() << "the fingerprint check is an assert";
#endif
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(
        {
            StrDict d;
            addKeys(d, "k", 10);
            int n = 0;
            for (auto &e : d) d.add(sds(keyName("new", n++)), e.val);
        },
        "dict modified during unsafe iteration");
    EXPECT_DEATH(
        {
            StrDict d;
            addKeys(d, "k", 10);
            for (auto &e : d) {
                d.erase(e.key.view());
                break; /* caught when the iterator is released */
            }
        },
        "dict modified during unsafe iteration");
    EXPECT_DEATH(
        {
            StrDict d;
            makeRehashing(d);
            for (auto &e : d) d.find(e.key.view()); /* a rehash step */
        },
        "dict modified during unsafe iteration");
}

/* Runs a whole scan, calling mutate(step) between calls. */
template <typename Mutate>
std::set<std::string> scanAll(StrDict &d, Mutate mutate) {
    std::set<std::string> seen;
    unsigned long cursor = 0;
    int step = 0;
    do {
        cursor = d.scan(cursor, [&](StrDict::entry &e) { seen.insert(std::string(e.key.view())); });
        mutate(step++);
    } while (cursor != 0);
    return seen;
}

void expectAllKept(const std::set<std::string> &seen, int kept) {
    for (int i = 0; i < kept; i++) ASSERT_TRUE(seen.count(keyName("keep", i))) << keyName("keep", i);
}

TEST(Dict, ScanOfAStableDictReturnsEachEntryOnce) {
    StrDict d;
    addKeys(d, "k", 1000);
    finishRehash(d);
    std::map<std::string, int> visits;
    unsigned long cursor = 0;
    do {
        cursor = d.scan(cursor, [&](StrDict::entry &e) { visits[std::string(e.key.view())]++; });
    } while (cursor != 0);
    EXPECT_EQ(visits.size(), 1000u);
    for (const auto &[k, n] : visits) EXPECT_EQ(n, 1) << k;
    StrDict empty;
    EXPECT_EQ(empty.scan(0, [](StrDict::entry &) { ADD_FAILURE(); }), 0u);
}

TEST(Dict, ScanSurvivesGrowthThenShrink) {
    StrDict d;
    addKeys(d, "keep", 1000);
    finishRehash(d);
    int tmp = 0;
    bool sawRehashing = false;
    auto seen = scanAll(d, [&](int step) {
        sawRehashing |= d.isRehashing();
        if (step == 3) { /* grow 1024 -> 32768 buckets through several rehashes */
            for (int i = 0; i < 30000; i++) d.add(sds(keyName("tmp", tmp++)), 0);
        } else if (step == 40) { /* then empty it again and shrink */
            for (int i = 0; i < tmp; i++) d.erase(keyName("tmp", i));
            finishRehash(d);
            ASSERT_TRUE(d.resizeToFit());
        } else if (step > 40 && step % 2) {
            d.rehash(2); /* calls land mid-shrink */
        }
    });
    EXPECT_TRUE(sawRehashing);
    expectAllKept(seen, 1000);
    finishRehash(d);
    EXPECT_EQ(d.buckets(), 1024u);
}

/* 30 random trials; 10 under ASan (make test's second run), where each
 * costs ten times more and the same resizes happen. */
#if defined(__SANITIZE_ADDRESS__)
constexpr int kScanResizeTrials = 10;
#else
constexpr int kScanResizeTrials = 30;
#endif

TEST(Dict, ScanSurvivesRandomResizes) {
    std::mt19937 rng(777);
    for (int trial = 0; trial < kScanResizeTrials; trial++) {
        SCOPED_TRACE(trial);
        StrDict d;
        addKeys(d, "keep", 300);
        int next = 0;
        std::vector<int> live;
        auto seen = scanAll(d, [&](int) {
            switch (rng() % 5) {
            case 0: /* a burst of insertions: may start or speed up a grow */
                for (int i = 0, n = rng() % 3000; i < n; i++) {
                    d.add(sds(keyName("tmp", next)), 0);
                    live.push_back(next++);
                }
                break;
            case 1: /* drop most temporary keys, maybe shrink */
                while (live.size() > 10) {
                    d.erase(keyName("tmp", live.back()));
                    live.pop_back();
                }
                if (d.needsShrink()) d.resizeToFit();
                break;
            case 2:
                d.rehash(1 + rng() % 50);
                break;
            default:
                break;
            }
        });
        expectAllKept(seen, 300);
    }
}

TEST(Dict, ScanCallbackMayDeleteTheEntry) {
    StrDict d;
    makeRehashing(d);
    unsigned long cursor = 0;
    do {
        cursor = d.scan(cursor, [&](StrDict::entry &e) { EXPECT_TRUE(d.erase(e.key.view())); });
    } while (cursor != 0);
    EXPECT_EQ(d.size(), 0u);
}

TEST(Dict, RandomEntriesArePresentAndCoverAllKeys) {
    StrDict d;
    makeRehashing(d);
    std::set<std::string> present;
    for (auto &e : d) present.insert(std::string(e.key.view()));
    for (int i = 0; i < 1025; i += 2) {
        d.erase(keyName("k", i));
        present.erase(keyName("k", i));
    }
    ASSERT_TRUE(d.isRehashing()); /* erase steps, 513 of them: still mid-way */

    std::set<std::string> drawn, fairDrawn;
    for (int i = 0; i < 50000; i++) {
        StrDict::entry *e = d.randomEntry();
        ASSERT_NE(e, nullptr);
        ASSERT_TRUE(present.count(std::string(e->key.view()))) << e->key.view();
        drawn.insert(std::string(e->key.view()));
        StrDict::entry *f = d.fairRandomEntry();
        ASSERT_NE(f, nullptr);
        ASSERT_TRUE(present.count(std::string(f->key.view()))) << f->key.view();
        fairDrawn.insert(std::string(f->key.view()));
    }
    EXPECT_EQ(drawn, present);
    EXPECT_EQ(fairDrawn, present);

    StrDict empty;
    EXPECT_EQ(empty.randomEntry(), nullptr);
    EXPECT_EQ(empty.fairRandomEntry(), nullptr);
}

TEST(Dict, GetSomeEntriesReturnsPresentEntries) {
    StrDict d;
    makeRehashing(d);
    StrDict::entry *out[50];
    for (int round = 0; round < 100; round++) {
        size_t n = d.getSomeEntries(out);
        ASSERT_LE(n, 50u);
        EXPECT_GT(n, 0u);
        for (size_t i = 0; i < n; i++) EXPECT_EQ(d.find(out[i]->key.view()), out[i]);
    }
    StrDict small;
    addKeys(small, "s", 3);
    EXPECT_EQ(small.getSomeEntries(out), 3u); /* asked for more than there is */
    StrDict empty;
    EXPECT_EQ(empty.getSomeEntries(out), 0u);
}

TEST(Dict, ClearCallsBackEvery65536Buckets) {
    StrDict d;
    addKeys(d, "k", 200000);
    finishRehash(d);
    ASSERT_EQ(d.buckets(), 262144u);
    int calls = 0;
    d.clear([&] { calls++; });
    EXPECT_EQ(calls, 4); /* buckets 0, 65536, 131072, 196608 */
    EXPECT_EQ(d.size(), 0u);
    EXPECT_EQ(d.buckets(), 0u);
    EXPECT_FALSE(d.isRehashing());
    addKeys(d, "again", 10);
    EXPECT_EQ(d.size(), 10u);
}

TEST(Dict, MoveAndSwap) {
    StrDict a, b;
    makeRehashing(a);
    addKeys(b, "b", 3);
    a.swap(b);
    EXPECT_EQ(a.size(), 3u);
    EXPECT_EQ(b.size(), 1025u);
    StrDict c(std::move(b));
    EXPECT_EQ(b.size(), 0u);
    EXPECT_FALSE(b.isRehashing());
    EXPECT_EQ(c.find("k1024")->val, 1024);
    b = std::move(c);
    EXPECT_EQ(b.size(), 1025u);
    addKeys(c, "c", 5); /* a moved-from dict is an empty one */
    EXPECT_EQ(c.size(), 5u);
}

TEST(Dict, LongLongKeys) {
    dict<long long, sds> d;
    for (long long i = -500; i < 500; i++) ASSERT_NE(d.add(i * 1000003, sds(std::to_string(i))), nullptr);
    EXPECT_EQ(d.size(), 1000u);
    EXPECT_EQ(d.find(-3 * 1000003)->val, "-3"sv);
    EXPECT_TRUE(d.erase(7 * 1000003));
    EXPECT_EQ(d.find(7 * 1000003), nullptr);
}

TEST(Dict, CaseInsensitiveKeys) {
    dict<sds, int, DictNoCaseTraits> d;
    ASSERT_NE(d.add(sds("GetRange"sv), 1), nullptr);
    EXPECT_EQ(d.add(sds("GETRANGE"sv), 2), nullptr);
    EXPECT_EQ(d.find("getrange")->val, 1);
    EXPECT_EQ(d.find("getrangx"), nullptr);
}

/* ------------------------------------------------------------------------
 * Hash functions. Expected values come from a reference SipHash written
 * independently (and checked against the paper's SipHash-2-4 vectors), run
 * with 1 compression and 2 finalization rounds.
 * ---------------------------------------------------------------------- */

TEST(DictHash, SipHash12Vectors) {
    uint8_t key[16];
    for (int i = 0; i < 16; i++) key[i] = i;
    uint8_t msg[64];
    for (int i = 0; i < 64; i++) msg[i] = i;
    const std::pair<size_t, uint64_t> vectors[] = {
        {0, 0xcea28b51565c12e2}, {1, 0x94aaf38c34ce7ba6}, {7, 0xf03c4cbcf492b05a},
        {8, 0x606845b4d093af74}, {9, 0xe304e78271c74a56}, {15, 0xec8f61bc1c8966a6},
        {16, 0x1311f4dfe747a751}, {63, 0xff6d07afacbad6d9},
    };
    for (auto [len, want] : vectors) EXPECT_EQ(siphash(msg, len, key), want) << len;
    EXPECT_EQ(siphash("hello", 5, key), 0xf5496b7e483cca31u);
}

TEST(DictHash, NoCaseFoldsAsciiOnly) {
    uint8_t key[16] = {1, 2, 3};
    const std::string mixed = "HeLLo, World! 0123456789 ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    std::string lower = mixed;
    for (char &c : lower) c = static_cast<char>(tolower(static_cast<unsigned char>(c)));
    EXPECT_EQ(siphash_nocase(mixed.data(), mixed.size(), key), siphash(lower.data(), lower.size(), key));
    EXPECT_NE(siphash(mixed.data(), mixed.size(), key), siphash(lower.data(), lower.size(), key));
    EXPECT_NE(siphash_nocase("\xc0", 1, key), siphash("\xe0", 1, key)); /* not Latin-1 */
}

TEST(DictHash, SeedKeysTheDictHash) {
    uint8_t saved[16];
    memcpy(saved, dictGetHashFunctionSeed(), 16);
    uint8_t seed[16];
    for (int i = 0; i < 16; i++) seed[i] = i;
    dictSetHashFunctionSeed(seed);
    EXPECT_EQ(dictGenHashFunction("hello", 5), 0xf5496b7e483cca31u);
    EXPECT_EQ(dictGenCaseHashFunction("HELLO", 5), 0xf5496b7e483cca31u);
    seed[0] = 42;
    dictSetHashFunctionSeed(seed);
    EXPECT_NE(dictGenHashFunction("hello", 5), 0xf5496b7e483cca31u);
    dictSetHashFunctionSeed(saved);
}

}  // namespace
