/* hyperloglog.cpp — HyperLogLog (Redis's hyperloglog.c): PFADD, PFCOUNT,
 * PFMERGE, PFDEBUG, PFSELFTEST.
 *
 * A HLL is a plain string value whose bytes are Redis 7.0's, so a HLL made
 * by either server and copied by GET/SET counts the same on the other:
 *
 *   +------+---+-----+----------+------------------------------+
 *   | HYLL | E | N/U | Cardin.  | registers ...                |
 *   +------+---+-----+----------+------------------------------+
 *    4 bytes  1   3    8 bytes
 *
 * E is the encoding (0 dense, 1 sparse), the 8 cardinality bytes are the
 * last PFCOUNT's result, little endian, whose most significant bit set
 * means "stale" (any change sets it).
 *
 * 16384 registers (the hash's low 14 bits pick one; the register keeps the
 * longest run of zeroes + 1 seen in the other 50 bits), in one of two forms:
 *  - dense: 6 bits per register, register 0 in the low bits of byte 0,
 *    a register crossing a byte boundary has its low bits in the first
 *    byte: 12288 bytes, always exactly;
 *  - sparse: run-length opcodes, for HLLs with few set registers:
 *      ZERO  00xxxxxx          1..64 zero registers
 *      XZERO 01xxxxxx yyyyyyyy 1..16384 zero registers (14-bit length - 1)
 *      VAL   1vvvvvxx          1..4 registers of value 1..32
 *    covering exactly the 16384 registers; a new HLL is one XZERO.
 * A sparse HLL becomes dense for good when a register needs a value over
 * 32 or its string would pass hll-sparse-max-bytes, as Redis does; the
 * string is edited in place (PFADD never copies the 12 KB of a dense one).
 */
#include "hyperloglog.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "notify.h"
#include "server.h"
#include "t_string.h"
#include "util.h"

