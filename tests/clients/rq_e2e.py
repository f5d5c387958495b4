"""python-rq end to end (issue 15): Debian's python3-rq 1.13 against a
server on 127.0.0.1:PORT. Enqueues N jobs, runs W burst workers at once
until the queue is drained, then checks that every job finished, ran
exactly once, and has its result (rq stores results with XADD ... MAXLEN ~
when the server reports Redis >= 5, which is what this exercises).

Usage: /usr/bin/python3 rq_e2e.py PORT [N] [W]   (exit 0 when all is right)"""
import os
import subprocess
import sys

from redis import Redis
from rq import Queue

port, n, w = int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 200, int(sys.argv[3]) if len(sys.argv) > 3 else 3
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import rq_jobs  # noqa: E402  (the workers import it by name too)

conn = Redis(host="127.0.0.1", port=port)
conn.flushall()
q = Queue("e2e", connection=conn)
jobs = [q.enqueue(rq_jobs.square, i, result_ttl=600) for i in range(n)]

env = dict(os.environ, PYTHONPATH=here)
workers = [subprocess.Popen([sys.executable, "-m", "rq.cli", "worker", "--burst", "--url",
                             f"redis://127.0.0.1:{port}", "e2e"], env=env, cwd=here,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for _ in range(w)]
failed = False
for p in workers:
    _, err = p.communicate(timeout=120)
    if p.returncode != 0:
        print(f"worker exited {p.returncode}: {err.decode()[-2000:]}")
        failed = True

bad = []
for i, job in enumerate(jobs):
    job.refresh()
    runs = int(conn.get(f"e2e:runs:{i}") or 0)
    status = job.get_status()
    if status != "finished" or job.result != i * i or runs != 1:
        bad.append((i, status, job.result, runs))
print(f"python-rq: {n} jobs, {w} workers: {n - len(bad)} finished exactly once with their result")
for b in bad[:10]:
    print("  wrong: job %d status=%s result=%r runs=%d" % b)
sys.exit(1 if bad or failed else 0)
