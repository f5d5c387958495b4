/* util.cpp — string helpers (Redis's util.c) with Redis 7.0's exact
 * semantics (see util.h).
 *
 * Invariants: no function reads outside [data, data+size) of its inputs,
 * even where Redis relies on a NUL terminator; where Redis's result depends
 * on that terminator, the code behaves as if it were there.
 */
#include "util.h"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <span>

#include <fcntl.h>
#include <libgen.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

/* The C locale's classification, which is what Redis runs with. */
bool isSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isHexDigit(char c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
int hexValue(char c) { return isDigit(c) ? c - '0' : (c | 0x20) - 'a' + 10; }
int foldCase(int c) { return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c; }

/* Redis compares pattern bytes as plain (signed) char, which decides how a
 * range such as [a-\xff] behaves; keep that. */
int signedByte(char c) { return static_cast<signed char>(c); }

bool sameByte(char a, char b, bool nocase) {
    return nocase ? foldCase(signedByte(a)) == foldCase(signedByte(b)) : a == b;
}

/* strtod & co. need a terminated string; most inputs are short. */
class CString {
public:
    explicit CString(std::string_view s) {
        if (s.size() < sizeof(stack_)) {
            memcpy(stack_, s.data(), s.size());
            stack_[s.size()] = '\0';
            ptr_ = stack_;
        } else {
            heap_.assign(s);
            ptr_ = heap_.c_str();
        }
    }
    const char *get() const { return ptr_; }

private:
    char stack_[128];
    std::string heap_;
    const char *ptr_;
};

/* ------------------------------------------------------------------------
 * Glob matching
 * ---------------------------------------------------------------------- */

/* Redis gives up past 1000 nested '*' (CVE-2022-36021). A match has to go
 * through every '*' group that is followed by more pattern, so the cap comes
 * down to: more than that many such groups never match. */
constexpr int MAX_STAR_GROUPS = 1000;

/* Matches `ch` against the class starting at pattern[pos] == '['. Returns
 * the index just past the class; an unterminated class ends with the
 * pattern. */
size_t matchClass(std::string_view pat, size_t pos, char ch, bool nocase, bool &matched) {
    size_t i = pos + 1;
    const size_t n = pat.size();
    bool negate = i < n && pat[i] == '^';
    if (negate) i++;
    bool hit = false;
    for (;; i++) {
        if (i + 1 < n && pat[i] == '\\') {
            i++;
            if (pat[i] == ch) hit = true; /* escaped bytes compare exactly, even with nocase */
        } else if (i >= n) {
            i = n;
            break;
        } else if (pat[i] == ']') {
            i++;
            break;
        } else if (i + 2 < n && pat[i + 1] == '-') {
            int lo = signedByte(pat[i]), hi = signedByte(pat[i + 2]), c = signedByte(ch);
            if (lo > hi) std::swap(lo, hi); /* swapped before folding, as Redis */
            if (nocase) lo = foldCase(lo), hi = foldCase(hi), c = foldCase(c);
            if (c >= lo && c <= hi) hit = true;
            i += 2;
        } else if (sameByte(pat[i], ch, nocase)) {
            hit = true;
        }
    }
    matched = hit != negate;
    return i;
}

/* Matches one byte against the single-byte token at pattern[pos] ('?', a
 * class, an escape or a literal). Returns the index just past the token. */
size_t matchToken(std::string_view pat, size_t pos, char ch, bool nocase, bool &matched) {
    switch (pat[pos]) {
    case '?':
        matched = true;
        return pos + 1;
    case '[':
        return matchClass(pat, pos, ch, nocase, matched);
    case '\\':
        if (pos + 1 < pat.size()) pos++; /* a trailing '\' is a literal '\' */
        [[fallthrough]];
    default:
        matched = sameByte(pat[pos], ch, nocase);
        return pos + 1;
    }
}

size_t skipStars(std::string_view pat, size_t pos) {
    while (pos < pat.size() && pat[pos] == '*') pos++;
    return pos;
}

}  // namespace

