// livetrace.h — the live trace (cppredis's own; Redis has no counterpart):
// named events at the points where Redis's mechanisms act (aeProcessEvents,
// beforeSleep, call, blockForKeys, signalKeyAsReady, an encoding
// conversion...), handed to the outputs that asked for their category.
// Redis's MONITOR shows commands only; this lets a learner watch the loop turn.
//
// Two outputs consume events (livetrace_output.cpp registers them): the live one,
// published on the pub/sub channels __trace__:<category> (CONFIG SET
// trace-events), and the file, Chrome's Trace Event Format (TRACE START).
// Invariants:
//  * Off costs one test per trace point: `traceOn(category)` reads one word,
//    trace_wanted, the union of the categories the outputs want. A point
//    builds its event only under that test.
//  * Events leave in the order they are emitted, each stamped with a
//    monotonic timestamp (µs since the server started) and the number of the
//    loop iteration it happened in.
//  * Delivering the trace must not feed the trace. Loop events of an
//    iteration are held back (staged) until something in it is work; one
//    that did nothing but write trace to its readers (all its events
//    marked quiet) is dropped whole. Events emitted while an output is
//    delivering are dropped too.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "monotonic.h"

enum traceCategory : uint32_t {
    TRACE_LOOP = 1u << 0,      // aeProcessEvents: iterations, beforeSleep, the wait, file/time events
    TRACE_CMD = 1u << 1,       // call(): each command, pipelined requests left waiting
    TRACE_BLOCK = 1u << 2,     // blockForKeys, signalKeyAsReady, serving, unblockClient
    TRACE_ENCODING = 1u << 3,  // ziplist -> linkedlist, listpack -> hashtable/skiplist, intset -> hashtable
    TRACE_DICT = 1u << 4,      // incremental rehashing starting and finishing
    TRACE_CRON = 1u << 5,      // serverCron's jobs: activeExpireCycle, clientsCron timeouts
    TRACE_CHILD = 1u << 6,     // fork()ed children: BGSAVE, AOF rewrite
    TRACE_ALL = (1u << 7) - 1,
};

// The categories some output wants. Written only by traceSetOutput.
extern uint32_t trace_wanted;

[[gnu::always_inline]] inline bool traceOn(uint32_t category) {
    return __builtin_expect((trace_wanted & category) != 0, 0);
}

// "loop", "cmd"... for one category bit.
const char *traceCategoryName(uint32_t category);
// "loop cmd" (spaces or commas), "all", or "" into a mask. On an unknown
// name returns false and puts the name in *bad.
bool traceParseCategories(std::string_view spec, uint32_t *mask, std::string *bad);
// The mask back as "loop cmd ..." in the canonical order ("" for none).
std::string traceCategoriesString(uint32_t mask);

// Chrome Trace Event Format's phases: the file output writes them as they
// are; the live output prints begin/instant/complete events as lines.
enum class tracePhase : char {
    instant = 'i',
    begin = 'B',       // a slice opens on the loop's track...
    end = 'E',         // ...and closes (nested slices close first)
    complete = 'X',    // a slice with its duration, emitted when it ends
    asyncBegin = 'b',  // a span not nested in the loop's slices (a blocked
    asyncEnd = 'e',    //   client), matched by id
    flowStart = 's',   // an arrow from one slice (the command that signalled
    flowEnd = 'f',     //   a key) to another (the client it served), by id
};

struct traceField {
    std::string key;
    bool is_num = false;
    long long num = 0;
    std::string str;
};

struct traceRecord {
    uint32_t category = 0;
    const char *name = "";
    tracePhase phase = tracePhase::instant;
    monotime ts = 0;    // µs since the server started
    monotime dur = 0;   // complete events: how long
    long long iteration = 0;
    uint64_t client = 0;  // the client's track; 0: the event loop's
    uint64_t id = 0;      // async span / flow id
    bool quiet = false;   // a loop event that is not work in itself
    std::vector<traceField> fields;
};

// µs since the server started, on the monotonic clock.
monotime traceNow();

// The loop's iteration counter (aeProcessEvents bumps it, traced or not).
extern long long trace_iteration;

// Builds one event and emits it. Used only under traceOn():
//   if (traceOn(TRACE_BLOCK))
//       traceEvent(TRACE_BLOCK, "blockForKeys").client(c->id).str("keys", k).emit();
class traceEvent {
public:
    traceEvent(uint32_t category, const char *name, tracePhase phase = tracePhase::instant);
    traceEvent &client(uint64_t id);
    traceEvent &id(uint64_t id);
    // A complete event that started at `start` (a traceNow() value) and ends now.
    traceEvent &since(monotime start);
    traceEvent &quiet(bool q = true);
    traceEvent &num(std::string_view key, long long v);
    traceEvent &str(std::string_view key, std::string_view v);
    void emit();

private:
    traceRecord r_;
};

// The iteration's bracket (aeProcessEvents): Begin opens the staging of
// quiet loop events, End delivers the iteration's end, or drops the staged
// events of an iteration in which nothing but quiet events happened.
void traceIterationBegin();
void traceIterationEnd(int processed);

// The outputs. Each wants some categories and gets every event of them.
enum traceOutputSlot { TRACE_OUTPUT_LIVE = 0, TRACE_OUTPUT_FILE = 1, TRACE_OUTPUTS };
using traceOutputProc = void (*)(const traceRecord &r);
// categories 0 (or proc nullptr) removes the output.
void traceSetOutput(traceOutputSlot slot, uint32_t categories, traceOutputProc proc);
uint32_t traceOutputCategories(traceOutputSlot slot);

// The human line the live output publishes and the docs quote:
//   "12.345678 #57 block blockForKeys client=3 keys=q type=list timeout=0"
// (an end event without fields prints nothing: returns "").
std::string traceFormatText(const traceRecord &r);

// Names for the functions the loop calls through pointers, so a file or time
// event says "readQueryFromClient" and not an address.
void traceNameProc(const void *proc, const char *name);
const char *traceProcName(const void *proc);

// Who owns an fd, for the loop's file events: the client id (0: none, e.g.
// the listening socket) and whether it is a trace reader, whose socket
// events are the trace's own delivery and so not traced. Set by networking.
using traceFdOwnerProc = uint64_t (*)(int fd, bool *trace_reader);
void traceSetFdOwner(traceFdOwnerProc proc);
uint64_t traceFdOwner(int fd, bool *trace_reader);

// The handler a file event's proc stands for, for its name: a connection's
// event handler (connection.cpp) runs the connection's read or write
// handler, which names the event. Set by the connection layer.
using traceFileProcResolverProc = const void *(*)(const void *proc, void *clientData, int mask);
void traceSetFileProcResolver(traceFileProcResolverProc proc);
const void *traceResolveFileProc(const void *proc, void *clientData, int mask);
