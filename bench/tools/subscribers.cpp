/* subscribers.cpp — the receiving side of a PUBLISH benchmark.
 *
 * Connects N clients, each SUBSCRIBEs to CHANNEL; once every subscription
 * is confirmed it prints "ready subscribers=N" on stdout (the script waits
 * for that line before it starts publishing), then reads and discards all
 * that arrives, as fast as the sockets give it, until the server closes
 * every connection (when it stops at the end of the benchmark), and prints
 * "done subscribers=N bytes=B". Whether all N were still subscribed when
 * the publishing ended (none dropped by client-output-buffer-limit, which
 * would make the figures meaningless) is the script's check: PUBSUB NUMSUB.
 *
 *   build/bench/subscribers -p PORT [-h 127.0.0.1] [--clients 10] [--channel bench]
 *
 * A subscriber that does not drain fast enough makes the server buffer its
 * messages (and, past client-output-buffer-limit's pubsub class, drop it),
 * so the tool is one thread with an epoll loop and large reads. Plain
 * sockets and the C++ library only.
 */
#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_util.h"

namespace {

struct Options {
    bench::ServerAddress server;
    int clients = 10;
    std::string channel = "bench";
};

void usage() {
    fprintf(stderr,
            "usage: subscribers -p PORT [-h HOST] [--clients N] [--channel NAME]\n"
            "N clients SUBSCRIBE to NAME, print \"ready ...\", then drain until the server closes them.\n");
    exit(2);
}

/* Reads the subscribe confirmation "*3 subscribe NAME :n" (blocking). */
void readConfirmation(int fd, const std::string &channel) {
    std::string expected = "*3\r\n$9\r\nsubscribe\r\n";
    bench::appendBulk(expected, channel);
    expected += ":1\r\n";
    std::string got;
    char buf[256];
    while (got.size() < expected.size()) {
        ssize_t n = read(fd, buf, std::min(sizeof(buf), expected.size() - got.size()));
        if (n <= 0) bench::die("connection closed before SUBSCRIBE was confirmed");
        got.append(buf, static_cast<size_t>(n));
    }
    if (got != expected) bench::die("unexpected reply to SUBSCRIBE: " + got);
}

}  // namespace

int main(int argc, char **argv) {
    Options opt;
    bench::parseCommandLine(argc, argv, usage, opt.server, [&](std::string_view name, const char *value) {
        if (name == "--clients") opt.clients = atoi(value);
        else if (name == "--channel") opt.channel = value;
        else return false;
        return true;
    });
    if (opt.clients < 1) bench::die("--clients must be at least 1");

    int ep = epoll_create1(0);
    if (ep < 0) bench::die("epoll_create1 failed");
    std::string subscribe = bench::command({"SUBSCRIBE", opt.channel});
    for (int i = 0; i < opt.clients; i++) {
        int fd = bench::connectTo(opt.server.host, opt.server.port);
        if (write(fd, subscribe.data(), subscribe.size()) != static_cast<ssize_t>(subscribe.size()))
            bench::die("cannot send SUBSCRIBE");
        readConfirmation(fd, opt.channel);
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.fd = fd;
        epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
    }
    printf("ready subscribers=%d\n", opt.clients);
    fflush(stdout);

    std::vector<char> buf(1 << 18);
    long long bytes = 0;
    for (int open = opt.clients; open > 0;) {
        epoll_event events[64];
        int n = epoll_wait(ep, events, 64, -1);
        if (n < 0 && errno != EINTR) bench::die("epoll_wait failed");
        for (int i = 0; i < n; i++) {
            int fd = events[i].data.fd;
            ssize_t got = read(fd, buf.data(), buf.size());
            if (got > 0) {
                bytes += got;
                continue;
            }
            if (got < 0 && errno == EINTR) continue;
            epoll_ctl(ep, EPOLL_CTL_DEL, fd, nullptr);
            close(fd);
            open--;
        }
    }
    printf("done subscribers=%d bytes=%lld\n", opt.clients, bytes);
    return 0;
}
