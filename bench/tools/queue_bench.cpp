/* queue_bench.cpp — a work queue on LPUSH / BRPOP, or on streams with a
 * consumer group (--stream), checked and timed.
 *
 * P producer connections LPUSH numbered messages onto K list keys; C consumer
 * connections loop `BRPOP key1 ... keyK timeout`. Every message is checked to
 * be consumed exactly once (none lost, none duplicated, each from the key it
 * was pushed to), and the run reports the throughput, the end-to-end latency
 * (each message carries the monotonic time its producer sent it) and, with
 * --server-pid, the server's CPU time per message.
 *
 * With --stream the K keys are streams, each with the consumer group "g":
 * producers `XADD key * m VALUE`, consumers loop
 * `XREADGROUP GROUP g cN COUNT 1 BLOCK ms STREAMS key1 ... keyK > ... >`
 * and acknowledge each message with `XACK key g id`, sent together with
 * their next XREADGROUP (the reliable queue of issue 15). At the end no
 * message may be left pending.
 *
 *   build/bench/queue_bench -p PORT [-h 127.0.0.1] [-P 4] [-C 8] [-K 4] [-n 50000]
 *                           [-r RATE | -r 0] [-d 16] [-w 0] [-t 1] [--server-pid PID]
 *                           [--prefix KEYPREFIX] [--stall 10] [--stream 1]
 *
 * Two modes:
 *   -r RATE > 0  fixed offered rate: message j (over all producers) is sent
 *                at start + j/RATE, whatever the replies do (an open loop),
 *                so at a modest rate the consumers are mostly blocked and
 *                each message wakes one of them;
 *   -r 0         saturation: each producer keeps -d LPUSHes in flight
 *                (pipelined) and sends the next as soon as one is answered;
 *                -w W > 0 also caps the messages produced but not yet
 *                consumed at W, so that the lists stay short and the
 *                consumers keep blocking instead of draining a backlog.
 *
 * Message j of producer p has the id p*1e9 + j, goes to key (p + j) % K and
 * holds "id:send_time_ns". The tool is one thread with an epoll loop over
 * non-blocking sockets, so its own timing does not depend on thread
 * scheduling. It exits 1 (and says why on stderr) if any message is lost,
 * duplicated, unknown or popped from the wrong key, if the lists are not
 * empty at the end, or on any error reply.
 *
 * Keys are KEYPREFIX0 .. KEYPREFIX(K-1) (by default a prefix unique to the
 * run), deleted before and after. If nothing is sent or consumed for --stall
 * seconds, the run stops and what is missing counts as lost.
 *
 * Output: one line of key=value figures (times in ms; *_us_per_msg in µs;
 * load1, the 1-minute load average at the end, says how busy the machine was).
 * The server's CPU time is the sum of the first field of
 * /proc/PID/task/ * /schedstat (exact on-CPU ns, user and kernel), read right
 * before the first message and right after the last one is consumed; its
 * split into user and system time (user_us_per_msg, sys_us_per_msg) comes
 * from utime and stime in /proc/PID/stat, read at the same moments.
 * Plain sockets and the C++ library only.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bench_util.h"

namespace {

using bench::die, bench::nowNs, bench::cpuNs, bench::userSysMs, bench::loadAverage, bench::connectTo,
    bench::appendBulk, bench::command;

struct Options : bench::ServerAddress {
    int producers = 4, consumers = 8, keys = 4;
    long messages = 50'000;
    double rate = 5000;  // msgs/s over all producers; 0 = saturation
    int depth = 16;      // saturation: LPUSHes in flight per producer
    long window = 0;     // saturation: max produced-but-unconsumed, 0 = no cap
    std::string timeout = "1";  // BRPOP timeout, as sent
    long server_pid = 0;
    std::string prefix;  // key prefix, unique per run by default
    double stall_s = 10; // give up when nothing is consumed for this long
    bool stream = false; // XADD / XREADGROUP / XACK instead of LPUSH / BRPOP
};

void usage() {
    fprintf(stderr,
            "usage: queue_bench -p PORT [-h HOST] [-P producers] [-C consumers] [-K keys] [-n messages]\n"
            "                   [-r rate|0] [-d depth] [-w window] [-t brpop_timeout] [--server-pid PID]\n"
            "                   [--prefix KEYPREFIX] [--stall SECONDS] [--stream 1]\n");
    exit(2);
}

Options parseOptions(int argc, char **argv) {
    Options o;
    bench::parseCommandLine(argc, argv, usage, o, [&](std::string_view a, const char *v) {
        if (a == "-P") o.producers = atoi(v);
        else if (a == "-C") o.consumers = atoi(v);
        else if (a == "-K") o.keys = atoi(v);
        else if (a == "-n") o.messages = atol(v);
        else if (a == "-r") o.rate = atof(v);
        else if (a == "-d") o.depth = atoi(v);
        else if (a == "-w") o.window = atol(v);
        else if (a == "-t") o.timeout = v;
        else if (a == "--server-pid") o.server_pid = atol(v);
        else if (a == "--prefix") o.prefix = v;
        else if (a == "--stall") o.stall_s = atof(v);
        else if (a == "--stream") o.stream = v != nullptr && std::string_view(v) == "1";
        else return false;
        return true;
    });
    if (o.port <= 0 || o.producers <= 0 || o.consumers <= 0 || o.keys <= 0 || o.messages <= 0 ||
        o.rate < 0 || o.depth <= 0 || o.window < 0 || o.stall_s <= 0)
        die("bad option value");
    if (o.messages / o.producers >= 1'000'000'000) die("at most 1e9 messages per producer");
    if (o.prefix.empty()) o.prefix = "qb:" + std::to_string(getpid()) + ":" + std::to_string(nowNs() % 1000000) + ":";
    return o;
}

/* ---- RESP ------------------------------------------------------------- */

