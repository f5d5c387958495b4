/* acl_test.cpp — ACL users without sockets (acl.cpp): passwords as SHA-256
 * hex, ACL SETUSER's rules and their errors, the text ACL LIST and ACL
 * GETUSER describe users with, key patterns with read/write flags,
 * selectors, first arguments, and the checks processCommand runs, through
 * socketless clients. Expected texts are those of Redis 7.0.15. */
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "acl.h"
#include "command_test.h"
#include "server.h"

namespace {

std::string bulk(const std::string &s) { return "$" + std::to_string(s.size()) + "\r\n" + s + "\r\n"; }

class ACLUnit : public CommandTest {
protected:
    void SetUp() override {
        server.acl_pubsub_default = 0;
        ACLInit();
    }
    void TearDown() override {
        freeClients();
        ACLInit(); /* the next suites find the default user as a new server has it */
    }
    /* ACL SETUSER's rules, split on spaces: "" or the error. */
    static std::string setUser(const std::string &name, const std::string &rules) {
        std::vector<std::string> words;
        splitArgs(rules, words);
        std::vector<std::string_view> views(words.begin(), words.end());
        return ACLStringSetUser(ACLGetUserByName(name), name, views);
    }
    static std::string describe(const std::string &name) { return ACLDescribeUser(ACLGetUserByName(name)); }
    /* ACL_OK or the denial of `name` running the inline command `cmd`. */
    static int check(const std::string &name, const std::string &cmd) {
        std::vector<std::string> words;
        splitArgs(cmd, words);
        std::vector<std::string_view> argv(words.begin(), words.end());
        int idx = 0;
        return ACLCheckAllUserCommandPerm(ACLGetUserByName(name), lookupCommand(argv), argv, &idx);
    }
};

TEST_F(ACLUnit, PasswordsAreKeptAsSha256Hex) {
    EXPECT_EQ(ACLHashPassword("foobar"), "c3ab8ff13720e8ad9047dd39466b3c8974e592c2fa383d4a3960714caef0c4f2");
    EXPECT_EQ(ACLHashPassword(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(setUser("alice", "on >foobar"), "");
    EXPECT_EQ(describe("alice"), "on #c3ab8ff13720e8ad9047dd39466b3c8974e592c2fa383d4a3960714caef0c4f2 resetchannels -@all");
    /* The same password twice is kept once; < removes it by its text, ! by its hash. */
    EXPECT_EQ(setUser("alice", ">foobar >x"), "");
    EXPECT_EQ(ACLGetUserByName("alice")->passwords.size(), 2u);
    EXPECT_EQ(setUser("alice", "<x !c3ab8ff13720e8ad9047dd39466b3c8974e592c2fa383d4a3960714caef0c4f2"), "");
    EXPECT_TRUE(ACLGetUserByName("alice")->passwords.empty());
    EXPECT_EQ(setUser("alice", "<x"), "Error in ACL SETUSER modifier '<x': The password you are trying to remove from "
                                      "the user does not exist");
    EXPECT_EQ(setUser("alice", "#ABC"), "Error in ACL SETUSER modifier '#ABC': The password hash must be exactly 64 "
                                        "characters and contain only lowercase hexadecimal characters");
}

TEST_F(ACLUnit, DefaultUserAndRequirepass) {
    EXPECT_EQ(describe("default"), "on nopass ~* &* +@all");
    ACLUpdateDefaultUserPassword("secret");
    EXPECT_EQ(describe("default"), "on #" + ACLHashPassword("secret") + " ~* &* +@all");
    ACLUpdateDefaultUserPassword("");
    EXPECT_EQ(describe("default"), "on nopass ~* &* +@all");
}

TEST_F(ACLUnit, RuleErrorsAreRedisTexts) {
    EXPECT_EQ(setUser("u", "foo"), "Error in ACL SETUSER modifier 'foo': Syntax error");
    EXPECT_EQ(setUser("u", "+nosuch"), "Error in ACL SETUSER modifier '+nosuch': Unknown command or category name in ACL");
    EXPECT_EQ(setUser("u", "-@nosuch"), "Error in ACL SETUSER modifier '-@nosuch': Unknown command or category name in ACL");
    EXPECT_EQ(setUser("u", "+config|get|x"),
              "Error in ACL SETUSER modifier '+config|get|x': Allowing first-arg of a subcommand is not supported");
    EXPECT_EQ(setUser("u", "+select|"), "Error in ACL SETUSER modifier '+select|': Syntax error");
    EXPECT_EQ(setUser("u", "~* ~foo"),
              "Error in ACL SETUSER modifier '~foo': Adding a pattern after the * pattern (or the 'allkeys' flag) is "
              "not valid and does not have any effect. Try 'resetkeys' to start with an empty list of patterns");
    EXPECT_EQ(setUser("u", "&* &foo"),
              "Error in ACL SETUSER modifier '&foo': Adding a pattern after the * pattern (or the 'allchannels' flag) "
              "is not valid and does not have any effect. Try 'resetchannels' to start with an empty list of channels");
    EXPECT_EQ(setUser("u", "%RX~a"), "Error in ACL SETUSER modifier '%RX~a': Syntax error");
    EXPECT_EQ(setUser("u", "%~a"), "Error in ACL SETUSER modifier '%~a': Syntax error");
    EXPECT_EQ(setUser("u", "(~foo +get"), "Unmatched parenthesis in acl selector starting at '(~foo'.");
    /* A failing list changes nothing, not even its valid rules before the error. */
    EXPECT_EQ(ACLGetUserByName("u"), nullptr);
    EXPECT_EQ(setUser("u", "on"), "");
    EXPECT_NE(setUser("u", "off foo"), "");
    EXPECT_EQ(describe("u"), "on resetchannels -@all");
}

TEST_F(ACLUnit, DescribeFindsTheCategoriesThatFit) {
    EXPECT_EQ(setUser("c1", "-@all +@string +@list -lpush"), "");
    EXPECT_EQ(describe("c1"), "off resetchannels -@all +@string +@list -lpush");
    EXPECT_EQ(setUser("c2", "+@all -@dangerous -get"), "");
    EXPECT_EQ(describe("c2"), "off resetchannels +@all -@dangerous -get");
    EXPECT_EQ(setUser("c3", "-@all +client|kill +select|0 +config|get"), "");
    EXPECT_EQ(describe("c3"), "off resetchannels -@all +client|kill +select|0 +config|get");
    EXPECT_EQ(setUser("c4", "reset"), "");
    EXPECT_EQ(describe("c4"), "off sanitize-payload resetchannels -@all");
}

TEST_F(ACLUnit, KeyPatternsCarryReadAndWriteFlags) {
    EXPECT_EQ(setUser("k", "on +@all %R~r* %W~w* %RW~rw* ~all* %R~all*"), "");
    EXPECT_EQ(describe("k"), "on %R~r* %W~w* ~rw* ~all* resetchannels +@all");
    EXPECT_EQ(check("k", "GET r1"), ACL_OK);
    EXPECT_EQ(check("k", "GET w1"), ACL_DENIED_KEY);
    EXPECT_EQ(check("k", "SET w1 v"), ACL_OK);       /* SET only overwrites: no read needed */
    EXPECT_EQ(check("k", "SET r1 v"), ACL_DENIED_KEY);
    EXPECT_EQ(check("k", "LPUSH w1 v"), ACL_OK);     /* an insert */
    EXPECT_EQ(check("k", "GET rw1"), ACL_OK);
    EXPECT_EQ(check("k", "SET rw1 v"), ACL_OK);
    EXPECT_EQ(check("k", "MGET r1 rw2 x"), ACL_DENIED_KEY);
}

TEST_F(ACLUnit, SelectorsAllowWhatAnyOfThemAllowsWhole) {
    EXPECT_EQ(setUser("s", "on -@all (+get ~a*) (+set ~b*)"), "");
    EXPECT_EQ(describe("s"), "on resetchannels -@all (~a* resetchannels -@all +get) (~b* resetchannels -@all +set)");
    EXPECT_EQ(check("s", "GET a1"), ACL_OK);
    EXPECT_EQ(check("s", "SET b1 v"), ACL_OK);
    EXPECT_EQ(check("s", "GET b1"), ACL_DENIED_KEY); /* the most serious denial is reported */
    EXPECT_EQ(check("s", "DEL a1"), ACL_DENIED_CMD);
    EXPECT_EQ(setUser("s", "clearselectors"), "");
    EXPECT_EQ(describe("s"), "on resetchannels -@all");
}

TEST_F(ACLUnit, FirstArgumentsAndSubcommands) {
    EXPECT_EQ(setUser("f", "on ~* -@all +select|0 +config|get"), "");
    EXPECT_EQ(check("f", "SELECT 0"), ACL_OK);
    EXPECT_EQ(check("f", "SELECT 1"), ACL_DENIED_CMD);
    EXPECT_EQ(check("f", "CONFIG GET port"), ACL_OK);
    EXPECT_EQ(check("f", "CONFIG SET port 1"), ACL_DENIED_CMD);
    EXPECT_EQ(check("f", "AUTH x"), ACL_OK); /* CMD_NO_AUTH commands are never denied */
    /* -select takes the first arguments away with the bit. */
    EXPECT_EQ(setUser("f", "-select"), "");
    EXPECT_EQ(check("f", "SELECT 0"), ACL_DENIED_CMD);
}

TEST_F(ACLUnit, ChannelsArePatternsForChannelsLiteralForPatterns) {
    EXPECT_EQ(setUser("p", "on +@all ~* resetchannels &news.*"), "");
    EXPECT_EQ(check("p", "PUBLISH news.sport m"), ACL_OK);
    EXPECT_EQ(check("p", "PUBLISH other m"), ACL_DENIED_CHANNEL);
    EXPECT_EQ(check("p", "SUBSCRIBE news.a news.b"), ACL_OK);
    EXPECT_EQ(check("p", "PSUBSCRIBE news.*"), ACL_OK);
    EXPECT_EQ(check("p", "PSUBSCRIBE news.a*"), ACL_DENIED_CHANNEL); /* not the user's pattern itself */
    EXPECT_EQ(check("p", "UNSUBSCRIBE other"), ACL_OK);
}

TEST_F(ACLUnit, GetUserReplyFormat) {
    client *c = newClient();
    EXPECT_EQ(run(c, "ACL SETUSER g on nopass %R~r* &ch (+get ~x)\r\n"), "+OK\r\n");
    EXPECT_EQ(run(c, "ACL GETUSER g\r\n"),
              "*12\r\n" + bulk("flags") + "*2\r\n" + bulk("on") + bulk("nopass") + bulk("passwords") + "*0\r\n" +
                  bulk("commands") + bulk("-@all") + bulk("keys") + bulk("%R~r*") + bulk("channels") + bulk("&ch") +
                  bulk("selectors") + "*1\r\n*6\r\n" + bulk("commands") + bulk("-@all +get") + bulk("keys") +
                  bulk("~x") + bulk("channels") + bulk(""));
    EXPECT_EQ(run(c, "ACL GETUSER nobody\r\n"), "$-1\r\n");
    EXPECT_EQ(run(c, "ACL LIST\r\n"),
              "*2\r\n" + bulk("user default on nopass ~* &* +@all") +
                  bulk("user g on nopass %R~r* resetchannels &ch -@all (~x resetchannels -@all +get)"));
    EXPECT_EQ(run(c, "ACL USERS\r\n"), "*2\r\n" + bulk("default") + bulk("g"));
}

TEST_F(ACLUnit, AuthAndNoauth) {
    client *before = newClient();
    ACLUpdateDefaultUserPassword("pw");
    client *c = newClient();
    /* A connection authenticated (as nopass default) before stays so. */
    EXPECT_EQ(run(before, "PING\r\n"), "+PONG\r\n");
    EXPECT_EQ(run(c, "PING\r\n"), "-NOAUTH Authentication required.\r\n");
    EXPECT_EQ(run(c, "AUTH nope\r\n"), "-WRONGPASS invalid username-password pair or user is disabled.\r\n");
    EXPECT_EQ(ACLLogLength(), 1u);
    EXPECT_EQ(run(c, "AUTH pw\r\n"), "+OK\r\n");
    EXPECT_EQ(run(c, "PING\r\n"), "+PONG\r\n");
    EXPECT_EQ(run(c, "ACL SETUSER bob on >b -@all +ping\r\nAUTH bob b\r\nACL WHOAMI\r\n"),
              "+OK\r\n+OK\r\n-NOPERM this user has no permissions to run the 'acl|whoami' command\r\n");
    EXPECT_EQ(ACLLogLength(), 2u);
}

}  // namespace
