/* functions_test.cpp — integration tests of Redis 7 functions
 * (functions.cpp, function_lua.cpp): FUNCTION LOAD/LIST/DELETE/FLUSH/DUMP/
 * RESTORE/STATS/KILL/HELP, FCALL and FCALL_RO, the load-time sandbox, the
 * flags (no-writes, allow-oom), a busy function and FUNCTION KILL from a
 * second client, and the libraries' persistence (DEBUG RELOAD, a restart
 * from the RDB and from the AOF, the AOF rewrite).
 *
 * The Functions/ scenarios run against cppredis and against Debian's Redis
 * 7.0.15, so every expected byte is proven against Redis by the same test;
 * a library with several functions is listed in an order Redis leaves to
 * its hash table, so the replies compared byte for byte list libraries of
 * one function. FunctionsDump moves FUNCTION DUMP payloads between a
 * RedisReference and cppredis in both directions. */
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

/* One library, one function that writes (positional form). */
const std::string kSetLib = "#!lua name=setlib\n"
                            "redis.register_function('setit', function(keys, args)\n"
                            "  return redis.call('set', keys[1], args[1])\n"
                            "end)";
/* One library, one read-only function (named-arguments form). */
const std::string kGetLib = "#!lua name=getlib\n"
                            "redis.register_function{function_name='getit', description='reads a key',\n"
                            "  flags={'no-writes', 'allow-stale'},\n"
                            "  callback=function(keys, args) return redis.call('get', keys[1]) end}";
/* Several functions: arguments, errors, globals, writes. */
const std::string kMiscLib = "#!lua name=misc\n"
                             "redis.register_function('echo', function(keys, args) return {keys, args, #keys, #args} end)\n"
                             "redis.register_function('fail', function() return redis.call('nosuch') end)\n"
                             "redis.register_function('globals', function() return KEYS end)\n"
                             "redis.register_function{function_name='ro_writer', flags={'no-writes'},\n"
                             "  callback=function() return redis.call('set', 'x', 1) end}\n"
                             "redis.register_function{function_name='oom_ok', flags={'allow-oom'},\n"
                             "  callback=function() return redis.call('set', 'x', 1) end}";

std::string loadErr(const std::string &msg) { return err("ERR Error registering functions: " + msg); }

/* "ERR <msg> script: <function>, on @user_function:<line>." */
std::string fnErr(const std::string &msg, const std::string &function, int line) {
    return err(msg + " script: " + function + ", on @user_function:" + std::to_string(line) + ".");
}

/* FUNCTION LIST's entry of a one-function library. */
std::string listEntry(const std::string &lib, const std::string &fn, const std::string &desc,
                      const std::vector<std::string> &flags, const std::string *code = nullptr) {
    std::vector<std::string> flag_items;
    for (const std::string &f : flags) flag_items.push_back("+" + f + "\r\n");
    std::vector<std::string> items{bulk("library_name"), bulk(lib), bulk("engine"), bulk("LUA"), bulk("functions"),
                                   array({array({bulk("name"), bulk(fn), bulk("description"),
                                                 desc.empty() ? NIL : bulk(desc), bulk("flags"),
                                                 array(flag_items)})})};
    if (code) {
        items.push_back(bulk("library_code"));
        items.push_back(bulk(*code));
    }
    return array(items);
}

class Functions : public EitherServerTest {};

