/* scripting_test.cpp — integration tests of Lua scripting: EVAL, EVALSHA,
 * EVAL_RO, EVALSHA_RO and SCRIPT LOAD|EXISTS|FLUSH|KILL.
 *
 *  - ScriptingDiff (one cppredis and one Redis 7.0.15 for the suite): the
 *    conversions between replies and Lua values both ways, the arguments
 *    redis.call() sends, every error text (compiling, running, redis.call's
 *    refusals, numkeys, NOSCRIPT, read-only scripts, shebangs), the script
 *    cache, the sandbox (protected globals, read-only tables, what is
 *    removed, binary chunks), the redis library and the cjson, bit, struct
 *    and cmsgpack libraries. Each command's reply must be byte-identical on
 *    both servers; the central ones are also spelled out here.
 *  - ScriptingLive (each test on a fresh cppredis, then a fresh Redis): what
 *    needs several connections — atomicity under concurrent clients, busy
 *    scripts (-BUSY, SCRIPT KILL, UNKILLABLE, SHUTDOWN NOSAVE), the caller
 *    not being read while its script runs, blocked clients woken once the
 *    script that pushed has ended (and not while it keeps the server busy),
 *    blocking commands inside scripts, and the delayed queue (docs chapter 5) run
 *    by racing consumers as one EVAL.
 *  - Where cppredis differs on purpose: SCRIPT HELP (no SCRIPT DEBUG here)
 *    (redis.setresp(3) is in resp3_test.cpp); and cppredis alone: the script
 *    client staying out of CLIENT LIST, and the AOF getting a script's
 *    effects (not EVAL) as one MULTI/EXEC, only those redis.set_repl()
 *    lets through (the file then compared with Redis's).
 * Nothing sleeps to let something happen: tests wait for replies, for
 * INFO's blocked_clients, or for -BUSY.
 */
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "integration/blocking_harness.h"
#include "integration/harness.h"
#include "integration/replies.h"
#include "sha1.h"

using namespace itest;

namespace {

/* EVAL script numkeys key... arg... */
Args eval(const std::string &script, const std::vector<std::string> &keys = {},
          const std::vector<std::string> &args = {}, const std::string &command = "EVAL") {
    Args a{command, script, std::to_string(keys.size())};
    a.insert(a.end(), keys.begin(), keys.end());
    a.insert(a.end(), args.begin(), args.end());
    return a;
}

/* Redis's reply for `script` failing with `msg` at `line` (the script is
 * named by its SHA1). */
std::string scriptErr(const std::string &msg, const std::string &script, int line = 1) {
    return err(msg + " script: " + sha1hex(script) + ", on @user_script:" + std::to_string(line) + ".");
}

/* EVAL (or `command`) of `script`, and that failure. */
std::pair<Args, std::string> fails(const std::string &script, const std::string &msg, int line = 1,
                                   const std::string &command = "EVAL") {
    return {eval(script, {}, {}, command), scriptErr(msg, script, line)};
}

const std::string BUSY = err("BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.");
const std::string NOSCRIPT = err("NOSCRIPT No matching script. Please use EVAL.");

long long nowMs() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

/* ========================================================================
 * ScriptingDiff: one server pair for the suite
 * ====================================================================== */

class ScriptingDiff : public SharedServerTest {
protected:
    static void SetUpTestSuite() { startSharedServer({.withReference = true}); }

    void SetUp() override {
        SharedServerTest::SetUp();
        if (HasFatalFailure()) return;
        if (haveRef()) {
            RespConn ref = refConn();
            ASSERT_EQ(ref.call({"FLUSHALL"}).raw, OK);
            ASSERT_EQ(ref.call({"SCRIPT", "FLUSH"}).raw, OK);
        }
        RespConn c = conn();
        ASSERT_EQ(c.call({"SCRIPT", "FLUSH"}).raw, OK);
    }

    /* Each command's reply is `expected`, on cppredis, then on Redis. */
    static void expectReplies(const std::vector<std::pair<Args, std::string>> &script) {
        auto check = [&](RespConn c, const char *server) {
            for (const auto &[cmd, expected] : script)
                EXPECT_EQ(c.call(cmd).raw, expected) << server << ": " << describe(cmd);
        };
        check(conn(), "cppredis");
        SKIP_UNLESS_PACKAGE("redis-server", haveRef());
        check(refConn(), "Redis 7.0");
    }

