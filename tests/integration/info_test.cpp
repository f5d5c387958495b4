/* info_test.cpp — INFO and CLIENT LIST figures that the server measures on
 * its own time (serverCron, clientsCron, the BGSAVE child), as Redis 7.0
 * measures them: each InfoFigures test runs on cppredis and on Redis 7.0.15
 * and asserts what both must show.
 *
 *   client_recent_max_input_buffer / _output_buffer   clientsCron's slots
 *   used_memory_peak             sampled by the cron, not only by INFO
 *   current_save_keys_processed, current_fork_perc,
 *   rdb_last_cow_size, aof_last_cow_size              the child-info pipe
 *   CLIENT LIST rbp              the reply buffer's recent peak
 */
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

constexpr long long MB = 1024 * 1024;

class InfoFigures : public EitherServerTest {
protected:
    long long clients(const std::string &field) { return infoNumber(*c, "clients", field); }
    long long persistence(const std::string &field) { return infoNumber(*c, "persistence", field); }
    double forkPerc() { return std::stod(infoField(*c, "persistence", "current_fork_perc")); }

    /* Opens a client that sends a SET whose `len`-byte value is all but its
     * last 10 bytes, and waits until the server holds them all in that
     * client's query buffer (CLIENT LIST, which leaves INFO's figures alone;
     * Redis's qbuf counts the bulk only, cppredis's the header too). */
    RespConn holdPartialBulk(long long len) {
        RespConn held = srv->connect();
        EXPECT_EQ(held.call({"PING"}).raw, "+PONG\r\n"); /* accepted: in CLIENT LIST */
        std::string prefix = "*3\r\n$3\r\nSET\r\n$4\r\nheld\r\n$" + std::to_string(len) + "\r\n";
        held.send(prefix + std::string(static_cast<size_t>(len) - 10, 'x'));
        std::string addr = held.localAddr();
        EXPECT_TRUE(pollUntil([&] {
            return std::stoll(clientField(clientListLine(*c, "addr", addr), "qbuf")) >= len - 10;
        })) << "the server never read the partial request";
        return held;
    }

    static constexpr size_t kValueSize = 100000;

    /* `keys` values of 100 kB, then `start` (BGSAVE, BGREWRITEAOF) with the
     * child slowed to 30 ms a key, and every page of every value rewritten
     * in place by the parent while the child runs. */
    void startSlowChildWhileRewriting(int keys, const Args &start, const std::string &started) {
        std::vector<Args> sets, rewrites;
        for (int i = 0; i < keys; i++) {
            sets.push_back({"SET", "k" + std::to_string(i), std::string(kValueSize, 'a')});
            rewrites.push_back({"SETRANGE", "k" + std::to_string(i), "0", std::string(kValueSize, 'b')});
        }
        pipeline(*c, sets);
        EXPECT_EQ(call({"CONFIG", "SET", "rdb-key-save-delay", "30000"}), OK);
        EXPECT_EQ(call(start), started);
        /* The child has its own copy of the delay; the save at shutdown must not be slow. */
        EXPECT_EQ(call({"CONFIG", "SET", "rdb-key-save-delay", "0"}), OK);
        RespConn writer = srv->connect();
        pipeline(writer, rewrites);
    }

    /* Redis's child gives each value back to the kernel once written
     * (dismissObject), so its figure counts only the values the parent
     * rewrote before the child reached them; cppredis's child keeps its
     * copies: at least half the rewritten bytes. */
    void expectCopyOnWrite(const std::string &field, int keys) {
        EXPECT_GT(persistence(field), 0);
        if (cppredis()) {
            EXPECT_GE(persistence(field), static_cast<long long>(keys * kValueSize / 2));
        }
    }
};

/* A client whose query buffer holds a 1 MB bulk shows in
 * client_recent_max_input_buffer once clientsCron has visited it (within
 * about a second). The figure then lasts for the 8 one-second slots: that
 * decay, 8 s of wall clock whatever hz is, is left untested. */
TEST_P(InfoFigures, RecentMaxInputBufferSeesAHeldBulk) {
    EXPECT_LT(clients("client_recent_max_input_buffer"), MB);
    RespConn held = holdPartialBulk(MB);
    EXPECT_TRUE(pollUntil([&] { return clients("client_recent_max_input_buffer") >= MB; }))
        << clients("client_recent_max_input_buffer");
    held.send(std::string(10, 'x') + "\r\n");
    EXPECT_EQ(held.readReply().raw, OK);
}

/* Replies a client does not read pile up in its output buffer: the cron
 * sees them in client_recent_max_output_buffer. 32 MB of replies are more
 * than the kernel's socket buffers can take on loopback. */
TEST_P(InfoFigures, RecentMaxOutputBufferSeesUnreadReplies) {
    EXPECT_EQ(call({"SET", "big", std::string(MB, 'v')}), OK);
    EXPECT_EQ(clients("client_recent_max_output_buffer"), 0);
    RespConn reader = srv->connect();
    std::string gets;
    for (int i = 0; i < 32; i++) gets += encodeCommand({"GET", "big"});
    reader.send(gets);
    EXPECT_TRUE(pollUntil([&] { return clients("client_recent_max_output_buffer") >= MB; }))
        << clients("client_recent_max_output_buffer");
}