/* Every token but '*' consumes exactly one byte, so when the text after a
 * '*' fails, only the latest '*' needs to take one more byte: earlier ones
 * taking more could only move that same text further right. This keeps the
 * work linear per '*' and removes the recursion of Redis's version, with the
 * same results. */
bool stringmatchlen(std::string_view pat, std::string_view str, bool nocase) {
    if (str.empty()) return pat.empty(); /* Redis checks nothing, not even "*" */
    size_t p = 0, s = 0;
    size_t resume_p = std::string_view::npos, resume_s = 0;
    int groups = 0, groups_at_resume = 0;
    while (s < str.size()) {
        if (p < pat.size() && pat[p] == '*') {
            p = skipStars(pat, p);
            if (p == pat.size()) return true;
            if (++groups > MAX_STAR_GROUPS) return false;
            resume_p = p, resume_s = s, groups_at_resume = groups;
            continue;
        }
        bool matched = false;
        size_t next = p < pat.size() ? matchToken(pat, p, str[s], nocase, matched) : p;
        if (matched) {
            p = next, s++;
        } else if (resume_p != std::string_view::npos) {
            p = resume_p, s = ++resume_s, groups = groups_at_resume;
        } else {
            return false;
        }
    }
    return skipStars(pat, p) == pat.size();
}

/* ------------------------------------------------------------------------
 * Parsing numbers
 * ---------------------------------------------------------------------- */

bool string2ll(std::string_view s, long long *value) {
    if (s.empty() || s.size() >= LONG_STR_SIZE) return false;
    if (s == "0") {
        *value = 0;
        return true;
    }
    bool negative = s[0] == '-';
    if (negative) s.remove_prefix(1);
    if (s.empty() || s[0] < '1' || s[0] > '9') return false;
    unsigned long long v = 0;
    for (char c : s) {
        if (!isDigit(c)) return false;
        unsigned digit = c - '0';
        if (v > (ULLONG_MAX - digit) / 10) return false;
        v = v * 10 + digit;
    }
    const unsigned long long limit = negative ? static_cast<unsigned long long>(LLONG_MAX) + 1 : LLONG_MAX;
    if (v > limit) return false;
    *value = negative ? static_cast<long long>(0ULL - v) : static_cast<long long>(v);
    return true;
}

bool string2l(std::string_view s, long *value) {
    long long ll;
    if (!string2ll(s, &ll) || ll < LONG_MIN || ll > LONG_MAX) return false;
    *value = static_cast<long>(ll);
    return true;
}

bool string2ull(std::string_view s, unsigned long long *value) {
    long long ll;
    if (string2ll(s, &ll)) {
        if (ll < 0) return false;
        *value = static_cast<unsigned long long>(ll);
        return true;
    }
    CString cs(s);
    char *end;
    errno = 0;
    unsigned long long v = strtoull(cs.get(), &end, 10);
    if (errno == ERANGE || errno == EINVAL || s.empty() || end != cs.get() + s.size()) return false;
    *value = v;
    return true;
}

namespace {

/* Shared by string2d/string2ld: the checks Redis applies after strto(l)d. */
template <typename Float>
bool acceptParsedFloat(std::string_view s, const char *start, const char *end, Float v, Float huge) {
    if (s.empty() || isSpace(s[0]) || end != start + s.size() || std::isnan(v)) return false;
    return !(errno == ERANGE && (v == huge || v == -huge || v == 0));
}

}  // namespace

bool string2d(std::string_view s, double *value) {
    CString cs(s);
    char *end;
    errno = 0;
    double v = strtod(cs.get(), &end);
    if (!acceptParsedFloat(s, cs.get(), end, v, HUGE_VAL)) return false;
    *value = v;
    return true;
}

bool string2ld(std::string_view s, long double *value) {
    if (s.size() >= MAX_LONG_DOUBLE_CHARS) return false;
    CString cs(s);
    char *end;
    errno = 0;
    long double v = strtold(cs.get(), &end);
    if (!acceptParsedFloat(s, cs.get(), end, v, HUGE_VALL)) return false;
    *value = v;
    return true;
}

