/* anet.h — thin wrappers over the socket calls the server needs (Redis's anet.c).
 *
 * Every function returns ANET_OK / ANET_ERR and, on error, fills `err` with a
 * message fit for the log. Sockets returned are owned by the caller.
 */
#pragma once

#include <sys/types.h>

#include <string>

constexpr int ANET_OK = 0, ANET_ERR = -1;

int anetNonBlock(std::string &err, int fd);
int anetEnableTcpNoDelay(std::string &err, int fd);
int anetKeepAlive(std::string &err, int fd, int interval);
/* Listens on addr:port (IPv4 or IPv6 literal, "*" / "::*" for any). */
int anetTcpServer(std::string &err, int port, const std::string &addr, int backlog);
/* A non-blocking connect to host:port (Redis's anetTcpNonBlockConnect): the
 * socket, its connection in progress (writable once established, or with
 * SO_ERROR set), or ANET_ERR. */
int anetTcpNonBlockConnect(std::string &err, const std::string &host, int port);
/* Accepts one connection; ANET_ERR with errno EAGAIN when none is pending. */
int anetTcpAccept(std::string &err, int serversock, std::string &ip, int &port);
/* Listens at the unix socket `path` (Redis's anetUnixServer), its file
 * given mode `perm` unless perm is 0 (then the umask decides). A file
 * already at `path` makes it fail: the caller removes a stale one first. */
int anetUnixServer(std::string &err, const std::string &path, mode_t perm, int backlog);
/* Accepts one connection on a unix socket; ANET_ERR with errno EAGAIN when
 * none is pending. */
int anetUnixAccept(std::string &err, int serversock);
/* "ip:port" of the peer (remote = true) or of the local side. */
std::string anetFdToString(int fd, bool remote);
