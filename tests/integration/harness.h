/* harness.h — what every integration test uses to run a server and talk to it.
 *
 *   TestServer      starts the server binary on a free 127.0.0.1 port, waits
 *                   (on the log, not a timer) until it is ready, captures its
 *                   log, and on destruction stops it and EXPECTs exit status 0
 *                   (so a leak or error found by ASan fails the test).
 *   RespConn        a blocking RESP2 client with a receive timeout: a server
 *                   that does not answer fails the test instead of hanging it.
 *   RedisReference  Debian's real redis-server, for differential tests that
 *                   send the same bytes to both servers and compare replies.
 *   runProcess      runs a program (redis-cli, the server with bad arguments)
 *                   to completion and captures stdout and stderr.
 *   TempFile        a file (a config file, say) removed when the test ends.
 *   TempDir         a directory (a server's --dir), likewise; readFile and
 *                   writeFile move a whole file's bytes.
 *
 * And what many suites do with them:
 *   pipeline, scanAll, waitMs, pollUntil   driving a connection
 *   info, infoField, infoNumber            reading INFO
 *   parseClientList, clientListLine        reading CLIENT LIST
 *   expectSameScript                       a script against cppredis and Redis
 *   SharedServerTest  a fixture: one server (and a reference) per suite
 *   FreshServerTest   a fixture: a server with DEBUG per test, and OBJECT/DEBUG
 *                     OBJECT readers
 *   EitherServerTest  a fixture: each test once on cppredis, once on Redis
 *                     7.0.15, expecting the same bytes (encodings in 2.6 words)
 * The replies tests expect are spelled in replies.h; SKIP_UNLESS_PACKAGE
 * (package_skip.h), the skip of a test that needs a package, which fails
 * under CI instead.
 *
 * Fatal problems (timeout, server gone, unparsable reply) throw HarnessError:
 * GoogleTest reports the exception as a failure of the running test, with the
 * message, which includes the bytes received or the server's log.
 *
 *   itest::TestServer srv({"--maxclients", "10"});
 *   itest::RespConn c = srv.connect();
 *   EXPECT_EQ(c.call({"PING"}).raw, "+PONG\r\n");
 */
#pragma once

#include <sys/types.h>

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "integration/package_skip.h"

namespace itest {
/* The server under test: cppredis-server beside the test binary (build/ or
 * build/asan/), so the same test objects drive the release server from
 * build/integration_tests and the sanitized one from the sanitized binary. */
const char *cppredisServerBin();
#define CPPREDIS_SERVER_BIN (::itest::cppredisServerBin())

/* True in the binary linked with ASan's runtime, the one that drives the
 * sanitized server (whose allocator is ASan's, not jemalloc). */
bool sanitizedBuild();


using Ms = std::chrono::milliseconds;
/* How long a connection waits for the server to make progress. */
inline constexpr Ms kDefaultTimeout{5000};
/* How long a server may take to start, and to exit after SIGTERM (ASan's leak
 * check at exit can take a while on a big heap). */
inline constexpr Ms kStartTimeout{10000};
inline constexpr Ms kStopTimeout{30000};

class HarnessError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/* A command and its arguments, as sent in a multibulk request. */
using Args = std::vector<std::string>;

/* Encodes a multibulk request: *<n>\r\n then $<len>\r\n<arg>\r\n per argument. */
std::string encodeCommand(const Args &args);

/* Bytes made readable for failure messages: \r \n \t \" \\ \xNN, cut after
 * `max` bytes with a note of how many more there were. */
std::string escape(std::string_view bytes, size_t max = 2000);

/* ------------------------------------------------------------------------
 * One parsed reply, RESP2 or RESP3.
 * ---------------------------------------------------------------------- */
struct Reply {
    /* RESP2's types, then RESP3's (after HELLO 3): Null is "_", Map holds
     * its keys and values alternating in `elements`, Double and BigNumber
     * keep their text in `str`, Boolean its value in `integer`, Verbatim
     * its text without the "txt:" format (which goes to `format`). */
    enum class Type {
        Status, Error, Integer, Bulk, Nil, Array, NilArray,
        Null, Map, Set, Push, Double, Boolean, BigNumber, Verbatim, BlobError, Attribute
    };
    Type type = Type::Nil;
    std::string str;             /* Status/Error text (no prefix, no CRLF), Bulk payload */
    long long integer = 0;       /* Integer */
    std::vector<Reply> elements; /* Array, Set, Push; Map and Attribute as key, value, key, value... */
    std::string format;          /* Verbatim: "txt", "mkd" */
    std::string raw;             /* the exact bytes of this reply on the wire */