TEST_P(Functions, LoadAndCall) {
    EXPECT_EQ(call({"FUNCTION", "LOAD", kSetLib}), bulk("setlib"));
    EXPECT_EQ(call({"FUNCTION", "LOAD", kGetLib}), bulk("getlib"));
    EXPECT_EQ(call({"FUNCTION", "LOAD", kMiscLib}), bulk("misc"));
    EXPECT_EQ(call({"FCALL", "setit", "1", "k", "v"}), OK);
    EXPECT_EQ(call({"FCALL", "SETIT", "1", "k", "v2"}), OK); /* function names ignore case */
    EXPECT_EQ(call({"FCALL", "getit", "1", "k"}), bulk("v2"));
    EXPECT_EQ(call({"FCALL_RO", "getit", "1", "k"}), bulk("v2"));
    EXPECT_EQ(call({"FCALL", "echo", "2", "a", "b", "c"}),
              array({bulks({"a", "b"}), bulks({"c"}), integer(2), integer(1)}));
    EXPECT_EQ(call({"FCALL", "echo", "0"}), array({EMPTY_ARRAY, EMPTY_ARRAY, integer(0), integer(0)}));
    EXPECT_EQ(call({"FCALL", "fail", "0"}), fnErr("ERR Unknown Redis command called from script", "fail", 3));
    EXPECT_EQ(call({"FCALL", "globals", "0"}),
              fnErr("ERR user_function:4: Script attempted to access nonexistent global variable 'KEYS'", "globals",
                    4));
    EXPECT_EQ(call({"FCALL", "nosuch", "0"}), err("ERR Function not found"));
    EXPECT_EQ(call({"FCALL", "setit", "x"}), err("ERR Bad number of keys provided"));
    EXPECT_EQ(call({"FCALL", "setit", "2", "k"}), err("ERR Number of keys can't be greater than number of args"));
    EXPECT_EQ(call({"FCALL", "setit", "-1", "k"}), err("ERR Number of keys can't be negative"));
    EXPECT_EQ(call({"FCALL", "setit"}), arityErr("fcall"));
}

TEST_P(Functions, LoadErrors) {
    ASSERT_EQ(call({"FUNCTION", "LOAD", kSetLib}), bulk("setlib"));
    const std::vector<std::pair<std::string, std::string>> cases{
        {kSetLib, err("ERR Library 'setlib' already exists")},
        {"#!lua name=other\nredis.register_function('setit', function() return 1 end)",
         err("ERR Function setit already exists")},
        {"return 1", err("ERR Missing library metadata")},
        {"#!lua name=a b\n", err("ERR Invalid metadata value given: b")},
        {"#!lua name=a name=b\n", err("ERR Invalid metadata value, name argument was given multiple times")},
        {"#!lua\nreturn 1", err("ERR Library name was not given")},
        {"#!lua name=x", err("ERR Invalid library metadata")},
        {"#!lua name=b-c\nreturn 1",
         err("ERR Library names can only contain letters, numbers, or underscores(_) and must be at least one "
             "character long")},
        {"#!lua name=empty\nreturn 1", err("ERR No functions registered")},
        {"#!py name=p\nreturn 1", err("ERR Engine 'py' not found")},
        {"#!lua name=bad\nredis.call('ping')",
         loadErr("ERR user_function:2: Script attempted to access nonexistent global variable 'call'")},
        {"#!lua name=bad\nlocal x = string.len('a')",
         loadErr("ERR user_function:2: Script attempted to access nonexistent global variable 'string'")},
        {"#!lua name=bad\nfoo = 1", loadErr("ERR user_function:2: Attempt to modify a readonly table")},
        {"#!lua name=bad\nredis.register_function('a b', function() end)",
         loadErr("ERR Library names can only contain letters, numbers, or underscores(_) and must be at least one "
                 "character long")},
        {"#!lua name=bad\nredis.register_function{function_name='f', callback=function() end, flags={'bogus'}}",
         loadErr("ERR unknown flag given")},
        {"#!lua name=bad\nredis.register_function{function_name='f'}",
         loadErr("ERR redis.register_function must get a callback argument")},
        {"#!lua name=bad\nredis.register_function{callback=function() end}",
         loadErr("ERR redis.register_function must get a function name argument")},
        {"#!lua name=bad\nredis.register_function('f')",
         loadErr("ERR calling redis.register_function with a single argument is only applicable to Lua table "
                 "(representing named arguments).")},
        {"#!lua name=bad\nredis.register_function('f', 1)",
         loadErr("ERR second argument to redis.register_function must be a function")},
        {"#!lua name=bad\nredis.register_function()",
         loadErr("ERR wrong number of arguments to redis.register_function")},
        {"#!lua name=bad\nredis.register_function{function_name='f', callback=function() end, xx=1}",
         loadErr("ERR unknown argument given to redis.register_function")},
        {"#!lua name=bad\nredis.register_function('f', function() end) redis.register_function('f', function() end)",
         loadErr("ERR Function already exists in the library")},
        {"#!lua name=bad\nsyntax error here", err("ERR Error compiling function: user_function:2: '=' expected near 'error'")},
        {"#!lua name=bad\nwhile true do end", loadErr("ERR FUNCTION LOAD timeout")},
    };
    for (const auto &[code, expected] : cases) EXPECT_EQ(call({"FUNCTION", "LOAD", code}), expected) << code;
    EXPECT_EQ(call({"FUNCTION", "LOAD", "FOO", kSetLib}), err("ERR Unknown option given: FOO"));
    /* A failed REPLACE keeps the old library. */
    EXPECT_EQ(call({"FUNCTION", "LOAD", "REPLACE", "#!lua name=setlib\nreturn 1"}), err("ERR No functions registered"));
    EXPECT_EQ(call({"FCALL", "setit", "1", "k", "v"}), OK);
    EXPECT_EQ(call({"FUNCTION", "LOAD", "REPLACE", kSetLib}), bulk("setlib"));
    /* register_function outside FUNCTION LOAD, and in EVAL's redis. */
    EXPECT_EQ(call({"FUNCTION", "LOAD", "#!lua name=late\nlocal r = redis\n"
                                        "redis.register_function('late', function() return r.register_function('z', "
                                        "function() end) end)"}),
              bulk("late"));
    EXPECT_EQ(call({"FCALL", "late", "0"}),
              fnErr("ERR redis.register_function can only be called on FUNCTION LOAD command", "late", 3));
}

