#!/usr/bin/env bash
# tools/check_layers.sh — the layer rule of src/, checked over its #include
# lines (run by `make check-layers`, and so by `make test`).
#
# Every module (a .h and its .cpp share one name; ae_epoll.h and friends are
# ae's) sits on a layer; a file may include only headers of its own layer or
# a lower one. From the bottom:
#   1  the event loop and the plain data structures: they know nothing of
#      the server
#   2  networking (clients, the RESP parser, reply buffers) and config
#   3  the server, the keyspace and its objects, notifications, expiry
#   4  the data types, t_*
#   5  the mechanisms built on the types: blocking, transactions, pub/sub,
#      scripting, persistence, the background thread, DEBUG
#   6  the wiring: the command table, start-up and the event loop's hooks
#      (server_main), main()
# Where a lower layer must call up, it goes through an interface defined
# below it (a table of function pointers, a hook), never an include.
#
# Upward includes that existed when the rule was written are listed in
# tools/layers_known_violations.txt: each is debt to remove. The check fails
# on an upward include not in that list, and on a listed one that no longer
# exists (remove it from the list), so the list only shrinks.
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A layer=()
assign() { local l=$1; shift; for m in "$@"; do layer[$m]=$l; done; }
assign 1 adlist ae anet crc64 dict intset listpack lua_cmsgpack lua_libs lua_struct rio sds sha1 skiplist util ziplist zmalloc
assign 2 networking config
assign 3 server db object notify expire
assign 4 t_hash t_list t_set t_string t_zset
assign 5 aof bio blocked childinfo debug multi pubsub rdb script_lua scripting
assign 6 commands keyspecs main server_main

module_of() {  # src/ae_epoll.h -> ae
    local m=${1##*/}
    m=${m%.*}
    case $m in ae_*) m=ae ;; esac
    printf '%s' "$m"
}

known=tools/layers_known_violations.txt
found=$(mktemp)
trap 'rm -f "$found"' EXIT
status=0

for f in src/*.h src/*.cpp; do
    m=$(module_of "$f")
    if [[ -z ${layer[$m]:-} ]]; then
        echo "check-layers: $f: module '$m' has no layer (add it to tools/check_layers.sh)"
        status=1
        continue
    fi
    while read -r inc; do
        im=$(module_of "$inc")
        [[ -n ${layer[$im]:-} ]] || continue   # not a module of src/
        if (( layer[$im] > layer[$m] )); then
            echo "$f -> $inc" >> "$found"
        fi
    done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done

sort -o "$found" "$found"
new=$(comm -23 "$found" <(grep -v '^#' "$known" | sort))
gone=$(comm -13 "$found" <(grep -v '^#' "$known" | sort))
if [[ -n $new ]]; then
    echo "check-layers: upward includes (a lower layer includes a higher one):"
    while read -r line; do
        f=${line%% -> *}; inc=${line##* -> }
        echo "  $line   (layer ${layer[$(module_of "$f")]} includes layer ${layer[$(module_of "$inc")]})"
    done <<< "$new"
    status=1
fi
if [[ -n $gone ]]; then
    echo "check-layers: fixed, remove from $known:"
    sed 's/^/  /' <<< "$gone"
    status=1
fi
if (( status == 0 )); then
    echo "check-layers: ok ($(grep -vc '^#' "$known" || true) known upward includes left to remove)"
fi
exit $status
