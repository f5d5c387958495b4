/* tls_test.cpp — TLS (tls.cpp, the connection abstraction's TLS kind):
 * clients over TLS with redis-cli, redis-benchmark, redis-py and a small
 * OpenSSL client of the test's own; tls-auth-clients yes / optional / no;
 * a plain-text client on the TLS port; a large pipeline and a large reply
 * (decrypted bytes left inside OpenSSL must still be served); replication
 * with tls-replication; tls-cluster (TLS set up, a CA needed); the tls-*
 * configs' defaults and CONFIG SET. Most tests run on cppredis and on Redis
 * 7.0.15 (Debian's is built with TLS) with the same expectations.
 *
 * A CA, a server and a client certificate are made with `openssl req` and
 * `openssl x509` into a temporary directory when the suite starts, removed
 * when it ends: nothing secret is committed. */
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

/* The certificates of the whole file. */
std::unique_ptr<TempDir> certs;

std::string cert(const std::string &name) { return certs->file(name); }

void makeCertificates() {
    certs = std::make_unique<TempDir>();
    auto run = [](const std::vector<std::string> &argv) {
        ProcessResult r = runProcess(argv);
        ASSERT_EQ(r.exitCode, 0) << r.err;
    };
    run({"openssl", "req", "-x509", "-new", "-nodes", "-newkey", "rsa:2048", "-keyout", cert("ca.key"), "-out",
         cert("ca.crt"), "-days", "2", "-subj", "/CN=cppredis test CA"});
    for (std::string n : {"server", "client"}) {
        run({"openssl", "req", "-new", "-nodes", "-newkey", "rsa:2048", "-keyout", cert(n + ".key"), "-out",
             cert(n + ".csr"), "-subj", "/CN=" + n});
        run({"openssl", "x509", "-req", "-in", cert(n + ".csr"), "-CA", cert("ca.crt"), "-CAkey", cert("ca.key"),
             "-CAcreateserial", "-out", cert(n + ".crt"), "-days", "2"});
    }
}

/* A blocking TLS client (OpenSSL), with a receive timeout. Certificate
 * and key are optional; the server's is verified against the test CA. */
class TlsConn {
public:
    TlsConn(int port, bool with_client_cert) {
        ctx_.reset(SSL_CTX_new(TLS_client_method()));
        SSL_CTX_load_verify_locations(ctx_.get(), cert("ca.crt").c_str(), nullptr);
        SSL_CTX_set_verify(ctx_.get(), SSL_VERIFY_PEER, nullptr);
        if (with_client_cert) {
            SSL_CTX_use_certificate_file(ctx_.get(), cert("client.crt").c_str(), SSL_FILETYPE_PEM);
            SSL_CTX_use_PrivateKey_file(ctx_.get(), cert("client.key").c_str(), SSL_FILETYPE_PEM);
        }
        fd_ = socket(AF_INET, SOCK_STREAM, 0);
        timeval tv{5, 0};
        setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
        setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
        sockaddr_in sa{};
        sa.sin_family = AF_INET;
        sa.sin_port = htons(static_cast<uint16_t>(port));
        sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(fd_, reinterpret_cast<sockaddr *>(&sa), sizeof(sa)) != 0) {
            close(fd_);
            throw HarnessError("connect to port " + std::to_string(port) + " failed");
        }
        ssl_.reset(SSL_new(ctx_.get()));
        SSL_set_fd(ssl_.get(), fd_);
        handshake_ok_ = SSL_connect(ssl_.get()) == 1;
    }
    ~TlsConn() {
        ssl_.reset();
        if (fd_ != -1) close(fd_);
    }
    TlsConn(const TlsConn &) = delete;
    TlsConn &operator=(const TlsConn &) = delete;

    bool handshakeOk() const { return handshake_ok_; }

    /* All of `bytes`, or false. */
    bool send(std::string_view bytes) {
        while (!bytes.empty()) {
            int n = SSL_write(ssl_.get(), bytes.data(), static_cast<int>(std::min<size_t>(bytes.size(), 1 << 20)));
            if (n <= 0) return false;
            bytes.remove_prefix(static_cast<size_t>(n));
        }
        return true;
    }

    /* The next `count` replies' bytes (simple, error, integer and bulk
     * replies), or what came before the connection ended. */
    std::string readReplies(size_t count = 1) {
        std::string out;
        size_t pos = 0;
        while (count) {
            size_t end = replyEnd(pos);
            if (end == std::string::npos) {
                if (!fill()) break;
                continue;
            }
            out.append(in_, pos, end - pos);
            pos = end;
            count--;
        }
        in_.erase(0, pos);
        return out;
    }

    std::string call(const Args &args) {
        if (!send(encodeCommand(args))) return "";
        return readReplies();
    }