TEST_P(Functions, FlagsAreEnforced) {
    ASSERT_EQ(call({"FUNCTION", "LOAD", kSetLib}), bulk("setlib"));
    ASSERT_EQ(call({"FUNCTION", "LOAD", kMiscLib}), bulk("misc"));
    ASSERT_EQ(call({"FUNCTION", "LOAD", kGetLib}), bulk("getlib"));
    EXPECT_EQ(call({"FCALL_RO", "setit", "1", "k", "v"}),
              err("ERR Can not execute a script with write flag using *_ro command."));
    EXPECT_EQ(call({"FCALL", "ro_writer", "0"}),
              fnErr("ERR Write commands are not allowed from read-only scripts.", "ro_writer", 6));
    /* Over maxmemory: only allow-oom and no-writes functions run. */
    ASSERT_EQ(call({"SET", "filler", std::string(1000, 'x')}), OK);
    ASSERT_EQ(call({"CONFIG", "SET", "maxmemory", "1"}), OK);
    ASSERT_EQ(call({"CONFIG", "SET", "maxmemory-policy", "noeviction"}), OK);
    EXPECT_EQ(call({"FCALL", "setit", "1", "k", "v"}),
              err("OOM command not allowed when used memory > 'maxmemory'."));
    EXPECT_EQ(call({"FCALL", "oom_ok", "0"}), OK);
    EXPECT_EQ(call({"FCALL", "getit", "1", "k"}), NIL);
    ASSERT_EQ(call({"CONFIG", "SET", "maxmemory", "0"}), OK);
    EXPECT_EQ(call({"FCALL", "setit", "1", "k", "v"}), OK);
}

