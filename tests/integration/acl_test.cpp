/* acl_test.cpp — integration tests of authentication, ACL users and
 * protected mode (issue 17): requirepass, AUTH and HELLO AUTH, every ACL
 * SETUSER rule as ACL LIST / GETUSER show it and as it decides what a user
 * may run, touch and subscribe to, the ACL subcommands, ACL LOG's entries,
 * key permissions from key specs (also inside MULTI/EXEC and in a script's
 * redis.call), a deleted user's blocked client, an aclfile and `user`
 * lines in a config file, and protected mode for a peer on 127.0.0.2.
 *
 * Every test runs once on cppredis and once on Redis 7.0.15 with the same
 * expected bytes. The Acl suite shares one server per implementation and
 * puts it back as it found it after each test (users, requirepass, ACL LOG,
 * keys). Only Redis's order of single-command rules (+get +set) is not
 * compared: Redis prints them in its command dict's order, which depends on
 * a hash seed chosen at random at start-up. */
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

const std::string NOAUTH = err("NOAUTH Authentication required.");
const std::string WRONGPASS = err("WRONGPASS invalid username-password pair or user is disabled.");
const std::string NOPERM_KEY = err("NOPERM this user has no permissions to access one of the keys used as arguments");
const std::string NOPERM_CHANNEL =
    err("NOPERM this user has no permissions to access one of the channels used as arguments");
const std::string NO_ACLFILE =
    err("ERR This Redis instance is not configured to use an ACL file. You may want to specify users via the ACL "
        "SETUSER command and then issue a CONFIG REWRITE (assuming you have a Redis configuration file set) in "
        "order to store users in the Redis configuration.");
const std::string GENPASS_RANGE =
    err("ERR ACL GENPASS argument must be the number of bits for the output password, a positive number up to "
        "4096");

/* The SHA-256 of the passwords the tests use, as ACL shows them. */
const std::string SHA_P1 = "f64551fcd6f07823cb87971cfb91446425da18286b3ab1ef935e0cbd7a69f68a";
const std::string SHA_P2 = "3946ca64ff78d93ca61090a437cbb6b3d2ca0d488f5f9ccf3059608368b27693";
const std::string SHA_P3 = "43bb00d0ce7790a53b91256b370c887b24791a5539a6fbfb70c5870e8c91ae5d";
const std::string SHA_SECRET = "2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b";
const std::string SHA_PW = "30c952fab122c3f9759f02a6d95c3758b246b4fee239957b2d4fee46e26170c4";

std::string nopermCommand(const std::string &name) {
    return err("NOPERM this user has no permissions to run the '" + name + "' command");
}
std::string setuserErr(const std::string &rule, const std::string &why) {
    return err("ERR Error in ACL SETUSER modifier '" + rule + "': " + why);
}
/* EXEC's reply for a queued command the user may no longer run. */
std::string execNoperm(const std::string &reason) {
    return err("NOPERM ACLs rules changed between the moment the transaction was accumulated and the EXEC call. "
               "This command is no longer allowed for the following reason: " +
               reason);
}

std::vector<std::string> words(const std::string &s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

/* ACL rules as text with the single-command rules (+get, -client|list)
 * sorted after the category rules, where Redis puts them in hash order. */
std::string normalizeRules(const std::string &rules) {
    std::vector<std::string> kept, single;
    for (const std::string &w : words(rules)) {
        bool isCommandRule = (w[0] == '+' || w[0] == '-') && w.find('@') == std::string::npos;
        (isCommandRule ? single : kept).push_back(w);
    }
    std::sort(single.begin(), single.end());
    kept.insert(kept.end(), single.begin(), single.end());
    std::string out;
    for (const std::string &w : kept) out += (out.empty() ? "" : " ") + w;
    return out;
}

/* The user's line of ACL LIST, normalized; "" if there is none. */
std::string aclListLine(RespConn &c, const std::string &user) {
    Reply r = c.call({"ACL", "LIST"});
    EXPECT_EQ(r.type, Reply::Type::Array) << r;
    for (const Reply &line : r.elements)
        if (line.str.starts_with("user " + user + " ")) return normalizeRules(line.str);
    return "";
}

/* Every line of ACL LIST, normalized. */
std::vector<std::string> aclList(RespConn &c) {
    std::vector<std::string> out;
    for (const Reply &line : c.call({"ACL", "LIST"}).elements) out.push_back(normalizeRules(line.str));
    return out;
}

/* ACL GETUSER as one line: "flags=on passwords=<sha> commands=-@all +get
 * keys=~k* channels=&c* selectors=0", the commands normalized. */
std::string getuser(RespConn &c, const std::string &user) {
    Reply r = c.call({"ACL", "GETUSER", user});
    if (r.isNil()) return "(nil)";
    if (r.type != Reply::Type::Array || r.elements.size() != 12) return "unexpected " + toString(r);
    std::string out;
    for (size_t i = 0; i + 1 < r.elements.size(); i += 2) {
        const Reply &v = r.elements[i + 1];
        std::string value;
        if (v.type == Reply::Type::Array && r.elements[i].str == "selectors")
            value = std::to_string(v.elements.size());
        else if (v.type == Reply::Type::Array)
            for (const Reply &e : v.elements) value += (value.empty() ? "" : ",") + e.str;
        else
            value = r.elements[i].str == "commands" ? normalizeRules(v.str) : v.str;
        out += (out.empty() ? "" : " ") + r.elements[i].str + "=" + value;
    }
    return out;
}

/* Sorted elements of an array reply of bulks. */
std::vector<std::string> sortedBulks(const Reply &r) {
    std::vector<std::string> out;
    for (const Reply &e : r.elements) out.push_back(e.str);
    std::sort(out.begin(), out.end());
    return out;
}

/* One ACL LOG entry: its field names in order, and the fields whose values
 * two servers share ("count=2 reason=auth context=toplevel object=AUTH
 * username=default"); age-seconds and client-info are checked apart. */
struct AclLogEntry {
    std::vector<std::string> names;
    std::string stable;
    std::string age, clientInfo;
};
const std::vector<std::string> kAclLogFields{"count",    "reason",      "context",    "object",
                                             "username", "age-seconds", "client-info"};

std::vector<AclLogEntry> aclLog(RespConn &c, const Args &extra = {}) {
    Args cmd{"ACL", "LOG"};
    cmd.insert(cmd.end(), extra.begin(), extra.end());
    Reply r = c.call(cmd);
    EXPECT_EQ(r.type, Reply::Type::Array) << r;
    std::vector<AclLogEntry> out;
    for (const Reply &e : r.elements) {
        AclLogEntry entry;
        for (size_t i = 0; i + 1 < e.elements.size(); i += 2) {
            const std::string &name = e.elements[i].str;
            const Reply &v = e.elements[i + 1];
            entry.names.push_back(name);
            if (name == "age-seconds") entry.age = v.str;
            else if (name == "client-info") entry.clientInfo = v.str;
            else
                entry.stable += (entry.stable.empty() ? "" : " ") + name + "=" +
                                (v.type == Reply::Type::Integer ? std::to_string(v.integer) : v.str);
        }
        out.push_back(std::move(entry));
    }
    return out;
}

std::vector<std::string> stableParts(const std::vector<AclLogEntry> &log) {
    std::vector<std::string> out;
    for (const AclLogEntry &e : log) out.push_back(e.stable);
    return out;
}

/* An entry's shape: Redis's seven fields in order, a fresh age in seconds,
 * and the client's CLIENT LIST line naming its user and command. */
void expectEntryShape(const AclLogEntry &e, const std::string &user, const std::string &cmd) {
    EXPECT_EQ(e.names, kAclLogFields);
    char *end = nullptr;
    double age = std::strtod(e.age.c_str(), &end);
    EXPECT_TRUE(!e.age.empty() && *end == '\0' && age >= 0 && age < 60) << e.age;
    EXPECT_TRUE(e.clientInfo.starts_with("id=")) << e.clientInfo;
    EXPECT_NE((" " + e.clientInfo + " ").find(" user=" + user + " "), std::string::npos) << e.clientInfo;
    EXPECT_NE((" " + e.clientInfo + " ").find(" cmd=" + cmd + " "), std::string::npos) << e.clientInfo;
}

std::string binaryOf(ServerImpl impl) {
    return impl == ServerImpl::Redis ? RedisReference::kBinary : CPPREDIS_SERVER_BIN;
}

/* A server of either implementation started with a config file (which
 * RedisReference does not take), persistence off as RedisReference's. */
class ConfiguredServer : public TestServer {
public:
    ConfiguredServer(ServerImpl impl, const std::string &configFile, std::vector<std::string> args = {})
        : TestServer(Deferred{}) {
        std::vector<std::string> all{"--save", "", "--appendonly", "no"};
        all.insert(all.end(), args.begin(), args.end());
        start(ServerOptions{.args = std::move(all), .configFile = configFile, .binary = binaryOf(impl)});
    }
};

std::unique_ptr<TestServer> startServer(ServerImpl impl, std::vector<std::string> args = {}) {
    return std::make_unique<ConfiguredServer>(impl, "", std::move(args));
}

}  // namespace

