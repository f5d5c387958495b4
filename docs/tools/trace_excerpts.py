#!/usr/bin/env python3
"""Regenerates the trace excerpts quoted in docs/ from a real server.

Each chapter of the learner's guide quotes what cppredis's live trace printed
while a small scenario ran. The quotes sit between markers,

    <!-- trace-excerpt: blocking-blpop -->
    ```text
    ...
    ```
    <!-- /trace-excerpt -->

and are never typed: this script starts build/cppredis-server on a free
port, runs each scenario over raw sockets (RESP), reads the live trace on a
PSUBSCRIBE '__trace__:*' connection, normalises what differs from run to run
and writes the result between the markers.

    docs/tools/trace_excerpts.py            # rewrite the excerpts in docs/*.md and README.md
    docs/tools/trace_excerpts.py --check    # exit 1 with a diff if one differs
    docs/tools/trace_excerpts.py --only blocking-blpop --raw   # see the raw lines

What is normalised (docs/README.md tells the reader the same):
  * the timestamp column is dropped;
  * iteration numbers are renumbered 1, 2, 3... over the iterations shown;
  * what depends on the clock or the run is masked as `…` (us, late_us, a
    positive timeout_us or timeout_ms, idle_s, a child's pid and fork_us);
  * iterations in which the loop did nothing but run serverCron are left
    out, and so is the wait that ends the excerpt (what ends it is the
    script's next request, not the scenario);
  * the script's own control and trace connections are left out.
A scenario in which serverCron ran anyway is run again. --check compares
everything but the multiplexing backend's name (epoll, poll, kqueue) and
the fd numbers, which count the epoll fd.
Only the Python standard library is used.
"""

import argparse
import difflib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent
REPO = DOCS.parent
MASK = "…"
MARKER = re.compile(r"(<!-- trace-excerpt: (?P<name>[a-z0-9-]+) -->\n)(?P<body>.*?)(<!-- /trace-excerpt -->)", re.S)


class ScenarioError(Exception):
    """The scenario did not go as written (a wrong reply, a missing event)."""


class Racy(Exception):
    """Something outside the scenario (serverCron) ran inside it: run it again."""


# ---------------------------------------------------------------- RESP

def encode(*args):
    out = [b"*%d\r\n" % len(args)]
    for a in args:
        a = a if isinstance(a, bytes) else str(a).encode()
        out.append(b"$%d\r\n%s\r\n" % (len(a), a))
    return b"".join(out)


class Conn:
    """A RESP2 connection: requests as arrays of bulk strings, replies parsed
    into str / int / list / None, errors as ScenarioError unless wanted."""

    def __init__(self, port, timeout=10.0):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buf = b""

    def close(self):
        self.sock.close()

    def send_raw(self, data):
        self.sock.sendall(data)

    def send(self, *args):
        self.send_raw(encode(*args))

    def call(self, *args):
        self.send(*args)
        return self.reply()

    def _fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ScenarioError("connection closed by the server")
        self.buf += chunk

    def _line(self):
        while b"\r\n" not in self.buf:
            self._fill()
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def reply(self):
        line = self._line()
        kind, rest = line[:1], line[1:].decode()
        if kind == b"+":
            return rest
        if kind == b"-":
            return ("error", rest)
        if kind == b":":
            return int(rest)
        if kind == b"$":
            n = int(rest)
            if n < 0:
                return None
            while len(self.buf) < n + 2:
                self._fill()
            data, self.buf = self.buf[:n], self.buf[n + 2:]
            return data.decode(errors="replace")
        if kind == b"*":
            n = int(rest)
            return None if n < 0 else [self.reply() for _ in range(n)]
        raise ScenarioError("bad reply line %r" % line)

    def expect(self, want):
        got = self.reply()
        if got != want:
            raise ScenarioError("expected %r, got %r" % (want, got))
        return got

    def closed_by_server(self, timeout):
        """True once the server closes this connection (EOF), within timeout."""
        self.sock.settimeout(timeout)
        try:
            return self.sock.recv(1) == b""
        except socket.timeout:
            return False
        finally:
            self.sock.settimeout(10.0)


# ---------------------------------------------------------------- the trace

# A value is quoted (with escapes: a reply's CR LF reads \r\n) unless it is
# printable bytes only; then it runs to the next space.
FIELD = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|[^ ]*)')


