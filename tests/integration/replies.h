/* replies.h — the RESP2 bytes integration tests expect, in one place, so a
 * test reads as the reply it wants (`integer(3)`, `bulks({"a", "b"})`,
 * `WRONGTYPE`) and every suite spells Redis's error texts the same way.
 *
 * Each error text here is Redis 7.0's, byte for byte; a suite adds the
 * errors only it needs next to its tests. */
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "integration/harness.h"

namespace itest {

inline const std::string OK = "+OK\r\n";
inline const std::string QUEUED = "+QUEUED\r\n";    /* a command inside MULTI */
inline const std::string NIL = "$-1\r\n";              /* null bulk */
inline const std::string NIL_ARRAY = "*-1\r\n";        /* null array */
inline const std::string EMPTY_ARRAY = "*0\r\n";
inline const std::string SYNTAX = "-ERR syntax error\r\n";
inline const std::string NOT_INT = "-ERR value is not an integer or out of range\r\n";
inline const std::string NOT_FLOAT = "-ERR value is not a valid float\r\n";
inline const std::string WRONGTYPE = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
inline const std::string NO_KEY = "-ERR no such key\r\n";
inline const std::string OUT_OF_RANGE = "-ERR index out of range\r\n";
inline const std::string NOT_POSITIVE = "-ERR value is out of range, must be positive\r\n";
/* What protected mode sends a peer that is not 127.0.0.1 or ::1 before it
 * closes the connection. */
inline const std::string PROTECTED_MODE_DENIED =
    "-DENIED Redis is running in protected mode because protected mode is enabled and no password is set "
    "for the default user. In this mode connections are only accepted from the loopback interface. If you "
    "want to connect from external computers to Redis you may adopt one of the following solutions: "
    "1) Just disable protected mode sending the command 'CONFIG SET protected-mode no' from the loopback "
    "interface by connecting to Redis from the same host the server is running, however MAKE SURE Redis is "
    "not publicly accessible from internet if you do so. Use CONFIG REWRITE to make this change permanent. "
    "2) Alternatively you can just disable the protected mode by editing the Redis configuration file, and "
    "setting the protected mode option to 'no', and then restarting the server. 3) If you started the "
    "server manually just for testing, restart it with the '--protected-mode no' option. 4) Setup a an "
    "authentication password for the default user. NOTE: You only need to do one of the above things in "
    "order for the server to start accepting connections from the outside.\r\n";

inline std::string bulk(std::string_view s) {
    return "$" + std::to_string(s.size()) + "\r\n" + std::string(s) + "\r\n";
}
inline std::string integer(long long n) { return ":" + std::to_string(n) + "\r\n"; }
inline std::string err(std::string_view text) { return "-" + std::string(text) + "\r\n"; }
inline std::string arityErr(std::string_view cmd) {
    return err("ERR wrong number of arguments for '" + std::string(cmd) + "' command");
}
/* SET's EX/PX/EXAT/PXAT and the EXPIRE family: a time out of range. */
inline std::string expireTimeErr(std::string_view cmd) {
    return err("ERR invalid expire time in '" + std::string(cmd) + "' command");
}
/* An array of already-encoded replies. */
inline std::string array(const std::vector<std::string> &items) {
    std::string out = "*" + std::to_string(items.size()) + "\r\n";
    for (const std::string &item : items) out += item;
    return out;
}
/* An array of bulk strings. */
inline std::string bulks(const std::vector<std::string> &values) {
    std::vector<std::string> items;
    for (const std::string &v : values) items.push_back(bulk(v));
    return array(items);
}

/* HSCAN/SSCAN/ZSCAN of a missing key: cursor 0, no elements. */
inline const std::string EMPTY_SCAN = array({bulk("0"), EMPTY_ARRAY});

/* An AOF (or any reply bytes) with each run of exactly 13 digits — unix
 * milliseconds of "now", 2001 to 2286, which differ between two runs:
 * "*" IDs, delivery times — replaced by "<ms>". */
inline std::string maskUnixMs(const std::string &aof) {
    std::string out;
    for (size_t i = 0; i < aof.size();) {
        size_t j = i;
        while (j < aof.size() && isdigit(static_cast<unsigned char>(aof[j]))) j++;
        if (j - i == 13) out += "<ms>";
        else out.append(aof, i, std::max(j, i + 1) - i);
        i = std::max(j, i + 1);
    }
    return out;
}

/* A request, printable in a failure message. */
inline std::string describe(const Args &args) {
    std::string s;
    for (const std::string &a : args) s += escape(a, 60) + " ";
    return s;
}

}  // namespace itest