/* One reply: a simple string, error, integer, bulk (or null), or an array
 * (or null), whose bulks are in elems (a null bulk as an empty view) and
 * whose other elements in items (XREADGROUP's nested arrays, XPENDING's
 * count), each list in the array's order. Views point into the read
 * buffer. */
struct Reply {
    char type = 0;  // '+', '-', ':', '$', '*'
    bool null = false;
    long long integer = 0;
    std::string_view str;
    std::vector<std::string_view> elems;
    std::vector<Reply> items;
};

bool parseInt(std::string_view s, long long &v) {
    if (s.empty()) return false;
    bool neg = s[0] == '-';
    if (neg) s.remove_prefix(1);
    if (s.empty()) return false;
    v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + (c - '0');
    }
    if (neg) v = -v;
    return true;
}

/* Parses one reply at buf[pos]; returns the position after it, or npos if the
 * buffer does not hold a whole reply yet. */
size_t parseReply(std::string_view buf, size_t pos, Reply &r) {
    constexpr size_t npos = std::string_view::npos;
    auto line = [&](size_t &p, std::string_view &l) {
        size_t eol = buf.find("\r\n", p);
        if (eol == npos) return false;
        l = buf.substr(p, eol - p);
        p = eol + 2;
        return true;
    };
    auto bulk = [&](size_t &p, std::string_view header, std::string_view &out, bool &isnull) {
        long long len;
        if (header.empty() || header[0] != '$' || !parseInt(header.substr(1), len)) die("bad bulk header in reply");
        isnull = len < 0;
        if (isnull) return true;
        if (buf.size() < p + static_cast<size_t>(len) + 2) return false;
        out = buf.substr(p, static_cast<size_t>(len));
        p += static_cast<size_t>(len) + 2;
        return true;
    };
    size_t p = pos;
    std::string_view l;
    if (!line(p, l)) return npos;
    if (l.empty()) die("empty reply line");
    r.type = l[0];
    r.null = false;
    r.elems.clear();
    r.items.clear();
    switch (r.type) {
    case '+':
    case '-':
        r.str = l.substr(1);
        return p;
    case ':':
        if (!parseInt(l.substr(1), r.integer)) die("bad integer reply");
        return p;
    case '$':
        if (!bulk(p, l, r.str, r.null)) return npos;
        return p;
    case '*': {
        long long n;
        if (!parseInt(l.substr(1), n)) die("bad array header in reply");
        if (n < 0) {
            r.null = true;
            return p;
        }
        for (long long i = 0; i < n; i++) {
            Reply item;
            p = parseReply(buf, p, item);
            if (p == npos) return npos;
            if (item.type == '$') r.elems.push_back(item.str);
            else r.items.push_back(std::move(item));
        }
        return p;
    }
    default:
        die("unexpected reply type '" + std::string(1, r.type) + "'");
    }
}

