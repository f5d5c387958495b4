/* geohash.cpp — the geohash (Redis's geohash.c and geohash_helper.c); see
 * geohash.h. Every floating-point expression keeps Redis's order of
 * operations: a reordering would change the last bit of a coordinate or a
 * distance, and so what GEOPOS and GEODIST print. */
#include "geohash.h"

#include <cmath>

/* Spreads the 32 bits of v to the even bits of a 64-bit word. */
static uint64_t spreadBits(uint64_t v) {
    v = (v | (v << 16)) & 0x0000FFFF0000FFFFULL;
    v = (v | (v << 8)) & 0x00FF00FF00FF00FFULL;
    v = (v | (v << 4)) & 0x0F0F0F0F0F0F0F0FULL;
    v = (v | (v << 2)) & 0x3333333333333333ULL;
    v = (v | (v << 1)) & 0x5555555555555555ULL;
    return v;
}

/* The inverse: the even bits of v, packed into the low 32. */
static uint64_t squashBits(uint64_t v) {
    v &= 0x5555555555555555ULL;
    v = (v | (v >> 1)) & 0x3333333333333333ULL;
    v = (v | (v >> 2)) & 0x0F0F0F0F0F0F0F0FULL;
    v = (v | (v >> 4)) & 0x00FF00FF00FF00FFULL;
    v = (v | (v >> 8)) & 0x0000FFFF0000FFFFULL;
    v = (v | (v >> 16)) & 0x00000000FFFFFFFFULL;
    return v;
}

/* Latitude on the even bits, longitude on the odd ones (interleave64). */
static uint64_t interleave64(uint32_t lat, uint32_t lon) { return spreadBits(lat) | (spreadBits(lon) << 1); }

/* Latitude in the low 32 bits, longitude in the high 32 (deinterleave64). */
static uint64_t deinterleave64(uint64_t interleaved) {
    return squashBits(interleaved) | (squashBits(interleaved >> 1) << 32);
}

static bool rangeIsZero(const GeoHashRange &r) { return r.max == 0 && r.min == 0; }

void geohashGetCoordRange(GeoHashRange *long_range, GeoHashRange *lat_range) {
    *long_range = {GEO_LONG_MIN, GEO_LONG_MAX};
    *lat_range = {GEO_LAT_MIN, GEO_LAT_MAX};
}

bool geohashEncode(const GeoHashRange &long_range, const GeoHashRange &lat_range, double longitude, double latitude,
                   uint8_t step, GeoHashBits *hash) {
    if (step > 32 || step == 0 || rangeIsZero(lat_range) || rangeIsZero(long_range)) return false;
    if (longitude > GEO_LONG_MAX || longitude < GEO_LONG_MIN || latitude > GEO_LAT_MAX || latitude < GEO_LAT_MIN)
        return false;
    hash->bits = 0;
    hash->step = step;
    if (latitude < lat_range.min || latitude > lat_range.max || longitude < long_range.min ||
        longitude > long_range.max)
        return false;
    double lat_offset = (latitude - lat_range.min) / (lat_range.max - lat_range.min);
    double long_offset = (longitude - long_range.min) / (long_range.max - long_range.min);
    /* To fixed point, truncating: the maximum itself gives 2^step, one past
     * the last box, as in Redis. */
    lat_offset *= static_cast<double>(1ULL << step);
    long_offset *= static_cast<double>(1ULL << step);
    hash->bits = interleave64(static_cast<uint32_t>(lat_offset), static_cast<uint32_t>(long_offset));
    return true;
}

bool geohashEncodeWGS84(double longitude, double latitude, uint8_t step, GeoHashBits *hash) {
    GeoHashRange long_range, lat_range;
    geohashGetCoordRange(&long_range, &lat_range);
    return geohashEncode(long_range, lat_range, longitude, latitude, step, hash);
}

bool geohashDecode(const GeoHashRange &long_range, const GeoHashRange &lat_range, GeoHashBits hash,
                   GeoHashArea *area) {
    if (hash.isZero() || rangeIsZero(lat_range) || rangeIsZero(long_range)) return false;
    area->hash = hash;
    uint64_t hash_sep = deinterleave64(hash.bits);
    double lat_scale = lat_range.max - lat_range.min;
    double long_scale = long_range.max - long_range.min;
    auto ilato = static_cast<uint32_t>(hash_sep);
    auto ilono = static_cast<uint32_t>(hash_sep >> 32);
    double boxes = static_cast<double>(1ULL << hash.step);
    area->latitude.min = lat_range.min + (ilato * 1.0 / boxes) * lat_scale;
    area->latitude.max = lat_range.min + ((ilato + 1) * 1.0 / boxes) * lat_scale;
    area->longitude.min = long_range.min + (ilono * 1.0 / boxes) * long_scale;
    area->longitude.max = long_range.min + ((ilono + 1) * 1.0 / boxes) * long_scale;
    return true;
}

