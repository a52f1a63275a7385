#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- layers: the house's rules catch what they are written for -------------
# scripts/layers.sh and scripts/names.sh run in make lint on the real tree,
# where they are clean; here each is pointed (--root) at a toy tree of three
# layers, first clean, then broken one way at a time: a call upward, an
# include upward, two files that use each other, a circle of three, a
# header declaring a function another folder defines, SQLite outside the store, a
# function on a struct named against the convention. Each break must fail
# with a message naming the file and the thing used. Compiles a few lines.
root=$tmp/tree

# toy FILE TEXT: write a file of the toy tree
toy() {
	mkdir -p "$(dirname "$root/$1")"
	printf '%s\n' "$2" > "$root/$1"
}

# objects of every .c of the toy's layer folders, as the Makefile lays them out
toy_build() {
	local c o
	rm -rf "$root/build"
	for c in "$root"/harness/*/*.c; do
		o=$root/build/host/${c#"$root"/}
		o=${o%.c}.o
		mkdir -p "$(dirname "$o")"
		cc -c -w -I"$root"/harness/low -I"$root"/harness/high -I"$root"/harness/store -o "$o" "$c" ||
			return 1
	done
}

toy_clean() {
	rm -rf "$root"
	toy harness/LAYERS "# toy
common 0 shared
low    1 the bottom
store  2 the SQL room
high   3 the top"
	toy harness/common/util.h "/* nothing */"
	toy harness/low/low.h "int low__value(void);"
	toy harness/low/low.c '#include "low.h"
int low__value(void) { return 1; }'
	toy harness/store/keep.h "int keep__put(int v);"
	toy harness/store/keep.c '#include <sqlite3.h>
#include "keep.h"
#include "low.h"
int keep__put(int v) { return v + low__value() + (sqlite3_threadsafe() ? 0 : 0); }'
	toy harness/high/high.h "struct thing;
int thing__free(struct thing *t);"
	toy harness/high/high.c '#include "high.h"
#include "keep.h"
struct thing { int x; };
int thing__free(struct thing *t) { return keep__put(t->x); }'
}

# expect_fail WHAT SCRIPT PATTERN: SCRIPT fails on the toy and says PATTERN
expect_fail() {
	local what=$1 script=$2 pattern=$3 out rc=0
	toy_build || { bad "layers: $what" "the toy did not compile"; return; }
	out=$("$script" --root "$root" build 2>&1) || rc=$?
	if ((rc != 1)); then
		bad "layers: $what" "$script exited $rc, not 1: $out"
	elif ! grep -q -- "$pattern" <<< "$out"; then
		bad "layers: $what" "$script did not say \"$pattern\": $out"
	else
		ok "layers: $what: $(grep -m1 -- "$pattern" <<< "$out")"
	fi
}

test_layers() {
	local out
	command -v nm > /dev/null && command -v tsort > /dev/null ||
		{ skip binutils "layers: nm or tsort is missing"; return; }
	toy_clean
	toy_build || { bad "layers: clean toy" "the toy did not compile"; return; }
	if out=$(scripts/layers.sh --root "$root" build 2>&1) && out2=$(scripts/names.sh --root "$root" 2>&1); then
		ok "layers: the clean toy passes ($out; $out2)"
	else
		bad "layers: clean toy" "$out ${out2:-}"
	fi

	toy_clean
	toy harness/low/low.c '#include "low.h"
int thing__free(struct thing *t);
int low__value(void) { return thing__free(0); }'
	expect_fail "a call upward" scripts/layers.sh "harness/low/low.c: calls thing__free() of harness/high/high.c"

	toy_clean
	toy harness/low/low.c '#include "low.h"
#include "high.h"
int low__value(void) { return 1; }'
	expect_fail "an include upward" scripts/layers.sh "harness/low/low.c:2: includes high.h of harness/high/"

	toy_clean
	toy harness/high/other.c 'int thing__free(void *t);
int other__go(void) { return thing__free(0); }'
	toy harness/high/high.c '#include "high.h"
int other__go(void);
struct thing { int x; };
int thing__free(struct thing *t) { return t ? t->x : other__go(); }'
	expect_fail "two files that use each other" scripts/layers.sh "circle: harness/high/high.c <-> harness/high/other.c"

	toy_clean
	toy harness/store/keep.h "int keep__put(int v);
int low__value(void);"
	expect_fail "a header declaring what another folder defines" scripts/layers.sh "harness/store/keep.h: declares low__value(), defined in harness/low/low.c"

	toy_clean
	toy harness/high/one.c 'int two__go(void);
int one__go(void) { return two__go(); }'
	toy harness/high/two.c 'int three__go(void);
int two__go(void) { return three__go(); }'
	toy harness/high/three.c 'int one__go(void);
int three__go(void) { return one__go(); }'
	expect_fail "a circle of three files" scripts/layers.sh "circle through: .*harness/high/one"

	toy_clean
	toy harness/high/high.c '#include "high.h"
#include <sqlite3.h>
struct thing { int x; };
int thing__free(struct thing *t) { return sqlite3_threadsafe() + t->x; }'
	expect_fail "SQLite outside the store" scripts/layers.sh "harness/high/high.c:2: SQLite outside harness/store/"

	toy_clean
	toy harness/high/high.h "struct thing;
int thing_free(struct thing *t);"
	toy harness/high/high.c '#include "high.h"
int thing_free(struct thing *t) { return t != 0; }'
	expect_fail "a method named against the convention" scripts/names.sh "thing_free() takes a struct thing \*: call it thing__free()"
}

test_layers
done_testing
