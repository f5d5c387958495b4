// ae_poll.h — the portable poll(2) backend of the event loop: cppredis's own
// (Redis's portable fallback is ae_select.c; poll has no FD_SETSIZE limit),
// included by ae.cpp only.
//
// The pollfd array is indexed by fd, like the loop's own events table: slot fd
// has .fd == fd while something is registered and .fd == -1 otherwise, which
// poll() skips. Each poll passes slots 0..maxfd, so the cost is O(maxfd): the
// reason epoll and kqueue exist. No kernel object is held, so nothing to close.
#pragma once

#include <poll.h>
#include <sys/time.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "ae.h"

struct aeApiState {
    std::vector<pollfd> fds;  // indexed by fd
};

static pollfd aeApiEmptySlot() { return pollfd{-1, 0, 0}; }

static int aeApiCreate(aeEventLoop *el) {
    auto state = std::make_unique<aeApiState>();
    state->fds.assign(el->setsize, aeApiEmptySlot());
    el->apidata = std::move(state);
    return 0;
}

static int aeApiResize(aeEventLoop *el, int setsize) {
    el->apidata->fds.resize(setsize, aeApiEmptySlot());
    return 0;
}

static void aeApiFree(aeEventLoop *el) { el->apidata.reset(); }

static int aeApiAddEvent(aeEventLoop *el, int fd, int mask) {
    pollfd &p = el->apidata->fds[fd];
    p.fd = fd;
    if (mask & AE_READABLE) p.events |= POLLIN;
    if (mask & AE_WRITABLE) p.events |= POLLOUT;
    return 0;
}

static void aeApiDelEvent(aeEventLoop *el, int fd, int delmask) {
    pollfd &p = el->apidata->fds[fd];
    if (delmask & AE_READABLE) p.events &= ~POLLIN;
    if (delmask & AE_WRITABLE) p.events &= ~POLLOUT;
    if (p.events == 0) p = aeApiEmptySlot();
}

// Milliseconds for poll(), rounded UP so a timer due in 0.4 ms does not turn
// into a busy loop of zero-timeout polls; -1 waits forever.
static int aeApiTimeoutMs(const struct timeval *tvp) {
    if (tvp == nullptr) return -1;
    long long ms = (long long)tvp->tv_sec * 1000 + (tvp->tv_usec + 999) / 1000;
    return ms > INT_MAX ? INT_MAX : (int)ms;
}

static int aeApiFiredMask(short revents) {
    int mask = AE_NONE;
    if (revents & POLLIN) mask |= AE_READABLE;
    if (revents & POLLOUT) mask |= AE_WRITABLE;
    // Errors, hangups and fds closed while registered (POLLNVAL) wake both
    // handlers, so the owner sees the failure instead of poll() spinning.
    if (revents & (POLLERR | POLLHUP | POLLNVAL)) mask |= AE_READABLE | AE_WRITABLE;
    return mask;
}

static int aeApiPoll(aeEventLoop *el, struct timeval *tvp) {
    std::vector<pollfd> &fds = el->apidata->fds;
    nfds_t nfds = (nfds_t)(el->maxfd + 1);
    int retval = poll(fds.data(), nfds, aeApiTimeoutMs(tvp));
    if (retval == -1) {
        if (errno == EINTR) return 0;
        perror("aeApiPoll: poll");  // a bug in the loop, not a load problem
        abort();
    }
    int numevents = 0;
    for (nfds_t j = 0; j < nfds && numevents < retval; j++) {
        if (fds[j].fd == -1 || fds[j].revents == 0) continue;
        el->fired[numevents++] = {fds[j].fd, aeApiFiredMask(fds[j].revents)};
    }
    return numevents;
}

static const char *aeApiName() { return "poll"; }