TEST_P(Functions, ListDeleteFlushStats) {
    EXPECT_EQ(call({"FUNCTION", "LIST"}), EMPTY_ARRAY);
    ASSERT_EQ(call({"FUNCTION", "LOAD", kSetLib}), bulk("setlib"));
    ASSERT_EQ(call({"FUNCTION", "LOAD", kGetLib}), bulk("getlib"));
    const std::string set_entry = listEntry("setlib", "setit", "", {});
    const std::string get_entry = listEntry("getlib", "getit", "reads a key", {"no-writes", "allow-stale"});
    EXPECT_EQ(call({"FUNCTION", "LIST", "LIBRARYNAME", "set*"}), array({set_entry}));
    EXPECT_EQ(call({"FUNCTION", "LIST", "libraryname", "getlib", "withcode"}),
              array({listEntry("getlib", "getit", "reads a key", {"no-writes", "allow-stale"}, &kGetLib)}));
    EXPECT_EQ(call({"FUNCTION", "LIST", "LIBRARYNAME", "nomatch"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"FUNCTION", "LIST", "LIBRARYNAME"}), err("ERR library name argument was not given"));
    EXPECT_EQ(call({"FUNCTION", "LIST", "foo"}), err("ERR Unknown argument foo"));
    EXPECT_EQ(call({"FUNCTION", "LIST", "WITHCODE", "WITHCODE"}), err("ERR Unknown argument WITHCODE"));
    Reply all = c->call({"FUNCTION", "LIST"});
    ASSERT_EQ(all.elements.size(), 2u) << all;
    EXPECT_EQ(call({"FUNCTION", "STATS"}),
              array({bulk("running_script"), NIL, bulk("engines"),
                     array({bulk("LUA"), array({bulk("libraries_count"), integer(2), bulk("functions_count"),
                                                integer(2)})})}));

    EXPECT_EQ(call({"FUNCTION", "DELETE", "SETLIB"}), err("ERR Library not found")); /* names keep their case */
    EXPECT_EQ(call({"FUNCTION", "DELETE", "setlib"}), OK);
    EXPECT_EQ(call({"FCALL", "setit", "0"}), err("ERR Function not found"));
    EXPECT_EQ(call({"FUNCTION", "LIST"}), array({get_entry}));
    /* FLUSHALL keeps functions (Redis 7.0). */
    EXPECT_EQ(call({"FLUSHALL"}), OK);
    EXPECT_EQ(call({"FUNCTION", "LIST"}), array({get_entry}));
    EXPECT_EQ(call({"FUNCTION", "FLUSH", "foo"}), err("ERR FUNCTION FLUSH only supports SYNC|ASYNC option"));
    EXPECT_EQ(call({"FUNCTION", "FLUSH", "ASYNC", "x"}),
              err("ERR unknown subcommand or wrong number of arguments for 'FLUSH'. Try FUNCTION HELP."));
    EXPECT_EQ(call({"FUNCTION", "FLUSH", "SYNC"}), OK);
    EXPECT_EQ(call({"FUNCTION", "LIST"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"FUNCTION", "KILL"}), err("NOTBUSY No scripts in execution right now."));
    Reply help = c->call({"FUNCTION", "HELP"});
    ASSERT_GT(help.elements.size(), 2u);
    EXPECT_EQ(help.elements.front().str, "FUNCTION <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
}

TEST_P(Functions, DumpAndRestore) {
    ASSERT_EQ(call({"FUNCTION", "LOAD", kSetLib}), bulk("setlib"));
    std::string payload = c->call({"FUNCTION", "DUMP"}).str;
    std::string listed = call({"FUNCTION", "LIST", "WITHCODE"});
    EXPECT_EQ(call({"FUNCTION", "RESTORE", payload}), err("ERR Library setlib already exists"));
    EXPECT_EQ(call({"FUNCTION", "RESTORE", payload, "REPLACE"}), OK);
    EXPECT_EQ(call({"FUNCTION", "FLUSH"}), OK);
    EXPECT_EQ(call({"FUNCTION", "RESTORE", payload}), OK);
    EXPECT_EQ(call({"FUNCTION", "LIST", "WITHCODE"}), listed);
    EXPECT_EQ(call({"FCALL", "setit", "1", "k", "v"}), OK);
    /* FLUSH replaces everything; a colliding function name refuses APPEND and REPLACE. */
    ASSERT_EQ(call({"FUNCTION", "LOAD", kGetLib}), bulk("getlib"));
    EXPECT_EQ(call({"FUNCTION", "RESTORE", payload, "FLUSH"}), OK);
    EXPECT_EQ(call({"FUNCTION", "LIST", "WITHCODE"}), listed);
    ASSERT_EQ(call({"FUNCTION", "DELETE", "setlib"}), OK);
    ASSERT_EQ(call({"FUNCTION", "LOAD", "#!lua name=other\nredis.register_function('setit', function() end)"}),
              bulk("other"));
    EXPECT_EQ(call({"FUNCTION", "RESTORE", payload, "REPLACE"}), err("ERR Function setit already exists"));
    EXPECT_EQ(call({"FUNCTION", "RESTORE", payload, "BOGUS"}),
              err("ERR Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE."));
    std::string corrupt = payload;
    corrupt[3] ^= 1;
    EXPECT_EQ(call({"FUNCTION", "RESTORE", corrupt}), err("ERR DUMP payload version or checksum are wrong"));
    EXPECT_EQ(call({"FUNCTION", "RESTORE", "short"}), err("ERR DUMP payload version or checksum are wrong"));
    EXPECT_EQ(call({"FUNCTION", "FLUSH"}), OK);
    std::string empty = c->call({"FUNCTION", "DUMP"}).str;
    EXPECT_EQ(empty.size(), 10u);
    EXPECT_EQ(call({"FUNCTION", "RESTORE", empty}), OK);
}

TEST_P(Functions, SurviveDebugReload) {
    ASSERT_EQ(call({"FUNCTION", "LOAD", kSetLib}), bulk("setlib"));
    ASSERT_EQ(call({"FUNCTION", "LOAD", kGetLib}), bulk("getlib"));
    ASSERT_EQ(call({"FCALL", "setit", "1", "k", "v"}), OK);
    std::string listed = call({"FUNCTION", "LIST", "LIBRARYNAME", "setlib", "WITHCODE"});
    EXPECT_EQ(call({"DEBUG", "RELOAD"}), OK);
    EXPECT_EQ(call({"FUNCTION", "LIST", "LIBRARYNAME", "setlib", "WITHCODE"}), listed);
    EXPECT_EQ(call({"FCALL", "getit", "1", "k"}), bulk("v"));
    /* A reload replaces the libraries with the file's. */
    ASSERT_EQ(call({"SAVE"}), OK);
    ASSERT_EQ(call({"FUNCTION", "DELETE", "getlib"}), OK);
    ASSERT_EQ(call({"FUNCTION", "LOAD", "#!lua name=extra\nredis.register_function('extra', function() end)"}),
              bulk("extra"));
    EXPECT_EQ(call({"DEBUG", "RELOAD", "NOSAVE"}), OK);
    EXPECT_EQ(call({"FCALL", "extra", "0"}), err("ERR Function not found"));
    EXPECT_EQ(call({"FCALL", "getit", "1", "k"}), bulk("v"));
}

/* A busy function: -BUSY names FUNCTION KILL, SCRIPT KILL refuses it,
 * FUNCTION STATS shows it, FUNCTION KILL stops it — unless it wrote. */
TEST_P(Functions, BusyFunctionAndFunctionKill) {
    ASSERT_EQ(call({"CONFIG", "SET", "busy-reply-threshold", "20"}), OK);
    ASSERT_EQ(call({"FUNCTION", "LOAD", "#!lua name=busy\n"
                                        "redis.register_function('spin', function() while true do end end)\n"
                                        "redis.register_function('write_spin', function(keys, args)\n"
                                        "  redis.call('set', 'w', 1)\n"
                                        "  local t = redis.call('time')\n"
                                        "  local stop = t[1] * 1000000 + t[2] + 300000\n"
                                        "  repeat t = redis.call('time') until t[1] * 1000000 + t[2] >= stop\n"
                                        "  return 'done' end)"}),
              bulk("busy"));
    const std::string busy_fn = err("BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN "
                                    "NOSAVE.");
    RespConn caller = srv->connect(), other = srv->connect();
    caller.cmd({"FCALL", "spin", "0"});
    std::string last;
    pollUntil([&] { return (last = other.call({"PING"}).raw) == busy_fn; });
    ASSERT_EQ(last, busy_fn);
    EXPECT_EQ(other.call({"SCRIPT", "KILL"}).raw, busy_fn);
    EXPECT_TRUE(srv->waitForLog("You can try killing the script using the FUNCTION KILL command. Script name is: "
                                "spin."))
        << srv->log();
    Reply stats = other.call({"FUNCTION", "STATS"});
    ASSERT_EQ(stats.elements.size(), 4u) << stats;
    ASSERT_EQ(stats.elements[1].elements.size(), 6u) << stats;
    EXPECT_EQ(stats.elements[1].elements[1].str, "spin");
    EXPECT_EQ(stats.elements[1].elements[3].raw, bulks({"FCALL", "spin", "0"}));
    EXPECT_EQ(other.call({"FUNCTION", "KILL"}).raw, OK);
    EXPECT_EQ(caller.readReply().raw, fnErr("ERR Script killed by user with SCRIPT KILL...", "spin", 2));
    EXPECT_EQ(other.call({"PING"}).raw, "+PONG\r\n");

    caller.cmd({"FCALL", "write_spin", "0"});
    pollUntil([&] { return (last = other.call({"PING"}).raw) == busy_fn; });
    ASSERT_EQ(last, busy_fn);
    EXPECT_EQ(other.call({"FUNCTION", "KILL"}).raw,
              err("UNKILLABLE Sorry the script already executed write commands against the dataset. You can either "
                  "wait the script termination or kill the server in a hard way using the SHUTDOWN NOSAVE command."));
    EXPECT_EQ(caller.readReply().raw, bulk("done"));

    /* An EVAL script is SCRIPT KILL's: FUNCTION KILL and FUNCTION STATS refuse it. */
    const std::string busy_eval = err("BUSY Redis is busy running a script. You can only call SCRIPT KILL or "
                                      "SHUTDOWN NOSAVE.");
    caller.cmd({"EVAL", "while true do end", "0"});
    pollUntil([&] { return (last = other.call({"PING"}).raw) == busy_eval; });
    ASSERT_EQ(last, busy_eval);
    EXPECT_EQ(other.call({"FUNCTION", "KILL"}).raw, busy_eval);
    EXPECT_EQ(other.call({"FUNCTION", "STATS"}).raw, busy_eval);
    EXPECT_EQ(other.call({"SCRIPT", "KILL"}).raw, OK);
    EXPECT_EQ(caller.readReply().type, Reply::Type::Error);
}

INSTANTIATE_TEST_SUITE_P(Servers, Functions, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis),
                         serverImplName);