    bool isError() const { return type == Type::Error || type == Type::BlobError; }
    bool isNil() const { return type == Type::Nil || type == Type::NilArray || type == Type::Null; }
};

/* A readable one-line rendering, in redis-cli's vocabulary:
 * PONG, (error) ERR x, (integer) 3, "bulk", (nil), (nil array), ["a", (integer) 1]. */
std::string toString(const Reply &r);
std::ostream &operator<<(std::ostream &os, const Reply &r);
void PrintTo(const Reply &r, std::ostream *os); /* GoogleTest's printer */

/* ------------------------------------------------------------------------
 * A client connection. Move-only; closes its socket when destroyed.
 * Every wait is bounded by the timeout (progress, not total: a 100 MB reply
 * may take longer than 5 s as long as bytes keep coming).
 * ---------------------------------------------------------------------- */
/* Which loopback addresses a connection goes from and to: a client from
 * 127.0.0.2 is not "local" to a server (protected mode). Empty `from`: the
 * kernel picks. */
struct LoopbackRoute {
    std::string from{};
    std::string to = "127.0.0.1";
};

/* A server's unix socket (its --unixsocket) to connect to instead of TCP. */
struct UnixSocketPath {
    std::string path;
};

class RespConn {
public:
    explicit RespConn(int port, Ms timeout = kDefaultTimeout);
    RespConn(const LoopbackRoute &route, int port, Ms timeout = kDefaultTimeout);
    explicit RespConn(const UnixSocketPath &socket, Ms timeout = kDefaultTimeout);
    ~RespConn();
    RespConn(RespConn &&other) noexcept;
    RespConn &operator=(RespConn &&other) noexcept;
    RespConn(const RespConn &) = delete;
    RespConn &operator=(const RespConn &) = delete;

    void send(std::string_view raw);
    void cmd(const Args &args) { send(encodeCommand(args)); }
    Reply readReply();
    Reply call(const Args &args) { cmd(args); return readReply(); }

    /* Exactly n bytes. */
    std::string readRaw(size_t n);
    /* One line, without its CRLF. */
    std::string readLine();
    /* Everything until the server closes (a reset counts as a close); throws
     * if it has not closed within the timeout. */
    std::string readAllUntilClose();
    /* Adds a test failure unless the server closes the connection within the
     * timeout without sending anything more. */
    void expectClosed();
    /* True as soon as bytes or EOF are waiting; false after `wait`. */
    bool waitReadable(Ms wait);

    /* Closes our side now. */
    void close();
    void setTimeout(Ms timeout) { timeout_ = timeout; }
    int fd() const { return fd_; }
    /* Our own address as the server sees it: "127.0.0.1:54321". */
    std::string localAddr() const;

private:
    /* Reads more bytes into in_; false on EOF. Throws on timeout. */
    bool fill(const char *what);
    void need(size_t n, const char *what);
    std::string takeLine(std::string *capture);
    std::string take(size_t n, std::string *capture);
    Reply parse(std::string &capture);
    void compact();