    /* Each command's reply is the same on both servers (skipped without Redis). */
    static void expectSame(const std::vector<Args> &commands) {
        SKIP_UNLESS_PACKAGE("redis-server", haveRef());
        expectSameAsRedis(commands);
    }
};

/* ------------------------------------------------------------------------
 * Lua values -> replies
 * ---------------------------------------------------------------------- */

TEST_F(ScriptingDiff, LuaValuesBecomeReplies) {
    expectReplies({
        {eval("return 1"), integer(1)},
        {eval("return 'str'"), bulk("str")},
        {eval("return 3.99"), integer(3)},
        {eval("return -3.99"), integer(-3)},
        {eval("return 1e100"), integer(LLONG_MIN)},
        {eval("return 0/0"), integer(LLONG_MIN)},
        {eval("return true"), integer(1)},
        {eval("return false"), NIL},
        {eval("return nil"), NIL},
        {eval("return function() end"), NIL},
        {eval("return {1, 2, 3, nil, 4}"), array({integer(1), integer(2), integer(3)})},
        {eval("return {1, {2, 'x', {ok='ok'}}, false}"),
         array({integer(1), array({integer(2), bulk("x"), "+ok\r\n"}), NIL})},
        {eval("return {}"), EMPTY_ARRAY},
        {eval("return {a=1}"), EMPTY_ARRAY},
    });
}

TEST_F(ScriptingDiff, TablesWithFieldsBecomeStatusErrorAndResp3Replies) {
    expectReplies({
        {eval("return {ok='fine'}"), "+fine\r\n"},
        {eval("return {ok='a\\r\\nb'}"), "+a  b\r\n"},
        {eval("return {ok=1}"), EMPTY_ARRAY},
        {eval("return {1, ok='x'}"), "+x\r\n"},
        {eval("return {err='bad thing'}"), err("bad thing")},
        {eval("return {err='ERR x\\ny'}"), err("ERR x y")},
        {eval("return {err=''}"), "-\r\n"},
        {eval("return {err='x', ok='y', 1}"), err("x")},
        {eval("return redis.error_reply('My err')"), err("My err")},
        {eval("return redis.error_reply('x')"), err("ERR x")},
        {eval("return redis.error_reply('-FOO bar')"), err("FOO bar")},
        {eval("return redis.status_reply('STAT')"), "+STAT\r\n"},
        {eval("return redis.error_reply(1)"), err("ERR wrong number or type of arguments")},
        {eval("return redis.status_reply()"), err("ERR wrong number or type of arguments")},
        {eval("return {double=3.14}"), bulk("3.1400000000000001")},
        {eval("return {double='abc'}"), EMPTY_ARRAY},
        {eval("return {map={a=1}}"), array({bulk("a"), integer(1)})},
        {eval("return {set={a=true}}"), array({bulk("a")})},
        {eval("return {big_number='123'}"), bulk("123")},
        {eval("return {verbatim_string={format='txt', string='hi'}}"), bulk("hi")},
    });
}

/* ------------------------------------------------------------------------
 * Replies -> Lua values, and the arguments of redis.call
 * ---------------------------------------------------------------------- */

TEST_F(ScriptingDiff, RepliesBecomeLuaValues) {
    expectReplies({
        {{"RPUSH", "l", "a", "b"}, integer(2)},
        {{"HSET", "h", "f", "v"}, integer(1)},
        {{"ZADD", "z", "1.5", "m"}, integer(1)},
        {eval("return type(redis.call('get', 'nokey'))"), bulk("boolean")},
        {eval("return redis.call('get', 'nokey') == false"), integer(1)},
        {eval("return type(redis.call('llen', 'l'))"), bulk("number")},
        {eval("return redis.call('llen', 'l') + 0.5"), integer(2)},
        {eval("return redis.call('set', 'k', 'v')"), OK},
        {eval("return redis.call('set', 'k', 'v').ok"), bulk("OK")},
        {eval("return redis.call('lrange', 'l', 0, -1)"), bulks({"a", "b"})},
        {eval("return #redis.call('lrange', 'l', 0, -1)"), integer(2)},
        {eval("return redis.call('hgetall', 'h')"), bulks({"f", "v"})},
        {eval("return redis.call('zrange', 'z', 0, -1, 'withscores')"), bulks({"m", "1.5"})},
        {eval("return redis.pcall('lpush', 'k', 'x')"), WRONGTYPE},
        {eval("return redis.pcall('lpush', 'k', 'x').err"), bulk("WRONGTYPE Operation against a key holding the wrong kind of value")},
        fails("return redis.call('lpush', 'k', 'x')", "WRONGTYPE Operation against a key holding the wrong kind of value"),
        {eval("return type(redis.call('blmpop', 0, 1, 'nolist', 'left'))"), bulk("boolean")},
        {eval("return redis.call('ping')"), "+PONG\r\n"},
    });
}

TEST_F(ScriptingDiff, KeysArgvAndArgumentsOfRedisCall) {
    expectReplies({
        {eval("return {KEYS[1], KEYS[2], ARGV[1], ARGV[2], #KEYS, #ARGV}", {"k1", "k2"}, {"a1", "a2"}),
         array({bulk("k1"), bulk("k2"), bulk("a1"), bulk("a2"), integer(2), integer(2)})},
        {eval("return {#KEYS, #ARGV}", {}, {"only", "args"}), array({integer(0), integer(2)})},
        {eval("return ARGV[1]", {}, {std::string("a\0\r\nb", 5)}), bulk(std::string("a\0\r\nb", 5))},
        /* Numbers are sent with 17 significant digits. */
        {eval("redis.call('set', 'n', 0.1) return redis.call('get', 'n')"), bulk("0.10000000000000001")},
        {eval("redis.call('set', 'n', 3) return redis.call('get', 'n')"), bulk("3")},
        {eval("redis.call('set', 'n', 1e20) return redis.call('get', 'n')"), bulk("1e+20")},
        {eval("redis.call('set', 'n', -0.0) return redis.call('get', 'n')"), bulk("-0")},
        {eval("redis.call('set', 'n', 1/0) return redis.call('get', 'n')"), bulk("inf")},
        fails("return redis.call('set', 'n', {})", "ERR Lua redis lib command arguments must be strings or integers"),
        {eval("return redis.pcall('set', 'n', true)"), err("ERR Lua redis lib command arguments must be strings or integers")},
        fails("return redis.call()", "ERR Please specify at least one argument for this redis lib call"),
    });
}

TEST_F(ScriptingDiff, NumkeysErrors) {
    expectReplies({
        {{"EVAL", "return 1"}, arityErr("eval")},
        {{"EVAL", "return 1", "-1"}, err("ERR Number of keys can't be negative")},
        {{"EVAL", "return 1", "2", "a"}, err("ERR Number of keys can't be greater than number of args")},
        {{"EVAL", "return 1", "abc"}, NOT_INT},
        {{"EVALSHA", "0123456789012345678901234567890123456789", "-1"}, err("ERR Number of keys can't be negative")},
        {{"EVALSHA", "abc", "x"}, NOSCRIPT},
        {{"EVAL_RO", "return 1"}, arityErr("eval_ro")},
        {{"EVALSHA_RO", "x"}, arityErr("evalsha_ro")},
    });
}

/* ------------------------------------------------------------------------
 * Errors
 * ---------------------------------------------------------------------- */

TEST_F(ScriptingDiff, CompileAndRuntimeErrors) {
    expectReplies({
        {eval("syntax error here"),
         err("ERR Error compiling script (new function): user_script:1: '=' expected near 'error'")},
        fails("error('boom')", "ERR user_script:1: boom"),
        fails("local a = 1\nerror('a\\nb')", "ERR user_script:2: a b", 2),
        fails("error({err='tbl'})", "tbl"),
        fails("error()", "ERR nil"),
        fails("error(12)", "ERR user_script:1: 12"),
        fails("local a = 1\nreturn redis.call('nosuch')", "ERR Unknown Redis command called from script", 2),
    });
    expectSame({
        eval("local t = nil\nreturn t.x"),
        eval("return 1 + {}"),
        eval("local function f()\n  error('deep')\nend\nf()"),
        eval("return ('x'):bad()"),
    });
}

TEST_F(ScriptingDiff, RedisCallRefusals) {
    expectReplies({
        fails("return redis.call('nosuch')", "ERR Unknown Redis command called from script"),
        {eval("return redis.pcall('nosuch')"), err("ERR Unknown Redis command called from script")},
        fails("return redis.call('get')", "ERR Wrong number of args calling Redis command from script"),
        {eval("return redis.pcall('get')"), err("ERR Wrong number of args calling Redis command from script")},
        fails("return redis.call('eval', 'return 1', 0)", "ERR This Redis command is not allowed from script"),
        fails("return redis.call('blpop', 'nolist', 0)", "ERR This Redis command is not allowed from script"),
        fails("return redis.call('subscribe', 'x')", "ERR This Redis command is not allowed from script"),
        fails("return redis.call('multi')", "ERR This Redis command is not allowed from script"),
    });
    expectSame({
        eval("return redis.call('script', 'flush')"),
        eval("return redis.call('config', 'nosuch')"),
        eval("return redis.call('watch', 'x')"),
        eval("return redis.call('brpoplpush', 'a', 'b', 0)"),
        eval("return redis.call('bzpopmin', 'a', 0)"),
        eval("return redis.call('blmove', 'a', 'b', 'left', 'left', 0)"),
    });
}

TEST_F(ScriptingDiff, PcallCatchesErrorsAsStrings) {
    expectReplies({
        {eval("return pcall(function() redis.call('nosuch') end)"), NIL},
        {eval("local ok, e = pcall(function() redis.call('nosuch') end) return e"),
         bulk("ERR Unknown Redis command called from script")},
        {eval("local ok, e = pcall(error, {err='x'}) return type(e)"), bulk("string")},
        {eval("local ok, e = pcall(function() x.y = 1 end) return e"),
         bulk("user_script:1: Script attempted to access nonexistent global variable 'x'")},
        {eval("return {pcall(redis.call, 'nosuch')}"), array({NIL, bulk("ERR Unknown Redis command called from script")})},
        {eval("return type(redis.pcall('nosuch'))"), bulk("table")},
        {eval("local ok, e = xpcall(function() redis.call('nosuch') end, function(e) return type(e) end) return e"),
         bulk("table")},
        {eval("return {pcall()}"), array({NIL, bulk("attempt to call a boolean value")})},
        {eval("return {pcall(function(a, b) return a + b end, 1, 2)}"), array({integer(1), integer(3)})},
        fails("local ok, e = pcall(redis.call, 'nosuch') error(e)", "ERR user_script:1: ERR Unknown Redis command called from script"),
    });
}

TEST_F(ScriptingDiff, ReadOnlyScriptsAndShebangs) {
    const std::string incr = "return redis.call('incr', 'a')";
    expectReplies({
        {{"SET", "a", "1"}, OK},
        {eval("return redis.call('get', 'a')", {}, {}, "EVAL_RO"), bulk("1")},
        fails("return redis.call('set', 'a', 'b')", "ERR Write commands are not allowed from read-only scripts.", 1, "EVAL_RO"),
        {eval("return redis.pcall('set', 'a', 'b')", {}, {}, "EVAL_RO"),
         err("ERR Write commands are not allowed from read-only scripts.")},
        /* PUBLISH writes nothing but is propagated (CMD_MAY_REPLICATE). */
        {eval("return redis.pcall('publish', 'ch', 'x')", {}, {}, "EVAL_RO"),
         err("ERR Write commands are not allowed from read-only scripts.")},
        {{"SCRIPT", "LOAD", incr}, bulk(sha1hex(incr))},
        {{"EVALSHA_RO", sha1hex(incr), "0"}, scriptErr("ERR Write commands are not allowed from read-only scripts.", incr)},
        {{"EVALSHA", sha1hex(incr), "0"}, integer(2)},
        {{"GET", "a"}, bulk("2")},
        /* A shebang: no-writes refuses writes; without it, *_RO refuses the script. */
        {eval("#!lua flags=no-writes\nreturn redis.call('get', 'a')"), bulk("2")},
        {eval("#!lua flags=no-writes\nreturn redis.pcall('set', 'a', 'b')"),
         err("ERR Write commands are not allowed from read-only scripts.")},
        {eval("#!lua\nreturn redis.call('get', 'a')", {}, {}, "EVAL_RO"),
         err("ERR Can not execute a script with write flag using *_ro command.")},
        {eval("#!lua\nreturn 1"), integer(1)},
        fails("#!lua\nerror('line')", "ERR user_script:2: line", 2),
        {eval("#!lua"), err("ERR Invalid script shebang")},
        {eval("#!python\nreturn 1"), err("ERR Unexpected engine in script shebang: #!python")},
        {eval("#!lua name=x\nreturn 1"), err("ERR Unknown lua shebang option: name=x")},
        {eval("#!lua flags=no-writes,bad\nreturn 1"), err("ERR Unexpected flag in script shebang: bad")},
        {eval("#!lua flags=no-writes,\nreturn 1"), err("ERR Unexpected flag in script shebang: ")},
        {eval("#!lua flags=allow-oom,allow-stale,no-cluster,allow-cross-slot-keys\nreturn 1"), integer(1)},
    });
}

TEST_F(ScriptingDiff, ErrorsAreCountedOnce) {
    SKIP_UNLESS_PACKAGE("redis-server", haveRef());
    auto delta = [](RespConn &c, const std::vector<Args> &commands) {
        long long before = infoNumber(c, "stats", "total_error_replies");
        for (const Args &cmd : commands) c.call(cmd);
        return infoNumber(c, "stats", "total_error_replies") - before;
    };
    const std::vector<Args> commands = {
        eval("return redis.call('nosuch')"), eval("return redis.pcall('nosuch')"),
        eval("redis.pcall('nosuch') return 1"), eval("error('x')"),
        eval("return redis.call('incrby', 'n', 'x')"), eval("return redis.pcall('incrby', 'n', 'x')"),
        eval("return {err='x'}"), eval("syntax error"),
    };
    RespConn ours = conn(), ref = refConn();
    long long ourDelta = delta(ours, commands);
    EXPECT_EQ(ourDelta, delta(ref, commands));
    EXPECT_EQ(ourDelta, 8);
}

/* ------------------------------------------------------------------------
 * The script cache
 * ---------------------------------------------------------------------- */

TEST_F(ScriptingDiff, ScriptCache) {
    const std::string sha = "e0e1f9fabfc9d4800c877a703b823ac0578ff8db"; /* "return 1" */
    const std::string upper = "E0E1F9FABFC9D4800C877A703B823AC0578FF8DB";
    const std::string evaled = sha1hex("return 'cached'");
    expectReplies({
        {{"EVALSHA", sha, "0"}, NOSCRIPT},
        {{"SCRIPT", "EXISTS", sha, "abc"}, array({integer(0), integer(0)})},
        {{"SCRIPT", "LOAD", "return 1"}, bulk(sha)},
        {{"SCRIPT", "LOAD", "return 1"}, bulk(sha)},
        {{"EVALSHA", sha, "0"}, integer(1)},
        {{"EVALSHA", upper, "0"}, integer(1)},
        {{"EVALSHA_RO", upper, "0"}, integer(1)},
        {{"SCRIPT", "EXISTS", sha, "abc", upper}, array({integer(1), integer(0), integer(1)})},
        /* EVAL caches what it compiles. */
        {{"EVAL", "return 'cached'", "0"}, bulk("cached")},
        {{"EVALSHA", evaled, "0"}, bulk("cached")},
        /* What does not compile is not cached. */
        {{"SCRIPT", "LOAD", "x x"}, err("ERR Error compiling script (new function): user_script:1: '=' expected near 'x'")},
        {{"SCRIPT", "EXISTS", sha1hex("x x")}, array({integer(0)})},
        {{"SCRIPT", "FLUSH"}, OK},
        {{"EVALSHA", sha, "0"}, NOSCRIPT},
        {{"SCRIPT", "EXISTS", sha, evaled}, array({integer(0), integer(0)})},
        {{"SCRIPT", "LOAD", "return 1"}, bulk(sha)},
        {{"SCRIPT", "FLUSH", "ASYNC"}, OK},
        {{"SCRIPT", "EXISTS", sha}, array({integer(0)})},
        {{"SCRIPT", "FLUSH", "sync"}, OK},
        {{"SCRIPT", "FLUSH", "foo"}, err("ERR SCRIPT FLUSH only support SYNC|ASYNC option")},
        {{"SCRIPT", "FLUSH", "sync", "extra"}, err("ERR SCRIPT FLUSH only support SYNC|ASYNC option")},
        {{"SCRIPT", "EXISTS"}, arityErr("script|exists")},
        {{"SCRIPT", "LOAD"}, arityErr("script|load")},
        {{"SCRIPT", "KILL"}, err("NOTBUSY No scripts in execution right now.")},
        {{"SCRIPT", "foo"}, err("ERR unknown subcommand 'foo'. Try SCRIPT HELP.")},
        {{"SCRIPT"}, arityErr("script")},
    });
}

/* ------------------------------------------------------------------------
 * The sandbox
 * ---------------------------------------------------------------------- */

TEST_F(ScriptingDiff, GlobalsAreProtected) {
    expectReplies({
        fails("return x", "ERR user_script:1: Script attempted to access nonexistent global variable 'x'"),
        fails("x = 5", "ERR user_script:1: Attempt to modify a readonly table"),
        fails("redis.call = nil", "ERR user_script:1: Attempt to modify a readonly table"),
        fails("string.foo = 1", "ERR user_script:1: Attempt to modify a readonly table"),
        fails("rawset(_G, 'x', 1)", "ERR Attempt to modify a readonly table"),
        fails("setmetatable(_G, nil)", "ERR Attempt to modify a readonly table"),
        fails("return os", "ERR user_script:1: Script attempted to access nonexistent global variable 'os'"),
        {eval("KEYS[1] = 'z'; return KEYS[1]"), bulk("z")},
        {eval("local t = {} t.x = 1 setmetatable(t, {}) rawset(t, 'y', 2) return t.x + t.y"), integer(3)},
    });
    expectSame({
        eval("local t = {} for k, v in pairs(_G) do t[#t + 1] = k end table.sort(t) return t"),
        eval("local n = 0 for k, v in pairs(string) do n = n + 1 end return n"),
        eval("return getmetatable(_G) == nil"),
        eval("local t = getmetatable(_G) t.__index = nil"),
        eval("getmetatable('').__index.upper = nil"),
        eval("return type(getmetatable(''))"),
        eval("return ('abc'):upper()"),
        eval("return rawget(_G, 'x')"),
        eval("return _G.x"),
        eval("return {next(_G, nil) ~= nil}"),
        eval("table.insert(_G, 1)"),
        eval("table.insert(string, 'x')"),
        eval("return cjson.encode({pcall(table.sort, math)})"),
        eval("return cjson.encode({pcall(table.remove, math)})"),
        eval("_G._G.x = 1"),
        eval("coroutine.wrap(function() y = 1 end)()"),
        eval("return loadstring('z = 1')()"),
        eval("local f = loadstring('return 1 + 1') return f()"),
    });
}

TEST_F(ScriptingDiff, RemovedFunctionsAndBinaryChunks) {
    expectSame({
        eval("return type(debug)"), eval("return type(print)"), eval("return type(setfenv)"),
        eval("return type(getfenv)"), eval("return type(newproxy)"), eval("return type(module)"),
        eval("return type(require)"), eval("return type(dofile)"), eval("return type(loadfile)"),
        eval("return type(io)"), eval("return type(package)"), eval("return type(gcinfo)"),
        eval("return type(coroutine)"), eval("return _VERSION"),
        eval("return {loadstring(string.dump(function() return 1 end))}"),
        eval("return select(2, loadstring(string.dump(function() end)))"),
        eval("return {pcall(load, function() return nil end)}"),
        eval("local s = string.dump(function() return 1 end) local done = false "
             "return select(2, load(function() if done then return nil end done = true return s end))"),
        eval("\x1bLuaQ"),
    });
}

/* ------------------------------------------------------------------------
 * The redis library
 * ---------------------------------------------------------------------- */

TEST_F(ScriptingDiff, RedisLibrary) {
    expectReplies({
        {eval("return redis.sha1hex('')"), bulk("da39a3ee5e6b4b0d3255bfef95601890afd80709")},
        {eval("return redis.sha1hex(12)"), bulk("7b52009b64fd0a2a49e6d8a939753077792b0554")},
        fails("return redis.sha1hex()", "ERR wrong number of arguments"),
        {eval("return redis.REDIS_VERSION"), bulk("7.0.15")},
        {eval("return {redis.REDIS_VERSION_NUM, redis.LOG_DEBUG, redis.LOG_VERBOSE, redis.LOG_NOTICE, redis.LOG_WARNING}"),
         array({integer(0x0007000f), integer(0), integer(1), integer(2), integer(3)})},
        {eval("return {redis.REPL_NONE, redis.REPL_AOF, redis.REPL_SLAVE, redis.REPL_REPLICA, redis.REPL_ALL}"),
         array({integer(0), integer(1), integer(2), integer(2), integer(3)})},
        {eval("return redis.replicate_commands()"), integer(1)},
        {eval("return redis.breakpoint()"), NIL},
        {eval("return redis.debug('x')"), NIL},
        {eval("return redis.setresp(2)"), NIL},
        {eval("return redis.acl_check_cmd('get', 'x')"), integer(1)},
        {eval("return redis.log(redis.LOG_DEBUG, 'not shown')"), NIL},
    });
    expectSame({
        eval("return redis.log()"), eval("return redis.log('x', 'y')"), eval("return redis.log(9, 'y')"),
        eval("return redis.setresp()"), eval("return redis.setresp(4)"), eval("return redis.set_repl()"),
        eval("return redis.set_repl(9)"), eval("return redis.set_repl(redis.REPL_ALL)"),
        eval("return redis.acl_check_cmd('nosuch')"), eval("return redis.acl_check_cmd()"),
        eval("return redis.acl_check_cmd({})"),
        eval("local t = {} for k in pairs(redis) do t[#t + 1] = k end table.sort(t) return t"),
    });
}

/* redis.set_repl()'s checks, in Redis's order and words: the number is
 * truncated (a string that is not one reads as 0, REPL_NONE), and
 * anything out of int range is invalid. */
TEST_F(ScriptingDiff, SetReplRefusesBadFlags) {
    const std::string invalid = "ERR Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.";
    expectReplies({
        fails("redis.set_repl()", "ERR redis.set_repl() requires two arguments."),
        fails("redis.set_repl(1, 2)", "ERR redis.set_repl() requires two arguments."),
        fails("redis.set_repl(4)", invalid),
        fails("redis.set_repl(-1)", invalid),
        fails("redis.set_repl(1e20)", invalid),
        fails("redis.set_repl(4294967297)", invalid),
        fails("redis.set_repl(0/0)", invalid),
        {eval("return redis.set_repl(3.9)"), NIL},
        {eval("return redis.set_repl('x')"), NIL},
    });
    expectSame({eval("return {pcall(redis.set_repl, 8)}")});
}

TEST_F(ScriptingDiff, RedisLogWritesTheServerLog) {
    RespConn c = conn();
    EXPECT_EQ(c.call(eval("redis.log(redis.LOG_WARNING, 'scripted', 42, nil, 'line')")).raw, NIL);
    EXPECT_TRUE(srv().waitForLog("scripted 42 line"));
}

TEST_F(ScriptingDiff, SelectInsideAScriptDoesNotChangeTheCallersDatabase) {
    expectReplies({
        {eval("redis.call('select', 1) redis.call('set', 'a', 'db1') return redis.call('get', 'a')"), bulk("db1")},
        {{"GET", "a"}, NIL},
        {eval("return redis.call('get', 'a')"), NIL},
        {{"SELECT", "1"}, OK},
        {{"GET", "a"}, bulk("db1")},
        {eval("return redis.call('get', 'a')"), bulk("db1")},
        {{"SELECT", "0"}, OK},
    });
}

/* ------------------------------------------------------------------------
 * The libraries Redis loads
 * ---------------------------------------------------------------------- */

TEST_F(ScriptingDiff, CjsonAndBit) {
    expectReplies({
        {eval("return cjson.encode({1, 2, {a=1}})"), bulk("[1,2,{\"a\":1}]")},
        {eval("local t = cjson.decode('[1,\"x\",{\"a\":[true]}]') return {t[1], t[2], tostring(t[3].a[1])}"),
         array({integer(1), bulk("x"), bulk("true")})},
        {eval("return bit.band(0xff, 0x0f)"), integer(15)},
        {eval("return bit.tohex(65535)"), bulk("0000ffff")},
    });
    expectSame({
        eval("return cjson.encode({a={b={c={1,2,3}}}, x=1.5, y='str\\n', z=true})"),
        eval("local t = cjson.decode('[1,2,{\"a\":null}]') return {t[1], t[2], type(t[3].a)}"),
        eval("return cjson.decode('{bad')"), eval("return cjson.encode(0.1)"),
        eval("return cjson.encode({[1]=1, [3]=3})"), eval("return cjson.encode({[1]=1, [30]=3})"),
        eval("return cjson.encode(function() end)"), eval("return cjson.decode('1234567890123456789')"),
        eval("return cjson.encode({1/0})"),
        eval("return {bit.lshift(1, 40), bit.bnot(0), bit.bxor(5, 3), bit.arshift(-256, 4), bit.bor(1, 2, 4)}"),
        eval("return {bit.tobit(2^32 + 5), bit.rol(1, 33), bit.bswap(0x01020304)}"),
    });
}

TEST_F(ScriptingDiff, Struct) {
    expectReplies({
        {eval("return struct.pack('>i3', 1)"), bulk(std::string("\0\0\1", 3))},
        {eval("return {struct.unpack('bxh!2h', struct.pack('bxh!2h', 1, 2, 3))}"),
         array({integer(1), integer(2), integer(3), integer(7)})},
        {eval("return struct.size('!4bi')"), integer(8)},
        fails("return struct.pack('>i33', 1)", "ERR user_script:1: integral size 33 is larger than limit of 32"),
    });
    expectSame({
        eval("return struct.pack('=i', 1)"), eval("return struct.pack('z')"), eval("return struct.pack('!3i', 1)"),
        eval("return {struct.unpack('>i2', '\\0')}"), eval("return {struct.unpack('c0', 'abc')}"),
        eval("return {struct.unpack('s', 'abc')}"), eval("return struct.size('s')"), eval("return struct.size('c0')"),
        eval("return struct.size('z')"), eval("return {struct.unpack('b', 'a', 0)}"),
        eval("return {struct.unpack('b', 'a', -1)}"), eval("return struct.pack('c2', 'a')"),
        eval("return struct.pack('i')"), eval("return struct.pack('i99999999999', 1)"),
        eval("return struct.pack('<i16', -2)"), eval("return {struct.unpack('<i16', struct.pack('<i16', -2))}"),
        eval("return struct.pack('>I', 3000000000)"), eval("return {struct.unpack('>d', struct.pack('>d', 1.5))}"),
        eval("return struct.pack('<fdsc0BHLTIi9', 1.5, -2.25, 'ab', 'xyz', 255, 65535, 7, 8, 9, -10)"),
        eval("return {struct.unpack('<fdsBHLTIi9', struct.pack('<fdsBHLTIi9', 1.5, -2.25, 'ab', 255, 65535, 7, 8, 9, -10))}"),
        eval("return {struct.unpack('Bc0', '\\3abcd')}"), eval("return struct.pack('>h', -1e30)"),
        eval("return struct.pack('>H', 1e30)"), eval("return {struct.unpack('>i9', string.rep('\\255', 9))}"),
        eval("return struct.pack('!8bd', 1, 2)"), eval("return {struct.unpack('!8bd', struct.pack('!8bd', 1, 2))}"),
    });
}

TEST_F(ScriptingDiff, Cmsgpack) {
    expectReplies({
        {eval("return cmsgpack.pack({1, 2, 3})"), bulk("\x93\x01\x02\x03")},
        {eval("return cmsgpack.pack({a=1})"), bulk("\x81\xa1" "a\x01")},
        {eval("return {cmsgpack.unpack(cmsgpack.pack(1, 'a', {1, 2}))}"),
         array({integer(1), bulk("a"), array({integer(1), integer(2)})})},
        fails("return cmsgpack.unpack('\\196')", "ERR user_script:1: Bad data format in input."),
        fails("return cmsgpack.unpack('\\217')", "ERR user_script:1: Missing bytes in input."),
    });
    expectSame({
        eval("return {cmsgpack._NAME, cmsgpack._VERSION, cmsgpack._COPYRIGHT, cmsgpack._DESCRIPTION}"),
        eval("return cmsgpack.pack()"), eval("return {cmsgpack.unpack('\\209\\255\\1')}"),
        eval("return {cmsgpack.unpack_one(cmsgpack.pack(1, 2, 3))}"),
        eval("return {cmsgpack.unpack_one(cmsgpack.pack(1, 2, 3), 2)}"),
        eval("return {cmsgpack.unpack_limit(cmsgpack.pack(1, 2, 3), 2)}"),
        eval("return {cmsgpack.unpack_limit(cmsgpack.pack(1, 2, 3), -1)}"),
        eval("return {cmsgpack.unpack_limit('\\1\\2\\3', 2, 1)}"), eval("return {cmsgpack.unpack_one('ab', 5)}"),
        eval("return cmsgpack.pack({1, 2, nil, 4}, 1.5, 0.1, -1, -33, 300, 70000, 5000000000, -5000000000, true, "
             "false, {a={b={}}})"),
        eval("return {cmsgpack.unpack('')}"), eval("return cmsgpack.unpack(12)"), eval("return cmsgpack.unpack()"),
        eval("local t = {} local c = t for i = 1, 20 do c[1] = {} c = c[1] end return cmsgpack.pack(t)"),
        eval("return cmsgpack.pack(string.rep('x', 40), string.rep('y', 300))"),
        eval("return redis.sha1hex(cmsgpack.pack(string.rep('z', 70000), {string.rep('a', 20)}))"),
        eval("local t = {} for i = 1, 20 do t[i] = i end return cmsgpack.pack(t)"),
        eval("local t = {} for i = 1, 20 do t['k' .. i] = i end return redis.sha1hex(cmsgpack.pack(t))"),
        eval("local t = {} for i = 1, 70000 do t[i] = i end return redis.sha1hex(cmsgpack.pack(t))"),
        eval("local t = cmsgpack.unpack(cmsgpack.pack({a=1, b={1, 2, {c='d'}}})) return {t.a, t.b[3].c}"),
        eval("return {cmsgpack.unpack(cmsgpack.pack(1.5, 0.1, -1e300, 1e300, 2^53, -2^63, 2^64))}"),
        eval("return cmsgpack.pack(2^63, -2^63, 0/0, 1/0, -1/0, -0.0)"),
        eval("return {cmsgpack.unpack('\\207\\255\\255\\255\\255\\255\\255\\255\\255\\211\\255\\255\\255\\255\\255\\255\\255\\255\\202\\63\\192\\0\\0')}"),
        eval("return {cmsgpack.unpack('\\220\\0\\2\\1\\2\\222\\0\\1\\161a\\192')}"),
        eval("return cmsgpack.unpack('\\220\\0\\5\\1')"), eval("return cmsgpack.pack(function() end, nil)"),
    });
}

/* Redis's generator (rand48) with its own state: the same seed gives the
 * same numbers everywhere. */
TEST_F(ScriptingDiff, MathRandomIsDeterministic) {
    expectSame({
        eval("math.randomseed(42) return {math.random(100), math.random(5, 10), tostring(math.random())}"),
        eval("math.randomseed(-7) return {math.random(1000), math.random(1000)}"),
        eval("return {math.random(1000), math.random(1000)}"), /* the state carries over */
        eval("return math.random(0)"), eval("return math.random(1, 2, 3)"), eval("return math.random(5, 1)"),
        eval("return math.randomseed()"),
    });
}

TEST_F(ScriptingDiff, BlockingCommandsDoNotBlockInScripts) {
    expectReplies({
        {eval("return redis.call('blmpop', 0, 1, 'nolist', 'left')"), NIL},
        {eval("return redis.call('bzmpop', 0, 1, 'nozset', 'min')"), NIL},
        {{"RPUSH", "l", "a"}, integer(1)},
        {eval("return redis.call('blmpop', 0, 1, 'l', 'left')"), array({bulk("l"), bulks({"a"})})},
    });
}

/* ========================================================================
 * Intended differences, and cppredis alone
 * ====================================================================== */

/* Redis's lines without SCRIPT DEBUG's two: there is no Lua debugger here. */
TEST_F(ScriptingDiff, ScriptHelpIsRedissWithoutScriptDebug) {
    SKIP_UNLESS_PACKAGE("redis-server", haveRef());
    auto lines = [](RespConn c) {
        std::vector<std::string> out;
        for (const Reply &line : c.call({"SCRIPT", "HELP"}).elements) out.push_back(line.str);
        return out;
    };
    std::vector<std::string> expected = lines(refConn());
    auto debug = std::find(expected.begin(), expected.end(), "DEBUG (YES|SYNC|NO)");
    ASSERT_NE(debug, expected.end());
    expected.erase(debug, debug + 2);
    EXPECT_EQ(lines(conn()), expected);
}

TEST_F(ScriptingDiff, TheScriptClientIsNoConnection) {
    RespConn c = conn();
    EXPECT_EQ(c.call(eval("return redis.call('client', 'id')")).type, Reply::Type::Error);
    EXPECT_EQ(c.call(eval("return redis.call('ping')")).raw, "+PONG\r\n");
    Reply list = c.call({"CLIENT", "LIST"});
    EXPECT_EQ(parseClientList(list.str).size(), 1u) << list.str;
    EXPECT_EQ(infoField(c, "clients", "connected_clients"), "1");
}

/* The AOF gets the script's effects, two or more writes as one MULTI/EXEC,
 * never EVAL; replaying it rebuilds the same dataset (even what came from
 * math.random). */
TEST(ScriptingAof, ScriptEffectsArePropagatedAsOneTransaction) {
    TestServer srv({"--appendonly", "yes", "--enable-debug-command", "yes"});
    RespConn c = srv.connect();
    ASSERT_EQ(c.call(eval("redis.call('set', KEYS[1], math.random()) redis.call('rpush', KEYS[2], 'a', 'b') "
                          "redis.call('incr', KEYS[3]) return 1",
                          {"r", "l", "n"}))
                  .raw,
              integer(1));
    ASSERT_EQ(c.call(eval("return redis.call('get', 'r')", {}, {}, "EVAL_RO")).type, Reply::Type::Bulk);
    std::string digest = c.call({"DEBUG", "DIGEST"}).str;

    std::string dir = c.call({"CONFIG", "GET", "dir"}).elements.at(1).str;
    std::string file = c.call({"CONFIG", "GET", "appendfilename"}).elements.at(1).str;
    std::ifstream in(dir + "/appendonlydir/" + file + ".1.incr.aof", std::ios::binary);
    std::stringstream aof;
    aof << in.rdbuf();
    std::string text = aof.str();
    EXPECT_EQ(text.find("EVAL"), std::string::npos) << escape(text);
    size_t multi = text.find("*1\r\n$5\r\nMULTI\r\n"), exec = text.find("*1\r\n$4\r\nEXEC\r\n");
    ASSERT_NE(multi, std::string::npos) << escape(text);
    ASSERT_NE(exec, std::string::npos) << escape(text);
    for (const char *op : {"$3\r\nset\r\n", "$5\r\nrpush\r\n", "$4\r\nincr\r\n"}) {
        size_t at = text.find(op);
        EXPECT_TRUE(at > multi && at < exec) << op << " outside MULTI/EXEC: " << escape(text);
    }

    EXPECT_EQ(c.call({"DEBUG", "LOADAOF"}).raw, OK);
    EXPECT_EQ(c.call({"DEBUG", "DIGEST"}).str, digest);
    EXPECT_EQ(c.call({"LRANGE", "l", "0", "-1"}).raw, bulks({"a", "b"}));
}

/* redis.set_repl(): a script's commands after it reach the AOF only with
 * REPL_AOF or REPL_ALL (REPL_REPLICA/REPL_SLAVE mean replicas alone, and
 * there are none); each script starts at REPL_ALL, and refused flags leave
 * the previous ones. The file holds the very bytes Redis 7.0.15 appends for
 * these scripts, and a restart from it brings back only what it holds. */
TEST(ScriptingAof, SetReplDecidesWhatReachesTheAof) {
    const std::vector<Args> scripts{
        eval("redis.set_repl(redis.REPL_NONE) redis.call('set', 'a', '1') "
             "redis.set_repl(redis.REPL_ALL) redis.call('set', 'b', '2')"),
        eval("redis.set_repl(redis.REPL_REPLICA) redis.call('set', 'c', '3') "
             "redis.set_repl(redis.REPL_AOF) redis.call('set', 'd', '4') redis.call('incr', 'd')"),
        eval("redis.set_repl(redis.REPL_SLAVE) redis.call('set', 'e', '5')"),
        eval("redis.call('set', 'f', '6')"),
        eval("redis.set_repl(redis.REPL_NONE) pcall(redis.set_repl, 9) redis.call('set', 'g', '7')"),
    };
    const std::string expected = encodeCommand({"SELECT", "0"}) + encodeCommand({"set", "b", "2"}) +
                                 encodeCommand({"MULTI"}) + encodeCommand({"set", "d", "4"}) +
                                 encodeCommand({"incr", "d"}) + encodeCommand({"EXEC"}) +
                                 encodeCommand({"set", "f", "6"});
    TempDir dir;
    const std::vector<std::string> args{"--appendonly", "yes", "--dir", dir.path()};
    {
        TestServer srv(args);
        RespConn c = srv.connect();
        for (const Args &script : scripts) ASSERT_EQ(c.call(script).raw, NIL) << describe(script);
        EXPECT_EQ(escape(readFile(dir.file("appendonlydir/appendonly.aof.1.incr.aof"))), escape(expected));
    }
    TestServer restarted(args);
    RespConn c = restarted.connect();
    EXPECT_EQ(c.call({"MGET", "a", "b", "c", "d", "e", "f", "g"}).raw,
              array({NIL, bulk("2"), NIL, bulk("5"), NIL, bulk("6"), NIL}));

    REQUIRE_REDIS_REFERENCE(); /* after cppredis's checks: they run without Redis too */
    TempDir refdir;
    /* always: Redis writes before it replies. With everysec it may hold its
     * writes for up to 2 s behind a slow fsync (a loaded machine), and the
     * file is read too early. */
    RedisReference ref({"--appendonly", "yes", "--appendfsync", "always", "--dir", refdir.path()});
    RespConn r = ref.connect();
    for (const Args &script : scripts) ASSERT_EQ(r.call(script).raw, NIL) << describe(script);
    EXPECT_EQ(escape(readFile(refdir.file("appendonlydir/appendonly.aof.1.incr.aof"))), escape(expected));
}

/* ========================================================================
 * ScriptingLive: several connections, on cppredis and on Redis
 * ====================================================================== */

class ScriptingLive : public BlockingBase, public ::testing::TestWithParam<ServerImpl> {
protected:
    void SetUp() override {
        if (GetParam() == ServerImpl::Redis) REQUIRE_REDIS_REFERENCE();
        /* A busy script answers others after 20 ms (the default is 5 s). */
        start(GetParam(), {"--busy-reply-threshold", "20"});
    }