namespace {

constexpr int HLL_P = 14;                 /* the hash bits that pick a register */
constexpr int HLL_Q = 64 - HLL_P;         /* the bits whose zero run is counted */
constexpr int HLL_REGISTERS = 1 << HLL_P; /* 16384 */
constexpr uint64_t HLL_P_MASK = HLL_REGISTERS - 1;
constexpr int HLL_BITS = 6;
constexpr int HLL_REGISTER_MAX = (1 << HLL_BITS) - 1;
constexpr size_t HLL_HDR_SIZE = 16;
constexpr size_t HLL_DENSE_SIZE = HLL_HDR_SIZE + (HLL_REGISTERS * HLL_BITS + 7) / 8;
constexpr uint8_t HLL_DENSE = 0, HLL_SPARSE = 1, HLL_MAX_ENCODING = 1;
constexpr double HLL_ALPHA_INF = 0.721347520444481703680; /* 0.5/ln(2) */

/* The header's fields, as offsets into the string. */
constexpr size_t HLL_ENCODING_OFFSET = 4, HLL_CARD_OFFSET = 8;
constexpr uint8_t HLL_CACHE_STALE_BIT = 0x80; /* in the cardinality's last byte */

/* The sparse opcodes. */
constexpr uint8_t HLL_SPARSE_XZERO_BIT = 0x40, HLL_SPARSE_VAL_BIT = 0x80;
constexpr int HLL_SPARSE_VAL_MAX_VALUE = 32, HLL_SPARSE_VAL_MAX_LEN = 4, HLL_SPARSE_ZERO_MAX_LEN = 64,
              HLL_SPARSE_XZERO_MAX_LEN = 16384;

constexpr std::string_view invalid_hll_err = "-INVALIDOBJ Corrupted HLL object detected";

inline uint8_t *hllBytes(sds &s) { return reinterpret_cast<uint8_t *>(s.data()); }
inline const uint8_t *hllBytes(std::string_view s) { return reinterpret_cast<const uint8_t *>(s.data()); }
inline uint8_t hllEncoding(const uint8_t *hll) { return hll[HLL_ENCODING_OFFSET]; }
inline void hllInvalidateCache(uint8_t *hll) { hll[HLL_CARD_OFFSET + 7] |= HLL_CACHE_STALE_BIT; }
inline bool hllValidCache(const uint8_t *hll) { return (hll[HLL_CARD_OFFSET + 7] & HLL_CACHE_STALE_BIT) == 0; }

/* ---- the hash ---------------------------------------------------------
 * MurmurHash2, 64-bit (MurmurHash64A), reading its 8-byte blocks little
 * endian as Redis's endian-neutral version does. */
uint64_t MurmurHash64A(const void *key, int len, unsigned int seed) {
    constexpr uint64_t m = 0xc6a4a7935bd1e995ULL;
    constexpr int r = 47;
    uint64_t h = seed ^ (static_cast<uint64_t>(len) * m);
    const auto *data = static_cast<const uint8_t *>(key);
    const uint8_t *end = data + (len - (len & 7));

    for (; data != end; data += 8) {
        uint64_t k = 0;
        for (int i = 7; i >= 0; i--) k = (k << 8) | data[i];
        k *= m;
        k ^= k >> r;
        k *= m;
        h ^= k;
        h *= m;
    }
    int tail = len & 7;
    if (tail) {
        for (int i = tail - 1; i >= 0; i--) h ^= static_cast<uint64_t>(data[i]) << (8 * i);
        h *= m;
    }
    h ^= h >> r;
    h *= m;
    h ^= h >> r;
    return h;
}

/* The register an element goes to (*regp) and the length of the "000..1"
 * run in the rest of its hash, 1..HLL_Q+1 (Redis's hllPatLen). */
int hllPatLen(std::string_view ele, long *regp) {
    uint64_t hash = MurmurHash64A(ele.data(), static_cast<int>(ele.size()), 0xadc83b19U);
    *regp = static_cast<long>(hash & HLL_P_MASK);
    hash >>= HLL_P;
    hash |= uint64_t{1} << HLL_Q; /* bounds the run at HLL_Q+1 */
    return __builtin_ctzll(hash) + 1;
}

/* ---- the dense representation ---------------------------------------- */

/* A register that starts in the low 3 bits of its byte fits the byte; the
 * others spill their high bits into the next one. Neither touches a byte
 * past the last register's. */
inline uint8_t hllDenseGetRegister(const uint8_t *registers, long regnum) {
    size_t byte = static_cast<size_t>(regnum) * HLL_BITS / 8;
    unsigned fb = static_cast<unsigned>(regnum * HLL_BITS) & 7;
    unsigned v = registers[byte] >> fb;
    if (fb > 8 - HLL_BITS) v |= static_cast<unsigned>(registers[byte + 1]) << (8 - fb);
    return static_cast<uint8_t>(v & HLL_REGISTER_MAX);
}

inline void hllDenseSetRegister(uint8_t *registers, long regnum, uint8_t val) {
    size_t byte = static_cast<size_t>(regnum) * HLL_BITS / 8;
    unsigned fb = static_cast<unsigned>(regnum * HLL_BITS) & 7;
    registers[byte] = static_cast<uint8_t>((registers[byte] & ~(HLL_REGISTER_MAX << fb)) | (val << fb));
    if (fb > 8 - HLL_BITS) {
        unsigned fb8 = 8 - fb;
        registers[byte + 1] =
            static_cast<uint8_t>((registers[byte + 1] & ~(HLL_REGISTER_MAX >> fb8)) | (val >> fb8));
    }
}

/* Raises the register to count; returns whether it changed (hllDenseSet). */
bool hllDenseSet(uint8_t *registers, long index, uint8_t count) {
    if (count <= hllDenseGetRegister(registers, index)) return false;
    hllDenseSetRegister(registers, index, count);
    return true;
}

/* Every 4 registers fill exactly 3 bytes: calls f(regnum, value) for all
 * of them in order, a group at a time. */
template <typename F>
void hllDenseForEach(const uint8_t *r, F &&f) {
    for (int j = 0; j < HLL_REGISTERS; j += 4, r += 3) {
        f(j, r[0] & 63);
        f(j + 1, (r[0] >> 6 | r[1] << 2) & 63);
        f(j + 2, (r[1] >> 4 | r[2] << 4) & 63);
        f(j + 3, r[2] >> 2);
    }
}

/* ---- the sparse representation ----------------------------------------- */

inline bool sparseIsZero(const uint8_t *p) { return (*p & 0xc0) == 0; }
inline bool sparseIsXzero(const uint8_t *p) { return (*p & 0xc0) == HLL_SPARSE_XZERO_BIT; }
inline bool sparseIsVal(const uint8_t *p) { return (*p & HLL_SPARSE_VAL_BIT) != 0; }
inline int sparseZeroLen(const uint8_t *p) { return (*p & 0x3f) + 1; }
inline int sparseXzeroLen(const uint8_t *p) { return (((*p & 0x3f) << 8) | p[1]) + 1; }
inline int sparseValValue(const uint8_t *p) { return ((*p >> 2) & 0x1f) + 1; }
inline int sparseValLen(const uint8_t *p) { return (*p & 0x3) + 1; }
inline void sparseValSet(uint8_t *p, int val, int len) {
    *p = static_cast<uint8_t>(((val - 1) << 2 | (len - 1)) | HLL_SPARSE_VAL_BIT);
}
/* A run of len zero registers, as a ZERO or, past 64, an XZERO: returns
 * the bytes written. */
inline int sparseZeroRunSet(uint8_t *p, int len) {
    if (len <= HLL_SPARSE_ZERO_MAX_LEN) {
        *p = static_cast<uint8_t>(len - 1);
        return 1;
    }
    p[0] = static_cast<uint8_t>(((len - 1) >> 8) | HLL_SPARSE_XZERO_BIT);
    p[1] = static_cast<uint8_t>((len - 1) & 0xff);
    return 2;
}

/* Walks the opcodes of a sparse HLL's registers, calling val(index,
 * runlen, value) for each VAL run; returns the number of registers covered,
 * which is HLL_REGISTERS when the HLL is valid. A VAL run reaching past the
 * last register ends the walk before it is passed on, and the HLL is corrupt
 * (-1), even when it is the last opcode: Redis 7.0.15 as Debian ships it,
 * with the fix of CVE-2025-32023, refuses it so. An XZERO cut by the end
 * reads the string's terminating '\0', as Redis does. */
template <typename F>
long hllSparseWalk(const uint8_t *p, const uint8_t *end, F &&val) {
    long idx = 0;
    while (p < end) {
        if (sparseIsZero(p)) {
            idx += sparseZeroLen(p);
            p++;
        } else if (sparseIsXzero(p)) {
            idx += sparseXzeroLen(p);
            p += 2;
        } else {
            int runlen = sparseValLen(p);
            if (runlen + idx > HLL_REGISTERS) return -1;
            val(idx, runlen, sparseValValue(p));
            idx += runlen;
            p++;
        }
    }
    return idx;
}

/* The string of a dense HLL with the same registers, header and cached
 * cardinality (the encoding byte aside); false (s untouched) when the
 * sparse form is corrupt. A dense one is left as it is. */
bool hllSparseToDense(sds &s) {
    const uint8_t *sparse = hllBytes(s);
    if (hllEncoding(sparse) == HLL_DENSE) return true;
    static constexpr uint8_t zeroes[HLL_DENSE_SIZE] = {};
    sds dense(std::string_view(reinterpret_cast<const char *>(zeroes), HLL_DENSE_SIZE));
    uint8_t *d = hllBytes(dense);
    memcpy(d, sparse, HLL_HDR_SIZE);
    d[HLL_ENCODING_OFFSET] = HLL_DENSE;
    uint8_t *registers = d + HLL_HDR_SIZE;
    long covered = hllSparseWalk(sparse + HLL_HDR_SIZE, sparse + s.size(),
                                 [&](long idx, int runlen, int regval) {
                                     for (int i = 0; i < runlen; i++) hllDenseSetRegister(registers, idx + i, regval);
                                 });
    if (covered != HLL_REGISTERS) return false;
    s = std::move(dense);
    return true;
}

/* Promotes s to dense and sets the register there, which must change it:
 * a promotion happens only for a register that grows. -1: corrupt. */
int hllPromoteAndSet(sds &s, long index, uint8_t count) {
    if (!hllSparseToDense(s)) return -1;
    [[maybe_unused]] bool changed = hllDenseSet(hllBytes(s) + HLL_HDR_SIZE, index, count);
    assert(changed);
    return 1;
}

/* Raises the register at index to count in a sparse HLL, in place (Redis's
 * hllSparseSet): 1 if it changed, 0 if not, -1 if the HLL is corrupt. The
 * opcode holding the register is split (the worst case, an XZERO becoming
 * XZERO-VAL-XZERO, grows the string by 3 bytes), then equal adjacent VALs
 * around it are merged, exactly as Redis does so that the bytes match. A
 * value over 32, or a string growing past hll-sparse-max-bytes, promotes
 * the HLL to dense. */
int hllSparseSet(sds &s, long index, uint8_t count) {
    if (count > HLL_SPARSE_VAL_MAX_VALUE) return hllPromoteAndSet(s, index, count);
    s.makeRoomFor(3); /* so no pointer below moves */
    uint8_t *sparse = hllBytes(s) + HLL_HDR_SIZE, *end = hllBytes(s) + s.size();

    /* The opcode p covering the register: registers first..first+span-1. */
    uint8_t *p = sparse, *prev = nullptr;
    long first = 0, span = 0;
    while (p < end) {
        int oplen = 1;
        if (sparseIsZero(p)) {
            span = sparseZeroLen(p);
        } else if (sparseIsVal(p)) {
            span = sparseValLen(p);
        } else {
            span = sparseXzeroLen(p);
            oplen = 2;
        }
        if (index <= first + span - 1) break;
        prev = p;
        p += oplen;
        first += span;
    }
    if (span == 0 || p >= end) return -1;

    bool is_val = sparseIsVal(p), is_xzero = sparseIsXzero(p);
    if (is_val && sparseValValue(p) >= count) return 0;
    if (span == 1 && !is_xzero) {
        /* A VAL or ZERO of this register alone: rewritten in place. */
        sparseValSet(p, count, 1);
    } else {
        /* Split into [run before] VAL(count) [run after], the runs keeping
         * the opcode's kind. */
        uint8_t seq[5], *n = seq;
        long last = first + span - 1;
        int curval = is_val ? sparseValValue(p) : 0;
        auto run = [&](long len) {
            if (is_val) {
                sparseValSet(n++, curval, static_cast<int>(len));
            } else {
                n += sparseZeroRunSet(n, static_cast<int>(len));
            }
        };
        if (index != first) run(index - first);
        sparseValSet(n++, count, 1);
        if (index != last) run(last - index);

        long seqlen = n - seq, oldlen = is_xzero ? 2 : 1, deltalen = seqlen - oldlen;
        if (deltalen > 0 && static_cast<long long>(s.size()) + deltalen > server.hll_sparse_max_bytes)
            return hllPromoteAndSet(s, index, count);
        uint8_t *tail = p + oldlen;
        if (deltalen && tail < end) memmove(tail + deltalen, tail, static_cast<size_t>(end - tail));
        s.incrLen(deltalen);
        memcpy(p, seq, static_cast<size_t>(seqlen));
        end += deltalen;
    }

    /* Merge adjacent VALs of one value, scanning up to 5 opcodes from the
     * one before the change (after a merge, the merged one again). */
    p = prev ? prev : sparse;
    for (int scan = 5; p < end && scan-- > 0;) {
        if (sparseIsXzero(p)) {
            p += 2;
            continue;
        }
        if (sparseIsZero(p)) {
            p++;
            continue;
        }
        if (p + 1 < end && sparseIsVal(p + 1) && sparseValValue(p) == sparseValValue(p + 1)) {
            int len = sparseValLen(p) + sparseValLen(p + 1);
            if (len <= HLL_SPARSE_VAL_MAX_LEN) {
                sparseValSet(p + 1, sparseValValue(p), len);
                memmove(p, p + 1, static_cast<size_t>(end - p));
                s.incrLen(-1);
                end--;
                continue;
            }
        }
        p++;
    }
    hllInvalidateCache(hllBytes(s));
    return 1;
}

/* Adds an element to a HLL of either encoding: 1 if a register changed,
 * 0 if not, -1 if the HLL is corrupt (Redis's hllAdd). */
int hllAdd(sds &s, std::string_view ele) {
    long index;
    auto count = static_cast<uint8_t>(hllPatLen(ele, &index));
    switch (hllEncoding(hllBytes(s))) {
    case HLL_DENSE: return hllDenseSet(hllBytes(s) + HLL_HDR_SIZE, index, count) ? 1 : 0;
    case HLL_SPARSE: return hllSparseSet(s, index, count);
    default: return -1;
    }
}

/* ---- the estimator ------------------------------------------------------
 * Otmar Ertl's "improved" estimator ("New cardinality estimation algorithms
 * for HyperLogLog sketches", arXiv:1702.01284), computed from the histogram
 * of the register values with Redis's very operations, so the counts match
 * Redis's to the unit. */

double hllSigma(double x) {
    if (x == 1.) return INFINITY;
    double zPrime, y = 1, z = x;
    do {
        x *= x;
        zPrime = z;
        z += x * y;
        y += y;
    } while (zPrime != z);
    return z;
}

double hllTau(double x) {
    if (x == 0. || x == 1.) return 0.;
    double zPrime, y = 1.0, z = 1 - x;
    do {
        x = sqrt(x);
        zPrime = z;
        y *= 0.5;
        z -= pow(1 - x, 2) * y;
    } while (zPrime != z);
    return z / 3;
}

/* reghisto[v]: how many registers hold v. 64 entries: a register of a
 * corrupt HLL may hold any 6-bit value. */
using RegHisto = int[64];

uint64_t hllCountFromHisto(const RegHisto &reghisto) {
    double m = HLL_REGISTERS;
    double z = m * hllTau((m - reghisto[HLL_Q + 1]) / m);
    for (int j = HLL_Q; j >= 1; --j) {
        z += reghisto[j];
        z *= 0.5;
    }
    z += m * hllSigma(reghisto[0] / m);
    double E = static_cast<double>(llroundl(HLL_ALPHA_INF * m * m / z));
    return static_cast<uint64_t>(E);
}

/* The estimate of a validated HLL string; false if its sparse form is
 * corrupt (Redis's hllCount). */
bool hllCount(const uint8_t *hll, size_t len, uint64_t *card) {
    RegHisto reghisto = {};
    if (hllEncoding(hll) == HLL_DENSE) {
        hllDenseForEach(hll + HLL_HDR_SIZE, [&](int, int reg) { reghisto[reg]++; });
    } else {
        long nonzero = 0;
        long covered = hllSparseWalk(hll + HLL_HDR_SIZE, hll + len,
                                     [&](long, int runlen, int regval) {
                                         reghisto[regval] += runlen;
                                         nonzero += runlen;
                                     });
        if (covered != HLL_REGISTERS) return false;
        reghisto[0] = static_cast<int>(HLL_REGISTERS - nonzero);
    }
    *card = hllCountFromHisto(reghisto);
    return true;
}

/* The estimate of registers held one per byte (PFCOUNT of several keys). */
uint64_t hllRawCount(const uint8_t *registers) {
    RegHisto reghisto = {};
    for (int j = 0; j < HLL_REGISTERS; j++) reghisto[registers[j]]++;
    return hllCountFromHisto(reghisto);
}

/* max[i] = MAX(max[i], register i of hll), for a validated HLL string;
 * false if its sparse form is corrupt (Redis's hllMerge). */
bool hllMerge(uint8_t *max, std::string_view hll) {
    const uint8_t *h = hllBytes(hll);
    if (hllEncoding(h) == HLL_DENSE) {
        hllDenseForEach(h + HLL_HDR_SIZE, [&](int j, int reg) {
            if (reg > max[j]) max[j] = static_cast<uint8_t>(reg);
        });
        return true;
    }
    long covered = hllSparseWalk(h + HLL_HDR_SIZE, h + hll.size(),
                                 [&](long idx, int runlen, int regval) {
                                     for (long i = idx; i < idx + runlen; i++)
                                         if (regval > max[i]) max[i] = static_cast<uint8_t>(regval);
                                 });
    return covered == HLL_REGISTERS;
}

/* ---- the objects ------------------------------------------------------- */

/* An empty HLL: sparse, one XZERO per 16384 registers (Redis's
 * createHLLObject). Always RAW, as Redis creates it, whatever its size. */
ObjRef createHLLObject() {
    constexpr size_t sparselen =
        HLL_HDR_SIZE + (HLL_REGISTERS + HLL_SPARSE_XZERO_MAX_LEN - 1) / HLL_SPARSE_XZERO_MAX_LEN * 2;
    uint8_t init[sparselen] = {'H', 'Y', 'L', 'L', HLL_SPARSE};
    uint8_t *p = init + HLL_HDR_SIZE;
    for (int left = HLL_REGISTERS; left > 0; left -= HLL_SPARSE_XZERO_MAX_LEN)
        p += sparseZeroRunSet(p, std::min(left, HLL_SPARSE_XZERO_MAX_LEN));
    return createRawStringObject(std::string_view(reinterpret_cast<const char *>(init), sparselen));
}

/* Whether o is a string holding a HLL, as far as its header tells (then
 * *bytes are its bytes); otherwise replies the error: WRONGTYPE for another
 * type, Redis's own WRONGTYPE text for a string that is no HLL. An
 * INT-encoded string is never a HLL. */
bool isHLLObjectOrReply(client *c, robj *o, std::string_view *bytes) {
    if (checkType(c, o, OBJ_STRING)) return false;
    if (o->encoding == OBJ_ENCODING_RAW || o->encoding == OBJ_ENCODING_EMBSTR) {
        StringBuf buf;
        std::string_view s = objectStringView(o, buf);
        if (s.size() >= HLL_HDR_SIZE && s.substr(0, 4) == "HYLL") {
            uint8_t enc = hllEncoding(hllBytes(s));
            if (enc <= HLL_MAX_ENCODING && (enc != HLL_DENSE || s.size() == HLL_DENSE_SIZE)) {
                *bytes = s;
                return true;
            }
        }
    }
    addReplyError(c, "-WRONGTYPE Key is not a valid HyperLogLog string value.");
    return false;
}

/* The key's value, made a private RAW string so it can be edited in place
 * (dbUnshareStringValue), as an sds. */
sds &hllUnshare(client *c, std::string_view key, robj *o) {
    return objectRawSds(dbUnshareStringValue(c->db, key, o));
}

uint64_t hllCachedCard(const uint8_t *hll) {
    uint64_t card = 0;
    for (int i = 7; i >= 0; i--) card = (card << 8) | hll[HLL_CARD_OFFSET + i];
    return card;
}

void hllSetCachedCard(uint8_t *hll, uint64_t card) {
    for (int i = 0; i < 8; i++) hll[HLL_CARD_OFFSET + i] = static_cast<uint8_t>(card >> (8 * i));
}

}  // namespace

