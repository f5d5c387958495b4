// ae_epoll.h — the Linux epoll backend of the event loop (Redis's ae_epoll.c),
// included by ae.cpp only, as Redis includes ae_epoll.c.
//
// Level-triggered: an fd that stays ready is reported again on the next poll,
// so an event the loop does not get to handle this iteration is never lost.
// The kernel keeps the interest set; the loop's events[fd].mask mirrors it and
// is still the OLD mask when aeApiAddEvent/aeApiDelEvent run, which is how
// they choose between ADD, MOD and DEL. The epoll fd is closed by ~aeApiState.
#pragma once

#include <sys/epoll.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "ae.h"

// epoll_pwait2 (Linux 5.11, glibc 2.35) takes its timeout as a timespec, so
// the loop can sleep until a timer's deadline to the microsecond; epoll_wait
// takes whole milliseconds, and rounding up to the next one makes every timer
// up to a millisecond late. Without the declaration, epoll_wait alone.
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
#define AE_HAVE_EPOLL_PWAIT2 true
#else
#define AE_HAVE_EPOLL_PWAIT2 false
#endif

struct aeApiState {
    int epfd = -1;
    std::vector<epoll_event> events;  // epoll_wait's output buffer, setsize long
    // Whether epoll_pwait2 may be tried; cleared the first time the kernel
    // says it does not have it, so the check costs one failed call per loop.
    bool pwait2 = AE_HAVE_EPOLL_PWAIT2;

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

// Waits as long as tvp says, to the microsecond where the kernel can. A
// kernel older than 5.11 answers ENOSYS; a seccomp filter that does not know
// the call (older container runtimes) may answer EPERM instead. Either way
// epoll_pwait2 is not tried again and this wait, like all later ones, goes
// through epoll_wait.
static int aeApiWait(aeApiState *state, const struct timeval *tvp) {
    int maxevents = (int)state->events.size();
#if AE_HAVE_EPOLL_PWAIT2
    if (state->pwait2) {
        struct timespec ts;
        if (tvp != nullptr) {
            ts.tv_sec = tvp->tv_sec;
            ts.tv_nsec = (long)tvp->tv_usec * 1000;
        }
        int retval = epoll_pwait2(state->epfd, state->events.data(), maxevents,
                                  tvp != nullptr ? &ts : nullptr, nullptr);
        if (retval != -1 || (errno != ENOSYS && errno != EPERM)) return retval;
        state->pwait2 = false;
    }
#endif
    return epoll_wait(state->epfd, state->events.data(), maxevents, aeApiTimeoutMs(tvp));
}

static int aeApiPoll(aeEventLoop *el, struct timeval *tvp) {
    aeApiState *state = el->apidata.get();
    int retval = aeApiWait(state, tvp);
    if (retval == -1) {
        if (errno == EINTR) return 0;
        // A bug in the loop, not a load problem.
        perror(state->pwait2 ? "aeApiPoll: epoll_pwait2" : "aeApiPoll: epoll_wait");
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