class Event:
    """One line of the live trace: '<s.us> #<iteration> <category> <name>
    [end] [key=value ...]'."""

    def __init__(self, line):
        self.line = line
        ts, it, self.category, self.name, rest = (line.split(" ", 4) + [""])[:5]
        self.iteration = int(it[1:])
        self.end = rest == "end" or rest.startswith("end ")
        if self.end:
            rest = rest[4:]
        self.fields = FIELD.findall(rest)

    def get(self, key, default=None):
        for k, v in self.fields:
            if k == key:
                return v
        return default

    def client(self):
        c = self.get("client")
        return int(c) if c is not None else None

    def __repr__(self):
        return self.line


class Trace:
    """The PSUBSCRIBE '__trace__:*' connection, and every line it got."""

    def __init__(self, port):
        self.conn = Conn(port)
        self.id = self.conn.call("CLIENT", "ID")
        self.conn.send("PSUBSCRIBE", "__trace__:*")
        self.conn.expect(["psubscribe", "__trace__:*", 1])
        self.events = []

    def _read_one(self, deadline):
        """Reads one message into events; returns any other reply (None on
        timeout)."""
        self.conn.sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            msg = self.conn.reply()
        except socket.timeout:
            return None
        finally:
            self.conn.sock.settimeout(10.0)
        if isinstance(msg, list) and msg[0] == "pmessage":
            self.events.append(Event(msg[3]))
            return None
        return msg

    def sync(self, timeout=5.0):
        """Every line emitted so far, read: the server answers a PING after
        the lines already queued for this connection."""
        self.conn.send("PING")
        deadline = time.monotonic() + timeout
        while self._read_one(deadline) != ["pong", ""]:
            if time.monotonic() > deadline:
                raise ScenarioError("no PONG on the trace connection")

    def wait_for(self, pred, timeout=5.0, after=0):
        """The index of the first event from `after` on that satisfies pred,
        reading the connection until one arrives."""
        deadline = time.monotonic() + timeout
        i = after
        while True:
            while i < len(self.events):
                if pred(self.events[i]):
                    return i
                i += 1
            if time.monotonic() > deadline:
                raise ScenarioError("no trace event matched within %.1f s" % timeout)
            self._read_one(deadline)


# ---------------------------------------------------------------- the server

def free_port():
    """A port nobody listens on now (bound once by us, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """build/cppredis-server on a free 127.0.0.1 port, in a temporary
    directory that goes with it."""

    def __init__(self, binary, args):
        self.dir = tempfile.mkdtemp(prefix="trace_excerpts.")
        self.log = os.path.join(self.dir, "server.log")
        self.proc = None
        for _ in range(5):
            self.port = free_port()
            cmd = [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                   "--dir", self.dir, "--logfile", self.log, "--enable-debug-command", "local"] + list(args)
            self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL)
            if self._ready():
                return
            self.stop()
        raise ScenarioError("the server did not start (see %s)" % binary)

    def _ready(self):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return False  # e.g. the port was taken meanwhile
            if "Ready to accept connections" in self.log_text():
                return True
            time.sleep(0.01)
        return False

    def log_text(self):
        try:
            with open(self.log, encoding="utf-8", errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def remove(self):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


# ---------------------------------------------------------------- a scenario's session

# The loop's skeleton: what every iteration prints whether or not anything
# happened in it. An iteration with nothing else is idle, and left out.
SKELETON = {"aeProcessEvents", "aeApiPoll", "serverCron", "activeExpireCycle"}

# Fields whose values depend on the clock or the run, not on the scenario.
VARYING_FIELDS = {"us", "late_us", "idle_s", "pid", "fork_us"}


def idle_before_sleep(ev):
    """beforeSleep that did nothing: every count it reports is 0."""
    return ev.name == "beforeSleep" and all(v in ("0", "no") for k, v in ev.fields if k not in VARYING_FIELDS)


class Session:
    """One server, a control connection (CONFIG SET), the trace connection,
    and the scenario's clients, connected before the trace starts so that
    their connections are not part of the excerpt unless asked."""

    def __init__(self, binary, server_args=()):
        self.server = Server(binary, server_args)
        self.port = self.server.port
        self.control = Conn(self.port)
        self.control_id = self.control.call("CLIENT", "ID")
        self.trace = Trace(self.port)
        self.start_index = None

    def close(self):
        self.server.remove()

    def client(self):
        c = Conn(self.port)
        c.id = c.call("CLIENT", "ID")
        return c

    def config(self, *args):
        got = self.control.call("CONFIG", "SET", *args)
        if got != "OK":
            raise ScenarioError("CONFIG SET %r: %r" % (args, got))

    def start(self):
        """Turns the whole trace on, then waits for serverCron to have just
        run, so that the scenario has a full period of the cron to itself."""
        self.config("trace-events", "all")
        i = self.trace.wait_for(lambda e: e.name == "serverCron" and e.end, timeout=5) + 1
        self.start_index = self.trace.wait_for(lambda e: e.name == "aeProcessEvents" and e.end, after=i) + 1

    def wait(self, pred, timeout=5.0):
        return self.trace.wait_for(pred, timeout, after=self.start_index)

    def wait_event(self, name, client=None, timeout=5.0):
        return self.wait(lambda e: e.name == name and (client is None or e.client() == client.id), timeout)

    def finish(self):
        """Ends the scenario: the trace connection's own PING wakes the loop,
        which delivers what the trace still held. The events of the control
        and trace connections are not the scenario's."""
        self.trace.sync()
        ours = (self.control_id, self.trace.id)
        return [e for e in self.trace.events[self.start_index:] if e.client() not in ours]