bool geohashDecodeWGS84(GeoHashBits hash, GeoHashArea *area) {
    GeoHashRange long_range, lat_range;
    geohashGetCoordRange(&long_range, &lat_range);
    return geohashDecode(long_range, lat_range, hash, area);
}

bool geohashDecodeToLongLatWGS84(GeoHashBits hash, double *xy) {
    GeoHashArea area;
    if (!geohashDecodeWGS84(hash, &area)) return false;
    xy[0] = (area.longitude.min + area.longitude.max) / 2;
    if (xy[0] > GEO_LONG_MAX) xy[0] = GEO_LONG_MAX;
    if (xy[0] < GEO_LONG_MIN) xy[0] = GEO_LONG_MIN;
    xy[1] = (area.latitude.min + area.latitude.max) / 2;
    if (xy[1] > GEO_LAT_MAX) xy[1] = GEO_LAT_MAX;
    if (xy[1] < GEO_LAT_MIN) xy[1] = GEO_LAT_MIN;
    return true;
}

/* Moves the box one step along the coordinate whose bits `mask` selects
 * (odd bits: longitude, even: latitude), wrapping around at the ends; the
 * other coordinate's bits stay. */
static void geohashMove(GeoHashBits *hash, uint64_t mask, int d) {
    if (d == 0) return;
    uint64_t moved = hash->bits & mask, kept = hash->bits & ~mask;
    unsigned shift = 64 - hash->step * 2;
    /* The other coordinate's bits set, so that a carry or a borrow
     * crosses them. */
    uint64_t fill = ~mask >> shift;
    if (d > 0) moved = moved + (fill + 1);
    else moved = (moved | fill) - (fill + 1);
    moved &= mask >> shift;
    hash->bits = moved | kept;
}

static constexpr uint64_t LONG_BITS = 0xaaaaaaaaaaaaaaaaULL, LAT_BITS = 0x5555555555555555ULL;

static GeoHashBits geohashMoved(GeoHashBits hash, int dx, int dy) {
    geohashMove(&hash, LONG_BITS, dx);
    geohashMove(&hash, LAT_BITS, dy);
    return hash;
}

void geohashNeighbors(const GeoHashBits &hash, GeoHashNeighbors *n) {
    n->east = geohashMoved(hash, 1, 0);
    n->west = geohashMoved(hash, -1, 0);
    n->south = geohashMoved(hash, 0, -1);
    n->north = geohashMoved(hash, 0, 1);
    n->north_west = geohashMoved(hash, -1, 1);
    n->north_east = geohashMoved(hash, 1, 1);
    n->south_east = geohashMoved(hash, 1, -1);
    n->south_west = geohashMoved(hash, -1, -1);
}

uint64_t geohashAlign52Bits(GeoHashBits hash) { return hash.bits << (52 - hash.step * 2); }

/* ========================================================================
 * geohash_helper.c: areas, steps and distances
 * ====================================================================== */

static constexpr double D_R = M_PI / 180.0;
static constexpr double MERCATOR_MAX = 20037726.37;

static double deg_rad(double ang) { return ang * D_R; }
static double rad_deg(double ang) { return ang / D_R; }

/* The step whose boxes are about as large as the radius: coarser
 * towards the poles, where the boxes narrow. */
uint8_t geohashEstimateStepsByRadius(double range_meters, double lat) {
    if (range_meters == 0) return 26;
    int step = 1;
    while (range_meters < MERCATOR_MAX) {
        range_meters *= 2;
        step++;
    }
    step -= 2; /* so that the radius falls within most of the cases */
    if (lat > 66 || lat < -66) {
        step--;
        if (lat > 80 || lat < -80) step--;
    }
    if (step < 1) step = 1;
    if (step > 26) step = 26;
    return static_cast<uint8_t>(step);
}

void geohashBoundingBox(const GeoShape &shape, double *bounds) {
    double longitude = shape.xy[0];
    double latitude = shape.xy[1];
    bool circle = shape.type == GeoShapeType::CIRCULAR;
    double height = shape.conversion * (circle ? shape.radius : shape.height / 2);
    double width = shape.conversion * (circle ? shape.radius : shape.width / 2);
    const double lat_delta = rad_deg(height / EARTH_RADIUS_IN_METERS);
    const double long_delta_top = rad_deg(width / EARTH_RADIUS_IN_METERS / std::cos(deg_rad(latitude + lat_delta)));
    const double long_delta_bottom =
        rad_deg(width / EARTH_RADIUS_IN_METERS / std::cos(deg_rad(latitude - lat_delta)));
    /* The edge nearer the pole is the wider one in longitude. */
    bool southern_hemisphere = latitude < 0;
    bounds[0] = southern_hemisphere ? longitude - long_delta_bottom : longitude - long_delta_top;
    bounds[2] = southern_hemisphere ? longitude + long_delta_bottom : longitude + long_delta_top;
    bounds[1] = latitude - lat_delta;
    bounds[3] = latitude + lat_delta;
}

