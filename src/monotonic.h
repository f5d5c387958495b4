/* monotonic.h — the monotonic clock (Redis 7's monotonic.h): microseconds
 * that only move forward, whatever the wall clock does, so that deadlines
 * and durations survive a clock change. The event loop's timers (ae) and
 * the live trace's timestamps (livetrace) both read it; it needs neither.
 * Redis picks a clock at start-up (the TSC where it can); this one is
 * always CLOCK_MONOTONIC. */
#pragma once

#include <cstdint>

using monotime = uint64_t;  // microseconds
monotime getMonotonicUs();  // CLOCK_MONOTONIC
