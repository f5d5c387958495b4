// ae.cpp — the event loop (after Redis's ae.c, Redis 2.6 design).
//
// One iteration (aeProcessEvents): beforesleep, wait in the backend at most
// until the nearest time event, aftersleep, run the fired file events, then
// walk the time events. Invariants, beyond those in ae.h:
//  * The time-event list is unordered: the nearest deadline and the due
//    events are both found by walking all of it.
//  * A walk runs only events that existed when it started (id <= maxId), so a
//    proc that schedules a 0 ms timer cannot keep one walk going forever.
//    Head insertion plus a walk that only moves forward already puts new
//    events behind it; the guard keeps that true for any walk that starts
//    over from the head (Redis 2.6 restarted after every fired event).
//  * Unlinking happens only in the walk, and never to a node whose proc is on
//    the stack (refcount > 0); everything else just marks the node deleted.
//  * Handlers may add/delete events or resize the loop at any point, so the
//    dispatch code re-reads events[fd] after every call instead of holding a
//    reference across it.
#include "ae.h"

#include <poll.h>
#include <sys/time.h>
#include <time.h>

#include <cerrno>
#include <climits>

#include "livetrace.h"

// The backend is fixed at build time (the Makefile passes the macro); with
// none given, pick the best one the platform has, as Redis's config.h does.
#if defined(AE_BACKEND_EPOLL)
#include "ae_epoll.h"
#elif defined(AE_BACKEND_KQUEUE)
#include "ae_kqueue.h"
#elif defined(AE_BACKEND_POLL)
#include "ae_poll.h"
#elif defined(__linux__)
#include "ae_epoll.h"
#elif defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) || defined(__NetBSD__)
#include "ae_kqueue.h"
#else
#include "ae_poll.h"
#endif

// ---------------------------------------------------------------- the loop

aeEventLoop::aeEventLoop() = default;

// Every time event still linked gets its finalizer now, so "the finalizer runs
// exactly once" holds even for events that never fired; finalizers usually
// free clientData. The list is popped iteratively: recursive unique_ptr
// destruction of a long list could overflow the stack.
aeEventLoop::~aeEventLoop() {
    while (timeEventHead) {
        std::unique_ptr<aeTimeEvent> te = std::move(timeEventHead);
        timeEventHead = std::move(te->next);
        if (te->finalizerProc) te->finalizerProc(this, te->clientData);
    }
    aeApiFree(this);  // after the finalizers, which may still touch file events
}

std::unique_ptr<aeEventLoop> aeCreateEventLoop(int setsize) {
    if (setsize <= 0) return nullptr;
    auto el = std::make_unique<aeEventLoop>();
    el->setsize = setsize;
    el->events.resize(setsize);
    el->fired.resize(setsize);
    if (aeApiCreate(el.get()) == -1) return nullptr;
    return el;
}

int aeGetSetSize(aeEventLoop *el) { return el->setsize; }

// Refused while an fd at or above the new size is registered: it would fall
// off the table. New slots start as AE_NONE.
int aeResizeSetSize(aeEventLoop *el, int setsize) {
    if (setsize <= 0) return AE_ERR;
    if (setsize == el->setsize) return AE_OK;
    if (el->maxfd >= setsize) return AE_ERR;
    if (aeApiResize(el, setsize) == -1) return AE_ERR;
    el->events.resize(setsize);
    el->fired.resize(setsize);
    el->setsize = setsize;
    return AE_OK;
}

void aeStop(aeEventLoop *el) { el->stop = 1; }

// Persistent until cleared, as in Redis 7: beforeSleep sets it while it knows
// there is work left that the next iteration must not sleep on.
void aeSetDontWait(aeEventLoop *el, int noWait) {
    if (noWait)
        el->flags |= AE_DONT_WAIT;
    else
        el->flags &= ~AE_DONT_WAIT;
}

void aeSetBeforeSleepProc(aeEventLoop *el, aeBeforeSleepProc beforesleep) {
    el->beforesleep = beforesleep;
}

