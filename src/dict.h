/* dict.h — Redis's dict (dict.c): the hash table behind the keyspace, hashes
 * and sets.
 *
 * A chained hash table whose bucket count is a power of two. It has TWO
 * tables so that it can grow or shrink without ever stopping the server:
 * resizing allocates ht[1] and then moves ht[0]'s buckets over a few at a
 * time (incremental rehashing) — one bucket on every find/add/erase, and
 * more from serverCron (rehashMilliseconds) — until ht[0] is empty and ht[1]
 * takes its place.
 *
 * Invariants:
 *  - Not rehashing: rehashidx == -1, everything is in ht[0], ht[1] is empty.
 *    Rehashing: buckets of ht[0] below rehashidx are empty (their memory
 *    may already be back with the kernel, reading as nulls), new entries go
 *    to ht[1], and a lookup must search both tables.
 *  - The dict owns its entries (and so their keys and values): entries are
 *    allocated one by one and freed by erase/clear/the destructor, or handed
 *    to the caller as a unique_ptr by unlink.
 *  - No entry moves between tables while a safe iterator or a scan is
 *    running (pauserehash > 0), so deleting the entry just returned is safe.
 *    An unsafe iterator allows no change at all, not even the rehash step a
 *    find performs; it checks a fingerprint of the tables to catch misuse.
 *  - Growing a big table (dict_prefault_min_bytes or more of buckets) first
 *    faults its pages in (pending_, no entries in it): from 3/4 full on, each
 *    insert touches its share of the pages, so that when ht[0] is full the
 *    new table is resident and the rehash writes to it without a page
 *    fault storm. Until then pending_ is invisible to every operation.
 *  - Hashes are keyed SipHash-1-2 with a seed chosen at start-up, so clients
 *    cannot craft keys that collide (hash flooding).
 */
#pragma once

#include <algorithm>
#include <bit>
#include <cassert>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "sds.h"
#include "livetrace.h"
#include "util.h"

/* ------------------------------------------------------------------------
 * Hash functions.
 * ---------------------------------------------------------------------- */

/* Sets the 16-byte key of every dict hash (call once at start-up, from
 * random bytes, before any dict holds an entry: hashes would change). */
void dictSetHashFunctionSeed(const uint8_t seed[16]);
const uint8_t *dictGetHashFunctionSeed();

/* SipHash-1-2 (1 compression round, 2 finalization rounds: Redis's speed /
 * strength trade-off); the nocase variant hashes as if A-Z were a-z. */
uint64_t siphash(const void *in, size_t len, const uint8_t key[16]);
uint64_t siphash_nocase(const void *in, size_t len, const uint8_t key[16]);

/* The seeded hashes all dicts use. */
uint64_t dictGenHashFunction(const void *key, size_t len);
uint64_t dictGenCaseHashFunction(const void *buf, size_t len);

/* ------------------------------------------------------------------------
 * Resize policy.
 * ---------------------------------------------------------------------- */

/* While a child process shares our pages copy-on-write (BGSAVE), resizing
 * would touch every page; the server clears this flag and tables then grow
 * only past dict_force_resize_ratio entries per bucket. */
inline bool dict_can_resize = true;
constexpr size_t dict_force_resize_ratio = 5;
constexpr size_t DICT_HT_INITIAL_SIZE = 4;
/* Below this fill (percent) serverCron shrinks a table (htNeedsResize). */
constexpr size_t HASHTABLE_MIN_FILL = 10;
/* Bucket arrays this big are faulted in before the rehash into them starts:
 * the rehash and the inserts write to them at random, and a fresh 128 MB
 * array written at random costs a page fault on almost every write for the
 * first tens of thousands of them — about 15 ms per 1,000 inserts on the
 * 2-core VM of bench/README.md, where serving stalls. Smaller arrays fault
 * in quickly enough, and are left as Redis leaves them (a 1M-key keyspace
 * never allocates early). */
inline size_t dict_prefault_min_bytes = size_t{32} << 20; /* tests lower it */
/* fairRandomEntry picks among a sample of this many entries. */
constexpr size_t GETFAIR_NUM_ENTRIES = 15;

