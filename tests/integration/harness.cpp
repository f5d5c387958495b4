/* harness.cpp — the integration-test harness: server processes, RESP
 * connections, helper processes and temporary files (see harness.h). */
#include "integration/harness.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

namespace itest {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kStartAttempts = 5; /* a free port can be taken between pick and bind */

std::string errnoText(const char *what) {
    return std::string(what) + ": " + std::strerror(errno);
}

/* Owns one file descriptor. */
class UniqueFd {
public:
    explicit UniqueFd(int fd = -1) : fd_(fd) {}
    ~UniqueFd() { reset(); }
    UniqueFd(const UniqueFd &) = delete;
    UniqueFd &operator=(const UniqueFd &) = delete;
    int get() const { return fd_; }
    int release() { int fd = fd_; fd_ = -1; return fd; }
    void reset(int fd = -1) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = fd;
    }

private:
    int fd_;
};

/* Once per test process: a write to a socket or pipe the peer closed must be
 * an error, not a SIGPIPE that kills the test binary; and 1,000 connections
 * need more descriptors than the usual soft limit of 1,024 (the server
 * inherits the raised limit too, as it would from a shell with ulimit -n). */
void prepareProcess() {
    static const bool done = [] {
        ::signal(SIGPIPE, SIG_IGN);
        rlimit rl{};
        if (::getrlimit(RLIMIT_NOFILE, &rl) == 0) {
            rlim_t want = rl.rlim_max == RLIM_INFINITY ? 65536 : std::min<rlim_t>(rl.rlim_max, 65536);
            if (want > rl.rlim_cur) {
                rl.rlim_cur = want;
                ::setrlimit(RLIMIT_NOFILE, &rl);
            }
        }
        return true;
    }();
    (void)done;
}

int statusToCode(int status) {
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return -1;
}

std::string joinArgs(const std::vector<std::string> &argv) {
    std::string s;
    for (const auto &a : argv) {
        if (!s.empty()) s += ' ';
        s += a.empty() ? "''" : a;
    }
    return s;
}

/* Our environment with each "NAME=value" of `extra` set (replacing NAME). */
std::vector<std::string> environmentWith(const std::vector<std::string> &extra) {
    auto name = [](std::string_view var) { return var.substr(0, var.find('=')); };
    std::vector<std::string> env(extra);
    for (char **e = environ; *e; e++)
        if (std::none_of(extra.begin(), extra.end(), [&](const std::string &x) { return name(x) == name(*e); }))
            env.emplace_back(*e);
    return env;
}

/* fork + exec with the given standard descriptors, the program getting our
 * environment with `env` added (environmentWith). Everything the child
 * needs is prepared before fork(): between fork and exec a child of a
 * threaded process may only make async-signal-safe calls. */
pid_t spawn(const std::vector<std::string> &argv, const std::string &cwd, int in, int out,
            int err, const std::vector<std::string> &env = {}) {
    std::vector<char *> cargv;
    for (const auto &a : argv) cargv.push_back(const_cast<char *>(a.c_str()));
    cargv.push_back(nullptr);
    const char *dir = cwd.empty() ? nullptr : cwd.c_str();
    const std::vector<std::string> envStrings = environmentWith(env);
    std::vector<char *> cenv;
    for (const auto &e : envStrings) cenv.push_back(const_cast<char *>(e.c_str()));
    cenv.push_back(nullptr);

    pid_t pid = ::fork();
    if (pid < 0) throw HarnessError(errnoText("fork"));
    if (pid == 0) {
        ::dup2(in, 0);
        ::dup2(out, 1);
        ::dup2(err, 2);
        /* SIG_IGN survives exec: give the program the default SIGPIPE back so
         * a server that forgets to ignore it is not shielded by the harness. */
        struct sigaction sa{};
        sa.sa_handler = SIG_DFL;
        ::sigaction(SIGPIPE, &sa, nullptr);
        sigset_t none;
        sigemptyset(&none);
        ::sigprocmask(SIG_SETMASK, &none, nullptr);
        if (dir && ::chdir(dir) < 0) ::_exit(126);
        ::execvpe(cargv[0], cargv.data(), cenv.data());
        const char msg[] = "harness: exec failed\n";
        (void)!::write(2, msg, sizeof msg - 1);
        ::_exit(127);
    }
    return pid;
}

std::string tail(const std::string &s, size_t max = 20000) {
    if (s.size() <= max) return s;
    return "[... " + std::to_string(s.size() - max) + " bytes cut ...]\n" + s.substr(s.size() - max);
}

bool waitFd(int fd, short events, Ms timeout) {
    auto deadline = Clock::now() + timeout;
    for (;;) {
        auto left = std::chrono::duration_cast<Ms>(deadline - Clock::now()).count();
        pollfd p{fd, events, 0};
        int r = ::poll(&p, 1, left > 0 ? static_cast<int>(left) : 0);
        if (r > 0) return true;
        if (r == 0) return false;
        if (errno != EINTR) throw HarnessError(errnoText("poll"));
    }
}

}  // namespace

const char *cppredisServerBin() {
    static const std::string path =
        (std::filesystem::read_symlink("/proc/self/exe").parent_path() / "cppredis-server").string();
    return path.c_str();
}

