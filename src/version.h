/* version.h — the version cppredis reports (Redis's version.h): its own,
 * and the Redis version whose behaviour it matches, which INFO and HELLO
 * report so that clients enable the features they expect. */
#pragma once

#define CPPREDIS_VERSION "0.1.0"
#define REDIS_COMPAT_VERSION "7.0.15"
