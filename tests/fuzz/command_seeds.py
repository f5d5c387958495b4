#!/usr/bin/env python3
"""Writes the seed corpus of command_fuzz (tests/fuzz/corpus/command/):
small programs in the target's input format (see FuzzInput in
command_fuzz.cpp), each command spelled out by name, not by its index in
the command table, so the seeds stay valid when the table changes.

    tests/fuzz/command_seeds.py   (from the repository root)
"""
import os

RAW_NAME = 248  # a command byte >= 248: the name follows, then the argument count
RAW_ARG = 8     # an argument kind byte of 8: raw bytes follow


def cmd(client, *words):
    name, args = words[0].encode(), [w.encode() for w in words[1:]]
    out = bytes([client, RAW_NAME, len(name)]) + name + bytes([len(args), 0])
    for a in args:
        assert len(a) < 48
        out += bytes([RAW_ARG, len(a)]) + a
    return out


SEEDS = {
    "lists": [cmd(0, "RPUSH", "k0", "a", "b", "c"), cmd(0, "LPUSH", "k0", "x" * 20),
              cmd(0, "LINSERT", "k0", "BEFORE", "b", "12345"), cmd(0, "LRANGE", "k0", "0", "-1"),
              cmd(0, "LMOVE", "k0", "k1", "LEFT", "RIGHT"), cmd(0, "LPOP", "k0", "2")],
    "blocking": [cmd(0, "BLPOP", "k1", "k2", "0"), cmd(0, "GET", "k1"), cmd(1, "RPUSH", "k2", "v"),
                 cmd(2, "BZPOPMIN", "k3", "0.01"), cmd(1, "ZADD", "k3", "1", "m"),
                 cmd(2, "BLMOVE", "k0", "k1", "LEFT", "LEFT", "0")],
    "sets": [cmd(0, "SADD", "k2", "1", "2", "3"), cmd(0, "SADD", "k2", "a"), cmd(0, "SINTERSTORE", "k3", "k2", "k2"),
             cmd(0, "SPOP", "k2", "2"), cmd(0, "SMEMBERS", "k3")],
    "hashes": [cmd(0, "HSET", "k3", "f", "v", "f2", "2"), cmd(0, "HINCRBYFLOAT", "k3", "f3", "1.5"),
               cmd(0, "HSET", "k3", "long", "y" * 30), cmd(0, "HGETALL", "k3"), cmd(0, "HDEL", "k3", "f", "f2")],
    "zsets": [cmd(0, "ZADD", "k0", "1", "a", "2", "b", "3", "c"), cmd(0, "ZINCRBY", "k0", "1", "a"),
              cmd(0, "ZUNIONSTORE", "k1", "2", "k0", "k0", "WEIGHTS", "1", "2"),
              cmd(0, "ZRANGE", "k1", "0", "-1", "WITHSCORES"), cmd(0, "ZREMRANGEBYSCORE", "k0", "-inf", "(2")],
    "transaction": [cmd(0, "WATCH", "k0"), cmd(1, "SET", "k0", "1"), cmd(0, "MULTI"), cmd(0, "INCR", "k0"),
                    cmd(0, "LPUSH", "k0", "x"), cmd(0, "EXEC")],
    "expire": [cmd(0, "SET", "k0", "v", "PX", "1"), cmd(0, "SET", "k1", "v"), cmd(0, "EXPIRE", "k1", "100"),
               cmd(0, "RENAME", "k1", "k2"), cmd(0, "TTL", "k2"), cmd(0, "GET", "k0"), cmd(0, "PERSIST", "k2")],
    "strings": [cmd(0, "SET", "k0", "12"), cmd(0, "APPEND", "k0", "z" * 40), cmd(0, "SETRANGE", "k1", "10", "ab"),
                cmd(0, "SETBIT", "k2", "100", "1"), cmd(0, "BITFIELD", "k2", "INCRBY", "u8", "#1", "300"),
                cmd(0, "GETDEL", "k0")],
    "streams": [cmd(0, "XADD", "k1", "*", "f", "v"), cmd(0, "XGROUP", "CREATE", "k1", "g", "0"),
                cmd(1, "XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "k1", ">"),
                cmd(0, "XADD", "k1", "MAXLEN", "1", "*", "f", "w"), cmd(0, "XAUTOCLAIM", "k1", "g", "c2", "0", "0")],
    "keyspace": [cmd(0, "SET", "k0", "v"), cmd(0, "SELECT", "1"), cmd(0, "SET", "k0", "w"),
                 cmd(0, "MOVE", "k0", "0"), cmd(0, "SWAPDB", "0", "1"), cmd(0, "COPY", "k0", "k1", "DB", "0"),
                 cmd(0, "FLUSHDB"), cmd(0, "SCAN", "0", "COUNT", "10")],
    "pubsub": [cmd(0, "SUBSCRIBE", "a"), cmd(1, "PUBLISH", "a", "m"), cmd(0, "GET", "k0"),
               cmd(0, "UNSUBSCRIBE"), cmd(2, "PSUBSCRIBE", "*")],
}

if __name__ == "__main__":
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "command")
    os.makedirs(out, exist_ok=True)
    for name, cmds in SEEDS.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(b"".join(cmds))
