/* geo.cpp — the geo commands (Redis 7.0's geo.c): points kept in a sorted
 * set, each member's score the 52-bit geohash of its coordinates
 * (geohash.h), so that a search scans the score ranges of the few geohash
 * boxes that cover its area and keeps the points really within it.
 *
 * Invariants:
 *  - A score is computed as Redis computes it, so the same coordinates
 *    give the same score (and ZSCORE, DUMP, the RDB) as in Redis; GEOPOS
 *    and the distances print the same doubles in the same format.
 *  - GEOADD is a ZADD: it runs zaddCommand on the ZADD vector Redis builds
 *    (so the notifications, the reply and the encoding are ZADD's) and is
 *    propagated as that ZADD.
 *  - The STORE forms write a new sorted set with setKey, or delete the
 *    destination when the result is empty.
 */
#include "geo.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "geohash.h"
#include "networking.h"
#include "notify.h"
#include "server.h"
#include "t_zset.h"

/* ========================================================================
 * Points found by a search (Redis's geoArray)
 * ====================================================================== */

struct geoPoint {
    double longitude, latitude;
    double dist;  /* from the search's center, in meters (then in the unit) */
    double score; /* the member's geohash */
    size_t member_offset, member_len; /* in geoArray::members */
};

/* The points, their members' bytes side by side in one buffer. */
struct geoArray {
    std::vector<geoPoint> points;
    std::string members;

    void append(const double *xy, double dist, double score, std::string_view member) {
        points.push_back({xy[0], xy[1], dist, score, members.size(), member.size()});
        members.append(member);
    }
    std::string_view member(const geoPoint &gp) const { return {members.data() + gp.member_offset, gp.member_len}; }
};

/* ========================================================================
 * Helpers
 * ====================================================================== */

/* A score back to the center of its box: xy[0] longitude, xy[1] latitude. */
static bool decodeGeohash(double bits, double *xy) {
    GeoHashBits hash{static_cast<uint64_t>(bits), GEO_STEP_MAX};
    return geohashDecodeToLongLatWGS84(hash, xy);
}

/* argv[0] longitude and argv[1] latitude, within the geohash's ranges. */
static bool extractLongLatOrReply(client *c, const std::string_view *argv, double *xy) {
    for (int i = 0; i < 2; i++)
        if (!getDoubleFromObjectOrReply(c, argv[i], xy + i)) return false;
    if (xy[0] < GEO_LONG_MIN || xy[0] > GEO_LONG_MAX || xy[1] < GEO_LAT_MIN || xy[1] > GEO_LAT_MAX) {
        addReplyErrorFormat(c, "invalid longitude,latitude pair %f,%f", xy[0], xy[1]);
        return false;
    }
    return true;
}

static bool longLatFromMember(robj *zobj, std::string_view member, double *xy) {
    double score = 0;
    return zsetScore(zobj, member, &score) && decodeGeohash(score, xy);
}

/* The unit's size in meters; -1 (replied) for an unknown unit. */
static double extractUnitOrReply(client *c, std::string_view unit) {
    if (strEqualNoCase(unit, "m")) return 1;
    if (strEqualNoCase(unit, "km")) return 1000;
    if (strEqualNoCase(unit, "ft")) return 0.3048;
    if (strEqualNoCase(unit, "mi")) return 1609.34;
    addReplyError(c, "unsupported unit provided. please use M, KM, FT, MI");
    return -1;
}

/* argv: radius unit. */
static bool extractDistanceOrReply(client *c, const std::string_view *argv, double *conversion, double *radius) {
    double distance;
    if (!getDoubleFromObjectOrReply(c, argv[0], &distance, "need numeric radius")) return false;
    if (distance < 0) {
        addReplyError(c, "radius cannot be negative");
        return false;
    }
    *radius = distance;
    double to_meters = extractUnitOrReply(c, argv[1]);
    if (to_meters < 0) return false;
    *conversion = to_meters;
    return true;
}

/* argv: width height unit. */
static bool extractBoxOrReply(client *c, const std::string_view *argv, double *conversion, double *width,
                              double *height) {
    double h, w;
    if (!getDoubleFromObjectOrReply(c, argv[0], &w, "need numeric width") ||
        !getDoubleFromObjectOrReply(c, argv[1], &h, "need numeric height"))
        return false;
    if (h < 0 || w < 0) {
        addReplyError(c, "height or width cannot be negative");
        return false;
    }
    *height = h;
    *width = w;
    double to_meters = extractUnitOrReply(c, argv[2]);
    if (to_meters < 0) return false;
    *conversion = to_meters;
    return true;
}

