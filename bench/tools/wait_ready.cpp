/* wait_ready.cpp — waits, at a millisecond's resolution, until a server
 * that is starting answers PING with +PONG: the moment its data is loaded.
 *
 * It connects until the port accepts (refused: retry 1 ms later), then
 * sends one PING at a time on that connection: -LOADING (Redis answers so
 * while it loads) means retry 1 ms later; +PONG means ready. A server that
 * does not read its sockets while it loads simply answers late, which is
 * the same moment. Polling once a millisecond costs the client's core next
 * to nothing, so it does not slow the load it times.
 *
 *   build/bench/wait_ready -p 6379 [-h 127.0.0.1] [--server-pid PID] [--timeout-s 300]
 *
 * Prints one line, ready_ms=<ms since the tool started> and the number of
 * -LOADING replies; exits 1 if the server process (--server-pid) is gone,
 * the connection drops, a reply is neither, or the timeout passes.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "bench_util.h"

namespace {

using bench::die, bench::nowNs;

void usage() {
    fprintf(stderr, "usage: wait_ready -p PORT [-h HOST] [--server-pid PID] [--timeout-s seconds]\n");
    exit(2);
}

/* A connection to the server, or -1 while nothing listens there yet
 * (bench_util's connectTo treats that as fatal). */
int tryConnect(const std::string &host, int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) die(std::string("socket: ") + strerror(errno));
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(static_cast<uint16_t>(port));
    if (inet_pton(AF_INET, host.c_str(), &sa.sin_addr) != 1) die("bad host " + host);
    if (connect(fd, reinterpret_cast<sockaddr *>(&sa), sizeof(sa)) == 0) {
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
        return fd;
    }
    if (errno != ECONNREFUSED) die(std::string("connect: ") + strerror(errno));
    close(fd);
    return -1;
}

/* One PING's reply line, without its CRLF. */
std::string ping(int fd) {
    static constexpr std::string_view request = "*1\r\n$4\r\nPING\r\n";
    if (write(fd, request.data(), request.size()) != static_cast<ssize_t>(request.size()))
        die(std::string("write: ") + strerror(errno));
    std::string reply;
    char buf[512];
    while (reply.find("\r\n") == std::string::npos) {
        ssize_t n = read(fd, buf, sizeof(buf));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) die(n == 0 ? "the server closed the connection" : std::string("read: ") + strerror(errno));
        reply.append(buf, static_cast<size_t>(n));
    }
    return reply.substr(0, reply.find("\r\n"));
}

/* Whether process pid still runs: a server that died stays a zombie until
 * the script that started it waits for it, and kill(pid, 0) succeeds on a
 * zombie. */
bool running(long pid) {
    std::string stat = bench::procStat(pid);
    return stat.size() > 1 && stat[1] != 'Z' && stat[1] != 'X';
}

}  // namespace

int main(int argc, char **argv) {
    const int64_t start = nowNs();
    bench::ServerAddress server;
    long pid = 0;
    double timeout_s = 300;
    bench::parseCommandLine(argc, argv, usage, server, [&](std::string_view a, const char *v) {
        if (a == "--server-pid") pid = atol(v);
        else if (a == "--timeout-s") timeout_s = atof(v);
        else return false;
        return true;
    });
    const int64_t deadline = start + static_cast<int64_t>(timeout_s * 1e9);
    int fd = -1;
    long loading = 0;
    for (;;) {
        if (nowNs() > deadline) die("the server was not ready within the timeout");
        if (pid > 0 && !running(pid)) die("the server process is gone");
        if (fd < 0) fd = tryConnect(server.host, server.port);
        if (fd >= 0) {
            std::string reply = ping(fd);
            if (reply == "+PONG") break;
            if (reply.rfind("-LOADING", 0) != 0) die("PING: " + reply);
            loading++;
        }
        usleep(1000);
    }
    printf("ready_ms=%.3f loading_replies=%ld\n", static_cast<double>(nowNs() - start) / 1e6, loading);
    close(fd);
    return 0;
}