namespace dict_detail {
uint64_t random();
/* Zeroed bucket array from calloc: large ones come straight from the
 * kernel as untouched zero pages, so even a 16M-bucket table costs no
 * memset at resize time (the pause incremental rehashing exists to avoid). */
void *callocBuckets(size_t n, size_t size);
struct Free {
    void operator()(void *p) const noexcept { std::free(p); }
};
/* Gives the kernel back the whole pages within bytes [from, to) of the
 * allocation at `base`, whose content must not matter any more. Returns
 * the offset where the released run ends (from if none was whole). */
size_t releasePages(void *base, size_t from, size_t to);

inline uint64_t mix(uint64_t x) { /* splitmix64's finalizer */
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* TRACE_DICT (dict.cpp): the rehash that moves into the bucket array
 * `to` starts, takes one more step, ends. Each rehash is known by its new
 * table, which stays put while the dict itself may be moved or swapped;
 * an end without a start seen (tracing began meanwhile) says no time. */
void traceRehashStart(uint32_t label, size_t from, size_t to, size_t used, const void *table);
void traceRehashStep(const void *table);
void traceRehashEnd(uint32_t label, size_t from, size_t to, size_t used, const void *table);
/* A dict freed while rehashing: its rehash never ends. */
void traceRehashForget(const void *table);
/* Labels: "db0 keys" -> a small number a dict keeps (0 is no label). */
uint32_t traceLabelId(std::string_view label);
const char *traceLabelName(uint32_t id);

/* Bit reversal, for the SCAN cursor. */
inline unsigned long rev(unsigned long v) {
    static_assert(sizeof(v) == 8);
    v = ((v >> 1) & 0x5555555555555555UL) | ((v & 0x5555555555555555UL) << 1);
    v = ((v >> 2) & 0x3333333333333333UL) | ((v & 0x3333333333333333UL) << 2);
    v = ((v >> 4) & 0x0F0F0F0F0F0F0F0FUL) | ((v & 0x0F0F0F0F0F0F0F0FUL) << 4);
    return __builtin_bswap64(v);
}
}  // namespace dict_detail

/* ------------------------------------------------------------------------
 * Key traits: how a dict hashes and compares its keys. lookup_type is what
 * find/erase take, so an sds-keyed dict is searched with a string_view (a
 * command argument) without building an sds.
 * ---------------------------------------------------------------------- */
template <typename Key>
struct DictTraits;

template <>
struct DictTraits<sds> {
    using lookup_type = std::string_view;
    static uint64_t hash(std::string_view k) { return dictGenHashFunction(k.data(), k.size()); }
    static bool equal(const sds &a, std::string_view b) { return a == b; }
};

/* Case-insensitive sds keys (Redis's command table, for instance). */
struct DictNoCaseTraits {
    using lookup_type = std::string_view;
    static uint64_t hash(std::string_view k) { return dictGenCaseHashFunction(k.data(), k.size()); }
    static bool equal(const sds &a, std::string_view b) { return strEqualNoCase(a, b); }
};

template <>
struct DictTraits<long long> {
    using lookup_type = long long;
    static uint64_t hash(long long k) { return dictGenHashFunction(&k, sizeof(k)); }
    static bool equal(long long a, long long b) { return a == b; }
};

/* ------------------------------------------------------------------------
 * The dict.
 * ---------------------------------------------------------------------- */

/* 24 bytes for <sds, T*>, 16 for a set (an empty Val takes no room). */
template <typename Key, typename Val>
struct dictEntry {
    dictEntry *next;
    Key key;
    [[no_unique_address]] Val val;
};

template <typename Key, typename Val, typename Traits = DictTraits<Key>>
class dict {
public:
    using entry = dictEntry<Key, Val>;
    using lookup_type = typename Traits::lookup_type;
    class iterator;
    class safe_range;

    dict() = default;
    dict(dict &&o) noexcept { swap(o); }
    dict &operator=(dict &&o) noexcept {
        dict(std::move(o)).swap(*this);
        return *this;
    }
    ~dict() { clear(); }

