// livetrace.cpp — the live trace (cppredis's own; Redis has no counterpart):
// building events and handing them to the outputs, with the iteration
// staging that keeps the trace's own delivery out of the trace (livetrace.h
// states the invariants).
#include "livetrace.h"

#include <cstdio>
#include <utility>

#include "util.h"

uint32_t trace_wanted = 0;
long long trace_iteration = 0;

namespace {

struct traceOutput {
    uint32_t categories = 0;
    traceOutputProc proc = nullptr;
};

traceOutput outputs[TRACE_OUTPUTS];

// The loop events of the current iteration not yet known to be work.
std::vector<traceRecord> staged;
bool staging = false;         // inside an iteration whose events are still all quiet
bool iteration_open = false;  // its begin was emitted: its end must be too
bool delivering = false;

constexpr const char *categoryNames[] = {"loop", "cmd", "block", "encoding", "dict", "cron", "child"};
constexpr int categoryCount = sizeof(categoryNames) / sizeof(categoryNames[0]);
static_assert((1u << categoryCount) - 1 == TRACE_ALL);

struct namedProc {
    const void *proc;
    const char *name;
};
std::vector<namedProc> procNames;
traceFdOwnerProc fdOwner = nullptr;
traceFileProcResolverProc fileProcResolver = nullptr;

const monotime traceEpoch = getMonotonicUs();

void deliver(const traceRecord &r) {
    delivering = true;
    for (const traceOutput &o : outputs)
        if (o.categories & r.category) o.proc(r);
    delivering = false;
}

void flushStaged() {
    staging = false;
    for (const traceRecord &r : staged) deliver(r);
    staged.clear();
}

}  // namespace

monotime traceNow() { return getMonotonicUs() - traceEpoch; }

const char *traceCategoryName(uint32_t category) {
    for (int i = 0; i < categoryCount; i++)
        if (category == (1u << i)) return categoryNames[i];
    return "?";
}

bool traceParseCategories(std::string_view spec, uint32_t *mask, std::string *bad) {
    uint32_t m = 0;
    size_t pos = 0;
    while (pos < spec.size()) {
        size_t end = spec.find_first_of(" ,", pos);
        if (end == std::string_view::npos) end = spec.size();
        std::string_view word = spec.substr(pos, end - pos);
        pos = end + 1;
        if (word.empty()) continue;
        if (word == "all") {
            m |= TRACE_ALL;
            continue;
        }
        int i = 0;
        while (i < categoryCount && word != categoryNames[i]) i++;
        if (i == categoryCount) {
            *bad = word;
            return false;
        }
        m |= 1u << i;
    }
    *mask = m;
    return true;
}

std::string traceCategoriesString(uint32_t mask) {
    std::string s;
    for (int i = 0; i < categoryCount; i++) {
        if (!(mask & (1u << i))) continue;
        if (!s.empty()) s += ' ';
        s += categoryNames[i];
    }
    return s;
}

// ---------------------------------------------------------------- events

traceEvent::traceEvent(uint32_t category, const char *name, tracePhase phase) {
    r_.category = category;
    r_.name = name;
    r_.phase = phase;
    r_.ts = traceNow();
    r_.iteration = trace_iteration;
    r_.fields.reserve(8); /* one allocation: the points have a handful */
}

traceEvent &traceEvent::client(uint64_t id) {
    r_.client = id;
    return *this;
}

traceEvent &traceEvent::id(uint64_t id) {
    r_.id = id;
    return *this;
}

traceEvent &traceEvent::since(monotime start) {
    r_.phase = tracePhase::complete;
    r_.dur = r_.ts > start ? r_.ts - start : 0;
    r_.ts = start;
    return *this;
}

traceEvent &traceEvent::quiet(bool q) {
    r_.quiet = q;
    return *this;
}

traceEvent &traceEvent::num(std::string_view key, long long v) {
    r_.fields.push_back({std::string(key), true, v, {}});
    return *this;
}

