/* acl_extra_test.cpp — what a user's clients see of ACL changes, beside
 * acl_test.cpp: CLIENT LIST's user=, CLIENT KILL USER, a disabled user's
 * open connection (Redis 7.0.15 keeps it), acl-pubsub-default and
 * acllog-max-len, the request size limits before authentication. Each test runs on a fresh cppredis and a fresh Redis
 * 7.0.15 (EitherServerTest) with the same expectations. */
#include <gtest/gtest.h>

#include <string>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

class AclExtra : public EitherServerTest {
protected:
    RespConn connectAs(const std::string &user, const std::string &pass) {
        RespConn u = srv->connect();
        EXPECT_EQ(u.call({"AUTH", user, pass}).raw, OK);
        return u;
    }
};
INSTANTIATE_TEST_SUITE_P(Servers, AclExtra, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* CLIENT LIST names each client's user; disabling the user keeps its open
 * connection working (only AUTH is refused); CLIENT KILL USER closes it. */
TEST_P(AclExtra, ClientsOfAUser) {
    ASSERT_EQ(call({"ACL", "SETUSER", "u", "on", ">pw", "+@all", "~*"}), OK);
    RespConn u = connectAs("u", "pw");
    std::string uid = u.call({"CLIENT", "ID"}).raw;
    uid = uid.substr(1, uid.size() - 3);
    EXPECT_EQ(clientField(clientListLine(*c, "id", uid), "user"), "u");
    std::string myid = c->call({"CLIENT", "ID"}).raw;
    EXPECT_EQ(clientField(clientListLine(*c, "id", myid.substr(1, myid.size() - 3)), "user"), "default");

    ASSERT_EQ(call({"ACL", "SETUSER", "u", "off"}), OK);
    EXPECT_EQ(u.call({"PING"}).raw, "+PONG\r\n");
    EXPECT_EQ(srv->connect().call({"AUTH", "u", "pw"}).raw,
              err("WRONGPASS invalid username-password pair or user is disabled."));

    EXPECT_EQ(call({"CLIENT", "KILL", "USER", "nosuch"}), err("ERR No such user 'nosuch'"));
    EXPECT_EQ(call({"CLIENT", "KILL", "USER", "u"}), integer(1));
    u.expectClosed();
    EXPECT_EQ(call({"CLIENT", "KILL", "USER", "u"}), integer(0));
}

/* New users (and `reset`) start with &* or with no channel as
 * acl-pubsub-default says; the log keeps acllog-max-len entries. */
TEST_P(AclExtra, PubsubDefaultAndLogLength) {
    ASSERT_EQ(call({"CONFIG", "SET", "acl-pubsub-default", "allchannels"}), OK);
    ASSERT_EQ(call({"ACL", "SETUSER", "n1"}), OK);
    ASSERT_EQ(call({"ACL", "SETUSER", "n2", "reset"}), OK);
    ASSERT_EQ(call({"CONFIG", "SET", "acl-pubsub-default", "resetchannels"}), OK);
    ASSERT_EQ(call({"ACL", "SETUSER", "n3"}), OK);
    EXPECT_EQ(call({"ACL", "LIST"}),
              bulks({"user default on nopass ~* &* +@all", "user n1 off &* -@all",
                     "user n2 off sanitize-payload &* -@all", "user n3 off resetchannels -@all"}));

    ASSERT_EQ(call({"CONFIG", "SET", "acllog-max-len", "2"}), OK);
    EXPECT_EQ(call({"CONFIG", "GET", "acllog-max-len"}), bulks({"acllog-max-len", "2"}));
    ASSERT_EQ(call({"ACL", "SETUSER", "lim", "on", ">p", "-@all"}), OK);
    RespConn lim = connectAs("lim", "p");
    EXPECT_EQ(lim.call({"GET", "a"}).raw, err("NOPERM this user has no permissions to run the 'get' command"));
    EXPECT_EQ(lim.call({"SET", "a", "b"}).raw, err("NOPERM this user has no permissions to run the 'set' command"));
    EXPECT_EQ(lim.call({"DEL", "a"}).raw, err("NOPERM this user has no permissions to run the 'del' command"));
    Reply log = c->call({"ACL", "LOG"});
    ASSERT_EQ(log.elements.size(), 2u);
    EXPECT_EQ(log.elements[0].elements[7].str, "del");
    EXPECT_EQ(log.elements[1].elements[7].str, "set");
}

/* Redis 7.0.15's limits before authentication: more than 10 arguments, or
 * an argument over 16384 bytes, is a protocol error (the connection
 * closes) as soon as announced; once authenticated, neither applies. */
TEST_P(AclExtra, RequestSizeLimitsBeforeAuthentication) {
    ASSERT_EQ(call({"CONFIG", "SET", "requirepass", "pw"}), OK);
    {
        RespConn u = srv->connect();
        u.send("*11\r\n");
        EXPECT_EQ(u.readAllUntilClose(), err("ERR Protocol error: unauthenticated multibulk length"));
    }
    {
        RespConn u = srv->connect();
        u.send("*2\r\n$3\r\nGET\r\n$16385\r\n");
        EXPECT_EQ(u.readAllUntilClose(), err("ERR Protocol error: unauthenticated bulk length"));
    }
    RespConn u = srv->connect();
    EXPECT_EQ(u.call({"GET", std::string(16384, 'k')}).raw, err("NOAUTH Authentication required."));
    EXPECT_EQ(u.call({"AUTH", "pw"}).raw, OK);
    EXPECT_EQ(u.call({"DEL", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"}).raw, integer(0));
    EXPECT_EQ(u.call({"GET", std::string(16385, 'k')}).raw, NIL);
}

}  // namespace