/* ------------------------------------------------------------------------
 * The shared fixture: one server per implementation for the whole suite.
 * ---------------------------------------------------------------------- */
class Acl : public ::testing::TestWithParam<ServerImpl> {
protected:
    static inline std::map<ServerImpl, std::unique_ptr<TestServer>> servers_;
    TestServer *srv = nullptr;
    /* Authenticated as "default" when the test starts; tests never AUTH on
     * it, so it can put the server back afterwards. */
    std::optional<RespConn> admin_;

    static void TearDownTestSuite() { servers_.clear(); }

    void SetUp() override {
        if (GetParam() == ServerImpl::Redis) REQUIRE_REDIS_REFERENCE();
        std::unique_ptr<TestServer> &s = servers_[GetParam()];
        if (!s) s = startServer(GetParam());
        srv = s.get();
        admin_.emplace(srv->connect());
    }

    /* Back to a fresh server's users and settings; if that fails, the next
     * test gets a new server instead. */
    void TearDown() override {
        std::unique_ptr<TestServer> &s = servers_[GetParam()];
        if (!s) return;
        ASSERT_TRUE(s->running()) << "the server died during this test; log:\n" << s->log();
        bool restored = false;
        try {
            restored = restoreDefaults();
        } catch (const HarnessError &) {
        }
        if (!restored) s.reset();
    }

    bool restoreDefaults() {
        RespConn &c = admin();
        if (call({"CONFIG", "SET", "requirepass", ""}) != OK ||
            call({"CONFIG", "SET", "acllog-max-len", "128"}) != OK ||
            call({"CONFIG", "SET", "acl-pubsub-default", "resetchannels"}) != OK)
            return false;
        if (call({"ACL", "SETUSER", "default", "on", "nopass", "allkeys", "allchannels", "allcommands"}) != OK)
            return false;
        for (const Reply &user : c.call({"ACL", "USERS"}).elements)
            if (user.str != "default" && call({"ACL", "DELUSER", user.str}) != integer(1)) return false;
        return call({"ACL", "LOG", "RESET"}) == OK && call({"FLUSHALL"}) == OK &&
               aclList(c) == std::vector<std::string>{"user default on nopass ~* &* +@all"};
    }

    RespConn &admin() { return *admin_; }
    std::string call(const Args &args) { return admin().call(args).raw; }
    RespConn connect() { return srv->connect(); }
    /* A new connection authenticated as `user`. */
    RespConn connectAs(const std::string &user, const std::string &pass) {
        RespConn c = srv->connect();
        EXPECT_EQ(c.call({"AUTH", user, pass}).raw, OK) << "AUTH " << user;
        return c;
    }
    std::string setuser(const std::string &user, const Args &rules) {
        Args cmd{"ACL", "SETUSER", user};
        cmd.insert(cmd.end(), rules.begin(), rules.end());
        return call(cmd);
    }
    /* Polls INFO until exactly n clients are blocked. */
    void waitBlocked(long long n) {
        long long now = -1;
        pollUntil([&] { return (now = infoNumber(admin(), "clients", "blocked_clients")) == n; });
        ASSERT_EQ(now, n) << "blocked_clients never reached " << n;
    }
};
INSTANTIATE_TEST_SUITE_P(Servers, Acl, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis), serverImplName);

/* ------------------------------------------------------------------------
 * Authentication
 * ---------------------------------------------------------------------- */

TEST_P(Acl, RequirepassViaConfigSet) {
    RespConn before = connect();
    EXPECT_EQ(before.call({"AUTH", "x"}).raw,
              err("ERR AUTH <password> called without any password configured for the default user. Are you sure "
                  "your configuration is correct?"));
    /* requirepass replaces the default user's passwords; ACL SETUSER on the
     * default user leaves requirepass's value as it was. */
    ASSERT_EQ(setuser("default", {">p1", ">p2"}), OK);
    EXPECT_EQ(call({"CONFIG", "GET", "requirepass"}), bulks({"requirepass", ""}));
    EXPECT_EQ(call({"CONFIG", "SET", "requirepass", "secret"}), OK);
    EXPECT_EQ(call({"CONFIG", "GET", "requirepass"}), bulks({"requirepass", "secret"}));
    EXPECT_EQ(call({"ACL", "GETUSER", "default"}),
              array({bulk("flags"), bulks({"on"}), bulk("passwords"), bulks({SHA_SECRET}), bulk("commands"),
                     bulk("+@all"), bulk("keys"), bulk("~*"), bulk("channels"), bulk("&*"), bulk("selectors"),
                     EMPTY_ARRAY}));
    EXPECT_EQ(before.call({"PING"}).raw, "+PONG\r\n") << "a client authenticated before stays so";
    EXPECT_EQ(call({"PING"}), "+PONG\r\n");

    RespConn c = connect();
    EXPECT_EQ(c.call({"PING"}).raw, NOAUTH);
    EXPECT_EQ(c.call({"GET", "k"}).raw, NOAUTH);
    EXPECT_EQ(c.call({"HELLO", "2"}).raw,
              err("NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO AUTH "
                  "<user> <pass> option can be used to authenticate the client and select the RESP protocol "
                  "version at the same time"));
    EXPECT_EQ(c.call({"AUTH", "wrong"}).raw, WRONGPASS);
    EXPECT_EQ(c.call({"AUTH", "a", "b", "c"}).raw, SYNTAX);
    EXPECT_EQ(c.call({"PING"}).raw, NOAUTH);
    EXPECT_EQ(c.call({"AUTH", "secret"}).raw, OK);
    EXPECT_EQ(c.call({"PING"}).raw, "+PONG\r\n");
    EXPECT_EQ(c.call({"ACL", "WHOAMI"}).raw, bulk("default"));
    EXPECT_EQ(c.call({"AUTH", "default", "secret"}).raw, OK);

    EXPECT_EQ(call({"CONFIG", "SET", "requirepass", ""}), OK);
    EXPECT_EQ(getuser(admin(), "default"),
              "flags=on,nopass passwords= commands=+@all keys=~* channels=&* selectors=0");
    RespConn after = connect();
    EXPECT_EQ(after.call({"PING"}).raw, "+PONG\r\n");
}

TEST_P(Acl, AuthWithAUserAndPassword) {
    ASSERT_EQ(setuser("alice", {"on", ">p1", ">p2", "+@all", "~*"}), OK);
    RespConn c = connect();
    EXPECT_EQ(c.call({"AUTH", "alice", "p1"}).raw, OK);
    EXPECT_EQ(c.call({"ACL", "WHOAMI"}).raw, bulk("alice"));
    EXPECT_EQ(c.call({"AUTH", "alice", "wrong"}).raw, WRONGPASS);
    EXPECT_EQ(c.call({"ACL", "WHOAMI"}).raw, bulk("alice")) << "a failed AUTH keeps the user";
    EXPECT_EQ(c.call({"AUTH", "alice", "p2"}).raw, OK) << "either password";
    EXPECT_EQ(c.call({"AUTH", "nobody", "p1"}).raw, WRONGPASS);
    EXPECT_EQ(c.call({"AUTH", "Alice", "p1"}).raw, WRONGPASS) << "user names are case-sensitive";
    EXPECT_EQ(c.call({"AUTH", "default", "anything"}).raw, OK) << "default has nopass";
    EXPECT_EQ(c.call({"ACL", "WHOAMI"}).raw, bulk("default"));
}