/* ========================================================================
 * Files: the RDB and the AOF (cppredis's single-file AOF)
 * ====================================================================== */

/* A restart loads the libraries from the RDB; a file without functions is
 * the version-6 file older versions read. */
TEST(FunctionsPersistence, RestartFromRdb) {
    TempDir dir;
    const std::vector<std::string> args{"--dir", dir.path()};
    {
        TestServer srv(args);
        RespConn c = srv.connect();
        ASSERT_EQ(c.call({"SET", "k", "v"}).raw, OK);
        ASSERT_EQ(c.call({"SAVE"}).raw, OK);
        EXPECT_EQ(readFile(dir.file("dump.rdb")).substr(0, 9), "REDIS0006");
        ASSERT_EQ(c.call({"FUNCTION", "LOAD", kGetLib}).raw, bulk("getlib"));
        ASSERT_EQ(c.call({"SAVE"}).raw, OK);
        std::string rdb = readFile(dir.file("dump.rdb"));
        EXPECT_EQ(rdb.substr(0, 9), "REDIS0010");
        EXPECT_EQ(rdb.substr(9, 1), "\xf5"); /* RDB_OPCODE_FUNCTION2 before the databases */
    }
    TestServer restarted(args);
    RespConn c = restarted.connect();
    EXPECT_EQ(c.call({"FCALL", "getit", "1", "k"}).raw, bulk("v"));
}

