/* request_parser_fuzz.cpp — libFuzzer target over the request parser
 * (src/request_parser.h), driven as networking.cpp's processInputBuffer drives
 * it.
 *
 * Each input is a byte stream a client could send. It is parsed three
 * ways: whole, in random splits (split points derived from the input's
 * bytes, so a run is reproducible) and, when short, one byte per read. Every
 * way must yield the same requests and the same final verdict, and that
 * verdict must be Redis 7.0's: a reference parser below reads the whole
 * stream as Redis's processInlineBuffer / processMultibulkBuffer do
 * (strchr's stop at a NUL byte included: a query buffer is a C string to
 * Redis), and gives the requests it runs and the protocol error it
 * replies, if any. ASan catches any read or write outside the buffer.
 *
 * The first byte of the input picks proto-max-bulk-len among a few values,
 * so "invalid bulk length" is reachable without multi-megabyte inputs. */
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "request_parser.h"
#include "util.h"

namespace {

using Request = std::vector<std::string>;

/* What a client sees of its stream: the requests run, in order, and the
 * protocol error that closed the connection ("" if none). */
struct Verdict {
    std::vector<Request> requests;
    std::string error;
};

[[noreturn]] void fail(const char *what, std::string_view input) {
    std::string repr;
    catRepr(repr, input.substr(0, 512));
    fprintf(stderr, "request_parser_fuzz: %s\ninput: %s\n", what, repr.c_str());
    abort();
}

/* ------------------------------------------------------------------------
 * The reference: Redis 7.0.15's parsing of a complete buffer, written
 * plainly (no resumption), over a NUL-terminated copy as Redis's sds.
 * ---------------------------------------------------------------------- */

/* strchr from `pos`: stops at the first NUL, as Redis's search does. */
const char *cstrchr(const std::string &buf, size_t pos, char ch) { return strchr(buf.c_str() + pos, ch); }

bool isCSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }
int hexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* sdssplitargs over a C string: false on unbalanced quotes. */
bool referenceSplitArgs(const char *p, Request &out) {
    out.clear();
    for (;;) {
        while (*p && isCSpace(*p)) p++;
        if (!*p) return true;
        std::string cur;
        bool inq = false, insq = false, done = false;
        while (!done) {
            if (inq) {
                if (*p == '\\' && p[1] == 'x' && hexDigit(p[2]) >= 0 && hexDigit(p[3]) >= 0) {
                    cur += static_cast<char>(hexDigit(p[2]) * 16 + hexDigit(p[3]));
                    p += 3;
                } else if (*p == '\\' && p[1]) {
                    p++;
                    cur += *p == 'n' ? '\n' : *p == 'r' ? '\r' : *p == 't' ? '\t' : *p == 'b' ? '\b' : *p == 'a' ? '\a' : *p;
                } else if (*p == '"') {
                    if (p[1] && !isCSpace(p[1])) return false;
                    done = true;
                } else if (!*p) {
                    return false;
                } else {
                    cur += *p;
                }
            } else if (insq) {
                if (*p == '\\' && p[1] == '\'') {
                    p++;
                    cur += '\'';
                } else if (*p == '\'') {
                    if (p[1] && !isCSpace(p[1])) return false;
                    done = true;
                } else if (!*p) {
                    return false;
                } else {
                    cur += *p;
                }
            } else if (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t' || *p == '\0') {
                done = true;
            } else if (*p == '"') {
                inq = true;
            } else if (*p == '\'') {
                insq = true;
            } else {
                cur += *p;
            }
            if (*p) p++;
        }
        out.push_back(std::move(cur));
    }
}

Verdict referenceParse(const std::string &buf, long long max_bulk_len) {
    Verdict v;
    const size_t len = buf.size();
    size_t pos = 0;
    while (pos < len) {
        if (buf[pos] != '*') {
            const char *nl = cstrchr(buf, pos, '\n');
            if (!nl) {
                if (len - pos > PROTO_INLINE_MAX_SIZE) v.error = "too big inline request";
                return v;
            }
            size_t end = nl - buf.c_str(), linefeed = 1;
            if (end != pos && buf[end - 1] == '\r') end--, linefeed++;
            Request argv;
            if (!referenceSplitArgs(buf.substr(pos, end - pos).c_str(), argv)) {
                v.error = "unbalanced quotes in request";
                return v;
            }
            pos = end + linefeed;
            if (!argv.empty()) v.requests.push_back(std::move(argv));
            continue;
        }
        const char *cr = cstrchr(buf, pos, '\r');
        if (!cr) {
            if (len - pos > PROTO_INLINE_MAX_SIZE) v.error = "too big mbulk count string";
            return v;
        }
        size_t crpos = cr - buf.c_str();
        if (len - pos < 2 || crpos - pos > len - pos - 2) return v;
        long long ll;
        if (!string2ll(std::string_view(buf).substr(pos + 1, crpos - pos - 1), &ll) || ll > INT_MAX) {
            v.error = "invalid multibulk length";
            return v;
        }
        pos = crpos + 2;
        Request argv;
        for (long long left = ll; left > 0; left--) {
            cr = cstrchr(buf, pos, '\r');
            if (!cr) {
                if (len - pos > PROTO_INLINE_MAX_SIZE) v.error = "too big bulk count string";
                return v;
            }
            crpos = cr - buf.c_str();
            if (len - pos < 2 || crpos - pos > len - pos - 2) return v;
            if (buf[pos] != '$') {
                char msg[32];
                snprintf(msg, sizeof(msg), "expected '$', got '%c'", buf[pos]);
                v.error = msg;
                return v;
            }
            long long bl;
            if (!string2ll(std::string_view(buf).substr(pos + 1, crpos - pos - 1), &bl) || bl < 0 ||
                bl > max_bulk_len) {
                v.error = "invalid bulk length";
                return v;
            }
            pos = crpos + 2;
            if (len - pos < static_cast<size_t>(bl) + 2) return v;
            argv.emplace_back(buf, pos, bl);
            pos += bl + 2;
        }
        if (!argv.empty()) v.requests.push_back(std::move(argv));
    }
    return v;
}

