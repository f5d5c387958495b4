#!/usr/bin/env bash
# tools/check_layers.sh — the layer rule of src/, checked over its #include
# lines (run by `make check-layers`, and so by `make test`).
#
# Every module (a .h and its .cpp share one name; ae_epoll.h and friends are
# ae's) sits on a layer; a file may include only headers of its own layer or
# a lower one, and no modules may include each other around a loop (a
# cycle) unless the cycle is in the accepted list below, with its reason.
# The layers, what each holds and its modules are the table `layers` below,
# and nowhere else: docs/layers.md (the full map) and README.md's Layers
# section (a summary) are generated from it, and the check fails when
# either is stale.
#
#   tools/check_layers.sh            check (and say which file is stale)
#   tools/check_layers.sh --write    rewrite docs/layers.md and README.md's block
#   tools/check_layers.sh --diagram  print docs/layers.md
#   tools/check_layers.sh --readme   print README.md's block
#
# Where a lower layer must call up, it goes through an interface defined
# below it (a table of function pointers, a hook), never an include;
# hooks.cpp fills every such hook, in one place.
set -euo pipefail
export LC_ALL=C  # the same sort order (and so the same generated text) everywhere
cd "$(dirname "$0")/.."

# The layers, from the bottom: number|name|what it holds|its modules.
layers=(
"0|bundled|third-party libraries bundled in deps/ (Lua's struct and cmsgpack): they include nothing of src/|lua_cmsgpack lua_struct"
"1|foundations|the event loop and its clock, the plain data structures, the request parser, hashing and helpers, and the generated tables of src/commands/ (key specs and docs, data the command table points at): they know nothing of the server|adlist ae anet commanddocs crc64 dict geohash intset keyspecs listpack livetrace monotonic rax request_parser rio sds setproctitle sha1 sha256 skiplist stream util version ziplist zmalloc"
"2|connections|networking (clients, reply buffers), the connections under it (connection: the socket kind; tls), config, the log, and CPU affinity (which logs)|config connection log networking setcpuaffinity tls"
"3|keyspace|the server (call, the command table's lookup), the keyspace and its objects, expiry, keyspace notifications and pub/sub, the background thread (bio) and lazy freeing, the latency monitor, the slow log, client-side caching (tracking)|bio db expire latency lazyfree notify object pubsub server slowlog tracking"
"4|types|the data types: t_*, and the commands built on strings and sorted sets (bitops, hyperloglog, geo)|bitops geo hyperloglog t_hash t_list t_set t_stream t_string t_zset"
"5|mechanisms|what is built on the types: blocking, transactions, scripting and functions, persistence (rdb, aof, childinfo), replication, cluster, ACL, eviction, SORT, DEBUG, and the live trace's outputs|acl aof blocked childinfo cluster debug evict functions livetrace_output multi rdb replication script_lua scripting sort"
"6|wiring|the command table (commands), the config table, the hooks the lower layers call up through (hooks: installServerHooks), start-up and the event loop's hooks (server_main), main()|commands config_table hooks main server_main"
)

# The include cycles accepted, each a set of modules that reach each other
# through includes (a strongly connected component of the module graph),
# with why it is not cut: members|reason. Any other cycle fails the check,
# and so does one of these whose members changed or that is gone.
accepted_cycles=(
"db expire latency lazyfree notify object pubsub server slowlog tracking|server.h includes db.h (a redisServer holds the databases) and the keyspace's files include server.h for the global \`server\`; server.cpp's call() feeds the slow log, the latency monitor and tracking, and frees asynchronously (lazyfree), all of which read \`server\` back; notify publishes through pubsub (pubsubPublishMessage, as Redis's notify.c), whose channels are \`server\`'s. Cutting it is giving each a part of redisServer of its own, as log.h, connection.h, networking.h and bio.h have"
"acl aof blocked childinfo debug evict functions multi rdb replication script_lua scripting|persistence, replication and scripting call each other as in Redis: an RDB holds the functions and AOF can start with one, a full sync is an RDB, the child's end runs rdb's and aof's handlers, scripts check ACLs while ACL's log and eviction ask about the running script (and scripts reply eviction's OOM error), EXEC checks ACLs and AOF replays MULTI, WAIT (blocked) counts the replicas' acks while replication blocks and unblocks clients; DEBUG RELOAD and LOADAOF run the loaders, which call debug's debugDelay for key-load-delay (Redis's rdb.c and aof.c call debug.c's)"
)

declare -A layer=() lname=() ldesc=() lmods=()
for row in "${layers[@]}"; do
    IFS='|' read -r l n d ms <<< "$row"
    lname[$l]=$n; ldesc[$l]=$d; lmods[$l]=$ms
    for m in $ms; do layer[$m]=$l; done
done
layer_numbers() { printf '%s\n' "${!lname[@]}" | sort -n; }

module_of() {  # src/ae_epoll.h -> ae
    local m=${1##*/}
    m=${m%.*}
    case $m in ae_*) m=ae ;; replication_*) m=replication ;; function_*) m=functions ;; esac
    printf '%s' "$m"
}