/* Defined only where ASan's runtime is linked in; weak, so null elsewhere. */
extern "C" void __asan_init() __attribute__((weak));
bool sanitizedBuild() { return __asan_init != nullptr; }

int pickFreePort() {
    UniqueFd s(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (s.get() < 0) throw HarnessError(errnoText("socket"));
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (::bind(s.get(), reinterpret_cast<sockaddr *>(&a), sizeof a) < 0 ||
        ::getsockname(s.get(), reinterpret_cast<sockaddr *>(&a), &len) < 0)
        throw HarnessError(errnoText("bind 127.0.0.1:0"));
    return ntohs(a.sin_port);
}

/* ------------------------------------------------------------------------
 * Encoding and printing.
 * ---------------------------------------------------------------------- */
std::string encodeCommand(const Args &args) {
    std::string s = "*" + std::to_string(args.size()) + "\r\n";
    for (const auto &a : args) {
        s += '$';
        s += std::to_string(a.size());
        s += "\r\n";
        s += a;
        s += "\r\n";
    }
    return s;
}

std::string escape(std::string_view bytes, size_t max) {
    std::string s;
    for (size_t i = 0; i < bytes.size() && i < max; i++) {
        unsigned char c = static_cast<unsigned char>(bytes[i]);
        switch (c) {
        case '\r': s += "\\r"; break;
        case '\n': s += "\\n"; break;
        case '\t': s += "\\t"; break;
        case '"': s += "\\\""; break;
        case '\\': s += "\\\\"; break;
        default:
            if (c >= 0x20 && c < 0x7f) {
                s += static_cast<char>(c);
            } else {
                char hex[5];
                std::snprintf(hex, sizeof hex, "\\x%02x", c);
                s += hex;
            }
        }
    }
    if (bytes.size() > max) s += "...(" + std::to_string(bytes.size() - max) + " more bytes)";
    return s;
}

std::string toString(const Reply &r) {
    switch (r.type) {
    case Reply::Type::Status: return r.str;
    case Reply::Type::Error: return "(error) " + r.str;
    case Reply::Type::Integer: return "(integer) " + std::to_string(r.integer);
    case Reply::Type::Bulk: return "\"" + escape(r.str) + "\"";
    case Reply::Type::Nil: return "(nil)";
    case Reply::Type::NilArray: return "(nil array)";
    case Reply::Type::Null: return "(null)";
    case Reply::Type::Double: return "(double) " + r.str;
    case Reply::Type::BigNumber: return "(big number) " + r.str;
    case Reply::Type::Boolean: return r.integer ? "(true)" : "(false)";
    case Reply::Type::Verbatim: return r.format + ":\"" + escape(r.str) + "\"";
    case Reply::Type::BlobError: return "(blob error) " + escape(r.str);
    case Reply::Type::Array:
    case Reply::Type::Set:
    case Reply::Type::Push:
    case Reply::Type::Map:
    case Reply::Type::Attribute: {
        const char *open = r.type == Reply::Type::Array ? "["
                           : r.type == Reply::Type::Set ? "~{"
                           : r.type == Reply::Type::Push ? ">["
                           : r.type == Reply::Type::Map ? "%{"
                                                         : "|{";
        const char *close = r.type == Reply::Type::Array || r.type == Reply::Type::Push ? "]" : "}";
        bool pairs = r.type == Reply::Type::Map || r.type == Reply::Type::Attribute;
        std::string s = open;
        for (size_t i = 0; i < r.elements.size(); i++) {
            if (i) s += pairs && i % 2 ? ": " : ", ";
            s += toString(r.elements[i]);
        }
        return s + close;
    }
    }
    return "?";
}

std::ostream &operator<<(std::ostream &os, const Reply &r) { return os << toString(r); }
void PrintTo(const Reply &r, std::ostream *os) { *os << toString(r); }

/* ------------------------------------------------------------------------
 * RespConn
 * ---------------------------------------------------------------------- */
RespConn::RespConn(int port, Ms timeout) : RespConn(LoopbackRoute{}, port, timeout) {}

RespConn::RespConn(const LoopbackRoute &route, int port, Ms timeout) : timeout_(timeout) {
    prepareProcess();
    UniqueFd s(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    if (s.get() < 0) throw HarnessError(errnoText("socket"));
    int one = 1;
    ::setsockopt(s.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (!route.from.empty()) {
        sockaddr_in src{};
        src.sin_family = AF_INET;
        if (::inet_pton(AF_INET, route.from.c_str(), &src.sin_addr) != 1)
            throw HarnessError("bad source address " + route.from);
        if (::bind(s.get(), reinterpret_cast<sockaddr *>(&src), sizeof src) < 0)
            throw HarnessError(errnoText(("bind " + route.from).c_str()));
    }
    sockaddr_in a{};
    a.sin_family = AF_INET;
    if (::inet_pton(AF_INET, route.to.c_str(), &a.sin_addr) != 1) throw HarnessError("bad address " + route.to);
    a.sin_port = htons(static_cast<uint16_t>(port));
    const std::string where = "connect to " + route.to + ":" + std::to_string(port);
    if (::connect(s.get(), reinterpret_cast<sockaddr *>(&a), sizeof a) < 0) {
        if (errno != EINPROGRESS) throw HarnessError(errnoText(where.c_str()));
        if (!waitFd(s.get(), POLLOUT, timeout_))
            throw HarnessError(where + ": timed out after " + std::to_string(timeout_.count()) + " ms");
        int err = 0;
        socklen_t len = sizeof err;
        ::getsockopt(s.get(), SOL_SOCKET, SO_ERROR, &err, &len);
        if (err) throw HarnessError(where + ": " + std::strerror(err));
    }
    fd_ = s.release();
}

RespConn::~RespConn() { close(); }

RespConn::RespConn(RespConn &&o) noexcept
    : fd_(std::exchange(o.fd_, -1)), timeout_(o.timeout_), in_(std::move(o.in_)),
      pos_(std::exchange(o.pos_, 0)) {}

RespConn &RespConn::operator=(RespConn &&o) noexcept {
    if (this != &o) {
        close();
        fd_ = std::exchange(o.fd_, -1);
        timeout_ = o.timeout_;
        in_ = std::move(o.in_);
        pos_ = std::exchange(o.pos_, 0);
    }
    return *this;
}

void RespConn::close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

std::string RespConn::localAddr() const {
    sockaddr_in a{};
    socklen_t len = sizeof a;
    if (::getsockname(fd_, reinterpret_cast<sockaddr *>(&a), &len) < 0)
        throw HarnessError(errnoText("getsockname"));
    char ip[INET_ADDRSTRLEN];
    ::inet_ntop(AF_INET, &a.sin_addr, ip, sizeof ip);
    return std::string(ip) + ":" + std::to_string(ntohs(a.sin_port));
}

void RespConn::send(std::string_view raw) {
    size_t off = 0;
    while (off < raw.size()) {
        ssize_t n = ::send(fd_, raw.data() + off, raw.size() - off, MSG_NOSIGNAL);
        if (n > 0) {
            off += static_cast<size_t>(n);
        } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
            if (!waitFd(fd_, POLLOUT, timeout_))
                throw HarnessError("send: the server read nothing for " +
                                   std::to_string(timeout_.count()) + " ms (" + std::to_string(off) +
                                   " of " + std::to_string(raw.size()) + " bytes sent)");
        } else if (errno != EINTR) {
            throw HarnessError(errnoText("send") + " after " + std::to_string(off) + " of " +
                               std::to_string(raw.size()) + " bytes");
        }
    }
}

void RespConn::compact() {
    if (pos_ == in_.size()) {
        in_.clear();
        pos_ = 0;
    } else if (pos_ >= 64 * 1024 && pos_ * 2 >= in_.size()) {
        in_.erase(0, pos_);
        pos_ = 0;
    }
}

bool RespConn::fill(const char *what) {
    if (fd_ < 0) throw HarnessError(std::string("reading ") + what + " from a closed connection");
    compact();
    /* One receive buffer per thread, not per connection: a thousand idle
     * connections must stay cheap. */
    thread_local std::vector<char> buf(256 * 1024);
    for (;;) {
        if (!waitFd(fd_, POLLIN, timeout_))
            throw HarnessError("timed out after " + std::to_string(timeout_.count()) +
                               " ms waiting for " + what + "; unconsumed bytes: \"" +
                               escape(std::string_view(in_).substr(pos_)) + "\"");
        ssize_t n = ::recv(fd_, buf.data(), buf.size(), 0);
        if (n > 0) {
            in_.append(buf.data(), static_cast<size_t>(n));
            return true;
        }
        if (n == 0 || errno == ECONNRESET) return false;
        if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)
            throw HarnessError(errnoText("recv"));
    }
}

void RespConn::need(size_t n, const char *what) {
    while (in_.size() - pos_ < n) {
        if (!fill(what))
            throw HarnessError(std::string("the server closed the connection while we waited for ") +
                               what + "; unconsumed bytes: \"" +
                               escape(std::string_view(in_).substr(pos_)) + "\"");
    }
}

std::string RespConn::takeLine(std::string *capture) {
    size_t scanned = 0; /* bytes after pos_ known to hold no CRLF start */
    for (;;) {
        size_t at = in_.find("\r\n", pos_ + scanned);
        if (at != std::string::npos) {
            std::string line = in_.substr(pos_, at - pos_);
            if (capture) capture->append(in_, pos_, at + 2 - pos_);
            pos_ = at + 2;
            return line;
        }
        scanned = in_.size() - pos_ > 0 ? in_.size() - pos_ - 1 : 0;
        if (!fill("a CRLF-terminated line"))
            throw HarnessError("the server closed the connection in the middle of a line: \"" +
                               escape(std::string_view(in_).substr(pos_)) + "\"");
    }
}

std::string RespConn::take(size_t n, std::string *capture) {
    need(n, "the rest of a reply");
    std::string s = in_.substr(pos_, n);
    if (capture) capture->append(s);
    pos_ += n;
    return s;
}

std::string RespConn::readRaw(size_t n) { return take(n, nullptr); }
std::string RespConn::readLine() { return takeLine(nullptr); }

Reply RespConn::parse(std::string &capture) {
    const size_t start = capture.size();
    const std::string line = takeLine(&capture);
    auto number = [&](std::string_view digits) {
        long long v = 0;
        auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
        if (ec != std::errc() || end != digits.data() + digits.size())
            throw HarnessError("bad number in reply line \"" + escape(line) + "\"");
        return v;
    };
    if (line.empty()) throw HarnessError("empty line where a reply was expected");
    Reply r;
    const std::string_view rest = std::string_view(line).substr(1);
    switch (line[0]) {
    case '+': r.type = Reply::Type::Status; r.str = rest; break;
    case '-': r.type = Reply::Type::Error; r.str = rest; break;
    case ':': r.type = Reply::Type::Integer; r.integer = number(rest); break;
    case '$':
    case '!':
    case '=': {
        long long len = number(rest);
        if (len == -1 && line[0] == '$') {
            r.type = Reply::Type::Nil;
            break;
        }
        if (len < 0) throw HarnessError("bad bulk length in \"" + escape(line) + "\"");
        r.type = line[0] == '$' ? Reply::Type::Bulk : line[0] == '!' ? Reply::Type::BlobError : Reply::Type::Verbatim;
        r.str = take(static_cast<size_t>(len), &capture);
        if (take(2, &capture) != "\r\n")
            throw HarnessError("bulk string of length " + std::to_string(len) + " not followed by CRLF: \"" +
                               escape(capture.substr(start)) + "\"");
        if (r.type == Reply::Type::Verbatim) {
            if (r.str.size() < 4 || r.str[3] != ':')
                throw HarnessError("verbatim string without its format: \"" + escape(line) + "\"");
            r.format = r.str.substr(0, 3);
            r.str.erase(0, 4);
        }
        break;
    }
    case '*':
    case '~':
    case '>':
    case '%':
    case '|': {
        long long n = number(rest);
        if (n == -1 && line[0] == '*') {
            r.type = Reply::Type::NilArray;
            break;
        }
        if (n < 0) throw HarnessError("bad aggregate length in \"" + escape(line) + "\"");
        switch (line[0]) {
        case '*': r.type = Reply::Type::Array; break;
        case '~': r.type = Reply::Type::Set; break;
        case '>': r.type = Reply::Type::Push; break;
        case '%': r.type = Reply::Type::Map; break;
        default: r.type = Reply::Type::Attribute; break;
        }
        if (line[0] == '%' || line[0] == '|') n *= 2;
        r.elements.reserve(static_cast<size_t>(std::min(n, 1LL << 20)));
        for (long long i = 0; i < n; i++) r.elements.push_back(parse(capture));
        break;
    }
    case '_':
        if (!rest.empty()) throw HarnessError("bad null \"" + escape(line) + "\"");
        r.type = Reply::Type::Null;
        break;
    case ',': r.type = Reply::Type::Double; r.str = rest; break;
    case '(': r.type = Reply::Type::BigNumber; r.str = rest; break;
    case '#':
        if (rest != "t" && rest != "f") throw HarnessError("bad boolean \"" + escape(line) + "\"");
        r.type = Reply::Type::Boolean;
        r.integer = rest == "t";
        break;
    default:
        throw HarnessError("not a RESP reply: \"" + escape(line) + "\"");
    }
    r.raw = capture.substr(start);
    return r;
}

Reply RespConn::readReply() {
    std::string capture;
    return parse(capture);
}

std::string RespConn::readAllUntilClose() {
    while (fill("the server to close the connection")) {
    }
    std::string rest = in_.substr(pos_);
    in_.clear();
    pos_ = 0;
    return rest;
}

void RespConn::expectClosed() {
    try {
        std::string rest = readAllUntilClose();
        if (!rest.empty())
            ADD_FAILURE() << "expected the server to close the connection, but it sent \""
                          << escape(rest) << "\"";
    } catch (const HarnessError &e) {
        ADD_FAILURE() << e.what();
    }
}

bool RespConn::waitReadable(Ms wait) { return pos_ < in_.size() || waitFd(fd_, POLLIN, wait); }

/* ------------------------------------------------------------------------
 * TestServer
 * ---------------------------------------------------------------------- */
TestServer::TestServer(std::vector<std::string> args) { start(ServerOptions{.args = std::move(args)}); }
TestServer::TestServer(ServerOptions opts) { start(std::move(opts)); }

void TestServer::start(ServerOptions opts) {
    prepareProcess();
    /* The server runs in a directory of its own, so whatever it writes there
     * (dump.rdb from a default-configured real Redis, say) goes away with it. */
    std::string tmpl = (std::filesystem::temp_directory_path() / "cppredis-itest-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw HarnessError(errnoText("mkdtemp"));
    workdir_ = tmpl;
    std::string why;
    for (int attempt = 0; attempt < kStartAttempts; attempt++) {
        try {
            if (trySpawn(opts, why)) return;
        } catch (...) {
            std::filesystem::remove_all(workdir_);
            throw;
        }
        if (why.empty()) continue; /* the port was taken meanwhile: try another */
        std::filesystem::remove_all(workdir_);
        throw HarnessError(why);
    }
    std::filesystem::remove_all(workdir_);
    throw HarnessError("could not start " + opts.binary + ": every port tried was in use");
}

/* One start on a fresh port. True once the server is ready; false with an
 * empty `whyNot` if its port was in use, with the reason otherwise. */
bool TestServer::trySpawn(const ServerOptions &opts, std::string &whyNot) {
    whyNot.clear();
    port_ = pickFreePort();
    /* Redis reads the config file first, then the options in order (later
     * ones win), so a test's own arguments can override --bind. */
    std::vector<std::string> argv{opts.binary};
    if (!opts.configFile.empty()) argv.push_back(opts.configFile);
    argv.insert(argv.end(), {"--port", std::to_string(port_), "--bind", "127.0.0.1"});
    /* CPPREDIS_TEST_TRACE=<categories>: every cppredis under test traces
     * them, so a suite run so exercises each trace point it reaches (make
     * test runs a part of the suites so under ASan). A test's own arguments
     * come after and win. */
    if (const char *trace = std::getenv("CPPREDIS_TEST_TRACE"); trace && opts.binary == CPPREDIS_SERVER_BIN)
        argv.insert(argv.end(), {"--trace-events", trace});
    argv.insert(argv.end(), opts.args.begin(), opts.args.end());
    commandLine_ = joinArgs(argv);

    int pipefd[2];
    if (::pipe2(pipefd, O_CLOEXEC) < 0) throw HarnessError(errnoText("pipe2"));
    UniqueFd logRead(pipefd[0]), logWrite(pipefd[1]);
    if (::pipe2(wakeFd_, O_CLOEXEC) < 0) throw HarnessError(errnoText("pipe2"));
    UniqueFd devnull(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    try {
        pid_ = spawn(argv, workdir_, devnull.get(), logWrite.get(), logWrite.get(), opts.env);
    } catch (...) {
        ::close(wakeFd_[0]);
        ::close(wakeFd_[1]);
        throw;
    }
    logWrite.reset();
    logFd_ = logRead.release();
    reaped_ = false;
    stoppedByTest_ = false;
    exitCode_ = -1;
    {
        std::lock_guard lk(mu_);
        log_.clear();
        logEof_ = false;
    }
    drainThread_ = std::thread([this] { drainLog(); });

    bool ready, closed;
    {
        std::unique_lock lk(mu_);
        cv_.wait_for(lk, opts.readyTimeout, [&] {
            return log_.find(opts.readyLine) != std::string::npos || logEof_;
        });
        ready = log_.find(opts.readyLine) != std::string::npos;
        closed = logEof_;
    }
    if (ready) return true;

    const bool timedOut = !closed;
    if (closed) awaitExit(kStopTimeout);
    if (running()) {
        ::kill(pid_, SIGKILL);
        reap(true);
    }
    stopDrainThread();
    const std::string out = log();
    if (timedOut)
        throw HarnessError("server not ready after " + std::to_string(opts.readyTimeout.count()) +
                           " ms (no \"" + opts.readyLine + "\" in its log)\ncommand: " +
                           commandLine_ + "\nlog:\n" + tail(out));
    if (out.find("Address already in use") != std::string::npos) return false;
    whyNot = "server exited with status " + std::to_string(exitCode_) +
             " before it was ready\ncommand: " + commandLine_ + "\nlog:\n" + tail(out);
    return false;
}

/* The drain thread: keeps the pipe empty so a chatty server never blocks on
 * its log, and wakes waiters on every new chunk and at EOF. */
void TestServer::drainLog() {
    char buf[64 * 1024];
    auto append = [&](ssize_t n) {
        std::lock_guard lk(mu_);
        log_.append(buf, static_cast<size_t>(n));
        cv_.notify_all();
    };
    for (;;) {
        pollfd p[2] = {{logFd_, POLLIN, 0}, {wakeFd_[0], POLLIN, 0}};
        if (::poll(p, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (p[0].revents) {
            ssize_t n = ::read(logFd_, buf, sizeof buf);
            if (n > 0) {
                append(n);
                continue;
            }
            if (n < 0 && errno == EINTR) continue;
            break; /* EOF: the server (and anything it forked) is gone */
        }
        if (p[1].revents) {
            /* Asked to finish while something still holds the pipe open:
             * take what is there without waiting for more. */
            ::fcntl(logFd_, F_SETFL, O_NONBLOCK);
            ssize_t n;
            while ((n = ::read(logFd_, buf, sizeof buf)) > 0) append(n);
            break;
        }
    }
    std::lock_guard lk(mu_);
    logEof_ = true;
    cv_.notify_all();
}

void TestServer::stopDrainThread() {
    if (drainThread_.joinable()) {
        (void)!::write(wakeFd_[1], "x", 1);
        drainThread_.join();
    }
    for (int *fd : {&logFd_, &wakeFd_[0], &wakeFd_[1]}) {
        if (*fd >= 0) ::close(*fd);
        *fd = -1;
    }
}

int TestServer::reap(bool block) {
    if (pid_ <= 0 || reaped_) return exitCode_;
    int status = 0;
    pid_t r;
    do {
        r = ::waitpid(pid_, &status, block ? 0 : WNOHANG);
    } while (r < 0 && errno == EINTR);
    if (r == pid_) {
        reaped_ = true;
        exitCode_ = statusToCode(status);
    }
    return reaped_ ? exitCode_ : -1;
}

std::string TestServer::log() const {
    std::lock_guard lk(mu_);
    return log_;
}

bool TestServer::waitForLog(std::string_view needle, Ms wait) const {
    std::unique_lock lk(mu_);
    cv_.wait_for(lk, wait, [&] { return log_.find(needle) != std::string::npos || logEof_; });
    return log_.find(needle) != std::string::npos;
}

int TestServer::waitExit(Ms wait) {
    stoppedByTest_ = true;
    return awaitExit(wait);
}

int TestServer::awaitExit(Ms wait) {
    /* The usual event is EOF on the log pipe, which wakes us at once. The
     * process can only be reaped a moment after it closed its descriptors,
     * and a child it forked may hold the pipe open after it exited: hence
     * the short slices, each ending with a look at the process itself. */
    const auto deadline = Clock::now() + wait;
    while (reap(false) < 0) {
        const auto now = Clock::now();
        if (now >= deadline) return -1;
        std::unique_lock lk(mu_);
        if (logEof_) { /* the wait below would return at once: pace the loop */
            lk.unlock();
            std::this_thread::sleep_for(Ms{1});
            continue;
        }
        cv_.wait_until(lk, std::min(deadline, now + Ms{10}), [&] { return logEof_; });
    }
    /* Everything it wrote is in the pipe now: collect it before returning,
     * so that log() is complete for the caller. */
    stopDrainThread();
    return exitCode_;
}

int TestServer::stop(Ms timeout) {
    stoppedByTest_ = true;
    if (!running()) return exitCode_;
    ::kill(pid_, SIGTERM);
    int code = waitExit(timeout);
    if (code < 0) {
        ADD_FAILURE() << "server pid " << pid_ << " still running " << timeout.count()
                      << " ms after SIGTERM; killing it. log:\n"
                      << tail(log());
        kill9();
        code = exitCode_;
    }
    return code;
}

void TestServer::kill9() {
    stoppedByTest_ = true;
    if (!running()) return;
    ::kill(pid_, SIGKILL);
    reap(true);
    stopDrainThread();
}

TestServer::~TestServer() {
    if (pid_ > 0 && !reaped_) {
        /* Not stopped by the test: it must still be healthy and exit cleanly
         * (under ASan a leak or memory error makes the exit status non-zero). */
        int code = stop();
        EXPECT_EQ(code, 0) << "server exited with status " << code << "\ncommand: " << commandLine_
                           << "\nlog:\n"
                           << tail(log());
    }
    stopDrainThread();
    if (!workdir_.empty()) {
        std::error_code ec;
        std::filesystem::remove_all(workdir_, ec);
    }
}

/* ------------------------------------------------------------------------
 * RedisReference
 * ---------------------------------------------------------------------- */
RedisReference::RedisReference(std::vector<std::string> args) : TestServer(Deferred{}) {
    if (!available())
        throw HarnessError(std::string(kBinary) + " is missing: use REQUIRE_REDIS_REFERENCE()");
    std::vector<std::string> all{"--save", "", "--appendonly", "no"};
    all.insert(all.end(), args.begin(), args.end());
    start(ServerOptions{.args = std::move(all), .binary = kBinary});
}

bool RedisReference::available() { return ::access(kBinary, X_OK) == 0; }

void expectSameReplies(RespConn &ours, RespConn &ref, std::string_view request, int nreplies) {
    ours.send(request);
    ref.send(request);
    for (int i = 0; i < nreplies; i++) {
        Reply a = ours.readReply();
        Reply b = ref.readReply();
        EXPECT_EQ(escape(a.raw), escape(b.raw))
            << "reply #" << i << " to \"" << escape(request) << "\" differs (ours, then Redis's)";
    }
}

/* ------------------------------------------------------------------------
 * Processes and files.
 * ---------------------------------------------------------------------- */
ProcessResult runProcess(const std::vector<std::string> &argv, std::string_view input, Ms timeout) {
    prepareProcess();
    int in[2], out[2], err[2];
    if (::pipe2(in, O_CLOEXEC) < 0) throw HarnessError(errnoText("pipe2"));
    UniqueFd inR(in[0]), inW(in[1]);
    if (::pipe2(out, O_CLOEXEC) < 0) throw HarnessError(errnoText("pipe2"));
    UniqueFd outR(out[0]), outW(out[1]);
    if (::pipe2(err, O_CLOEXEC) < 0) throw HarnessError(errnoText("pipe2"));
    UniqueFd errR(err[0]), errW(err[1]);

    pid_t pid = spawn(argv, "", inR.get(), outW.get(), errW.get());
    inR.reset();
    outW.reset();
    errW.reset();
    ::fcntl(inW.get(), F_SETFL, O_NONBLOCK);
    if (input.empty()) inW.reset();

    ProcessResult res;
    const auto deadline = Clock::now() + timeout;
    size_t written = 0;
    char buf[64 * 1024];
    while (outR.get() >= 0 || errR.get() >= 0) {
        pollfd p[3] = {{outR.get(), POLLIN, 0}, {errR.get(), POLLIN, 0}, {inW.get(), POLLOUT, 0}};
        auto left = std::chrono::duration_cast<Ms>(deadline - Clock::now()).count();
        int r = ::poll(p, 3, left > 0 ? static_cast<int>(left) : 0);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
            throw HarnessError(joinArgs(argv) + ": not finished after " +
                               std::to_string(timeout.count()) + " ms\nstdout:\n" + tail(res.out) +
                               "\nstderr:\n" + tail(res.err));
        }
        UniqueFd *readers[2] = {&outR, &errR};
        std::string *sinks[2] = {&res.out, &res.err};
        for (int i = 0; i < 2; i++) {
            if (!p[i].revents) continue;
            ssize_t n = ::read(readers[i]->get(), buf, sizeof buf);
            if (n > 0) sinks[i]->append(buf, static_cast<size_t>(n));
            else if (n == 0 || errno != EINTR) readers[i]->reset();
        }
        if (p[2].revents) {
            ssize_t n = ::write(inW.get(), input.data() + written, input.size() - written);
            if (n > 0) written += static_cast<size_t>(n);
            if ((n < 0 && errno != EINTR && errno != EAGAIN) || written == input.size()) inW.reset();
        }
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    res.exitCode = statusToCode(status);
    return res;
}

bool haveProgram(const std::string &name) {
    if (name.find('/') != std::string::npos) return ::access(name.c_str(), X_OK) == 0;
    const char *path = std::getenv("PATH");
    std::string_view rest = path ? path : "/usr/bin:/bin";
    while (!rest.empty()) {
        size_t colon = rest.find(':');
        std::string dir(rest.substr(0, colon));
        if (::access((dir + "/" + name).c_str(), X_OK) == 0) return true;
        rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    }
    return false;
}

TempFile::TempFile(std::string_view contents, std::string_view suffix) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "cppredis-itest-XXXXXX").string();
    tmpl += suffix;
    UniqueFd fd(::mkstemps(tmpl.data(), static_cast<int>(suffix.size())));
    if (fd.get() < 0) throw HarnessError(errnoText("mkstemps"));
    path_ = tmpl;
    size_t off = 0;
    while (off < contents.size()) {
        ssize_t n = ::write(fd.get(), contents.data() + off, contents.size() - off);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            ::unlink(path_.c_str());
            throw HarnessError(errnoText("write") + " to " + path_);
        }
        off += static_cast<size_t>(n);
    }
}

TempFile::~TempFile() { ::unlink(path_.c_str()); }

TempDir::TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "cppredis-itest-dir-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw HarnessError(errnoText("mkdtemp"));
    path_ = tmpl;
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

std::string readFile(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

void writeFile(const std::string &path, std::string_view bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/* ------------------------------------------------------------------------
 * Driving a connection.
 * ---------------------------------------------------------------------- */
void pipeline(RespConn &c, const std::vector<Args> &cmds) {
    std::string out;
    for (const Args &a : cmds) out += encodeCommand(a);
    c.send(out);
    for (size_t i = 0; i < cmds.size(); i++) {
        Reply r = c.readReply();
        ASSERT_FALSE(r.isError()) << toString(r) << " for " << cmds[i][0];
    }
}

std::vector<std::string> scanAll(RespConn &c, const Args &command, const Args &options) {
    std::vector<std::string> seen;
    std::string cursor = "0";
    for (int calls = 0; calls < 100000; calls++) {
        Args args = command;
        args.push_back(cursor);
        args.insert(args.end(), options.begin(), options.end());
        Reply r = c.call(args);
        EXPECT_EQ(r.type, Reply::Type::Array) << r;
        if (r.elements.size() != 2) return seen;
        for (const Reply &e : r.elements[1].elements) seen.push_back(e.str);
        cursor = r.elements[0].str;
        if (cursor == "0") return seen;
    }
    ADD_FAILURE() << command[0] << " never returned cursor 0";
    return seen;
}

void waitMs(int ms) {
    auto until = Clock::now() + Ms(ms);
    while (Clock::now() < until) std::this_thread::yield();
}

bool isDigits(std::string_view s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

/* ------------------------------------------------------------------------
 * INFO and CLIENT LIST.
 * ---------------------------------------------------------------------- */
Info parseInfo(std::string_view text) {
    Info info;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find("\r\n", pos);
        if (end == std::string_view::npos) end = text.size();
        std::string line(text.substr(pos, end - pos));
        pos = end + 2;
        if (line.empty()) continue;
        if (line[0] == '#') {
            info.sections.push_back(line);
            continue;
        }
        size_t colon = line.find(':');
        EXPECT_NE(colon, std::string::npos) << "INFO line without a colon: " << line;
        if (colon != std::string::npos) info.fields[line.substr(0, colon)] = line.substr(colon + 1);
    }
    return info;
}

Info info(RespConn &c, const Args &sections) {
    Args args{"INFO"};
    args.insert(args.end(), sections.begin(), sections.end());
    Reply r = c.call(args);
    EXPECT_EQ(r.type, Reply::Type::Bulk) << r;
    return parseInfo(r.str);
}

std::string infoField(RespConn &c, const std::string &section, const std::string &field) {
    Info in = info(c, {section});
    auto it = in.fields.find(field);
    return it == in.fields.end() ? "" : it->second;
}

long long infoNumber(RespConn &c, const std::string &section, const std::string &field) {
    std::string v = infoField(c, section, field);
    if (v.empty()) {
        ADD_FAILURE() << "INFO " << section << " has no " << field;
        return -1;
    }
    return std::stoll(v);
}

std::vector<ClientFields> parseClientList(std::string_view text) {
    std::vector<ClientFields> out;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find('\n', pos);
        EXPECT_NE(end, std::string_view::npos) << "client line not ended by \\n: " << escape(text.substr(pos));
        if (end == std::string_view::npos) break;
        ClientFields fields;
        std::string_view line = text.substr(pos, end - pos);
        size_t p = 0;
        while (p <= line.size()) {
            size_t sp = line.find(' ', p);
            if (sp == std::string_view::npos) sp = line.size();
            std::string_view kv = line.substr(p, sp - p);
            size_t eq = kv.find('=');
            EXPECT_NE(eq, std::string_view::npos) << "field without '=' in: " << line;
            if (eq != std::string_view::npos) fields.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
            p = sp + 1;
        }
        out.push_back(std::move(fields));
        pos = end + 1;
    }
    return out;
}

std::string clientField(const ClientFields &line, std::string_view key) {
    for (const auto &[k, v] : line)
        if (k == key) return v;
    ADD_FAILURE() << "no field " << key;
    return {};
}

ClientFields clientListLine(RespConn &asker, std::string_view key, std::string_view value) {
    Reply r = asker.call({"CLIENT", "LIST"});
    EXPECT_EQ(r.type, Reply::Type::Bulk) << r;
    for (ClientFields &line : parseClientList(r.str))
        for (const auto &[k, v] : line)
            if (k == key && v == value) return std::move(line);
    ADD_FAILURE() << "no CLIENT LIST line with " << key << "=" << value << " in:\n" << r.str;
    return {};
}

/* ------------------------------------------------------------------------
 * Against the reference.
 * ---------------------------------------------------------------------- */
void expectSameScript(RespConn &ours, RespConn &ref, const std::vector<Args> &script) {
    for (const Args &cmd : script) expectSameReplies(ours, ref, encodeCommand(cmd));
}

/* ------------------------------------------------------------------------
 * Fixtures.
 * ---------------------------------------------------------------------- */
void SharedServerTest::startSharedServer(SharedServerOptions opts) {
    flushBeforeEachTest_ = opts.flushBeforeEachTest;
    startError_.clear();
    try {
        server_ = std::make_unique<TestServer>(opts.args);
        if (opts.withReference && RedisReference::available())
            ref_ = std::make_unique<RedisReference>(opts.args);
    } catch (const HarnessError &e) {
        startError_ = e.what();
    }
}

void SharedServerTest::TearDownTestSuite() {
    server_.reset();
    ref_.reset();
}

void SharedServerTest::SetUp() {
    if (!server_ || !startError_.empty()) GTEST_FAIL() << "the shared server did not start: " << startError_;
    if (flushBeforeEachTest_) {
        RespConn c = conn();
        ASSERT_EQ(c.call({"FLUSHALL"}).raw, "+OK\r\n");
    }
}

void SharedServerTest::TearDown() {
    if (!server_) return;
    ASSERT_TRUE(server_->running()) << "the server died during this test; log:\n" << server_->log();
    RespConn probe = conn();
    EXPECT_EQ(probe.call({"PING"}).raw, "+PONG\r\n") << "the server stopped answering";
}

void SharedServerTest::expectSameAsRedis(const std::vector<Args> &commands) {
    RespConn ours = conn(), ref = refConn();
    expectSameScript(ours, ref, commands);
}

std::string serverImplName(const ::testing::TestParamInfo<ServerImpl> &info) {
    return info.param == ServerImpl::Cppredis ? "Cppredis" : "Redis7";
}

void EitherServerTest::SetUp() {
    const std::vector<std::string> args{"--enable-debug-command", "yes"};
    if (GetParam() == ServerImpl::Redis) {
        REQUIRE_REDIS_REFERENCE();
        srv = std::make_unique<RedisReference>(args);
    } else {
        srv = std::make_unique<TestServer>(args);
    }
    c.emplace(srv->connect());
}

std::string EitherServerTest::encoding(const std::string &key) {
    std::string enc = c->call({"OBJECT", "ENCODING", key}).str;
    return enc == "listpack" ? "ziplist" : enc;
}

std::string FreshServerTest::debugField(const std::string &key, const std::string &field) {
    std::string line = c.call({"DEBUG", "OBJECT", key}).str;
    size_t at = line.find(field + ":");
    if (at == std::string::npos) return "";
    at += field.size() + 1;
    return line.substr(at, line.find(' ', at) - at);
}

}  // namespace itest
