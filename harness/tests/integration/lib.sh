# shellcheck shell=bash
# Shared by the integration tests (harness/tests/integration/NAME.t): TAP
# output, the temporary and hand-off directories, and the queries and checks
# several tests use. Sourced, never run: a test file is
#
#   . "$(dirname "$0")/lib.sh"
#   test_NAME() { ... ok "..." or bad NAME "why" or skip TAG "why" ... }
#   test_NAME
#   done_testing
#
# Environment (the runner, harness/tests/integration/run, sets it; a test
# run alone from the repository's top works with the defaults):
#   LRUBENCH_BUILD      the build directory (default build)
#   LRUBENCH_IT_STATE   hand-offs between tests: slice.db (slice -> deck),
#                       aa.db (noise -> deck, verdict), results/ and reports/
#                       (default: a temporary directory of this test alone)
# Kernels built from recipes are handed on through the kernel cache
# (kernels/cache or LRUBENCH_KERNELS), as lrubench itself does.
set -uo pipefail

tap_name=$(basename "$0" .t)
build=${LRUBENCH_BUILD:-build}
[[ $build == /* ]] || build=$PWD/$build
cd "$(dirname "${BASH_SOURCE[0]}")/../../.." || exit 2
lrb=$build/lrubench

tmp=$(mktemp -d /tmp/lrubench-it-"$tap_name".XXXXXX)
own_state=
if [[ -z ${LRUBENCH_IT_STATE:-} ]]; then
	LRUBENCH_IT_STATE=$(mktemp -d /tmp/lrubench-it-state.XXXXXX)
	own_state=1
fi
export LRUBENCH_IT_STATE
state=$LRUBENCH_IT_STATE
mkdir -p "$state"
export LRUBENCH_RESULTS=$state/results LRUBENCH_REPORTS=$state/reports

# --- TAP ------------------------------------------------------------------------
# ok DESC; bad NAME WHY (WHY as "# " diagnostics); skip TAG WHY, TAG naming the
# missing prerequisite (the runner fails a skip whose tag it does not expect).
tap_n=0 tap_failed=0 tap_finished=
tap_desc() { local d=${1//$'\n'/ }; printf '%s' "${d//#/\\#}"; }
diag() { printf '%s\n' "$@" | sed 's/^/# /'; }
ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $(tap_desc "$1")"; }
bad() {
	tap_n=$((tap_n + 1)) tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $(tap_desc "$1")"
	diag "$2"
}
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP [$1] $(tap_desc "$2")"; }

# The plan, last; exit 1 when a test failed.
done_testing() {
	tap_finished=1
	exit 0
}

tap_exit() {
	local rc=$?
	[[ -n $tap_finished ]] || bad "$tap_name" "the test script stopped before its end (exit $rc)"
	((tap_n > 0)) || bad "$tap_name" "the test script reported no result"
	echo "1..$tap_n"
	rm -rf "$tmp"
	[[ -z $own_state ]] || rm -rf "$state"
	((tap_failed == 0)) || exit 1
	exit 0
}
trap tap_exit EXIT

[[ -x $lrb ]] || { bad "$tap_name" "$lrb is not built (make all)"; tap_finished=1; exit 1; }

# --- queries --------------------------------------------------------------------
q() { sqlite3 -batch -noheader "$1" "$2"; }
# lrubench run/compare/report exit statuses: 0 no key metric regressed, 1 one did,
# 2 error, 3 incomplete (runs failed, a variant with fewer than 2 blocks)
verdict_rc() { (($1 == 0 || $1 == 1)); }

# --- injected faults: classified, samples kept, the next run completes -----
# Two runs of one variant; the fault hits only the first.
fault_campaign() { # NAME KIND[@MS] [extra args]
	local name=$1 fault=$2
	shift 2
	$lrb run harness/tests/plans/one.ini --reps 2 --db "$tmp/$name.db" --fault "$fault" \
		--fault-run 1 "$@" > /dev/null 2> "$tmp/$name.err"
}

check_fault() { # NAME STATUS REASON_GLOB MIN_SAMPLES
	local name=$1 want=$2 glob=$3 min=$4 db=$tmp/$1.db
	local first; first=$(q "$db" "SELECT status || '|' || reason FROM run ORDER BY ord LIMIT 1")
	local ns; ns=$(q "$db" "SELECT COUNT(*) FROM sample WHERE run_id = (SELECT id FROM run ORDER BY ord LIMIT 1)")
	local last; last=$(q "$db" "SELECT status FROM run ORDER BY ord DESC LIMIT 1")
	# shellcheck disable=SC2053
	if [[ ${first%%|*} == "$want" && ${first#*|} == $glob && $ns -ge $min && $last == completed ]]; then
		ok "$name: $first; $ns samples kept; the next run completed"
	else
		bad "$name" "first run '$first' with $ns samples, last run '$last': $(tail -3 "$tmp/$name.err")"
	fi
}

# --- reports: a report's files are there, parse, and hold what they should --
# check_report DIR NAME: index.html well-formed XML, plots present and non-empty
check_report() {
	local dir=$1 name=$2 f
	[[ -s $dir/report.md && -s $dir/index.html ]] || { bad "$name" "no report.md or index.html in $dir"; return 1; }
	xmllint --noout "$dir/index.html" 2> "$tmp/$name.xml.err" ||
		{ bad "$name" "index.html is not well-formed: $(head -3 "$tmp/$name.xml.err")"; return 1; }
	# the verdict table first, then the full comparison
	local v c; v=$(grep -n '^## Verdicts' "$dir/report.md" | cut -d: -f1); c=$(grep -n '^## Comparison' "$dir/report.md" | cut -d: -f1)
	[[ -n $v && -n $c && $v -lt $c ]] || { bad "$name" "report.md: verdicts not before the comparison"; return 1; }
	for f in heatmap bars-0-anon ts-majfault ts-swap ts-psi ts-pgsteal balance; do
		for e in png svg pdf; do
			[[ -s $dir/plots/$f.$e ]] || { bad "$name" "plot $f.$e missing or empty"; return 1; }
		done
	done
	ls "$dir"/plots/gen-*-_wl.png > /dev/null 2>&1 || { bad "$name" "no MGLRU generations plot of memcg wl"; return 1; }
	if command -v pdfinfo > /dev/null; then
		[[ $(pdfinfo "$dir/deck.pdf" 2> /dev/null | awk '/^Pages:/ { print $2 }') == 11 ]] ||
			{ bad "$name" "no 11-page deck.pdf in $dir"; return 1; }
	fi
	# every plot is inlined in the page
	local svgs; svgs=$(grep -c '<svg' "$dir/index.html")
	# shellcheck disable=SC2012
	((svgs >= $(ls "$dir"/plots/*.svg | wc -l))) || { bad "$name" "index.html inlines $svgs of the SVG plots"; return 1; }
	return 0
}

# --- images of the deck's pages --------------------------------------------------
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ print $3 * 256 + $4 "x" $7 * 256 + $8 }'; }
pgm_ink() { # the share of inked pixels (< 200 of 255) of a P5 PGM, in per mille
	local w h; read -r w h < <(sed -n '2p' "$1")
	tail -c $((w * h)) "$1" | od -An -v -tu1 | tr -s ' ' '\n' | awk -v n=$((w * h)) '$1 != "" && $1 < 200 { d++ } END { print int(1000 * d / n) }'
}

# --- the catalogue: every workload reports every result of its row, and its memcg reclaimed
# $1 db, $2 the test's name (the caller reports), $3 expected runs. Workloads are named after their types in the plan.
# Prints what it checked, or why it failed and returns 1 (it runs in $(...):
# the caller reports, as a bad inside would be lost with the subshell).
check_catalogue_runs() {
	local db=$1 want=$3
	local n; n=$(q "$db" "SELECT COUNT(*) FROM run WHERE status='completed'")
	[[ $n == "$want" ]] || { echo "expected $want completed runs, got $n: $(q "$db" "SELECT id,status,reason FROM run")"; return 1; }
	local missing="" checked=0
	while read -r type key _unit _better only; do
		for run in $(q "$db" "SELECT r.id FROM run r WHERE EXISTS (SELECT 1 FROM result WHERE run_id=r.id AND workload='$type')"); do
			local lru; lru=$(q "$db" "SELECT v.lru_mode FROM run r JOIN variant v ON v.id=r.variant_id WHERE r.id=$run")
			local has; has=$(q "$db" "SELECT COUNT(*) FROM result WHERE run_id=$run AND workload='$type' AND key='$key'")
			checked=$((checked + 1))
			if [[ $only == - || $only == "$lru" ]]; then
				[[ $has == 1 ]] || missing+=" $type:$key(run $run)"
			else
				[[ $has == 0 ]] || missing+=" $type:$key(run $run, not $only)"
			fi
		done
	done < <($lrb list --results)
	[[ -z $missing ]] || { echo "results missing or misplaced:$missing"; return 1; }
	# Every memcg of every run reclaimed (memory.stat pgsteal grew).
	local idle; idle=$(q "$db" "SELECT run_id || ':' || scope || '=' || (MAX(v) - MIN(v)) FROM v_value WHERE metric='memory.stat:pgsteal' GROUP BY run_id, scope HAVING MAX(v) - MIN(v) <= 0")
	[[ -z $idle ]] || { echo "memcgs that reclaimed nothing (run:memcg=pgsteal delta): $idle"; return 1; }
	local memcgs; memcgs=$(q "$db" "SELECT COUNT(DISTINCT scope) FROM v_value WHERE metric='memory.stat:pgsteal'")
	echo "$checked results checked, $memcgs memcgs reclaimed"
}

# --- Debian's kernel with a config option turned off: DIR OPTION (DIR/bzImage, DIR/config)
kernel_without() {
	local img
	img=$($lrb kernel fetch 2>/dev/null) || return 1
	mkdir -p "$1" && cp "$img" "$1/bzImage" || return 1
	sed "s/^CONFIG_$2=y/# CONFIG_$2 is not set/" \
		"$(dirname "$img")/config-$(basename "$img" | sed 's/^vmlinuz-//')" > "$1/config"
}

# --- git histories of linux-source tarballs (bisect, owntree612) ---------------
# A git repository of a linux-source tarball, one commit: DIR TARBALL MESSAGE.
# Later commits in it need the identity exported here (run it in a subshell).
linux_repo() {
	local d=$1
	mkdir -p "$d" && tar -xf "$2" -C "$d" --strip-components=1 && cd "$d" || return 1
	export GIT_AUTHOR_NAME=lrubench GIT_AUTHOR_EMAIL=lrubench@localhost \
		GIT_COMMITTER_NAME=lrubench GIT_COMMITTER_EMAIL=lrubench@localhost
	# -f: Debian's tarball ships a .gitignore that ignores its top level.
	git init -q && git add -f -A . && git commit -q -m "$3"
}

bisect_repo() { # DIR: the history; prints the three commits, oldest first
	(
		linux_repo "$1" /usr/src/linux-source-6.1.tar.xz "linux-source-6.1" &&
			git apply "$OLDPWD/harness/tests/fixtures/bisect/0002-mm-costly-anonymous-fault.patch" &&
			git commit -q -am "mm/memory: 100 us per new anonymous page (the regression)" &&
			sed -i '1a /* lrubench bisect test: a harmless commit after the regression. */' mm/vmscan.c &&
			git commit -q -am "mm/vmscan: a comment (harmless)" &&
			git rev-list --reverse HEAD
	)
}
