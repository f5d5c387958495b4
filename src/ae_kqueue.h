// ae_kqueue.h — the BSD/macOS kqueue backend (Redis's ae_kqueue.c) of the
// event loop, included by ae.cpp only, as Redis includes ae_kqueue.c.
//
// kqueue reports reading and writing as two separate filters, so one fd ready
// both ways comes back as two kevents. They are merged into ONE fired entry
// per fd (through eventsMask), otherwise the loop would run the two handlers
// as two unrelated events and AE_BARRIER's write-before-read order would be
// lost. The kqueue fd is closed by ~aeApiState.
#pragma once

#include <sys/types.h>
#include <sys/event.h>
#include <sys/time.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "ae.h"

struct aeApiState {
    int kqfd = -1;
    std::vector<struct kevent> events;  // kevent's output buffer, setsize long
    std::vector<unsigned char> eventsMask;  // per fd, merges one poll's filters

    aeApiState() = default;
    aeApiState(const aeApiState &) = delete;
    aeApiState &operator=(const aeApiState &) = delete;
    ~aeApiState() {
        if (kqfd != -1) close(kqfd);
    }
};

static int aeApiCreate(aeEventLoop *el) {
    auto state = std::make_unique<aeApiState>();
    state->kqfd = kqueue();
    if (state->kqfd == -1) return -1;
    fcntl(state->kqfd, F_SETFD, FD_CLOEXEC);  // children must not inherit it
    state->events.resize(el->setsize);
    state->eventsMask.assign(el->setsize, 0);
    el->apidata = std::move(state);
    return 0;
}

static int aeApiResize(aeEventLoop *el, int setsize) {
    el->apidata->events.resize(setsize);
    el->apidata->eventsMask.resize(setsize, 0);
    return 0;
}

static void aeApiFree(aeEventLoop *el) { el->apidata.reset(); }

static int aeApiChange(int kqfd, int fd, short filter, unsigned short flags) {
    struct kevent ke;
    EV_SET(&ke, fd, filter, flags, 0, 0, 0);
    return kevent(kqfd, &ke, 1, nullptr, 0, nullptr);
}

static int aeApiAddEvent(aeEventLoop *el, int fd, int mask) {
    int kqfd = el->apidata->kqfd;
    if ((mask & AE_READABLE) && aeApiChange(kqfd, fd, EVFILT_READ, EV_ADD) == -1) return -1;
    if ((mask & AE_WRITABLE) && aeApiChange(kqfd, fd, EVFILT_WRITE, EV_ADD) == -1) return -1;
    return 0;
}

static void aeApiDelEvent(aeEventLoop *el, int fd, int delmask) {
    int kqfd = el->apidata->kqfd;
    // Errors are ignored: the fd may already be closed, which removed it.
    if (delmask & AE_READABLE) aeApiChange(kqfd, fd, EVFILT_READ, EV_DELETE);
    if (delmask & AE_WRITABLE) aeApiChange(kqfd, fd, EVFILT_WRITE, EV_DELETE);
}

static int aeApiFilterMask(const struct kevent &e) {
    if (e.filter == EVFILT_READ) return AE_READABLE;
    if (e.filter == EVFILT_WRITE) return AE_WRITABLE;
    return AE_NONE;
}

static int aeApiPoll(aeEventLoop *el, struct timeval *tvp) {
    aeApiState *state = el->apidata.get();
    struct timespec timeout;
    struct timespec *tsp = nullptr;  // nullptr waits forever
    if (tvp != nullptr) {
        timeout.tv_sec = tvp->tv_sec;
        timeout.tv_nsec = (long)tvp->tv_usec * 1000;
        tsp = &timeout;
    }
    int retval = kevent(state->kqfd, nullptr, 0, state->events.data(),
                        (int)state->events.size(), tsp);
    if (retval == -1) {
        if (errno == EINTR) return 0;
        perror("aeApiPoll: kevent");  // a bug in the loop, not a load problem
        abort();
    }
    // First pass: gather each fd's filters; second: emit one entry per fd, in
    // the order its first kevent came back.
    for (int j = 0; j < retval; j++) {
        const struct kevent &e = state->events[j];
        state->eventsMask[e.ident] |= (unsigned char)aeApiFilterMask(e);
    }
    int numevents = 0;
    for (int j = 0; j < retval; j++) {
        int fd = (int)state->events[j].ident;
        int mask = state->eventsMask[fd];
        if (mask == AE_NONE) continue;  // already emitted
        el->fired[numevents++] = {fd, mask};
        state->eventsMask[fd] = 0;
    }
    return numevents;
}

static const char *aeApiName() { return "kqueue"; }