/* A distance with 4 decimals, as Redis's fixedpoint_d2string: llrint of
 * d * 10^4, printed with its sign (a NaN distance, from rounding on
 * antipodes, becomes llrint's LLONG_MIN there as here). */
static void addReplyDoubleDistance(client *c, double d) {
    long long scaled = std::llrint(d * 10000.0);
    unsigned long long magnitude =
        scaled < 0 ? 0ULL - static_cast<unsigned long long>(scaled) : static_cast<unsigned long long>(scaled);
    char buf[64];
    int len = std::snprintf(buf, sizeof(buf), "%s%llu.%04llu", scaled < 0 ? "-" : "", magnitude / 10000,
                            magnitude % 10000);
    addReplyBulk(c, {buf, static_cast<size_t>(len)});
}

/* Whether the point of this score is within the shape; its coordinates
 * and distance to the center (meters) in xy and *distance. */
static bool geoWithinShape(const GeoShape &shape, double score, double *xy, double *distance) {
    if (!decodeGeohash(score, xy)) return false;
    if (shape.type == GeoShapeType::CIRCULAR)
        return geohashGetDistanceIfInRadiusWGS84(shape.xy[0], shape.xy[1], xy[0], xy[1],
                                                 shape.radius * shape.conversion, distance);
    return geohashGetDistanceIfInRectangle(shape.width * shape.conversion, shape.height * shape.conversion,
                                           shape.xy[0], shape.xy[1], xy[0], xy[1], distance);
}

/* ========================================================================
 * The search: the boxes' score ranges, scanned
 * ====================================================================== */

struct geoRangeScan {
    const GeoShape &shape;
    geoArray &ga;
    unsigned long limit; /* 0: all; else stop once the array holds this many (ANY) */
};

static bool geoCollectPoint(void *ctx, std::string_view member, double score) {
    auto &scan = *static_cast<geoRangeScan *>(ctx);
    double xy[2], distance = 0;
    if (geoWithinShape(scan.shape, score, xy, &distance)) scan.ga.append(xy, distance, score, member);
    return !(scan.limit && scan.ga.points.size() >= scan.limit);
}

/* The points of one box: the scores from its bits moved to the top of
 * 52, up to (excluded) those of the next box. */
static void membersOfGeoHashBox(robj *zobj, GeoHashBits hash, geoRangeScan &scan) {
    zrangespec range;
    range.min = static_cast<double>(geohashAlign52Bits(hash));
    hash.bits++;
    range.max = static_cast<double>(geohashAlign52Bits(hash));
    range.maxex = true;
    zsetForEachInScoreRange(zobj, range, geoCollectPoint, &scan);
}

/* The center box, then its neighbours, in Redis's order (which is the
 * order of an unsorted reply). */
static void membersOfAllNeighbors(robj *zobj, const GeoHashRadius &n, geoRangeScan &scan) {
    const GeoHashBits boxes[9] = {n.hash,
                                  n.neighbors.north,
                                  n.neighbors.south,
                                  n.neighbors.east,
                                  n.neighbors.west,
                                  n.neighbors.north_east,
                                  n.neighbors.north_west,
                                  n.neighbors.south_east,
                                  n.neighbors.south_west};
    unsigned last_processed = 0;
    for (unsigned i = 0; i < 9; i++) {
        if (boxes[i].isZero()) continue;
        /* With a huge radius, adjacent neighbours can be the same box:
         * skip one equal to the box just scanned (as Redis, the center
         * box is never compared). */
        if (last_processed && boxes[i].bits == boxes[last_processed].bits &&
            boxes[i].step == boxes[last_processed].step)
            continue;
        if (scan.limit && scan.ga.points.size() >= scan.limit) break;
        membersOfGeoHashBox(zobj, boxes[i], scan);
        last_processed = i;
    }
}

/* ========================================================================
 * GEOADD
 * ====================================================================== */

/* GEOADD key [NX|XX] [CH] longitude latitude member [...]: the ZADD
 * key [NX|XX] [CH] score member [...] that zaddCommand runs. */
