/* fsync_shim.cpp — an LD_PRELOAD library that lets a test watch, and break,
 * what a server does to its files: build/libfsync_shim.so (the Makefile).
 *
 * A kill -9 never loses the page cache, so a crash test cannot tell a server
 * that fsyncs from one that does not. This shim can: it interposes write,
 * fsync, fdatasync and rename, and for each call on a regular file or a
 * directory appends one line to an event log, after the real call returned:
 *
 *   write pid=P tid=T fd=F ino=I size=S ret=R err=E n=N path=/abs/file
 *   fdatasync pid=P tid=T fd=F ino=I size=S ret=R err=E path=/abs/file
 *   fsync pid=P tid=T fd=F ino=I size=S ret=R err=E path=/abs/dir
 *   rename pid=P tid=T ino=I ret=R err=E from=/abs/a to=/abs/b
 *
 * size is the file's size after a write, and before an fsync (so a
 * successful one made at least that much durable), ino identifies the file across a rename (the path of an
 * fd is read from /proc/self/fd at the call, so it follows renames), err is
 * the errno name when ret is -1 ("-" otherwise). Sockets and pipes pass
 * through unlogged.
 *
 * Environment:
 *   FSYNC_SHIM_LOG  the event log (appended; one write(2) per line with
 *                   O_APPEND, so the lines of a forked child, the bio thread
 *                   and the main thread never interleave).
 *   FSYNC_SHIM_CTL  a control file, read again at every call, so a test can
 *                   inject a fault after start-up and lift it later. One rule
 *                   a line:   <op> <ERRNO> <path-substring> [<max-size>]
 *                   op: write, fsync, fdatasync, sync (either fsync), rename
 *                   (substring of the source path); ERRNO: EIO, ENOSPC,
 *                   EDQUOT, EROFS or a number. A write rule with a max-size is
 *                   a disk that fills up: the file may grow to max-size bytes
 *                   (the write that crosses it is short), past that every
 *                   write fails. An empty or missing file injects nothing.
 *                   A rule can also freeze the process at a chosen step:
 *                            stop <op> <path-substring>
 *                   makes the calling process log
 *                     stop pid=P tid=T call=<op> path=/abs/file
 *                   and stop itself (SIGSTOP, the whole process) right
 *                   before the real call, so a test sees /proc/P/stat in
 *                   state T and can kill -9 it there: a crash at that very
 *                   step, an event and not a sleep. After a SIGCONT the call
 *                   goes on (clear the rule first, or the next matching call
 *                   stops again). The first matching line decides; a
 *                   path-substring ending in '$' must end the path
 *                   ("appendonlydir$": the directory, not the files in it).
 *
 * The shim must be callable from any thread, from a child between fork and
 * _exit, and before main: it keeps no state but the real functions'
 * addresses, allocates nothing, and does its own I/O with raw syscalls
 * (its log writes must not come back through its own write()).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>

namespace {

using write_fn = ssize_t (*)(int, const void *, size_t);
using sync_fn = int (*)(int);
using rename_fn = int (*)(const char *, const char *);

template <typename Fn>
Fn realFunction(const char *name) {
    return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}

/* ------------------------------------------------------------------------
 * Raw I/O, bypassing libc's (interposed) wrappers.
 * ---------------------------------------------------------------------- */
ssize_t rawWrite(int fd, const void *buf, size_t n) { return syscall(SYS_write, fd, buf, n); }
int rawOpen(const char *path, int flags, int mode = 0) {
    return static_cast<int>(syscall(SYS_openat, AT_FDCWD, path, flags | O_CLOEXEC, mode));
}
void rawClose(int fd) { syscall(SYS_close, fd); }

/* A fixed buffer to build one log line in. */
struct Line {
    char buf[3 * 4096 + 512];
    size_t len = 0;

    Line &str(const char *s) {
        while (*s && len < sizeof(buf) - 1) buf[len++] = *s++;
        return *this;
    }
    Line &num(long long v) {
        char tmp[24];
        int i = 0;
        unsigned long long u = v < 0 ? 0ULL - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
        do tmp[i++] = static_cast<char>('0' + u % 10);
        while (u /= 10);
        if (v < 0) tmp[i++] = '-';
        while (i && len < sizeof(buf) - 1) buf[len++] = tmp[--i];
        return *this;
    }
    Line &kv(const char *key, long long v) { return str(" ").str(key).str("=").num(v); }
    Line &kv(const char *key, const char *v) { return str(" ").str(key).str("=").str(v); }
};

struct ErrnoName {
    int code;
    const char *name;
};
constexpr ErrnoName kErrnos[] = {{EIO, "EIO"},     {ENOSPC, "ENOSPC"}, {EDQUOT, "EDQUOT"}, {EROFS, "EROFS"},
                                 {EBADF, "EBADF"}, {EINVAL, "EINVAL"}, {EINTR, "EINTR"},   {ENOENT, "ENOENT"}};

