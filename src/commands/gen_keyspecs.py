#!/usr/bin/env python3
"""gen_keyspecs.py — cppredis's own (Redis 7.0 generates commands.c from the
JSON files of its src/commands with utils/generate-command-code.py).

Regenerates src/commands/keyspecs.cpp: the key specifications of every command
cppredis implements, taken from a running Redis 7, both as the keySpec
tables (keyspecs.h) getKeysFromCommandWithSpecs walks and as the RESP
COMMAND INFO replies with.

Key specs are interface data (which arguments are keys, read or written),
the same for any server implementing the command, so they are copied from
the reference rather than re-typed. Run it after adding commands, with two
free ports P1 and P2 (`ss -ltn` shows the used ones), both servers on
127.0.0.1, each stopped by its own pid afterwards:

    redis-server --port P1 --bind 127.0.0.1 --save '' &           # the reference
    ./build/cppredis-server --port P2 --bind 127.0.0.1 --save '' &  # the list of commands
    src/commands/gen_keyspecs.py P1 P2 > src/commands/keyspecs.cpp
    kill <pid of each>
"""
import socket
import sys


class Conn:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.buf = b""

    def call(self, *args):
        req = b"*%d\r\n" % len(args) + b"".join(
            b"$%d\r\n%s\r\n" % (len(a), a.encode()) for a in args)
        self.sock.sendall(req)
        return self.read()

    def fill(self):
        data = self.sock.recv(1 << 16)
        if not data:
            raise EOFError
        self.buf += data

    def line(self):
        while b"\r\n" not in self.buf:
            self.fill()
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def read(self):
        """Returns (python value, raw bytes) of one reply."""
        start = self.buf
        raw = bytearray()
        value = self._read(raw)
        return value, bytes(raw)

    def _read(self, raw):
        line = self.line()
        raw += line + b"\r\n"
        kind, rest = line[:1], line[1:]
        if kind in (b"+", b"-"):
            return rest.decode()
        if kind == b":":
            return int(rest)
        if kind == b"$":
            n = int(rest)
            if n < 0:
                return None
            while len(self.buf) < n + 2:
                self.fill()
            data, self.buf = self.buf[:n], self.buf[n + 2:]
            raw += data + b"\r\n"
            return data.decode(errors="replace")
        n = int(rest)
        return None if n < 0 else [self._read(raw) for _ in range(n)]


def raw_element(conn, name, index):
    """The raw bytes of element `index` of `COMMAND INFO name`'s entry
    (`*0` for a command the reference lacks)."""
    conn.sock.sendall(b"*3\r\n$7\r\nCOMMAND\r\n$4\r\nINFO\r\n$%d\r\n%s\r\n" % (len(name), name.encode()))
    conn.line()                      # *1
    if conn.line() == b"$-1":        # not a Redis command (TRACE): no keys
        return b"*0\r\n"
    pieces = []
    for i in range(10):
        raw = bytearray()
        conn._read(raw)
        pieces.append(bytes(raw))
    return pieces[index]


def c_string(data):
    out = []
    for b in data:
        ch = chr(b)
        if ch == "\r":
            out.append("\\r")
        elif ch == "\n":
            out.append("\\n")
        elif ch in '"\\':
            out.append("\\" + ch)
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


KEY_FLAGS = {
    "RO": "CMD_KEY_RO", "RW": "CMD_KEY_RW", "OW": "CMD_KEY_OW", "RM": "CMD_KEY_RM",
    "access": "CMD_KEY_ACCESS", "update": "CMD_KEY_UPDATE", "insert": "CMD_KEY_INSERT",
    "delete": "CMD_KEY_DELETE", "not_key": "CMD_KEY_NOT_KEY", "incomplete": "CMD_KEY_INCOMPLETE",
    "variable_flags": "CMD_KEY_VARIABLE_FLAGS",
}


def pairs(flat):
    """A RESP2 map (a flat [k1, v1, k2, v2...] list) as a dict."""
    return dict(zip(flat[::2], flat[1::2]))


