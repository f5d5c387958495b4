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
 *
 * And INFO's shape against Redis 7.0.15 (InfoShape): the fields of INFO
 * everything, section by section and in order, errorstats and the
 * rejected/failed calls of commandstats after the same errors, the
 * sections each INFO argument selects, and what CONFIG RESETSTAT zeroes.
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <thread>
#include <utility>
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

/* INFO memory's allocator figures are jemalloc's (stats.allocated, .active,
 * .resident; Redis samples them in its cron, cppredis when INFO runs) and
 * tie together as Redis ties them: an 8 MB value shows in
 * allocator_allocated, allocated <= active <= resident, each *_bytes is the
 * difference of the figures printed, the replication buffers are the
 * backlog's plus the replicas', and the value is in the dataset. */
TEST_P(InfoFigures, MemoryFiguresAreTheAllocatorsAndAddUp) {
    long long before = infoNumber(*c, "memory", "allocator_allocated");
    ASSERT_EQ(call({"SET", "big", std::string(8 * MB, 'x')}), OK);
    EXPECT_TRUE(pollUntil([&] { return infoNumber(*c, "memory", "allocator_allocated") >= before + 8 * MB; }));
    Info m = info(*c, {"memory"});
    auto num = [&m](const char *field) { return std::stoll(m.fields.at(field)); };
    EXPECT_LE(num("allocator_allocated"), num("allocator_active"));
    EXPECT_LE(num("allocator_active"), num("allocator_resident"));
    EXPECT_EQ(num("allocator_frag_bytes"), num("allocator_active") - num("allocator_allocated"));
    EXPECT_EQ(num("allocator_rss_bytes"), num("allocator_resident") - num("allocator_active"));
    EXPECT_EQ(num("rss_overhead_bytes"), num("used_memory_rss") - num("allocator_resident"));
    EXPECT_EQ(num("mem_total_replication_buffers"), num("mem_replication_backlog") + num("mem_clients_slaves"));
    EXPECT_GE(num("used_memory_dataset"), 8 * MB);
    EXPECT_GT(num("used_memory_overhead"), 0);
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

/* ------------------------------------------------------------------------
 * InfoShape: INFO's sections and fields against Redis 7.0.15.
 * ---------------------------------------------------------------------- */

/* The fields of Redis 7.0.15's INFO everything that cppredis leaves out:
 * the list docs/ref-compatibility.md gives ("INFO fields cppredis leaves out"), with why. */
const std::set<std::string> kAbsentFields = {
    /* Redis's estimates of its script caches' own structures */
    "used_memory_scripts_eval", "used_memory_functions", "used_memory_scripts", "used_memory_scripts_human",
    /* mechanisms cppredis does not have */
    "slave_expires_tracked_keys"};

/* Sections whose lines depend on what ran (one per command, error code,
 * database): compared by their header only. */
const std::set<std::string> kDynamicSections = {"# Commandstats", "# Errorstats", "# Latencystats", "# Keyspace"};

/* INFO's lines in order: the "# Section" headers, and "section/field" for
 * each field of a section not in kDynamicSections. */
std::vector<std::string> infoShape(std::string_view text) {
    std::vector<std::string> shape;
    std::string section;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = std::min(text.find("\r\n", pos), text.size());
        std::string line(text.substr(pos, end - pos));
        pos = end + 2;
        if (line.empty()) continue;
        if (line[0] == '#') {
            section = line;
            shape.push_back(line);
        } else if (!kDynamicSections.count(section)) {
            shape.push_back(section + "/" + line.substr(0, line.find(':')));
        }
    }
    return shape;
}

std::string fieldOf(const std::string &entry) { return entry.substr(entry.find('/') + 1); }

class InfoShape : public ::testing::Test {
protected:
    void SetUp() override { REQUIRE_REDIS_REFERENCE(); }
    TestServer ours;
    std::unique_ptr<RedisReference> ref =
        RedisReference::available() ? std::make_unique<RedisReference>() : nullptr;

    /* The same commands to both servers, replies byte-identical. */
    void both(const std::vector<Args> &script) {
        RespConn a = ours.connect(), b = ref->connect();
        expectSameScript(a, b, script);
    }
    static std::string infoText(TestServer &srv, const Args &sections) {
        RespConn conn = srv.connect();
        Args args{"INFO"};
        args.insert(args.end(), sections.begin(), sections.end());
        return conn.call(args).str;
    }
    /* The commandstats line of `cmd` without its timing (calls, rejected and
     * failed calls), "" if the command has none. */
    static std::string callCounts(TestServer &srv, const std::string &cmd) {
        Info in = parseInfo(infoText(srv, {"commandstats"}));
        auto it = in.fields.find("cmdstat_" + cmd);
        if (it == in.fields.end()) return "";
        std::string v = it->second;
        size_t usec = v.find(",usec="), rejected = v.find(",rejected_calls=");
        return v.substr(0, usec) + v.substr(rejected);
    }
};