    size_t size() const { return ht_[0].used + ht_[1].used; }     /* dictSize */
    size_t buckets() const { return ht_[0].size + ht_[1].size; }  /* dictSlots */
    bool isRehashing() const { return rehashidx_ != -1; }
    size_t pendingBuckets() const { return pending_.size; } /* the next table, being faulted in */

    /* Names the dict in its TRACE_DICT events ("db0 keys"); the name stays
     * with this object when its content is swapped or moved out. */
    void setTraceLabel(std::string_view label) { trace_label_ = dict_detail::traceLabelId(label); }
    const char *traceLabel() const { return dict_detail::traceLabelName(trace_label_); }

    /* dictFind */
    entry *find(lookup_type key) {
        if (size() == 0) return nullptr;
        rehashStep();
        auto [link, table] = locate(key, Traits::hash(key));
        return link ? *link : nullptr;
    }

    /* dictAddRaw: inserts key with a default value and returns its entry,
     * or, if the key exists, returns nullptr and sets *existing to the
     * entry. The key is moved from only when it is inserted. */
    entry *addRaw(Key &&key, entry **existing = nullptr) {
        entry *found = nullptr;
        entry **position = findPositionForInsert(key, &found);
        if (!position) {
            if (existing) *existing = found;
            return nullptr;
        }
        return insertAtPosition(std::move(key), position);
    }

    /* dictFindPositionForInsert (Redis 7.2): the bucket where `key` would
     * go, or nullptr with *existing set if it is there already. With
     * insertAtPosition, an "add unless present" costs one hash and one
     * chain walk, and the caller builds the key only when it is new (SADD
     * of a member already there allocates nothing). Nothing may touch the
     * dict in between. */
    entry **findPositionForInsert(lookup_type key, entry **existing) {
        rehashStep();
        prefaultStep();
        expandIfNeeded();
        uint64_t h = Traits::hash(key);
        if (auto [link, table] = locate(key, h); link) {
            *existing = *link;
            return nullptr;
        }
        dictht &ht = ht_[isRehashing() ? 1 : 0];
        return &ht.table[h & ht.mask()];
    }

    /* dictInsertAtPosition: links a new entry for `key` (the key the
     * position was found for) with a default value. */
    entry *insertAtPosition(Key &&key, entry **position) {
        *position = new entry{*position, std::move(key), Val{}};
        ht_[isRehashing() ? 1 : 0].used++;
        return *position;
    }

    /* dictAdd: nullptr if the key exists (then neither argument is moved from). */
    template <typename V>
    entry *add(Key &&key, V &&val) {
        entry *e = addRaw(std::move(key));
        if (e) e->val = std::forward<V>(val);
        return e;
    }

    /* dictUnlink: removes the entry from the table and hands it over, so
     * the caller can take its value before it is freed (dictFreeUnlinkedEntry
     * is the unique_ptr going out of scope). */
    std::unique_ptr<entry> unlink(lookup_type key) {
        if (size() == 0) return nullptr;
        rehashStep();
        auto [link, table] = locate(key, Traits::hash(key));
        if (!link) return nullptr;
        entry *e = *link;
        *link = e->next;
        e->next = nullptr;
        ht_[table].used--;
        return std::unique_ptr<entry>(e);
    }

    /* dictDelete */
    bool erase(lookup_type key) { return unlink(key) != nullptr; }

    /* dictExpand: makes room for `size` entries (the next power of two
     * buckets); rehashing then moves the entries over. Fails while already
     * rehashing, below the current count, or when the size would not change. */
    bool expand(size_t size) {
        if (isRehashing() || ht_[0].used > size) return false;
        size_t realsize = std::bit_ceil(std::max(size, DICT_HT_INITIAL_SIZE));
        if (realsize == ht_[0].size) return false;
        if (pending_.size == realsize) { /* faulted in already (prefaultStep) */
            startRehash(std::exchange(pending_, dictht{}));
            return true;
        }
        pending_ = dictht{};
        dictht fresh = allocTable(realsize);
        if (ht_[0].size == 0) ht_[0] = std::move(fresh); /* the first table: nothing to move */
        else startRehash(std::move(fresh));
        return true;
    }