const char *errnoName(int e, char *scratch) {
    for (const ErrnoName &n : kErrnos)
        if (n.code == e) return n.name;
    Line l;
    l.num(e);
    memcpy(scratch, l.buf, l.len);
    scratch[l.len] = '\0';
    return scratch;
}

int errnoFromName(const char *s, size_t len) {
    for (const ErrnoName &n : kErrnos)
        if (strlen(n.name) == len && memcmp(n.name, s, len) == 0) return n.code;
    int v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return 0;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

/* What an fd refers to, if it is a file or a directory. */
struct FileInfo {
    bool tracked = false; /* a regular file or a directory */
    ino_t ino = 0;
    off_t size = 0;
    char path[4096] = "?";
};

FileInfo describeFd(int fd) {
    FileInfo fi;
    struct stat st;
    if (syscall(SYS_fstat, fd, &st) != 0) return fi;
    fi.tracked = S_ISREG(st.st_mode) || S_ISDIR(st.st_mode);
    fi.ino = st.st_ino;
    fi.size = st.st_size;
    if (!fi.tracked) return fi;
    Line proc;
    proc.str("/proc/self/fd/").num(fd);
    proc.buf[proc.len] = '\0';
    ssize_t n = syscall(SYS_readlink, proc.buf, fi.path, sizeof(fi.path) - 1);
    if (n > 0) fi.path[n] = '\0';
    return fi;
}

/* `path` made absolute against the cwd, into `out`. */
void absolutePath(const char *path, char *out, size_t cap) {
    size_t len = 0;
    if (path[0] != '/' && syscall(SYS_getcwd, out, cap) > 0) {
        len = strlen(out);
        if (len + 1 < cap) out[len++] = '/';
    }
    for (const char *p = path; *p && len < cap - 1; p++) out[len++] = *p;
    out[len] = '\0';
}

/* ------------------------------------------------------------------------
 * The control file.
 * ---------------------------------------------------------------------- */
struct Fault {
    int err = 0;         /* 0: none */
    long long maxSize = -1; /* write: the size the file may grow to; -1: none */
    bool stop = false;   /* a stop rule: freeze before the call */
};

bool opMatches(const char *rule, size_t len, const char *op) {
    if (len == 4 && memcmp(rule, "sync", 4) == 0) return strcmp(op, "fsync") == 0 || strcmp(op, "fdatasync") == 0;
    return strlen(op) == len && memcmp(rule, op, len) == 0;
}

/* `needle` (nlen bytes) occurs in `hay`; with a trailing '$', at its end. */
bool contains(const char *hay, const char *needle, size_t nlen) {
    if (nlen > 0 && needle[nlen - 1] == '$') {
        size_t hlen = strlen(hay);
        return hlen >= nlen - 1 && memcmp(hay + hlen - (nlen - 1), needle, nlen - 1) == 0;
    }
    if (nlen == 0) return true;
    for (const char *p = hay; *p; p++)
        if (strncmp(p, needle, nlen) == 0) return true;
    return false;
}

/* The first rule of FSYNC_SHIM_CTL for `op` on `path`. */
Fault lookupFault(const char *op, const char *path) {
    Fault f;
    const char *ctl = getenv("FSYNC_SHIM_CTL");
    if (!ctl || !*ctl) return f;
    int fd = rawOpen(ctl, O_RDONLY);
    if (fd < 0) return f;
    char buf[4096];
    ssize_t n = syscall(SYS_read, fd, buf, sizeof(buf) - 1);
    rawClose(fd);
    if (n <= 0) return f;
    buf[n] = '\0';
    for (char *line = buf; *line;) {
        char *end = strchr(line, '\n');
        if (end) *end = '\0';
        const char *word[4] = {};
        size_t wlen[4] = {};
        int words = 0;
        for (char *p = line; *p && words < 4;) {
            while (*p == ' ' || *p == '\t') p++;
            if (!*p) break;
            word[words] = p;
            while (*p && *p != ' ' && *p != '\t') p++;
            wlen[words] = static_cast<size_t>(p - word[words]);
            words++;
        }
        bool isStop = wlen[0] == 4 && memcmp(word[0], "stop", 4) == 0;
        if (isStop && words >= 3 && opMatches(word[1], wlen[1], op) && contains(path, word[2], wlen[2])) {
            f.stop = true;
            return f;
        }
        if (!isStop && words >= 3 && opMatches(word[0], wlen[0], op) && contains(path, word[2], wlen[2])) {
            f.err = errnoFromName(word[1], wlen[1]);
            if (words == 4) {
                f.maxSize = 0;
                for (size_t i = 0; i < wlen[3]; i++) f.maxSize = f.maxSize * 10 + (word[3][i] - '0');
            }
            return f;
        }
        if (!end) break;
        line = end + 1;
    }
    return f;
}

/* ------------------------------------------------------------------------
 * The event log.
 * ---------------------------------------------------------------------- */
void logLine(Line &l) {
    const char *path = getenv("FSYNC_SHIM_LOG");
    if (!path || !*path) return;
    if (l.len >= sizeof(l.buf) - 1) l.len = sizeof(l.buf) - 2; /* a cut path still ends its line */
    l.buf[l.len++] = '\n';
    int fd = rawOpen(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0) return;
    (void)rawWrite(fd, l.buf, l.len);
    rawClose(fd);
}

Line &header(Line &l, const char *op) {
    return l.str(op).kv("pid", getpid()).kv("tid", static_cast<long long>(syscall(SYS_gettid)));
}

void logResult(Line &l, ssize_t ret, int err) {
    char scratch[16];
    l.kv("ret", static_cast<long long>(ret)).kv("err", ret == -1 ? errnoName(err, scratch) : "-");
}

void logFdCall(const char *op, int fd, const FileInfo &fi, ssize_t ret, int err, long long n = -1) {
    Line l;
    header(l, op).kv("fd", fd).kv("ino", static_cast<long long>(fi.ino)).kv("size", fi.size);
    logResult(l, ret, err);
    if (n >= 0) l.kv("n", n);
    l.kv("path", fi.path);
    logLine(l);
}

/* A stop rule matched: says so in the log, then stops the whole process
 * (a signal to the calling thread, so it stops before going on). */
void stopHere(const char *op, const char *path) {
    Line l;
    header(l, "stop").kv("call", op).kv("path", path);
    logLine(l);
    syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), SIGSTOP);
}