    /* Polls with PING on `c` until the server answers -BUSY. */
    static void waitBusy(RespConn &c) {
        std::string last;
        pollUntil([&] { return (last = c.call({"PING"}).raw) == BUSY; });
        ASSERT_EQ(last, BUSY) << "the script never made the server busy";
    }

    static std::string sha1Of(RespConn &c, const std::string &script) {
        return c.call({"SCRIPT", "LOAD", script}).str;
    }
};

/* Runs until the server clock has moved ARGV[1] ms past its start. */
const std::string kSpinFor = R"(
local t = redis.call('time')
local stop = t[1] * 1000000 + t[2] + ARGV[1] * 1000
repeat t = redis.call('time') until t[1] * 1000000 + t[2] >= stop
return 'done')";

TEST_P(ScriptingLive, ScriptsAreAtomicAmongConcurrentClients) {
    /* A read-modify-write that only adds up if nothing runs in between. */
    const std::string incr = "local v = tonumber(redis.call('get', KEYS[1]) or '0') + 1 "
                             "redis.call('set', KEYS[1], v) return v";
    constexpr int kScripters = 4, kIncrers = 2, kEach = 150;
    std::vector<std::vector<long long>> seen(kScripters + kIncrers);
    std::vector<std::thread> threads;
    for (int t = 0; t < kScripters + kIncrers; t++) {
        threads.emplace_back([&, t] {
            RespConn c = connect();
            std::string sha = sha1Of(c, incr);
            for (int i = 0; i < kEach; i++) {
                Reply r = t >= kScripters ? c.call({"INCR", "n"})
                                          : (i % 2 ? c.call({"EVALSHA", sha, "1", "n"}) : c.call(eval(incr, {"n"})));
                seen[t].push_back(r.integer);
            }
        });
    }
    for (std::thread &t : threads) t.join();
    constexpr long long kTotal = (kScripters + kIncrers) * kEach;
    EXPECT_EQ(call({"GET", "n"}), bulk(std::to_string(kTotal)));
    /* Every value 1..total was handed out exactly once. */
    std::set<long long> values;
    for (const auto &v : seen) values.insert(v.begin(), v.end());
    EXPECT_EQ(values.size(), static_cast<size_t>(kTotal));
    EXPECT_EQ(*values.begin(), 1);
    EXPECT_EQ(*values.rbegin(), kTotal);
}

