/* script_lua_test.cpp — unit tests of script_lua.cpp's conversions between
 * RESP2 and RESP3 replies and Lua values, both ways, on a real interpreter: what
 * redis.call() hands a script (redisProtocolToLuaType) and what a script's
 * return value becomes (luaReplyToRedisReply), including the truncation of
 * numbers, tables with ok/err/double/map/set fields, arrays cut at the first
 * nil, nesting, and luaPushError's error codes. The integration suite
 * (scripting_test.cpp) checks the same rules against Redis 7.0.15. */
#include <gtest/gtest.h>

#include <string>

#include "script_lua.h"
#include "server.h"

using namespace std::string_literals;

namespace {

class ScriptLuaTest : public ::testing::Test {
protected:
    lua_State *L = luaCreateScriptingState();
    client *c = createClient(nullptr);

    ~ScriptLuaTest() override {
        lua_close(L);
        freeClient(c);
    }

    /* A readable rendering of the value at `idx`: 1, "s", true, false, nil,
     * {1, "a"} for arrays, {err="..."} / {ok="..."} for those fields. */
    std::string describe(int idx) {
        idx = idx < 0 ? lua_gettop(L) + 1 + idx : idx;
        switch (lua_type(L, idx)) {
        case LUA_TNUMBER: {
            char buf[64];
            snprintf(buf, sizeof(buf), "%.17g", lua_tonumber(L, idx));
            return buf;
        }
        case LUA_TSTRING: {
            size_t len;
            const char *s = lua_tolstring(L, idx, &len);
            return "\"" + std::string(s, len) + "\"";
        }
        case LUA_TBOOLEAN: return lua_toboolean(L, idx) ? "true" : "false";
        case LUA_TNIL: return "nil";
        case LUA_TTABLE: return describeTable(idx);
        default: return "?";
        }
    }

    std::string describeTable(int idx) {
        std::string out = "{";
        for (const char *field : {"err", "ok"}) {
            lua_getfield(L, idx, field);
            if (!lua_isnil(L, -1)) out += std::string(field) + "=" + describe(-1);
            lua_pop(L, 1);
        }
        for (int j = 1;; j++) {
            lua_rawgeti(L, idx, j);
            if (lua_isnil(L, -1)) {
                lua_pop(L, 1);
                break;
            }
            if (out.size() > 1) out += ", ";
            out += describe(-1);
            lua_pop(L, 1);
        }
        return out + "}";
    }

    /* The Lua value of a reply, rendered; checks the whole reply was read. */
    std::string toLua(const std::string &reply) {
        const char *end = redisProtocolToLuaType(L, reply.c_str());
        EXPECT_EQ(end, reply.c_str() + reply.size()) << reply;
        std::string d = describe(-1);
        lua_pop(L, 1);
        return d;
    }

    /* `expr` (Lua, about r) evaluated with r = the Lua value of `reply`,
     * rendered; checks the whole reply was read. */
    std::string inspect(const std::string &reply, const std::string &expr) {
        std::string chunk = "local r = ... return " + expr;
        EXPECT_EQ(luaL_loadstring(L, chunk.c_str()), 0) << lua_tostring(L, -1);
        const char *end = redisProtocolToLuaType(L, reply.c_str());
        EXPECT_EQ(end, reply.c_str() + reply.size()) << reply;
        EXPECT_EQ(lua_pcall(L, 1, 1, 0), 0) << lua_tostring(L, -1);
        std::string d = describe(-1);
        lua_pop(L, 1);
        return d;
    }