    int fd_ = -1;
    Ms timeout_;
    std::string in_;   /* received, not yet consumed: in_[pos_..] */
    size_t pos_ = 0;
};

/* ------------------------------------------------------------------------
 * A server process.
 * ---------------------------------------------------------------------- */
struct ServerOptions {
    /* Extra arguments after --port/--bind: {"--maxclients", "10"}. */
    std::vector<std::string> args{};
    /* A config file, passed as the first argument when not empty. */
    std::string configFile{};
    std::string binary = CPPREDIS_SERVER_BIN;
    Ms readyTimeout = kStartTimeout;
    /* "NAME=value" variables added to the server's environment (LD_PRELOAD ...). */
    std::vector<std::string> env{};
    /* The log line that says it is ready: redis-sentinel logs no "Ready to
     * accept connections", but "+monitor master" once it listens. */
    std::string readyLine = "Ready to accept connections";
};

class TestServer {
public:
    explicit TestServer(std::vector<std::string> args = {});
    explicit TestServer(ServerOptions opts);
    /* Stops the server if it still runs and EXPECTs exit status 0. */
    virtual ~TestServer();
    TestServer(const TestServer &) = delete;
    TestServer &operator=(const TestServer &) = delete;

    int port() const { return port_; }
    pid_t pid() const { return pid_; }
    bool running() const { return pid_ > 0 && !reaped_; }
    RespConn connect(Ms timeout = kDefaultTimeout) const { return RespConn(port_, timeout); }

    /* Everything the server printed so far (stdout and stderr), without blocking. */
    std::string log() const;
    /* Waits until the log contains `needle` (true) or `wait` passes / the server
     * closes its output (false). */
    bool waitForLog(std::string_view needle, Ms wait = kDefaultTimeout) const;

    /* SIGTERM, then wait: returns the exit code (128 + signal if killed by
     * one). Past the timeout the server is SIGKILLed and the test fails. */
    int stop(Ms timeout = kStopTimeout);
    /* Waits for the server to exit by itself (after SHUTDOWN): its exit code,
     * or -1 if it still runs after `wait`. */
    int waitExit(Ms wait = kStopTimeout);
    void kill9();

protected:
    /* For RedisReference, which must check its binary before starting. */
    struct Deferred {};
    explicit TestServer(Deferred) {}
    void start(ServerOptions opts);

private:
    bool trySpawn(const ServerOptions &opts, std::string &whyNot);
    void drainLog();
    int reap(bool block);
    int awaitExit(Ms wait);
    void stopDrainThread();

    pid_t pid_ = -1;
    int port_ = 0;
    bool reaped_ = false;
    bool stoppedByTest_ = false; /* stop()/kill9()/waitExit() called: the test judges the status */
    int exitCode_ = -1;
    std::string workdir_;        /* the server's cwd, removed at the end */
    std::string commandLine_;

