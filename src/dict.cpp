/* dict.cpp — the non-template half of dict.h (Redis's dict.c and siphash.c):
 * the seeded hash functions (SipHash and dictGenHashFunction), the random
 * source of randomEntry, the allocation and release of bucket arrays, and
 * the trace of rehashing (TRACE_DICT).
 *
 * SipHash (Aumasson & Bernstein) is a keyed hash: without the 16-byte seed
 * an attacker cannot predict which keys collide, so a client cannot turn a
 * dict into one long chain. Redis runs it with 1 compression round and 2
 * finalization rounds (SipHash-1-2) instead of the paper's 2-4: weaker as
 * a MAC, but still unpredictable for hash-flooding purposes, and faster on
 * the short keys a dict sees.
 */
#include "dict.h"

#include <bit>
#include <cstring>
#include <deque>
#include <new>
#include <random>
#include <string>
#include <unordered_map>
#include <sys/mman.h>
#include <unistd.h>

namespace {

uint8_t hash_function_seed[16];

class SipHash12 {
public:
    explicit SipHash12(const uint8_t key[16]) {
        uint64_t k0 = load(key), k1 = load(key + 8);
        v0_ = k0 ^ 0x736f6d6570736575ULL; /* "somepseudorandomlygeneratedbytes" */
        v1_ = k1 ^ 0x646f72616e646f6dULL;
        v2_ = k0 ^ 0x6c7967656e657261ULL;
        v3_ = k1 ^ 0x7465646279746573ULL;
    }
    void compress(uint64_t m) {
        v3_ ^= m;
        round();
        v0_ ^= m;
    }
    uint64_t finish() {
        v2_ ^= 0xff;
        round();
        round();
        return v0_ ^ v1_ ^ v2_ ^ v3_;
    }
    /* 8 bytes as a little-endian word. */
    static uint64_t load(const uint8_t *p) {
        uint64_t w;
        memcpy(&w, p, sizeof(w));
        if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
        return w;
    }

private:
    void round() {
        v0_ += v1_;
        v1_ = std::rotl(v1_, 13) ^ v0_;
        v0_ = std::rotl(v0_, 32);
        v2_ += v3_;
        v3_ = std::rotl(v3_, 16) ^ v2_;
        v0_ += v3_;
        v3_ = std::rotl(v3_, 21) ^ v0_;
        v2_ += v1_;
        v1_ = std::rotl(v1_, 17) ^ v2_;
        v2_ = std::rotl(v2_, 32);
    }
    uint64_t v0_, v1_, v2_, v3_;
};

uint8_t foldAscii(uint8_t c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; }

/* Up to 8 bytes as a little-endian word, case-folded for the nocase hash. */
template <bool NoCase>
uint64_t loadWord(const uint8_t *p, size_t n) {
    if (!NoCase && n == 8) return SipHash12::load(p);
    uint64_t w = 0;
    for (size_t i = 0; i < n; i++) w |= static_cast<uint64_t>(NoCase ? foldAscii(p[i]) : p[i]) << (8 * i);
    return w;
}

template <bool NoCase>
uint64_t sipHash12(const void *in, size_t len, const uint8_t key[16]) {
    auto *p = static_cast<const uint8_t *>(in);
    SipHash12 sip(key);
    size_t whole = len & ~static_cast<size_t>(7);
    for (size_t i = 0; i < whole; i += 8) sip.compress(loadWord<NoCase>(p + i, 8));
    /* The last word carries the remaining bytes and the length's low byte. */
    sip.compress(loadWord<NoCase>(p + whole, len & 7) | static_cast<uint64_t>(len) << 56);
    return sip.finish();
}

}  // namespace

void dictSetHashFunctionSeed(const uint8_t seed[16]) {
    memcpy(hash_function_seed, seed, sizeof(hash_function_seed));
}

const uint8_t *dictGetHashFunctionSeed() { return hash_function_seed; }

