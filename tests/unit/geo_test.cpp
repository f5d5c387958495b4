/* geo_test.cpp — georadiusGetKeys (geo.cpp), the getkeys procedure that
 * GEORADIUS and GEORADIUSBYMEMBER fall back on when their key specs fail:
 * Redis 7.0's, the key and the destination of the last STORE or STOREDIST
 * from argv[5] on. (COMMAND GETKEYS, which answers from the key specs, is
 * compared with Redis in tests/integration/geo_test.cpp.) */
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "geo.h"

namespace {

std::vector<int> keyPositions(const std::vector<std::string> &args) {
    std::vector<std::string_view> argv(args.begin(), args.end());
    getKeysResult result;
    int n = georadiusGetKeys(nullptr, argv, &result);
    std::vector<int> positions;
    for (const keyReference &k : result.keys) {
        EXPECT_EQ(k.flags, 0);
        positions.push_back(k.pos);
    }
    EXPECT_EQ(n, static_cast<int>(positions.size()));
    return positions;
}

TEST(GeoradiusGetKeys, KeyAndLastStoreDestination) {
    EXPECT_EQ(keyPositions({"GEORADIUS", "k", "1", "2", "3", "km"}), (std::vector<int>{1}));
    EXPECT_EQ(keyPositions({"GEORADIUS", "k", "1", "2", "3", "km", "STORE", "d"}), (std::vector<int>{1, 7}));
    EXPECT_EQ(keyPositions({"GEORADIUS", "k", "1", "2", "3", "km", "store", "a", "STOREDIST", "b"}),
              (std::vector<int>{1, 9}));
    /* GEORADIUSBYMEMBER's unit is argv[4]: the search starts at argv[5]. */
    EXPECT_EQ(keyPositions({"GEORADIUSBYMEMBER", "k", "m", "3", "km", "STOREDIST", "d"}), (std::vector<int>{1, 6}));
    EXPECT_EQ(keyPositions({"GEORADIUSBYMEMBER", "k", "STORE", "x", "km"}), (std::vector<int>{1}));
    /* STORE as the last argument names nothing; a destination named
     * "store" is one. */
    EXPECT_EQ(keyPositions({"GEORADIUS", "k", "1", "2", "3", "km", "STORE"}), (std::vector<int>{1}));
    EXPECT_EQ(keyPositions({"GEORADIUS", "k", "1", "2", "3", "km", "STORE", "store"}), (std::vector<int>{1, 7}));
}

}  // namespace
