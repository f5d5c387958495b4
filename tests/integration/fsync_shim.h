/* fsync_shim.h — the tests' side of the LD_PRELOAD shim
 * build/libfsync_shim.so (tests/fault/fsync_shim.cpp), for the suites that
 * preload it into a server (fsync_test.cpp, aof_crash_test.cpp): its event
 * log read back as Events, its control file written whole (fault and stop
 * rules), a server of either kind started under it with its AOF in a
 * directory of the test's, and that directory's multi-part AOF (Redis 7's
 * appendonlydir: a manifest naming a base file and incr files).
 *
 * The including object must be built with CPPREDIS_FSYNC_SHIM and
 * CPPREDIS_ASAN_RUNTIME defined (the Makefile does, for these suites).
 */
#pragma once

#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "integration/harness.h"

#ifndef CPPREDIS_FSYNC_SHIM
#error "CPPREDIS_FSYNC_SHIM must name the shim library (the Makefile defines it)"
#endif

namespace itest {

/* ========================================================================
 * The shim: its event log and control file
 * ====================================================================== */

/* One line of the event log (see fsync_shim.cpp); a stop rule's line has
 * op "stop" and the call it stopped in `call`. */
struct Event {
    std::string op, err, path, from, to, call;
    long long pid = 0, tid = 0, ino = 0, size = 0, ret = 0;

    bool isSync() const { return op == "fsync" || op == "fdatasync"; }
    bool ok() const { return ret != -1; }
};

inline Event parseEvent(const std::string &line) {
    std::istringstream in(line);
    Event e;
    in >> e.op;
    std::map<std::string, std::string> kv;
    for (std::string word; in >> word;) {
        size_t eq = word.find('=');
        if (eq != std::string::npos) kv[word.substr(0, eq)] = word.substr(eq + 1);
    }
    auto num = [&](const char *key) { return kv.count(key) ? std::stoll(kv[key]) : 0; };
    e.pid = num("pid"), e.tid = num("tid"), e.ino = num("ino"), e.size = num("size"), e.ret = num("ret");
    e.err = kv["err"], e.path = kv["path"], e.from = kv["from"], e.to = kv["to"], e.call = kv["call"];
    return e;
}

/* The event log and the control file of one server, in a directory apart
 * from the server's own (whose fsyncs the tests count). */
class Shim {
public:
    Shim() { inject(""); }

    /* LD_PRELOAD and the shim's variables; the sanitized cppredis needs
     * ASan's runtime first. */
    std::vector<std::string> env(ServerImpl impl) const {
        std::string preload = CPPREDIS_FSYNC_SHIM;
        if (impl == ServerImpl::Cppredis && sanitizedBuild()) preload = std::string(CPPREDIS_ASAN_RUNTIME) + " " + preload;
        return {"LD_PRELOAD=" + preload, "FSYNC_SHIM_LOG=" + files_.file("events.log"),
                "FSYNC_SHIM_CTL=" + files_.file("control")};
    }

    /* Replaces the rules (one per line: "<op> <ERRNO> <path> [max-size]" or
     * "stop <op> <path>"); by a rename, so the server never reads half a
     * file. */
    void inject(const std::string &rules) {
        writeFile(files_.file("control.new"), rules);
        std::filesystem::rename(files_.file("control.new"), files_.file("control"));
    }
    void clear() { inject(""); }

    std::vector<Event> events() const {
        std::vector<Event> out;
        std::istringstream in(readFile(files_.file("events.log")));
        for (std::string line; std::getline(in, line);) out.push_back(parseEvent(line));
        return out;
    }

