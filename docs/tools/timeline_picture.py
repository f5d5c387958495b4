#!/usr/bin/env python3
"""Regenerates docs/img/blpop-timeline.svg, the timeline picture of the
README and of docs/README.md, from a real trace file.

Starts build/cppredis-server (as trace_excerpts.py does), has it write a
trace file (TRACE START ... CATEGORIES loop cmd block), runs the classic blocking
scenario — client A sends BLPOP q 0 and PING in one write and blocks,
client B sends LPUSH q x, A is served and its PING runs — stops the file
(TRACE STOP), and draws the iterations from A's BLPOP to A's PING with
tools/trace_timeline.py.

    docs/tools/timeline_picture.py [--server PATH] [-o docs/img/blpop-timeline.svg]

The picture is not checked by make test: its times differ from run to run.
"""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import trace_excerpts as tx  # noqa: E402  (the server, the RESP connections, the live trace)

MARGIN_US = 20  # shown after the last iteration
PAUSE_S = 0.0005  # between A blocking and B's push, so the blocked span shows


def record(binary, path):
    """Runs the scenario with the file output on; returns the file's events."""
    s = tx.Session(binary, tx.HZ1)
    try:
        a, b = s.client(), s.client()
        s.start()
        if s.control.call("TRACE", "START", path, "CATEGORIES", "loop", "cmd", "block") != "OK":
            raise tx.ScenarioError("TRACE START failed")
        a.send_raw(tx.encode("BLPOP", "q", "0") + tx.encode("PING"))
        s.wait_event("blockForKeys", a)
        time.sleep(PAUSE_S)
        b.call("LPUSH", "q", "x")
        a.expect(["q", "x"])
        a.expect("PONG")
        s.trace.sync()
        if s.control.call("TRACE", "STOP") != "OK":
            raise tx.ScenarioError("TRACE STOP failed")
        with open(path, encoding="utf-8") as f:
            return json.load(f), a.id
    finally:
        s.close()


def window(events, client):
    """From the start of the iteration that runs A's BLPOP to the end of
    the one that runs its PING, in µs."""
    def call(name):
        for e in events:
            if e.get("name") == "call" and e.get("args", {}).get("client") == client and e["args"].get("cmd") == name:
                return e
        raise tx.ScenarioError("the trace file has no call of %s by client %d" % (name, client))

    def iteration(phase, n):
        return next(e["ts"] for e in events if e.get("name") == "aeProcessEvents" and e.get("ph") == phase
                    and e.get("args", {}).get("iteration") == n)

    return (int(iteration("B", call("blpop")["args"]["iteration"])),
            int(iteration("E", call("ping")["args"]["iteration"])) + MARGIN_US)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", default=os.environ.get("CPPREDIS_SERVER_BIN", str(tx.REPO / "build" / "cppredis-server")))
    ap.add_argument("-o", "--output", default=str(tx.DOCS / "img" / "blpop-timeline.svg"))
    opts = ap.parse_args()

    workdir = tx.tempfile.mkdtemp(prefix="timeline_picture.")
    try:
        path = os.path.join(workdir, "blpop.json")
        events, client = record(opts.server, path)
        t_from, t_to = window(events, client)
        Path(opts.output).parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, str(tx.REPO / "tools" / "trace_timeline.py"), path, "-o", opts.output,
                        "--from", str(t_from), "--to", str(t_to), "--width", "1000"], check=True)
        print("wrote %s" % opts.output)
    finally:
        tx.shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
