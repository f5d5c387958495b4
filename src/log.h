/* log.h — the server's log (the logging part of Redis's server.c):
 * serverLog writes "pid:role date time.ms <level mark> message" lines to
 * `logfile`, or to standard output when it is empty, for levels at or
 * above `loglevel`; with `syslog-enabled` each line also goes to syslog
 * (opened by the server at start-up, server_main.cpp), at the syslog
 * priority of its level.
 *
 * The log settings are fields of the global `server` (server.h), as in
 * Redis: redisServer derives from redisServerLog, so above this layer they
 * read server.verbosity, server.logfile; the log itself, below server.h,
 * reaches the same object as logging::server (bound in server.cpp).
 */
#pragma once

#include <sys/types.h>
#include <syslog.h>

#include <string>

/* Log levels, as Redis's. */
constexpr int LL_DEBUG = 0, LL_VERBOSE = 1, LL_NOTICE = 2, LL_WARNING = 3;
constexpr int LL_RAW = 1 << 10; /* log without timestamp */

/* The log's part of Redis's struct redisServer. */
struct redisServerLog {
    pid_t pid = 0;                    /* the main process: a forked child logs as role C */
    int verbosity = LL_NOTICE;        /* `loglevel` */
    std::string logfile;              /* `logfile`; "" = standard output */
    std::string masterhost;           /* replication's (server.h): "" on a master; a replica logs as role S */
    bool syslog_enabled = false;      /* `syslog-enabled` */
    std::string syslog_ident = "redis"; /* `syslog-ident`: openlog keeps pointing at it (immutable) */
    int syslog_facility = LOG_LOCAL0; /* `syslog-facility` */
};

namespace logging {
extern redisServerLog &server;
}

void serverLog(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