    /* dictResize: shrinks (or grows) to the smallest table holding every
     * entry at load factor <= 1. serverCron calls it when needsShrink(). */
    bool resizeToFit() {
        if (!dict_can_resize || isRehashing()) return false;
        return expand(std::max(ht_[0].used, DICT_HT_INITIAL_SIZE));
    }

    /* htNeedsResize: mostly empty buckets waste memory and slow down
     * randomEntry and scan. */
    bool needsShrink() const {
        return buckets() > DICT_HT_INITIAL_SIZE && size() * 100 / buckets() < HASHTABLE_MIN_FILL;
    }

    /* dictRehash: moves n buckets from ht[0] to ht[1], giving up after
     * visiting n*10 empty ones so one call stays short. Returns whether
     * rehashing is still in progress. Does nothing while rehash is paused
     * (Redis leaves that to the caller; here it cannot be got wrong). */
    bool rehash(int n) {
        if (!isRehashing()) return false;
        if (pauserehash_ > 0) return true;
        moveBuckets(n);
        if (ht_[0].used != 0) {
            if (traceOn(TRACE_DICT)) dict_detail::traceRehashStep(ht_[1].table.get());
            releaseRehashedPages();
            return true;
        }
        if (traceOn(TRACE_DICT))
            dict_detail::traceRehashEnd(trace_label_, ht_[0].size, ht_[1].size, ht_[1].used, ht_[1].table.get());
        ht_[0] = std::move(ht_[1]); /* frees the old table */
        ht_[1] = dictht{};
        rehashidx_ = -1;
        return false;
    }

    /* dictRehashMilliseconds: rehashes in steps of 100 buckets for about
     * `ms` milliseconds (serverCron's incrementallyRehash). Returns the
     * number of buckets moved, roughly. */
    int rehashMilliseconds(int ms) {
        if (pauserehash_ > 0) return 0;
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
        int rehashes = 0;
        while (rehash(100)) {
            rehashes += 100;
            if (std::chrono::steady_clock::now() > deadline) break;
        }
        return rehashes;
    }

    /* dictGetRandomKey: a random non-empty bucket, then a random entry of
     * its chain (so entries in long chains are picked less often). */
    entry *randomEntry() {
        if (size() == 0) return nullptr;
        rehashStep();
        entry *head;
        if (isRehashing()) {
            /* ht[0] is empty below rehashidx: draw from the rest of it and ht[1]. */
            size_t first = rehashidx_, span = buckets() - first;
            do {
                size_t i = first + dict_detail::random() % span;
                head = i < ht_[0].size ? ht_[0].table[i] : ht_[1].table[i - ht_[0].size];
            } while (!head);
        } else {
            do head = ht_[0].table[dict_detail::random() & ht_[0].mask()];
            while (!head);
        }
        size_t chainlen = 0;
        for (entry *e = head; e; e = e->next) chainlen++;
        for (size_t k = dict_detail::random() % chainlen; k; k--) head = head->next;
        return head;
    }