void geoaddCommand(client *c) {
    const size_t argc = c->argv.size();
    size_t longidx = 2;
    bool xx = false, nx = false;
    for (; longidx < argc; longidx++) {
        std::string_view opt = c->argv[longidx];
        if (strEqualNoCase(opt, "nx")) nx = true;
        else if (strEqualNoCase(opt, "xx")) xx = true;
        else if (!strEqualNoCase(opt, "ch")) break; /* CH is ZADD's */
    }
    if ((argc - longidx) % 3 || (xx && nx)) return addReplyErrorObject(c, shared::syntaxerr);

    const size_t elements = (argc - longidx) / 3;
    std::vector<std::string_view> zaddargv;
    zaddargv.reserve(longidx + elements * 2);
    zaddargv.emplace_back("zadd");
    zaddargv.insert(zaddargv.end(), c->argv.begin() + 1, c->argv.begin() + static_cast<long>(longidx));
    std::vector<char> scores(elements * LONG_STR_SIZE); /* the scores' digits, which zaddargv views */
    for (size_t i = 0; i < elements; i++) {
        double xy[2];
        if (!extractLongLatOrReply(c, &c->argv[longidx + i * 3], xy)) return;
        GeoHashBits hash;
        geohashEncodeWGS84(xy[0], xy[1], GEO_STEP_MAX, &hash);
        char *digits = scores.data() + i * LONG_STR_SIZE;
        int len = ll2string(digits, LONG_STR_SIZE, static_cast<long long>(geohashAlign52Bits(hash)));
        zaddargv.emplace_back(digits, static_cast<size_t>(len));
        zaddargv.push_back(c->argv[longidx + i * 3 + 2]);
    }

    /* Redis replaces the client's vector with the ZADD one for good; here
     * ZADD runs on it, and it is what the command propagates. */
    std::vector<std::string_view> geoargv = std::exchange(c->argv, std::move(zaddargv));
    zaddCommand(c);
    zaddargv = std::exchange(c->argv, std::move(geoargv));
    rewriteClientCommandVector(c, zaddargv);
}

/* ========================================================================
 * GEORADIUS, GEORADIUSBYMEMBER, GEOSEARCH, GEOSEARCHSTORE
 * ====================================================================== */

enum class geoSort { NONE, ASC, DESC };

constexpr int RADIUS_COORDS = 1 << 0;  /* around coordinates */
constexpr int RADIUS_MEMBER = 1 << 1;  /* around a member */
constexpr int RADIUS_NOSTORE = 1 << 2; /* no STORE/STOREDIST (the _RO forms) */
constexpr int GEOSEARCH = 1 << 3;      /* GEOSEARCH's arguments */
constexpr int GEOSEARCHSTORE = 1 << 4; /* ...and its destination, STOREDIST without a key */

/* The search's options, once parsed. */
struct geoSearchOptions {
    std::string_view storekey;
    bool store = false, storedist = false;
    bool withdist = false, withhash = false, withcoords = false;
    bool frommember = false, fromloc = false, byradius = false, bybox = false;
    bool any = false;
    geoSort sort = geoSort::NONE;
    long long count = 0; /* 0: all */
};

/* The options after base_args; false once an error is replied. Order and
 * errors are Redis's: an option is recognized only with its arguments
 * present and where the command takes it. */
