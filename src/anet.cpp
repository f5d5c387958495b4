/* anet.cpp — socket helpers (Redis's anet.c): listen, accept, and
 * per-connection options.
 *
 * Listening sockets are non-blocking with SO_REUSEADDR; IPv6 sockets are
 * IPV6_V6ONLY so "127.0.0.1 ::1" can both be bound on one port, as Redis does.
 * A unix socket listens at a path of the file system: the file stays after
 * its socket is closed, so whoever listens there removes it when done.
 */
#include "anet.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static int anetSetError(std::string &err, const char *what) {
    err = std::string(what) + ": " + strerror(errno);
    return ANET_ERR;
}

int anetNonBlock(std::string &err, int fd) {
    int flags = fcntl(fd, F_GETFL);
    if (flags == -1 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) == -1)
        return anetSetError(err, "fcntl(O_NONBLOCK)");
    return ANET_OK;
}

int anetEnableTcpNoDelay(std::string &err, int fd) {
    int yes = 1;
    if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes)) == -1)
        return anetSetError(err, "setsockopt TCP_NODELAY");
    return ANET_OK;
}

int anetKeepAlive(std::string &err, int fd, int interval) {
    int yes = 1;
    if (setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &yes, sizeof(yes)) == -1)
        return anetSetError(err, "setsockopt SO_KEEPALIVE");
#ifdef __linux__
    /* Probe after `interval` idle seconds, then every interval/3, 3 times:
     * a dead peer is detected after about 2 * interval, as in Redis. */
    int idle = interval, intvl = interval / 3 ? interval / 3 : 1, cnt = 3;
    if (setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle)) == -1 ||
        setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl)) == -1 ||
        setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt)) == -1)
        return anetSetError(err, "setsockopt TCP_KEEP*");
#endif
    return ANET_OK;
}

/* The TCP addresses of host:port (a null host with AI_PASSIVE: any), or
 * null with getaddrinfo's error in `err`. The caller frees the list. */
static addrinfo *anetResolveTcp(std::string &err, const char *host, int port, int family, int flags) {
    addrinfo hints{}, *res = nullptr;
    hints.ai_family = family;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = flags;
    std::string portstr = std::to_string(port);
    if (int rv = getaddrinfo(host, portstr.c_str(), &hints, &res); rv != 0) {
        err = gai_strerror(rv);
        return nullptr;
    }
    return res;
}

int anetTcpServer(std::string &err, int port, const std::string &addr, int backlog) {
    bool v6 = addr.find(':') != std::string::npos;
    const char *host = (addr == "*" || addr == "::*") ? nullptr : addr.c_str();
    addrinfo *res = anetResolveTcp(err, host, port, v6 ? AF_INET6 : AF_INET, AI_PASSIVE);
    if (!res) return ANET_ERR;
    int s = -1;
    for (addrinfo *p = res; p; p = p->ai_next) {
        s = socket(p->ai_family, p->ai_socktype, p->ai_protocol);
        if (s == -1) continue;
        int yes = 1;
        setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
        if (v6) setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &yes, sizeof(yes));
        if (bind(s, p->ai_addr, p->ai_addrlen) == -1 || listen(s, backlog) == -1) {
            anetSetError(err, "bind/listen");
            close(s);
            s = -1;
            continue;
        }
        break;
    }
    if (s == -1 && err.empty()) anetSetError(err, "socket");
    freeaddrinfo(res);
    if (s != -1 && anetNonBlock(err, s) == ANET_ERR) {
        close(s);
        return ANET_ERR;
    }
    return s == -1 ? ANET_ERR : s;
}