    /* dictGetSomeKeys: fills `out` with up to out.size() entries from a
     * random spot, walking consecutive buckets (cheap, but not uniform: the
     * entries returned are near each other). Returns how many it stored:
     * fewer than asked if it gave up after count*10 buckets; an entry may
     * come twice if the walk wraps around or jumps back to its bucket. */
    size_t getSomeEntries(std::span<entry *> out) {
        size_t count = std::min(out.size(), size());
        if (count == 0) return 0;
        for (size_t j = 0; j < count && isRehashing(); j++) rehashStep();
        int tables = isRehashing() ? 2 : 1;
        size_t maxmask = ht_[0].mask();
        if (tables == 2) maxmask = std::max(maxmask, ht_[1].mask());
        size_t i = dict_detail::random() & maxmask, stored = 0, emptylen = 0;
        for (size_t maxsteps = count * 10; stored < count && maxsteps > 0; maxsteps--) {
            for (int t = 0; t < tables; t++) {
                if (tables == 2 && t == 0 && i < static_cast<size_t>(rehashidx_)) {
                    /* ht[0] is empty below rehashidx. If i is also past the
                     * end of ht[1] (a shrink), nothing lives there at all. */
                    if (i < ht_[1].size) continue;
                    i = rehashidx_;
                }
                if (i >= ht_[t].size) continue;
                entry *e = ht_[t].table[i];
                if (!e) {
                    /* A long empty run: jump elsewhere rather than crawl. */
                    if (++emptylen >= 5 && emptylen > count) {
                        i = dict_detail::random() & maxmask;
                        emptylen = 0;
                    }
                    continue;
                }
                emptylen = 0;
                for (; e; e = e->next) {
                    out[stored++] = e;
                    if (stored == count) return stored;
                }
            }
            i = (i + 1) & maxmask;
        }
        return stored;
    }

    /* dictGetFairRandomKey: a random entry of a sample, which corrects
     * randomEntry's bias against long chains well enough for eviction. */
    entry *fairRandomEntry() {
        entry *sample[GETFAIR_NUM_ENTRIES];
        size_t n = getSomeEntries(sample);
        return n ? sample[dict_detail::random() % n] : randomEntry();
    }

    /* dictScan: calls fn(entry&) for the entries of the bucket(s) at
     * `cursor` and returns the next cursor, 0 when the scan is complete.
     * Guarantee: an entry present from the first call to the last is
     * returned at least once (maybe more), even if the table grows, shrinks
     * or rehashes in between. This works because the cursor counts with
     * its bits reversed: bucket i of a 2^n table becomes buckets i and
     * i + 2^n of a 2^(n+1) table, which share the low n bits, so
     * incrementing the high bits first visits a bucket's "children" before
     * moving on, whatever the table size at each call. fn may delete the
     * entry it is given, and must not add. */
    template <typename Fn>
    unsigned long scan(unsigned long cursor, Fn &&fn) {
        if (size() == 0) return 0;
        PauseRehash pause(*this);
        if (!isRehashing()) {
            emitBucket(ht_[0], cursor, fn);
            return nextCursor(cursor, ht_[0].mask());
        }
        const dictht *small = &ht_[0], *big = &ht_[1];
        if (small->size > big->size) std::swap(small, big);
        emitBucket(*small, cursor, fn);
        /* Then every bucket of the big table that this one expands into. */
        do {
            emitBucket(*big, cursor, fn);
            cursor = nextCursor(cursor, big->mask());
        } while (cursor & (small->mask() ^ big->mask()));
        return cursor;
    }

    /* Iteration: `for (auto &e : d)` is unsafe (dictGetIterator: nothing may
     * change the dict meanwhile, checked); `for (auto &e : d.safe())`
     * (dictGetSafeIterator) pauses rehashing so that entries may be added
     * or deleted, the current one included — added ones may or may not be
     * visited. */
    iterator begin() { return iterator(*this, false); }
    std::default_sentinel_t end() { return {}; }
    safe_range safe() { return safe_range(*this); }

    /* dictEmpty: frees every entry. callback runs every 65536 buckets so a
     * caller emptying a huge dict can keep serving meanwhile. */
    template <typename Fn>
    void clear(Fn &&callback) {
        assert(pauserehash_ == 0 && "dict cleared during a safe iteration or a scan");
        if (isRehashing()) dict_detail::traceRehashForget(ht_[1].table.get());
        for (dictht &ht : ht_) clearTable(ht, callback);
        rehashidx_ = -1;
        pending_ = dictht{};
    }
    void clear() {
        clear([] {});
    }

    /* dictGetStats: DEBUG HTSTATS's text, Redis's words and figures for
     * ht[0] and, while rehashing, ht[1]; cut at 4095 bytes as Redis's
     * buffer cuts it. */
    std::string stats() const {
        std::string out = tableStats(0);
        if (isRehashing()) out += tableStats(1);
        if (out.size() > 4095) out.resize(4095);
        return out;
    }

