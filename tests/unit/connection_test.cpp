/* connection_test.cpp — the connection abstraction's socket kind
 * (connection.cpp) on a socket pair: its read handler runs from the event
 * loop, reads and writes are the system calls' results, and a handler may
 * close its own connection (as a client freeing itself on EOF does): the
 * fd goes at once, the object once the handler has returned. */
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>

#include "connection.h"
#include "server.h"

namespace {

struct HandlerLog {
    std::string read;
    bool closed_itself = false;
};

/* Reads what is there; on EOF closes its own connection (the owner, here
 * the test's connectionPtr, lets go first, as freeClient does). */
connectionPtr *owner = nullptr;
void readOrClose(connection *conn) {
    auto *log = static_cast<HandlerLog *>(connGetPrivateData(conn));
    char buf[64];
    ssize_t n = connRead(conn, buf, sizeof(buf));
    if (n > 0) {
        log->read.append(buf, static_cast<size_t>(n));
        return;
    }
    if (n == 0 && connGetState(conn) == CONN_STATE_CLOSED) {
        log->closed_itself = true;
        owner->reset();
    }
}

class Connection : public ::testing::Test {
protected:
    void SetUp() override {
        if (!server.el) server.el = aeCreateEventLoop(128);
        ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
        conn = connCreateAcceptedSocket(sv[0]);
        owner = &conn;
        connAccept(conn.get(), nullptr);
        connSetPrivateData(conn.get(), &log);
        connNonBlock(conn.get());
    }
    void TearDown() override {
        conn.reset();
        close(sv[1]);
        owner = nullptr;
    }
    int sv[2] = {-1, -1};
    connectionPtr conn;
    HandlerLog log;
};

TEST_F(Connection, SocketReadsAndWritesAreTheSystemCalls) {
    EXPECT_EQ(connGetState(conn.get()), CONN_STATE_CONNECTED);
    EXPECT_EQ(connGetType(conn.get()), CONN_TYPE_SOCKET);
    char buf[8];
    EXPECT_EQ(connRead(conn.get(), buf, sizeof(buf)), -1); /* nothing yet: EAGAIN, still connected */
    EXPECT_EQ(connGetState(conn.get()), CONN_STATE_CONNECTED);
    iovec iov[2] = {{const_cast<char *>("ab"), 2}, {const_cast<char *>("cd"), 2}};
    EXPECT_EQ(connWritev(conn.get(), iov, 2), 4);
    EXPECT_EQ(read(sv[1], buf, sizeof(buf)), 4);
    EXPECT_EQ(std::string(buf, 4), "abcd");
}

TEST_F(Connection, ReadHandlerRunsFromTheLoopAndMayCloseItsOwnConnection) {
    ASSERT_EQ(connSetReadHandler(conn.get(), readOrClose), C_OK);
    EXPECT_TRUE(connHasReadHandler(conn.get()));
    ASSERT_EQ(write(sv[1], "hello", 5), 5);
    aeProcessEvents(server.el.get(), AE_FILE_EVENTS | AE_DONT_WAIT);
    EXPECT_EQ(log.read, "hello");
    close(sv[1]);
    sv[1] = -1;
    aeProcessEvents(server.el.get(), AE_FILE_EVENTS | AE_DONT_WAIT);
    EXPECT_TRUE(log.closed_itself);
    EXPECT_FALSE(conn); /* and ASan sees no use after free in the handler's return path */
    EXPECT_EQ(aeGetFileEvents(server.el.get(), sv[0]), AE_NONE);
}

}  // namespace