/* ------------------------------------------------------------------------
 * The parser under test, fed by "reads" as processInputBuffer feeds it.
 * ---------------------------------------------------------------------- */

class Connection {
public:
    Connection(long long max_bulk_len, std::string_view input) : max_bulk_len_(max_bulk_len), input_(input) {}

    /* One read of `bytes`, then every complete request in the buffer. */
    void read(std::string_view bytes) {
        if (!v_.error.empty()) return; /* the connection is closed */
        qb_.append(bytes);
        processInputBuffer();
    }
    const Verdict &verdict() const { return v_; }

private:
    void resetRequest() { r_ = RequestParser{.pos = r_.pos}; }

    void checkSpans() const {
        if (r_.pos > qb_.size() || qb_.size() > qb_.capacity()) fail("parse position past the buffer", input_);
        for (auto [off, len] : r_.argspan)
            if (off > qb_.size() || len > qb_.size() - off) fail("argument span past the buffer", input_);
    }

    void processInputBuffer() {
        size_t request_start = 0;
        while (r_.pos < qb_.size()) {
            if (!r_.reqtype) r_.reqtype = qb_.data()[r_.pos] == '*' ? PROTO_REQ_MULTIBULK : PROTO_REQ_INLINE;
            std::string err;
            ParseStatus st = r_.reqtype == PROTO_REQ_INLINE
                                 ? parseInlineRequest(qb_, r_, err)
                                 : parseMultibulkRequest(qb_, r_, max_bulk_len_, err);
            checkSpans();
            if (st == PARSE_ERROR) {
                if (err.empty()) fail("a protocol error without its text", input_);
                v_.error = err;
                return;
            }
            if (st == PARSE_NEED_MORE) break;
            if (!r_.argspan.empty()) {
                Request argv;
                for (auto [off, len] : r_.argspan) argv.emplace_back(qb_.data() + off, len);
                v_.requests.push_back(std::move(argv));
            }
            resetRequest();
            request_start = r_.pos;
        }
        /* trimQueryBuffer: the unfinished request moves to offset 0. */
        if (request_start) {
            qb_.consume(request_start);
            r_.pos -= request_start;
            for (auto &span : r_.argspan) span.first -= request_start;
        }
        checkSpans();
    }

    long long max_bulk_len_;
    std::string_view input_;
    QueryBuffer qb_;
    RequestParser r_;
    Verdict v_;
};

/* xorshift64*, seeded from the input: the same input splits the same way. */
struct Rng {
    uint64_t s;
    uint64_t next() {
        s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
        return s * 2685821657736338717ULL;
    }
};

uint64_t fnv1a(std::string_view s) {
    uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ULL;
    return h | 1;
}

void compare(const Verdict &got, const Verdict &want, const char *how, std::string_view input) {
    if (got.error != want.error) {
        std::string what = std::string(how) + ": error \"" + got.error + "\", Redis's \"" + want.error + "\"";
        fail(what.c_str(), input);
    }
    if (got.requests != want.requests) {
        std::string what = std::string(how) + ": " + std::to_string(got.requests.size()) + " requests, Redis's " +
                           std::to_string(want.requests.size()) + " (or different arguments)";
        fail(what.c_str(), input);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    static constexpr long long kMaxBulkLen[] = {16, 100000, 1 << 20};
    const long long max_bulk_len = kMaxBulkLen[data[0] % 3];
    const std::string_view stream(reinterpret_cast<const char *>(data) + 1, size - 1);

    const Verdict want = referenceParse(std::string(stream), max_bulk_len);

    Connection whole(max_bulk_len, stream);
    whole.read(stream);
    compare(whole.verdict(), want, "read whole", stream);

    /* Reads of random sizes: mostly small (the parser's resumption points),
     * sometimes large. */
    Connection split(max_bulk_len, stream);
    Rng rng{fnv1a(stream)};
    for (size_t off = 0; off < stream.size();) {
        uint64_t r = rng.next();
        size_t n = 1 + (r >> 8) % ((r & 3) == 0 ? 64 : 8);
        n = std::min(n, stream.size() - off);
        split.read(stream.substr(off, n));
        off += n;
    }
    compare(split.verdict(), want, "read in random splits", stream);

    if (stream.size() <= 256) {
        Connection bytewise(max_bulk_len, stream);
        for (size_t i = 0; i < stream.size(); i++) bytewise.read(stream.substr(i, 1));
        compare(bytewise.verdict(), want, "read byte by byte", stream);
    }
    return 0;
}