TEST_P(ScriptingLive, BusyScriptAnswersBusyUntilScriptKill) {
    RespConn caller = connect(), other = connect();
    EXPECT_EQ(other.call({"SCRIPT", "KILL"}).raw, err("NOTBUSY No scripts in execution right now."));
    const std::string spin = "local i = 0 while true do i = i + 1 end";
    caller.cmd(eval(spin));
    waitBusy(other);
    EXPECT_EQ(other.call({"GET", "x"}).raw, BUSY);
    EXPECT_EQ(other.call({"EVAL", "return 1", "0"}).raw, BUSY);
    EXPECT_EQ(other.call({"SHUTDOWN"}).raw, BUSY);
    EXPECT_EQ(other.call({"SHUTDOWN", "SAVE"}).raw, BUSY);
    /* What may run beside a busy script does. */
    EXPECT_EQ(other.call({"MULTI"}).raw, OK);
    EXPECT_EQ(other.call({"DISCARD"}).raw, OK);
    EXPECT_EQ(other.call({"SCRIPT", "KILL"}).raw, OK);
    EXPECT_EQ(caller.readReply().raw,
              scriptErr("ERR Script killed by user with SCRIPT KILL...", spin));
    EXPECT_EQ(other.call({"PING"}).raw, "+PONG\r\n");
    EXPECT_EQ(caller.call({"PING"}).raw, "+PONG\r\n");
    EXPECT_EQ(other.call({"SCRIPT", "KILL"}).raw, err("NOTBUSY No scripts in execution right now."));
}