static bool geoParseOptionsOrReply(client *c, size_t base_args, int flags, robj *zobj, GeoShape &shape,
                                   geoSearchOptions &o) {
    const size_t remaining = c->argv.size() > base_args ? c->argv.size() - base_args : 0;
    const std::string_view *args = c->argv.data() + base_args;
    const bool storable = !(flags & RADIUS_NOSTORE) && !(flags & GEOSEARCH);
    for (size_t i = 0; i < remaining; i++) {
        std::string_view arg = args[i];
        if (strEqualNoCase(arg, "withdist")) {
            o.withdist = true;
        } else if (strEqualNoCase(arg, "withhash")) {
            o.withhash = true;
        } else if (strEqualNoCase(arg, "withcoord")) {
            o.withcoords = true;
        } else if (strEqualNoCase(arg, "any")) {
            o.any = true;
        } else if (strEqualNoCase(arg, "asc")) {
            o.sort = geoSort::ASC;
        } else if (strEqualNoCase(arg, "desc")) {
            o.sort = geoSort::DESC;
        } else if (strEqualNoCase(arg, "count") && i + 1 < remaining) {
            if (!getLongLongFromObjectOrReply(c, args[i + 1], &o.count)) return false;
            if (o.count <= 0) {
                addReplyError(c, "COUNT must be > 0");
                return false;
            }
            i++;
        } else if ((strEqualNoCase(arg, "store") || strEqualNoCase(arg, "storedist")) && i + 1 < remaining &&
                   storable) {
            o.store = true;
            o.storekey = args[i + 1];
            o.storedist = arg.size() == 9;
            i++;
        } else if (strEqualNoCase(arg, "storedist") && (flags & GEOSEARCHSTORE)) {
            o.storedist = true;
        } else if (strEqualNoCase(arg, "frommember") && i + 1 < remaining && (flags & GEOSEARCH) && !o.fromloc) {
            /* Without the key the member is not looked up: the reply is
             * the empty one, once the rest is parsed. */
            if (zobj && !longLatFromMember(zobj, args[i + 1], shape.xy)) {
                addReplyError(c, "could not decode requested zset member");
                return false;
            }
            o.frommember = true;
            i++;
        } else if (strEqualNoCase(arg, "fromlonlat") && i + 2 < remaining && (flags & GEOSEARCH) &&
                   !o.frommember) {
            if (!extractLongLatOrReply(c, args + i + 1, shape.xy)) return false;
            o.fromloc = true;
            i += 2;
        } else if (strEqualNoCase(arg, "byradius") && i + 2 < remaining && (flags & GEOSEARCH) && !o.bybox) {
            if (!extractDistanceOrReply(c, args + i + 1, &shape.conversion, &shape.radius)) return false;
            shape.type = GeoShapeType::CIRCULAR;
            o.byradius = true;
            i += 2;
        } else if (strEqualNoCase(arg, "bybox") && i + 3 < remaining && (flags & GEOSEARCH) && !o.byradius) {
            if (!extractBoxOrReply(c, args + i + 1, &shape.conversion, &shape.width, &shape.height)) return false;
            shape.type = GeoShapeType::RECTANGLE;
            o.bybox = true;
            i += 3;
        } else {
            addReplyErrorObject(c, shared::syntaxerr);
            return false;
        }
    }

    if (o.store && (o.withdist || o.withhash || o.withcoords)) {
        addReplyErrorFormat(c, "%s is not compatible with WITHDIST, WITHHASH and WITHCOORD options",
                            (flags & GEOSEARCHSTORE) ? "GEOSEARCHSTORE" : "STORE option in GEORADIUS");
        return false;
    }
    /* The command's name as the client spelled it, as in Redis. */
    const int namelen = static_cast<int>(c->argv[0].size());
    if ((flags & GEOSEARCH) && !(o.frommember || o.fromloc)) {
        addReplyErrorFormat(c, "exactly one of FROMMEMBER or FROMLONLAT can be specified for %.*s", namelen,
                            c->argv[0].data());
        return false;
    }
    if ((flags & GEOSEARCH) && !(o.byradius || o.bybox)) {
        addReplyErrorFormat(c, "exactly one of BYRADIUS and BYBOX can be specified for %.*s", namelen,
                            c->argv[0].data());
        return false;
    }
    if (o.any && !o.count) {
        addReplyError(c, "the ANY argument requires COUNT argument");
        return false;
    }
    return true;
}

/* The result at the destination: members scored by geohash, or by
 * distance (STOREDIST); none deletes the destination. */
static void geoStoreResult(client *c, const geoArray &ga, size_t returned_items, const geoSearchOptions &o,
                           int flags) {
    if (returned_items == 0) {
        if (dbDelete(c->db, o.storekey)) {
            signalModifiedKey(c, c->db, o.storekey);
            notifyKeyspaceEvent(NOTIFY_GENERIC, "del", o.storekey, c->db->id);
            server.dirty++;
        }
        return addReply(c, shared::czero);
    }
    ObjRef zobj = createZsetObject();
    size_t maxelelen = 0;
    for (size_t i = 0; i < returned_items; i++) {
        const geoPoint &gp = ga.points[i];
        int out_flags;
        double newscore;
        zsetAdd(zobj.get(), o.storedist ? gp.dist : gp.score, ga.member(gp), ZADD_IN_NONE, &out_flags, &newscore);
        maxelelen = std::max(maxelelen, gp.member_len);
    }
    zsetConvertToZiplistIfNeeded(zobj.get(), maxelelen);
    setKey(c, c->db, o.storekey, std::move(zobj), 0);
    notifyKeyspaceEvent(NOTIFY_ZSET, (flags & GEOSEARCH) ? "geosearchstore" : "georadiusstore", o.storekey,
                        c->db->id);
    server.dirty += static_cast<long long>(returned_items);
    addReplyLongLong(c, static_cast<long long>(returned_items));
}

