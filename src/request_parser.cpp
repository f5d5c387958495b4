/* request_parser.cpp — request parsing (Redis's networking.c, the parsing
 * half of processInlineBuffer / processMultibulkBuffer) and the query buffer
 * (see request_parser.h). */
#include "request_parser.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>

#include "util.h"

/* ========================================================================
 * QueryBuffer
 * ====================================================================== */

void QueryBuffer::makeRoomFor(size_t n) {
    if (avail() >= n) return;
    /* Grow greedily (doubling) so a stream of reads costs amortized O(1)
     * per byte, except for one huge argument, sized exactly by the caller. */
    size_t want = len_ + n;
    size_t newcap = std::max(want, cap_ * 2);
    auto nb = std::make_unique_for_overwrite<char[]>(newcap);
    if (len_) memcpy(nb.get(), buf_.get(), len_);
    buf_ = std::move(nb);
    cap_ = newcap;
}

void QueryBuffer::consume(size_t n) {
    if (n >= len_) {
        len_ = 0;
        return;
    }
    memmove(buf_.get(), buf_.get() + n, len_ - n);
    len_ -= n;
}

void QueryBuffer::append(std::string_view s) {
    if (s.empty()) return;
    makeRoomFor(s.size());
    memcpy(buf_.get() + len_, s.data(), s.size());
    len_ += s.size();
}

void QueryBuffer::shrinkIfIdle(size_t keep) {
    if (len_ == 0 && cap_ > keep) {
        buf_.reset();
        cap_ = 0;
    }
}

/* ========================================================================
 * The parsers
 * ====================================================================== */

/* Where the line at p ends (its `ch`), as Redis finds it: Redis's query
 * buffer is an sds searched with strchr, so a NUL byte before the end hides
 * it, and the line waits for more bytes like an unfinished one (an error
 * only once past PROTO_INLINE_MAX_SIZE). */
static const char *findLineEnd(const char *p, size_t avail, char ch) {
    const char *end = static_cast<const char *>(memchr(p, ch, avail));
    if (end && memchr(p, '\0', end - p)) return nullptr;
    return end;
}

ParseStatus parseInlineRequest(QueryBuffer &qb, RequestParser &r, std::string &err) {
    char *start = qb.data() + r.pos;
    size_t avail = qb.size() - r.pos;
    const char *newline = findLineEnd(start, avail, '\n');
    if (!newline) {
        if (avail <= PROTO_INLINE_MAX_SIZE) return PARSE_NEED_MORE;
        err = "too big inline request";
        return PARSE_ERROR;
    }
    size_t linelen = newline - start;
    size_t consumed = linelen + 1;
    if (linelen && start[linelen - 1] == '\r') linelen--;
    r.argspan.clear();
    if (!splitArgsInPlace(start, linelen, r.argspan)) {
        err = "unbalanced quotes in request";
        return PARSE_ERROR;
    }
    for (auto &span : r.argspan) span.first += r.pos;
    r.pos += consumed;
    return PARSE_OK;
}

/* Parses "<prefix><number>\r\n" at r.pos. Returns 1 and advances on
 * success, 0 if the line is incomplete, -1 on a too long line. */
static int readLengthLine(const QueryBuffer &qb, RequestParser &r, long long *value, bool *ok) {
    const char *p = qb.data() + r.pos;
    size_t avail = qb.size() - r.pos;
    const char *cr = static_cast<const char *>(memchr(p, '\r', avail));
    if (cr) {
        *ok = string2ll(std::string_view(p + 1, cr - (p + 1)), value);
        /* A NUL hides the end (findLineEnd); only a line that is no
         * length can hold one, so only such a line is searched again. */
        if ((!*ok || *p == '\0') && memchr(p, '\0', cr - p)) cr = nullptr;
    }
    if (!cr) return avail > PROTO_INLINE_MAX_SIZE ? -1 : 0;
    if (static_cast<size_t>(cr - p) + 1 >= avail) return 0; /* need the '\n' too */
    r.pos += (cr - p) + 2;
    return 1;
}

/* "*<argc>\r\n": sets r.multibulklen. */
static ParseStatus parseMultibulkLength(QueryBuffer &qb, RequestParser &r, std::string &err) {
    long long ll = 0;
    bool ok = false;
    int rc = readLengthLine(qb, r, &ll, &ok);
    if (rc == 0) return PARSE_NEED_MORE;
    if (rc == -1) {
        err = "too big mbulk count string";
        return PARSE_ERROR;
    }
    if (!ok || ll > INT_MAX) {
        err = "invalid multibulk length";
        return PARSE_ERROR;
    }
    r.multibulklen = ll > 0 ? ll : 0; /* "*0" or "*-1": an empty request */
    if (ll > 0) r.argspan.reserve(std::min<long long>(ll, 1024));
    return PARSE_OK;
}

/* "$<len>\r\n": sets r.bulklen. */
static ParseStatus parseBulkLength(QueryBuffer &qb, RequestParser &r, long long max_bulk_len, std::string &err) {
    const size_t start = r.pos;
    long long ll = 0;
    bool ok = false;
    int rc = readLengthLine(qb, r, &ll, &ok);
    if (rc == 0) return PARSE_NEED_MORE;
    if (rc == -1) {
        err = "too big bulk count string";
        return PARSE_ERROR;
    }
    /* As Redis, the '$' is checked once the whole line is in: a line
     * still arriving is waited for, whatever its first byte. */
    char ch = qb.data()[start];
    if (ch != '$') {
        r.pos = start; /* the protocol error's log shows the line */
        char msg[32];
        snprintf(msg, sizeof(msg), "expected '$', got '%c'", ch);
        err = msg;
        return PARSE_ERROR;
    }
    if (!ok || ll < 0 || ll > max_bulk_len) {
        err = "invalid bulk length";
        return PARSE_ERROR;
    }
    r.bulklen = ll;
    /* A big argument: size the buffer for it now, once, instead of
     * doubling through many reallocations while it arrives. */
    if (static_cast<size_t>(ll) >= PROTO_MBULK_BIG_ARG) {
        size_t have = qb.size() - r.pos;
        size_t need = static_cast<size_t>(ll) + 2;
        if (need > have) qb.makeRoomFor(need - have);
    }
    return PARSE_OK;
}

/* Parsing resumes where the last read stopped: `multibulklen` bulks are
 * still expected, and `bulklen` is the one being read. */
ParseStatus parseMultibulkRequest(QueryBuffer &qb, RequestParser &r, long long max_bulk_len, std::string &err) {
    if (r.multibulklen == 0) {
        ParseStatus st = parseMultibulkLength(qb, r, err);
        if (st != PARSE_OK || r.multibulklen == 0) return st;
    }
    while (r.multibulklen) {
        if (r.bulklen == -1) {
            ParseStatus st = parseBulkLength(qb, r, max_bulk_len, err);
            if (st != PARSE_OK) return st;
        }
        size_t need = static_cast<size_t>(r.bulklen) + 2;
        if (qb.size() - r.pos < need) return PARSE_NEED_MORE;
        r.argspan.emplace_back(r.pos, static_cast<size_t>(r.bulklen));
        r.pos += need;
        r.bulklen = -1;
        r.multibulklen--;
    }
    return PARSE_OK;
}