    int logFd_ = -1;             /* read end of the server's stdout+stderr */
    int wakeFd_[2] = {-1, -1};   /* tells the drain thread to finish */
    std::thread drainThread_;
    mutable std::mutex mu_;
    mutable std::condition_variable cv_;
    std::string log_;
    bool logEof_ = false;
};

/* Debian's real redis-server, started the same way with --save '' and
 * --appendonly no. Use REQUIRE_REDIS_REFERENCE() first: constructing it
 * without the binary throws. */
class RedisReference : public TestServer {
public:
    static constexpr const char *kBinary = "/usr/bin/redis-server";
    explicit RedisReference(std::vector<std::string> args = {});
    static bool available();
};

/* Skips (fails under CI=true: package_skip.h) without Redis's binary. */
#define REQUIRE_REDIS_REFERENCE() SKIP_UNLESS_PACKAGE("redis-server", ::itest::RedisReference::available())

/* Sends `request` on both connections and EXPECTs each of the `nreplies`
 * replies to be byte-identical. */
void expectSameReplies(RespConn &ours, RespConn &ref, std::string_view request,
                       int nreplies = 1);

/* ------------------------------------------------------------------------
 * Other processes and files.
 * ---------------------------------------------------------------------- */
struct ProcessResult {
    int exitCode = -1; /* 128 + signal if killed by one */
    std::string out, err;
};
/* Runs argv[0] (searched in PATH) with `input` on stdin; throws if it has not
 * finished within `timeout` (it is killed). */
ProcessResult runProcess(const std::vector<std::string> &argv, std::string_view input = {},
                         Ms timeout = Ms{30000});
/* A 127.0.0.1 TCP port nobody listens on now (another process may take it
 * before the caller binds it). */
int pickFreePort();
/* True if `name` is an executable found in PATH (or is an executable path). */
bool haveProgram(const std::string &name);

class TempFile {
public:
    explicit TempFile(std::string_view contents, std::string_view suffix = ".conf");
    ~TempFile();
    TempFile(const TempFile &) = delete;
    TempFile &operator=(const TempFile &) = delete;
    const std::string &path() const { return path_; }

private:
    std::string path_;
};

/* A directory of a test's own (a server's --dir for its RDB or AOF files),
 * removed with everything in it when the test ends. */
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
    const std::string &path() const { return path_; }
    std::string file(const std::string &name) const { return path_ + "/" + name; }

private:
    std::string path_;
};

/* A whole file's bytes ("" if it cannot be read), and a file written whole. */
std::string readFile(const std::string &path);
void writeFile(const std::string &path, std::string_view bytes);

/* ------------------------------------------------------------------------
 * Driving a connection.
 * ---------------------------------------------------------------------- */
/* Sends every command in one write, then reads every reply; an error reply
 * fails the test. */
void pipeline(RespConn &c, const std::vector<Args> &cmds);

/* A whole SCAN-family iteration: `command` ({"SCAN"}, {"HSCAN", key} ...),
 * the cursor, then `options`, from cursor 0 until it is 0 again. Every
 * element of every batch, in order, repeats included. */
std::vector<std::string> scanAll(RespConn &c, const Args &command, const Args &options = {});

/* Spins (no sleep) until `ms` milliseconds have passed: lets a deadline of
 * a few ms pass on the server's clock. */
void waitMs(int ms);

/* Polls `cond` every millisecond until it holds (true) or `limit` passes
 * (false): for what the server does on its own time (serverCron). */
template <typename Cond>
bool pollUntil(Cond cond, Ms limit = kDefaultTimeout) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!cond()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(Ms{1});
    }
    return true;
}

/* Non-empty and nothing but 0-9. */
bool isDigits(std::string_view s);

/* ------------------------------------------------------------------------
 * INFO and CLIENT LIST.
 * ---------------------------------------------------------------------- */
/* INFO's payload as field -> value, and its "# Section" headers in order.
 * A line that is neither fails the test. */
struct Info {
    std::map<std::string, std::string> fields;
    std::vector<std::string> sections;
};
Info parseInfo(std::string_view text);
/* INFO [section ...]; a reply other than a bulk fails the test. */
Info info(RespConn &c, const Args &sections = {});
/* One field of INFO `section`, or "" if absent. */
std::string infoField(RespConn &c, const std::string &section, const std::string &field);
/* One numeric field of INFO `section`; absent, it fails the test (-1). */
long long infoNumber(RespConn &c, const std::string &section, const std::string &field);

/* A CLIENT LIST / CLIENT INFO line: its k=v fields in order. */
using ClientFields = std::vector<std::pair<std::string, std::string>>;
/* Every line of a CLIENT LIST reply; a line not ended by \n or a word
 * without '=' fails the test. */
std::vector<ClientFields> parseClientList(std::string_view text);
/* The value of `key` in the line; absent, it fails the test (""). */
std::string clientField(const ClientFields &line, std::string_view key);
/* The line of CLIENT LIST, asked on `asker`, whose field `key` is `value`
 * ("addr" and a RespConn::localAddr(), say); none fails the test ({}). */