static void geoReplyResult(client *c, const geoArray &ga, size_t returned_items, const geoSearchOptions &o) {
    int option_length = o.withdist + o.withhash + o.withcoords;
    addReplyArrayLen(c, static_cast<long long>(returned_items));
    for (size_t i = 0; i < returned_items; i++) {
        const geoPoint &gp = ga.points[i];
        if (option_length) addReplyArrayLen(c, option_length + 1);
        addReplyBulk(c, ga.member(gp));
        if (o.withdist) addReplyDoubleDistance(c, gp.dist);
        if (o.withhash) addReplyLongLong(c, static_cast<long long>(gp.score));
        if (o.withcoords) {
            addReplyArrayLen(c, 2);
            addReplyHumanLongDouble(c, gp.longitude);
            addReplyHumanLongDouble(c, gp.latitude);
        }
    }
}

/* Redis's georadiusGeneric: the sorted set at argv[srcKeyIndex]. */
static void georadiusGeneric(client *c, size_t srcKeyIndex, int flags) {
    robj *zobj = lookupKeyRead(c->db, c->argv[srcKeyIndex]);
    if (checkType(c, zobj, OBJ_ZSET)) return;

    GeoShape shape;
    geoSearchOptions o;
    size_t base_args;
    if (flags & RADIUS_COORDS) { /* GEORADIUS key longitude latitude radius unit */
        base_args = 6;
        if (!extractLongLatOrReply(c, &c->argv[2], shape.xy) ||
            !extractDistanceOrReply(c, &c->argv[4], &shape.conversion, &shape.radius))
            return;
    } else if (flags & RADIUS_MEMBER) { /* GEORADIUSBYMEMBER key member radius unit */
        base_args = 5;
        /* Without the key: the options are parsed, for the right empty
         * reply, and nothing else. */
        if (zobj) {
            if (!longLatFromMember(zobj, c->argv[2], shape.xy))
                return addReplyError(c, "could not decode requested zset member");
            if (!extractDistanceOrReply(c, &c->argv[3], &shape.conversion, &shape.radius)) return;
        }
    } else { /* GEOSEARCH key ..., GEOSEARCHSTORE destination source ... */
        base_args = 2;
        if (flags & GEOSEARCHSTORE) {
            base_args = 3;
            o.store = true;
            o.storekey = c->argv[1];
        }
    }
    if (!geoParseOptionsOrReply(c, base_args, flags, zobj, shape, o)) return;

    if (!zobj) {
        if (!o.store) return addReply(c, shared::empty_array);
        geoArray none;
        return geoStoreResult(c, none, 0, o, flags);
    }

    /* COUNT takes the nearest ones: sorted, unless ANY. */
    if (o.count != 0 && o.sort == geoSort::NONE && !o.any) o.sort = geoSort::ASC;

    GeoHashRadius georadius = geohashCalculateAreasByShapeWGS84(&shape);
    geoArray ga;
    geoRangeScan scan{shape, ga, o.any ? static_cast<unsigned long>(o.count) : 0};
    membersOfAllNeighbors(zobj, georadius, scan);

    if (ga.points.empty() && !o.store) return addReply(c, shared::empty_array);

    size_t result_length = ga.points.size();
    size_t returned_items =
        (o.count == 0 || result_length < static_cast<size_t>(o.count)) ? result_length : static_cast<size_t>(o.count);
    if (o.sort != geoSort::NONE) {
        auto nearer = [](const geoPoint &a, const geoPoint &b) { return a.dist < b.dist; };
        auto farther = [](const geoPoint &a, const geoPoint &b) { return a.dist > b.dist; };
        auto &pts = ga.points;
        auto mid = pts.begin() + static_cast<long>(returned_items);
        /* The whole result as glibc's qsort, a merge sort, orders it: the
         * ties keep their scan order. */
        if (returned_items == result_length) {
            if (o.sort == geoSort::ASC) std::stable_sort(pts.begin(), pts.end(), nearer);
            else std::stable_sort(pts.begin(), pts.end(), farther);
        } else if (o.sort == geoSort::ASC) {
            std::partial_sort(pts.begin(), mid, pts.end(), nearer);
        } else {
            std::partial_sort(pts.begin(), mid, pts.end(), farther);
        }
    }
    for (size_t i = 0; i < returned_items; i++) ga.points[i].dist /= shape.conversion;

    if (o.store) geoStoreResult(c, ga, returned_items, o, flags);
    else geoReplyResult(c, ga, returned_items, o);
}