/* ========================================================================
 * The commands
 * ====================================================================== */

/* PFADD key [element ...]: 1 if a register changed (or the key was created),
 * else 0. Each changed register counts in server.dirty. */
void pfaddCommand(client *c) {
    std::string_view key = c->argv[1];
    robj *o = lookupKeyWrite(c->db, key);
    int updated = 0;
    sds *hll;
    if (!o) {
        ObjRef created = createHLLObject();
        hll = &objectRawSds(created.get());
        dbAdd(c->db, key, std::move(created));
        updated++;
    } else {
        std::string_view bytes;
        if (!isHLLObjectOrReply(c, o, &bytes)) return;
        hll = &hllUnshare(c, key, o);
    }
    for (size_t j = 2; j < c->argv.size(); j++) {
        int retval = hllAdd(*hll, c->argv[j]);
        if (retval == -1) return addReplyError(c, invalid_hll_err);
        updated += retval;
    }
    if (updated) {
        signalModifiedKey(c, c->db, key);
        notifyKeyspaceEvent(NOTIFY_STRING, "pfadd", key, c->db->id);
        server.dirty += updated;
        hllInvalidateCache(hllBytes(*hll));
    }
    addReply(c, updated ? shared::cone : shared::czero);
}

namespace {

/* PFCOUNT of several keys: the estimate of their union, merged into a
 * scratch array; the keys stay as they are (no cache is written). */
void pfcountMultipleKeys(client *c) {
    uint8_t max[HLL_REGISTERS] = {};
    for (size_t j = 1; j < c->argv.size(); j++) {
        robj *o = lookupKeyRead(c->db, c->argv[j]);
        if (!o) continue; /* a missing key is an empty HLL */
        std::string_view bytes;
        if (!isHLLObjectOrReply(c, o, &bytes)) return;
        if (!hllMerge(max, bytes)) return addReplyError(c, invalid_hll_err);
    }
    addReplyLongLong(c, static_cast<long long>(hllRawCount(max)));
}

}  // namespace

