/* keyspecs_test.cpp — getKeysFromCommandWithSpecs (db.cpp) over the
 * generated key specs (keyspecs.cpp) and over hand-made specs for the
 * shapes no cppredis command has yet (a backward keyword, NOT_KEY,
 * INCOMPLETE, an UNKNOWN begin). COMMAND GETKEYS is compared with Redis 7
 * in tests/integration/introspection_test.cpp. */
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "commands.h"
#include "db.h"
#include "server.h"
#include "server_main.h"

namespace {

using Keys = std::vector<std::pair<int, int>>; /* (argv index, CMD_KEY_* flags) */

class KeySpecs : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (server.commands.empty()) initCommandTable();
    }

    /* The return value, and the keys found, of argv (argv[0] names the
     * command when `cmd` is null). */
    static std::pair<int, Keys> keysOf(const std::vector<std::string> &args, int search_flags = GET_KEYSPEC_DEFAULT,
                                       const redisCommand *cmd = nullptr) {
        std::vector<std::string_view> argv(args.begin(), args.end());
        if (!cmd) cmd = lookupCommand(argv);
        EXPECT_NE(cmd, nullptr) << args[0];
        if (!cmd) return {};
        getKeysResult result;
        int n = getKeysFromCommandWithSpecs(cmd, argv, search_flags, &result);
        Keys keys;
        for (const keyReference &k : result.keys) keys.emplace_back(k.pos, k.flags);
        return {n, keys};
    }
    static Keys keys(const std::vector<std::string> &args, int search_flags = GET_KEYSPEC_DEFAULT) {
        auto [n, found] = keysOf(args, search_flags);
        EXPECT_EQ(n, static_cast<int>(found.size()));
        return found;
    }
};

constexpr int RO_ACCESS = CMD_KEY_RO | CMD_KEY_ACCESS;
constexpr int OW_UPDATE = CMD_KEY_OW | CMD_KEY_UPDATE;
constexpr int RW_ACCESS_UPDATE = CMD_KEY_RW | CMD_KEY_ACCESS | CMD_KEY_UPDATE;

TEST_F(KeySpecs, IndexAndRange) {
    EXPECT_EQ(keys({"GET", "k"}), (Keys{{1, RO_ACCESS}}));
    EXPECT_EQ(keys({"MSET", "a", "1", "b", "2"}), (Keys{{1, OW_UPDATE}, {3, OW_UPDATE}}));
    /* lastkey -2: all but the timeout */
    const int pop = CMD_KEY_RW | CMD_KEY_ACCESS | CMD_KEY_DELETE;
    EXPECT_EQ(keys({"BLPOP", "a", "b", "c", "0"}), (Keys{{1, pop}, {2, pop}, {3, pop}}));
    EXPECT_EQ(keys({"SMOVE", "a", "b", "m"}).size(), 2u);
    EXPECT_EQ(keys({"PING"}), Keys{});
    EXPECT_FALSE(doesCommandHaveKeys(lookupCommandByName("ping")));
    EXPECT_TRUE(doesCommandHaveKeys(lookupCommandByName("get")));
}

/* Past the 256 keys the result holds inline, the keys move to the heap. */
TEST_F(KeySpecs, ManyKeysSpillOutOfTheInlineBuffer) {
    std::vector<std::string> args{"MGET"};
    for (int i = 0; i < 300; i++) args.push_back("k" + std::to_string(i));
    Keys found = keys(args);
    ASSERT_EQ(found.size(), 300u);
    for (int i = 0; i < 300; i++) EXPECT_EQ(found[i].first, i + 1);
}

/* XREAD's STREAMS is searched from argv[1], XREADGROUP's from argv[4]
 * (past a group named "streams"); the keys are the first half of the rest. */
TEST_F(KeySpecs, KeywordWithLimit) {
    EXPECT_EQ(keys({"XREAD", "COUNT", "1", "STREAMS", "a", "b", "0", "0"}), (Keys{{4, RO_ACCESS}, {5, RO_ACCESS}}));
    EXPECT_EQ(keys({"XREADGROUP", "GROUP", "streams", "c", "STREAMS", "a", "0"}), (Keys{{5, RO_ACCESS}}));
    /* STREAMS last: never a keyword (no key follows) */
    EXPECT_EQ(keys({"XREAD", "COUNT", "1", "STREAMS"}), Keys{});
    /* one argument after STREAMS: the spec does not fit, xreadGetKeys finds
     * keys and IDs unpaired */
    EXPECT_EQ(keys({"XREAD", "COUNT", "5", "STREAMS", "a"}), Keys{});
}

TEST_F(KeySpecs, Keynum) {
    EXPECT_EQ(keys({"ZUNIONSTORE", "d", "2", "a", "b"}), (Keys{{1, OW_UPDATE}, {3, RO_ACCESS}, {4, RO_ACCESS}}));
    EXPECT_EQ(keys({"EVAL", "s", "2", "a", "b"}), (Keys{{3, RW_ACCESS_UPDATE}, {4, RW_ACCESS_UPDATE}}));
    EXPECT_EQ(keys({"BLMPOP", "0", "1", "a", "LEFT"}).size(), 1u);
    /* Redis counts the keys in an int: 2^32+1 is 1 */
    EXPECT_EQ(keys({"ZUNIONSTORE", "d", "4294967297", "a"}), (Keys{{1, OW_UPDATE}, {3, RO_ACCESS}}));
}

/* A numkeys the spec refuses (zero, too many, negative, not canonical)
 * falls back to the command's getkeys procedure, which reads it with atoi
 * and sets no flags, as Redis's. */