/* FUNCTION LOAD/DELETE reach the AOF as themselves, FCALL as its effects;
 * the rewrite starts with a FUNCTION LOAD per library; a restart from
 * either file brings the libraries back. */
TEST(FunctionsPersistence, RestartFromAof) {
    TempDir dir;
    /* A base of commands, to be read (aof-use-rdb-preamble no). */
    const std::vector<std::string> args{"--appendonly", "yes", "--dir", dir.path(), "--aof-use-rdb-preamble", "no"};
    {
        TestServer srv(args);
        RespConn c = srv.connect();
        ASSERT_EQ(c.call({"FUNCTION", "LOAD", kSetLib}).raw, bulk("setlib"));
        ASSERT_EQ(c.call({"FUNCTION", "LOAD", kGetLib}).raw, bulk("getlib"));
        ASSERT_EQ(c.call({"FUNCTION", "DELETE", "getlib"}).raw, OK);
        ASSERT_EQ(c.call({"FCALL", "setit", "1", "k", "v"}).raw, OK);
        std::string aof = readFile(dir.file("appendonlydir/appendonly.aof.1.incr.aof"));
        EXPECT_NE(aof.find(encodeCommand({"FUNCTION", "LOAD", kSetLib})), std::string::npos) << escape(aof);
        EXPECT_NE(aof.find(encodeCommand({"FUNCTION", "DELETE", "getlib"})), std::string::npos) << escape(aof);
        EXPECT_NE(aof.find(encodeCommand({"set", "k", "v"})), std::string::npos) << escape(aof);
        EXPECT_EQ(aof.find("FCALL"), std::string::npos) << escape(aof);
    }
    {
        TestServer srv(args);
        RespConn c = srv.connect();
        EXPECT_EQ(c.call({"FCALL", "getit", "1", "k"}).raw, err("ERR Function not found"));
        EXPECT_EQ(c.call({"FCALL", "setit", "1", "k2", "v2"}).raw, OK);
        ASSERT_EQ(c.call({"BGREWRITEAOF"}).type, Reply::Type::Status);
        pollUntil([&] { return infoField(c, "persistence", "aof_rewrite_in_progress") == "0" &&
                               infoField(c, "persistence", "aof_rewrite_scheduled") == "0"; });
        std::string aof = readFile(dir.file("appendonlydir/appendonly.aof.2.base.aof"));
        EXPECT_EQ(aof.find(encodeCommand({"FUNCTION", "LOAD", kSetLib})), 0u) << escape(aof);
    }
    TestServer restarted(args);
    RespConn c = restarted.connect();
    EXPECT_EQ(c.call({"MGET", "k", "k2"}).raw, bulks({"v", "v2"}));
    EXPECT_EQ(c.call({"FCALL", "setit", "1", "k3", "v3"}).raw, OK);
}

