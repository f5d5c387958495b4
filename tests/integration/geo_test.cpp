/* geo_test.cpp — integration tests of the geo commands (geo.cpp,
 * geohash.cpp): GEOADD and its options, GEOPOS, GEODIST in every unit,
 * GEOHASH, GEOSEARCH and GEOSEARCHSTORE with every option, GEORADIUS and
 * GEORADIUSBYMEMBER with STORE/STOREDIST and their _RO forms, the error
 * of each bad combination, COMMAND GETKEYS, both sorted-set encodings, the
 * keyspace events and the AOF.
 *
 * The Geo scenarios run twice, against cppredis and against Debian's Redis
 * 7.0.15 (the Servers/ instantiations), so every expected byte is proven
 * against Redis by the same test. GeoSameAsRedis loads the same few
 * hundred random points (fixed seed) into both servers in one run and
 * compares scores, positions, hashes, distances and searches byte for
 * byte, near the poles and across the antimeridian too. */
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "integration/harness.h"
#include "integration/persistence_harness.h"
#include "integration/replies.h"

using namespace itest;

namespace {

/* Palermo and Catania, the example of Redis's documentation. */
const Args SICILY = {"GEOADD", "Sicily", "13.361389", "38.115556", "Palermo", "15.087269", "37.502669", "Catania"};
const std::string PALERMO_SCORE = "3479099956230698", CATANIA_SCORE = "3479447370796909";
const std::string PALERMO_POS = array({bulk("13.36138933897018433"), bulk("38.11555639549629859")});
const std::string CATANIA_POS = array({bulk("15.08726745843887329"), bulk("37.50266842333162032")});

const std::string BAD_UNIT = err("ERR unsupported unit provided. please use M, KM, FT, MI");

class Geo : public EitherServerTest {
protected:
    void addSicily() { ASSERT_EQ(call(SICILY), integer(2)); }
    /* The sorted set stored under key, as ZRANGE WITHSCORES's bytes. */
    std::string zrange(const std::string &key) { return call({"ZRANGE", key, "0", "-1", "WITHSCORES"}); }
};

/* ========================================================================
 * GEOADD
 * ====================================================================== */

TEST_P(Geo, GeoaddStoresRedisScores) {
    addSicily();
    EXPECT_EQ(zrange("Sicily"), bulks({"Palermo", PALERMO_SCORE, "Catania", CATANIA_SCORE}));
    EXPECT_EQ(call({"TYPE", "Sicily"}), "+zset\r\n");
    EXPECT_EQ(encoding("Sicily"), "ziplist");
    EXPECT_EQ(call(SICILY), integer(0));
    /* The extremes: longitude 180 and latitude 85.05112878 are one past
     * the last box, as in Redis. */
    EXPECT_EQ(call({"GEOADD", "edges", "180", "85.05112878", "ne", "-180", "-85.05112878", "sw", "0", "0", "o"}),
              integer(3));
    EXPECT_EQ(zrange("edges"), bulks({"sw", "0", "o", "3377699720527872", "ne", "13510798882111488"}));
}

TEST_P(Geo, GeoaddOptions) {
    addSicily();
    /* Palermo moves to Catania's place: CH counts it. */
    EXPECT_EQ(call({"GEOADD", "Sicily", "CH", "15.087269", "37.502669", "Palermo", "1", "1", "x"}), integer(2));
    EXPECT_EQ(call({"ZSCORE", "Sicily", "Palermo"}), bulk(CATANIA_SCORE));
    EXPECT_EQ(call({"GEOADD", "Sicily", "NX", "13.361389", "38.115556", "Palermo", "2", "2", "y"}), integer(1));
    EXPECT_EQ(call({"ZSCORE", "Sicily", "Palermo"}), bulk(CATANIA_SCORE));
    EXPECT_EQ(call({"GEOADD", "Sicily", "XX", "CH", "13.361389", "38.115556", "Palermo", "3", "3", "z"}), integer(1));
    EXPECT_EQ(call({"ZSCORE", "Sicily", "Palermo"}), bulk(PALERMO_SCORE));
    EXPECT_EQ(call({"ZSCORE", "Sicily", "z"}), NIL);
    EXPECT_EQ(call({"GEOADD", "nokey", "XX", "1", "1", "a"}), integer(0));
    EXPECT_EQ(call({"EXISTS", "nokey"}), integer(0));
}

TEST_P(Geo, GeoaddErrors) {
    EXPECT_EQ(call({"GEOADD", "k", "NX", "XX", "1", "1", "a"}), SYNTAX);
    EXPECT_EQ(call({"GEOADD", "k", "1", "1", "a", "2"}), SYNTAX);
    EXPECT_EQ(call({"GEOADD", "k", "GT", "1", "1", "a"}), SYNTAX);
    EXPECT_EQ(call({"GEOADD", "k", "CH", "CH", "CH"}), SYNTAX);
    EXPECT_EQ(call({"GEOADD", "k", "1", "1"}), arityErr("geoadd"));
    EXPECT_EQ(call({"GEOADD", "k", "200", "10", "a"}),
              err("ERR invalid longitude,latitude pair 200.000000,10.000000"));
    EXPECT_EQ(call({"GEOADD", "k", "1", "1", "a", "1", "90", "b"}),
              err("ERR invalid longitude,latitude pair 1.000000,90.000000"));
    EXPECT_EQ(call({"GEOADD", "k", "1", "x", "a"}), NOT_FLOAT);
    EXPECT_EQ(call({"EXISTS", "k"}), integer(0)); /* nothing added before an error */
    ASSERT_EQ(call({"SET", "s", "v"}), OK);
    EXPECT_EQ(call({"GEOADD", "s", "1", "1", "a"}), WRONGTYPE);
}

/* ========================================================================
 * GEOPOS, GEOHASH, GEODIST
 * ====================================================================== */

TEST_P(Geo, GeoposAndGeohash) {
    addSicily();
    EXPECT_EQ(call({"GEOPOS", "Sicily", "Palermo", "nope", "Catania"}), array({PALERMO_POS, NIL_ARRAY, CATANIA_POS}));
    EXPECT_EQ(call({"GEOPOS", "nokey", "a", "b"}), array({NIL_ARRAY, NIL_ARRAY}));
    EXPECT_EQ(call({"GEOHASH", "Sicily", "Palermo", "Catania", "nope"}),
              array({bulk("sqc8b49rny0"), bulk("sqdtr74hyu0"), NIL}));
    EXPECT_EQ(call({"GEOHASH", "nokey", "a"}), array({NIL}));
    EXPECT_EQ(call({"GEOHASH", "Sicily"}), EMPTY_ARRAY);
    ASSERT_EQ(call({"GEOADD", "edges", "180", "85.05112878", "ne", "-180", "-85.05112878", "sw"}), integer(2));
    EXPECT_EQ(call({"GEOPOS", "edges", "ne", "sw"}),
              array({array({bulk("180"), bulk("85.0511287799999991")}),
                     array({bulk("-179.99999731779098511"), bulk("-85.05112751263942528")})}));
    EXPECT_EQ(call({"GEOHASH", "edges", "ne", "sw"}), array({bulk("bp05b5048p0"), bulk("00bh0hbj200")}));
    ASSERT_EQ(call({"SET", "s", "v"}), OK);
    EXPECT_EQ(call({"GEOPOS", "s", "a"}), WRONGTYPE);
    EXPECT_EQ(call({"GEOHASH", "s", "a"}), WRONGTYPE);
}

TEST_P(Geo, GeodistUnitsAndErrors) {
    addSicily();
    EXPECT_EQ(call({"GEODIST", "Sicily", "Palermo", "Catania"}), bulk("166274.1516"));
    EXPECT_EQ(call({"GEODIST", "Sicily", "Palermo", "Catania", "m"}), bulk("166274.1516"));
    EXPECT_EQ(call({"GEODIST", "Sicily", "Palermo", "Catania", "KM"}), bulk("166.2742"));
    EXPECT_EQ(call({"GEODIST", "Sicily", "Palermo", "Catania", "mi"}), bulk("103.3182"));
    EXPECT_EQ(call({"GEODIST", "Sicily", "Palermo", "Catania", "ft"}), bulk("545518.8700"));
    EXPECT_EQ(call({"GEODIST", "Sicily", "Palermo", "Palermo"}), bulk("0.0000"));
    EXPECT_EQ(call({"GEODIST", "Sicily", "Palermo", "Catania", "parsec"}), BAD_UNIT);
    EXPECT_EQ(call({"GEODIST", "Sicily", "Palermo", "Catania", "km", "x"}), SYNTAX);
    EXPECT_EQ(call({"GEODIST", "Sicily", "Palermo", "nope"}), NIL);
    EXPECT_EQ(call({"GEODIST", "nokey", "Palermo", "Catania"}), NIL);
    EXPECT_EQ(call({"GEODIST", "nokey", "a", "b", "parsec"}), BAD_UNIT); /* the unit first */
    ASSERT_EQ(call({"SET", "s", "v"}), OK);
    EXPECT_EQ(call({"GEODIST", "s", "a", "b"}), WRONGTYPE);
}

/* ========================================================================
 * GEOSEARCH
 * ====================================================================== */

const std::string CATANIA_WITHALL =
    array({bulk("Catania"), bulk("56.4413"), ":" + CATANIA_SCORE + "\r\n", CATANIA_POS});
const std::string PALERMO_WITHALL =
    array({bulk("Palermo"), bulk("190.4424"), ":" + PALERMO_SCORE + "\r\n", PALERMO_POS});

TEST_P(Geo, GeosearchRadiusAndBox) {
    addSicily();
    EXPECT_EQ(call({"GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km", "ASC"}),
              bulks({"Catania", "Palermo"}));
    EXPECT_EQ(call({"GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km", "DESC"}),
              bulks({"Palermo", "Catania"}));
    EXPECT_EQ(call({"GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "100", "km"}), bulks({"Catania"}));
    EXPECT_EQ(call({"GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km", "WITHDIST",
                    "WITHHASH", "WITHCOORD", "ASC"}),
              array({CATANIA_WITHALL, PALERMO_WITHALL}));
    EXPECT_EQ(call({"GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYBOX", "400", "400", "km", "ASC", "WITHDIST"}),
              array({array({bulk("Catania"), bulk("56.4413")}), array({bulk("Palermo"), bulk("190.4424")})}));
    EXPECT_EQ(call({"GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYBOX", "200", "200", "km", "WITHDIST"}),
              array({array({bulk("Catania"), bulk("56.4413")})}));
    EXPECT_EQ(call({"GEOSEARCH", "Sicily", "FROMMEMBER", "Palermo", "BYRADIUS", "400", "km", "DESC", "WITHDIST"}),
              array({array({bulk("Catania"), bulk("166.2742")}), array({bulk("Palermo"), bulk("0.0000")})}));
    /* Units: 200 km in miles and feet, the distances in the unit. */
    EXPECT_EQ(call({"GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "124.3", "mi", "ASC", "WITHDIST"}),
              array({array({bulk("Catania"), bulk("35.0711")}), array({bulk("Palermo"), bulk("118.3357")})}));
    EXPECT_EQ(call({"GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "656168", "ft", "ASC", "WITHDIST"}),
              array({array({bulk("Catania"), bulk("185174.7305")}), array({bulk("Palermo"), bulk("624811.1215")})}));
    EXPECT_EQ(call({"GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "200000", "m", "COUNT", "1"}),
              bulks({"Catania"}));
    EXPECT_EQ(call({"GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km", "COUNT", "1", "DESC"}),
              bulks({"Palermo"}));
    EXPECT_EQ(call({"GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km", "COUNT", "5", "ANY"}),
              call({"GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km"}));
    EXPECT_EQ(call({"GEOSEARCH", "Sicily", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"GEOSEARCH", "nokey", "FROMMEMBER", "x", "BYRADIUS", "1", "km"}), EMPTY_ARRAY);
}

/* Equal distances keep the scan's order (score, then member) either way,
 * as glibc's qsort (a merge sort) leaves them in Redis. */
TEST_P(Geo, GeosearchTiesKeepScanOrder) {
    ASSERT_EQ(call({"GEOADD", "ties", "1", "1", "c", "1", "1", "a", "1", "1", "b", "2", "2", "z", "0.5", "0.5", "y"}),
              integer(5));
    Args search{"GEOSEARCH", "ties", "FROMLONLAT", "1", "1", "BYRADIUS", "500", "km"};
    EXPECT_EQ(call(search), bulks({"y", "a", "b", "c", "z"}));
    search.push_back("ASC");
    EXPECT_EQ(call(search), bulks({"a", "b", "c", "y", "z"}));
    search.back() = "DESC";
    EXPECT_EQ(call(search), bulks({"z", "y", "a", "b", "c"}));
}

TEST_P(Geo, GeosearchErrors) {
    addSicily();
    auto search = [&](Args tail) {
        Args args{"GEOSEARCH", "Sicily"};
        args.insert(args.end(), tail.begin(), tail.end());
        return call(args);
    };
    EXPECT_EQ(search({"FROMLONLAT", "15", "37", "BYRADIUS", "400", "km", "COUNT", "0"}), err("ERR COUNT must be > 0"));
    EXPECT_EQ(search({"FROMLONLAT", "15", "37", "BYRADIUS", "400", "km", "COUNT", "x"}), NOT_INT);
    EXPECT_EQ(search({"FROMLONLAT", "15", "37", "BYRADIUS", "400", "km", "ANY"}),
              err("ERR the ANY argument requires COUNT argument"));
    EXPECT_EQ(search({"FROMLONLAT", "15", "37", "BYRADIUS", "-1", "km"}), err("ERR radius cannot be negative"));
    EXPECT_EQ(search({"FROMLONLAT", "15", "37", "BYRADIUS", "x", "km"}), err("ERR need numeric radius"));
    EXPECT_EQ(search({"FROMLONLAT", "15", "37", "BYBOX", "x", "1", "km"}), err("ERR need numeric width"));
    EXPECT_EQ(search({"FROMLONLAT", "15", "37", "BYBOX", "1", "x", "km"}), err("ERR need numeric height"));
    EXPECT_EQ(search({"FROMLONLAT", "15", "37", "BYBOX", "1", "-1", "km"}),
              err("ERR height or width cannot be negative"));
    EXPECT_EQ(search({"FROMLONLAT", "15", "37", "BYBOX", "1", "1", "lightyear"}), BAD_UNIT);
    EXPECT_EQ(search({"FROMLONLAT", "15", "91", "BYRADIUS", "1", "km"}),
              err("ERR invalid longitude,latitude pair 15.000000,91.000000"));
    EXPECT_EQ(search({"FROMMEMBER", "nope", "BYRADIUS", "1", "km"}), err("ERR could not decode requested zset member"));
    EXPECT_EQ(search({"FROMLONLAT", "15", "37", "FROMMEMBER", "Palermo", "BYRADIUS", "1", "km"}), SYNTAX);
    EXPECT_EQ(search({"FROMLONLAT", "15", "37", "BYRADIUS", "1", "km", "BYBOX", "1", "1", "km"}), SYNTAX);
    EXPECT_EQ(search({"FROMLONLAT", "15", "37", "BYRADIUS", "1", "km", "STORE", "x"}), SYNTAX);
    EXPECT_EQ(search({"FROMLONLAT", "15", "37", "BYRADIUS", "1", "km", "STOREDIST"}), SYNTAX);
    EXPECT_EQ(search({"FROMLONLAT", "15", "37", "BYRADIUS", "1"}), SYNTAX);
    EXPECT_EQ(search({"BYRADIUS", "1", "km", "WITHDIST", "ASC"}),
              err("ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for GEOSEARCH"));
    EXPECT_EQ(call({"geosearch", "Sicily", "FROMLONLAT", "15", "37", "WITHDIST", "ASC"}),
              err("ERR exactly one of BYRADIUS and BYBOX can be specified for geosearch"));
    EXPECT_EQ(call({"GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37"}), arityErr("geosearch"));
    ASSERT_EQ(call({"SET", "s", "v"}), OK);
    EXPECT_EQ(call({"GEOSEARCH", "s", "FROMLONLAT", "15", "37", "BYRADIUS", "1", "km"}), WRONGTYPE);
}

TEST_P(Geo, GeosearchstoreStoresAndDeletes) {
    addSicily();
    EXPECT_EQ(call({"GEOSEARCHSTORE", "d", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km"}), integer(2));
    EXPECT_EQ(zrange("d"), zrange("Sicily"));
    EXPECT_EQ(encoding("d"), "ziplist");
    EXPECT_EQ(call({"GEOSEARCHSTORE", "d", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km", "STOREDIST",
                    "COUNT", "1"}),
              integer(1));
    EXPECT_EQ(zrange("d"), bulks({"Catania", "56.441257870158204"}));
    EXPECT_EQ(call({"GEOSEARCHSTORE", "d", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "1", "km", "WITHHASH"}),
              err("ERR GEOSEARCHSTORE is not compatible with WITHDIST, WITHHASH and WITHCOORD options"));
    /* An empty result, or no source, deletes the destination. */
    EXPECT_EQ(call({"GEOSEARCHSTORE", "d", "Sicily", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km"}), integer(0));
    EXPECT_EQ(call({"EXISTS", "d"}), integer(0));
    ASSERT_EQ(call({"SET", "d", "v"}), OK);
    EXPECT_EQ(call({"GEOSEARCHSTORE", "d", "nokey", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km"}), integer(0));
    EXPECT_EQ(call({"EXISTS", "d"}), integer(0));
    /* A string destination is overwritten, its TTL dropped. */
    ASSERT_EQ(call({"SET", "d", "v", "EX", "100"}), OK);
    EXPECT_EQ(call({"GEOSEARCHSTORE", "d", "Sicily", "FROMMEMBER", "Palermo", "BYBOX", "10", "10", "km"}), integer(1));
    EXPECT_EQ(zrange("d"), bulks({"Palermo", PALERMO_SCORE}));
    EXPECT_EQ(call({"TTL", "d"}), integer(-1));
}

/* ========================================================================
 * GEORADIUS, GEORADIUSBYMEMBER and their _RO forms
 * ====================================================================== */

TEST_P(Geo, Georadius) {
    addSicily();
    EXPECT_EQ(call({"GEORADIUS", "Sicily", "15", "37", "200", "km", "WITHDIST", "WITHCOORD", "WITHHASH", "ASC"}),
              array({CATANIA_WITHALL, PALERMO_WITHALL}));
    EXPECT_EQ(call({"GEORADIUS_RO", "Sicily", "15", "37", "200", "km", "DESC"}), bulks({"Palermo", "Catania"}));
    EXPECT_EQ(call({"GEORADIUSBYMEMBER", "Sicily", "Palermo", "200", "km", "ASC"}), bulks({"Palermo", "Catania"}));
    EXPECT_EQ(call({"GEORADIUSBYMEMBER_RO", "Sicily", "Palermo", "100", "km"}), bulks({"Palermo"}));
    EXPECT_EQ(call({"GEORADIUS", "Sicily", "15", "37", "200", "km", "STORE", "d"}), integer(2));
    EXPECT_EQ(zrange("d"), zrange("Sicily"));
    EXPECT_EQ(call({"GEORADIUSBYMEMBER", "Sicily", "Palermo", "200", "km", "STOREDIST", "d2"}), integer(2));
    EXPECT_EQ(zrange("d2"), bulks({"Palermo", "0", "Catania", "166.27415156960032"}));
    EXPECT_EQ(call({"GEORADIUS", "Sicily", "0", "0", "1", "km", "STORE", "d"}), integer(0));
    EXPECT_EQ(call({"EXISTS", "d"}), integer(0));
    /* Without the key, GEORADIUSBYMEMBER parses only the options. */
    EXPECT_EQ(call({"GEORADIUSBYMEMBER", "nokey", "x", "abc", "km"}), EMPTY_ARRAY);
    EXPECT_EQ(call({"GEORADIUSBYMEMBER", "nokey", "x", "1", "km", "STORE", "d2"}), integer(0));
    EXPECT_EQ(call({"EXISTS", "d2"}), integer(0));
    EXPECT_EQ(call({"GEORADIUS", "nokey", "0", "0", "x", "km"}), err("ERR need numeric radius"));
}

TEST_P(Geo, GeoradiusErrors) {
    addSicily();
    EXPECT_EQ(call({"GEORADIUS", "Sicily", "15", "37", "200", "km", "STORE", "x", "WITHCOORD"}),
              err("ERR STORE option in GEORADIUS is not compatible with WITHDIST, WITHHASH and WITHCOORD options"));
    EXPECT_EQ(call({"GEORADIUS_RO", "Sicily", "15", "37", "200", "km", "STOREDIST", "x"}), SYNTAX);
    EXPECT_EQ(call({"GEORADIUSBYMEMBER_RO", "Sicily", "Palermo", "200", "km", "STORE", "x"}), SYNTAX);
    EXPECT_EQ(call({"GEORADIUS", "Sicily", "15", "37", "200", "km", "FROMLONLAT", "1", "2"}), SYNTAX);
    EXPECT_EQ(call({"GEORADIUS", "Sicily", "15", "37", "200", "km", "STORE"}), SYNTAX);
    EXPECT_EQ(call({"GEORADIUS", "Sicily", "200", "37", "200", "km"}),
              err("ERR invalid longitude,latitude pair 200.000000,37.000000"));
    EXPECT_EQ(call({"GEORADIUS", "Sicily", "15", "37", "200", "parsec"}), BAD_UNIT);
    EXPECT_EQ(call({"GEORADIUSBYMEMBER", "Sicily", "nope", "200", "km"}),
              err("ERR could not decode requested zset member"));
    EXPECT_EQ(call({"GEORADIUSBYMEMBER", "Sicily", "Palermo", "-1", "km"}), err("ERR radius cannot be negative"));
    EXPECT_EQ(call({"GEORADIUS", "Sicily", "15", "37", "200"}), arityErr("georadius"));
}

TEST_P(Geo, GetkeysAsRedis) {
    EXPECT_EQ(call({"COMMAND", "GETKEYS", "GEORADIUS", "k", "15", "37", "200", "km", "STORE", "a", "STOREDIST", "b"}),
              bulks({"k", "a", "b"}));
    EXPECT_EQ(call({"COMMAND", "GETKEYS", "GEORADIUSBYMEMBER", "k", "m", "200", "km", "STORE", "a"}),
              bulks({"k", "a"}));
    EXPECT_EQ(call({"COMMAND", "GETKEYS", "GEORADIUS", "k", "15", "37", "200", "km"}), bulks({"k"}));
    EXPECT_EQ(call({"COMMAND", "GETKEYS", "GEOSEARCHSTORE", "d", "s", "FROMLONLAT", "1", "2", "BYRADIUS", "1", "m"}),
              bulks({"d", "s"}));
    EXPECT_EQ(call({"COMMAND", "GETKEYS", "GEOADD", "k", "1", "2", "m"}), bulks({"k"}));
}

/* The same searches on a skiplist-encoded copy give the same replies. */
TEST_P(Geo, BothEncodingsSearchAlike) {
    Args add{"GEOADD", "small"};
    for (int i = 0; i < 100; i++) {
        add.push_back(std::to_string(13 + i * 0.02));
        add.push_back(std::to_string(37 + (i % 10) * 0.05));
        add.push_back("p" + std::to_string(i));
    }
    ASSERT_EQ(call(add), integer(100));
    ASSERT_EQ(call({"CONFIG", "SET", "zset-max-ziplist-entries", "0"}), OK);
    add[1] = "big";
    ASSERT_EQ(call(add), integer(100));
    EXPECT_EQ(encoding("small"), "ziplist");
    EXPECT_EQ(encoding("big"), "skiplist");
    EXPECT_EQ(zrange("small"), zrange("big"));
    for (const char *radius : {"1", "10", "50", "500"}) {
        std::string a = call({"GEOSEARCH", "small", "FROMLONLAT", "14", "37.2", "BYRADIUS", radius, "km", "ASC",
                              "WITHDIST", "WITHHASH", "WITHCOORD"});
        EXPECT_EQ(a, call({"GEOSEARCH", "big", "FROMLONLAT", "14", "37.2", "BYRADIUS", radius, "km", "ASC",
                           "WITHDIST", "WITHHASH", "WITHCOORD"}));
        EXPECT_EQ(call({"GEOSEARCH", "small", "FROMMEMBER", "p50", "BYBOX", radius, radius, "km", "DESC", "COUNT",
                        "3"}),
                  call({"GEOSEARCH", "big", "FROMMEMBER", "p50", "BYBOX", radius, radius, "km", "DESC", "COUNT",
                        "3"}));
    }
    /* A stored result of many members converts as the limits say. */
    EXPECT_EQ(call({"GEOSEARCHSTORE", "d", "small", "FROMLONLAT", "14", "37.2", "BYRADIUS", "500", "km"}),
              integer(100));
    EXPECT_EQ(encoding("d"), "skiplist");
}

/* GEOADD is a ZADD; the stores write a sorted set or delete it. */
TEST_P(Geo, KeyspaceEvents) {
    RespConn sub = srv->connect();
    ASSERT_EQ(call({"CONFIG", "SET", "notify-keyspace-events", "KEA"}), OK);
    ASSERT_FALSE(sub.call({"PSUBSCRIBE", "__keyevent@0__:*"}).isError());
    auto next = [&] {
        Reply r = sub.readReply();
        return r.elements.size() == 4 ? r.elements[2].str.substr(15) + " " + r.elements[3].str : toString(r);
    };
    addSicily();
    EXPECT_EQ(next(), "zadd Sicily");
    EXPECT_EQ(call({"GEOSEARCHSTORE", "d", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km"}), integer(2));
    EXPECT_EQ(next(), "geosearchstore d");
    EXPECT_EQ(call({"GEORADIUS", "Sicily", "15", "37", "200", "km", "STORE", "d"}), integer(2));
    EXPECT_EQ(next(), "georadiusstore d");
    EXPECT_EQ(call({"GEORADIUS", "Sicily", "0", "0", "1", "km", "STORE", "d"}), integer(0));
    EXPECT_EQ(next(), "del d");
    EXPECT_EQ(call({"PUBLISH", "__keyevent@0__:marker", "m"}), integer(1));
    EXPECT_EQ(next(), "marker m"); /* nothing else came */
}

INSTANTIATE_TEST_SUITE_P(Servers, Geo, ::testing::Values(ServerImpl::Cppredis, ServerImpl::Redis), serverImplName);

/* ========================================================================
 * The AOF: GEOADD as ZADD, the stores as themselves
 * ====================================================================== */

void runGeoPropagationScript(RespConn &c) {
    c.call(SICILY);
    c.call({"GEOADD", "Sicily", "XX", "CH", "15", "37", "Palermo"});
    c.call({"GEOADD", "Sicily", "NX", "1", "1", "Catania"}); /* changes nothing */
    c.call({"GEOSEARCHSTORE", "d", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km", "STOREDIST"});
    c.call({"GEORADIUS", "Sicily", "15", "37", "200", "km", "STORE", "d2"});
    c.call({"GEORADIUS", "Sicily", "0", "0", "1", "km", "STORE", "d2"});
    /* In a transaction and in a script, as ZADDs too. */
    c.call({"MULTI"});
    c.call({"GEOADD", "t", "1", "2", "a"});
    c.call({"GEOADD", "t", "CH", "3", "4", "a", "5", "6", "b"});
    c.call({"EXEC"});
    c.call({"EVAL", "redis.call('geoadd', KEYS[1], 7, 8, 'c') return redis.call('geoadd', KEYS[1], 'xx', 9, 10, 'c')",
            "1", "t"});
}

TEST(GeoPropagation, AofSameBytesAsRedis7) {
    REQUIRE_REDIS_REFERENCE();
    auto script = [](RespConn &c, RespConn &) { runGeoPropagationScript(c); };
    std::string theirs = aofWrittenBy(ServerImpl::Redis, script);
    ASSERT_FALSE(theirs.empty());
    EXPECT_EQ(escape(aofWrittenBy(ServerImpl::Cppredis, script), 1 << 20), escape(theirs, 1 << 20));
}

/* ========================================================================
 * Random points in both servers, compared byte for byte
 * ====================================================================== */

std::string fixed6(double v) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.6f", v);
    return buf;
}

TEST(GeoSameAsRedis, RandomPointsPolesAndAntimeridian) {
    REQUIRE_REDIS_REFERENCE();
    TestServer srv;
    RedisReference ref;
    RespConn ours = srv.connect(), theirs = ref.connect();
    auto same = [&](const Args &args) { expectSameReplies(ours, theirs, encodeCommand(args)); };

    std::mt19937 rng(20261127);
    std::uniform_real_distribution<double> lon(-180, 180), lat(-85.05112878, 85.05112878), near(-1, 1);
    std::vector<std::pair<double, double>> centers = {{0, 0},      {180, 0},    {-180, 10}, {179.9, -40},
                                                      {-179.9, 60}, {0, 85},     {90, -85},  {-45, 84.9},
                                                      {13.4, 38.1}, {179.99, 85}};
    /* Half spread over the globe, half around the centers. */
    for (const char *key : {"pts", "ptsbig"}) {
        if (std::string(key) == "ptsbig") {
            same({"CONFIG", "SET", "zset-max-ziplist-entries", "0"});
            rng.seed(20261127);
        }
        Args add{"GEOADD", key};
        for (int i = 0; i < 400; i++) {
            double x, y;
            if (i % 2) {
                x = lon(rng);
                y = lat(rng);
            } else {
                auto [cx, cy] = centers[(i / 2) % centers.size()];
                x = std::clamp(cx + near(rng) * 3, -180.0, 180.0);
                y = std::clamp(cy + near(rng) * 0.5, -85.05112878, 85.05112878);
            }
            add.push_back(fixed6(x));
            add.push_back(fixed6(y));
            add.push_back("m" + std::to_string(i));
        }
        same(add);
        same({"ZRANGE", key, "0", "-1", "WITHSCORES"});
        same({"OBJECT", "ENCODING", key});
        Args pos{"GEOPOS", key}, hash{"GEOHASH", key};
        for (int i = 0; i < 400; i++) {
            pos.push_back("m" + std::to_string(i));
            hash.push_back("m" + std::to_string(i));
        }
        same(pos);
        same(hash);
        for (int i = 0; i < 400; i += 7)
            for (const char *unit : {"m", "km", "mi", "ft"})
                same({"GEODIST", key, "m" + std::to_string(i), "m" + std::to_string((i * 13 + 5) % 400), unit});
        for (auto [cx, cy] : centers) {
            for (const char *r : {"1", "50", "300", "1000", "5000"}) {
                for (const char *order : {"ASC", "DESC"}) {
                    same({"GEOSEARCH", key, "FROMLONLAT", fixed6(cx), fixed6(cy), "BYRADIUS", r, "km", order,
                          "WITHDIST", "WITHHASH", "WITHCOORD"});
                    same({"GEOSEARCH", key, "FROMLONLAT", fixed6(cx), fixed6(cy), "BYBOX", r, r, "km", order,
                          "WITHDIST"});
                    same({"GEORADIUS", key, fixed6(cx), fixed6(cy), r, "mi", order, "COUNT", "5", "WITHDIST"});
                }
            }
        }
        for (int i = 0; i < 400; i += 37) {
            std::string m = "m" + std::to_string(i);
            same({"GEOSEARCH", key, "FROMMEMBER", m, "BYRADIUS", "500", "km", "ASC", "WITHDIST", "WITHCOORD"});
            same({"GEORADIUSBYMEMBER", key, m, "2000", "km", "STOREDIST", "dst"});
            same({"ZRANGE", "dst", "0", "-1", "WITHSCORES"});
            same({"GEOSEARCHSTORE", "dst", key, "FROMMEMBER", m, "BYBOX", "3000", "1000", "km"});
            same({"ZRANGE", "dst", "0", "-1", "WITHSCORES"});
        }
    }
}

}  // namespace