void aeSetAfterSleepProc(aeEventLoop *el, aeBeforeSleepProc aftersleep) {
    el->aftersleep = aftersleep;
}

const char *aeGetApiName() { return aeApiName(); }

// ---------------------------------------------------------------- file events

static bool aeFdInRange(const aeEventLoop *el, int fd) {
    return fd >= 0 && fd < el->setsize;
}

int aeCreateFileEvent(aeEventLoop *el, int fd, int mask, aeFileProc proc, void *clientData) {
    if (!aeFdInRange(el, fd)) {
        errno = ERANGE;
        return AE_ERR;
    }
    // Nothing to wait for would still count the fd in maxfd.
    if ((mask & (AE_READABLE | AE_WRITABLE)) == AE_NONE) {
        errno = EINVAL;
        return AE_ERR;
    }
    if (aeApiAddEvent(el, fd, mask) == -1) return AE_ERR;
    aeFileEvent &fe = el->events[fd];
    fe.mask |= mask;
    if (mask & AE_READABLE) fe.rfileProc = proc;
    if (mask & AE_WRITABLE) fe.wfileProc = proc;
    fe.clientData = clientData;
    if (fd > el->maxfd) el->maxfd = fd;
    return AE_OK;
}

void aeDeleteFileEvent(aeEventLoop *el, int fd, int mask) {
    if (!aeFdInRange(el, fd)) return;
    aeFileEvent &fe = el->events[fd];
    if (fe.mask == AE_NONE) return;
    // The barrier only means something for a write handler: it goes with it.
    if (mask & AE_WRITABLE) mask |= AE_BARRIER;
    aeApiDelEvent(el, fd, mask);  // sees the old mask, as the backends expect
    fe.mask &= ~mask;
    // A lone AE_BARRIER would keep the slot "in use" with nothing to wait for.
    if ((fe.mask & (AE_READABLE | AE_WRITABLE)) == AE_NONE) fe.mask = AE_NONE;
    if (fd == el->maxfd && fe.mask == AE_NONE) {
        int j = el->maxfd - 1;
        while (j >= 0 && el->events[j].mask == AE_NONE) j--;
        el->maxfd = j;
    }
}

int aeGetFileEvents(aeEventLoop *el, int fd) {
    return aeFdInRange(el, fd) ? el->events[fd].mask : AE_NONE;
}

void *aeGetFileClientData(aeEventLoop *el, int fd) {
    return aeFdInRange(el, fd) ? el->events[fd].clientData : nullptr;
}

// One handler call, traced as a slice named after the handler. A trace
// reader's socket events are the trace's own delivery: not traced (an
// iteration with nothing else then holds only quiet events, and is dropped).
static void aeCallFileProc(aeEventLoop *el, int fd, aeFileProc proc, void *clientData, int firedMask) {
    bool reader = false;
    uint64_t owner = traceOn(TRACE_LOOP) ? traceFdOwner(fd, &reader) : 0;
    if (!traceOn(TRACE_LOOP) || reader) {
        proc(el, fd, clientData, firedMask);
        return;
    }
    const char *name = traceProcName(traceResolveFileProc(reinterpret_cast<const void *>(proc), clientData, firedMask));
    traceEvent ev(TRACE_LOOP, name, tracePhase::begin);
    ev.num("fd", fd);
    if (owner) ev.num("client", (long long)owner);
    ev.str("mask", firedMask & AE_READABLE ? (firedMask & AE_WRITABLE ? "readable|writable" : "readable")
                                          : "writable")
        .emit();
    proc(el, fd, clientData, firedMask);
    traceEvent(TRACE_LOOP, name, tracePhase::end).emit();
}