private:
    struct CtxFree {
        void operator()(SSL_CTX *c) const { SSL_CTX_free(c); }
    };
    struct SslFree {
        void operator()(SSL *s) const { SSL_free(s); }
    };
    std::unique_ptr<SSL_CTX, CtxFree> ctx_;
    std::unique_ptr<SSL, SslFree> ssl_;
    int fd_ = -1;
    bool handshake_ok_ = false;
    std::string in_;

    bool fill() {
        char buf[65536];
        int n = SSL_read(ssl_.get(), buf, sizeof(buf));
        if (n <= 0) return false;
        in_.append(buf, static_cast<size_t>(n));
        return true;
    }

    /* Where the reply at `pos` ends in in_, npos if incomplete. */
    size_t replyEnd(size_t pos) const {
        size_t eol = in_.find("\r\n", pos);
        if (eol == std::string::npos) return std::string::npos;
        if (in_[pos] != '$') return eol + 2;
        long long len = std::stoll(in_.substr(pos + 1, eol - pos - 1));
        if (len < 0) return eol + 2;
        size_t end = eol + 2 + static_cast<size_t>(len) + 2;
        return end <= in_.size() ? end : std::string::npos;
    }
};

class Tls : public ::testing::TestWithParam<ServerImpl> {
protected:
    static void SetUpTestSuite() { makeCertificates(); }
    static void TearDownTestSuite() { certs.reset(); }

    /* The args of a server with a TLS port (its plain port stays, for the
     * harness), plus `extra`. */
    static std::vector<std::string> tlsArgs(int tls_port, std::vector<std::string> extra = {}) {
        std::vector<std::string> args{"--tls-port",         std::to_string(tls_port), "--tls-cert-file",
                                      cert("server.crt"),   "--tls-key-file",         cert("server.key"),
                                      "--tls-ca-cert-file", cert("ca.crt"),           "--enable-debug-command",
                                      "yes",                "--save",                 ""};
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    }

    std::unique_ptr<TestServer> start(ServerImpl impl, const std::vector<std::string> &args) {
        if (impl == ServerImpl::Redis) return std::make_unique<RedisReference>(args);
        return std::make_unique<TestServer>(args);
    }

    void SetUp() override {
        if (GetParam() == ServerImpl::Redis) REQUIRE_REDIS_REFERENCE();
        tls_port = pickFreePort();
        srv = start(GetParam(), tlsArgs(tls_port));
    }

    ProcessResult cli(const std::vector<std::string> &args) {
        std::vector<std::string> argv{"redis-cli", "-p",       std::to_string(tls_port), "--tls",
                                      "--cacert",  cert("ca.crt"), "--cert",           cert("client.crt"),
                                      "--key",     cert("client.key")};
        argv.insert(argv.end(), args.begin(), args.end());
        return runProcess(argv);
    }

    int tls_port = 0;
    std::unique_ptr<TestServer> srv;
};
INSTANTIATE_TEST_SUITE_P(Servers, Tls, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis), serverImplName);

/* redis-cli --tls and the test's own client: PING, SET, GET. */
TEST_P(Tls, PingSetGetWithRedisCliAndAClient) {
    EXPECT_EQ(cli({"PING"}).out, "PONG\n");
    EXPECT_EQ(cli({"SET", "k", "over tls"}).out, "OK\n");
    EXPECT_EQ(cli({"GET", "k"}).out, "over tls\n");
    TlsConn c(tls_port, true);
    ASSERT_TRUE(c.handshakeOk());
    EXPECT_EQ(c.call({"PING"}), "+PONG\r\n");
    EXPECT_EQ(c.call({"SET", "k2", "v2"}), OK);
    EXPECT_EQ(c.call({"GET", "k2"}), "$2\r\nv2\r\n");
    EXPECT_EQ(srv->connect().call({"GET", "k2"}).raw, "$2\r\nv2\r\n"); /* the same data on the plain port */
}