def is_work(ev):
    return ev.name not in SKELETON and not idle_before_sleep(ev)


def select(events, categories, allow_cron=False, keep_cron_only=False):
    """The lines an excerpt shows, normalised (see the module's docstring)."""
    iterations = []
    for ev in events:
        if not iterations or iterations[-1][0] != ev.iteration:
            iterations.append((ev.iteration, []))
        iterations[-1][1].append(ev)

    kept = []
    for _, evs in iterations:
        ran_cron = any(e.name == "serverCron" for e in evs)
        if not any(is_work(e) for e in evs) and not (keep_cron_only and ran_cron):
            continue
        if ran_cron and not allow_cron:
            raise Racy("serverCron ran inside the scenario")
        kept.append(evs)

    # The last iteration shown ends where the loop went back to sleep: the
    # wait and what follows belong to whatever woke it next.
    if kept:
        last = kept[-1]
        while last and not last[-1].end and (last[-1].name in ("aeApiPoll", "aeProcessEvents")
                                              or idle_before_sleep(last[-1])):
            last.pop()

    lines = []
    n = 0
    for evs in kept:
        shown = [e for e in evs if e.category in categories]
        if shown:
            n += 1
            lines += [render(e, n) for e in shown]
    return lines


def render(ev, iteration):
    parts = ["#%d" % iteration, ev.category, ev.name]
    if ev.end:
        parts.append("end")
    for k, v in ev.fields:
        if k == "iteration":
            v = str(iteration)
        elif k in VARYING_FIELDS or (k in ("timeout_us", "timeout_ms") and v not in ("-1", "0")):
            v = MASK
        else:
            v = re.sub(r"(127\.0\.0\.1):\d+", r"\1:" + MASK, v)  # a client's port, were one shown
        parts.append("%s=%s" % (k, v))
    return " ".join(parts)


# ---------------------------------------------------------------- the scenarios
#
# Each takes a started Session and returns its excerpts, {name: [line, ...]}.
# A scenario waits for a reply (or a trace event) before the next request
# from another connection, so the order of what the server sees is fixed.

SCENARIOS = {}


def scenario(*server_args, retries=3):
    def register(fn):
        SCENARIOS[fn.__name__.replace("_", "-")] = (fn, list(server_args), retries)
        return fn
    return register


HZ1 = ("--hz", "1")  # serverCron once a second: a scenario fits between two runs


@scenario("--hz", "10")
def loop_servercron(s):
    """One iteration in which the loop only slept until serverCron, the one
    periodic time event, and ran it (hz 10: every 100 ms)."""
    s.start()
    s.wait(lambda e: e.name == "serverCron" and e.end)
    return {"loop-servercron": select(s.finish(), {"loop", "cron"}, allow_cron=True, keep_cron_only=True)}


@scenario(*HZ1)
def loop_request(s):
    """A PING: the read event fires, the command runs, the reply waits for
    beforeSleep of the next iteration."""
    a = s.client()
    s.start()
    a.call("PING")
    return {"loop-request": select(s.finish(), {"loop", "cmd"})}