/* PFCOUNT key [key ...]. With one key, the cached cardinality when it is
 * valid; otherwise the estimate is computed and cached in the value, which
 * is a change of the string: the key is signalled and server.dirty counts
 * it, so the PFCOUNT propagates (Redis 7.0 does the same). */
void pfcountCommand(client *c) {
    if (c->argv.size() > 2) return pfcountMultipleKeys(c);
    std::string_view key = c->argv[1];
    robj *o = lookupKeyRead(c->db, key);
    if (!o) return addReply(c, shared::czero);
    std::string_view bytes;
    if (!isHLLObjectOrReply(c, o, &bytes)) return;
    sds &s = hllUnshare(c, key, o);
    uint8_t *hll = hllBytes(s);
    uint64_t card;
    if (hllValidCache(hll)) {
        card = hllCachedCard(hll);
    } else {
        if (!hllCount(hll, s.size(), &card)) return addReplyError(c, invalid_hll_err);
        hllSetCachedCard(hll, card);
        signalModifiedKey(c, c->db, key);
        server.dirty++;
    }
    addReplyLongLong(c, static_cast<long long>(card));
}

/* PFMERGE destkey [sourcekey ...]: destkey (itself a source) gets the
 * registers' maxima, dense if any source was dense, else sparse (promoted
 * on the way if it must be). */