    /* What a script returning `expr` replies to c (whose protocol is
     * c->resp), the script speaking RESP `script_resp` (redis.setresp). */
    std::string toReply(const std::string &expr, int script_resp = 2) {
        std::string chunk = "return " + expr;
        EXPECT_EQ(luaL_loadstring(L, chunk.c_str()), 0) << lua_tostring(L, -1);
        EXPECT_EQ(lua_pcall(L, 0, 1, 0), 0) << lua_tostring(L, -1);
        c->bufpos = 0;
        c->reply.clear();
        c->reply_bytes = 0;
        luaReplyToRedisReply(c, script_resp, L);
        EXPECT_EQ(lua_gettop(L), 0) << "the value was not popped";
        return clientOutputBytes(c);
    }
};

TEST_F(ScriptLuaTest, ScalarRepliesBecomeNumbersStringsAndFalse) {
    EXPECT_EQ(toLua(":42\r\n"), "42");
    EXPECT_EQ(toLua(":-9007199254740993\r\n"), "-9007199254740992"); /* a double, as in Redis */
    EXPECT_EQ(toLua("$3\r\nabc\r\n"), "\"abc\"");
    EXPECT_EQ(toLua("$0\r\n\r\n"), "\"\"");
    EXPECT_EQ(toLua("$4\r\na\r\nb\r\n"), "\"a\r\nb\""); /* binary-safe */
    EXPECT_EQ(toLua("$-1\r\n"), "false");
    EXPECT_EQ(toLua("*-1\r\n"), "false");
}

TEST_F(ScriptLuaTest, StatusAndErrorRepliesBecomeTables) {
    EXPECT_EQ(toLua("+OK\r\n"), "{ok=\"OK\"}");
    EXPECT_EQ(toLua("-WRONGTYPE Operation against a key\r\n"), "{err=\"WRONGTYPE Operation against a key\"}");
    EXPECT_EQ(toLua("-NOCODE\r\n"), "{err=\"ERR NOCODE\"}"); /* no message: a generic code */
    /* The command counted its error already: the script's reply of it is not
     * counted again. */
    redisProtocolToLuaType(L, "-ERR x\r\n");
    lua_getfield(L, -1, "ignore_error_stats_update");
    EXPECT_TRUE(lua_toboolean(L, -1));
    lua_pop(L, 2);
}

TEST_F(ScriptLuaTest, ArraysBecomeTablesAndNest) {
    EXPECT_EQ(toLua("*0\r\n"), "{}");
    EXPECT_EQ(toLua("*3\r\n:1\r\n$1\r\na\r\n*2\r\n+x\r\n$-1\r\n"), "{1, \"a\", {{ok=\"x\"}, false}}");
    /* A reply followed by more bytes: only the first is read. */
    std::string two = ":1\r\n:2\r\n";
    EXPECT_EQ(redisProtocolToLuaType(L, two.c_str()), two.c_str() + 4);
    lua_pop(L, 1);
}

TEST_F(ScriptLuaTest, NumbersAreTruncatedToIntegers) {
    EXPECT_EQ(toReply("3.99"), ":3\r\n");
    EXPECT_EQ(toReply("-3.99"), ":-3\r\n");
    EXPECT_EQ(toReply("0"), ":0\r\n");
    EXPECT_EQ(toReply("2^53"), ":9007199254740992\r\n");
    /* Out of range and NaN: what x86-64's conversion gives, as Redis replies. */
    EXPECT_EQ(toReply("1e100"), ":-9223372036854775808\r\n");
    EXPECT_EQ(toReply("-1e100"), ":-9223372036854775808\r\n");
    EXPECT_EQ(toReply("0/0"), ":-9223372036854775808\r\n");
}

TEST_F(ScriptLuaTest, BooleansNilAndStrings) {
    EXPECT_EQ(toReply("true"), ":1\r\n");
    EXPECT_EQ(toReply("false"), "$-1\r\n");
    EXPECT_EQ(toReply("nil"), "$-1\r\n");
    EXPECT_EQ(toReply("'a\\0b'"), "$3\r\na\0b\r\n"s);
    EXPECT_EQ(toReply("type"), "$-1\r\n"); /* a function: nothing to say */
}

TEST_F(ScriptLuaTest, ArraysStopAtTheFirstNil) {
    EXPECT_EQ(toReply("{1, 2, nil, 4}"), "*2\r\n:1\r\n:2\r\n");
    EXPECT_EQ(toReply("{}"), "*0\r\n");
    EXPECT_EQ(toReply("{a=1, b=2}"), "*0\r\n");
    EXPECT_EQ(toReply("{1, {'x', {true}}, false}"), "*3\r\n:1\r\n*2\r\n$1\r\nx\r\n*1\r\n:1\r\n$-1\r\n");
}

TEST_F(ScriptLuaTest, StatusAndErrorTables) {
    EXPECT_EQ(toReply("{ok='fine'}"), "+fine\r\n");
    EXPECT_EQ(toReply("{ok='a\\r\\nb'}"), "+a  b\r\n");
    EXPECT_EQ(toReply("{err='ERR bad'}"), "-ERR bad\r\n");
    EXPECT_EQ(toReply("{err='no code'}"), "-no code\r\n");
    EXPECT_EQ(toReply("{err=''}"), "-\r\n");
    EXPECT_EQ(toReply("{err='x', ok='y', 1}"), "-x\r\n"); /* err first */
    EXPECT_EQ(toReply("{ok='y', 1}"), "+y\r\n");
    /* Only strings count: other types fall through to the array. */
    EXPECT_EQ(toReply("{ok=1, 7}"), "*1\r\n:7\r\n");
    EXPECT_EQ(toReply("{err=false}"), "*0\r\n");
}

TEST_F(ScriptLuaTest, ErrorRepliesAreCountedUnlessAlreadyCounted) {
    long long before = server.stat_total_error_replies;
    toReply("{err='ERR x'}");
    EXPECT_EQ(server.stat_total_error_replies, before + 1);
    toReply("{err='ERR x', ignore_error_stats_update=true}");
    EXPECT_EQ(server.stat_total_error_replies, before + 1);
}

TEST_F(ScriptLuaTest, Resp3TablesAreRepliedAsResp2) {
    EXPECT_EQ(toReply("{double=3.5}"), "$3\r\n3.5\r\n");
    EXPECT_EQ(toReply("{double='3.5'}"), "*0\r\n"); /* not a number */
    EXPECT_EQ(toReply("{big_number='123456789012345678901234567890'}"),
              "$30\r\n123456789012345678901234567890\r\n");
    EXPECT_EQ(toReply("{verbatim_string={format='txt', string='hi'}}"), "$2\r\nhi\r\n");
    EXPECT_EQ(toReply("{verbatim_string={format='txt'}}"), "*0\r\n");
    EXPECT_EQ(toReply("{map={a=1}}"), "*2\r\n$1\r\na\r\n:1\r\n");
    EXPECT_EQ(toReply("{set={a=true}}"), "*1\r\n$1\r\na\r\n");
    EXPECT_EQ(toReply("{map={}}"), "*0\r\n");
}

/* redis.setresp(3): each RESP3 type as Redis 7.0 hands it to a script. */
TEST_F(ScriptLuaTest, Resp3RepliesBecomeTypedTables) {
    EXPECT_EQ(toLua("_\r\n"), "nil");
    EXPECT_EQ(toLua("#t\r\n"), "true");
    EXPECT_EQ(toLua("#f\r\n"), "false");
    const std::string map = "%2\r\n$1\r\na\r\n:1\r\n$1\r\nb\r\n_\r\n";
    EXPECT_EQ(inspect(map, "r.map.a"), "1");
    EXPECT_EQ(inspect(map, "r.map.b == nil and r[1] == nil"), "true");
    const std::string set = "~2\r\n$1\r\nx\r\n:5\r\n";
    EXPECT_EQ(inspect(set, "r.set.x and r.set[5]"), "true");
    EXPECT_EQ(inspect(",1.5\r\n", "r.double"), "1.5");
    EXPECT_EQ(inspect(",inf\r\n", "r.double == math.huge"), "true");
    EXPECT_EQ(inspect(",-inf\r\n", "r.double == -math.huge"), "true");
    EXPECT_EQ(inspect("(123456789012345678901234567890\r\n", "r.big_number"), "\"123456789012345678901234567890\"");
    const std::string verbatim = "=10\r\nmkd:a\r\nbcd\r\n";
    EXPECT_EQ(inspect(verbatim, "r.verbatim_string.format"), "\"mkd\"");
    EXPECT_EQ(inspect(verbatim, "r.verbatim_string.string"), "\"a\r\nbcd\"");
    /* Attributes are read past, not given to the script. */
    EXPECT_EQ(toLua("|1\r\n$1\r\nk\r\n*1\r\n:1\r\n:7\r\n"), "7");
    const std::string nested = "*3\r\n%1\r\n$1\r\nk\r\n~1\r\n$1\r\nm\r\n#t\r\n,2\r\n";
    EXPECT_EQ(inspect(nested, "r[1].map.k.set.m and r[2] and r[3].double"), "2");
}

/* To a RESP3 caller the table forms keep their types; booleans follow the
 * script's protocol (nil-and-1 under 2, booleans under 3). */
TEST_F(ScriptLuaTest, Resp3CallerGetsTypedReplies) {
    c->resp = 3;
    EXPECT_EQ(toReply("{double=3.5}"), ",3.5\r\n");
    EXPECT_EQ(toReply("{big_number='12\\r\\n3'}"), "(12  3\r\n");
    EXPECT_EQ(toReply("{verbatim_string={format='txt', string='hi'}}"), "=6\r\ntxt:hi\r\n");
    EXPECT_EQ(toReply("{verbatim_string={format='a', string='hi'}}"), "=6\r\na  :hi\r\n");
    EXPECT_EQ(toReply("{verbatim_string={format='markdown', string='hi'}}"), "=6\r\nmar:hi\r\n");
    EXPECT_EQ(toReply("{map={a=1}}"), "%1\r\n$1\r\na\r\n:1\r\n");
    EXPECT_EQ(toReply("{set={a=true}}"), "~1\r\n$1\r\na\r\n");
    EXPECT_EQ(toReply("{set={}}"), "~0\r\n");
    EXPECT_EQ(toReply("true"), ":1\r\n");
    EXPECT_EQ(toReply("false"), "_\r\n");
    EXPECT_EQ(toReply("nil"), "_\r\n");
    EXPECT_EQ(toReply("true", 3), "#t\r\n");
    EXPECT_EQ(toReply("{map={k=false}}", 3), "%1\r\n$1\r\nk\r\n#f\r\n");
    c->resp = 2;
    EXPECT_EQ(toReply("false", 3), ":0\r\n");
    EXPECT_EQ(toReply("{big_number='12\\r\\n3'}"), "$5\r\n12  3\r\n");
}

TEST_F(ScriptLuaTest, NestingDeeperThanTheLuaStackIsAnError) {
    std::string reply = toReply("(function() local t = {} for i = 1, 100000 do t = {t} end return t end)()");
    EXPECT_NE(reply.find("-ERR reached lua stack limit\r\n"), std::string::npos);
    EXPECT_EQ(reply.substr(0, 4), "*1\r\n");
}

TEST_F(ScriptLuaTest, PushErrorKeepsOrAddsTheErrorCode) {
    auto pushed = [&](std::string_view err) {
        luaPushError(L, err);
        std::string d = describe(-1);
        lua_pop(L, 1);
        return d;
    };
    EXPECT_EQ(pushed("-WRONGTYPE Operation"), "{err=\"WRONGTYPE Operation\"}");
    EXPECT_EQ(pushed("-NOCODE"), "{err=\"ERR NOCODE\"}");
    EXPECT_EQ(pushed("plain message"), "{err=\"ERR plain message\"}");
    EXPECT_EQ(pushed("-ERR trailing newline\r\n"), "{err=\"ERR trailing newline\"}");
}

}  // namespace