TEST_P(Acl, HelloAuth) {
    ASSERT_EQ(setuser("alice", {"on", ">pw", "+@all", "~*"}), OK);
    ASSERT_EQ(call({"CONFIG", "SET", "requirepass", "secret"}), OK);
    RespConn c = connect();
    EXPECT_EQ(c.call({"HELLO", "2", "AUTH", "alice", "wrong"}).raw, WRONGPASS);
    EXPECT_EQ(c.call({"HELLO", "2", "AUTH", "alice"}).raw, err("ERR Syntax error in HELLO option 'AUTH'"));
    EXPECT_EQ(c.call({"PING"}).raw, NOAUTH);
    const std::string hello = c.call({"HELLO", "2", "AUTH", "alice", "pw", "SETNAME", "app"}).raw;
    EXPECT_TRUE(hello.starts_with("*14\r\n$6\r\nserver\r\n$5\r\nredis\r\n$7\r\nversion\r\n")) << escape(hello);
    EXPECT_EQ(c.call({"ACL", "WHOAMI"}).raw, bulk("alice"));
    EXPECT_EQ(c.call({"CLIENT", "GETNAME"}).raw, bulk("app"));
    EXPECT_EQ(clientField(clientListLine(admin(), "name", "app"), "user"), "alice");
}

/* A failed AUTH or HELLO AUTH is an "auth" entry of ACL LOG, under the
 * user name that was tried; repeats within a minute add to its count. */
TEST_P(Acl, FailedAuthIsLogged) {
    ASSERT_EQ(call({"CONFIG", "SET", "requirepass", "secret"}), OK);
    RespConn c = connect();
    EXPECT_EQ(c.call({"AUTH", "wrong"}).raw, WRONGPASS);
    EXPECT_EQ(c.call({"AUTH", "wrong2"}).raw, WRONGPASS);
    EXPECT_EQ(c.call({"AUTH", "nobody", "x"}).raw, WRONGPASS);
    EXPECT_EQ(c.call({"HELLO", "2", "AUTH", "default", "nope"}).raw, WRONGPASS);

    std::vector<AclLogEntry> log = aclLog(admin());
    EXPECT_EQ(stableParts(log), (std::vector<std::string>{
                                    "count=1 reason=auth context=toplevel object=HELLO username=default",
                                    "count=1 reason=auth context=toplevel object=AUTH username=nobody",
                                    "count=2 reason=auth context=toplevel object=AUTH username=default",
                                }));
    ASSERT_EQ(log.size(), 3u);
    expectEntryShape(log[0], "default", "hello");
    expectEntryShape(log[2], "default", "auth");
    EXPECT_EQ(stableParts(aclLog(admin(), {"1"})), std::vector<std::string>{log[0].stable});

    /* Redis 7.0 has no INFO field for this (acl_access_denied_auth came in
     * 7.2); if cppredis shows it, it counts the four. */
    const std::string denied = infoField(admin(), "stats", "acl_access_denied_auth");
    if (GetParam() == ServerImpl::Redis) {
        EXPECT_EQ(denied, "");
    } else if (!denied.empty()) {
        EXPECT_EQ(denied, "4");
    }

    EXPECT_EQ(call({"ACL", "LOG", "RESET"}), OK);
    EXPECT_EQ(call({"ACL", "LOG"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"ACL", "LOG", "x"}), NOT_INT);
}

/* ------------------------------------------------------------------------
 * ACL SETUSER's rules, as ACL LIST and ACL GETUSER describe them
 * ---------------------------------------------------------------------- */

TEST_P(Acl, EachRuleAsAclListShowsIt) {
    struct Step {
        Args rules;
        std::string line;
    };
    const std::vector<Step> steps{
        {{}, "user u off resetchannels -@all"},
        {{"on"}, "user u on resetchannels -@all"},
        {{">p1", ">p2"}, "user u on #" + SHA_P1 + " #" + SHA_P2 + " resetchannels -@all"},
        {{"<p1"}, "user u on #" + SHA_P2 + " resetchannels -@all"},
        {{"#" + SHA_P3}, "user u on #" + SHA_P2 + " #" + SHA_P3 + " resetchannels -@all"},
        {{"nopass"}, "user u on nopass resetchannels -@all"},
        {{">p1"}, "user u on #" + SHA_P1 + " resetchannels -@all"},
        {{"resetpass"}, "user u on resetchannels -@all"},
        {{"off"}, "user u off resetchannels -@all"},
        {{"~a*", "%R~r*", "%W~w*", "%RW~b*"}, "user u off ~a* %R~r* %W~w* ~b* resetchannels -@all"},
        {{"allkeys"}, "user u off ~* resetchannels -@all"},
        {{"resetkeys", "~k*"}, "user u off ~k* resetchannels -@all"},
        {{"&c*", "&news"}, "user u off ~k* resetchannels &c* &news -@all"},
        {{"allchannels"}, "user u off ~k* &* -@all"},
        {{"resetchannels"}, "user u off ~k* resetchannels -@all"},
        {{"+@hash"}, "user u off ~k* resetchannels -@all +@hash"},
        {{"-hdel"}, "user u off ~k* resetchannels -@all +@hash -hdel"},
        {{"-@hash"}, "user u off ~k* resetchannels -@all"},
        {{"+get", "+set", "+client|id"}, "user u off ~k* resetchannels -@all +client|id +get +set"},
        {{"-get"}, "user u off ~k* resetchannels -@all +client|id +set"},
        {{"allcommands"}, "user u off ~k* resetchannels +@all"},
        {{"-@dangerous"}, "user u off ~k* resetchannels +@all -@dangerous"},
        {{"nocommands"}, "user u off ~k* resetchannels -@all"},
        {{"+@all", "-client|kill"}, "user u off ~k* resetchannels +@all -client|kill"},
        {{"reset"}, "user u off sanitize-payload resetchannels -@all"},
    };
    for (const Step &step : steps) {
        EXPECT_EQ(setuser("u", step.rules), OK) << describe(step.rules);
        EXPECT_EQ(aclListLine(admin(), "u"), step.line) << "after " << describe(step.rules);
    }
}

TEST_P(Acl, GetuserReply) {
    ASSERT_EQ(setuser("u", {"on", ">p1", "~k*", "%R~r*", "&c*", "+@hash", "-hdel"}), OK);
    EXPECT_EQ(call({"ACL", "GETUSER", "u"}),
              array({bulk("flags"), bulks({"on"}), bulk("passwords"), bulks({SHA_P1}), bulk("commands"),
                     bulk("-@all +@hash -hdel"), bulk("keys"), bulk("~k* %R~r*"), bulk("channels"), bulk("&c*"),
                     bulk("selectors"), EMPTY_ARRAY}));
    ASSERT_EQ(setuser("v", {"on", "nopass", "+get", "+set"}), OK);
    EXPECT_EQ(getuser(admin(), "v"), "flags=on,nopass passwords= commands=-@all +get +set keys= channels= selectors=0");
    ASSERT_EQ(setuser("v", {"reset"}), OK);
    EXPECT_EQ(getuser(admin(), "v"),
              "flags=off,sanitize-payload passwords= commands=-@all keys= channels= selectors=0");
    EXPECT_EQ(call({"ACL", "GETUSER", "nosuch"}), NIL);
}