    /* The first stop a stop rule made, once the process it froze is
     * stopped (state T); nullopt if none within `wait`. */
    std::optional<Event> awaitStop(Ms wait = kDefaultTimeout) const;

private:
    TempDir files_;
};

/* The state letter of /proc/<pid>/stat ('T' stopped, 'Z' zombie ...), or
 * 0 if there is no such process. */
inline char processState(pid_t pid) {
    std::string stat = readFile("/proc/" + std::to_string(pid) + "/stat");
    size_t paren = stat.rfind(')'); /* the command name may hold spaces */
    return paren == std::string::npos || paren + 2 >= stat.size() ? 0 : stat[paren + 2];
}

inline std::optional<Event> Shim::awaitStop(Ms wait) const {
    std::optional<Event> stop;
    bool frozen = pollUntil([&] {
        if (!stop)
            for (const Event &e : events())
                if (e.op == "stop") {
                    stop = e;
                    break;
                }
        return stop && processState(static_cast<pid_t>(stop->pid)) == 'T';
    }, wait);
    return frozen ? stop : std::nullopt;
}

inline long long inode(const std::string &path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0 ? static_cast<long long>(st.st_ino) : -1;
}

inline long long fileSize(const std::string &path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0 ? static_cast<long long>(st.st_size) : -1;
}

/* The largest size of `ino` that a successful fsync made durable among
 * events[0, end); -1 if none. */
inline long long durableSize(const std::vector<Event> &events, long long ino, size_t end) {
    long long durable = -1;
    for (size_t i = 0; i < end && i < events.size(); i++)
        if (events[i].isSync() && events[i].ok() && events[i].ino == ino) durable = std::max(durable, events[i].size);
    return durable;
}

/* ========================================================================
 * The server and its files
 * ====================================================================== */

inline ServerImpl otherImpl(ServerImpl impl) {
    return impl == ServerImpl::Redis ? ServerImpl::Cppredis : ServerImpl::Redis;
}
inline const char *implName(ServerImpl impl) { return impl == ServerImpl::Redis ? "Redis 7.0.15" : "cppredis"; }

/* The arguments of a server (cppredis or Redis 7.0.15) with its AOF in
 * `dir` under appendfsync `fsync`, then `extra`. */
inline ServerOptions aofServerOptions(ServerImpl impl, const std::string &dir, const std::string &fsync,
                                      const std::vector<std::string> &extra = {}) {
    ServerOptions opts;
    opts.args = {"--dir", dir, "--appendonly", "yes", "--appendfsync", fsync, "--save", ""};
    opts.args.insert(opts.args.end(), extra.begin(), extra.end());
    if (impl == ServerImpl::Redis) opts.binary = RedisReference::kBinary;
    return opts;
}

/* That server started, under `shim` if given. */
inline std::unique_ptr<TestServer> startAofServer(ServerImpl impl, const std::string &dir, const std::string &fsync,
                                                  const Shim *shim, const std::vector<std::string> &extra = {}) {
    ServerOptions opts = aofServerOptions(impl, dir, fsync, extra);
    if (shim) opts.env = shim->env(impl);
    return std::make_unique<TestServer>(opts);
}

/* The manifest of the multi-part AOF in `dir` (appendonlydir/
 * appendonly.aof.manifest): its base file, incr files and history files,
 * by name, in its order. Empty if there is none. */
struct AofManifest {
    std::string text;
    std::string base;
    std::vector<std::string> incrs, history;
};

inline std::string aofDirPath(const std::string &dir) {
    return (std::filesystem::weakly_canonical(dir) / "appendonlydir").string();
}

inline AofManifest readManifest(const std::string &dir) {
    AofManifest m;
    m.text = readFile(aofDirPath(dir) + "/appendonly.aof.manifest");
    std::istringstream in(m.text);
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::map<std::string, std::string> kv;
        for (std::string key, value; words >> key >> value;) kv[key] = value;
        if (kv["type"] == "b") m.base = kv["file"];
        if (kv["type"] == "i") m.incrs.push_back(kv["file"]);
        if (kv["type"] == "h") m.history.push_back(kv["file"]);
    }
    return m;
}

/* The file the server appends commands to, as an absolute path without
 * symlinks (as the shim reports it): the last incr file of the manifest,
 * or, with no appendonlydir, the single appendonly.aof of Redis ≤ 6.2. */
inline std::string aofFile(const std::string &dir) {
    AofManifest m = readManifest(dir);
    if (!m.incrs.empty()) return aofDirPath(dir) + "/" + m.incrs.back();
    return (std::filesystem::canonical(dir) / "appendonly.aof").string();
}

/* The first event at or after `from` that `match` accepts: its index, or
 * events.size(). */
template <typename Match>
size_t findEvent(const std::vector<Event> &events, Match match, size_t from = 0) {
    for (size_t i = from; i < events.size(); i++)
        if (match(events[i])) return i;
    return events.size();
}

}  // namespace itest
