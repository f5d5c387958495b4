// ae.h — the event loop (after Redis's ae.c / ae.h, Redis 2.6 design).
//
// One thread multiplexes every file descriptor through a backend (epoll, poll
// or kqueue, chosen at build time) and runs timers between polls. Invariants:
//  * File events live in a vector indexed by fd, sized `setsize`; an fd at or
//    beyond setsize is refused (errno ERANGE). `maxfd` is the highest fd with
//    a non-empty mask, or -1.
//  * Time events form an UNORDERED singly linked list; new events go to the
//    head. Finding the nearest deadline is a full walk: that is the design.
//  * Deleting a time event only marks it (id = AE_DELETED_EVENT_ID); the next
//    walk unlinks it and runs its finalizer exactly once. A node whose timeProc
//    is running has refcount > 0 and is never unlinked, so a proc may delete
//    itself.
//  * Deadlines (`when`) are CLOCK_MONOTONIC microseconds: a wall-clock jump can
//    neither fire a timer early nor starve it. Timers may run late, never early.
//    The backend sleeps until the nearest deadline to the microsecond (epoll
//    through epoll_pwait2, kqueue) or rounded up to the next millisecond
//    (poll, and epoll without epoll_pwait2: Linux < 5.11 or glibc < 2.35).
//  * For one fd ready both ways the read handler runs first, unless the
//    registration carries AE_BARRIER, in which case the write handler does.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "monotonic.h"  // monotime: the deadlines' clock

constexpr int AE_OK = 0, AE_ERR = -1;

constexpr int AE_NONE = 0, AE_READABLE = 1, AE_WRITABLE = 2,
              // With AE_WRITABLE: run the write handler before the read
              // handler, e.g. to fsync before replying to what was just read.
              AE_BARRIER = 4;

constexpr int AE_FILE_EVENTS = 1, AE_TIME_EVENTS = 2,
              AE_ALL_EVENTS = AE_FILE_EVENTS | AE_TIME_EVENTS,
              AE_DONT_WAIT = 4, AE_CALL_BEFORE_SLEEP = 8,
              AE_CALL_AFTER_SLEEP = 16;

constexpr int AE_NOMORE = -1;
constexpr long long AE_DELETED_EVENT_ID = -1;

struct aeEventLoop;

using aeFileProc = void (*)(aeEventLoop *el, int fd, void *clientData, int mask);
// Returns the milliseconds until the next run, or AE_NOMORE to be deleted.
using aeTimeProc = long long (*)(aeEventLoop *el, long long id, void *clientData);
using aeEventFinalizerProc = void (*)(aeEventLoop *el, void *clientData);
using aeBeforeSleepProc = void (*)(aeEventLoop *el);

// A registered file event. One clientData per fd, shared by both directions.
struct aeFileEvent {
    int mask = AE_NONE;  // AE_READABLE | AE_WRITABLE | AE_BARRIER
    aeFileProc rfileProc = nullptr;
    aeFileProc wfileProc = nullptr;
    void *clientData = nullptr;
};

// A time event: a node of the unordered list.
struct aeTimeEvent {
    long long id = 0;  // AE_DELETED_EVENT_ID once deleted
    monotime when = 0; // deadline, monotonic microseconds
    aeTimeProc timeProc = nullptr;
    aeEventFinalizerProc finalizerProc = nullptr;
    void *clientData = nullptr;
    std::unique_ptr<aeTimeEvent> next;
    int refcount = 0;  // > 0 while timeProc runs: the node must stay linked
};

// What the backend reports for one fd in one poll.
struct aeFiredEvent {
    int fd = -1;
    int mask = AE_NONE;
};

struct aeApiState;  // owned by the backend, defined in ae_<backend>.h

struct aeEventLoop {
    int maxfd = -1;
    int setsize = 0;
    long long timeEventNextId = 0;
    std::vector<aeFileEvent> events;  // indexed by fd
    std::vector<aeFiredEvent> fired;  // filled by aeApiPoll
    std::unique_ptr<aeTimeEvent> timeEventHead;
    int stop = 0;
    std::unique_ptr<aeApiState> apidata;
    aeBeforeSleepProc beforesleep = nullptr;
    aeBeforeSleepProc aftersleep = nullptr;
    int flags = 0;  // AE_DONT_WAIT, set by aeSetDontWait

    // Out of line: aeApiState is only complete inside ae.cpp.
    aeEventLoop();
    // Runs the finalizer of every time event still linked (pending or deleted
    // but not yet unlinked), so their clientData must outlive the loop.
    ~aeEventLoop();
    aeEventLoop(const aeEventLoop &) = delete;
    aeEventLoop &operator=(const aeEventLoop &) = delete;
};

std::unique_ptr<aeEventLoop> aeCreateEventLoop(int setsize);  // nullptr on failure
int aeCreateFileEvent(aeEventLoop *el, int fd, int mask, aeFileProc proc, void *clientData);
void aeDeleteFileEvent(aeEventLoop *el, int fd, int mask);
int aeGetFileEvents(aeEventLoop *el, int fd);
void *aeGetFileClientData(aeEventLoop *el, int fd);
long long aeCreateTimeEvent(aeEventLoop *el, long long milliseconds, aeTimeProc proc,
                            void *clientData, aeEventFinalizerProc finalizer);
// The same, due at `when` (getMonotonicUs's clock) rather than after a number
// of milliseconds: for a deadline that is not a whole number of milliseconds
// from now. Not in Redis, whose timers are all relative.
long long aeCreateTimeEventAt(aeEventLoop *el, monotime when, aeTimeProc proc,
                              void *clientData, aeEventFinalizerProc finalizer);
int aeDeleteTimeEvent(aeEventLoop *el, long long id);
int aeProcessEvents(aeEventLoop *el, int flags);  // number of events processed
void aeMain(aeEventLoop *el);
void aeStop(aeEventLoop *el);
void aeSetBeforeSleepProc(aeEventLoop *el, aeBeforeSleepProc beforesleep);
void aeSetAfterSleepProc(aeEventLoop *el, aeBeforeSleepProc aftersleep);
void aeSetDontWait(aeEventLoop *el, int noWait);
int aeGetSetSize(aeEventLoop *el);
int aeResizeSetSize(aeEventLoop *el, int setsize);
const char *aeGetApiName();
int aeWait(int fd, int mask, long long milliseconds);