TEST_P(Acl, BadRulesAreRefusedAndChangeNothing) {
    const std::string unknown = "Unknown command or category name in ACL";
    const std::vector<std::pair<std::string, std::string>> bad{
        {"<p9", "The password you are trying to remove from the user does not exist"},
        {"#abc", "The password hash must be exactly 64 characters and contain only lowercase hexadecimal "
                 "characters"},
        {"#" + std::string(64, 'A'), "The password hash must be exactly 64 characters and contain only lowercase "
                                     "hexadecimal characters"},
        {"foo", "Syntax error"},
        {"%X~a", "Syntax error"},
        {"+nosuch", unknown},
        {"+@nosuch", unknown},
        {"-@nosuch", unknown},
        {"+client|nosuch", unknown},
        {"-get|x", unknown},
    };
    for (const auto &[rule, why] : bad) {
        EXPECT_EQ(setuser("newbie", {"on", rule}), setuserErr(rule, why)) << rule;
        EXPECT_EQ(call({"ACL", "GETUSER", "newbie"}), NIL) << "a refused SETUSER creates no user: " << rule;
    }
    EXPECT_EQ(setuser("newbie", {"allkeys", "%R~k*"}),
              setuserErr("%R~k*", "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and "
                                  "does not have any effect. Try 'resetkeys' to start with an empty list of "
                                  "patterns"));
    EXPECT_EQ(setuser("newbie", {"~*", "~k*"}),
              setuserErr("~k*", "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and "
                                "does not have any effect. Try 'resetkeys' to start with an empty list of "
                                "patterns"));
    EXPECT_EQ(setuser("newbie", {"allchannels", "&c"}),
              setuserErr("&c", "Adding a pattern after the * pattern (or the 'allchannels' flag) is not valid and "
                               "does not have any effect. Try 'resetchannels' to start with an empty list of "
                               "channels"));
    EXPECT_EQ(call({"ACL", "GETUSER", "newbie"}), NIL);
    ASSERT_EQ(setuser("u", {"on", ">p1", "~k*", "+get"}), OK);
    const std::string before = aclListLine(admin(), "u");
    EXPECT_EQ(setuser("u", {"off", ">p2", "allkeys", "+@all", "bogus"}), setuserErr("bogus", "Syntax error"));
    EXPECT_EQ(aclListLine(admin(), "u"), before) << "the rules before the bad one were not applied either";
    EXPECT_EQ(call({"ACL", "SETUSER", "a b", "on"}), err("ERR Usernames can't contain spaces or null characters"));
    EXPECT_EQ(call({"ACL", "SETUSER"}), arityErr("acl|setuser"));
}

/* ------------------------------------------------------------------------
 * What the rules let a user do
 * ---------------------------------------------------------------------- */

TEST_P(Acl, PasswordRulesDecideWhoAuthenticates) {
    RespConn c = connect();
    auto auth = [&](const std::string &pass) { return c.call({"AUTH", "u", pass}).raw; };
    ASSERT_EQ(setuser("u", {">p1", "+@all", "~*"}), OK);
    EXPECT_EQ(auth("p1"), WRONGPASS) << "a new user is off";
    ASSERT_EQ(setuser("u", {"on"}), OK);
    EXPECT_EQ(auth("p1"), OK);
    ASSERT_EQ(setuser("u", {"#" + SHA_P3}), OK);
    EXPECT_EQ(auth("p3"), OK) << "#<hash> adds the password whose SHA-256 it is";
    ASSERT_EQ(setuser("u", {"<p1"}), OK);
    EXPECT_EQ(auth("p1"), WRONGPASS);
    ASSERT_EQ(setuser("u", {"nopass"}), OK);
    EXPECT_EQ(auth("anything"), OK);
    ASSERT_EQ(setuser("u", {"resetpass"}), OK);
    EXPECT_EQ(auth("anything"), WRONGPASS);
    EXPECT_EQ(auth("p3"), WRONGPASS);
    ASSERT_EQ(setuser("u", {">p2", "off"}), OK);
    EXPECT_EQ(auth("p2"), WRONGPASS) << "off";

    /* Disabling a user in Redis 7.0 refuses new AUTHs but leaves its
     * connected clients as they are. */
    ASSERT_EQ(setuser("u", {"on"}), OK);
    RespConn u = connectAs("u", "p2");
    ASSERT_EQ(setuser("u", {"off"}), OK);
    EXPECT_EQ(u.call({"PING"}).raw, "+PONG\r\n");
    EXPECT_EQ(u.call({"ACL", "WHOAMI"}).raw, bulk("u"));
    /* reset leaves it connected too, allowed nothing. */
    ASSERT_EQ(setuser("u", {"reset"}), OK);
    EXPECT_EQ(u.call({"PING"}).raw, nopermCommand("ping"));
}

TEST_P(Acl, CommandRulesDecideWhatTheUserRuns) {
    ASSERT_EQ(setuser("u", {"on", ">pw", "allkeys", "+@read", "-strlen", "+set", "+client|id", "+acl|whoami"}),
              OK);
    RespConn u = connectAs("u", "pw");
    EXPECT_EQ(u.call({"SET", "k", "v"}).raw, OK);
    EXPECT_EQ(u.call({"GET", "k"}).raw, bulk("v"));
    EXPECT_EQ(u.call({"STRLEN", "k"}).raw, nopermCommand("strlen"));
    EXPECT_EQ(u.call({"DEL", "k"}).raw, nopermCommand("del"));
    EXPECT_EQ(u.call({"CLIENT", "ID"}).type, Reply::Type::Integer);
    EXPECT_EQ(u.call({"CLIENT", "LIST"}).raw, nopermCommand("client|list"));
    EXPECT_EQ(u.call({"ACL", "WHOAMI"}).raw, bulk("u"));
    EXPECT_EQ(u.call({"ACL", "USERS"}).raw, nopermCommand("acl|users"));
    EXPECT_EQ(u.call({"PING"}).raw, nopermCommand("ping"));

    ASSERT_EQ(setuser("u", {"-@string"}), OK);
    EXPECT_EQ(u.call({"GET", "k"}).raw, nopermCommand("get"));
    EXPECT_EQ(u.call({"HGET", "h", "f"}).raw, NIL) << "@read outside @string stays";
    ASSERT_EQ(setuser("u", {"allcommands"}), OK);
    EXPECT_EQ(u.call({"DEL", "k"}).raw, integer(1));
    ASSERT_EQ(setuser("u", {"nocommands"}), OK);
    EXPECT_EQ(u.call({"PING"}).raw, nopermCommand("ping"));
    /* A refused EXEC, even outside MULTI, is answered as an aborted transaction. */
    EXPECT_EQ(u.call({"EXEC"}).raw,
              err("EXECABORT Transaction discarded because of: NOPERM this user has no permissions to run the "
                  "'exec' command"));
}

TEST_P(Acl, KeyPatternsDecideWhatTheUserTouches) {
    ASSERT_EQ(setuser("u", {"on", ">pw", "+@all", "~k*"}), OK);
    RespConn u = connectAs("u", "pw");
    EXPECT_EQ(u.call({"SET", "k1", "v"}).raw, OK);
    EXPECT_EQ(u.call({"GET", "x"}).raw, NOPERM_KEY);
    EXPECT_EQ(u.call({"MSET", "k2", "v", "x", "v"}).raw, NOPERM_KEY) << "one key out of the patterns is enough";
    EXPECT_EQ(u.call({"EXISTS", "k2"}).raw, integer(0)) << "MSET did nothing";
    ASSERT_EQ(setuser("u", {"allkeys"}), OK);
    EXPECT_EQ(u.call({"GET", "x"}).raw, NIL);
    ASSERT_EQ(setuser("u", {"resetkeys"}), OK);
    EXPECT_EQ(u.call({"GET", "k1"}).raw, NOPERM_KEY);
    EXPECT_EQ(u.call({"DBSIZE"}).raw, integer(1)) << "a command without keys needs no key permission";
}

/* %R~ and %W~ are matched against what each key's key spec says the
 * command does with it: ACCESS needs R; INSERT, UPDATE, DELETE need W; a key
 * the command neither reads nor writes (EXISTS) needs only some pattern. */
