// ae_epoll.h — Linux epoll backend of the ae event loop (included by ae.cpp
// only, as Redis includes ae_epoll.c).
//
// Level-triggered: an fd that stays ready is reported again on the next poll,
// so an event the loop does not get to handle this iteration is never lost.
// The kernel keeps the interest set; the loop's events[fd].mask mirrors it and
// is still the OLD mask when aeApiAddEvent/aeApiDelEvent run, which is how
// they choose between ADD, MOD and DEL. The epoll fd is closed by ~aeApiState.
#pragma once

#include <sys/epoll.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "ae.h"

struct aeApiState {
    int epfd = -1;
    std::vector<epoll_event> events;  // epoll_wait's output buffer, setsize long

    aeApiState() = default;
    aeApiState(const aeApiState &) = delete;
    aeApiState &operator=(const aeApiState &) = delete;
    ~aeApiState() {
        if (epfd != -1) close(epfd);
    }
};

static int aeApiCreate(aeEventLoop *el) {
    auto state = std::make_unique<aeApiState>();
    state->epfd = epoll_create1(EPOLL_CLOEXEC);  // children must not inherit it
    if (state->epfd == -1) return -1;
    state->events.resize(el->setsize);
    el->apidata = std::move(state);
    return 0;
}

static int aeApiResize(aeEventLoop *el, int setsize) {
    el->apidata->events.resize(setsize);
    return 0;
}

static void aeApiFree(aeEventLoop *el) { el->apidata.reset(); }

static uint32_t aeApiEpollMask(int mask) {
    uint32_t events = 0;
    if (mask & AE_READABLE) events |= EPOLLIN;
    if (mask & AE_WRITABLE) events |= EPOLLOUT;
    return events;
}

static int aeApiAddEvent(aeEventLoop *el, int fd, int mask) {
    int old = el->events[fd].mask & (AE_READABLE | AE_WRITABLE);
    epoll_event ee{};
    ee.events = aeApiEpollMask(old | mask);
    ee.data.fd = fd;
    int op = old == AE_NONE ? EPOLL_CTL_ADD : EPOLL_CTL_MOD;
    if (epoll_ctl(el->apidata->epfd, op, fd, &ee) == 0) return 0;
    // The fd was closed while still registered (closing drops it from the
    // epoll set) and the number reused: register it afresh.
    if (op == EPOLL_CTL_MOD && errno == ENOENT &&
        epoll_ctl(el->apidata->epfd, EPOLL_CTL_ADD, fd, &ee) == 0)
        return 0;
    return -1;
}

static void aeApiDelEvent(aeEventLoop *el, int fd, int delmask) {
    int mask = el->events[fd].mask & ~delmask & (AE_READABLE | AE_WRITABLE);
    epoll_event ee{};
    ee.events = aeApiEpollMask(mask);
    ee.data.fd = fd;
    // Errors are ignored: the fd may already be closed, which removed it.
    epoll_ctl(el->apidata->epfd, mask != AE_NONE ? EPOLL_CTL_MOD : EPOLL_CTL_DEL, fd, &ee);
}

// Milliseconds for epoll_wait, rounded UP so a timer due in 0.4 ms does not
// turn into a busy loop of zero-timeout polls; -1 waits forever.
static int aeApiTimeoutMs(const struct timeval *tvp) {
    if (tvp == nullptr) return -1;
    long long ms = (long long)tvp->tv_sec * 1000 + (tvp->tv_usec + 999) / 1000;
    return ms > INT_MAX ? INT_MAX : (int)ms;
}

static int aeApiPoll(aeEventLoop *el, struct timeval *tvp) {
    aeApiState *state = el->apidata.get();
    int retval = epoll_wait(state->epfd, state->events.data(), (int)state->events.size(),
                            aeApiTimeoutMs(tvp));
    if (retval == -1) {
        if (errno == EINTR) return 0;
        perror("aeApiPoll: epoll_wait");  // a bug in the loop, not a load problem
        abort();
    }
    for (int j = 0; j < retval; j++) {
        const epoll_event &e = state->events[j];
        int mask = AE_NONE;
        if (e.events & EPOLLIN) mask |= AE_READABLE;
        if (e.events & EPOLLOUT) mask |= AE_WRITABLE;
        // Errors and hangups wake both handlers: whichever is registered
        // will see the failure in its read()/write() and close the client.
        if (e.events & (EPOLLERR | EPOLLHUP)) mask |= AE_READABLE | AE_WRITABLE;
        el->fired[j] = {e.data.fd, mask};
    }
    return retval;
}

static const char *aeApiName() { return "epoll"; }