TEST_P(ScriptingLive, KilledScriptCannotCatchTheKill) {
    RespConn caller = connect(), other = connect();
    const std::string spin = "while true do pcall(function() while true do end end) end";
    caller.cmd(eval(spin));
    waitBusy(other);
    EXPECT_EQ(other.call({"SCRIPT", "KILL"}).raw, OK);
    EXPECT_EQ(caller.readReply().raw,
              scriptErr("ERR Script killed by user with SCRIPT KILL...", spin));
}

/* A script that wrote cannot be killed: only SHUTDOWN NOSAVE ends it, and
 * the server with it. */
TEST_P(ScriptingLive, ScriptThatWroteIsUnkillableButShutdownNosaveStopsTheServer) {
    RespConn caller = connect(), other = connect();
    caller.cmd(eval("redis.call('set', KEYS[1], 'x') while true do end", {"k"}));
    waitBusy(other);
    EXPECT_EQ(other.call({"SCRIPT", "KILL"}).raw,
              err("UNKILLABLE Sorry the script already executed write commands against the dataset. You can either "
                  "wait the script termination or kill the server in a hard way using the SHUTDOWN NOSAVE command."));
    EXPECT_EQ(other.call({"SHUTDOWN"}).raw, BUSY);
    other.cmd({"SHUTDOWN", "NOSAVE"});
    other.expectClosed();
    EXPECT_EQ(srv->waitExit(), 0);
}

