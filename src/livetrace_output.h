/* livetrace_output.h — the live trace's outputs (cppredis's own; Redis has no
 * counterpart): the outputs of livetrace.h and their controls, the config
 * trace-events and the command TRACE.
 *
 *  - Live: CONFIG SET trace-events "block cmd" publishes each event of those
 *    categories as one human line (traceFormatText) on the pub/sub channel
 *    __trace__:<category>, so stock `redis-cli SUBSCRIBE __trace__:block` or
 *    `PSUBSCRIBE __trace__:*` watches it. Pub/sub rather than a MONITOR-like
 *    command: the reader filters by channel with the client it already has,
 *    and a slow reader is cut off by client-output-buffer-limit pubsub like
 *    any subscriber, so it never makes the server wait or grow unboundedly.
 *  - File: TRACE START <path> writes Chrome's Trace Event Format (JSON
 *    array), which Perfetto UI and chrome://tracing open as a timeline, and
 *    tools/trace_timeline.py draws as an SVG.
 *
 * Invariants:
 *  - Every client that received a live event carries CLIENT_TRACE_READER:
 *    its own commands and socket events are the trace's delivery.
 *  - At most one trace file is open. While it is, the file output is
 *    registered (traceSetOutput) and the bytes written plus buffered never
 *    exceed its MAXSIZE; when the next event would, a final event saying so
 *    and the closing `]` are written and the file closed. A failed write
 *    closes it too (logged), and the server carries on.
 *  - A file's track of a client (tid = client id + 1) is named by a
 *    metadata event before its first event.
 */
#pragma once

#include <span>
#include <string>

#include "config.h"

struct client;

/* trace-events: the categories published live ("" none, "all"). */
SetResult setTraceEvents(std::span<const std::string> args, std::string &err);
std::string getTraceEvents();

/* TRACE START|STOP|STATUS|HELP (the command table is in commands.cpp). */
void traceStartCommand(client *c);
void traceStopCommand(client *c);
void traceStatusCommand(client *c);
void traceHelpCommand(client *c);

/* prepareForShutdown: the trace file, if one is open, is completed and
 * closed. */
void stopTraceFileOnShutdown();