/* A blocking connection for set-up and final checks: one command, one reply. */
class ControlConn {
public:
    ControlConn(const std::string &host, int port) : fd_(connectTo(host, port)) {}
    ~ControlConn() { close(fd_); }
    std::string call(const std::vector<std::string> &args, long long *integer = nullptr) {
        std::string cmd = command(args);
        if (write(fd_, cmd.data(), cmd.size()) != static_cast<ssize_t>(cmd.size())) die("control write failed");
        std::string in;
        Reply r;
        char buf[16384];
        for (;;) {
            if (parseReply(in, 0, r) != std::string_view::npos) break;
            ssize_t n = read(fd_, buf, sizeof(buf));
            if (n <= 0) die("control connection closed");
            in.append(buf, static_cast<size_t>(n));
        }
        if (r.type == '-') die("error reply to " + args[0] + ": " + std::string(r.str));
        /* An integer reply, or an array's first integer (XPENDING's count). */
        if (integer) *integer = r.type == '*' && !r.items.empty() ? r.items[0].integer : r.integer;
        return std::string(r.str);
    }

private:
    int fd_;
};

/* ---- the benchmark ---------------------------------------------------- */

struct Conn {
    int fd = -1;
    bool producer = false;
    int index = 0;           // producer or consumer number
    std::string out;         // pending output
    size_t outpos = 0;
    bool want_write = false; // EPOLLOUT registered
    bool dirty = false;      // out has data not yet tried
    std::string in;
    size_t inpos = 0;
    long next_seq = 0;       // producer: next message number
    long count = 0;          // producer: messages to send
    int in_flight = 0;       // producer: LPUSHes not yet answered
};

class Bench {
public:
    explicit Bench(const Options &o) : o_(o) {}

    int run();

private:
    void setup();
    void loop();
    void onReadable(Conn &c, int64_t now);
    void onReply(Conn &c, const Reply &r, int64_t now);
    void sendLpush(Conn &c, int64_t now);
    void sendBrpop(Conn &c);
    void onBrpopReply(Conn &c, const Reply &r, int64_t now);
    void onXreadgroupReply(Conn &c, const Reply &r, int64_t now);
    void onMessage(std::string_view key, std::string_view val, int64_t now);
    void markDirty(Conn &c);
    void flush(Conn &c);
    void updateEvents(Conn &c);
    void topUpProducers(int64_t now);
    int report();

    const Options &o_;
    int ep_ = -1;
    std::vector<std::unique_ptr<Conn>> conns_;
    std::vector<Conn *> producers_, consumers_;
    std::vector<Conn *> dirty_;
    std::vector<std::string> keys_;
    std::string brpop_;  // the consumers' command (BRPOP, or XREADGROUP but for the consumer's name)
    std::vector<std::string> xreadgroup_;  // --stream: each consumer's XREADGROUP
    std::vector<std::vector<uint8_t>> seen_;  // [producer][seq]
    std::vector<int64_t> latencies_;          // ns
    long sent_ = 0, acked_ = 0, consumed_ = 0;
    long duplicates_ = 0, wrong_key_ = 0, unknown_ = 0, timeouts_ = 0;
    int64_t t0_ = 0, t_end_ = 0, cpu0_ = -1, cpu1_ = -1, last_progress_ = 0;
    double user0_ = 0, sys0_ = 0, user1_ = 0, sys1_ = 0;  // ms
    bool split_ = false;                                  // both readings of them worked
    bool stalled_ = false;
};