TEST_P(Acl, ReadAndWritePatternsFollowKeySpecs) {
    ASSERT_EQ(call({"SET", "r1", "a"}), OK);
    ASSERT_EQ(setuser("u", {"on", ">pw", "+@all", "%R~r*", "%W~w*", "~rw*"}), OK);
    RespConn u = connectAs("u", "pw");
    EXPECT_EQ(u.call({"GET", "r1"}).raw, bulk("a"));
    EXPECT_EQ(u.call({"SET", "r1", "b"}).raw, NOPERM_KEY);
    EXPECT_EQ(u.call({"SET", "w1", "b"}).raw, OK);
    EXPECT_EQ(u.call({"GET", "w1"}).raw, NOPERM_KEY);
    EXPECT_EQ(u.call({"APPEND", "w1", "c"}).raw, integer(2)) << "APPEND inserts without reading";
    EXPECT_EQ(u.call({"EXISTS", "w1"}).raw, integer(1));
    EXPECT_EQ(u.call({"EXISTS", "r1", "zz"}).raw, NOPERM_KEY) << "zz matches no pattern";
    EXPECT_EQ(u.call({"COPY", "r1", "w2"}).raw, integer(1)) << "reads its source, writes its destination";
    EXPECT_EQ(u.call({"COPY", "w1", "r2"}).raw, NOPERM_KEY);
    EXPECT_EQ(u.call({"LPUSH", "wl", "e"}).raw, integer(1));
    EXPECT_EQ(u.call({"RPOPLPUSH", "wl", "w3"}).raw, NOPERM_KEY) << "popping reads the source";
    EXPECT_EQ(u.call({"RPOPLPUSH", "rwl", "rw2"}).raw, NIL);
    EXPECT_EQ(u.call({"SET", "rw1", "x"}).raw, OK);
    EXPECT_EQ(u.call({"GET", "rw1"}).raw, bulk("x"));

    EXPECT_EQ(call({"ACL", "DRYRUN", "u", "GET", "r1"}), OK);
    EXPECT_EQ(call({"ACL", "DRYRUN", "u", "SET", "r1", "v"}), bulk("This user has no permissions to access the 'r1' key"));
}

/* Keys found by each kind of key spec: an index, a range to the end, a
 * count of keys (numkeys), a keyword (STREAMS), every other argument. */
TEST_P(Acl, EveryKindOfKeySpecIsChecked) {
    ASSERT_EQ(setuser("u", {"on", ">pw", "+@all", "~k*"}), OK);
    RespConn u = connectAs("u", "pw");
    const std::vector<std::pair<Args, std::string>> cases{
        {{"MGET", "k1", "k2", "x"}, NOPERM_KEY},
        {{"MGET", "k1", "k2"}, array({NIL, NIL})},
        {{"MSET", "k1", "a", "x", "b"}, NOPERM_KEY},
        {{"ZUNIONSTORE", "k3", "2", "k1", "x"}, NOPERM_KEY},
        {{"ZUNIONSTORE", "x", "1", "k1"}, NOPERM_KEY},
        {{"ZUNIONSTORE", "k3", "1", "k4", "WEIGHTS", "2"}, integer(0)},
        {{"SINTERCARD", "2", "k1", "x"}, NOPERM_KEY},
        {{"SINTERCARD", "1", "k1"}, integer(0)},
        {{"LMPOP", "2", "k1", "x", "LEFT"}, NOPERM_KEY},
        {{"XREAD", "COUNT", "1", "STREAMS", "k1", "x", "0", "0"}, NOPERM_KEY},
        {{"XREAD", "COUNT", "1", "STREAMS", "k1", "k2", "0", "0"}, NIL_ARRAY},
        {{"LMOVE", "k1", "x", "LEFT", "RIGHT"}, NOPERM_KEY},
        {{"RENAME", "k1", "x"}, NOPERM_KEY},
    };
    for (const auto &[cmd, reply] : cases) EXPECT_EQ(u.call(cmd).raw, reply) << describe(cmd);
    EXPECT_EQ(call({"DBSIZE"}), integer(0));
}

TEST_P(Acl, ChannelPatternsDecideWhatTheUserSubscribesAndPublishes) {
    ASSERT_EQ(setuser("u", {"on", ">pw", "+@all", "~*", "&news.*"}), OK);
    RespConn sub = connectAs("u", "pw"), pub = connectAs("u", "pw");
    EXPECT_EQ(sub.call({"SUBSCRIBE", "news.1", "other"}).raw, NOPERM_CHANNEL) << "one channel denied: none joined";
    EXPECT_EQ(sub.call({"PSUBSCRIBE", "news.1*"}).raw, NOPERM_CHANNEL)
        << "a pattern must be one of the user's patterns, literally";
    EXPECT_EQ(sub.call({"PSUBSCRIBE", "news.*"}).raw, array({bulk("psubscribe"), bulk("news.*"), integer(1)}));
    EXPECT_EQ(sub.call({"SUBSCRIBE", "news.2"}).raw, array({bulk("subscribe"), bulk("news.2"), integer(2)}));
    EXPECT_EQ(pub.call({"PUBLISH", "other", "m"}).raw, NOPERM_CHANNEL);
    EXPECT_EQ(pub.call({"PUBLISH", "news.2", "m"}).raw, integer(2));
    EXPECT_EQ(sub.readReply().raw, array({bulk("message"), bulk("news.2"), bulk("m")}));
    EXPECT_EQ(sub.readReply().raw, array({bulk("pmessage"), bulk("news.*"), bulk("news.2"), bulk("m")}));
    ASSERT_EQ(setuser("u", {"allchannels"}), OK);
    EXPECT_EQ(pub.call({"PUBLISH", "other", "m"}).raw, integer(0));
    ASSERT_EQ(setuser("u", {"resetchannels", "&news.*"}), OK);
    EXPECT_EQ(pub.call({"PUBLISH", "other", "m"}).raw, NOPERM_CHANNEL);
}

/* Redis 7.0 disconnects a user's subscribers as soon as SETUSER takes away
 * a channel or pattern they are subscribed to. */
TEST_P(Acl, RevokingAChannelDisconnectsItsSubscribers) {
    ASSERT_EQ(setuser("u", {"on", ">pw", "+@all", "~*", "&news.*"}), OK);
    RespConn sub = connectAs("u", "pw"), other = connectAs("u", "pw");
    ASSERT_EQ(sub.call({"PSUBSCRIBE", "news.*"}).raw, array({bulk("psubscribe"), bulk("news.*"), integer(1)}));
    ASSERT_EQ(setuser("u", {"&more"}), OK) << "more channels take nothing away";
    EXPECT_EQ(sub.call({"PING"}).raw, array({bulk("pong"), bulk("")}));
    ASSERT_EQ(setuser("u", {"resetchannels", "&news.1"}), OK);
    sub.expectClosed();
    EXPECT_EQ(other.call({"PING"}).raw, "+PONG\r\n") << "a client that subscribed to nothing stays";
}

/* ------------------------------------------------------------------------
 * MULTI/EXEC and scripts
 * ---------------------------------------------------------------------- */

TEST_P(Acl, ADeniedKeyInsideMultiAbortsTheTransaction) {
    ASSERT_EQ(setuser("u", {"on", ">pw", "+@all", "~k*"}), OK);
    RespConn u = connectAs("u", "pw");
    EXPECT_EQ(u.call({"MULTI"}).raw, OK);
    EXPECT_EQ(u.call({"SET", "k1", "v"}).raw, QUEUED);
    EXPECT_EQ(u.call({"GET", "x"}).raw, NOPERM_KEY);
    EXPECT_EQ(u.call({"EXEC"}).raw, err("EXECABORT Transaction discarded because of previous errors."));
    EXPECT_EQ(call({"EXISTS", "k1"}), integer(0));
    std::vector<AclLogEntry> log = aclLog(admin());
    ASSERT_EQ(log.size(), 1u);
    EXPECT_EQ(log[0].stable, "count=1 reason=key context=multi object=x username=u");
    expectEntryShape(log[0], "u", "get");
}

/* EXEC checks each queued command again: what the user lost meanwhile is
 * refused in EXEC's reply, one error per command, the rest run. */
TEST_P(Acl, PermissionsChangedBetweenQueueingAndExec) {
    ASSERT_EQ(setuser("u", {"on", ">pw", "+@all", "~*", "&*"}), OK);
    RespConn u = connectAs("u", "pw");
    EXPECT_EQ(u.call({"MULTI"}).raw, OK);
    for (const Args &cmd : std::vector<Args>{{"SET", "k", "1"},
                                             {"PUBLISH", "ch", "m"},
                                             {"INCR", "k"},
                                             {"SET", "other", "2"},
                                             {"GET", "other"}})
        EXPECT_EQ(u.call(cmd).raw, QUEUED) << describe(cmd);
    ASSERT_EQ(setuser("u", {"resetkeys", "~other", "-incr", "resetchannels"}), OK);
    EXPECT_EQ(u.call({"EXEC"}).raw, array({execNoperm("no permission to touch the specified keys"),
                                           execNoperm("no permission to access one of the channels used as "
                                                      "arguments"),
                                           execNoperm("no permission to execute the command or subcommand"), OK,
                                           bulk("2")}));
    EXPECT_EQ(call({"EXISTS", "k"}), integer(0));
    EXPECT_EQ(stableParts(aclLog(admin())), (std::vector<std::string>{
                                                "count=1 reason=command context=multi object=incr username=u",
                                                "count=1 reason=channel context=multi object=ch username=u",
                                                "count=1 reason=key context=multi object=k username=u",
                                            }));
}

