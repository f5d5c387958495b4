/* geohash.h — the 52-bit geohash (Redis's geohash.c and geohash_helper.c)
 * behind the geo commands: a point's longitude and latitude, each
 * scaled to 26 bits over its range, interleaved into one integer that a
 * sorted set holds as the member's score (exact in a double). A prefix of
 * the bits (`step` bits of each coordinate) names a box; the boxes around a
 * point cover a search area, and each box is one score range of the set.
 *
 * The arithmetic is Redis's, operation for operation, so that the scores,
 * the decoded coordinates and the distances are the same doubles as
 * Redis's for the same input.
 */
#pragma once

#include <cstdint>

constexpr int GEO_STEP_MAX = 26; /* 26*2 = 52 bits */

/* The limits of EPSG:900913 / EPSG:3785: no geocoding at the poles. */
constexpr double GEO_LAT_MIN = -85.05112878, GEO_LAT_MAX = 85.05112878;
constexpr double GEO_LONG_MIN = -180, GEO_LONG_MAX = 180;

/* Earth's quadratic mean radius for WGS-84, as Redis measures with. */
constexpr double EARTH_RADIUS_IN_METERS = 6372797.560856;

struct GeoHashBits {
    uint64_t bits = 0;
    uint8_t step = 0;
    bool isZero() const { return bits == 0 && step == 0; } /* HASHISZERO */
};

struct GeoHashRange {
    double min = 0, max = 0;
};

struct GeoHashArea {
    GeoHashBits hash;
    GeoHashRange longitude, latitude;
};

struct GeoHashNeighbors {
    GeoHashBits north, east, west, south, north_east, south_east, north_west, south_west;
};

/* The area a search covers: a circle (radius) or a box (width, height),
 * in the unit whose size in meters is `conversion`, around xy. */
enum class GeoShapeType { CIRCULAR, RECTANGLE };
struct GeoShape {
    GeoShapeType type = GeoShapeType::CIRCULAR;
    double xy[2] = {0, 0}; /* longitude, latitude */
    double conversion = 1;
    double radius = 0;
    double width = 0, height = 0;
    double bounds[4] = {0, 0, 0, 0}; /* min lon, min lat, max lon, max lat */
};

/* The center box of a search and its 8 neighbours (some zeroed out when
 * they cannot hold a point of the area). */
struct GeoHashRadius {
    GeoHashBits hash;
    GeoHashArea area;
    GeoHashNeighbors neighbors;
};

/* The ranges the scores are computed on ([-180,180] x [-85.05,85.05]). */
void geohashGetCoordRange(GeoHashRange *long_range, GeoHashRange *lat_range);
/* False outside the ranges (or a bad step). */
bool geohashEncode(const GeoHashRange &long_range, const GeoHashRange &lat_range, double longitude, double latitude,
                   uint8_t step, GeoHashBits *hash);
bool geohashEncodeWGS84(double longitude, double latitude, uint8_t step, GeoHashBits *hash);
bool geohashDecode(const GeoHashRange &long_range, const GeoHashRange &lat_range, GeoHashBits hash,
                   GeoHashArea *area);
bool geohashDecodeWGS84(GeoHashBits hash, GeoHashArea *area);
/* The center of the box, within the ranges: xy[0] longitude, xy[1] latitude. */
bool geohashDecodeToLongLatWGS84(GeoHashBits hash, double *xy);
void geohashNeighbors(const GeoHashBits &hash, GeoHashNeighbors *neighbors);

/* The score range of a box: its bits moved to the top of 52. */
uint64_t geohashAlign52Bits(GeoHashBits hash);

/* geohash_helper.c */
uint8_t geohashEstimateStepsByRadius(double range_meters, double lat);
void geohashBoundingBox(const GeoShape &shape, double *bounds);
/* Fills shape->bounds and returns the boxes to scan. */
GeoHashRadius geohashCalculateAreasByShapeWGS84(GeoShape *shape);
/* Haversine distance in meters between two points (degrees). */
double geohashGetDistance(double lon1d, double lat1d, double lon2d, double lat2d);
double geohashGetLatDistance(double lat1d, double lat2d);
bool geohashGetDistanceIfInRadiusWGS84(double x1, double y1, double x2, double y2, double radius,
                                       double *distance);
/* Whether (x2,y2) lies in the width_m x height_m box centered on (x1,y1);
 * if so, its distance to the center in *distance. */
bool geohashGetDistanceIfInRectangle(double width_m, double height_m, double x1, double y1, double x2, double y2,
                                     double *distance);