traceEvent &traceEvent::str(std::string_view key, std::string_view v) {
    r_.fields.push_back({std::string(key), false, 0, std::string(v)});
    return *this;
}

void traceEvent::emit() {
    if (delivering) return;
    if (staging && r_.category == TRACE_LOOP && r_.quiet) {
        staged.push_back(std::move(r_));
        return;
    }
    if (staging) flushStaged();
    deliver(r_);
}

void traceIterationBegin() {
    staged.clear();
    staging = true;
    iteration_open = true;
    traceEvent(TRACE_LOOP, "aeProcessEvents", tracePhase::begin).quiet().num("iteration", trace_iteration).emit();
}

void traceIterationEnd(int processed) {
    if (!iteration_open) return;  // tracing started during this iteration
    iteration_open = false;
    if (staging) {  // nothing but the trace's own delivery: as if it never ran
        staged.clear();
        staging = false;
        return;
    }
    traceEvent(TRACE_LOOP, "aeProcessEvents", tracePhase::end).num("processed", processed).emit();
}

// ---------------------------------------------------------------- outputs

void traceSetOutput(traceOutputSlot slot, uint32_t categories, traceOutputProc proc) {
    outputs[slot] = proc ? traceOutput{categories, proc} : traceOutput{};
    trace_wanted = 0;
    for (const traceOutput &o : outputs) trace_wanted |= o.categories;
    if (!(trace_wanted & TRACE_LOOP)) {  // no iteration is open any more
        staged.clear();
        staging = false;
        iteration_open = false;
    }
}

uint32_t traceOutputCategories(traceOutputSlot slot) { return outputs[slot].categories; }

static bool printable(char ch) { return ch > 32 && ch < 127 && ch != '"' && ch != '\\' && ch != '='; }

// A value a reader can tell the end of, on one line: bare when it is only
// printable bytes, else quoted with escapes as redis-cli shows strings.
static void appendValue(std::string &line, std::string_view v) {
    bool bare = !v.empty();
    for (char ch : v) bare = bare && printable(ch);
    if (bare)
        line += v;
    else
        catRepr(line, v);
}

static void appendField(std::string &line, const traceField &f) {
    line += ' ';
    line += f.key;
    line += '=';
    if (f.is_num)
        line += std::to_string(f.num);
    else
        appendValue(line, f.str);
}

std::string traceFormatText(const traceRecord &r) {
    if (r.phase == tracePhase::end && r.fields.empty()) return {};
    char head[96];
    snprintf(head, sizeof(head), "%llu.%06llu #%lld %s %s", (unsigned long long)(r.ts / 1000000),
             (unsigned long long)(r.ts % 1000000), r.iteration, traceCategoryName(r.category), r.name);
    std::string line = head;
    if (r.phase == tracePhase::end) line += " end";
    if (r.client) line += " client=" + std::to_string(r.client);
    for (const traceField &f : r.fields) appendField(line, f);
    if (r.phase == tracePhase::complete) line += " us=" + std::to_string(r.dur);
    return line;
}

// ---------------------------------------------------------------- names

void traceNameProc(const void *proc, const char *name) { procNames.push_back({proc, name}); }

const char *traceProcName(const void *proc) {
    for (const namedProc &n : procNames)
        if (n.proc == proc) return n.name;
    return "?";
}

void traceSetFdOwner(traceFdOwnerProc proc) { fdOwner = proc; }

uint64_t traceFdOwner(int fd, bool *trace_reader) {
    *trace_reader = false;
    return fdOwner ? fdOwner(fd, trace_reader) : 0;
}

void traceSetFileProcResolver(traceFileProcResolverProc proc) { fileProcResolver = proc; }

const void *traceResolveFileProc(const void *proc, void *clientData, int mask) {
    return fileProcResolver ? fileProcResolver(proc, clientData, mask) : proc;
}
