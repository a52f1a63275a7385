#!/bin/bash
# Build the kernel's memcg selftest (tools/testing/selftests/cgroup/test_memcontrol)
# of one series from Debian's linux-source-SERIES tarball, static, for the guest's
# kselftest-memcg workload, as the kernel's own Makefile builds it: -Wall -pthread
# and no -O (at -O2 the compiler drops allocations the tests measure).
#   build-kselftest-memcg.sh SERIES OUT  ->  OUT (e.g. build/guest/bin/kselftest-memcontrol-6.1)
set -euo pipefail
series=${1:?usage: build-kselftest-memcg.sh SERIES OUT}
out=$(realpath -m "${2:?usage: build-kselftest-memcg.sh SERIES OUT}")
tarball=${LINUX_SOURCE_DIR:-/usr/src}/linux-source-$series.tar.xz
[[ -r $tarball ]] || { echo "build-kselftest-memcg: $tarball not found (package linux-source-$series)" >&2; exit 1; }

src=$(mktemp -d "${TMPDIR:-/tmp}/kselftest-$series.XXXXXX")
trap 'rm -rf "$src"' EXIT
echo "build-kselftest-memcg: extracting the cgroup selftests from $tarball" >&2
sel=linux-source-$series/tools/testing/selftests
tar -xJf "$tarball" -C "$src" --strip-components=4 \
	"$sel/cgroup" "$sel/kselftest.h" "$sel/clone3" "$sel/pidfd"
mkdir -p "$(dirname "$out")"
# glibc's link-time note on getaddrinfo in a static program is expected: the
# guest's /etc/nsswitch.conf says "files", which static glibc has built in.
(cd "$src/cgroup" && gcc -static -Wall -pthread -o "$out.tmp" test_memcontrol.c cgroup_util.c) 2>&1 |
	grep -v "statically linked applications requires at runtime\|in function .tcp_client" >&2 || :
[[ -x $out.tmp ]] || { echo "build-kselftest-memcg: test_memcontrol-$series did not build" >&2; exit 1; }
mv "$out.tmp" "$out"
