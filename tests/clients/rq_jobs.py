"""The job python-rq's workers run in rq_e2e.py: it counts its own runs in
the server (so a job run twice is seen) and returns a result rq stores."""
from rq import get_current_job


def square(i):
    get_current_job().connection.incr(f"e2e:runs:{i}")
    return i * i
