/* tracing.cpp — the live trace's outputs (trace-events on pub/sub, the
 * Chrome Trace Event Format file) and the TRACE command. See tracing.h for
 * the design and the invariants.
 */
#include "tracing.h"

#include "networking.h"
#include "pubsub.h"
#include "trace.h"

/* ========================================================================
 * Live: pub/sub channels __trace__:<category>
 * ====================================================================== */

static void markTraceReader(client *c) { c->flags |= CLIENT_TRACE_READER; }

static void publishTraceRecord(const traceRecord &r) {
    static std::string channel; /* reused: its capacity stays */
    std::string line = traceFormatText(r);
    if (line.empty()) return;
    channel.assign("__trace__:");
    channel += traceCategoryName(r.category);
    pubsubPublishMessageVisit(channel, line, markTraceReader);
}

SetResult setTraceEvents(std::span<const std::string> args, std::string &err) {
    uint32_t mask;
    std::string bad;
    if (!traceParseCategories(args[0], &mask, &bad)) {
        err = "Invalid trace category '" + bad + "'. Use 'all' or some of '" + traceCategoriesString(TRACE_ALL) + "'.";
        return SetResult::Error;
    }
    if (mask == traceOutputCategories(TRACE_OUTPUT_LIVE)) return SetResult::Unchanged;
    traceSetOutput(TRACE_OUTPUT_LIVE, mask, mask ? publishTraceRecord : nullptr);
    return SetResult::Changed;
}

std::string getTraceEvents() { return traceCategoriesString(traceOutputCategories(TRACE_OUTPUT_LIVE)); }