void pfmergeCommand(client *c) {
    uint8_t max[HLL_REGISTERS] = {};
    bool use_dense = false;
    for (size_t j = 1; j < c->argv.size(); j++) {
        robj *o = lookupKeyRead(c->db, c->argv[j]);
        if (!o) continue;
        std::string_view bytes;
        if (!isHLLObjectOrReply(c, o, &bytes)) return;
        if (hllEncoding(hllBytes(bytes)) == HLL_DENSE) use_dense = true;
        if (!hllMerge(max, bytes)) return addReplyError(c, invalid_hll_err);
    }

    std::string_view key = c->argv[1];
    robj *o = lookupKeyWrite(c->db, key);
    sds *hll;
    if (!o) {
        ObjRef created = createHLLObject();
        hll = &objectRawSds(created.get());
        dbAdd(c->db, key, std::move(created));
    } else {
        hll = &hllUnshare(c, key, o); /* validated above, as a source */
    }
    if (use_dense && !hllSparseToDense(*hll)) return addReplyError(c, invalid_hll_err);

    for (int j = 0; j < HLL_REGISTERS; j++) {
        if (max[j] == 0) continue;
        if (hllEncoding(hllBytes(*hll)) == HLL_DENSE) {
            hllDenseSet(hllBytes(*hll) + HLL_HDR_SIZE, j, max[j]);
        } else {
            hllSparseSet(*hll, j, max[j]);
        }
    }
    hllInvalidateCache(hllBytes(*hll));
    signalModifiedKey(c, c->db, key);
    /* A merge is a mass add: Redis names its event "pfadd". */
    notifyKeyspaceEvent(NOTIFY_STRING, "pfadd", key, c->db->id);
    server.dirty++;
    addReply(c, shared::ok);
}