// Runs the handlers of one fired fd. Read goes first so a reply produced by
// this very read can be written in the same iteration; AE_BARRIER inverts
// that. A proc registered for both directions runs once, with both bits.
static void aeDispatchFileEvent(aeEventLoop *el, int fd, int firedMask) {
    auto live = [el, fd]() -> aeFileEvent * {  // a handler may resize events
        return aeFdInRange(el, fd) ? &el->events[fd] : nullptr;
    };
    aeFileEvent *fe = live();
    if (fe == nullptr) return;
    int calls = 0;
    bool invert = fe->mask & AE_BARRIER;

    if (!invert && (fe->mask & firedMask & AE_READABLE)) {
        aeCallFileProc(el, fd, fe->rfileProc, fe->clientData, firedMask);
        calls++;
    }
    fe = live();
    if (fe && (fe->mask & firedMask & AE_WRITABLE) && (!calls || fe->wfileProc != fe->rfileProc)) {
        aeCallFileProc(el, fd, fe->wfileProc, fe->clientData, firedMask);
        calls++;
    }
    fe = live();
    if (invert && fe && (fe->mask & firedMask & AE_READABLE) &&
        (!calls || fe->wfileProc != fe->rfileProc)) {
        aeCallFileProc(el, fd, fe->rfileProc, fe->clientData, firedMask);
        calls++;
    }
}

// ---------------------------------------------------------------- time events

// The deadline `ms` from now. Negative means "now"; absurdly large values are
// capped (about 34 years) so the unsigned sum cannot wrap into the past. The
// clock truncates to the microsecond, so "now" may be up to 1 us in the past:
// a positive delay gets +1 us, otherwise a timer could fire a fraction of a
// microsecond before `ms` has really elapsed. 0 ms stays due at once.
static monotime aeDeadlineAfterMs(long long ms) {
    constexpr long long maxMs = 1LL << 40;
    monotime now = getMonotonicUs();
    if (ms <= 0) return now;
    if (ms > maxMs) ms = maxMs;
    return now + 1 + (monotime)ms * 1000;
}

long long aeCreateTimeEvent(aeEventLoop *el, long long milliseconds, aeTimeProc proc,
                            void *clientData, aeEventFinalizerProc finalizer) {
    return aeCreateTimeEventAt(el, aeDeadlineAfterMs(milliseconds), proc, clientData, finalizer);
}

long long aeCreateTimeEventAt(aeEventLoop *el, monotime when, aeTimeProc proc,
                              void *clientData, aeEventFinalizerProc finalizer) {
    auto te = std::make_unique<aeTimeEvent>();
    te->id = el->timeEventNextId++;
    te->when = when;
    te->timeProc = proc;
    te->finalizerProc = finalizer;
    te->clientData = clientData;
    te->next = std::move(el->timeEventHead);
    el->timeEventHead = std::move(te);
    return el->timeEventHead->id;
}

// Only marks the node: the walk that may be running right now holds pointers
// into the list, so the unlink waits for the next walk.
int aeDeleteTimeEvent(aeEventLoop *el, long long id) {
    if (id == AE_DELETED_EVENT_ID) return AE_ERR;
    for (aeTimeEvent *te = el->timeEventHead.get(); te; te = te->next.get()) {
        if (te->id == id) {
            te->id = AE_DELETED_EVENT_ID;
            return AE_OK;
        }
    }
    return AE_ERR;
}

// The live event with the earliest deadline, or nullptr. A full walk, because
// the list is unordered.
static const aeTimeEvent *earliestTimer(aeEventLoop *el) {
    const aeTimeEvent *earliest = nullptr;
    for (const aeTimeEvent *te = el->timeEventHead.get(); te; te = te->next.get()) {
        if (te->id == AE_DELETED_EVENT_ID) continue;
        if (earliest == nullptr || te->when < earliest->when) earliest = te;
    }
    return earliest;
}

// Microseconds until the earliest live deadline: 0 if one is overdue, -1 if
// there are none.
static int64_t usUntilEarliestTimer(aeEventLoop *el) {
    const aeTimeEvent *earliest = earliestTimer(el);
    if (earliest == nullptr) return -1;
    monotime now = getMonotonicUs();
    return earliest->when > now ? (int64_t)(earliest->when - now) : 0;
}