TEST_P(Acl, ADeniedRedisCallFailsTheScript) {
    ASSERT_EQ(setuser("u", {"on", ">pw", "+@all", "-del", "~k*"}), OK);
    RespConn u = connectAs("u", "pw");
    EXPECT_EQ(u.call({"EVAL", "return redis.call('get','zz')", "0"}).raw,
              err("ERR The user executing the script can't access at least one of the keys mentioned in the "
                  "command arguments script: e1865e627da33038e4f491368970810aeb17c8bb, on @user_script:1."));
    EXPECT_EQ(u.call({"EVAL", "return redis.call('del','k1')", "0"}).raw,
              err("ERR The user executing the script can't run this command or subcommand script: "
                  "c3b74f3007a98f0c42fee4958cccfc76c0078f51, on @user_script:1."));
    EXPECT_EQ(u.call({"EVAL", "return redis.pcall('del','k1')", "0"}).raw,
              err("ERR The user executing the script can't run this command or subcommand"))
        << "pcall hands the error to the script";
    EXPECT_EQ(u.call({"EVAL", "redis.call('set','k1','v') return redis.call('get','zz')", "0"}).type,
              Reply::Type::Error);
    EXPECT_EQ(call({"GET", "k1"}), bulk("v")) << "what ran before the denied call stays";
    EXPECT_EQ(u.call({"EVAL", "return redis.call('get',KEYS[1])", "1", "zz"}).raw, NOPERM_KEY)
        << "a declared key is checked before the script runs";
    EXPECT_EQ(stableParts(aclLog(admin())), (std::vector<std::string>{
                                                "count=1 reason=key context=toplevel object=zz username=u",
                                                "count=2 reason=key context=lua object=zz username=u",
                                                "count=2 reason=command context=lua object=del username=u",
                                            }));
}

/* ------------------------------------------------------------------------
 * The ACL subcommands
 * ---------------------------------------------------------------------- */

TEST_P(Acl, UsersDeluserWhoami) {
    ASSERT_EQ(setuser("zed", {}), OK);
    ASSERT_EQ(setuser("amy", {"on", "nopass", "+acl|whoami"}), OK);
    EXPECT_EQ(call({"ACL", "USERS"}), bulks({"amy", "default", "zed"}));
    EXPECT_EQ(call({"ACL", "WHOAMI"}), bulk("default"));
    RespConn amy = connectAs("amy", "x");
    EXPECT_EQ(amy.call({"ACL", "WHOAMI"}).raw, bulk("amy"));
    EXPECT_EQ(call({"ACL", "DELUSER", "zed", "nosuch", "zed"}), integer(1));
    EXPECT_EQ(call({"ACL", "DELUSER", "nosuch"}), integer(0));
    EXPECT_EQ(call({"ACL", "DELUSER", "default"}), err("ERR The 'default' user cannot be removed"));
    EXPECT_EQ(call({"ACL", "DELUSER", "amy", "default"}), err("ERR The 'default' user cannot be removed"));
    EXPECT_EQ(call({"ACL", "USERS"}), bulks({"amy", "default"})) << "nothing deleted by a refused DELUSER";
    EXPECT_EQ(call({"ACL", "DELUSER"}), arityErr("acl|deluser"));
    EXPECT_EQ(call({"ACL", "DELUSER", "amy"}), integer(1));
    amy.expectClosed();
    EXPECT_EQ(call({"ACL", "nosuch"}), err("ERR unknown subcommand 'nosuch'. Try ACL HELP."));
    EXPECT_EQ(call({"ACL"}), arityErr("acl"));
}

/* A client that deletes its own user gets its reply, then is closed. */
TEST_P(Acl, DeletingYourOwnUser) {
    ASSERT_EQ(setuser("u", {"on", ">pw", "+@all", "~*"}), OK);
    RespConn u = connectAs("u", "pw");
    EXPECT_EQ(u.call({"ACL", "DELUSER", "u"}).raw, integer(1));
    u.expectClosed();
}

/* The client of a deleted user is closed even while blocked, and is never
 * served: the element pushed afterwards stays in the list. */
TEST_P(Acl, DeletingTheUserOfABlockedClient) {
    ASSERT_EQ(setuser("u", {"on", ">pw", "+@all", "~*"}), OK);
    RespConn waiter = connectAs("u", "pw"), idle = connectAs("u", "pw");
    waiter.cmd({"BLPOP", "q", "0"});
    waitBlocked(1);
    EXPECT_EQ(call({"ACL", "DELUSER", "u"}), integer(1));
    EXPECT_EQ(waiter.readAllUntilClose(), "");
    EXPECT_EQ(idle.readAllUntilClose(), "");
    EXPECT_EQ(infoNumber(admin(), "clients", "blocked_clients"), 0);
    EXPECT_EQ(call({"LPUSH", "q", "e1"}), integer(1));
    EXPECT_EQ(call({"LRANGE", "q", "0", "-1"}), bulks({"e1"}));
}

TEST_P(Acl, Cat) {
    EXPECT_EQ(call({"ACL", "CAT"}),
              bulks({"keyspace", "read", "write", "set", "sortedset", "list", "hash", "string", "bitmap",
                     "hyperloglog", "geo", "stream", "pubsub", "admin", "fast", "slow", "blocking", "dangerous",
                     "connection", "transaction", "scripting"}));
    /* Categories whose every command cppredis has. */
    const std::map<std::string, std::vector<std::string>> complete{
        {"hash",
         {"hdel", "hexists", "hget", "hgetall", "hincrby", "hincrbyfloat", "hkeys", "hlen", "hmget", "hmset",
          "hrandfield", "hscan", "hset", "hsetnx", "hstrlen", "hvals"}},
        {"transaction", {"discard", "exec", "multi", "unwatch", "watch"}},
        {"blocking",
         {"blmove", "blmpop", "blpop", "brpop", "brpoplpush", "bzmpop", "bzpopmax", "bzpopmin", "xread",
          "xreadgroup"}},
        {"stream",
         {"xack", "xadd", "xautoclaim", "xclaim", "xdel", "xgroup|create", "xgroup|createconsumer",
          "xgroup|delconsumer", "xgroup|destroy", "xgroup|help", "xgroup|setid", "xinfo|consumers",
          "xinfo|groups", "xinfo|help", "xinfo|stream", "xlen", "xpending", "xrange", "xread", "xreadgroup",
          "xrevrange", "xsetid", "xtrim"}},
    };
    for (const auto &[category, commands] : complete)
        EXPECT_EQ(sortedBulks(admin().call({"ACL", "CAT", category})), commands) << category;
    /* Of @string, what cppredis has (not LCS nor SUBSTR). */
    std::set<std::string> implemented = {"append", "decr", "decrby", "get", "getdel", "getex", "getrange", "getset",
                                    "incr", "incrby", "incrbyfloat", "mget", "mset", "msetnx", "psetex", "set",
                                    "setex", "setnx", "setrange", "strlen"};
    std::vector<std::string> got = sortedBulks(admin().call({"ACL", "CAT", "string"}));
    std::erase_if(got, [](const std::string &c) { return c == "lcs" || c == "substr"; });
    EXPECT_EQ(got, std::vector<std::string>(implemented.begin(), implemented.end()));
    EXPECT_EQ(call({"ACL", "CAT", "nosuch"}), err("ERR Unknown category 'nosuch'"));
    EXPECT_EQ(call({"ACL", "CAT", "a", "b"}),
              err("ERR unknown subcommand or wrong number of arguments for 'CAT'. Try ACL HELP."));
}

