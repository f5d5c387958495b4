#!/usr/bin/env python3
"""trace_timeline.py - draw a cppredis trace file as a static timeline.

Reads the file TRACE START writes (Chrome's Trace Event Format, JSON array
form; a file without its final `]`, from a server that died or is still
tracing, is read too) and writes a standalone SVG, or an HTML page around
it, for slides and docs. Python 3's standard library only, no network.

    tools/trace_timeline.py trace.json                   # -> trace.svg
    tools/trace_timeline.py trace.json -o t.html --html --from 1200000 --to 1250000

What it draws, one row per track (the event loop, then each client):
  * slices (B/E pairs and X events) stacked by nesting depth, named;
  * instants as small marks, async spans (a blocked client) as bars, both in
    a lane under the track's slices;
  * flow events (a key signalled -> the client it served) as arrows;
  * a time axis in ms since the server started.
Hovering a slice or mark in a browser shows its name and args.
"""

import argparse
import html
import json
import sys
from collections import defaultdict

ROW_H = 18          # one nesting level
LABEL_W = 150       # the track names' column
AXIS_H = 30
MARGIN = 10
CHAR_W = 6.2        # average width of one character at font-size 11
PALETTE = ["#8fb8de", "#f4a582", "#a6d96a", "#fdd96a", "#c2a5cf", "#80cdc1",
           "#f1b6da", "#bababa", "#fee08b", "#b8e186"]


def load_events(path):
    """The file's events; a missing `]` or a trailing comma is tolerated."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = json.loads(text.rstrip().rstrip(",") + "\n]")
    if isinstance(data, dict):
        data = data.get("traceEvents", [])
    return [e for e in data if isinstance(e, dict)]


class Track:
    def __init__(self, tid):
        self.tid = tid
        self.name = "thread %s" % tid
        self.slices = []    # [start, end, name, args, depth]
        self.marks = []     # (ts, name, args)
        self.spans = []     # (start, end, name)
        self.depth = 0      # nesting levels used by slices

    def lanes(self):
        return self.depth + (1 if self.marks or self.spans else 0) or 1


def build(events):
    """Tracks by tid and the flow arrows, from the raw events."""
    tracks = {}
    track = lambda tid: tracks.setdefault(tid, Track(tid))
    open_slices = defaultdict(list)    # tid -> stack of B events
    open_spans = {}                    # (cat, name, id) -> (ts, tid)
    flow_starts = {}
    flows = []                         # (ts0, tid0, ts1, tid1)
    end_ts = 0
    for e in sorted((e for e in events if e.get("ph") != "M"), key=lambda e: e.get("ts", 0)):
        ph, ts, tid = e.get("ph"), e.get("ts", 0), e.get("tid", 0)
        name, args = e.get("name", ""), e.get("args", {})
        end_ts = max(end_ts, ts + e.get("dur", 0))
        key = (e.get("cat"), name, str(e.get("id", e.get("id2"))))
        if ph == "B":
            open_slices[tid].append(e)
        elif ph == "E" and open_slices[tid]:
            b = open_slices[tid].pop()
            track(tid).slices.append([b["ts"], ts, b.get("name", ""), {**b.get("args", {}), **args}, 0])
        elif ph == "X":
            track(tid).slices.append([ts, ts + max(e.get("dur", 0), 1), name, args, 0])
        elif ph in ("i", "I"):
            track(tid).marks.append((ts, name, args))
        elif ph == "b":
            open_spans[key] = (ts, tid)
        elif ph == "e" and key in open_spans:
            start, btid = open_spans.pop(key)
            track(btid).spans.append((start, ts, name))
        elif ph == "s":
            flow_starts[key] = (ts, tid)
        elif ph == "f" and key in flow_starts:
            start, stid = flow_starts.pop(key)
            track(stid)
            track(tid)
            flows.append((start, stid, ts, tid))
    for tid, stack in open_slices.items():    # still open when the file ends
        for b in stack:
            track(tid).slices.append([b["ts"], end_ts, b.get("name", ""), b.get("args", {}), 0])
    for (start, tid) in open_spans.values():
        track(tid).spans.append((start, end_ts, "blocked"))
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name" and e.get("tid") in tracks:
            tracks[e["tid"]].name = e.get("args", {}).get("name", tracks[e["tid"]].name)
    for t in tracks.values():
        assign_depths(t)
    return [tracks[tid] for tid in sorted(tracks)], flows


def assign_depths(track):
    """A slice's depth is the number of slices still open when it starts."""
    track.slices.sort(key=lambda s: (s[0], -s[1]))
    stack = []
    for s in track.slices:
        while stack and stack[-1] <= s[0] and not (stack[-1] == s[0] == s[1]):
            stack.pop()
        s[4] = len(stack)
        stack.append(s[1])
        track.depth = max(track.depth, len(stack))


