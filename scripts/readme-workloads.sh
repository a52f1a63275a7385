#!/bin/bash
# README.md's table of workloads is `lrubench list --markdown`: the
# catalogue's rows (workloads/WORKLOADS.def, each definition at the top of
# its workloads/wl-NAME.c), between the lines "<!-- workloads: ... -->" and
# "<!-- /workloads -->". This rewrites it; test-workloads fails while it is
# stale.
#   scripts/readme-workloads.sh [BUILD_DIR]   (default build; make all first)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.table"' EXIT
"$build/lrubench" list --markdown > "$tmp.table"
if ! grep -q '^<!-- workloads: ' README.md || ! grep -q '^<!-- /workloads -->' README.md; then
	echo "readme-workloads: README.md has no '<!-- workloads: ... -->' ... '<!-- /workloads -->' lines" >&2
	exit 1
fi
awk -v table="$tmp.table" '
	/^<!-- workloads: / { print; while ((getline line < table) > 0) print line; skip = 1; next }
	/^<!-- \/workloads -->/ { skip = 0 }
	!skip' README.md > "$tmp"
if cmp -s "$tmp" README.md; then
	echo "readme-workloads: README.md's table is current"
else
	cat "$tmp" > README.md
	echo "readme-workloads: README.md's table rewritten from $build/lrubench list --markdown"
fi