/* The caller is not read while its script keeps the server busy: what it
 * sends meanwhile runs after the script, in order. */
TEST_P(ScriptingLive, CallerIsNotReadWhileItsScriptRuns) {
    RespConn caller = connect(), other = connect();
    caller.cmd(eval(kSpinFor, {}, {"300"}));
    waitBusy(other);
    caller.cmd({"SET", "after", "1"});
    caller.cmd({"GET", "after"});
    EXPECT_EQ(caller.readReply().raw, bulk("done"));
    EXPECT_EQ(caller.readReply().raw, OK);
    EXPECT_EQ(caller.readReply().raw, bulk("1"));
}

TEST_P(ScriptingLive, PushInAScriptWakesBlockedClientsOnceItEnds) {
    RespConn waiter = connect(), caller = connect();
    block(waiter, {"BLPOP", "q", "0"}, 1);
    /* Not served halfway: the script still sees both elements. */
    EXPECT_EQ(caller.call(eval("redis.call('rpush', KEYS[1], 'a', 'b') return redis.call('llen', KEYS[1])", {"q"})).raw,
              integer(2));
    EXPECT_EQ(waiter.readReply().raw, bulks({"q", "a"}));
    EXPECT_EQ(call({"LRANGE", "q", "0", "-1"}), bulks({"b"}));

    /* A push undone by the same script wakes nobody. */
    block(waiter, {"BLPOP", "q2", "0"}, 1);
    EXPECT_EQ(caller.call(eval("redis.call('rpush', KEYS[1], 'x') redis.call('del', KEYS[1]) return 1", {"q2"})).raw,
              integer(1));
    waitBlocked(1);
    EXPECT_EQ(call({"RPUSH", "q2", "y"}), integer(1));
    EXPECT_EQ(waiter.readReply().raw, bulks({"q2", "y"}));
}