/* redis-benchmark --tls: 16-deep pipelines of SET and GET from 4 clients. */
TEST_P(Tls, RedisBenchmarkRuns) {
    ProcessResult r = runProcess({"redis-benchmark", "-p", std::to_string(tls_port), "--tls", "--cacert",
                                  cert("ca.crt"), "--cert", cert("client.crt"), "--key", cert("client.key"), "-n",
                                  "4000", "-c", "4", "-P", "16", "-t", "set,get", "--csv"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("\"SET\""), std::string::npos) << r.out << r.err;
    EXPECT_NE(r.out.find("\"GET\""), std::string::npos) << r.out << r.err;
    EXPECT_EQ(srv->connect().call({"STRLEN", "key:__rand_int__"}).integer, 3); /* -d's default size */
}

/* tls-auth-clients yes (the default) wants a certificate: without one the
 * handshake fails (TLS 1.3: the server's alert ends the first read);
 * optional verifies one if given; no asks for none. */
TEST_P(Tls, AuthClientsYesOptionalNo) {
    {
        TlsConn without(tls_port, false);
        EXPECT_EQ(without.handshakeOk() ? without.call({"PING"}) : "", "");
    }
    TlsConn with(tls_port, true);
    ASSERT_TRUE(with.handshakeOk());
    EXPECT_EQ(with.call({"PING"}), "+PONG\r\n");
    for (std::string mode : {"optional", "no"}) {
        EXPECT_EQ(with.call({"CONFIG", "SET", "tls-auth-clients", mode}), OK);
        TlsConn without(tls_port, false);
        ASSERT_TRUE(without.handshakeOk()) << mode;
        EXPECT_EQ(without.call({"PING"}), "+PONG\r\n") << mode;
        TlsConn certified(tls_port, true);
        EXPECT_EQ(certified.call({"PING"}), "+PONG\r\n") << mode;
    }
    EXPECT_EQ(srv->connect().call({"CONFIG", "GET", "tls-auth-clients"}).elements.at(1).str, "no");
}

/* A plain-text client on the TLS port is dropped; the server goes on
 * serving TLS and plain clients. */
TEST_P(Tls, PlainTextOnTheTlsPortIsDropped) {
    RespConn plain(tls_port);
    plain.send("PING\r\n");
    plain.expectClosed();
    TlsConn c(tls_port, true);
    EXPECT_EQ(c.call({"PING"}), "+PONG\r\n");
    EXPECT_EQ(srv->connect().call({"PING"}).raw, "+PONG\r\n");
}

/* Several MB of SETs in one write, then a 5 MB value and its GET: what the
 * read handler does not take of a TLS record stays decrypted inside
 * OpenSSL, where no socket event announces it (tlsProcessPendingData). */
TEST_P(Tls, LargePipelineAndLargeReply) {
    TlsConn c(tls_port, true);
    ASSERT_TRUE(c.handshakeOk());
    constexpr size_t kCommands = 40000;
    std::string value(100, 'v'), batch;
    for (size_t i = 0; i < kCommands; i++) batch += encodeCommand({"SET", "key:" + std::to_string(i), value});
    ASSERT_GT(batch.size(), 5u << 20);
    ASSERT_TRUE(c.send(batch));
    std::string replies = c.readReplies(kCommands);
    EXPECT_EQ(replies.size(), kCommands * OK.size());
    EXPECT_EQ(c.call({"DBSIZE"}), ":" + std::to_string(kCommands) + "\r\n");
    std::string big(5 << 20, 'x');
    for (size_t i = 0; i < big.size(); i += 4096) big[i] = static_cast<char>('a' + i % 26);
    /* The big argument is read to its exact end: the PING after it, in
     * the same record, is left inside OpenSSL, and no more bytes come. */
    ASSERT_TRUE(c.send(encodeCommand({"SET", "big", big}) + encodeCommand({"PING"})));
    EXPECT_EQ(c.readReplies(2), std::string(OK) + "+PONG\r\n");
    EXPECT_EQ(c.call({"GET", "big"}), "$" + std::to_string(big.size()) + "\r\n" + big + "\r\n");
}

/* redis-py (python3-redis) with ssl=True. */
TEST_P(Tls, RedisPyConnectsWithSsl) {
    SKIP_UNLESS_PACKAGE("python3", haveProgram("/usr/bin/python3"));
    std::string script = "import redis\n"
                         "r = redis.Redis(host='127.0.0.1', port=" + std::to_string(tls_port) +
                         ", ssl=True, ssl_ca_certs='" + cert("ca.crt") + "', ssl_certfile='" + cert("client.crt") +
                         "', ssl_keyfile='" + cert("client.key") + "')\n"
                         "r.set('py', 'ssl')\n"
                         "print(r.ping(), r.get('py').decode())\n";
    ProcessResult r = runProcess({"/usr/bin/python3", "-c", script});
    SKIP_UNLESS_PACKAGE("python3-redis", r.err.find("No module named 'redis'") == std::string::npos);
    EXPECT_EQ(r.out, "True ssl\n") << r.err;
}

/* The tls-* configs: their defaults as CONFIG GET shows them (the file
 * ones are the test's), INFO's tcp_port, and CONFIG SET rebuilding the
 * context: a bad tls-protocols is refused and changes nothing. */
TEST_P(Tls, ConfigDefaultsAndSet) {
    RespConn c = srv->connect();
    const std::vector<std::pair<std::string, std::string>> defaults{
        {"tls-session-cache-size", "20480"}, {"tls-session-cache-timeout", "300"}, {"tls-replication", "no"},
        {"tls-auth-clients", "yes"},         {"tls-prefer-server-ciphers", "no"},  {"tls-session-caching", "yes"},
        {"tls-key-file-pass", ""},           {"tls-client-cert-file", ""},         {"tls-client-key-file", ""},
        {"tls-client-key-file-pass", ""},    {"tls-dh-params-file", ""},           {"tls-ca-cert-dir", ""},
        {"tls-protocols", ""},               {"tls-ciphers", ""},                  {"tls-ciphersuites", ""}};
    for (const auto &[name, value] : defaults) {
        Reply r = c.call({"CONFIG", "GET", name});
        ASSERT_EQ(r.elements.size(), 2u) << name;
        EXPECT_EQ(r.elements[1].str, value) << name;
    }
    EXPECT_EQ(c.call({"CONFIG", "GET", "tls-port"}).elements.at(1).str, std::to_string(tls_port));
    EXPECT_EQ(infoField(c, "server", "tcp_port"), std::to_string(srv->port()));
    EXPECT_EQ(c.call({"CONFIG", "SET", "tls-protocols", "TLSv1.9"}).raw,
              "-ERR CONFIG SET failed (possibly related to argument 'tls-protocols') - Unable to update TLS "
              "configuration. Check server logs.\r\n");
    EXPECT_EQ(c.call({"CONFIG", "SET", "tls-protocols", "TLSv1.2 TLSv1.3"}).raw, OK);
    EXPECT_EQ(c.call({"CONFIG", "SET", "tls-ciphersuites", "TLS_AES_256_GCM_SHA384"}).raw, OK);
    EXPECT_EQ(cli({"PING"}).out, "PONG\n");
}

/* tls-cluster: with no cluster bus, what it does is what Redis's does with
 * cluster-enabled no: TLS is set up even without a TLS port (a server with
 * tls-cluster yes and no certificate does not start), and peers are
 * verified, so a CA is needed even with tls-auth-clients no. */
TEST_P(Tls, TlsClusterSetsUpTlsAndNeedsACa) {
    RespConn c = srv->connect();
    const std::string unable = "-ERR CONFIG SET failed (possibly related to argument 'tls-ca-cert-file') - Unable to "
                               "update TLS configuration. Check server logs.\r\n";
    ASSERT_EQ(c.call({"CONFIG", "SET", "tls-auth-clients", "no"}).raw, OK);
    ASSERT_EQ(c.call({"CONFIG", "SET", "tls-cluster", "yes"}).raw, OK);
    EXPECT_EQ(c.call({"CONFIG", "GET", "tls-cluster"}).elements.at(1).str, "yes");
    EXPECT_EQ(c.call({"CONFIG", "SET", "tls-ca-cert-file", ""}).raw, unable);
    EXPECT_EQ(c.call({"CONFIG", "SET", "tls-cluster", "no", "tls-ca-cert-file", ""}).raw, OK);
    EXPECT_EQ(cli({"PING"}).out, "PONG\n");

    const std::string binary = GetParam() == ServerImpl::Redis ? RedisReference::kBinary : CPPREDIS_SERVER_BIN;
    ProcessResult r = runProcess(
        {binary, "--port", std::to_string(pickFreePort()), "--bind", "127.0.0.1", "--save", "", "--tls-cluster", "yes"},
        {}, Ms{10000});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE((r.out + r.err).find("Failed to configure TLS. Check logs for more info."), std::string::npos)
        << r.out << r.err;
}

/* CONFIG SET tls-port listens on the new port at once; 0 closes it. */
TEST_P(Tls, TlsPortChangesAtRunTime) {
    RespConn c = srv->connect();
    int other = pickFreePort();
    ASSERT_EQ(c.call({"CONFIG", "SET", "tls-port", std::to_string(other)}).raw, OK);
    EXPECT_EQ(TlsConn(other, true).call({"PING"}), "+PONG\r\n");
    EXPECT_THROW(TlsConn(tls_port, true), HarnessError);
    ASSERT_EQ(c.call({"CONFIG", "SET", "tls-port", "0"}).raw, OK);
    EXPECT_THROW(TlsConn(other, true), HarnessError);
    EXPECT_EQ(c.call({"PING"}).raw, "+PONG\r\n");
}

/* Replication over TLS both ways: a replica with tls-replication yes
 * connects to its master's TLS port (which takes nothing else), gets the
 * RDB (diskless, then from the file) and the stream through TLS. The
 * master is this suite's server;
 * the replica is cppredis, then Redis 7 (so each side of cppredis meets
 * Redis 7's other side). */
TEST_P(Tls, ReplicationOverTls) {
    RespConn m = srv->connect();
    ASSERT_EQ(m.call({"CONFIG", "SET", "repl-diskless-sync-delay", "0"}).raw, OK);
    for (int i = 0; i < 200; i++) ASSERT_EQ(m.call({"SET", "pre:" + std::to_string(i), std::string(1000, 'p')}).raw, OK);
    for (ServerImpl replica_impl : {ServerImpl::Cppredis, ServerImpl::Redis}) {
        if (replica_impl == ServerImpl::Redis) REQUIRE_REDIS_REFERENCE(); /* the cppredis replica was checked */
        SCOPED_TRACE(replica_impl == ServerImpl::Redis ? "Redis 7 replica" : "cppredis replica");
        /* The RDB goes out through the child's pipe (diskless), then from the file. */
        ASSERT_EQ(m.call({"CONFIG", "SET", "repl-diskless-sync", replica_impl == ServerImpl::Redis ? "no" : "yes"}).raw,
                  OK);
        std::unique_ptr<TestServer> replica = start(
            replica_impl,
            tlsArgs(pickFreePort(), {"--tls-replication", "yes", "--replicaof", "127.0.0.1", std::to_string(tls_port)}));
        RespConn r = replica->connect();
        ASSERT_TRUE(pollUntil([&] { return infoField(r, "replication", "master_link_status") == "up"; }, Ms{10000}))
            << replica->log();
        for (int i = 0; i < 200; i++) m.cmd({"SET", "live:" + std::to_string(i), std::to_string(i)});
        for (int i = 0; i < 200; i++) ASSERT_EQ(m.readReply().raw, OK);
        ASSERT_TRUE(pollUntil([&] { return r.call({"DBSIZE"}).integer == 400; })) << r.call({"DBSIZE"});
        EXPECT_EQ(r.call({"DEBUG", "DIGEST"}).raw, m.call({"DEBUG", "DIGEST"}).raw);
        EXPECT_TRUE(replica->waitForLog("MASTER <-> REPLICA sync: Finished with success")) << replica->log();
    }
}

}  // namespace
