/* log.cpp — serverLog (Redis's serverLog, in server.c; see log.h). */
#include "log.h"

#include <sys/time.h>
#include <syslog.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <ctime>

/* The log sits below server.h: it sees its own part of the server. */
using logging::server;

/* Redis's log line: "pid:role day month year hh:mm:ss.mmm <level> message";
 * syslog gets the message alone (it stamps its own time and pid), as Redis
 * sends it, and only when the log file could be opened. */
static void serverLogRaw(int level, const char *msg) {
    static constexpr int syslog_priorities[] = {LOG_DEBUG, LOG_INFO, LOG_NOTICE, LOG_WARNING};
    static constexpr char marks[] = ".-*#";
    FILE *fp = server.logfile.empty() ? stdout : fopen(server.logfile.c_str(), "a");
    if (!fp) return;
    if (level & LL_RAW) {
        fprintf(fp, "%s", msg);
    } else {
        timeval tv;
        gettimeofday(&tv, nullptr);
        tm tm;
        localtime_r(&tv.tv_sec, &tm);
        char date[64];
        size_t off = strftime(date, sizeof(date), "%d %b %Y %H:%M:%S.", &tm);
        snprintf(date + off, sizeof(date) - off, "%03d", static_cast<int>(tv.tv_usec / 1000));
        /* The role, as Redis prints it: C a child the server forked, S a
         * replica, M a master. */
        char role = server.pid && getpid() != server.pid ? 'C' : !server.masterhost.empty() ? 'S' : 'M';
        fprintf(fp, "%d:%c %s %c %s\n", static_cast<int>(getpid()), role, date, marks[level & 0xff], msg);
    }
    fflush(fp);
    if (fp != stdout) fclose(fp);
    if (server.syslog_enabled) syslog(syslog_priorities[level & 0xff], "%s", msg);
}

void serverLog(int level, const char *fmt, ...) {
    if ((level & 0xff) < server.verbosity) return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    serverLogRaw(level, msg);
}