    void swap(dict &o) noexcept {
        assert(pauserehash_ == 0 && o.pauserehash_ == 0);
        std::swap(ht_, o.ht_);
        std::swap(rehashidx_, o.rehashidx_);
        std::swap(released_, o.released_);
        std::swap(pending_, o.pending_);
        std::swap(prefaulted_, o.prefaulted_);
    }

private:
    struct dictht {
        std::unique_ptr<entry *[], dict_detail::Free> table;
        size_t size = 0; /* buckets: 0 or a power of two */
        size_t used = 0; /* entries */
        size_t mask() const { return size - 1; }
    };

    /* Scope of a scan or safe iteration: no entry changes table meanwhile. */
    struct PauseRehash {
        explicit PauseRehash(dict &d) : d(d) { d.pauserehash_++; }
        ~PauseRehash() { d.pauserehash_--; }
        dict &d;
    };

    struct Location {
        entry **link; /* what points at the entry: a bucket or the previous entry's next */
        int table;
    };

    static dictht allocTable(size_t size) {
        auto *buckets = static_cast<entry **>(dict_detail::callocBuckets(size, sizeof(entry *)));
        return dictht{std::unique_ptr<entry *[], dict_detail::Free>(buckets), size, 0};
    }

    void startRehash(dictht &&to) {
        if (traceOn(TRACE_DICT))
            dict_detail::traceRehashStart(trace_label_, ht_[0].size, to.size, size(), to.table.get());
        ht_[1] = std::move(to);
        rehashidx_ = 0;
        released_ = 0;
    }

    /* The table ht[0] grows into when full, and whether it is big enough
     * to fault in ahead (dict_prefault_min_bytes). */
    size_t nextSize() const { return ht_[0].size * 2; }
    bool prefaultsNext() const {
        return dict_can_resize && nextSize() * sizeof(entry *) >= dict_prefault_min_bytes;
    }

    /* From 3/4 full on, each insert faults in the pages of the next table
     * that its share of the last quarter calls for: all of them by the
     * time ht[0] is full, at about one page per 64 inserts. */
    void prefaultStep() {
        if (isRehashing() || !prefaultsNext()) return;
        size_t start = ht_[0].size / 4 * 3;
        if (ht_[0].used < start) return;
        if (pending_.size != nextSize()) {
            pending_ = allocTable(nextSize());
            prefaulted_ = 0;
        }
        constexpr size_t page = 4096;
        size_t pages = (pending_.size * sizeof(entry *) + page - 1) / page;
        size_t due = std::min(pages, pages * (ht_[0].used - start) / (ht_[0].size - start) + 1);
        auto *bytes = reinterpret_cast<volatile char *>(pending_.table.get());
        for (; prefaulted_ < due; prefaulted_++) bytes[prefaulted_ * page] = 0; /* a write fault maps the page */
    }

    /* _dictRehashStep: the bit of rehashing every operation pays for. */
    void rehashStep() { rehash(1); }

    /* _dictExpandIfNeeded: grow at one entry per bucket, or at five when
     * resizing is disabled (past that, chains get too long to tolerate). */
    void expandIfNeeded() {
        if (isRehashing()) return;
        dictht &ht = ht_[0];
        if (ht.size == 0) {
            expand(DICT_HT_INITIAL_SIZE);
        } else if (ht.used >= ht.size &&
                   (dict_can_resize || ht.used / ht.size > dict_force_resize_ratio)) {
            expand(ht.used + 1);
        }
    }

    /* Where the entry of `key` is linked from, searching ht[1] too while
     * rehashing. Needs an allocated ht[0]. */
    Location locate(lookup_type key, uint64_t h) {
        for (int t = 0; t <= 1; t++) {
            dictht &ht = ht_[t];
            for (entry **link = &ht.table[h & ht.mask()]; *link; link = &(*link)->next)
                if (Traits::equal((*link)->key, key)) return {link, t};
            if (!isRehashing()) break;
        }
        return {nullptr, 0};
    }