// Detaches the node held by *link, runs its finalizer and frees it. The link
// is repointed before the finalizer runs, so a finalizer that creates or
// deletes time events sees a consistent list.
static void aeUnlinkTimeEvent(aeEventLoop *el, std::unique_ptr<aeTimeEvent> *link) {
    std::unique_ptr<aeTimeEvent> dead = std::move(*link);
    *link = std::move(dead->next);
    if (dead->finalizerProc) dead->finalizerProc(el, dead->clientData);
}

// Runs te's proc and applies its verdict. The deadline counts from after the
// proc returns, so a slow proc cannot make its next run come early.
static void aeRunTimeEvent(aeEventLoop *el, aeTimeEvent *te) {
    const long long id = te->id;
    const char *name = traceOn(TRACE_LOOP) ? traceProcName(reinterpret_cast<const void *>(te->timeProc)) : "";
    if (traceOn(TRACE_LOOP)) {
        monotime now = getMonotonicUs();
        traceEvent(TRACE_LOOP, name, tracePhase::begin)
            .num("time_event", id)
            .num("late_us", now > te->when ? (long long)(now - te->when) : 0)
            .emit();
    }
    te->refcount++;  // pins te: a nested walk must not unlink it under us
    long long retval = te->timeProc(el, te->id, te->clientData);
    te->refcount--;
    if (retval == AE_NOMORE)
        te->id = AE_DELETED_EVENT_ID;
    else
        te->when = aeDeadlineAfterMs(retval);
    if (traceOn(TRACE_LOOP)) {
        traceEvent ev(TRACE_LOOP, name, tracePhase::end);
        if (retval == AE_NOMORE)
            ev.str("returned", "AE_NOMORE").str("then", "deleted").emit();
        else
            ev.num("returned_ms", retval).emit();
    }
}

// One `now` for the whole walk: due-ness is a snapshot, so an event can run in
// an earlier walk than another only if its deadline is no later (refreshing
// `now` mid-walk would let a later deadline jump ahead of an earlier one that
// was visited first). A rescheduled deadline still counts from a fresh clock.
static int processTimeEvents(aeEventLoop *el) {
    int processed = 0;
    long long maxId = el->timeEventNextId - 1;  // events created below wait
    const monotime now = getMonotonicUs();
    std::unique_ptr<aeTimeEvent> *link = &el->timeEventHead;

    while (*link) {
        aeTimeEvent *te = link->get();
        if (te->id == AE_DELETED_EVENT_ID) {
            if (te->refcount == 0) {
                aeUnlinkTimeEvent(el, link);  // *link is now the next node
                continue;
            }
        } else if (te->id <= maxId && te->refcount == 0 && te->when <= now) {
            aeRunTimeEvent(el, te);
            processed++;
        }
        // Step through te, not through link: the proc may have pushed new
        // heads, so *link may no longer be te; te itself is still linked.
        link = &te->next;
    }
    return processed;
}

// ---------------------------------------------------------------- the driver

// Fills tv with how long the backend may block; returns nullptr for "forever".
static struct timeval *aeComputeWait(aeEventLoop *el, int flags, struct timeval *tv) {
    int64_t us = -1;
    if ((flags & AE_DONT_WAIT) || (el->flags & AE_DONT_WAIT))
        us = 0;
    else if (flags & AE_TIME_EVENTS)
        us = usUntilEarliestTimer(el);
    if (us < 0) return nullptr;
    tv->tv_sec = (time_t)(us / 1000000);
    tv->tv_usec = (suseconds_t)(us % 1000000);
    return tv;
}