/* FUNCTION DUMP payloads cross between Redis 7.0.15 and cppredis both
 * ways, byte for byte. */
TEST(FunctionsDump, PayloadsCrossBetweenRedisAndCppredis) {
    REQUIRE_REDIS_REFERENCE();
    RedisReference ref;
    TestServer ours;
    RespConn r = ref.connect(), c = ours.connect();
    for (RespConn *conn : {&r, &c}) {
        ASSERT_EQ(conn->call({"FUNCTION", "LOAD", kGetLib}).raw, bulk("getlib"));
    }
    std::string from_redis = r.call({"FUNCTION", "DUMP"}).str;
    EXPECT_EQ(escape(c.call({"FUNCTION", "DUMP"}).str), escape(from_redis));
    ASSERT_EQ(c.call({"FUNCTION", "FLUSH"}).raw, OK);
    EXPECT_EQ(c.call({"FUNCTION", "RESTORE", from_redis}).raw, OK);
    EXPECT_EQ(c.call({"FUNCTION", "LIST", "WITHCODE"}).raw, r.call({"FUNCTION", "LIST", "WITHCODE"}).raw);

    ASSERT_EQ(c.call({"FUNCTION", "LOAD", kSetLib}).raw, bulk("setlib"));
    std::string from_us = c.call({"FUNCTION", "DUMP"}).str;
    EXPECT_EQ(r.call({"FUNCTION", "RESTORE", from_us, "FLUSH"}).raw, OK);
    EXPECT_EQ(r.call({"FUNCTION", "LIST", "LIBRARYNAME", "setlib", "WITHCODE"}).raw,
              c.call({"FUNCTION", "LIST", "LIBRARYNAME", "setlib", "WITHCODE"}).raw);
    EXPECT_EQ(r.call({"FCALL", "setit", "1", "k", "v"}).raw, OK);
}