int anetUnixServer(std::string &err, const std::string &path, mode_t perm, int backlog) {
    sockaddr_un sa{};
    if (path.size() > sizeof(sa.sun_path) - 1) {
        err = "unix socket path too long (" + std::to_string(path.size()) + "), must be under " +
              std::to_string(sizeof(sa.sun_path));
        return ANET_ERR;
    }
    sa.sun_family = AF_UNIX;
    path.copy(sa.sun_path, path.size());
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    if (s == -1) return anetSetError(err, "creating socket");
    /* The mode is set before listen(), so no client connects through a
     * file more open than configured. (Redis ignores a failed chmod; here
     * it fails the listener: a socket left open to everyone is worse than none.) */
    if (bind(s, reinterpret_cast<sockaddr *>(&sa), sizeof(sa)) == -1) {
        anetSetError(err, "bind");
        close(s);
        return ANET_ERR;
    }
    /* Past bind() the file is ours: a failure removes it. */
    auto fail = [&](const char *what) {
        if (what) anetSetError(err, what);
        unlink(sa.sun_path);
        close(s);
        return ANET_ERR;
    };
    if (perm && chmod(sa.sun_path, perm) == -1) return fail("chmod");
    if (listen(s, backlog) == -1) return fail("listen");
    if (anetNonBlock(err, s) == ANET_ERR) return fail(nullptr);
    return s;
}

int anetTcpNonBlockConnect(std::string &err, const std::string &host, int port) {
    addrinfo *res = anetResolveTcp(err, host.c_str(), port, AF_UNSPEC, 0);
    if (!res) return ANET_ERR;
    int s = -1;
    for (addrinfo *p = res; p; p = p->ai_next) {
        s = socket(p->ai_family, p->ai_socktype, p->ai_protocol);
        if (s == -1) continue;
        if (anetNonBlock(err, s) == ANET_ERR ||
            (connect(s, p->ai_addr, p->ai_addrlen) == -1 && errno != EINPROGRESS)) {
            if (err.empty()) anetSetError(err, "connect");
            close(s);
            s = -1;
            continue;
        }
        err.clear();
        break;
    }
    if (s == -1 && err.empty()) anetSetError(err, "socket");
    freeaddrinfo(res);
    return s == -1 ? ANET_ERR : s;
}

static std::string anetFormatAddr(const sockaddr_storage &sa, int *port) {
    char ip[INET6_ADDRSTRLEN] = "?";
    if (sa.ss_family == AF_INET) {
        auto *s = reinterpret_cast<const sockaddr_in *>(&sa);
        inet_ntop(AF_INET, &s->sin_addr, ip, sizeof(ip));
        *port = ntohs(s->sin_port);
    } else if (sa.ss_family == AF_INET6) {
        auto *s = reinterpret_cast<const sockaddr_in6 *>(&sa);
        inet_ntop(AF_INET6, &s->sin6_addr, ip, sizeof(ip));
        *port = ntohs(s->sin6_port);
    }
    return ip;
}

/* accept(), retried when a signal interrupts it. */
static int anetGenericAccept(std::string &err, int serversock, sockaddr *sa, socklen_t *len) {
    int fd;
    do {
        fd = accept(serversock, sa, len);
    } while (fd == -1 && errno == EINTR);
    if (fd == -1) return anetSetError(err, "accept");
    return fd;
}

int anetTcpAccept(std::string &err, int serversock, std::string &ip, int &port) {
    sockaddr_storage sa{};
    socklen_t salen = sizeof(sa);
    int fd = anetGenericAccept(err, serversock, reinterpret_cast<sockaddr *>(&sa), &salen);
    if (fd != ANET_ERR) ip = anetFormatAddr(sa, &port);
    return fd;
}

int anetUnixAccept(std::string &err, int serversock) {
    return anetGenericAccept(err, serversock, nullptr, nullptr);
}

std::string anetFdToString(int fd, bool remote) {
    sockaddr_storage sa{};
    socklen_t salen = sizeof(sa);
    int rc = remote ? getpeername(fd, reinterpret_cast<sockaddr *>(&sa), &salen)
                    : getsockname(fd, reinterpret_cast<sockaddr *>(&sa), &salen);
    if (rc == -1) return "?:0";
    int port = 0;
    std::string ip = anetFormatAddr(sa, &port);
    if (sa.ss_family == AF_INET6) return "[" + ip + "]:" + std::to_string(port);
    return ip + ":" + std::to_string(port);
}
