"""sentinel_producer.py — the producer of the Sentinel failover test
(tests/integration/sentinel_test.cpp) and figure (bench/sentinel_failover.sh).

Finds the master through Sentinel (redis-py's redis.sentinel.Sentinel) and
LPUSHes numbered messages ("m1", "m2"...) to KEY, each followed by
WAIT 1 1000, until the file STOPFILE exists or MAX_SECONDS pass. A message
is acknowledged when its WAIT answered 1 or more: those must survive the
failover. A failed command (the master killed and not yet replaced, or a
replica not yet promoted) is retried through the Sentinel client, which
asks the Sentinels for the master again, after a short pause.

At the end it prints one line of JSON:
    {"acked": [1, 2, ...], "sent": N, "errors": N}

Usage: /usr/bin/python3 sentinel_producer.py PORT[,PORT...] MASTER KEY STOPFILE [MAX_SECONDS]
(PORTs: the Sentinels', on 127.0.0.1; Debian's python3-redis is redis-py 4.3.)
"""
import json
import os
import sys
import time

import redis
from redis.sentinel import Sentinel


def main():
    ports = [int(p) for p in sys.argv[1].split(",")]
    master_name, key, stopfile = sys.argv[2], sys.argv[3], sys.argv[4]
    deadline = time.monotonic() + (float(sys.argv[5]) if len(sys.argv) > 5 else 60)
    sentinel = Sentinel([("127.0.0.1", p) for p in ports], socket_timeout=0.5)
    # Longer than WAIT's own timeout, so a WAIT that times out answers.
    master = sentinel.master_for(master_name, socket_timeout=3)
    acked, sent, errors, n = [], 0, 0, 0
    while not os.path.exists(stopfile) and time.monotonic() < deadline:
        n += 1
        try:
            master.lpush(key, "m%d" % n)
            sent += 1
            if master.execute_command("WAIT", 1, 1000) >= 1:
                acked.append(n)
        except (redis.ConnectionError, redis.TimeoutError, redis.ResponseError):
            errors += 1
            time.sleep(0.05)
        time.sleep(0.002)  # a steady stream, not a flood: the machine is shared
    print(json.dumps({"acked": acked, "sent": sent, "errors": errors}))


if __name__ == "__main__":
    main()