/* A replica gets the libraries by the full sync's RDB (RDB_OPCODE_FUNCTION2)
 * and then FUNCTION LOAD/DELETE and FCALL's effects by the stream, from
 * Redis 7.0.15 to cppredis and back. */
class FunctionsReplication : public ::testing::TestWithParam<bool> {};

TEST_P(FunctionsReplication, LibrariesReachTheReplica) {
    REQUIRE_REDIS_REFERENCE();
    const bool cppredis_master = GetParam();
    std::unique_ptr<TestServer> master, replica;
    const std::vector<std::string> master_args{"--repl-diskless-sync-delay", "0"};
    if (cppredis_master) {
        master = std::make_unique<TestServer>(master_args);
        replica = std::make_unique<RedisReference>();
    } else {
        master = std::make_unique<RedisReference>(master_args);
        replica = std::make_unique<TestServer>();
    }
    RespConn m = master->connect(), r = replica->connect();
    ASSERT_EQ(m.call({"FUNCTION", "LOAD", kSetLib}).raw, bulk("setlib"));
    ASSERT_EQ(m.call({"FUNCTION", "LOAD", kMiscLib}).raw, bulk("misc"));
    ASSERT_EQ(r.call({"REPLICAOF", "127.0.0.1", std::to_string(master->port())}).raw, OK);
    ASSERT_TRUE(pollUntil([&] { return infoField(r, "replication", "master_link_status") == "up"; }))
        << replica->log();
    ASSERT_EQ(m.call({"FUNCTION", "LOAD", kGetLib}).raw, bulk("getlib"));
    ASSERT_EQ(m.call({"FUNCTION", "DELETE", "misc"}).raw, OK);
    ASSERT_EQ(m.call({"FCALL", "setit", "1", "k", "v"}).raw, OK);
    EXPECT_TRUE(pollUntil([&] { return r.call({"GET", "k"}).raw == bulk("v"); }));
    for (const char *lib : {"setlib", "getlib"})
        EXPECT_EQ(r.call({"FUNCTION", "LIST", "LIBRARYNAME", lib, "WITHCODE"}).raw,
                  m.call({"FUNCTION", "LIST", "LIBRARYNAME", lib, "WITHCODE"}).raw);
    EXPECT_EQ(r.call({"FCALL", "echo", "0"}).raw, err("ERR Function not found"));
    /* A read-only replica runs no-writes functions only. */
    EXPECT_EQ(r.call({"FCALL_RO", "getit", "1", "k"}).raw, bulk("v"));
    EXPECT_EQ(r.call({"FCALL", "setit", "1", "k", "w"}).raw,
              err("READONLY You can't write against a read only replica."));
}

INSTANTIATE_TEST_SUITE_P(MasterIs, FunctionsReplication, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool> &info) {
                             return std::string(info.param ? "CppredisToRedis7" : "Redis7ToCppredis");
                         });

}  // namespace
