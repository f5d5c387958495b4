"""bench/targets.py — the verdict the figure scripts end with: one line per
target, PASS or FAIL with cppredis's figure, and the exit status (1 if any
failed). Imported by the report code of bench/queue_bench.sh and
bench/waiters_bench.sh (which run from the repository root)."""


def report(targets):
    """targets: (what, cppredis's figure, limit) triples, met when figure <= limit.
    Prints them after a blank line; returns the exit status."""
    print()
    failed = 0
    for what, value, limit in targets:
        ok = value <= limit
        failed += not ok
        print("%s  %s: %.3f" % ("PASS" if ok else "FAIL", what, value))
    return 1 if failed else 0
