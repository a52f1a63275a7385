#!/bin/bash
# Build libperf (and the libapi it needs) from Debian's linux-source-6.1
# tarball, for static linking into the guest agent.
#   build-libperf.sh OUTDIR  ->  OUTDIR/lib/{libperf.a,libapi.a}, OUTDIR/include/{perf,linux,...}
set -euo pipefail
out=${1:?usage: build-libperf.sh OUTDIR}
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
[[ -r $tarball ]] || { echo "build-libperf: $tarball not found (package linux-source-6.1)" >&2; exit 1; }

src=$out/src
rm -rf "$src" && mkdir -p "$src" "$out/lib" "$out/include"
echo "build-libperf: extracting tools/ from $tarball" >&2
tar -xJf "$tarball" -C "$src" --strip-components=1 --wildcards \
	'linux-source-6.1/tools/lib/*' 'linux-source-6.1/tools/include/*' \
	'linux-source-6.1/tools/arch/x86/*' 'linux-source-6.1/tools/build/*' \
	'linux-source-6.1/tools/scripts/*' 'linux-source-6.1/tools/perf/perf-sys.h' \
	'linux-source-6.1/include/uapi/*' 'linux-source-6.1/arch/x86/include/uapi/*' \
	'linux-source-6.1/scripts/*' 'linux-source-6.1/Makefile'
echo "build-libperf: building libperf.a" >&2
make -s -C "$src/tools/lib/perf" EXTRA_CFLAGS="-O2" >"$out/build.log" 2>&1 ||
	{ tail -20 "$out/build.log" >&2; exit 1; }
cp "$src/tools/lib/perf/libperf.a" "$src/tools/lib/api/libapi.a" "$out/lib/"
cp -r "$src/tools/lib/perf/include/perf" "$out/include/"
rm -rf "$src"