TEST_P(Acl, Genpass) {
    auto hexOfLength = [](const Reply &r, size_t n) {
        return r.type == Reply::Type::Bulk && r.str.size() == n &&
               std::all_of(r.str.begin(), r.str.end(), [](char ch) { return std::isxdigit(ch) && !std::isupper(ch); });
    };
    Reply a = admin().call({"ACL", "GENPASS"}), b = admin().call({"ACL", "GENPASS"});
    EXPECT_TRUE(hexOfLength(a, 64)) << a;
    EXPECT_NE(a.str, b.str);
    EXPECT_TRUE(hexOfLength(admin().call({"ACL", "GENPASS", "5"}), 2)) << "bits rounded up to hex digits";
    EXPECT_TRUE(hexOfLength(admin().call({"ACL", "GENPASS", "1"}), 1));
    EXPECT_TRUE(hexOfLength(admin().call({"ACL", "GENPASS", "4096"}), 1024));
    for (const char *bits : {"0", "-8", "4097"}) EXPECT_EQ(call({"ACL", "GENPASS", bits}), GENPASS_RANGE) << bits;
    EXPECT_EQ(call({"ACL", "GENPASS", "x"}), NOT_INT);
}

TEST_P(Acl, Dryrun) {
    ASSERT_EQ(setuser("u", {"on", "nopass", "~k*", "&c", "+get", "+publish", "+client|id"}), OK);
    EXPECT_EQ(call({"ACL", "DRYRUN", "u", "GET", "k1"}), OK);
    EXPECT_EQ(call({"ACL", "DRYRUN", "u", "GET", "x"}), bulk("This user has no permissions to access the 'x' key"));
    EXPECT_EQ(call({"ACL", "DRYRUN", "u", "DEL", "k1"}), bulk("This user has no permissions to run the 'del' command"));
    EXPECT_EQ(call({"ACL", "DRYRUN", "u", "CLIENT", "ID"}), OK);
    EXPECT_EQ(call({"ACL", "DRYRUN", "u", "CLIENT", "LIST"}),
              bulk("This user has no permissions to run the 'client|list' command"));
    EXPECT_EQ(call({"ACL", "DRYRUN", "u", "PUBLISH", "c", "m"}), OK);
    EXPECT_EQ(call({"ACL", "DRYRUN", "u", "PUBLISH", "d", "m"}),
              bulk("This user has no permissions to access the 'd' channel"));
    EXPECT_EQ(call({"ACL", "DRYRUN", "nosuch", "GET", "k1"}), err("ERR User 'nosuch' not found"));
    EXPECT_EQ(call({"ACL", "DRYRUN", "u", "nosuchcmd"}), err("ERR Command 'nosuchcmd' not found"));
    EXPECT_EQ(call({"ACL", "DRYRUN", "u", "GET"}), arityErr("get"));
    EXPECT_EQ(call({"ACL", "LOG"}), EMPTY_ARRAY) << "a dry run logs nothing";
}

/* Denials at top level: one entry per reason, context, object and user;
 * a repeat within a minute adds to its entry's count and moves it first. */
TEST_P(Acl, LogEntries) {
    ASSERT_EQ(setuser("u", {"on", ">pw", "~k*", "&c*", "+get", "+publish", "+subscribe"}), OK);
    RespConn u = connectAs("u", "pw");
    EXPECT_EQ(u.call({"GET", "x"}).raw, NOPERM_KEY);
    EXPECT_EQ(u.call({"DEL", "k1"}).raw, nopermCommand("del"));
    EXPECT_EQ(u.call({"PUBLISH", "x", "m"}).raw, NOPERM_CHANNEL);
    EXPECT_EQ(u.call({"SUBSCRIBE", "c1", "x"}).raw, NOPERM_CHANNEL);
    EXPECT_EQ(u.call({"GET", "x"}).raw, NOPERM_KEY);
    std::vector<AclLogEntry> log = aclLog(admin());
    EXPECT_EQ(stableParts(log), (std::vector<std::string>{
                                    "count=2 reason=key context=toplevel object=x username=u",
                                    "count=2 reason=channel context=toplevel object=x username=u",
                                    "count=1 reason=command context=toplevel object=del username=u",
                                }));
    ASSERT_EQ(log.size(), 3u);
    expectEntryShape(log[0], "u", "get");
    expectEntryShape(log[1], "u", "subscribe");
    expectEntryShape(log[2], "u", "del");
    EXPECT_EQ(aclLog(admin(), {"2"}).size(), 2u);
    EXPECT_EQ(aclLog(admin(), {"-1"}).size(), 0u);
}

TEST_P(Acl, LogKeepsAcllogMaxLenEntries) {
    EXPECT_EQ(call({"CONFIG", "GET", "acllog-max-len"}), bulks({"acllog-max-len", "128"}));
    ASSERT_EQ(call({"CONFIG", "SET", "acllog-max-len", "2"}), OK);
    ASSERT_EQ(setuser("u", {"on", ">pw", "~k*", "+get"}), OK);
    RespConn u = connectAs("u", "pw");
    for (const char *key : {"x", "y", "z"}) EXPECT_EQ(u.call({"GET", key}).raw, NOPERM_KEY);
    EXPECT_EQ(stableParts(aclLog(admin())), (std::vector<std::string>{
                                                "count=1 reason=key context=toplevel object=z username=u",
                                                "count=1 reason=key context=toplevel object=y username=u",
                                            }));
    EXPECT_EQ(call({"CONFIG", "SET", "acllog-max-len", "-1"}),
              err("ERR CONFIG SET failed (possibly related to argument 'acllog-max-len') - argument must be "
                  "between 0 and 9223372036854775807 inclusive"));
}

/* acl-pubsub-default is what a new user (and `reset`) starts with. */
TEST_P(Acl, AclPubsubDefault) {
    EXPECT_EQ(call({"CONFIG", "GET", "acl-pubsub-default"}), bulks({"acl-pubsub-default", "resetchannels"}));
    ASSERT_EQ(call({"CONFIG", "SET", "acl-pubsub-default", "allchannels"}), OK);
    ASSERT_EQ(setuser("u", {}), OK);
    EXPECT_EQ(setuser("v", {"&x"}),
              setuserErr("&x", "Adding a pattern after the * pattern (or the 'allchannels' flag) is not valid and "
                               "does not have any effect. Try 'resetchannels' to start with an empty list of "
                               "channels"))
        << "a new user has all channels already";
    ASSERT_EQ(setuser("v", {"reset"}), OK);
    EXPECT_EQ(aclListLine(admin(), "u"), "user u off &* -@all");
    EXPECT_EQ(aclListLine(admin(), "v"), "user v off sanitize-payload &* -@all");
    EXPECT_EQ(call({"CONFIG", "SET", "acl-pubsub-default", "nosuch"}),
              err("ERR CONFIG SET failed (possibly related to argument 'acl-pubsub-default') - argument(s) must be "
                  "one of the following: allchannels, resetchannels"));
    ASSERT_EQ(call({"CONFIG", "SET", "acl-pubsub-default", "resetchannels"}), OK);
    ASSERT_EQ(setuser("w", {}), OK);
    EXPECT_EQ(aclListLine(admin(), "w"), "user w off resetchannels -@all");
    EXPECT_EQ(aclListLine(admin(), "u"), "user u off &* -@all") << "existing users keep their channels";
}

/* ------------------------------------------------------------------------
 * Servers of their own: protected mode, an aclfile, users in redis.conf
 * ---------------------------------------------------------------------- */