def c_keyspec(spec):
    """One keySpec initializer (keyspecs.h) from a COMMAND INFO key spec."""
    spec = pairs(spec)
    flags = " | ".join(KEY_FLAGS[f] for f in spec["flags"]) or "0"
    bs, fk = pairs(spec["begin_search"]), pairs(spec["find_keys"])
    bs_spec, fk_spec = pairs(bs["spec"]), pairs(fk["spec"])
    if bs["type"] == "index":
        begin = "KSPEC_BS_INDEX, {.index = {%d}}" % bs_spec["index"]
    elif bs["type"] == "keyword":
        begin = "KSPEC_BS_KEYWORD, {.keyword = {%s, %d}}" % (
            c_string(bs_spec["keyword"].encode()), bs_spec["startfrom"])
    else:
        begin = "KSPEC_BS_UNKNOWN, {}"
    if fk["type"] == "range":
        find = "KSPEC_FK_RANGE, {.range = {%d, %d, %d}}" % (
            fk_spec["lastkey"], fk_spec["keystep"], fk_spec["limit"])
    elif fk["type"] == "keynum":
        find = "KSPEC_FK_KEYNUM, {.keynum = {%d, %d, %d}}" % (
            fk_spec["keynumidx"], fk_spec["firstkey"], fk_spec["keystep"])
    else:
        find = "KSPEC_FK_UNKNOWN, {}"
    return "{%s, %s, %s}" % (flags, begin, find)


def c_ident(name):
    return "ks_" + name.replace("|", "_").replace("-", "_")


HEADER = """/* keyspecs.cpp — key specifications (in Redis 7.0, part of commands.c,
 * generated from the JSON files of its src/commands). GENERATED by
 * src/commands/gen_keyspecs.py from a running Redis 7: do not edit.
 *
 * The key specifications of Redis 7 (COMMAND INFO's 9th element): which
 * arguments are keys and how the command uses them. They describe the
 * command's interface, identical in any server implementing it, so they are
 * taken from the reference, twice: as the keySpec tables
 * getKeysFromCommandWithSpecs (db.cpp) walks, and as the pre-encoded RESP
 * COMMAND INFO replies with. Commands absent here have no keys.
 */
#include <string_view>
#include <unordered_map>

#include "commands/keyspecs.h"

namespace {
"""

LOOKUP = """
struct commandKeySpecsEntry {
    std::string_view resp;
    std::span<const keySpec> specs;
};

const commandKeySpecsEntry *lookupEntry(std::string_view fullname) {
    static const std::unordered_map<std::string_view, commandKeySpecsEntry> entries = {"""

FOOTER = """    };
    auto it = entries.find(fullname);
    return it == entries.end() ? nullptr : &it->second;
}

}  // namespace

std::string_view commandKeySpecs(std::string_view fullname) {
    const commandKeySpecsEntry *entry = lookupEntry(fullname);
    return entry ? entry->resp : std::string_view("*0\\r\\n");
}

std::span<const keySpec> commandKeySpecTable(std::string_view fullname) {
    const commandKeySpecsEntry *entry = lookupEntry(fullname);
    return entry ? entry->specs : std::span<const keySpec>();
}"""


def main():
    ref, ours = Conn(int(sys.argv[1])), Conn(int(sys.argv[2]))
    names, _ = ours.call("COMMAND", "LIST")
    print(HEADER)
    rows = []
    for name in sorted(names):
        specs = raw_element(ref, name, 8)
        if specs == b"*0\r\n":
            continue
        (info,), _ = ref.call("COMMAND", "INFO", name)
        print("constexpr keySpec %s[] = {" % c_ident(name))
        for spec in info[8]:
            print("    %s," % c_keyspec(spec))
        print("};")
        rows.append("        {%s,\n         {%s,\n          %s}}," % (
            c_string(name.encode()), c_string(specs), c_ident(name)))
    print(LOOKUP)
    print("\n".join(rows))
    print(FOOTER)


if __name__ == "__main__":
    main()