/* The rule for `op` on `path`, after stopping there if it says so. */
Fault faultAt(const char *op, const char *path) {
    Fault f = lookupFault(op, path);
    if (f.stop) stopHere(op, path);
    return f;
}

/* fsync and fdatasync: the injected error, or the real call's result. */
int syncCall(const char *op, sync_fn real, int fd) {
    FileInfo fi = describeFd(fd);
    Fault f = fi.tracked ? faultAt(op, fi.path) : Fault{};
    int ret = f.err ? -1 : real(fd);
    int err = f.err ? f.err : errno;
    if (fi.tracked) logFdCall(op, fd, fi, ret, err);
    errno = err;
    return ret;
}

}  // namespace

extern "C" {

ssize_t write(int fd, const void *buf, size_t count) {
    static write_fn real = realFunction<write_fn>("write");
    FileInfo fi = describeFd(fd);
    if (!fi.tracked) return real(fd, buf, count);
    Fault f = faultAt("write", fi.path);
    ssize_t ret;
    int err = 0;
    if (f.err && f.maxSize < 0) {
        ret = -1, err = f.err;
    } else {
        /* A disk that fills up: what still fits goes, the rest fails. */
        size_t room = count;
        if (f.err) {
            off_t at = (fcntl(fd, F_GETFL) & O_APPEND) ? fi.size : lseek(fd, 0, SEEK_CUR);
            long long left = f.maxSize - static_cast<long long>(at);
            room = left <= 0 ? 0 : static_cast<size_t>(left) < count ? static_cast<size_t>(left) : count;
        }
        if (room == 0 && count > 0) {
            ret = -1, err = f.err;
        } else {
            ret = real(fd, buf, room);
            err = errno;
        }
    }
    logFdCall("write", fd, describeFd(fd), ret, err, static_cast<long long>(count));
    errno = err;
    return ret;
}

int fsync(int fd) {
    static sync_fn real = realFunction<sync_fn>("fsync");
    return syncCall("fsync", real, fd);
}

int fdatasync(int fd) {
    static sync_fn real = realFunction<sync_fn>("fdatasync");
    return syncCall("fdatasync", real, fd);
}

int rename(const char *from, const char *to) {
    static rename_fn real = realFunction<rename_fn>("rename");
    char absFrom[4096], absTo[4096];
    absolutePath(from, absFrom, sizeof(absFrom));
    absolutePath(to, absTo, sizeof(absTo));
    struct stat st;
    long long ino = syscall(SYS_newfstatat, AT_FDCWD, from, &st, AT_SYMLINK_NOFOLLOW) == 0
                        ? static_cast<long long>(st.st_ino)
                        : 0;
    Fault f = faultAt("rename", absFrom);
    int ret = f.err ? -1 : real(from, to);
    int err = f.err ? f.err : errno;
    Line l;
    header(l, "rename").kv("ino", ino);
    logResult(l, ret, err);
    l.kv("from", absFrom).kv("to", absTo);
    logLine(l);
    errno = err;
    return ret;
}

}  // extern "C"