void Bench::setup() {
    for (int k = 0; k < o_.keys; k++) keys_.push_back(o_.prefix + std::to_string(k));
    {
        ControlConn ctl(o_.host, o_.port);
        std::vector<std::string> del = {"DEL"};
        del.insert(del.end(), keys_.begin(), keys_.end());
        ctl.call(del);
        if (o_.stream)
            for (const auto &k : keys_) ctl.call({"XGROUP", "CREATE", k, "g", "$", "MKSTREAM"});
    }
    std::vector<std::string> brpop = {"BRPOP"};
    brpop.insert(brpop.end(), keys_.begin(), keys_.end());
    brpop.push_back(o_.timeout);
    brpop_ = command(brpop);
    for (int i = 0; o_.stream && i < o_.consumers; i++) {
        std::vector<std::string> xrg = {"XREADGROUP", "GROUP", "g",      "c" + std::to_string(i),
                                        "COUNT",      "1",     "BLOCK",  std::to_string(static_cast<long>(atof(o_.timeout.c_str()) * 1000)),
                                        "STREAMS"};
        xrg.insert(xrg.end(), keys_.begin(), keys_.end());
        xrg.insert(xrg.end(), keys_.size(), ">");
        xreadgroup_.push_back(command(xrg));
    }

    ep_ = epoll_create1(0);
    if (ep_ < 0) die(std::string("epoll_create1: ") + strerror(errno));
    auto add = [&](bool producer, int index) {
        auto c = std::make_unique<Conn>();
        c->fd = connectTo(o_.host, o_.port);
        fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NONBLOCK);
        c->producer = producer;
        c->index = index;
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.ptr = c.get();
        if (epoll_ctl(ep_, EPOLL_CTL_ADD, c->fd, &ev) != 0) die(std::string("epoll_ctl: ") + strerror(errno));
        (producer ? producers_ : consumers_).push_back(c.get());
        conns_.push_back(std::move(c));
    };
    for (int i = 0; i < o_.consumers; i++) add(false, i);
    for (int p = 0; p < o_.producers; p++) {
        add(true, p);
        Conn &c = *producers_.back();
        c.count = o_.messages / o_.producers + (p < o_.messages % o_.producers ? 1 : 0);
        seen_.emplace_back(static_cast<size_t>(c.count), 0);
    }
    latencies_.reserve(static_cast<size_t>(o_.messages));
}

void Bench::markDirty(Conn &c) {
    if (!c.dirty) {
        c.dirty = true;
        dirty_.push_back(&c);
    }
}

/* The consumer's next read: BRPOP, or its XREADGROUP. */
void Bench::sendBrpop(Conn &c) {
    c.out += o_.stream ? xreadgroup_[static_cast<size_t>(c.index)] : brpop_;
    markDirty(c);
}

void Bench::sendLpush(Conn &c, int64_t now) {
    long seq = c.next_seq++;
    long long id = static_cast<long long>(c.index) * 1'000'000'000LL + seq;
    const std::string &key = keys_[static_cast<size_t>((c.index + seq) % o_.keys)];
    char val[64];
    int vlen = snprintf(val, sizeof(val), "%lld:%" PRId64, id, now);
    if (o_.stream) {
        c.out += "*5\r\n$4\r\nXADD\r\n";
        appendBulk(c.out, key);
        c.out += "$1\r\n*\r\n$1\r\nm\r\n";
    } else {
        c.out += "*3\r\n$5\r\nLPUSH\r\n";
        appendBulk(c.out, key);
    }
    appendBulk(c.out, std::string_view(val, static_cast<size_t>(vlen)));
    c.in_flight++;
    sent_++;
    last_progress_ = now;
    markDirty(c);
}

void Bench::updateEvents(Conn &c) {
    bool want = c.outpos < c.out.size();
    if (want == c.want_write) return;
    epoll_event ev{};
    ev.events = want ? EPOLLIN | EPOLLOUT : EPOLLIN;
    ev.data.ptr = &c;
    epoll_ctl(ep_, EPOLL_CTL_MOD, c.fd, &ev);
    c.want_write = want;
}