uint64_t siphash(const void *in, size_t len, const uint8_t key[16]) {
    return sipHash12<false>(in, len, key);
}

uint64_t siphash_nocase(const void *in, size_t len, const uint8_t key[16]) {
    return sipHash12<true>(in, len, key);
}

uint64_t dictGenHashFunction(const void *key, size_t len) {
    return siphash(key, len, hash_function_seed);
}

uint64_t dictGenCaseHashFunction(const void *buf, size_t len) {
    return siphash_nocase(buf, len, hash_function_seed);
}

uint64_t dict_detail::random() {
    /* Only has to be unpredictable enough for sampling, like Redis's
     * Mersenne Twister; seeded on first use. */
    static std::mt19937_64 generator{std::random_device{}()};
    return generator();
}

size_t dict_detail::releasePages(void *base, size_t from, size_t to) {
    static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    uintptr_t start = reinterpret_cast<uintptr_t>(base);
    uintptr_t first = (start + from + page - 1) & ~(page - 1);
    uintptr_t last = (start + to) & ~(page - 1);
    if (first >= last) return from;
    /* Advice, not a duty: if the kernel declines, the pages are simply
     * freed with the rest of the table later. */
    madvise(reinterpret_cast<void *>(first), last - first, MADV_DONTNEED);
    return last - start;
}

void *dict_detail::callocBuckets(size_t n, size_t size) {
    void *p = calloc(n, size);
    if (!p) throw std::bad_alloc();
    return p;
}

/* ------------------------------------------------------------------------
 * TRACE_DICT: dictRehashStart / dictRehashEnd.
 * ---------------------------------------------------------------------- */

namespace {

/* A rehash seen starting, by its new table: when, and how many dictRehash
 * calls have moved buckets since. */
struct rehashTrace {
    monotime start;
    long long steps;
};
std::unordered_map<const void *, rehashTrace> rehashes;

/* Index 0 is the unnamed dict's "". A deque: a name's bytes stay put. */
std::deque<std::string> &traceLabels() {
    static std::deque<std::string> labels{""};
    return labels;
}

traceEvent rehashEvent(const char *name, uint32_t label, size_t from, size_t to, size_t used) {
    traceEvent ev(TRACE_DICT, name);
    ev.str("dict", dict_detail::traceLabelName(label))
        .num("from", static_cast<long long>(from))
        .num("to", static_cast<long long>(to))
        .num("used", static_cast<long long>(used));
    return ev;
}

}  // namespace

void dict_detail::traceRehashStart(uint32_t label, size_t from, size_t to, size_t used, const void *table) {
    rehashes[table] = rehashTrace{traceNow(), 0};
    rehashEvent("dictRehashStart", label, from, to, used).emit();
}

void dict_detail::traceRehashStep(const void *table) {
    auto it = rehashes.find(table);
    if (it != rehashes.end()) it->second.steps++;
}

void dict_detail::traceRehashEnd(uint32_t label, size_t from, size_t to, size_t used, const void *table) {
    traceEvent ev = rehashEvent("dictRehashEnd", label, from, to, used);
    auto it = rehashes.find(table);
    if (it != rehashes.end()) {
        ev.num("steps", it->second.steps + 1).num("us", static_cast<long long>(traceNow() - it->second.start));
        rehashes.erase(it);
    }
    ev.emit();
}

void dict_detail::traceRehashForget(const void *table) {
    if (!rehashes.empty()) rehashes.erase(table);
}

uint32_t dict_detail::traceLabelId(std::string_view label) {
    std::deque<std::string> &labels = traceLabels();
    for (size_t i = 0; i < labels.size(); i++)
        if (labels[i] == label) return static_cast<uint32_t>(i);
    labels.emplace_back(label);
    return static_cast<uint32_t>(labels.size() - 1);
}

const char *dict_detail::traceLabelName(uint32_t id) { return traceLabels()[id].c_str(); }