    /* The body of dictRehash: moves n non-empty buckets of ht[0], or stops
     * after n*10 empty ones. */
    void moveBuckets(int n) {
        long long empty_visits = 10LL * n;
        dictht &from = ht_[0];
        while (n-- > 0 && from.used != 0) {
            assert(static_cast<size_t>(rehashidx_) < from.size);
            while (!from.table[rehashidx_]) {
                rehashidx_++;
                if (--empty_visits == 0) return;
            }
            moveBucket(rehashidx_++);
        }
    }

    /* Freeing a big table at the end of a rehash makes the kernel unmap all
     * of its pages in one go, a pause of about 0.1 ms per MB (5 ms for the
     * 4M buckets of a 10M-key dict). So, as Valkey does since 2026, the
     * pages of ht[0] that rehashing has emptied are handed back as it goes,
     * 16 at a time, and the final free finds almost nothing left to unmap.
     * Those buckets are all null already, and null is what the pages read
     * back as, so ht[0] stays valid throughout. */
    void releaseRehashedPages() {
        constexpr size_t batch = 16 * 4096;
        size_t rehashed = static_cast<size_t>(rehashidx_) * sizeof(entry *);
        if (rehashed - released_ >= batch)
            released_ = dict_detail::releasePages(ht_[0].table.get(), released_, rehashed);
    }

    void moveBucket(size_t i) {
        dictht &from = ht_[0], &to = ht_[1];
        for (entry *e = std::exchange(from.table[i], nullptr); e;) {
            entry *next = e->next;
            entry *&head = to.table[Traits::hash(e->key) & to.mask()];
            e->next = head;
            head = e;
            from.used--;
            to.used++;
            e = next;
        }
    }

    template <typename Fn>
    static void emitBucket(const dictht &ht, unsigned long cursor, Fn &fn) {
        for (entry *e = ht.table[cursor & ht.mask()]; e;) {
            entry *next = e->next; /* fn may free e */
            fn(*e);
            e = next;
        }
    }

    /* Increments the cursor's reversed bits within the mask: setting the
     * bits above the mask makes the carry run off the top. */
    static unsigned long nextCursor(unsigned long v, size_t mask) {
        v |= ~static_cast<unsigned long>(mask);
        return dict_detail::rev(dict_detail::rev(v) + 1);
    }

    template <typename Fn>
    static void clearTable(dictht &ht, Fn &callback) {
        for (size_t i = 0; i < ht.size && ht.used > 0; i++) {
            if ((i & 65535) == 0) callback();
            entry *e = std::exchange(ht.table[i], nullptr);
            while (e) {
                entry *next = e->next;
                delete e;
                e = next;
                ht.used--;
            }
        }
        ht = dictht{};
    }

    /* _dictGetStatsHt. The ratios are computed in float, as Redis's, so
     * the rounded figures agree. */
    std::string tableStats(int t) const {
        static constexpr size_t DICT_STATS_VECTLEN = 50;
        const dictht &ht = ht_[t];
        const char *name = t == 0 ? "main hash table" : "rehashing target";
        char line[256];
        snprintf(line, sizeof(line), "Hash table %d stats (%s):\n", t, name);
        std::string out = line;
        if (ht.used == 0) return out + "No stats available for empty dictionaries\n";
        unsigned long clvector[DICT_STATS_VECTLEN] = {};
        unsigned long slots = 0, maxchainlen = 0, totchainlen = 0;
        for (size_t i = 0; i < ht.size; i++) {
            unsigned long chainlen = 0;
            for (const entry *e = ht.table[i]; e; e = e->next) chainlen++;
            clvector[std::min<size_t>(chainlen, DICT_STATS_VECTLEN - 1)]++;
            if (chainlen == 0) continue;
            slots++;
            maxchainlen = std::max(maxchainlen, chainlen);
            totchainlen += chainlen;
        }
        snprintf(line, sizeof(line),
                 " table size: %zu\n number of elements: %zu\n different slots: %lu\n max chain length: %lu\n"
                 " avg chain length (counted): %.02f\n avg chain length (computed): %.02f\n"
                 " Chain length distribution:\n",
                 ht.size, ht.used, slots, maxchainlen, static_cast<float>(totchainlen) / slots,
                 static_cast<float>(ht.used) / slots);
        out += line;
        for (size_t i = 0; i < DICT_STATS_VECTLEN - 1; i++) {
            if (clvector[i] == 0) continue;
            snprintf(line, sizeof(line), "   %zu: %lu (%.02f%%)\n", i, clvector[i],
                     static_cast<float>(clvector[i]) / ht.size * 100);
            out += line;
        }
        return out;
    }