/* Every field of Redis's INFO everything is in cppredis's, in the same
 * section and the same order, or in the documented absent list (and
 * those are absent). cppredis's own extra fields (cppredis_version) may sit
 * between them. */
TEST_F(InfoShape, EverythingHasRedisFieldsInOrderOrDocumentedAbsent) {
    std::vector<std::string> redis = infoShape(infoText(*ref, {"everything"}));
    std::vector<std::string> mine = infoShape(infoText(ours, {"everything"}));
    ASSERT_FALSE(redis.empty());
    size_t at = 0; /* where in cppredis's lines the next Redis line is looked for */
    for (const std::string &entry : redis) {
        if (kAbsentFields.count(fieldOf(entry))) continue;
        auto found = std::find(mine.begin() + static_cast<long>(at), mine.end(), entry);
        ASSERT_TRUE(found != mine.end()) << entry << " is missing, or out of Redis's order";
        at = static_cast<size_t>(found - mine.begin()) + 1;
    }
    for (const std::string &entry : mine)
        EXPECT_FALSE(kAbsentFields.count(fieldOf(entry))) << entry << " is listed as absent";
    for (const std::string &absent : kAbsentFields) {
        EXPECT_TRUE(std::any_of(redis.begin(), redis.end(), [&](const std::string &e) { return fieldOf(e) == absent; }))
            << absent << " is listed as absent but Redis 7.0.15 does not print it either";
    }
}

/* The sections each argument selects: none and "default" the default
 * ones (errorstats, cluster and the empty modules section among them),
 * "all" and "everything" all, names case-insensitively, several at once
 * in the server's order, an unknown one nothing. */
TEST_F(InfoShape, SectionArgumentsSelectAsRedis) {
    const std::vector<Args> selections = {{},
                                          {"default"},
                                          {"all"},
                                          {"everything"},
                                          {"KEYSPACE", "server"},
                                          {"errorstats", "commandstats"},
                                          {"default", "commandstats"},
                                          {"modules"},
                                          {"module_list"},
                                          {"cluster"},
                                          {"cpu"},
                                          {"nosuchsection"},
                                          {"everything", "nosuchsection"}};
    for (const Args &sel : selections) {
        Info mine = parseInfo(infoText(ours, sel)), redis = parseInfo(infoText(*ref, sel));
        std::string what = "INFO";
        for (const std::string &a : sel) what += " " + a;
        EXPECT_EQ(mine.sections, redis.sections) << what;
    }
    RespConn a = ours.connect(), b = ref->connect();
    expectSameReplies(a, b, encodeCommand({"INFO", "nosuchsection"}));
    expectSameReplies(a, b, encodeCommand({"INFO", "cluster"}));
}

/* The same errors on both servers: INFO errorstats byte for byte, and the
 * rejected and failed calls of each command as Redis 7.0 counts them —
 * refused before running (arity, unknown subcommand, OOM) is rejected, an
 * error of its own is failed, an error inside EXEC is the queued command's,
 * a script's failed redis.call is the called command's and the script's. */
TEST_F(InfoShape, ErrorstatsAndCallCountsAsRedis) {
    both({{"SET", "s", "v"},
          {"LPUSH", "s", "x"},
          {"GET"},
          {"NOSUCHCOMMAND", "a"},
          {"CONFIG", "NOSUCHSUB"},
          {"CONFIG", "GET"},
          {"INCR", "s"},
          {"SET", "a", "b", "NX", "XX"},
          {"EVALSHA", "ffffffffffffffffffffffffffffffffffffffff", "0"},
          {"MULTI"},
          {"LPUSH", "s", "x"},
          {"INCR", "s"},
          {"EXEC"},
          {"MULTI"},
          {"GET"},
          {"EXEC"},
          {"EVAL", "return redis.call('lpush', 's', 'x')", "0"},
          {"EVAL", "return redis.pcall('lpush', 's', 'x')", "0"},
          {"EVAL", "return redis.call('nosuchcommand')", "0"},
          {"EVAL", "return redis.call('get')", "0"},
          {"EVAL", "error('boom')", "0"},
          {"EVAL", "return {err='MYERR custom code'}", "0"},
          {"EVAL", "return {err='nospace'}", "0"},
          {"EVAL", "return redis.pcall('nosuchcommand')", "0"},
          {"CONFIG", "SET", "maxmemory", "1"},
          {"SET", "a", "b"},
          {"CONFIG", "SET", "maxmemory", "0"}});
    EXPECT_EQ(infoText(ours, {"errorstats"}), infoText(*ref, {"errorstats"}));
    RespConn a = ours.connect(), b = ref->connect();
    EXPECT_EQ(infoField(a, "stats", "total_error_replies"), infoField(b, "stats", "total_error_replies"));
    for (const char *cmd : {"get", "set", "lpush", "incr", "exec", "eval", "evalsha", "config|get", "config|set"})
        EXPECT_EQ(callCounts(ours, cmd), callCounts(*ref, cmd)) << cmd;
}