TEST_P(ScriptingLive, BusyScriptServesNoBlockedClientBeforeItEnds) {
    RespConn waiter = connect(), caller = connect(), other = connect();
    block(waiter, {"BLPOP", "q", "0"}, 1);
    caller.cmd(eval("redis.call('rpush', KEYS[1], 'a') " + kSpinFor.substr(0, kSpinFor.rfind("return")) +
                        " return redis.call('llen', KEYS[1])",
                    {"q"}, {"300"}));
    waitBusy(other);
    /* Commands allowed beside the script run meanwhile; the push is not
     * handed to the waiter before the script has ended. */
    EXPECT_EQ(other.call({"MULTI"}).raw, OK);
    EXPECT_EQ(other.call({"DISCARD"}).raw, OK);
    EXPECT_EQ(caller.readReply().raw, integer(1));
    EXPECT_EQ(waiter.readReply().raw, bulks({"q", "a"}));
}

/* After a failed BGSAVE (its directory is gone) writes are refused: a
 * script's first write too, with the same MISCONF. */
TEST_P(ScriptingLive, AScriptsFirstWriteIsRefusedAfterAFailedBgsave) {
    const std::string write = "return redis.call('set', 'x', '1')";
    std::string dir = admin().call({"CONFIG", "GET", "dir"}).elements.at(1).str;
    ASSERT_EQ(call({"CONFIG", "SET", "save", "3600 1"}), OK);
    std::filesystem::remove_all(dir);
    ASSERT_EQ(call({"BGSAVE"}), "+Background saving started\r\n");
    ASSERT_TRUE(pollUntil([&] { return infoField(admin(), "persistence", "rdb_last_bgsave_status") == "err"; }));
    EXPECT_EQ(call(eval(write)),
              scriptErr("MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to "
                        "disk. Commands that may modify the data set are disabled, because this instance is "
                        "configured to report errors during writes if RDB snapshotting fails "
                        "(stop-writes-on-bgsave-error option). Please check the Redis logs for details about the RDB "
                        "error.",
                        write));
    EXPECT_EQ(call(eval("return redis.call('get', 'x')")), NIL);
    ASSERT_EQ(call({"CONFIG", "SET", "save", ""}), OK); /* nothing to save when the server stops */
    EXPECT_EQ(call(eval(write)), OK);
}