sources() { printf '%s\n' src/*.h src/*.cpp src/commands/*.h src/commands/*.cpp deps/lua/*.h deps/lua/*.cpp; }

# The module graph: edge_files["m im"] = the files of m that include a
# header of im (another module).
declare -A edge_files=() adj=()
for f in $(sources); do
    m=$(module_of "$f")
    while read -r inc; do
        im=$(module_of "$inc")
        [[ -n ${layer[$im]:-} && $im != "$m" ]] || continue
        [[ -z ${edge_files["$m $im"]:-} ]] && adj[$m]+=" $im"
        edge_files["$m $im"]+=" $f"
    done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done

# Tarjan's algorithm: the strongly connected components of the module
# graph with more than one module, one per line, members sorted.
declare -A scc_index=() scc_low=() scc_on=()
scc_stack=() scc_next=0 scc_found=()
scc_visit() {
    local v=$1 w
    scc_index[$v]=$scc_next; scc_low[$v]=$scc_next; scc_next=$((scc_next + 1))
    scc_stack+=("$v"); scc_on[$v]=1
    for w in ${adj[$v]:-}; do
        if [[ -z ${scc_index[$w]:-} ]]; then
            scc_visit "$w"
            (( scc_low[$w] < scc_low[$v] )) && scc_low[$v]=${scc_low[$w]}
        elif [[ -n ${scc_on[$w]:-} ]]; then
            (( scc_index[$w] < scc_low[$v] )) && scc_low[$v]=${scc_index[$w]}
        fi
    done
    if (( scc_low[$v] == scc_index[$v] )); then
        local members=()
        while :; do
            w=${scc_stack[-1]}; unset 'scc_stack[-1]'; unset 'scc_on[$w]'
            members+=("$w")
            [[ $w == "$v" ]] && break
        done
        (( ${#members[@]} > 1 )) && scc_found+=("$(printf '%s\n' "${members[@]}" | sort | tr '\n' ' ' | sed 's/ $//')")
    fi
    return 0
}
cycles() {
    local m
    for m in $(printf '%s\n' "${!layer[@]}" | sort); do
        [[ -z ${scc_index[$m]:-} ]] && scc_visit "$m"
    done
    [[ ${#scc_found[@]} -gt 0 ]] && printf '%s\n' "${scc_found[@]}" | sort
    return 0
}

# The map of src/ (docs/layers.md): the table, a Mermaid diagram (GitHub
# draws it) with one box per layer and an arrow from each module to every
# module it includes, and the accepted cycles.
diagram() {
    local l m e row members reason
    echo '# The layers of src/ (generated by `tools/check_layers.sh --diagram`; do not edit)'
    echo
    echo 'A module (a `.h` and its `.cpp`) includes modules of its own layer or of a'
    echo 'lower one: every arrow points down or sideways, never up, and no modules'
    echo 'include each other around a loop unless the cycle is accepted below'
    echo '(`make check-layers` fails otherwise). Where a lower layer must call up,'
    echo 'it is handed a function through a hook (networking.h, db.h, object.h,'
    echo 'server.h, config.h), not an include: `installServerHooks` (hooks.cpp)'
    echo 'fills them all. The layers, their modules and the accepted cycles are'
    echo 'tables in `tools/check_layers.sh`; this file and the Layers section of'
    echo 'README.md are generated from them.'
    echo
    echo '| layer | name | what it holds |'
    echo '|---|---|---|'
    for l in $(layer_numbers | sort -rn); do
        echo "| $l | ${lname[$l]} | ${ldesc[$l]} |"
    done
    echo
    echo '```mermaid'
    echo 'flowchart TB'
    for l in $(layer_numbers | sort -rn); do
        echo "  subgraph L$l[\"$l ${lname[$l]}\"]"
        for m in $(printf '%s\n' ${lmods[$l]} | sort); do echo "    $m"; done
        echo "  end"
    done
    for e in $(printf '%s\n' "${!edge_files[@]}" | tr ' ' ':' | sort); do
        echo "  ${e%%:*} --> ${e##*:}"
    done
    echo '```'
    echo
    echo '## Accepted include cycles'
    echo
    echo 'Modules that reach each other through includes (a strongly connected'
    echo 'component of the module graph), left as they are, and why.'
    echo
    for row in "${accepted_cycles[@]}"; do
        members=${row%%|*}; reason=${row#*|}
        echo "- layer ${layer[${members%% *}]}: \`$members\`: $reason."
    done
}

# README.md's block (between the markers of its Layers section).
readme_begin='<!-- layers:begin (generated by tools/check_layers.sh --readme; do not edit) -->'
readme_end='<!-- layers:end -->'
readme_block() {
    local l
    echo '| layer | name | modules |'
    echo '|---|---|---|'
    for l in $(layer_numbers | sort -rn); do
        echo "| $l | ${lname[$l]} | $(printf '%s\n' ${lmods[$l]} | sort | tr '\n' ' ' | sed 's/ $//') |"
    done
    echo
    echo 'Layer 0 is `deps/` (bundled libraries); `src/commands/` (the generated tables) is in layer 1.'
}
# README.md with its block replaced by readme_block's (on stdout).
readme_regenerated() {
    awk -v b="$readme_begin" -v e="$readme_end" -v blk="$1" '
        $0 == b { print; while ((getline line < blk) > 0) print line; skip = 1; next }
        $0 == e { skip = 0 }
        !skip' README.md
}

case ${1:-} in
--diagram) diagram; exit 0 ;;
--readme) readme_block; exit 0 ;;
--write)
    diagram > docs/layers.md
    if grep -qxF "$readme_begin" README.md && grep -qxF "$readme_end" README.md; then
        blk=$(mktemp); readme_block > "$blk"
        readme_regenerated "$blk" > README.md.tmp && mv README.md.tmp README.md
        rm -f "$blk"
    else
        echo "check-layers: README.md has no block between '$readme_begin' and '$readme_end'" >&2
        exit 1
    fi
    exit 0 ;;
esac

# The second rule: a function is declared in the header of the file that
# defines it (X.h for X.cpp), so that a reader finds it where the #include
# lines say, and an include is a true dependency. Checked over prototypes
# that start a line of a header, against definitions that start a line of
# the matching .cpp (replication.h's: either replication_*.cpp).
defines() {  # FILE NAME: a line of FILE starts NAME's definition (not a prototype)
    grep -E "^[A-Za-z_].*[ *&:]$2\(" "$1" | grep -qvE ';[[:space:]]*$'
}
check_declarations() {
    local h cpp names n c where bad=0
    for h in src/*.h; do
        cpp=${h%.h}.cpp
        case $h in src/ae_*) cpp=src/ae.cpp ;; esac
        names=$(grep -E '^[A-Za-z_][A-Za-z0-9_:<>,* &]*[ *&]\**[A-Za-z_][A-Za-z0-9_]*\(' "$h" |
                grep -vE '^(using|typedef|return|inline|static|template|constexpr|struct|class|enum|extern)\b' |
                grep -vE '\{|= ' |
                sed -E 's/^[^(]*[ *&]\**([A-Za-z_][A-Za-z0-9_]*)\(.*/\1/' | sort -u)
        for n in $names; do
            [[ -f $cpp ]] && defines "$cpp" "$n" && continue
            [[ $h == src/replication.h ]] && { defines src/replication_master.cpp "$n" || defines src/replication_replica.cpp "$n"; } && continue
            where=$(for c in src/*.cpp; do defines "$c" "$n" && printf '%s ' "$c"; done)
            echo "check-layers: $h declares $n, defined in ${where:-no .cpp}: declare it in that file's header"
            bad=1
        done
    done
    return $bad
}

# The cycles: each strongly connected component must be one accepted.
check_cycles() {
    local bad=0 c row a b f found
    local -A accepted=() seen=()
    for row in "${accepted_cycles[@]}"; do accepted[${row%%|*}]=1; done
    while read -r c; do
        [[ -n $c ]] || continue
        seen[$c]=1
        [[ -n ${accepted[$c]:-} ]] && continue
        echo "check-layers: include cycle among: $c (cut it, or list it with its reason in accepted_cycles, tools/check_layers.sh); its includes:"
        for a in $c; do for b in $c; do
            for f in ${edge_files["$a $b"]:-}; do echo "    $f includes $b"; done
        done; done
        bad=1
    done < <(cycles)
    for c in "${!accepted[@]}"; do
        found=${seen[$c]:-}
        if [[ -z $found ]]; then
            echo "check-layers: the accepted cycle '$c' is no longer one (cut, or its members changed): update accepted_cycles in tools/check_layers.sh"
            bad=1
        fi
    done
    return $bad
}

status=0
for f in $(sources); do
    m=$(module_of "$f")
    if [[ -z ${layer[$m]:-} ]]; then
        echo "check-layers: $f: module '$m' has no layer (add it to the table in tools/check_layers.sh)"
        status=1
        continue
    fi
    while read -r inc; do
        im=$(module_of "$inc")
        [[ -n ${layer[$im]:-} ]] || continue   # not a module of src/
        if (( layer[$im] > layer[$m] )); then
            echo "check-layers: $f -> $inc: layer ${layer[$m]} includes layer ${layer[$im]}"
            status=1
        fi
    done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done
check_declarations || status=1
check_cycles || status=1
if ! diff -q docs/layers.md <(diagram) > /dev/null 2>&1; then
    echo "check-layers: docs/layers.md is stale: tools/check_layers.sh --write"
    status=1
fi
blk=$(mktemp)
readme_block > "$blk"
if ! grep -qxF "$readme_begin" README.md || ! grep -qxF "$readme_end" README.md; then
    echo "check-layers: README.md's Layers section lacks the generated block ('$readme_begin' ... '$readme_end')"
    status=1
elif ! diff -q README.md <(readme_regenerated "$blk") > /dev/null 2>&1; then
    echo "check-layers: README.md's layer block is stale: tools/check_layers.sh --write"
    status=1
fi
rm -f "$blk"
if (( status == 0 )); then
    echo "check-layers: ok"
fi
exit $status
