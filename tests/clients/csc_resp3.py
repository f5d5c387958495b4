"""A RESP3 client-side cache end to end (issue 20): the way redis-py >= 5.1
caches (HELLO 3, CLIENT TRACKING on, a dict of values dropped on the
invalidation pushes), written out here because Debian's python3-redis (4.3)
speaks no RESP3. A cached connection reads keys twice (the second read is
served from memory), another connection changes them, and the cache must
see the invalidation (a key name, or a null for FLUSHALL) and read the new
value from the server.

Usage: /usr/bin/python3 csc_resp3.py PORT   (prints "client-side cache ok",
exit 0, when all is right)"""
import select
import socket
import sys


class Resp3Conn:
    """A blocking RESP3 connection: commands out, replies and pushes in."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.buf = b""

    def send(self, *args):
        out = [b"*%d\r\n" % len(args)]
        for a in args:
            a = a if isinstance(a, bytes) else str(a).encode()
            out.append(b"$%d\r\n%s\r\n" % (len(a), a))
        self.sock.sendall(b"".join(out))

    def _line(self):
        while b"\r\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("server closed the connection")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def _bytes(self, n):
        while len(self.buf) < n + 2:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("server closed the connection")
            self.buf += chunk
        data, self.buf = self.buf[:n], self.buf[n + 2:]
        return data

    def read(self):
        """One reply; a push comes back as ("push", [items])."""
        line = self._line()
        kind, rest = line[:1], line[1:]
        if kind in (b"+",):
            return rest.decode()
        if kind == b"-":
            raise RuntimeError(rest.decode())
        if kind == b":":
            return int(rest)
        if kind == b"_":
            return None
        if kind == b"#":
            return rest == b"t"
        if kind in (b",", b"("):
            return rest.decode()
        if kind in (b"$", b"="):
            n = int(rest)
            return None if n < 0 else self._bytes(n)
        if kind in (b"*", b"~", b">"):
            n = int(rest)
            items = None if n < 0 else [self.read() for _ in range(n)]
            return ("push", items) if kind == b">" else items
        if kind == b"%":
            return {self.read(): self.read() for _ in range(int(rest))}
        raise RuntimeError("unexpected reply type %r" % line)

    def pending(self, timeout):
        return bool(self.buf) or bool(select.select([self.sock], [], [], timeout)[0])


class CachedClient:
    """GET through a local cache kept true by the server's invalidations."""

    def __init__(self, port):
        self.conn = Resp3Conn(port)
        self.cache = {}
        self.hits = self.misses = self.invalidations = 0
        self.conn.send("HELLO", "3")
        hello = self.conn.read()
        assert hello[b"proto"] == 3, hello
        self.conn.send("CLIENT", "TRACKING", "on")
        assert self.conn.read() == "OK"

    def _handle_push(self, push):
        kind, items = push
        assert items[0] == b"invalidate", items
        self.invalidations += 1
        if items[1] is None:  # a flush: every key
            self.cache.clear()
        else:
            for key in items[1]:
                self.cache.pop(key, None)

    def _reply(self):
        while True:
            r = self.conn.read()
            if isinstance(r, tuple):
                self._handle_push(r)
            else:
                return r

    def process_invalidations(self, wait=0.0):
        """Applies the pushes already received; with `wait`, waits that long for one."""
        seen = self.invalidations
        while self.conn.pending(wait if self.invalidations == seen else 0):
            r = self.conn.read()
            assert isinstance(r, tuple), "a reply nobody asked for: %r" % (r,)
            self._handle_push(r)
        return self.invalidations - seen

    def get(self, key):
        key = key.encode()
        self.process_invalidations()
        if key in self.cache:
            self.hits += 1
            return self.cache[key]
        self.misses += 1
        self.conn.send("GET", key)
        value = self._reply()
        self.cache[key] = value
        return value


def main():
    port = int(sys.argv[1])
    writer = Resp3Conn(port)

    def write(*args):
        writer.send(*args)
        return writer.read()

    assert write("FLUSHALL") == "OK"
    assert write("MSET", "user:1", "ada", "user:2", "grace") == "OK"
    c = CachedClient(port)
    for _ in range(3):
        assert c.get("user:1") == b"ada"
        assert c.get("user:2") == b"grace"
    assert (c.hits, c.misses) == (4, 2), (c.hits, c.misses)

    assert write("SET", "user:1", "lovelace") == "OK"
    assert c.process_invalidations(wait=2) == 1, "no invalidation for user:1"
    assert b"user:1" not in c.cache and b"user:2" in c.cache, c.cache
    assert c.get("user:1") == b"lovelace"
    assert c.get("user:2") == b"grace"
    assert (c.hits, c.misses) == (5, 3), (c.hits, c.misses)

    assert write("FLUSHALL") == "OK"
    assert c.process_invalidations(wait=2) == 1, "no invalidation for FLUSHALL"
    assert c.cache == {}, c.cache
    assert c.get("user:2") is None
    print("client-side cache ok: %d hits, %d misses, %d invalidations" % (c.hits, c.misses, c.invalidations))


if __name__ == "__main__":
    main()