/* ------------------------------------------------------------------------
 * Printing numbers
 * ---------------------------------------------------------------------- */

int ull2string(char *dst, size_t dstlen, unsigned long long value) {
    static constexpr char pairs[] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    char tmp[20];
    char *p = tmp + sizeof(tmp);
    while (value >= 100) {
        unsigned idx = static_cast<unsigned>(value % 100) * 2;
        value /= 100;
        *--p = pairs[idx + 1];
        *--p = pairs[idx];
    }
    if (value >= 10) {
        *--p = pairs[value * 2 + 1];
        *--p = pairs[value * 2];
    } else {
        *--p = static_cast<char>('0' + value);
    }
    size_t len = tmp + sizeof(tmp) - p;
    if (len >= dstlen) {
        if (dstlen) dst[0] = '\0';
        return 0;
    }
    memcpy(dst, p, len);
    dst[len] = '\0';
    return static_cast<int>(len);
}

int ll2string(char *dst, size_t dstlen, long long value) {
    if (value >= 0) return ull2string(dst, dstlen, static_cast<unsigned long long>(value));
    if (dstlen < 2) {
        if (dstlen) dst[0] = '\0';
        return 0;
    }
    dst[0] = '-';
    int len = ull2string(dst + 1, dstlen - 1, 0ULL - static_cast<unsigned long long>(value));
    if (len == 0) {
        dst[0] = '\0';
        return 0;
    }
    return len + 1;
}

namespace {

/* snprintf with the *2string contract: 0 and an empty string on truncation. */
template <typename... Args>
int formatInto(char *dst, size_t dstlen, const char *fmt, Args... args) {
    int len = snprintf(dst, dstlen, fmt, args...);
    if (len < 0 || static_cast<size_t>(len) >= dstlen) {
        if (dstlen) dst[0] = '\0';
        return 0;
    }
    return len;
}

}  // namespace

int d2string(char *dst, size_t dstlen, double value) {
    if (std::isnan(value)) return formatInto(dst, dstlen, "nan");
    if (std::isinf(value)) return formatInto(dst, dstlen, value < 0 ? "-inf" : "inf");
    if (value == 0) return formatInto(dst, dstlen, std::signbit(value) ? "-0" : "0");
    /* Inside +-2^52 every integral double is exact as a long long, and the
     * integer printer is much faster than %g. */
    constexpr double limit = 4503599627370496.0; /* 2^52 */
    if (value > -limit + 1 && value < limit && value == static_cast<double>(static_cast<long long>(value)))
        return ll2string(dst, dstlen, static_cast<long long>(value));
    return formatInto(dst, dstlen, "%.17g", value);
}

int ld2string(char *dst, size_t dstlen, long double value, ld2string_mode mode) {
    if (std::isinf(value)) return formatInto(dst, dstlen, value < 0 ? "-inf" : "inf");
    if (std::isnan(value)) return formatInto(dst, dstlen, "nan");
    if (mode == LD_STR_AUTO) return formatInto(dst, dstlen, "%.17Lg", value);
    /* 17 digits after the point, then trimmed: small decimals such as 10.5
     * read back exactly as typed, which is what INCRBYFLOAT users expect. */
    int len = formatInto(dst, dstlen, "%.17Lf", value);
    if (len == 0) return 0;
    if (memchr(dst, '.', len)) {
        while (dst[len - 1] == '0') len--;
        if (dst[len - 1] == '.') len--;
    }
    if (len == 2 && dst[0] == '-' && dst[1] == '0') {
        dst[0] = '0';
        len = 1;
    }
    dst[len] = '\0';
    return len;
}

/* ------------------------------------------------------------------------
 * Memory sizes
 * ---------------------------------------------------------------------- */

