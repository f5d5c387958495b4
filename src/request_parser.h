/* request_parser.h — the request parser (Redis's networking.c: the parsing
 * half of processInlineBuffer / processMultibulkBuffer) and the query buffer:
 * bytes read from a socket in, a request's arguments out. Redis's
 * resp_parser.c (there since 7.0.0) is unrelated: it parses replies, for the
 * scripts and modules that read what a command answered.
 *
 * It knows nothing of clients or of the server: networking.cpp feeds it a
 * client's buffer and turns its verdict into argv, a protocol error reply,
 * or another read. Invariants:
 *  - Parsing is resumable: a call that returns PARSE_NEED_MORE leaves
 *    RequestParser where it stopped, and the next call, after more bytes
 *    were appended, goes on from there without rescanning the bulk bytes.
 *  - Arguments are kept as (offset, length) into the buffer, never as
 *    pointers, so growing the buffer between reads keeps them valid.
 */
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

constexpr size_t PROTO_INLINE_MAX_SIZE = 64 * 1024; /* max inline request (and length line) */
constexpr size_t PROTO_MBULK_BIG_ARG = 32 * 1024;   /* pre-size the buffer for arguments past this */

/* Request types of the query buffer. */
constexpr int PROTO_REQ_INLINE = 1;
constexpr int PROTO_REQ_MULTIBULK = 2;

/* Bytes read from the socket, parsed in place. */
class QueryBuffer {
public:
    char *data() { return buf_.get(); }
    const char *data() const { return buf_.get(); }
    size_t size() const { return len_; }
    size_t capacity() const { return cap_; }
    size_t avail() const { return cap_ - len_; }
    /* Guarantees room for `n` more bytes, keeping the content. */
    void makeRoomFor(size_t n);
    void commit(size_t n) { len_ += n; }
    /* Drops the first `n` bytes (already parsed). */
    void consume(size_t n);
    void append(std::string_view s);
    void clear() { len_ = 0; }
    /* Frees the allocation when it is idle and large (clientsCron). */
    void shrinkIfIdle(size_t keep);

private:
    std::unique_ptr<char[]> buf_;
    size_t len_ = 0, cap_ = 0;
};

/* The parser's progress on the request being read. */
struct RequestParser {
    int reqtype = 0;         /* PROTO_REQ_INLINE / MULTIBULK, 0 = not yet known */
    long multibulklen = 0;   /* bulk strings still to read */
    long long bulklen = -1;  /* length of the bulk being read, -1 = header unread */
    size_t pos = 0;          /* parse position in the query buffer */
    /* Arguments parsed so far, as (offset, length) into the query buffer:
     * offsets stay valid when the buffer grows, views would not. */
    std::vector<std::pair<size_t, size_t>> argspan;
};

/* What a parse call found. PARSE_OK: a whole request is in argspan (none
 * for an empty "*0" / "*-1" request, which is skipped); PARSE_NEED_MORE:
 * read more; PARSE_ERROR: `err` holds Redis's text (after "Protocol
 * error: "), and the connection is to be closed. */
enum ParseStatus { PARSE_OK, PARSE_NEED_MORE, PARSE_ERROR };

/* An inline request: one line of space-separated words, as typed in telnet. */
ParseStatus parseInlineRequest(QueryBuffer &qb, RequestParser &r, std::string &err);
/* A multibulk request: "*<argc>\r\n" then argc times "$<len>\r\n<bytes>\r\n";
 * a bulk longer than `max_bulk_len` (proto-max-bulk-len) is an error. */
ParseStatus parseMultibulkRequest(QueryBuffer &qb, RequestParser &r, long long max_bulk_len, std::string &err);