    /* dictFingerprint: changes whenever a table is replaced, resized or
     * gains or loses an entry. */
    uint64_t fingerprint() const {
        uint64_t h = 0;
        for (const dictht &ht : ht_) {
            h = dict_detail::mix(h + reinterpret_cast<uintptr_t>(ht.table.get()));
            h = dict_detail::mix(h + ht.size);
            h = dict_detail::mix(h + ht.used);
        }
        return h;
    }

    dictht ht_[2];
    long rehashidx_ = -1; /* next ht[0] bucket to move; -1 when not rehashing */
    size_t released_ = 0; /* bytes at the start of ht[0] given back to the kernel */
    dictht pending_;        /* the next table, being faulted in (prefaultStep) */
    size_t prefaulted_ = 0; /* its pages touched so far */
    int pauserehash_ = 0; /* running safe iterators and scans */
    uint32_t trace_label_ = 0; /* setTraceLabel's; in what was padding, so a dict is no bigger */
};

/* dictIterator / dictNext. Lives for the length of a loop: a safe one
 * pauses rehashing until it is destroyed, an unsafe one checks on every
 * step and at the end that the dict did not change. */
template <typename Key, typename Val, typename Traits>
class dict<Key, Val, Traits>::iterator {
public:
    using value_type = entry;
    using difference_type = std::ptrdiff_t;

    iterator(const iterator &) = delete;
    iterator &operator=(const iterator &) = delete;
    ~iterator() {
        if (safe_) d_.pauserehash_--;
        else checkFingerprint();
    }

    entry &operator*() const { return *entry_; }
    entry *operator->() const { return entry_; }
    iterator &operator++() {
        advance();
        return *this;
    }
    bool operator==(std::default_sentinel_t) const { return entry_ == nullptr; }

private:
    friend class dict;
    friend class safe_range;

    iterator(dict &d, bool safe) : d_(d), safe_(safe) {
        if (safe) d.pauserehash_++;
        else fingerprint_ = d.fingerprint();
        advance();
    }

    void checkFingerprint() const {
        assert(fingerprint_ == d_.fingerprint() && "dict modified during unsafe iteration");
    }

    /* next_ is read before the caller sees entry_, so the caller may free entry_. */
    void advance() {
        if (!safe_) checkFingerprint();
        entry_ = next_;
        while (!entry_ && nextBucket()) entry_ = d_.ht_[table_].table[index_];
        next_ = entry_ ? entry_->next : nullptr;
    }

    /* Steps to the following bucket, from the end of ht[0] into ht[1]
     * while rehashing. False past the last one. */
    bool nextBucket() {
        if (++index_ < d_.ht_[table_].size) return true;
        if (table_ == 1 || !d_.isRehashing()) return false;
        table_ = 1;
        index_ = 0;
        return true;
    }

    dict &d_;
    const bool safe_;
    int table_ = 0;
    size_t index_ = SIZE_MAX; /* so the first step lands on bucket 0 */
    entry *entry_ = nullptr, *next_ = nullptr;
    uint64_t fingerprint_ = 0;
};

/* What `d.safe()` returns, for range-for. */
template <typename Key, typename Val, typename Traits>
class dict<Key, Val, Traits>::safe_range {
public:
    iterator begin() { return iterator(d_, true); }
    std::default_sentinel_t end() { return {}; }

private:
    friend class dict;
    explicit safe_range(dict &d) : d_(d) {}
    dict &d_;
};