class AclStartup : public ::testing::TestWithParam<ServerImpl> {
protected:
    void SetUp() override {
        if (GetParam() == ServerImpl::Redis) REQUIRE_REDIS_REFERENCE();
    }
};
INSTANTIATE_TEST_SUITE_P(Servers, AclStartup, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* Protected mode refuses a peer that is not 127.0.0.1 or ::1 only while the
 * default user has no password: with requirepass (here from the start) it
 * is served like any client. 127.0.0.2 is such a peer, on the loopback
 * interface. */
TEST_P(AclStartup, ProtectedModeWhileTheDefaultUserHasNoPassword) {
    std::unique_ptr<TestServer> srv =
        startServer(GetParam(), {"--bind", "127.0.0.1 127.0.0.2", "--requirepass", "secret"});
    const LoopbackRoute from2{.from = "127.0.0.2", .to = "127.0.0.2"};
    {
        RespConn c(from2, srv->port());
        EXPECT_EQ(c.call({"PING"}).raw, NOAUTH);
        EXPECT_EQ(c.call({"AUTH", "secret"}).raw, OK);
        EXPECT_EQ(c.call({"PING"}).raw, "+PONG\r\n");
    }
    RespConn admin = srv->connect();
    ASSERT_EQ(admin.call({"AUTH", "secret"}).raw, OK);
    ASSERT_EQ(admin.call({"CONFIG", "SET", "requirepass", ""}).raw, OK);
    {
        RespConn c(from2, srv->port());
        EXPECT_EQ(c.readAllUntilClose(), PROTECTED_MODE_DENIED);
    }
    /* Another user's password does not count. */
    ASSERT_EQ(admin.call({"ACL", "SETUSER", "alice", "on", ">pw", "+@all"}).raw, OK);
    {
        RespConn c(from2, srv->port());
        EXPECT_EQ(c.readAllUntilClose(), PROTECTED_MODE_DENIED);
    }
    EXPECT_EQ(infoField(admin, "stats", "rejected_connections"), "2");
    ASSERT_EQ(admin.call({"CONFIG", "SET", "requirepass", "secret"}).raw, OK);
    RespConn c(from2, srv->port());
    EXPECT_EQ(c.call({"PING"}).raw, NOAUTH);
    EXPECT_EQ(c.call({"AUTH", "alice", "pw"}).raw, OK);
    EXPECT_EQ(c.call({"PING"}).raw, "+PONG\r\n");
}

/* `user` lines in the config file; a `user default` line resets the default
 * user first, which in Redis 7.0 leaves it with sanitize-payload. */
TEST_P(AclStartup, UserLinesInTheConfigFile) {
    TempFile conf("user alice on >pw ~k* +get\nuser default on >secret ~* &* +@all\n");
    ConfiguredServer srv(GetParam(), conf.path());
    RespConn c = srv.connect();
    EXPECT_EQ(c.call({"PING"}).raw, NOAUTH);
    EXPECT_EQ(c.call({"AUTH", "alice", "pw"}).raw, OK);
    EXPECT_EQ(c.call({"GET", "k"}).raw, NIL);
    EXPECT_EQ(c.call({"SET", "k", "v"}).raw, nopermCommand("set"));
    EXPECT_EQ(c.call({"GET", "x"}).raw, NOPERM_KEY);
    EXPECT_EQ(c.call({"AUTH", "secret"}).raw, OK);
    EXPECT_EQ(aclList(c), (std::vector<std::string>{
                              "user alice on #" + SHA_PW + " ~k* resetchannels -@all +get",
                              "user default on sanitize-payload #" + SHA_SECRET + " ~* &* +@all",
                          }));
    EXPECT_EQ(c.call({"CONFIG", "GET", "requirepass"}).raw, bulks({"requirepass", ""}));
    EXPECT_EQ(c.call({"ACL", "SAVE"}).raw, NO_ACLFILE);
    EXPECT_EQ(c.call({"ACL", "LOAD"}).raw, NO_ACLFILE);
}

/* Refused at start-up: users in the config file and an aclfile both, or a
 * bad rule in a user line. */
TEST_P(AclStartup, BadUserConfigurationsExitAtStart) {
    TempDir dir;
    writeFile(dir.file("users.acl"), "user bob on nopass\n");
    const std::vector<std::pair<std::string, std::string>> cases{
        {"user alice on >pw ~k* +get\naclfile " + dir.file("users.acl") + "\n",
         "Configuring Redis with users defined in redis.conf and at the same setting an ACL file path is invalid. "
         "This setup is very likely to lead to configuration errors and security holes, please define either an "
         "ACL file or declare users directly in your redis.conf, but not both."},
        {"user alice on >pw ~k* +nosuch\n",
         "Error loading ACL rule '+nosuch' for the user named 'alice': Unknown command or category name in ACL"},
    };
    for (const auto &[config, message] : cases) {
        TempFile conf(config);
        ProcessResult r = runProcess({binaryOf(GetParam()), conf.path(), "--port", std::to_string(pickFreePort()),
                                      "--bind", "127.0.0.1", "--save", "", "--dir", dir.path()},
                                     {}, Ms{10000});
        EXPECT_EQ(r.exitCode, 1) << config;
        EXPECT_NE((r.out + r.err).find(message), std::string::npos) << config << ":\n" << r.out << r.err;
    }
}

/* ACL SAVE writes every user as ACL LIST shows it; ACL LOAD replaces every
 * user with the file's, disconnecting the clients of the users it replaced,
 * or changes nothing if any line is wrong. */
TEST_P(AclStartup, AclfileSaveAndLoad) {
    TempDir dir;
    const std::string path = dir.file("users.acl");
    writeFile(path, "user alice on >pw ~k* +get\nuser default on nopass ~* &* +@all\n");
    std::unique_ptr<TestServer> srv = startServer(GetParam(), {"--aclfile", path});
    RespConn admin = srv->connect();
    const std::string alice = "user alice on #" + SHA_PW + " ~k* resetchannels -@all +get";
    const std::string defaultUser = "user default on nopass ~* &* +@all";
    EXPECT_EQ(aclList(admin), (std::vector<std::string>{alice, defaultUser}));
    EXPECT_EQ(admin.call({"CONFIG", "GET", "aclfile"}).raw, bulks({"aclfile", path}));

    ASSERT_EQ(admin.call({"ACL", "SETUSER", "bob", "on", ">p1", "+@all", "-@dangerous", "~*", "&*"}).raw, OK);
    EXPECT_EQ(admin.call({"ACL", "SAVE"}).raw, OK);
    std::vector<std::string> saved;
    std::istringstream lines(readFile(path));
    for (std::string line; std::getline(lines, line);) saved.push_back(normalizeRules(line));
    EXPECT_EQ(saved, (std::vector<std::string>{alice, "user bob on #" + SHA_P1 + " ~* &* +@all -@dangerous",
                                               defaultUser}));
    EXPECT_TRUE(readFile(path).ends_with("\n"));

    RespConn a = srv->connect();
    ASSERT_EQ(a.call({"AUTH", "alice", "pw"}).raw, OK);
    writeFile(path, "user alice on >p2 ~k* +get\nuser carol on nopass\n");
    EXPECT_EQ(admin.call({"ACL", "LOAD"}).raw, OK);
    EXPECT_EQ(a.readAllUntilClose(), "") << "alice's client goes though alice is in the new file too";
    EXPECT_EQ(admin.call({"PING"}).raw, "+PONG\r\n") << "the default user's clients stay";
    const std::vector<std::string> loaded{"user alice on #" + SHA_P2 + " ~k* resetchannels -@all +get",
                                          "user carol on nopass resetchannels -@all", defaultUser};
    EXPECT_EQ(aclList(admin), loaded) << "a file without a default user gets Redis's default one";

    const std::string unchanged = " WARNING: ACL errors detected, no change to the previously active ACL rules "
                                  "was performed";
    const std::vector<std::pair<std::string, std::string>> bad{
        {"user alice on >p2\nuser carol bogus\n", "ERR " + path + ":2: Syntax error." + unchanged},
        {"user carol on\nuser carol off\n", "ERR WARNING: Duplicate user 'carol' found on line 2." + unchanged},
        {"foo bar\n", "ERR " + path + ":1 should start with user keyword followed by the username." + unchanged},
    };
    for (const auto &[contents, error] : bad) {
        writeFile(path, contents);
        EXPECT_EQ(admin.call({"ACL", "LOAD"}).raw, err(error)) << contents;
        EXPECT_EQ(aclList(admin), loaded);
    }
    std::filesystem::remove(path);
    EXPECT_EQ(admin.call({"ACL", "LOAD"}).raw,
              err("ERR Error loading ACLs, opening file '" + path + "': No such file or directory"));
    EXPECT_EQ(aclList(admin), loaded);
}