@scenario(*HZ1)
def loop_timer(s):
    """BLPOP with a 50 ms timeout: a time event created for the deadline,
    which returns AE_NOMORE and is deleted."""
    a = s.client()
    s.start()
    a.send("BLPOP", "q", "0.05")
    a.expect(None)
    return {"loop-timer": select(s.finish(), {"loop", "block"})}


@scenario(*HZ1)
def request_pipeline(s):
    """A new connection, then four requests in one write, one of them
    refused before it runs and one failing as it runs."""
    s.start()
    a = Conn(s.port)
    s.wait_event("acceptTcpHandler")
    a.send_raw(encode("SET", "greeting", "hello") + encode("GET", "greeting") + encode("NOSUCHCMD")
               + encode("INCR", "greeting"))
    a.expect("OK")
    a.expect("hello")
    for _ in ("NOSUCHCMD", "INCR"):
        if not isinstance(a.reply(), tuple):
            raise ScenarioError("NOSUCHCMD and INCR must fail")
    return {"request-pipeline": select(s.finish(), {"loop", "cmd"})}


@scenario(*HZ1)
def lists(s):
    """A small list is a ziplist (its bytes from DEBUG ZIPLIST); a long
    value, then too many entries, make lists linked lists."""
    a = s.client()
    s.start()
    a.send("RPUSH", "l", "a", "b", "12")
    a.expect(3)
    a.send("DEBUG", "ZIPLIST", "l")
    a.expect("Ziplist structure printed on stdout")
    a.call("RPUSH", "l", "a value longer than sixty-four bytes, which no ziplist entry of a list may hold")
    if a.call("OBJECT", "ENCODING", "l") != "linkedlist":
        raise ScenarioError("l did not convert")
    a.call("RPUSH", "big", *["e%d" % i for i in range(513)])
    if a.call("OBJECT", "ENCODING", "big") != "linkedlist":
        raise ScenarioError("big did not convert")
    table = ziplist_table(s.server.log_text(), "l")
    return {"lists-convert": select(s.finish(), {"cmd", "encoding"}), "lists-ziplist": table}


def ziplist_table(log, key):
    """The lines DEBUG ZIPLIST wrote to the log for key, from its header to
    {end}."""
    lines = log.splitlines()
    head = next(i for i, l in enumerate(lines) if l.endswith("DEBUG ZIPLIST %s" % key))
    end = next(i for i in range(head, len(lines)) if lines[i] == "{end}")
    return [re.sub(r"^\d+:[A-Z] .*? [*#.-] ", "", lines[head])] + lines[head + 1:end + 1]


@scenario(*HZ1)
def blocking_blpop(s):
    """Seed 003: A sends BLPOP q 0 and, in the same write, PING; B pushes."""
    a, b = s.client(), s.client()
    s.start()
    a.send_raw(encode("BLPOP", "q", "0") + encode("PING"))
    s.wait_event("blockForKeys", a)
    b.call("LPUSH", "q", "x")
    a.expect(["q", "x"])
    a.expect("PONG")
    return {"blocking-blpop": select(s.finish(), {"loop", "cmd", "block"})}


@scenario(*HZ1)
def watch_it_work(s):
    """README's "Watch it work": redis-cli BLPOP q 0 blocks, LPUSH q hello
    from another redis-cli wakes it."""
    a, b = s.client(), s.client()
    s.start()
    a.send("BLPOP", "q", "0")
    s.wait_event("blockForKeys", a)
    b.call("LPUSH", "q", "hello")
    a.expect(["q", "hello"])
    return {"watch-it-work": select(s.finish(), {"cmd", "block"})}


@scenario(*HZ1)
def blocking_fifo(s):
    """Two clients wait on q; three elements arrive: the first to block is
    served first, one element each; the third element stays."""
    a, b, c = s.client(), s.client(), s.client()
    s.start()
    for w in (a, b):
        w.send("BLPOP", "q", "0")
        s.wait_event("blockForKeys", w)
    c.call("RPUSH", "q", "x", "y", "z")
    a.expect(["q", "x"])
    b.expect(["q", "y"])
    return {"blocking-fifo": select(s.finish(), {"cmd", "block"})}


