/* aof_test.cpp — propagation and the AOF buffers without a server process:
 * socketless clients run commands through processInputBuffer and the tests
 * read server.aof_buf, the bytes the next flush will write. The execution
 * unit (one op, or MULTI ... EXEC around several, the SELECT before the
 * MULTI), what goes where in each aof_state, and the ordering that makes a
 * reply wait for its write: beforeSleep writes the AOF before the replies,
 * and the write handler holds a reply while aof_buf is not written. The
 * bytes Redis 7.0 writes are checked by the integration suite. */
#include <gtest/gtest.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "aof.h"
#include "server.h"
#include "server_main.h"
#include "util.h"
#include "command_test.h"

namespace {

std::string resp(const std::vector<std::string_view> &argv) {
    std::string out;
    catAppendOnlyGenericCommand(out, argv);
    return out;
}

const std::string kMulti = resp({"MULTI"}), kExec = resp({"EXEC"});

/* Whether `fd` has bytes to read within `ms`. */
bool readable(int fd, int ms) {
    pollfd p{fd, POLLIN, 0};
    return poll(&p, 1, ms) == 1;
}

/* Whether thread `tid` of this process is inside a write(2) to `fd`, as
 * /proc/self/task/TID/syscall says: the number of the system call it is
 * blocked in, then its arguments in hex ("running" while it runs). */
bool inWriteTo(pid_t tid, int fd) {
    std::ifstream f("/proc/self/task/" + std::to_string(tid) + "/syscall");
    long nr = -1;
    std::string arg0;
    return f >> nr >> arg0 && nr == SYS_write && std::stol(arg0, nullptr, 16) == fd;
}

/* Polls inWriteTo for up to `limit`: a thread that is never scheduled, or
 * never reaches the write, is reported rather than taken for one blocked. */
bool waitInWriteTo(const std::atomic<pid_t> &tid, int fd, std::chrono::milliseconds limit) {
    auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
        if (pid_t t = tid.load(); t != 0 && inWriteTo(t, fd)) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
}

class Aof : public CommandTest {
protected:
    void SetUp() override {
        server.aof_state = AOF_ON; /* no file: nothing is flushed, aof_buf is what a flush would write */
        server.aof_selected_db = 0;
    }
    void TearDown() override {
        freeClients();
        emptyData(-1, EMPTYDB_NO_FLAGS);
        server.aof_state = AOF_OFF;
        server.aof_fd = -1;
        server.aof_selected_db = -1;
        server.child_type = CHILD_TYPE_NONE;
        server.aof_buf.clear();
        EXPECT_TRUE(server.also_propagate.empty()) << "an execution unit was left open";
    }

