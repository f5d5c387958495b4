/* monotonic.cpp — the monotonic clock (Redis 7's monotonic.c, its POSIX
 * clock only). See monotonic.h. */
#include "monotonic.h"

#include <time.h>

monotime getMonotonicUs() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (monotime)ts.tv_sec * 1000000 + (monotime)ts.tv_nsec / 1000;
}