TEST_F(KeySpecs, InvalidNumkeysFallsBackToTheGetkeysProc) {
    for (const char *bad : {"0", "3", "-1", "x"}) EXPECT_EQ(keys({"ZUNIONSTORE", "d", bad, "a", "b"}), Keys{}) << bad;
    EXPECT_EQ(keys({"ZUNIONSTORE", "d", "1abc", "a", "b"}), (Keys{{3, 0}, {1, 0}}));
    EXPECT_EQ(keys({"ZUNION", " +2", "a", "b"}), (Keys{{2, 0}, {3, 0}}));
    EXPECT_EQ(keys({"EVAL", "s", "0"}), Keys{});
    /* RETURN_PARTIAL: the destination from the spec that fits, no fallback */
    EXPECT_EQ(keys({"ZUNIONSTORE", "d", "3", "a", "b"}, GET_KEYSPEC_RETURN_PARTIAL), (Keys{{1, OW_UPDATE}}));
}

/* SET's flags vary with GET: its procedure decides, not the spec. */
TEST_F(KeySpecs, VariableFlags) {
    EXPECT_EQ(keys({"SET", "k", "v"}), (Keys{{1, OW_UPDATE}}));
    EXPECT_EQ(keys({"SET", "k", "get"}), (Keys{{1, OW_UPDATE}}));
    EXPECT_EQ(keys({"SET", "k", "v", "EX", "1", "gEt"}), (Keys{{1, RW_ACCESS_UPDATE}}));
}

/* Hand-made specs (Redis 7's MIGRATE and SORT shapes, a NOT_KEY argument)
 * on a command of their own. */
class HandMadeKeySpecs : public KeySpecs {
protected:
    static redisCommand command(std::span<const keySpec> specs) {
        redisCommand cmd{};
        cmd.arity = -2;
        cmd.key_specs = specs;
        return cmd;
    }
};

/* MIGRATE ... KEYS k1 k2: KEYS searched backwards from argv[argc-2] (the
 * last occurrence wins), the range to the end, the spec INCOMPLETE (the
 * single-key form is elsewhere): only RETURN_PARTIAL gives its keys. */
TEST_F(HandMadeKeySpecs, BackwardKeywordIncomplete) {
    constexpr int flags = CMD_KEY_RW | CMD_KEY_ACCESS | CMD_KEY_DELETE | CMD_KEY_INCOMPLETE;
    static constexpr keySpec specs[] = {
        {flags, KSPEC_BS_KEYWORD, {.keyword = {"KEYS", -2}}, KSPEC_FK_RANGE, {.range = {-1, 1, 0}}},
    };
    redisCommand cmd = command(specs);
    const std::vector<std::string> argv{"MIGRATE", "h", "p", "", "0", "5", "KEYS", "keys", "b"};
    EXPECT_EQ(keysOf(argv, GET_KEYSPEC_DEFAULT, &cmd), (std::pair<int, Keys>{0, {}}));
    EXPECT_EQ(keysOf(argv, GET_KEYSPEC_RETURN_PARTIAL, &cmd), (std::pair<int, Keys>{1, {{8, flags}}}));
    /* not searched at argv[1] */
    EXPECT_EQ(keysOf({"MIGRATE", "keys", "x"}, GET_KEYSPEC_RETURN_PARTIAL, &cmd).second, Keys{});
}

/* An UNKNOWN begin makes the whole call the getkeys procedure's. */
TEST_F(HandMadeKeySpecs, UnknownBegin) {
    static constexpr keySpec specs[] = {
        {RO_ACCESS, KSPEC_BS_INDEX, {.index = {1}}, KSPEC_FK_RANGE, {.range = {0, 1, 0}}},
        {OW_UPDATE, KSPEC_BS_UNKNOWN, {}, KSPEC_FK_UNKNOWN, {}},
    };
    redisCommand cmd = command(specs);
    EXPECT_EQ(keysOf({"SORT", "k"}, GET_KEYSPEC_DEFAULT, &cmd).second, Keys{});
    cmd.getkeys_proc = setGetKeys;
    EXPECT_EQ(keysOf({"SORT", "k"}, GET_KEYSPEC_DEFAULT, &cmd).second, (Keys{{1, OW_UPDATE}}));
    EXPECT_EQ(keysOf({"SORT", "k"}, GET_KEYSPEC_RETURN_PARTIAL, &cmd).second, (Keys{{1, RO_ACCESS}}));
}

TEST_F(HandMadeKeySpecs, NotKeys) {
    static constexpr keySpec specs[] = {
        {CMD_KEY_NOT_KEY, KSPEC_BS_INDEX, {.index = {1}}, KSPEC_FK_RANGE, {.range = {0, 1, 0}}},
        {RO_ACCESS, KSPEC_BS_INDEX, {.index = {2}}, KSPEC_FK_RANGE, {.range = {0, 1, 0}}},
    };
    redisCommand cmd = command(specs);
    EXPECT_EQ(keysOf({"X", "chan", "k"}, GET_KEYSPEC_DEFAULT, &cmd).second, (Keys{{2, RO_ACCESS}}));
    EXPECT_EQ(keysOf({"X", "chan", "k"}, GET_KEYSPEC_INCLUDE_NOT_KEYS, &cmd).second,
              (Keys{{1, CMD_KEY_NOT_KEY}, {2, RO_ACCESS}}));
    /* only NOT_KEY specs: no keys at all */
    redisCommand onlyNotKeys = command(std::span(specs, 1));
    EXPECT_FALSE(doesCommandHaveKeys(&onlyNotKeys));
    EXPECT_EQ(keysOf({"X", "chan"}, GET_KEYSPEC_DEFAULT, &onlyNotKeys).second, Keys{});
}

}  // namespace