// The wait as a slice: what bounded it (AE_DONT_WAIT because work is
// pending, the nearest time event, or nothing: forever), how long it really
// slept, and how many fds fired. Quiet: waiting is not work.
static void traceWait(aeEventLoop *el, int flags, const struct timeval *tv, monotime start, int numevents) {
    traceEvent ev(TRACE_LOOP, "aeApiPoll");
    ev.since(start).quiet().str("backend", aeApiName());
    if (tv == nullptr) {
        ev.num("timeout_us", -1).str("why", "forever");
    } else {
        ev.num("timeout_us", (long long)tv->tv_sec * 1000000 + tv->tv_usec);
        const aeTimeEvent *te = earliestTimer(el);
        if ((flags & AE_DONT_WAIT) || (el->flags & AE_DONT_WAIT))
            ev.str("why", "AE_DONT_WAIT");
        else if (te)
            ev.str("why", "time_event").num("time_event", te->id)
                .str("proc", traceProcName(reinterpret_cast<const void *>(te->timeProc)));
    }
    ev.num("fired", numevents).emit();
}

int aeProcessEvents(aeEventLoop *el, int flags) {
    if (!(flags & (AE_FILE_EVENTS | AE_TIME_EVENTS))) return 0;
    int processed = 0;
    trace_iteration++;
    if (traceOn(TRACE_LOOP)) traceIterationBegin();

    // With no fd registered we still sleep in the backend, as the way to wait
    // for the next timer -- unless told not to wait, then there is no point.
    if (el->maxfd != -1 || ((flags & AE_TIME_EVENTS) && !(flags & AE_DONT_WAIT))) {
        // beforesleep first: it may add timers or call aeSetDontWait, and the
        // wait below must account for that.
        if (el->beforesleep && (flags & AE_CALL_BEFORE_SLEEP)) el->beforesleep(el);

        struct timeval tv;
        struct timeval *wait = aeComputeWait(el, flags, &tv);
        monotime pollStart = traceOn(TRACE_LOOP) ? traceNow() : 0;
        int numevents = aeApiPoll(el, wait);
        if (traceOn(TRACE_LOOP)) traceWait(el, flags, wait, pollStart, numevents);

        if (el->aftersleep && (flags & AE_CALL_AFTER_SLEEP)) el->aftersleep(el);

        // A handler may shrink the loop (aeResizeSetSize) and with it fired;
        // entries past the end are dropped, and come back next poll since
        // every backend is level-triggered.
        if (!(flags & AE_FILE_EVENTS)) numevents = 0;
        for (int j = 0; j < numevents && j < (int)el->fired.size(); j++) {
            aeFiredEvent fe = el->fired[j];
            aeDispatchFileEvent(el, fe.fd, fe.mask);
            processed++;
        }
    }
    if (flags & AE_TIME_EVENTS) processed += processTimeEvents(el);
    if (traceOn(TRACE_LOOP)) traceIterationEnd(processed);
    return processed;
}

void aeMain(aeEventLoop *el) {
    el->stop = 0;
    while (!el->stop)
        aeProcessEvents(el, AE_ALL_EVENTS | AE_CALL_BEFORE_SLEEP | AE_CALL_AFTER_SLEEP);
}

// Blocks on one fd outside the loop (e.g. a synchronous connect). Returns the
// ready mask, 0 on timeout, -1 on error. An error or hangup reports writable,
// so a writer notices and its write() returns the failure.
int aeWait(int fd, int mask, long long milliseconds) {
    struct pollfd pfd{};
    pfd.fd = fd;
    if (mask & AE_READABLE) pfd.events |= POLLIN;
    if (mask & AE_WRITABLE) pfd.events |= POLLOUT;
    int timeout = milliseconds < 0 ? -1 : (milliseconds > INT_MAX ? INT_MAX : (int)milliseconds);

    int retval = poll(&pfd, 1, timeout);
    if (retval != 1) return retval;
    int retmask = AE_NONE;
    if (pfd.revents & POLLIN) retmask |= AE_READABLE;
    if (pfd.revents & POLLOUT) retmask |= AE_WRITABLE;
    if (pfd.revents & (POLLERR | POLLHUP)) retmask |= AE_WRITABLE;
    return retmask;
}
