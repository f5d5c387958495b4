#!/usr/bin/env bash
# tools/fetch_redis_source.sh — Redis 7.0.15's source, as Debian packages
# it (its patches applied), unpacked into build/redis-src/redis-7.0.15:
# the reference bench/build_time.sh builds and whose own test suite can be
# run against cppredis. Cached under build/ (never committed).
#
# A private apt directory (build/redis-src/apt: its own sources.list, lists
# and cache) holds the deb-src lines, so the machine's apt configuration
# and state are neither needed nor changed; the mirrors are those of
# /etc/apt (deb.debian.org, bookworm, bookworm-updates, bookworm-security)
# and Debian's archive keyring checks them. It fetches the version of the
# installed redis-server package when there is one (what the tests compare
# with), else bookworm's newest, and refuses anything but upstream 7.0.15.
# Idempotent: once the tree is unpacked a second run does nothing.
#   tools/fetch_redis_source.sh        prints the tree's path when done
set -euo pipefail

UPSTREAM=7.0.15
root=$(cd "$(dirname "$0")/.." && pwd)
cache=$root/build/redis-src
tree=$cache/redis-$UPSTREAM

if [[ -f $tree/.fetched ]]; then
    echo "$tree"
    exit 0
fi

for tool in apt-get dpkg-source; do
    command -v "$tool" >/dev/null || { echo "$0: needs $tool (Debian's apt and dpkg-dev)" >&2; exit 1; }
done

apt=$cache/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$cache/download"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
cat >"$apt/sources.list" <<EOF
deb-src [signed-by=$keyring] http://deb.debian.org/debian bookworm main
deb-src [signed-by=$keyring] http://deb.debian.org/debian bookworm-updates main
deb-src [signed-by=$keyring] http://deb.debian.org/debian-security bookworm-security main
EOF
# Our own lists and cache only; as root apt would hand the download to its
# _apt user, which cannot write into a build tree: download as ourselves.
aptopts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
         -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
         -o APT::Sandbox::User="$(id -un)" -qq)

apt-get "${aptopts[@]}" update

installed=$(dpkg-query -W -f '${Version}' redis-server 2>/dev/null || true)
if [[ -n $installed ]]; then
    version=$installed
else
    version=$(apt-cache "${aptopts[@]}" showsrc redis | sed -n 's/^Version: //p' | sort -V | tail -1)
fi
upstream=${version#*:}
upstream=${upstream%%-*}
if [[ $upstream != "$UPSTREAM" ]]; then
    echo "$0: Debian's redis is $version, not $UPSTREAM" >&2
    exit 1
fi

cd "$cache/download"
apt-get "${aptopts[@]}" source --download-only "redis=$version"
dsc=$(ls -1 redis_"${version#*:}".dsc)
rm -rf "$tree.partial"
# apt checked the files against the signed Release; dpkg-source would
# check the .dsc's own signature too, whose uploader keys are not here:
# its gpgv lines say only that.
dpkg-source -q -x "$dsc" "$tree.partial" 2> >(grep -v '^gpgv:' >&2)
echo "$version" >"$tree.partial/.fetched"
mv "$tree.partial" "$tree"
echo "$tree"