GeoHashRadius geohashCalculateAreasByShapeWGS84(GeoShape *shape) {
    geohashBoundingBox(*shape, shape->bounds);
    double min_lon = shape->bounds[0], min_lat = shape->bounds[1];
    double max_lon = shape->bounds[2], max_lat = shape->bounds[3];
    double longitude = shape->xy[0], latitude = shape->xy[1];
    /* A box's reach is the distance from its center to a corner. */
    double radius_meters = shape->type == GeoShapeType::CIRCULAR
                               ? shape->radius
                               : std::sqrt((shape->width / 2) * (shape->width / 2) +
                                           (shape->height / 2) * (shape->height / 2));
    radius_meters *= shape->conversion;

    int steps = geohashEstimateStepsByRadius(radius_meters, latitude);
    GeoHashRange long_range, lat_range;
    geohashGetCoordRange(&long_range, &lat_range);
    GeoHashRadius r;
    auto boxesAt = [&](int s) {
        geohashEncode(long_range, lat_range, longitude, latitude, static_cast<uint8_t>(s), &r.hash);
        geohashNeighbors(r.hash, &r.neighbors);
        geohashDecode(long_range, lat_range, r.hash, &r.area);
    };
    boxesAt(steps);

    /* Near a box's edge the estimate can leave part of the area beyond
     * the neighbours: one step coarser then. */
    GeoHashArea north, south, east, west;
    geohashDecode(long_range, lat_range, r.neighbors.north, &north);
    geohashDecode(long_range, lat_range, r.neighbors.south, &south);
    geohashDecode(long_range, lat_range, r.neighbors.east, &east);
    geohashDecode(long_range, lat_range, r.neighbors.west, &west);
    bool decrease_step = north.latitude.max < max_lat || south.latitude.min > min_lat ||
                         east.longitude.max < max_lon || west.longitude.min > min_lon;
    if (steps > 1 && decrease_step) boxesAt(--steps);

    /* The neighbours the area does not reach are not scanned. */
    if (steps >= 2) {
        GeoHashNeighbors &n = r.neighbors;
        if (r.area.latitude.min < min_lat) n.south = n.south_west = n.south_east = GeoHashBits{};
        if (r.area.latitude.max > max_lat) n.north = n.north_east = n.north_west = GeoHashBits{};
        if (r.area.longitude.min < min_lon) n.west = n.south_west = n.north_west = GeoHashBits{};
        if (r.area.longitude.max > max_lon) n.east = n.south_east = n.north_east = GeoHashBits{};
    }
    return r;
}

double geohashGetLatDistance(double lat1d, double lat2d) {
    return EARTH_RADIUS_IN_METERS * std::fabs(deg_rad(lat2d) - deg_rad(lat1d));
}

double geohashGetDistance(double lon1d, double lat1d, double lon2d, double lat2d) {
    double lon1r = deg_rad(lon1d), lon2r = deg_rad(lon2d);
    double v = std::sin((lon2r - lon1r) / 2);
    /* Same longitude: the distance along the meridian, cheaper. */
    if (v == 0.0) return geohashGetLatDistance(lat1d, lat2d);
    double lat1r = deg_rad(lat1d), lat2r = deg_rad(lat2d);
    double u = std::sin((lat2r - lat1r) / 2);
    double a = u * u + std::cos(lat1r) * std::cos(lat2r) * v * v;
    return 2.0 * EARTH_RADIUS_IN_METERS * std::asin(std::sqrt(a));
}

bool geohashGetDistanceIfInRadiusWGS84(double x1, double y1, double x2, double y2, double radius,
                                       double *distance) {
    *distance = geohashGetDistance(x1, y1, x2, y2);
    return *distance <= radius;
}

bool geohashGetDistanceIfInRectangle(double width_m, double height_m, double x1, double y1, double x2, double y2,
                                     double *distance) {
    /* The latitude test first: it is the cheaper one. */
    if (geohashGetLatDistance(y2, y1) > height_m / 2) return false;
    if (geohashGetDistance(x2, y2, x1, y2) > width_m / 2) return false;
    *distance = geohashGetDistance(x1, y1, x2, y2);
    return true;
}