/* used_memory_peak is sampled by serverCron: memory that grew and shrank
 * again with no INFO memory in between still shows as the peak. The growth
 * is an 8 MB request held in a query buffer; an expired key that only the
 * cron's active expiry removes proves a cron ran while it was held. */
TEST_P(InfoFigures, UsedMemoryPeakIsSampledWithoutInfo) {
    long long used_before = infoNumber(*c, "memory", "used_memory");
    RespConn held = holdPartialBulk(8 * MB);
    EXPECT_EQ(call({"SET", "tick", "1", "PX", "1"}), OK);
    EXPECT_TRUE(pollUntil([&] { return c->call({"DBSIZE"}).integer == 0; })) << "no cron expired the key";
    held.close();
    EXPECT_TRUE(pollUntil([&] { return clients("connected_clients") == 1; }));
    Info mem = info(*c, {"memory"});
    long long peak = std::stoll(mem.fields["used_memory_peak"]);
    long long used = std::stoll(mem.fields["used_memory"]);
    EXPECT_GE(peak, used_before + 8 * MB);
    EXPECT_LT(used, used_before + 4 * MB) << "the held request was not freed";
}

/* While a slow BGSAVE runs, the child reports through the child-info pipe
 * how many keys it wrote (current_save_keys_processed, current_fork_perc of
 * the keys there were at the fork); the pages the parent rewrites meanwhile
 * stay private to the child, which reports them as its copy-on-write size
 * when it ends (rdb_last_cow_size). The current_* figures go back to 0. */
TEST_P(InfoFigures, BgsaveReportsProgressAndCopyOnWrite) {
    constexpr int keys = 100;
    startSlowChildWhileRewriting(keys, {"BGSAVE"}, "+Background saving started\r\n");
    EXPECT_TRUE(pollUntil([&] { return persistence("current_save_keys_processed") > 0; }));
    EXPECT_EQ(persistence("rdb_bgsave_in_progress"), 1) << "the save ended before the check: not a running save";
    EXPECT_EQ(persistence("current_save_keys_total"), keys);
    EXPECT_GT(forkPerc(), 0.0);
    EXPECT_LE(forkPerc(), 100.0);

    EXPECT_TRUE(pollUntil([&] { return persistence("rdb_bgsave_in_progress") == 0; }, Ms{20000}));
    EXPECT_EQ(infoField(*c, "persistence", "rdb_last_bgsave_status"), "ok");
    expectCopyOnWrite("rdb_last_cow_size", keys);
    EXPECT_EQ(persistence("current_save_keys_processed"), 0);
    EXPECT_EQ(persistence("current_save_keys_total"), 0);
    EXPECT_EQ(persistence("current_cow_size"), 0);
    EXPECT_EQ(persistence("current_cow_peak"), 0);
    EXPECT_EQ(infoField(*c, "persistence", "current_fork_perc"), "0.00");
}

/* The same pipe for an AOF rewrite: aof_last_cow_size. */
TEST_P(InfoFigures, AofRewriteReportsCopyOnWrite) {
    constexpr int keys = 50;
    startSlowChildWhileRewriting(keys, {"BGREWRITEAOF"}, "+Background append only file rewriting started\r\n");
    EXPECT_TRUE(pollUntil([&] { return persistence("current_save_keys_processed") > 0; }));
    EXPECT_EQ(persistence("aof_rewrite_in_progress"), 1);
    EXPECT_EQ(persistence("current_save_keys_total"), keys);
    EXPECT_TRUE(pollUntil([&] { return persistence("aof_rewrite_in_progress") == 0; }, Ms{20000}));
    EXPECT_EQ(infoField(*c, "persistence", "aof_last_bgrewrite_status"), "ok");
    expectCopyOnWrite("aof_last_cow_size", keys);
}

INSTANTIATE_TEST_SUITE_P(Servers, InfoFigures, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* CLIENT LIST rbp is the most of the reply buffer used recently: the peak
 * starts at the buffer's size and restarts every 5 seconds from what the
 * buffer holds, then rises with the replies. (cppredis only: Redis 7.0 also
 * resizes the buffer to the peak, so its rbs and rbp move together.) */
TEST(ClientList, ReplyBufferPeakIsMeasured) {
    TestServer srv;
    RespConn c = srv.connect();
    auto field = [&](const char *name) {
        Reply r = c.call({"CLIENT", "INFO"});
        return std::stoll(clientField(parseClientList(r.str).at(0), name));
    };
    EXPECT_EQ(field("rbp"), field("rbs"));
    EXPECT_TRUE(pollUntil(
        [&] {
            std::this_thread::sleep_for(Ms{20});
            return field("rbp") < 1000;
        },
        Ms{10000}))
        << "the peak was never reset";
    EXPECT_EQ(c.call({"SET", "v", std::string(5000, 'x')}).raw, OK);
    EXPECT_EQ(c.call({"GET", "v"}).str.size(), 5000u);
    long long rbp = field("rbp");
    EXPECT_GE(rbp, 5000);
    EXPECT_LT(rbp, field("rbs"));
}

}  // namespace