void georadiusCommand(client *c) { georadiusGeneric(c, 1, RADIUS_COORDS); }
void georadiusbymemberCommand(client *c) { georadiusGeneric(c, 1, RADIUS_MEMBER); }
void georadiusroCommand(client *c) { georadiusGeneric(c, 1, RADIUS_COORDS | RADIUS_NOSTORE); }
void georadiusbymemberroCommand(client *c) { georadiusGeneric(c, 1, RADIUS_MEMBER | RADIUS_NOSTORE); }
void geosearchCommand(client *c) { georadiusGeneric(c, 1, GEOSEARCH); }
void geosearchstoreCommand(client *c) { georadiusGeneric(c, 2, GEOSEARCH | GEOSEARCHSTORE); }

/* ========================================================================
 * GEOHASH, GEOPOS, GEODIST
 * ====================================================================== */

/* GEOHASH and GEOPOS: one reply per member argument (argv[2..]),
 * `missing(c)` for a member not in the set (or no set), else `found` with
 * its decoded longitude and latitude. */
template <typename Found>
static void replyPerMember(client *c, void (*missing)(client *), Found found) {
    robj *zobj = lookupKeyRead(c->db, c->argv[1]);
    if (checkType(c, zobj, OBJ_ZSET)) return;
    addReplyArrayLen(c, static_cast<long long>(c->argv.size() - 2));
    for (size_t j = 2; j < c->argv.size(); j++) {
        double score, xy[2];
        if (zobj && zsetScore(zobj, c->argv[j], &score) && decodeGeohash(score, xy))
            found(xy);
        else
            missing(c);
    }
}

/* GEOHASH key [member ...]: the standard 11-character geohash. The
 * scores are computed on latitudes [-85.05, 85.05]; the standard uses
 * [-90, 90], so the point is decoded and encoded again. */
void geohashCommand(client *c) {
    replyPerMember(c, addReplyNull, [c](const double *xy) {
        static constexpr char geoalphabet[] = "0123456789bcdefghjkmnpqrstuvwxyz";
        GeoHashBits hash;
        geohashEncode({-180, 180}, {-90, 90}, xy[0], xy[1], 26, &hash);
        char buf[11];
        /* 52 bits make 10 characters and 2 bits: the 11th is '0', as in
         * Redis. */
        for (int i = 0; i < 10; i++) buf[i] = geoalphabet[(hash.bits >> (52 - (i + 1) * 5)) & 0x1f];
        buf[10] = geoalphabet[0];
        addReplyBulk(c, {buf, sizeof(buf)});
    });
}

/* GEOPOS key [member ...] */
void geoposCommand(client *c) {
    replyPerMember(c, addReplyNullArray, [c](const double *xy) {
        addReplyArrayLen(c, 2);
        addReplyHumanLongDouble(c, xy[0]);
        addReplyHumanLongDouble(c, xy[1]);
    });
}

/* GEODIST key member1 member2 [unit] */
void geodistCommand(client *c) {
    double to_meter = 1;
    if (c->argv.size() == 5) {
        to_meter = extractUnitOrReply(c, c->argv[4]);
        if (to_meter < 0) return;
    } else if (c->argv.size() > 5) {
        return addReplyErrorObject(c, shared::syntaxerr);
    }
    robj *zobj = lookupKeyReadOrReply(c, c->argv[1], shared::null_bulk);
    if (!zobj || checkType(c, zobj, OBJ_ZSET)) return;
    double score1, score2, xyxy[4];
    if (!zsetScore(zobj, c->argv[2], &score1) || !zsetScore(zobj, c->argv[3], &score2) ||
        !decodeGeohash(score1, xyxy) || !decodeGeohash(score2, xyxy + 2))
        return addReplyNull(c);
    addReplyDoubleDistance(c, geohashGetDistance(xyxy[0], xyxy[1], xyxy[2], xyxy[3]) / to_meter);
}

/* GEORADIUS and GEORADIUSBYMEMBER: the key, and the last STORE or
 * STOREDIST destination after the fixed arguments (Redis looks from
 * argv[5] for both). */
int georadiusGetKeys(const redisCommand *, std::span<const std::string_view> argv, getKeysResult *result) {
    int stored_key = -1;
    const int argc = static_cast<int>(argv.size());
    for (int i = 5; i < argc; i++) {
        if ((strEqualNoCase(argv[i], "store") || strEqualNoCase(argv[i], "storedist")) && i + 1 < argc) {
            stored_key = i + 1;
            i++;
        }
    }
    result->keys.push_back({1, 0});
    if (stored_key != -1) result->keys.push_back({stored_key, 0});
    return static_cast<int>(result->keys.size());
}