/* The scripts cached and the functions and libraries loaded, as Redis
 * counts them; the interpreters' memory is Lua's own count. */
TEST_F(InfoShape, ScriptAndFunctionCountsAsRedis) {
    both({{"SCRIPT", "LOAD", "return 1"},
          {"EVAL", "return 2", "0"},
          {"FUNCTION", "LOAD",
           "#!lua name=lib\nredis.register_function('f1', function() return 1 end)\n"
           "redis.register_function('f2', function() return 2 end)"}});
    RespConn a = ours.connect(), b = ref->connect();
    Info mine = info(a, {"memory"}), redis = info(b, {"memory"});
    for (const char *field : {"number_of_cached_scripts", "number_of_functions", "number_of_libraries"})
        EXPECT_EQ(mine.fields[field], redis.fields[field]) << field;
    EXPECT_EQ(mine.fields["number_of_cached_scripts"], "2");
    EXPECT_EQ(mine.fields["number_of_functions"], "2");
    EXPECT_GT(std::stoll(mine.fields["used_memory_vm_eval"]), 0);
    EXPECT_GT(std::stoll(mine.fields["used_memory_vm_functions"]), 0);
    EXPECT_EQ(std::stoll(mine.fields["used_memory_vm_total"]),
              std::stoll(mine.fields["used_memory_vm_eval"]) + std::stoll(mine.fields["used_memory_vm_functions"]));
    EXPECT_EQ(mine.fields["used_memory_lua"], mine.fields["used_memory_vm_eval"]);
}

/* CONFIG RESETSTAT zeroes errorstats, commandstats (CONFIG RESETSTAT itself
 * then shows, counted once it has run) and the counters of INFO stats and
 * persistence that Redis resets, on both servers alike. */
TEST_F(InfoShape, ConfigResetstatZeroesWhatRedisZeroes) {
    both({{"SET", "k", "v"},
          {"GET", "k"},
          {"GET", "missing"},
          {"LPUSH", "k", "x"},
          {"GET"},
          {"SAVE"}});
    for (TestServer *srv : {static_cast<TestServer *>(&ours), static_cast<TestServer *>(ref.get())}) {
        RespConn conn = srv->connect();
        EXPECT_EQ(conn.call({"BGSAVE"}).raw, "+Background saving started\r\n");
        EXPECT_TRUE(pollUntil([&] { return infoNumber(conn, "persistence", "rdb_bgsave_in_progress") == 0; }));
        EXPECT_EQ(infoNumber(conn, "stats", "total_forks"), 1);
    }
    const std::vector<std::pair<std::string, std::string>> counters = {
        {"stats", "total_error_replies"}, {"stats", "keyspace_hits"},      {"stats", "keyspace_misses"},
        {"stats", "total_commands_processed"}, {"stats", "total_forks"}, {"stats", "latest_fork_usec"},
        {"stats", "expired_stale_perc"},  {"persistence", "rdb_saves"}};
    both({{"CONFIG", "RESETSTAT"}});
    for (TestServer *srv : {static_cast<TestServer *>(&ours), static_cast<TestServer *>(ref.get())}) {
        Info cmdstats = parseInfo(infoText(*srv, {"commandstats"}));
        EXPECT_EQ(cmdstats.fields.size(), 1u) << "only CONFIG RESETSTAT itself";
        EXPECT_EQ(cmdstats.fields.count("cmdstat_config|resetstat"), 1u);
        EXPECT_EQ(infoText(*srv, {"errorstats"}), "# Errorstats\r\n");
    }
    for (const auto &[section, field] : counters) {
        RespConn a = ours.connect(), b = ref->connect();
        EXPECT_EQ(infoField(a, section, field), infoField(b, section, field)) << field;
    }
    RespConn a = ours.connect();
    EXPECT_EQ(infoNumber(a, "stats", "total_error_replies"), 0);
    EXPECT_EQ(infoNumber(a, "stats", "keyspace_hits"), 0);
    EXPECT_EQ(infoNumber(a, "persistence", "rdb_saves"), 0);
    EXPECT_EQ(infoNumber(a, "stats", "expire_cycle_cpu_milliseconds"), 0);
}

}  // namespace