namespace {

constexpr unsigned HLL_TEST_CYCLES = 1000;

/* PFSELFTEST's first test: random values written to every dense register
 * read back unchanged, the neighbours untouched. */
bool pfselftestRegisters(client *c, uint8_t *registers) {
    uint8_t bytecounters[HLL_REGISTERS];
    for (unsigned j = 0; j < HLL_TEST_CYCLES; j++) {
        for (int i = 0; i < HLL_REGISTERS; i++) {
            auto r = static_cast<uint8_t>(rand() & HLL_REGISTER_MAX);
            bytecounters[i] = r;
            hllDenseSetRegister(registers, i, r);
        }
        for (int i = 0; i < HLL_REGISTERS; i++) {
            uint8_t val = hllDenseGetRegister(registers, i);
            if (val != bytecounters[i]) {
                addReplyErrorFormat(c, "TESTFAILED Register %d should be %d but is %d", i, bytecounters[i], val);
                return false;
            }
        }
    }
    return true;
}

/* The second: ten million distinct elements added to a dense and a sparse
 * HLL at once; at each power of ten the sparse one is still sparse while
 * small, both estimate alike, and within 6 standard errors. */
bool pfselftestApproximation(client *c, sds &dense) {
    memset(hllBytes(dense) + HLL_HDR_SIZE, 0, HLL_DENSE_SIZE - HLL_HDR_SIZE);
    ObjRef o = createHLLObject();
    sds &sparse = objectRawSds(o.get());
    double relerr = 1.04 / sqrt(HLL_REGISTERS);
    int64_t checkpoint = 1;
    uint64_t seed = static_cast<uint64_t>(rand()) | static_cast<uint64_t>(rand()) << 32;
    auto count = [](sds &s) {
        uint64_t card = 0;
        hllCount(hllBytes(s), s.size(), &card);
        return card;
    };
    for (int64_t j = 1; j <= 10000000; j++) {
        uint64_t ele = static_cast<uint64_t>(j) ^ seed;
        std::string_view elev(reinterpret_cast<const char *>(&ele), sizeof(ele));
        hllAdd(dense, elev);
        hllAdd(sparse, elev);
        if (j != checkpoint) continue;
        if (j < server.hll_sparse_max_bytes / 2 && hllEncoding(hllBytes(sparse)) != HLL_SPARSE) {
            addReplyError(c, "TESTFAILED sparse encoding not used");
            return false;
        }
        uint64_t card = count(dense);
        if (card != count(sparse)) {
            addReplyError(c, "TESTFAILED dense/sparse disagree");
            return false;
        }
        int64_t abserr = std::llabs(checkpoint - static_cast<int64_t>(card));
        auto maxerr = static_cast<uint64_t>(ceil(relerr * 6 * static_cast<double>(checkpoint)));
        /* At 10 a collision is likely enough to give an error of 1. */
        if (j == 10) maxerr = 1;
        if (abserr > static_cast<int64_t>(maxerr)) {
            addReplyErrorFormat(c, "TESTFAILED Too big error. card:%llu abserr:%llu",
                                static_cast<unsigned long long>(checkpoint), static_cast<unsigned long long>(abserr));
            return false;
        }
        checkpoint *= 10;
    }
    return true;
}

}  // namespace

