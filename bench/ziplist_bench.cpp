/* ziplist_bench.cpp — micro-benchmarks of the two list encodings.
 *
 * The same operations run on a ziplist and on the adlist of the linkedlist
 * encoding, at the sizes a ziplist lives at (up to list-max-ziplist-entries,
 * 512), with 10-byte string values: push and pop at either end, reading the
 * middle entry of a 512-entry list, inserting in the middle. A ziplist write
 * moves every byte after the written entry and reallocates, so its costs
 * grow with the list; the adlist's stay flat but cost an allocation each.
 * Lists are rebuilt outside the timed region when they reach their bound.
 */
#include <benchmark/benchmark.h>

#include <string_view>

#include "adlist.h"
#include "ziplist.h"

namespace {

constexpr size_t kEntries = 512; /* list-max-ziplist-entries */
constexpr std::string_view kValue = "value:0042";

struct Ziplist {
    using Type = ziplist;
    static void pushHead(ziplist &zl) { zl.push(kValue, ZIPLIST_HEAD); }
    static void pushTail(ziplist &zl) { zl.push(kValue, ZIPLIST_TAIL); }
    static void popHead(ziplist &zl) { zl.deleteEntry(zl.index(0)); }
    static void popTail(ziplist &zl) { zl.deleteEntry(zl.index(-1)); }
    static size_t length(const ziplist &zl) { return zl.len(); }
    static std::string_view valueAt(const ziplist &zl, long i) { return zl.get(zl.index(i)).sval; }
    static void insertAt(ziplist &zl, long i) { zl.insert(zl.index(i), kValue); }
};

struct Adlist {
    using Type = list;
    static void pushHead(list &l) { l.addNodeHead(kValue); }
    static void pushTail(list &l) { l.addNodeTail(kValue); }
    static void popHead(list &l) { l.delNode(l.first()); }
    static void popTail(list &l) { l.delNode(l.last()); }
    static size_t length(const list &l) { return l.length(); }
    static std::string_view valueAt(const list &l, long i) { return l.index(i)->value(); }
    static void insertAt(list &l, long i) { l.insertNode(l.index(i), kValue, false); }
};

template <class L>
typename L::Type filled(size_t n) {
    typename L::Type l;
    while (L::length(l) < n) L::pushTail(l);
    return l;
}

/* Runs `op` on a list that `reset` rebuilds whenever `full` says so. */
template <class L, class Full, class Reset, class Op>
void run(benchmark::State &state, typename L::Type l, Full full, Reset reset, Op op) {
    for (auto _ : state) {
        if (full(l)) {
            state.PauseTiming();
            l = reset();
            state.ResumeTiming();
        }
        op(l);
    }
    state.SetItemsProcessed(state.iterations());
}

template <class L, bool Head>
void BM_Push(benchmark::State &state) {
    run<L>(
        state, typename L::Type{}, [](const auto &l) { return L::length(l) == kEntries; },
        [] { return typename L::Type{}; }, [](auto &l) { Head ? L::pushHead(l) : L::pushTail(l); });
}

template <class L, bool Head>
void BM_Pop(benchmark::State &state) {
    run<L>(
        state, filled<L>(kEntries), [](const auto &l) { return L::length(l) == 0; },
        [] { return filled<L>(kEntries); }, [](auto &l) { Head ? L::popHead(l) : L::popTail(l); });
}

template <class L>
void BM_IndexMiddle(benchmark::State &state) {
    const typename L::Type l = filled<L>(kEntries);
    for (auto _ : state) benchmark::DoNotOptimize(L::valueAt(l, kEntries / 2));
    state.SetItemsProcessed(state.iterations());
}

/* From 512 to 1024 entries, each insert halfway down the list. */
template <class L>
void BM_InsertMiddle(benchmark::State &state) {
    run<L>(
        state, filled<L>(kEntries), [](const auto &l) { return L::length(l) == 2 * kEntries; },
        [] { return filled<L>(kEntries); }, [](auto &l) { L::insertAt(l, static_cast<long>(L::length(l) / 2)); });
}

BENCHMARK_TEMPLATE(BM_Push, Ziplist, true)->Name("ziplist/push_head");
BENCHMARK_TEMPLATE(BM_Push, Ziplist, false)->Name("ziplist/push_tail");
BENCHMARK_TEMPLATE(BM_Pop, Ziplist, true)->Name("ziplist/pop_head");
BENCHMARK_TEMPLATE(BM_Pop, Ziplist, false)->Name("ziplist/pop_tail");
BENCHMARK_TEMPLATE(BM_IndexMiddle, Ziplist)->Name("ziplist/index_middle_of_512");
BENCHMARK_TEMPLATE(BM_InsertMiddle, Ziplist)->Name("ziplist/insert_middle");
BENCHMARK_TEMPLATE(BM_Push, Adlist, true)->Name("adlist/push_head");
BENCHMARK_TEMPLATE(BM_Push, Adlist, false)->Name("adlist/push_tail");
BENCHMARK_TEMPLATE(BM_Pop, Adlist, true)->Name("adlist/pop_head");
BENCHMARK_TEMPLATE(BM_Pop, Adlist, false)->Name("adlist/pop_tail");
BENCHMARK_TEMPLATE(BM_IndexMiddle, Adlist)->Name("adlist/index_middle_of_512");
BENCHMARK_TEMPLATE(BM_InsertMiddle, Adlist)->Name("adlist/insert_middle");

}  // namespace

BENCHMARK_MAIN();