void Bench::flush(Conn &c) {
    while (c.outpos < c.out.size()) {
        ssize_t n = write(c.fd, c.out.data() + c.outpos, c.out.size() - c.outpos);
        if (n > 0) {
            c.outpos += static_cast<size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        die(std::string("write: ") + strerror(errno));
    }
    if (c.outpos == c.out.size()) {
        c.out.clear();
        c.outpos = 0;
    }
    updateEvents(c);
}

void Bench::onReply(Conn &c, const Reply &r, int64_t now) {
    if (r.type == '-') die("error reply on " + std::string(c.producer ? "producer" : "consumer") + " " +
                           std::to_string(c.index) + ": " + std::string(r.str));
    if (c.producer) {
        if (r.type != (o_.stream ? '$' : ':'))
            die(o_.stream ? "XADD answered with something else than an ID" : "LPUSH answered with something else than an integer");
        c.in_flight--;
        acked_++;
        return;
    }
    if (o_.stream) return onXreadgroupReply(c, r, now);
    onBrpopReply(c, r, now);
}

void Bench::onBrpopReply(Conn &c, const Reply &r, int64_t now) {
    if (r.type != '*') die("BRPOP answered with something else than an array");
    if (r.null) {
        timeouts_++;
        sendBrpop(c);
        return;
    }
    if (r.elems.size() != 2) die("BRPOP answered with an array of " + std::to_string(r.elems.size()) + " elements");
    onMessage(r.elems[0], r.elems[1], now);
    sendBrpop(c);
}

/* XACK's reply (:1), or XREADGROUP's: [[key, [[id, [m, value]]...]]...];
 * each message read is acknowledged in the same write as the next read. */
void Bench::onXreadgroupReply(Conn &c, const Reply &r, int64_t now) {
    if (r.type == ':') {
        if (r.integer != 1) die("XACK acknowledged " + std::to_string(r.integer) + " messages instead of 1");
        return;
    }
    if (r.type != '*') die("XREADGROUP answered with something else than an array");
    if (r.null) {
        timeouts_++;
        sendBrpop(c);
        return;
    }
    for (const Reply &stream : r.items) {
        if (stream.elems.size() != 1 || stream.items.size() != 1) die("XREADGROUP answered a malformed stream");
        std::string_view key = stream.elems[0];
        for (const Reply &entry : stream.items[0].items) {
            if (entry.elems.size() != 1 || entry.items.size() != 1 || entry.items[0].elems.size() != 2)
                die("XREADGROUP answered a malformed entry");
            onMessage(key, entry.items[0].elems[1], now);
            c.out += command({"XACK", std::string(key), "g", std::string(entry.elems[0])});
        }
    }
    sendBrpop(c);
}

/* A message consumed from `key`: checked against what was sent. */
void Bench::onMessage(std::string_view key, std::string_view val, int64_t now) {
    size_t colon = val.find(':');
    long long id, ts;
    if (colon == std::string_view::npos || !parseInt(val.substr(0, colon), id) || !parseInt(val.substr(colon + 1), ts))
        die("BRPOP returned a value that is no message of ours: " + std::string(val));
    long long p = id / 1'000'000'000LL, seq = id % 1'000'000'000LL;
    if (id < 0 || p >= o_.producers || seq >= producers_[static_cast<size_t>(p)]->count) {
        if (unknown_++ == 0) fprintf(stderr, "queue_bench: unknown message id %lld\n", id);
    } else if (seen_[static_cast<size_t>(p)][static_cast<size_t>(seq)]++) {
        if (duplicates_++ < 5) fprintf(stderr, "queue_bench: message %lld consumed again\n", id);
    } else {
        consumed_++;
        latencies_.push_back(now - ts);
        last_progress_ = now;
        if (key != keys_[static_cast<size_t>((p + seq) % o_.keys)] && wrong_key_++ < 5)
            fprintf(stderr, "queue_bench: message %lld popped from %.*s\n", id, static_cast<int>(key.size()), key.data());
    }
}

void Bench::onReadable(Conn &c, int64_t now) {
    char buf[256 * 1024];
    for (;;) {
        ssize_t n = read(c.fd, buf, sizeof(buf));
        if (n > 0) {
            c.in.append(buf, static_cast<size_t>(n));
            if (static_cast<size_t>(n) < sizeof(buf)) break;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
        die(n == 0 ? "server closed a connection" : std::string("read: ") + strerror(errno));
    }
    Reply r;
    for (;;) {
        size_t next = parseReply(c.in, c.inpos, r);
        if (next == std::string_view::npos) break;
        c.inpos = next;
        onReply(c, r, now);
    }
    if (c.inpos == c.in.size()) {
        c.in.clear();
        c.inpos = 0;
    } else if (c.inpos > 64 * 1024) {
        c.in.erase(0, c.inpos);
        c.inpos = 0;
    }
}

/* Saturation: every producer refills its pipeline, within the window. */
void Bench::topUpProducers(int64_t now) {
    bool more = true;
    while (more) {
        more = false;
        for (Conn *c : producers_) {
            if (c->next_seq >= c->count || c->in_flight >= o_.depth) continue;
            if (o_.window > 0 && sent_ - consumed_ >= o_.window) return;
            sendLpush(*c, now);
            more = true;
        }
    }
}

void Bench::loop() {
    const bool fixed = o_.rate > 0;
    const double interval_ns = fixed ? 1e9 / o_.rate : 0;
    long next_j = 0;  // fixed rate: the next message over all producers
    std::vector<epoll_event> evs(1024);

    cpu0_ = cpuNs(o_.server_pid);
    split_ = userSysMs(o_.server_pid, user0_, sys0_);
    t0_ = last_progress_ = nowNs();
    for (Conn *c : consumers_) sendBrpop(*c);
    while (consumed_ < o_.messages) {
        int64_t now = nowNs();
        if (fixed) {
            while (next_j < o_.messages && t0_ + static_cast<int64_t>(next_j * interval_ns) <= now) {
                sendLpush(*producers_[static_cast<size_t>(next_j % o_.producers)], now);
                next_j++;
            }
        } else {
            topUpProducers(now);
        }
        for (Conn *c : dirty_) {
            c->dirty = false;
            flush(*c);
        }
        dirty_.clear();

        /* Nothing consumed, and nothing sent, for the stall period: what is
         * missing is lost (or the server hangs). */
        if (now - last_progress_ > static_cast<int64_t>(o_.stall_s * 1e9)) {
            stalled_ = true;
            break;
        }
        int64_t wait_ns = 100'000'000;
        if (fixed && next_j < o_.messages)
            wait_ns = std::max<int64_t>(0, t0_ + static_cast<int64_t>(next_j * interval_ns) - now);
        timespec ts{static_cast<time_t>(wait_ns / 1'000'000'000), static_cast<long>(wait_ns % 1'000'000'000)};
        int n = epoll_pwait2(ep_, evs.data(), static_cast<int>(evs.size()), &ts, nullptr);
        if (n < 0 && errno != EINTR) die(std::string("epoll_pwait2: ") + strerror(errno));
        now = nowNs();
        for (int i = 0; i < n; i++) {
            Conn &c = *static_cast<Conn *>(evs[static_cast<size_t>(i)].data.ptr);
            if (evs[static_cast<size_t>(i)].events & EPOLLOUT) flush(c);
            if (evs[static_cast<size_t>(i)].events & (EPOLLIN | EPOLLERR | EPOLLHUP)) onReadable(c, now);
        }
    }
    t_end_ = nowNs();
    cpu1_ = cpuNs(o_.server_pid);
    split_ = userSysMs(o_.server_pid, user1_, sys1_) && split_;

    /* A short grace period in which a message delivered twice would show. */
    int64_t grace_end = nowNs() + 200'000'000;
    for (int64_t now = nowNs(); now < grace_end; now = nowNs()) {
        for (Conn *c : dirty_) {
            c->dirty = false;
            flush(*c);
        }
        dirty_.clear();
        int64_t wait_ns = grace_end - now;
        timespec ts{static_cast<time_t>(wait_ns / 1'000'000'000), static_cast<long>(wait_ns % 1'000'000'000)};
        int n = epoll_pwait2(ep_, evs.data(), static_cast<int>(evs.size()), &ts, nullptr);
        for (int i = 0; i < n; i++) onReadable(*static_cast<Conn *>(evs[static_cast<size_t>(i)].data.ptr), nowNs());
    }
}

int Bench::report() {
    /* Whatever is still in the lists was pushed and never consumed; in a
     * stream, what is still pending was read and never acknowledged. */
    long long left = 0;
    {
        ControlConn ctl(o_.host, o_.port);
        for (const auto &k : keys_) {
            long long len = 0;
            if (o_.stream) ctl.call({"XPENDING", k, "g"}, &len);
            else ctl.call({"LLEN", k}, &len);
            left += len;
        }
        std::vector<std::string> del = {"DEL"};
        del.insert(del.end(), keys_.begin(), keys_.end());
        ctl.call(del);
    }
    long lost = o_.messages - consumed_;
    double secs = static_cast<double>(t_end_ - t0_) / 1e9;
    std::sort(latencies_.begin(), latencies_.end());
    auto pct = [&](double q) {
        if (latencies_.empty()) return 0.0;
        size_t i = std::min(latencies_.size() - 1, static_cast<size_t>(q * static_cast<double>(latencies_.size())));
        return static_cast<double>(latencies_[i]) / 1e6;
    };
    double cpu_ms = cpu0_ >= 0 && cpu1_ >= 0 ? static_cast<double>(cpu1_ - cpu0_) / 1e6 : -1;
    auto per_msg_us = [&](double ms) { return ms * 1000 / static_cast<double>(o_.messages); };
    double user_ms = split_ ? user1_ - user0_ : -1, sys_ms = split_ ? sys1_ - sys0_ : -1;
    printf("mode=%s rate=%.0f producers=%d consumers=%d keys=%d depth=%d window=%ld msgs=%ld secs=%.3f "
           "msgs_per_s=%.0f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f max_ms=%.3f cpu_ms=%.1f cpu_us_per_msg=%.3f "
           "user_ms=%.0f sys_ms=%.0f user_us_per_msg=%.3f sys_us_per_msg=%.3f "
           "brpop_timeouts=%ld lost=%ld duplicated=%ld unknown=%ld wrong_key=%ld left_in_lists=%lld load1=%.2f\n",
           o_.rate > 0 ? "rate" : "saturation", o_.rate, o_.producers, o_.consumers, o_.keys, o_.depth, o_.window,
           o_.messages, secs, static_cast<double>(consumed_) / secs, pct(0.5), pct(0.9), pct(0.99),
           latencies_.empty() ? 0.0 : static_cast<double>(latencies_.back()) / 1e6, cpu_ms,
           cpu_ms >= 0 ? per_msg_us(cpu_ms) : -1.0, user_ms, sys_ms, split_ ? per_msg_us(user_ms) : -1.0,
           split_ ? per_msg_us(sys_ms) : -1.0, timeouts_, lost, duplicates_, unknown_, wrong_key_, left,
           loadAverage());
    fflush(stdout);
    bool ok = true;
    if (lost) {
        fprintf(stderr, "queue_bench: FAIL: %ld of %ld messages never consumed (%s; %lld still in the lists)\n", lost,
                o_.messages, stalled_ ? "nothing consumed for the stall period" : "stopped", left);
        ok = false;
    }
    if (duplicates_ || unknown_ || wrong_key_) {
        fprintf(stderr, "queue_bench: FAIL: %ld duplicated, %ld unknown, %ld from the wrong key\n", duplicates_,
                unknown_, wrong_key_);
        ok = false;
    }
    if (left && !lost) {
        fprintf(stderr, "queue_bench: FAIL: %lld elements left in the lists after every message was consumed\n", left);
        ok = false;
    }
    return ok ? 0 : 1;
}

int Bench::run() {
    setup();
    loop();
    int rc = report();
    for (auto &c : conns_) close(c->fd);
    return rc;
}

}  // namespace

int main(int argc, char **argv) {
    Options o = parseOptions(argc, argv);
    Bench b(o);
    return b.run();
}