/* The delayed queue (docs chapter 5) made atomic: ZRANGEBYSCORE key 0 <now>
 * LIMIT 0 1 and ZREM in one script, run by racing consumers. Every job is
 * taken exactly once, never before it is due, and no consumer ever loses a
 * race (the non-atomic version of zset_blocking_test.cpp can). */
TEST_P(ScriptingLive, DelayedQueueScriptTakesEveryJobOnceAndNeverEarly) {
    const std::string take = R"(
local jobs = redis.call('ZRANGEBYSCORE', KEYS[1], 0, ARGV[1], 'LIMIT', 0, 1)
if #jobs == 0 then return false end
redis.call('ZREM', KEYS[1], jobs[1])
return jobs[1])";
    constexpr int kProducers = 2, kConsumers = 5, kPerProducer = 100, kJobs = kProducers * kPerProducer;
    const long long start = nowMs();
    auto dueOf = [start](int job) { return start + 50 + (job * 7919) % 700; };
    auto jobName = [](int job) { return "job:" + std::to_string(job); };
    const std::string sha = sha1Of(admin(), take);

    std::vector<std::thread> producers;
    for (int p = 0; p < kProducers; p++) {
        producers.emplace_back([&, p] {
            RespConn c = connect();
            for (int j = p; j < kJobs; j += kProducers) c.call({"ZADD", "delayed", std::to_string(dueOf(j)), jobName(j)});
        });
    }
    struct Taken {
        std::string job;
        long long askedAt;
    };
    std::vector<std::vector<Taken>> taken(kConsumers);
    std::atomic<int> takenCount{0};
    const long long giveUpAt = start + 4000;
    std::vector<std::thread> consumers;
    for (int i = 0; i < kConsumers; i++) {
        consumers.emplace_back([&, i] {
            RespConn c = connect();
            while (takenCount < kJobs && nowMs() < giveUpAt) {
                long long now = nowMs();
                Reply r = i % 2 ? c.call({"EVALSHA", sha, "1", "delayed", std::to_string(now)})
                                : c.call(eval(take, {"delayed"}, {std::to_string(now)}));
                if (r.isNil()) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(1)); /* the seed's consumer rests */
                    continue;
                }
                ASSERT_EQ(r.type, Reply::Type::Bulk) << r;
                taken[i].push_back({r.str, now});
                takenCount++;
            }
        });
    }
    for (std::thread &t : producers) t.join();
    for (std::thread &t : consumers) t.join();

    std::map<std::string, int> times;
    for (int i = 0; i < kConsumers; i++) {
        for (const Taken &t : taken[i]) {
            times[t.job]++;
            EXPECT_GE(t.askedAt, dueOf(std::stoi(t.job.substr(4)))) << t.job << " taken before it was due";
        }
    }
    EXPECT_EQ(times.size(), static_cast<size_t>(kJobs));
    for (int j = 0; j < kJobs; j++) EXPECT_EQ(times[jobName(j)], 1) << jobName(j);
    EXPECT_EQ(call({"EXISTS", "delayed"}), integer(0));
}

INSTANTIATE_TEST_SUITE_P(Servers, ScriptingLive, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

}  // namespace
