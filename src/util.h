/* util.h — string helpers shared by the whole server (Redis's util.c and the
 * parts of sds.c that are not about the string type itself).
 *
 * Every function here reproduces the observable behaviour of its Redis 7.0
 * namesake, quirks included, because replies and error texts depend on it:
 * a number Redis refuses must be refused here too, and a glob pattern must
 * select exactly the keys Redis would select.
 * Invariants:
 *  - Nothing allocates except the functions returning or filling a std::string.
 *  - The *2string functions always NUL-terminate when dstlen > 0 and return
 *    the length written, or 0 when the buffer is too small.
 *  - Text is bytes: case folding and "is space" are ASCII-only (the C locale
 *    Redis runs in), never locale-dependent.
 */
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

/* Status codes, as Redis's. */
constexpr int C_OK = 0, C_ERR = -1;

/* Longest decimal long long, sign included, plus the terminator. */
constexpr size_t LONG_STR_SIZE = 21;
/* Room d2string needs for any double. */
constexpr size_t MAX_D2STRING_CHARS = 128;
/* Room ld2string needs for any long double in LD_STR_HUMAN mode (%.17Lf of
 * the largest long double is about 4950 digits); also the longest input
 * string2ld accepts. */
constexpr size_t MAX_LONG_DOUBLE_CHARS = 5 * 1024;

/* Glob-style matching of KEYS, SCAN MATCH, PSUBSCRIBE and CONFIG GET:
 * `*` any run, `?` any byte, `[abc]` `[^abc]` `[a-z]` classes, `\x` a
 * literal x. Same results as Redis's stringmatchlen, including its edge
 * cases; runs in O(len(pattern) * len(str)) whatever the pattern. */
bool stringmatchlen(std::string_view pattern, std::string_view str, bool nocase);

/* Strict integer parsing: optional '-', then digits with no leading zero
 * (except "0" itself), nothing else; "-0" and out-of-range values fail. */
bool string2ll(std::string_view s, long long *value);
bool string2l(std::string_view s, long *value);
/* string2ll for non-negative values, falling back to strtoull() as Redis
 * does (so values above LLONG_MAX, leading blanks and '+' are accepted). */
bool string2ull(std::string_view s, unsigned long long *value);
/* A whole-string strtod: no leading blank, no trailing byte, no NaN, no
 * overflow to infinity nor underflow to zero. "inf", "+inf", "-inf",
 * exponents and hex floats ("0x1p4") are accepted, as in Redis. */
bool string2d(std::string_view s, double *value);
/* The same for long double (INCRBYFLOAT), input up to MAX_LONG_DOUBLE_CHARS-1. */
bool string2ld(std::string_view s, long double *value);

int ll2string(char *dst, size_t dstlen, long long value);
int ull2string(char *dst, size_t dstlen, unsigned long long value);
/* "inf", "-inf", "nan", "0"/"-0"; integral values below 2^52 in magnitude
 * printed as integers; anything else with "%.17g". */
int d2string(char *dst, size_t dstlen, double value);

enum ld2string_mode {
    LD_STR_AUTO,  /* "%.17Lg" */
    LD_STR_HUMAN, /* "%.17Lf" without trailing zeros nor a trailing '.', "-0" as "0" */
};
int ld2string(char *dst, size_t dstlen, long double value, ld2string_mode mode);

/* "1gb", "512mb", "100k", "42" (bytes) as Redis's memtoull: k/m/g are powers
 * of 1000, kb/mb/gb powers of 1024, units case-insensitive, no sign, no
 * blanks. An empty digit run reads as 0 and, as in Redis 7.0, the product is
 * not checked for overflow. Sets *err (never null) to true on a bad string. */
unsigned long long memtoull(std::string_view s, bool *err);

/* Splits a line the way redis-cli, inline commands and redis.conf do
 * (Redis's sdssplitargs): blank-separated words; "double quotes" with \n \r
 * \t \b \a \\ \" and \xHH escapes; 'single quotes' with \' only. A closing
 * quote must be followed by a blank or the end of the line. The text is
 * unescaped in place (a word never grows) and each word is appended to
 * `spans` as (offset, length) relative to `p`. The line ends at the first
 * NUL byte, as Redis reads it as a C string. Returns false on unbalanced
 * quotes, leaving `spans` as it was and `p` partly rewritten. */
bool splitArgsInPlace(char *p, size_t len, std::vector<std::pair<size_t, size_t>> &spans);
/* The same on a copy, replacing `out` with the words. */
bool splitArgs(std::string_view line, std::vector<std::string> &out);

/* Appends `s` quoted and escaped as Redis's sdscatrepr: \n \r \t \a \b \\ \"
 * and \xHH for other non-printable bytes. splitArgs reads it back. */
void catRepr(std::string &dst, std::string_view s);

/* Commands as RESP multibulks, the AOF's format: what call() serializes as
 * it propagates (server.cpp) and what a rewrite writes (aof.cpp). In Redis
 * these are in aof.c; here they sit below both users. */
/* "<prefix><n>\r\n": the header of a multibulk ('*') or of one bulk ('$'). */
void catLengthLine(std::string &dst, char prefix, size_t n);
void catBulk(std::string &dst, std::string_view arg);
void catAppendOnlyGenericCommand(std::string &dst, std::span<const std::string_view> argv);
void catSelectCommand(std::string &dst, int dbid);

std::string toLower(std::string_view s);
bool strEqualNoCase(std::string_view a, std::string_view b);

/* Fills p with len random lowercase hex digits from the OS entropy source
 * (run_id, and later ACL GENPASS, need unpredictable values). */
void getRandomHexChars(char *p, size_t len);

/* Makes a rename (or a new file) in the directory of `filename` durable: the
 * last step of writing a temp file, fsyncing it, renaming it (Redis's
 * fsyncFileDir). 0 on success; -1 with errno set. File systems that cannot
 * open or fsync a directory (EISDIR, EBADF, EINVAL) count as success. */
int fsyncFileDir(const char *filename);

/* Files and directories by name (Redis's util.c): a regular file exists; a
 * directory exists; a directory made unless it is there (0, or -1 with
 * errno); "dir/name"; a name without any '/' (a file of `dir`, not a path). */
bool fileExist(const std::string &filename);
bool dirExists(const std::string &dname);
int dirCreateIfMissing(const std::string &dname);
std::string makePath(std::string_view path, std::string_view filename);
bool pathIsBaseName(std::string_view path);