unsigned long long memtoull(std::string_view s, bool *err) {
    struct Unit {
        std::string_view name;
        unsigned long long mul;
    };
    static constexpr Unit units[] = {{"", 1}, {"b", 1}, {"k", 1000}, {"kb", 1024},
                                     {"m", 1000 * 1000}, {"mb", 1024 * 1024},
                                     {"g", 1000ULL * 1000 * 1000}, {"gb", 1024ULL * 1024 * 1024}};
    s = s.substr(0, s.find('\0')); /* Redis reads a C string */
    size_t digits = 0;
    while (digits < s.size() && isDigit(s[digits])) digits++;
    const Unit *unit = nullptr;
    for (const Unit &u : units)
        if (strEqualNoCase(s.substr(digits), u.name)) unit = &u;
    /* Redis copies the digits into a 128-byte buffer and refuses longer runs. */
    if (!unit || digits >= 128) {
        *err = true;
        return 0;
    }
    unsigned long long value = 0;
    for (char c : s.substr(0, digits)) {
        unsigned digit = c - '0';
        if (value > (ULLONG_MAX - digit) / 10) {
            value = ULLONG_MAX; /* strtoull saturates, and Redis keeps the result */
            break;
        }
        value = value * 10 + digit;
    }
    *err = false;
    return value * unit->mul;
}

/* ------------------------------------------------------------------------
 * Splitting and quoting
 * ---------------------------------------------------------------------- */

namespace {

enum class Quote { None, Double, Single };

/* Reads the word starting at buf[r] (not a blank), writing its unescaped
 * bytes from buf[w] on. Returns false on unbalanced quotes; otherwise sets
 * r past the word and its terminating blank, and w past its last byte. */
bool readWord(char *buf, size_t len, size_t &r, size_t &w) {
    Quote quote = Quote::None;
    for (;;) {
        const char c = r < len ? buf[r] : '\0';
        if (quote == Quote::Double) {
            if (c == '\\' && r + 3 < len && buf[r + 1] == 'x' && isHexDigit(buf[r + 2]) &&
                isHexDigit(buf[r + 3])) {
                buf[w++] = static_cast<char>(hexValue(buf[r + 2]) * 16 + hexValue(buf[r + 3]));
                r += 3;
            } else if (c == '\\' && r + 1 < len) {
                const char e = buf[++r];
                buf[w++] = e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e == 'b' ? '\b' : e == 'a' ? '\a' : e;
            } else if (c == '"') {
                if (r + 1 < len && !isSpace(buf[r + 1])) return false;
                r++;
                return true;
            } else if (r == len) {
                return false;
            } else {
                buf[w++] = c;
            }
        } else if (quote == Quote::Single) {
            if (c == '\\' && r + 1 < len && buf[r + 1] == '\'') {
                buf[w++] = buf[++r];
            } else if (c == '\'') {
                if (r + 1 < len && !isSpace(buf[r + 1])) return false;
                r++;
                return true;
            } else if (r == len) {
                return false;
            } else {
                buf[w++] = c;
            }
        } else if (r == len || c == ' ' || c == '\n' || c == '\r' || c == '\t') {
            /* Only these end an unquoted word; \v and \f stay in it, though
             * they count as blanks between words. */
            if (r < len) r++;
            return true;
        } else if (c == '"') {
            quote = Quote::Double;
        } else if (c == '\'') {
            quote = Quote::Single;
        } else {
            buf[w++] = c;
        }
        r++;
    }
}

}  // namespace

bool splitArgsInPlace(char *p, size_t len, std::vector<std::pair<size_t, size_t>> &spans) {
    if (const void *nul = memchr(p, '\0', len)) len = static_cast<const char *>(nul) - p;
    const size_t kept = spans.size();
    size_t r = 0;
    for (;;) {
        while (r < len && isSpace(p[r])) r++;
        if (r == len) return true;
        size_t start = r, w = r;
        if (!readWord(p, len, r, w)) {
            spans.resize(kept);
            return false;
        }
        spans.emplace_back(start, w - start);
    }
}

bool splitArgs(std::string_view line, std::vector<std::string> &out) {
    std::string buf(line);
    std::vector<std::pair<size_t, size_t>> spans;
    out.clear();
    if (!splitArgsInPlace(buf.data(), buf.size(), spans)) return false;
    for (auto [off, len] : spans) out.emplace_back(buf, off, len);
    return true;
}