    /* A client on one end of a socket pair; the test reads the other. */
    client *newSocketClient(int fd) {
        connectionPtr conn = connCreateAcceptedSocket(fd);
        connAccept(conn.get(), nullptr);
        clients_.push_back(createClient(std::move(conn)));
        return clients_.back();
    }
    /* What the next flush would write, and forgets it. */
    static std::string takeAof() {
        std::string out;
        out.swap(server.aof_buf);
        return out;
    }
};

TEST_F(Aof, OneWriteIsOneCommand) {
    client *c = newClient();
    run(c, "SET a 1\r\nGET a\r\nDEL nothing\r\n");
    EXPECT_EQ(takeAof(), resp({"SET", "a", "1"}));
}

/* The unit is the outermost call: EXEC's writes go together, wrapped when
 * there are two or more; the SELECT the first one needs precedes MULTI, one
 * needed later sits inside. */
TEST_F(Aof, ExecIsOneUnitWrappedWhenItHoldsSeveralWrites) {
    client *c = newClient();
    run(c, "MULTI\r\nSET a 1\r\nGET a\r\nEXEC\r\n");
    EXPECT_EQ(takeAof(), resp({"SET", "a", "1"}));
    run(c, "SELECT 2\r\nMULTI\r\nSET a 1\r\nSELECT 3\r\nINCR b\r\nEXEC\r\n");
    EXPECT_EQ(takeAof(), resp({"SELECT", "2"}) + kMulti + resp({"SET", "a", "1"}) + resp({"SELECT", "3"}) +
                             resp({"INCR", "b"}) + kExec);
    run(c, "MULTI\r\nGET a\r\nEXEC\r\n");
    EXPECT_EQ(takeAof(), "");
}

/* alsoPropagate outside any command (serverCron's expiry, a served waiter)
 * is a unit of its own, written at once. */
TEST_F(Aof, AlsoPropagateOutsideACommandIsItsOwnUnit) {
    alsoPropagate(5, {"DEL", "k"});
    alsoPropagate(5, {"DEL", "j"});
    EXPECT_EQ(takeAof(), resp({"SELECT", "5"}) + resp({"DEL", "k"}) + resp({"DEL", "j"}));
}

/* There is no rewrite buffer (Redis 7.0): while a rewrite child runs, the
 * units go to aof_buf as always — the new incr file. While appendonly yes
 * waits for its first rewrite they go there only once the child runs
 * (before the fork, the child's snapshot will hold them). */
TEST_F(Aof, WaitRewriteFeedsTheBufferOnlyWhileTheChildRuns) {
    client *c = newClient();
    server.child_type = CHILD_TYPE_AOF;
    run(c, "MULTI\r\nSET a 1\r\nSET b 2\r\nEXEC\r\n");
    std::string unit = kMulti + resp({"SET", "a", "1"}) + resp({"SET", "b", "2"}) + kExec;
    EXPECT_EQ(takeAof(), unit);
    server.aof_state = AOF_WAIT_REWRITE;
    run(c, "SET c 3\r\n");
    EXPECT_EQ(takeAof(), resp({"SET", "c", "3"}));
    server.child_type = CHILD_TYPE_NONE;
    run(c, "SET d 4\r\n");
    EXPECT_EQ(takeAof(), "");
}

/* With the AOF off nothing is serialized and argv is left alone. */
TEST_F(Aof, OffMeansNothing) {
    server.aof_state = AOF_OFF;
    client *c = newClient();
    run(c, "SET a 1 EX 100\r\nINCRBYFLOAT f 1.5\r\n");
    EXPECT_EQ(takeAof(), "");
    EXPECT_TRUE(server.also_propagate.empty());
    EXPECT_TRUE(c->argv_rewritten.empty());
}

/* A rewritten argv is the client's own copy: the query buffer may go. */
TEST_F(Aof, RewrittenArgvIsOwnedByTheClient) {
    client *c = newClient();
    c->argv = {"GETSET", "key", "value"};
    rewriteClientCommandArgument(c, 0, "SET");
    rewriteClientCommandArgument(c, 3, "KEEPTTL");
    ASSERT_EQ(c->argv.size(), 4u);
    for (std::string_view a : c->argv) {
        EXPECT_GE(a.data(), c->argv_rewritten.data());
        EXPECT_LE(a.data() + a.size(), c->argv_rewritten.data() + c->argv_rewritten.size());
    }
    EXPECT_EQ(std::vector<std::string_view>(c->argv.begin(), c->argv.end()),
              (std::vector<std::string_view>{"SET", "key", "value", "KEEPTTL"}));
    c->argv.clear();
}

/* beforeSleep writes the AOF before any reply: with the AOF a full pipe,
 * the write blocks, and the reply may not reach the client meanwhile. The
 * test first sees the sleeper thread blocked in that write (so the check
 * cannot pass because the thread has not run yet), then that no reply has
 * left. */
TEST_F(Aof, BeforeSleepWritesTheAofBeforeTheReplies) {
    int sv[2], pipefd[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    ASSERT_EQ(pipe(pipefd), 0);
    fcntl(pipefd[1], F_SETFL, O_NONBLOCK);
    char junk[4096] = {};
    while (write(pipefd[1], junk, sizeof(junk)) > 0) {
    }
    fcntl(pipefd[1], F_SETFL, 0);
    server.aof_fd = pipefd[1];
    server.aof_fsync = AOF_FSYNC_NO;

    client *c = newSocketClient(sv[0]);
    c->querybuf.append("SET k v\r\n"); /* the reply stays queued for beforeSleep */
    processInputBuffer(c);
    std::atomic<pid_t> sleeperTid{0};
    std::thread sleeper([&sleeperTid] {
        sleeperTid = gettid();
        beforeSleep(server.el.get());
    });
    EXPECT_TRUE(waitInWriteTo(sleeperTid, pipefd[1], std::chrono::seconds(10)))
        << "beforeSleep never blocked in its write to the AOF";
    EXPECT_FALSE(readable(sv[1], 0)) << "a reply left while its write waited for the AOF";
    std::string drained;
    while (drained.find("SET") == std::string::npos) {
        char buf[4096];
        ssize_t n = read(pipefd[0], buf, sizeof(buf));
        if (n <= 0) break; /* the sleeper must be joined before the test may end */
        drained.append(buf, static_cast<size_t>(n));
    }
    sleeper.join();
    EXPECT_NE(drained.find(resp({"SET", "k", "v"})), std::string::npos);
    ASSERT_TRUE(readable(sv[1], 1000));
    char reply[16] = {};
    EXPECT_EQ(read(sv[1], reply, sizeof(reply)), 5);
    EXPECT_STREQ(reply, "+OK\r\n");
    server.aof_fsync = AOF_FSYNC_EVERYSEC;
    close(pipefd[0]);
    close(pipefd[1]);
    close(sv[1]);
}

/* The write handler, which runs between read handlers, holds a reply while
 * aof_buf holds writes not yet in the file (Redis's AE_BARRIER problem). */
TEST_F(Aof, WriteHandlerWaitsForTheAofBuffer) {
    int sv[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    client *c = newSocketClient(sv[0]);
    addReply(c, shared::ok);
    server.aof_buf = resp({"SET", "k", "v"});
    sendReplyToClient(c->conn.get());
    EXPECT_FALSE(readable(sv[1], 0));
    server.aof_buf.clear();
    sendReplyToClient(c->conn.get());
    EXPECT_TRUE(readable(sv[1], 1000));
    close(sv[1]);
}

}  // namespace