/* PFSELFTEST: checks what is hard to check from outside, the register
 * packing and the estimator's error. */
void pfselftestCommand(client *c) {
    static constexpr char hdr[HLL_HDR_SIZE] = {'H', 'Y', 'L', 'L', HLL_DENSE};
    sds dense(std::string_view(hdr, HLL_HDR_SIZE));
    dense.resize(HLL_DENSE_SIZE);
    if (!pfselftestRegisters(c, hllBytes(dense) + HLL_HDR_SIZE)) return;
    if (!pfselftestApproximation(c, dense)) return;
    addReply(c, shared::ok);
}

namespace {

void pfdebugDecode(client *c, const sds &s) {
    const uint8_t *p = reinterpret_cast<const uint8_t *>(s.data()), *end = p + s.size();
    if (hllEncoding(p) != HLL_SPARSE) return addReplyError(c, "HLL encoding is not sparse");
    std::string decoded;
    char item[32];
    for (p += HLL_HDR_SIZE; p < end;) {
        if (sparseIsZero(p)) {
            snprintf(item, sizeof(item), "z:%d ", sparseZeroLen(p));
            p++;
        } else if (sparseIsXzero(p)) {
            snprintf(item, sizeof(item), "Z:%d ", sparseXzeroLen(p));
            p += 2;
        } else {
            snprintf(item, sizeof(item), "v:%d,%d ", sparseValValue(p), sparseValLen(p));
            p++;
        }
        decoded += item;
    }
    if (!decoded.empty()) decoded.pop_back(); /* the last space */
    addReplyBulk(c, decoded);
}

}  // namespace