@scenario(*HZ1)
def blocking_chain(s):
    """A waits on a to move its element to b, where B waits: one push to a
    wakes both, in two rounds of handleClientsBlockedOnKeys."""
    a, b, c = s.client(), s.client(), s.client()
    s.start()
    a.send("BRPOPLPUSH", "a", "b", "0")
    s.wait_event("blockForKeys", a)
    b.send("BLPOP", "b", "0")
    s.wait_event("blockForKeys", b)
    c.call("LPUSH", "a", "job")
    a.expect("job")
    b.expect(["b", "job"])
    return {"blocking-chain": select(s.finish(), {"cmd", "block"})}


@scenario(*HZ1)
def blocking_timeout(s):
    """BLPOP q 0.1: nobody pushes; the deadline answers nil."""
    a = s.client()
    s.start()
    a.send("BLPOP", "q", "0.1")
    a.expect(None)
    return {"blocking-timeout": select(s.finish(), {"cmd", "block"})}


@scenario(*HZ1)
def queue_priority(s):
    """BRPOP q:high q:low 0 serves the first non-empty key, left to right,
    and blocks on both when both are empty."""
    worker, producer = s.client(), s.client()
    producer.call("LPUSH", "q:low", "report")
    producer.call("LPUSH", "q:high", "alert")
    s.start()
    if worker.call("BRPOP", "q:high", "q:low", "0") != ["q:high", "alert"]:
        raise ScenarioError("q:high first")
    if worker.call("BRPOP", "q:high", "q:low", "0") != ["q:low", "report"]:
        raise ScenarioError("then q:low")
    worker.send("BRPOP", "q:high", "q:low", "0")
    s.wait_event("blockForKeys", worker)
    producer.call("LPUSH", "q:low", "backup")
    worker.expect(["q:low", "backup"])
    return {"queue-priority": select(s.finish(), {"cmd", "block"})}


@scenario(*HZ1)
def queue_reliable(s):
    """BRPOPLPUSH tasks processing 0 keeps the job in `processing` until
    the worker LREMs it."""
    worker, producer = s.client(), s.client()
    s.start()
    worker.send("BRPOPLPUSH", "tasks", "processing", "0")
    s.wait_event("blockForKeys", worker)
    producer.call("LPUSH", "tasks", "job:1")
    worker.expect("job:1")
    if worker.call("LREM", "processing", "1", "job:1") != 1:
        raise ScenarioError("LREM")
    return {"queue-reliable": select(s.finish(), {"cmd", "block"})}


DELAYED_POP = """local due = redis.call('ZRANGEBYSCORE', KEYS[1], 0, ARGV[1], 'LIMIT', 0, 1)
if #due == 0 then return false end
redis.call('ZREM', KEYS[1], due[1])
return due[1]"""


@scenario(*HZ1)
def queue_delayed(s):
    """Jobs due at a time (the score); a Lua script takes the first due one
    and removes it atomically."""
    producer, worker = s.client(), s.client()
    s.start()
    producer.call("ZADD", "delayed", "1700000010", "job:a", "1700000020", "job:b")
    if worker.call("EVAL", DELAYED_POP, "1", "delayed", "1700000015") != "job:a":
        raise ScenarioError("job:a is due")
    if worker.call("EVAL", DELAYED_POP, "1", "delayed", "1700000015") is not None:
        raise ScenarioError("job:b is not due")
    return {"queue-delayed": select(s.finish(), {"cmd"})}


@scenario(*HZ1)
def idle_timeout(s):
    """timeout 1: the idle client is closed by clientsCron, the blocked one
    is not, and is served later."""
    s.config("timeout", "1")
    blocked, idle = s.client(), s.client()
    s.start()
    blocked.send("BLPOP", "q", "0")
    s.wait_event("blockForKeys", blocked)
    if not idle.closed_by_server(timeout=5):
        raise ScenarioError("the idle client was not closed")
    producer = Conn(s.port)
    producer.call("LPUSH", "q", "job")
    blocked.expect(["q", "job"])
    return {"idle-timeout": select(s.finish(), {"cmd", "block", "cron"}, allow_cron=True)}


