#!/bin/bash
# The host program's layers (harness/LAYERS), checked two ways:
#   includes  a file of harness/DIR includes only headers of its own folder, of
#             a folder of lower rank, of harness/common or of workloads/;
#   symbols   an object of harness/DIR uses (nm: undefined symbols) only
#             functions and data defined in its own folder or below, and no
#             two modules (a .c) use each other, directly or round a longer
#             circle (tsort over the whole graph);
#   SQL       only harness/store/ speaks SQLite: no other file includes
#             sqlite3.h or the store's sql.h and store-priv.h, nor calls sqlite3_*.
# Usage: scripts/layers.sh [--root DIR] BUILD (the host objects are BUILD/host/...;
# DIR: the tree to check, default this repository; BUILD relative to it).
# Each finding names the file, the used thing and both folders; any finding
# fails (exit 1).
set -euo pipefail
root=$(dirname "$0")/..
if [[ ${1:-} == --root ]]; then
	root=$2
	shift 2
fi
cd "$root"
build=${1:-build}

declare -A rank
while read -r dir r _; do
	[[ -z $dir || $dir == \#* ]] && continue
	rank[$dir]=$r
done < harness/LAYERS

bad=0
finding() {
	echo "layers: $*" >&2
	bad=$((bad + 1))
}

# folder of a path harness/DIR/x.c (workloads/ counts as common: rank 0)
folder_of() {
	local p=$1
	case $p in
	harness/*/*) p=${p#harness/}; echo "${p%%/*}" ;;
	workloads/*) echo common ;;
	*) echo "?" ;;
	esac
}

# allowed FROM TO: a user in folder FROM may use folder TO
allowed() {
	[[ $1 == "$2" ]] || (( ${rank[$2]} < ${rank[$1]} ))
}

# --- includes -------------------------------------------------------------
declare -A header_dir
for dir in "${!rank[@]}"; do
	for h in harness/"$dir"/*.h; do
		[[ -e $h ]] || continue
		b=$(basename "$h")
		[[ -n ${header_dir[$b]:-} ]] && finding "$h: header name also in harness/${header_dir[$b]}/ (names must be unique)"
		header_dir[$b]=$dir
	done
done
nfiles=0
for dir in "${!rank[@]}"; do
	[[ $dir == common ]] && continue
	for f in harness/"$dir"/*.[ch]; do
		[[ -e $f ]] || continue
		nfiles=$((nfiles + 1))
		while IFS=: read -r line inc; do
			inc=${inc#*\"}
			inc=${inc%\"*}
			to=${header_dir[$(basename "$inc")]:-}
			[[ -z $to ]] && continue # workloads/, system or generated headers
			allowed "$dir" "$to" ||
				finding "$f:$line: includes $inc of harness/$to/ (rank ${rank[$to]}), above harness/$dir/ (rank ${rank[$dir]})"
		done < <(grep -n '^#include "' "$f" || true)
	done
done

# --- SQL in the store only ------------------------------------------------
for dir in "${!rank[@]}"; do
	[[ $dir == store ]] && continue
	while IFS=: read -r f line _; do
		finding "$f:$line: SQLite outside harness/store/ (the store offers typed queries)"
	done < <(grep -Hn '#include <sqlite3.h>\|#include "sql.h"\|#include "store-priv.h"\|\bsqlite3_[a-z_]*\s*(' harness/"$dir"/*.[ch] 2> /dev/null || true)
done

# --- symbols --------------------------------------------------------------
objs=()
for dir in "${!rank[@]}"; do
	[[ $dir == common ]] && continue
	for c in harness/"$dir"/*.c; do
		[[ -e $c ]] || continue
		o=$build/host/${c%.c}.o
		[[ -e $o ]] || { echo "layers: $o is missing: build the host program first (make all)" >&2; exit 2; }
		objs+=("$o")
	done
done
edges=$(mktemp)
defs=$(mktemp)
trap 'rm -f "$edges" "$defs"' EXIT
# "module symbol" for definitions (D) and uses (U); module = harness/DIR/x
nm -A "${objs[@]}" 2> /dev/null | awk -v b="$build/host/" -v defs="$defs" '
	{
		file = $1; sub(/:.*/, "", file); sub(b, "", file); sub(/\.o$/, "", file)
		type = $(NF - 1); sym = $NF
		if (type == "U") use[file, sym] = 1
		else if (type ~ /^[TDBRVW]$/) { def[sym] = file; print sym, file > defs }
	}
	END {
		for (k in use) {
			split(k, p, SUBSEP)
			if ((p[2] in def) && def[p[2]] != p[1]) print p[1], def[p[2]], p[2]
		}
	}' | sort -u > "$edges"
while read -r from to sym; do
	fd=$(folder_of "$from.c")
	td=$(folder_of "$to.c")
	allowed "$fd" "$td" ||
		finding "$from.c: calls $sym() of $to.c: harness/$td/ (rank ${rank[$td]}) is above harness/$fd/ (rank ${rank[$fd]})"
done < "$edges"
# a header declares what its own folder defines: a function declared in
# harness/X/*.h and defined in harness/Y/ hides a use of Y behind X's name
for dir in "${!rank[@]}"; do
	[[ $dir == common ]] && continue
	for h in harness/"$dir"/*.h; do
		[[ -e $h ]] || continue
		while read -r fn; do
			where=$(awk -v s="$fn" '$1 == s { print $2; exit }' "$defs")
			[[ -z $where ]] && continue
			wd=$(folder_of "$where.c")
			[[ $wd == "$dir" ]] ||
				finding "$h: declares $fn(), defined in $where.c: its header belongs in harness/$wd/"
		done < <(gcc -fpreprocessed -dD -E -P "$h" 2> /dev/null | tr '\n' ' ' | tr ';{}' '\n\n\n' |
			sed -nE 's/^[[:space:]]*[a-z][a-z0-9_ ]*[ *]([a-z][a-z0-9_]*)[[:space:]]*\(.*/\1/p')
	done
done

# circles: a pair of modules that use each other, then any longer circle
# (tsort names each loop's modules after "input contains a loop")
pairs=$(awk '{ e[$1 " " $2] = 1 } END { for (k in e) { split(k, p, " "); if ((p[2] " " p[1]) in e && p[1] < p[2]) print p[1] ".c <-> " p[2] ".c" } }' "$edges")
[[ -n $pairs ]] && while read -r p; do finding "circle: $p use each other"; done <<< "$pairs"
if [[ -z $pairs ]]; then
	loops=$(awk '{ print $1, $2 }' "$edges" | sort -u | { tsort 2>&1 > /dev/null || true; } |
		awk '/input contains a loop/ { if (l != "") print l; l = ""; next } { sub(/^tsort: /, ""); l = l " " $0 } END { if (l != "") print l }')
	[[ -n $loops ]] && while read -r l; do finding "circle through: $l"; done <<< "$loops"
fi

if ((bad)); then
	echo "layers: $bad finding(s) (harness/LAYERS says the rule)" >&2
	exit 1
fi
echo "layers: ${#rank[@]} layers, $nfiles files, ${#objs[@]} objects, $(wc -l < "$edges") uses: no use upwards, no circle"