/* PFDEBUG GETREG|DECODE|ENCODING|TODENSE key. GETREG and TODENSE turn a
 * sparse HLL dense in place; that change counts in server.dirty, so it
 * propagates, as Redis does (without signalling the key, as Redis). */
void pfdebugCommand(client *c) {
    std::string_view cmd = c->argv[1], key = c->argv[2];
    robj *o = lookupKeyWrite(c->db, key);
    if (!o) return addReplyError(c, "The specified key does not exist");
    std::string_view bytes;
    if (!isHLLObjectOrReply(c, o, &bytes)) return;
    sds &s = hllUnshare(c, key, o);

    if (strEqualNoCase(cmd, "getreg") || strEqualNoCase(cmd, "todense")) {
        bool conv = false;
        if (hllEncoding(hllBytes(s)) == HLL_SPARSE) {
            if (!hllSparseToDense(s)) return addReplyError(c, invalid_hll_err);
            conv = true;
            server.dirty++;
        }
        if (strEqualNoCase(cmd, "todense")) return addReply(c, conv ? shared::cone : shared::czero);
        addReplyArrayLen(c, HLL_REGISTERS);
        hllDenseForEach(hllBytes(s) + HLL_HDR_SIZE, [&](int, int reg) { addReplyLongLong(c, reg); });
    } else if (strEqualNoCase(cmd, "decode")) {
        pfdebugDecode(c, s);
    } else if (strEqualNoCase(cmd, "encoding")) {
        addReplyStatus(c, hllEncoding(hllBytes(s)) == HLL_DENSE ? "dense" : "sparse");
    } else {
        addReplyErrorFormat(c, "Unknown PFDEBUG subcommand '%.*s'", static_cast<int>(cmd.size()), cmd.data());
    }
}