ClientFields clientListLine(RespConn &asker, std::string_view key, std::string_view value);

/* ------------------------------------------------------------------------
 * Against the reference.
 * ---------------------------------------------------------------------- */
/* Sends each command of `script` to both servers in turn and EXPECTs
 * byte-identical replies (expectSameReplies, one command at a time). */
void expectSameScript(RespConn &ours, RespConn &ref, const std::vector<Args> &script);

/* ------------------------------------------------------------------------
 * Fixtures.
 * ---------------------------------------------------------------------- */
struct SharedServerOptions {
    std::vector<std::string> args{};   /* for cppredis and the reference */
    bool flushBeforeEachTest = true;   /* FLUSHALL in SetUp */
    bool withReference = false;        /* a RedisReference too, when installed */
};

/* One server for a whole suite, started before its first test, for suites of
 * many small tests. A suite with options defines its own SetUpTestSuite()
 * calling startSharedServer(opts). SetUp fails the test if the server did not
 * start (every test then says why) and, by default, empties it; TearDown
 * checks that the server still runs and answers PING, so that a crash is
 * blamed on the test that caused it. Suites run one after another, so they
 * can share the one static slot. */
class SharedServerTest : public ::testing::Test {
protected:
    static void startSharedServer(SharedServerOptions opts = {});
    static void SetUpTestSuite() { startSharedServer(); }
    static void TearDownTestSuite();
    void SetUp() override;
    void TearDown() override;

    static TestServer &srv() { return *server_; }
    static RespConn conn() { return server_->connect(); }
    /* Whether the reference runs (withReference, and Redis installed). */
    static bool haveRef() { return ref_ != nullptr; }
    /* Only when haveRef(). */
    static RespConn refConn() { return ref_->connect(); }
    /* Only when haveRef(): sends each command to both servers, expecting
     * identical bytes. */
    static void expectSameAsRedis(const std::vector<Args> &commands);

private:
    static inline std::unique_ptr<TestServer> server_;
    static inline std::unique_ptr<RedisReference> ref_;
    static inline std::string startError_;
    static inline bool flushBeforeEachTest_ = true;
};

/* A server of its own for every test, DEBUG enabled, and a connection `c`. */
class FreshServerTest : public ::testing::Test {
protected:
    TestServer srv{{"--enable-debug-command", "yes"}};
    RespConn c = srv.connect();

    /* The raw reply. */
    std::string call(const Args &args) { return c.call(args).raw; }
    std::string encoding(const std::string &key) { return c.call({"OBJECT", "ENCODING", key}).str; }
    /* One field of DEBUG OBJECT ("at", "serializedlength" ...), or "". */
    std::string debugField(const std::string &key, const std::string &field);
};

/* The server an EitherServerTest runs on. */
enum class ServerImpl { Cppredis, Redis };
/* Names the instantiations "Cppredis" and "Redis7" (INSTANTIATE_TEST_SUITE_P's
 * fourth argument). */
std::string serverImplName(const ::testing::TestParamInfo<ServerImpl> &info);

/* A fixture for proving expectations against Redis: instantiated with
 * ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis), each test runs
 * once on a fresh cppredis and once on a fresh Redis 7.0.15 (skipped if it is
 * missing), both with DEBUG enabled, and asserts the same bytes on both. */
class EitherServerTest : public ::testing::TestWithParam<ServerImpl> {
protected:
    std::unique_ptr<TestServer> srv;
    std::optional<RespConn> c; /* to srv, made in SetUp */

    void SetUp() override;
    bool cppredis() const { return GetParam() == ServerImpl::Cppredis; }
    /* The raw reply. */
    std::string call(const Args &args) { return c->call(args).raw; }
    /* OBJECT ENCODING in cppredis's Redis 2.6 words: Redis 7's "listpack" is
     * the one intended difference and reads as "ziplist". */
    std::string encoding(const std::string &key);
};

}  // namespace itest
