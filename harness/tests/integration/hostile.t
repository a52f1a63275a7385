#!/bin/bash
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# --- hostile inputs through the real command line: each is refused before
# any guest starts, with exit 2 and a message naming the file, the line and
# the value, and leaves nothing behind (no database, no report directory, an
# input database byte-identical). One case a line: a new hostile input found
# is a new line here, beside the parser's own unit case.
#
#   hostile NAME EXIT 'MESSAGE' COMMAND...   (MESSAGE: a fixed string of stderr)
# Inputs are written under $h by the lines before the cases.

h=$tmp/hostile
mkdir -p "$h"
cases=0

hostile() {
	local name=$1 want=$2 msg=$3 rc=0
	shift 3
	cases=$((cases + 1))
	# A FIFO must not block the parser: a hang is a failure, not a wait.
	timeout 30 "$@" >"$h/$name.out" 2>"$h/$name.err" || rc=$?
	[[ $rc == "$want" ]] || { bad "hostile $name" "exit $rc, want $want: $(head -3 "$h/$name.err")"; return 1; }
	grep -qF -- "$msg" "$h/$name.err" || { bad "hostile $name" "stderr lacks '$msg': $(head -3 "$h/$name.err")"; return 1; }
	# Echoed values are escaped: no control byte but the newline reaches the terminal.
	LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$h/$name.err" &&
		{ bad "hostile $name" "raw control bytes in the message: $(head -c 300 "$h/$name.err" | cat -v)"; return 1; }
	return 0
}

# A valid body after each plan's hostile head: a variant, a memcg, a workload.
body='[variant a]
lru = classic
[memcg m]
memory.max = 32M
[workload w]
type = anon-zipf
memcg = m
size = 2x
'
plan() { printf '%b%s' "$2" "$body" > "$h/$1.ini"; }
plan octal '[campaign]\nrepetitions = 010\n'
plan hex '[campaign]\nrepetitions = 0x2\n'
plan twice '[campaign]\nseed = 1\nseed = 2\n'
plan twice-memcg '[memcg n]\nmemory.max = 8M\nmemory.max = 9M\n'
plan big-memcg '[guest]\nmemory = 1G\n[memcg big]\nmemory.max = 64G\n'
plan zero-memory '[guest]\nmemory = 0\n'
plan zero-timeout '[campaign]\ntimeout = 0\n'
plan zero-swap '[guest]\nswap_size = 0\n'
plan cgroup2 '[guest]\ncgroup2_options = nsdelegate,memory_recursive\n'
plan v1-file '[memcg n]\nmemory.swappiness = 10\n'
plan numa-small '[guest]\nmemory = 512M\nnuma = 8\n'
printf '[guest]\nnuma = 2\n%snuma_policy = bind:2\n' "$body" > "$h/numa-node.ini"
printf '%scpu_affinity = 1\n' "$body" > "$h/affinity.ini"
plan nul '[campaign]\nname = x\x00y\n'
plan escape '[campaign]\nname = \x1b[31mred\x01\n'
printf '[variant a]\nlru = classic\n[workload w]\ntype = anon-zipf\ntheta = 1.5\n' > "$h/theta.ini"
head -c 4096 /dev/urandom > "$h/binary.ini"
mkfifo "$h/fifo.ini"
mkdir "$h/dir.ini"
: > "$h/empty-recipe.ini"
echo "not a database" > "$h/notdb.db"
sum0=$(sha256sum < "$h/notdb.db")
reports0=$(ls reports 2>/dev/null)

run() { hostile "$1" 2 "$2" "$lrb" run "$h/$1.ini" --db "$h/$1.db"; }
run octal "octal.ini:2: bad value '010' for 'repetitions'"
run hex "hex.ini:2: bad value '0x2' for 'repetitions': numbers are base 10"
run twice "twice.ini:3: 'seed' given twice in [campaign] (first at line 2)"
run twice-memcg "twice-memcg.ini:3: 'memory.max' given twice in [memcg n] (first at line 2)"
run big-memcg "big-memcg.ini:4: [memcg big] memory.max = 64G is more than the guest's memory (1G)"
run zero-memory "zero-memory.ini:2: memory '0' is zero"
run zero-timeout "zero-timeout.ini:2: timeout '0' is zero"
run zero-swap "zero-swap.ini:2: swap_size '0' is zero"
run cgroup2 "cgroup2.ini:2: unknown cgroup2 mount option 'memory_recursive'"
run v1-file "v1-file.ini:2: 'memory.swappiness' is a cgroup v1 file"
run numa-small "numa-small.ini:3: numa = 8 with memory = 512M leaves 64M a node"
run numa-node "numa-node.ini:11: numa_policy 'bind:2' of [workload w] names node 2; the guest has 2 nodes"
# vCPU 1 is there on the real clock's 2 vCPUs, not on the instruction clock's 1
hostile affinity-clock 2 "affinity.ini:9: cpu_affinity '1' of [workload w] names vCPU 1; the guest has 1" \
	"$lrb" run "$h/affinity.ini" --clock instructions --db "$h/affinity.db"
run nul "nul.ini:2: a NUL byte: a plan is text"
run escape "escape.ini:2: bad name '\\x1b[31mred\\x01'"
run theta "theta.ini:5: bad value '1.5' for 'theta' (a number from 0 to 0.9999)"
run binary "binary.ini:"
run fifo "fifo.ini: a FIFO, not a regular file"
run dir "dir.ini: a directory, not a regular file"
hostile empty-recipe 2 "empty-recipe.ini: the recipe sets no config fragment" \
	"$lrb" run harness/tests/plans/one.ini --kernel "$h/empty-recipe.ini" --db "$h/er.db"
# A kernel image cut short (a copy interrupted): its boot header's size says so.
if img=$("$lrb" kernel fetch 2>/dev/null); then
	mkdir -p "$h/cut"
	head -c 1M "$img" > "$h/cut/bzImage"
	hostile truncated-kernel 2 "cut/bzImage: truncated: its boot header says" \
		"$lrb" run harness/tests/plans/one.ini --kernel "$h/cut/bzImage" --db "$h/cut.db"
else
	bad "hostile truncated-kernel" "lrubench kernel fetch failed"
fi
# Not a campaign database: SQLite's own words, the file untouched, no report made.
for cmd in compare claims report; do
	hostile "notdb-$cmd" 2 "notdb.db: not a campaign database (SQLite: file is not a database)" \
		"$lrb" "$cmd" "$h/notdb.db"
done
hostile notdb-export 2 "notdb.db: not a campaign database (SQLite: file is not a database)" \
	"$lrb" export --kcidb "$h/notdb.db"

left=""
for f in "$h"/*.db "$h"/reports; do
	[[ -e $f && $f != "$h/notdb.db" ]] && left+=" ${f#"$h"/}"
done
if ((tap_failed)); then
	:
elif [[ $(sha256sum < "$h/notdb.db") != "$sum0" ]]; then
	bad hostile "a reader changed the non-campaign database"
elif [[ -n $left ]]; then
	bad hostile "refused inputs left files behind:$left"
elif [[ $(ls reports 2>/dev/null) != "$reports0" ]]; then
	bad hostile "report made a directory for a non-campaign database: $(ls reports)"
else
	ok "hostile: $cases inputs refused with exit 2, file:line:value, escaped; nothing left behind"
fi
done_testing