def innermost_y(track, top, ts):
    """The middle of the deepest slice open at ts: where an arrow attaches."""
    depth = max((s[4] for s in track.slices if s[0] <= ts <= s[1]), default=0)
    return top + depth * ROW_H + ROW_H / 2


def color(name):
    return PALETTE[sum(map(ord, name)) % len(PALETTE)]


def tooltip(name, args, start=None, end=None):
    parts = [name]
    if start is not None:
        parts.append("%.3f ms, %d us" % (start / 1000.0, end - start))
    parts += ["%s=%s" % (k, v) for k, v in args.items()]
    return "<title>%s</title>" % html.escape("\n".join(parts))


def nice_step(span_us, width_px):
    """An axis step of 1, 2 or 5 x 10^n us, about every 100 px."""
    raw = span_us / max(width_px / 100.0, 1)
    step = 1
    while True:
        for m in (1, 2, 5):
            if step * m >= raw:
                return step * m
        step *= 10


def fmt_time(us):
    return "%g ms" % round(us / 1000.0, 3)


def render(tracks, flows, t0, t1, width):
    plot_w = width - LABEL_W - 2 * MARGIN
    scale = plot_w / float(max(t1 - t0, 1))
    x = lambda ts: LABEL_W + MARGIN + (min(max(ts, t0), t1) - t0) * scale
    visible = lambda a, b: b >= t0 and a <= t1
    out, y, track_y = [], AXIS_H + MARGIN, {}
    for t in tracks:
        track_y[t.tid] = y
        h = t.lanes() * ROW_H
        out.append('<rect x="0" y="%d" width="%d" height="%d" fill="%s" fill-opacity="0.6"/>'
                   % (y, width, h, "#f7f7f7" if len(track_y) % 2 else "#ffffff"))
        out.append('<text x="%d" y="%d" class="track">%s</text>'
                   % (MARGIN, y + 13, html.escape(t.name)))
        for start, end, name, args, depth in t.slices:
            if not visible(start, end):
                continue
            x0, x1 = x(start), x(end)
            sy = y + depth * ROW_H
            out.append('<g><rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s" stroke="#555" '
                       'stroke-width="0.3">%s</rect>' % (x0, sy + 1, max(x1 - x0, 0.5), ROW_H - 2,
                                                        color(name), tooltip(name, args, start, end)))
            fits = int((x1 - x0 - 4) / CHAR_W)
            if fits >= 3:
                label = name if len(name) <= fits else name[:fits - 1] + "\u2026"
                out.append('<text x="%.1f" y="%d" class="slice">%s</text>' % (x0 + 2, sy + 13, html.escape(label)))
            out.append("</g>")
        lane_y = y + t.depth * ROW_H
        for start, end, name in t.spans:
            if visible(start, end):
                out.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" class="span">%s</rect>'
                           % (x(start), lane_y + 4, max(x(end) - x(start), 1), ROW_H - 8,
                              tooltip(name, {}, start, end)))
        for ts, name, args in t.marks:
            if visible(ts, ts):
                mx, my = x(ts), lane_y + ROW_H / 2
                out.append('<path d="M%.1f %.1f l4 5 l-4 5 l-4 -5 z" class="mark">%s</path>'
                           % (mx, my - 5, tooltip(name, args)))
        y += h
    by_tid = {t.tid: t for t in tracks}
    for ts0, tid0, ts1, tid1 in flows:
        if visible(min(ts0, ts1), max(ts0, ts1)):
            out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" class="flow" marker-end="url(#arrow)"/>'
                       % (x(ts0), innermost_y(by_tid[tid0], track_y[tid0], ts0),
                          x(ts1), innermost_y(by_tid[tid1], track_y[tid1], ts1)))
    height = y + MARGIN
    axis = ['<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>'
            % (LABEL_W + MARGIN, AXIS_H, width - MARGIN, AXIS_H)]
    step = nice_step(t1 - t0, plot_w)
    tick = (t0 // step + 1) * step
    while tick <= t1:
        axis.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>' % (x(tick), AXIS_H, x(tick), height))
        axis.append('<text x="%.1f" y="%d" class="axis">%s</text>' % (x(tick), AXIS_H - 6, fmt_time(tick)))
        tick += step
    return "\n".join([
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
        'font-family="sans-serif">' % (width, height, width, height),
        "<style>.track{font-size:12px;font-weight:bold}.slice{font-size:11px;pointer-events:none}"
        ".axis{font-size:10px;text-anchor:middle;fill:#333}.span{fill:#d6604d;fill-opacity:0.35;stroke:#d6604d}"
        ".mark{fill:#333}.flow{stroke:#b2182b;stroke-width:1.2}</style>",
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" fill="#b2182b"/></marker></defs>',
        '<rect width="100%" height="100%" fill="white"/>',
    ] + axis + out + ["</svg>\n"])


def time_range(tracks, flows):
    times = []
    for t in tracks:
        times += [s[0] for s in t.slices] + [s[1] for s in t.slices]
        times += [m[0] for m in t.marks] + [s[0] for s in t.spans] + [s[1] for s in t.spans]
    return (min(times), max(times)) if times else (0, 1)


def main(argv=None):
    ap = argparse.ArgumentParser(description="Draw a cppredis trace file (TRACE START) as an SVG or HTML timeline.")
    ap.add_argument("trace", help="the trace file (Chrome Trace Event Format, JSON array)")
    ap.add_argument("-o", "--output", help="output path (default: the trace's name with .svg or .html)")
    ap.add_argument("--html", action="store_true", help="write an HTML page around the SVG")
    ap.add_argument("--from", dest="t_from", type=int, help="window start, in us since the server started")
    ap.add_argument("--to", dest="t_to", type=int, help="window end, in us since the server started")
    ap.add_argument("--width", type=int, default=1600, help="width in pixels (default 1600)")
    a = ap.parse_args(argv)
    try:
        tracks, flows = build(load_events(a.trace))
    except (OSError, ValueError) as err:
        sys.exit("trace_timeline: can't read %s: %s" % (a.trace, err))
    lo, hi = time_range(tracks, flows)
    t0 = a.t_from if a.t_from is not None else lo
    t1 = a.t_to if a.t_to is not None else hi
    if t1 <= t0:
        sys.exit("trace_timeline: empty time window (--from %d --to %d)" % (t0, t1))
    svg = render(tracks, flows, t0, t1, a.width)
    if a.html:
        svg = ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title></head>\n<body>\n%s</body></html>\n"
               % (html.escape(a.trace), svg))
    base = a.trace[:-5] if a.trace.endswith(".json") else a.trace
    out = a.output or base + (".html" if a.html else ".svg")
    with open(out, "w", encoding="utf-8") as f:
        f.write(svg)
    print(out)


if __name__ == "__main__":
    main()