void catRepr(std::string &dst, std::string_view s) {
    static constexpr char hex[] = "0123456789abcdef";
    dst += '"';
    for (char c : s) {
        switch (c) {
        case '\\': dst += "\\\\"; break;
        case '"': dst += "\\\""; break;
        case '\n': dst += "\\n"; break;
        case '\r': dst += "\\r"; break;
        case '\t': dst += "\\t"; break;
        case '\a': dst += "\\a"; break;
        case '\b': dst += "\\b"; break;
        default:
            if (c >= 0x20 && c <= 0x7e) {
                dst += c;
            } else {
                const auto b = static_cast<unsigned char>(c);
                dst += "\\x";
                dst += hex[b >> 4];
                dst += hex[b & 0xf];
            }
        }
    }
    dst += '"';
}

/* ------------------------------------------------------------------------
 * Case and randomness
 * ---------------------------------------------------------------------- */

std::string toLower(std::string_view s) {
    std::string out(s);
    for (char &c : out) c = static_cast<char>(foldCase(c));
    return out;
}

bool strEqualNoCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); i++)
        if (foldCase(a[i]) != foldCase(b[i])) return false;
    return true;
}

void getRandomHexChars(char *p, size_t len) {
    static constexpr char hex[] = "0123456789abcdef";
    std::random_device entropy; /* getrandom() on Linux: unpredictable, unlike a seeded PRNG */
    while (len) {
        unsigned int bits = entropy();
        for (int i = 0; i < 8 && len; i++, len--, bits >>= 4) *p++ = hex[bits & 0xf];
    }
}

int fsyncFileDir(const char *filename) {
    /* dirname() may write into its argument. */
    char path[PATH_MAX + 1];
    size_t len = strlen(filename);
    if (len > PATH_MAX) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(path, filename, len + 1);
    int dir_fd = open(dirname(path), O_RDONLY | O_CLOEXEC);
    if (dir_fd == -1) return errno == EISDIR ? 0 : -1;
    if (fsync(dir_fd) == -1 && errno != EBADF && errno != EINVAL) {
        int saved_errno = errno;
        close(dir_fd);
        errno = saved_errno;
        return -1;
    }
    close(dir_fd);
    return 0;
}

bool fileExist(const std::string &filename) {
    struct stat st;
    return stat(filename.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool dirExists(const std::string &dname) {
    struct stat st;
    return stat(dname.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

int dirCreateIfMissing(const std::string &dname) {
    if (mkdir(dname.c_str(), 0755) == 0 || (errno == EEXIST && dirExists(dname))) return 0;
    if (errno == EEXIST) errno = ENOTDIR;
    return -1;
}

std::string makePath(std::string_view path, std::string_view filename) {
    std::string full(path);
    if (!full.empty() && full.back() != '/') full += '/';
    full += filename;
    return full;
}

bool pathIsBaseName(std::string_view path) { return path.find('/') == std::string_view::npos && path != ".."; }

void catLengthLine(std::string &dst, char prefix, size_t n) {
    char buf[LONG_STR_SIZE + 3];
    buf[0] = prefix;
    int len = ull2string(buf + 1, sizeof(buf) - 1, n) + 1;
    buf[len++] = '\r';
    buf[len++] = '\n';
    dst.append(buf, len);
}

void catBulk(std::string &dst, std::string_view arg) {
    catLengthLine(dst, '$', arg.size());
    dst.append(arg);
    dst.append("\r\n", 2);
}

void catAppendOnlyGenericCommand(std::string &dst, std::span<const std::string_view> argv) {
    catLengthLine(dst, '*', argv.size());
    for (std::string_view arg : argv) catBulk(dst, arg);
}

void catSelectCommand(std::string &dst, int dbid) {
    char id[LONG_STR_SIZE];
    std::string_view select[] = {"SELECT", std::string_view(id, ll2string(id, sizeof(id), dbid))};
    catAppendOnlyGenericCommand(dst, select);
}