@scenario(*HZ1)
def persistence_bgsave(s):
    """BGSAVE forks a child; serverCron sees it exit."""
    a = s.client()
    s.start()
    if a.call("BGSAVE") != "Background saving started":
        raise ScenarioError("BGSAVE")
    deadline = time.monotonic() + 10
    while "Background saving terminated" not in s.server.log_text():
        if time.monotonic() > deadline:
            raise ScenarioError("BGSAVE did not end")
        time.sleep(0.01)
    return {"persistence-bgsave": select(s.finish(), {"loop", "cmd", "child"}, allow_cron=True)}


@scenario(*HZ1, "--appendonly", "yes", "--appendfsync", "always")
def persistence_aof(s):
    """appendfsync always: beforeSleep writes and fsyncs the AOF before it
    writes the reply."""
    a = s.client()
    s.start()
    a.call("SET", "k", "v")
    return {"persistence-aof": select(s.finish(), {"loop", "cmd"})}


@scenario(*HZ1)
def scripting_wake(s):
    """A script pushes to a list a client waits on: the client is served
    after the script, not inside it."""
    a, b = s.client(), s.client()
    s.start()
    a.send("BLPOP", "q", "0")
    s.wait_event("blockForKeys", a)
    b.call("EVAL", "redis.call('LPUSH', KEYS[1], ARGV[1]); return redis.call('LLEN', KEYS[1])", "1", "q", "x")
    a.expect(["q", "x"])
    return {"scripting-wake": select(s.finish(), {"cmd", "block"})}


# ---------------------------------------------------------------- driver

def run_scenario(binary, name):
    fn, args, retries = SCENARIOS[name]
    for attempt in range(retries):
        s = Session(binary, args)
        try:
            return fn(s), s.trace.events
        except Racy:
            if attempt == retries - 1:
                raise
        finally:
            s.close()


def generate(binary, only=None, raw=False):
    excerpts = {}
    for name in SCENARIOS:
        if only and name not in only and not any(x.startswith(name) for x in only):
            continue
        got, events = run_scenario(binary, name)
        if raw:
            print("== %s (raw)" % name)
            for e in events:
                print(e.line)
        excerpts.update(got)
    return excerpts


def fill(text, excerpts, missing):
    def sub(m):
        name = m.group("name")
        if name not in excerpts:
            missing.add(name)
            return m.group(0)
        return m.group(1) + "```text\n" + "\n".join(excerpts[name]) + "\n```\n" + m.group(4)
    return MARKER.sub(sub, text)


def any_backend(text):
    """The excerpts show the multiplexing backend of the server that made
    them (epoll on Linux) and fd numbers that count the epoll fd; a check
    against a poll or kqueue build compares everything else."""
    return re.sub(r"\bfd=\d+", "fd=*", re.sub(r"\bbackend=\w+", "backend=*", text))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", default=os.environ.get("CPPREDIS_SERVER_BIN", str(REPO / "build" / "cppredis-server")),
                    help="the server binary (default: build/cppredis-server, or $CPPREDIS_SERVER_BIN)")
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 with a diff if an excerpt differs")
    ap.add_argument("--only", nargs="*", help="run only these scenarios (print, do not write)")
    ap.add_argument("--raw", action="store_true", help="also print the raw trace of each scenario")
    opts = ap.parse_args()

    excerpts = generate(opts.server, opts.only, opts.raw)
    if opts.only:
        for name, lines in excerpts.items():
            print("== %s" % name)
            print("\n".join(lines))
        return 0

    differs = False
    missing = set()
    used = set()
    for md in [REPO / "README.md"] + sorted(DOCS.glob("*.md")):
        text = md.read_text(encoding="utf-8")
        used.update(m.group("name") for m in MARKER.finditer(text))
        new = fill(text, excerpts, missing)
        if new == text or (opts.check and any_backend(new) == any_backend(text)):
            continue
        differs = True
        if opts.check:
            sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), new.splitlines(True),
                                                       str(md.relative_to(REPO)), "regenerated"))
        else:
            md.write_text(new, encoding="utf-8")
            print("updated %s" % md.relative_to(REPO))
    if missing:
        print("no scenario produces: %s" % ", ".join(sorted(missing)), file=sys.stderr)
        return 1
    unused = set(excerpts) - used
    if unused:  # a chapter lost its marker
        print("excerpts no chapter quotes: %s" % ", ".join(sorted(unused)), file=sys.stderr)
        return 1
    if opts.check and differs:
        print("docs/ excerpts differ from what %s produces: run docs/tools/trace_excerpts.py" % opts.server,
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
