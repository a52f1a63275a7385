#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- recipes that cannot build: each stops early, naming the cause --------
test_kbuild_errors() {
	local d=$tmp/recipes k=$PWD/kernels
	mkdir -p "$d"
	printf '[patches]\npatch = nope.patch\n[config]\nfragment = %s/minimal.config\nfragment = %s/lrubench.config\n' "$k" "$k" > "$d/missing.ini"
	printf -- '--- a/mm/vmscan.c\n+++ b/mm/vmscan.c\n@@ -192,1 +192,1 @@\n-int vm_swappiness = 61;\n+int vm_swappiness = 1;\n' > "$d/bad.patch"
	printf '[patches]\npatch = bad.patch\n[config]\nfragment = %s/lrubench.config\n' "$k" > "$d/badpatch.ini"
	printf '# CONFIG_LRU_GEN is not set\n' > "$d/nolrugen.config"
	printf '[config]\nbase = minimal\nfragment = %s/minimal.config\nfragment = %s/lrubench.config\nfragment = nolrugen.config\n' "$k" "$k" > "$d/nolrugen.ini"
	printf -- '--- a/kernel/bounds.c\n+++ b/kernel/bounds.c\n@@ -8,2 +8,3 @@\n #define __GENERATING_BOUNDS_H\n+#error lrubench test: this kernel does not build\n /* Include headers that define the enum constants of interest */\n' > "$d/break.patch"
	printf '[patches]\npatch = break.patch\n[config]\nfragment = %s/minimal.config\nfragment = %s/lrubench.config\n' "$k" "$k" > "$d/broken.ini"
	local rc
	expect_err() { # recipe, pattern...
		local r=$1; shift
		rc=0; $lrb kernel build "$d/$r.ini" > /dev/null 2> "$d/$r.err" || rc=$?
		[[ $rc == 2 ]] || { bad kbuild-errors "$r: exit $rc, expected 2"; return 1; }
		for pat in "$@"; do
			grep -qE -- "$pat" "$d/$r.err" || { bad kbuild-errors "$r: no '$pat' in: $(cat "$d/$r.err")"; return 1; }
		done
	}
	expect_err missing "missing\.ini:2: patch $d/nope\.patch: No such file or directory" || return
	expect_err badpatch "badpatch\.ini:2: patch bad\.patch does not apply to tarball:" "Hunk #1 FAILED" || return
	expect_err nolrugen "lacks what lrubench needs: CONFIG_LRU_GEN \(not set" || return
	mkdir -p "$d/intree" && touch "$d/intree/Makefile" "$d/intree/Kconfig" "$d/intree/.config"
	printf '[source]\ntree = intree\n[config]\nfragment = %s/lrubench.config\n' "$k" > "$d/intree.ini"
	expect_err intree "intree\.ini:2: tree $d/intree was built in place \(it has \.config\).*make mrproper" || return
	expect_err broken "broken\.ini: the kernel build failed \('make bzImage' exit 2" \
		"#error lrubench test: this kernel does not build" "log .*/failed-[0-9a-f]{16}\.log" || return
	# Builds come before any run: a campaign whose kernel cannot build creates no database.
	rc=0; $lrb run harness/tests/plans/one.ini --kernel "$d/missing.ini" --db "$tmp/kerr.db" > /dev/null 2> "$d/run.err" || rc=$?
	[[ $rc == 2 && ! -e $tmp/kerr.db ]] || { bad kbuild-errors "run with an unbuildable kernel: rc $rc, db $(ls "$tmp/kerr.db" 2>&1)"; return; }
	grep -q 'missing\.ini:2: patch' "$d/run.err" || { bad kbuild-errors "run: $(tail -2 "$d/run.err")"; return; }
	ok "kbuild-errors: missing patch, patch that does not apply, config without LRU_GEN, a tree built in place, failing build: each named, with the log's tail; nothing runs"
}

test_kbuild_errors
done_testing
