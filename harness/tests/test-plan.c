// SPDX-License-Identifier: GPL-2.0
/* The plan parser: exact values from a valid plan, file:line errors from bad ones. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

#include "catalogue.h"
#include "plan.h"
#include "util.h"

static const char good[] = "# comment\n"
			   "[campaign]\n"
			   "name = t1\n"
			   "repetitions = 3\n"
			   "interval = 100ms\n"
			   "baseline = mg\n"
			   "warmup = 1\n"
			   "[guest]\n"
			   "memory = 2G\n"
			   "swap_size = 512M\n"
			   "[variant cl]\n"
			   "lru = classic\n"
			   "sysctl.vm.swappiness = 100\n"
			   "[variant mg]\n"
			   "lru = mglru\n"
			   "kernel = minimal\n"
			   "min_ttl_ms = 1000\n"
			   "memcg.wl.memory.max = 128M\n"
			   "memcg.wl.memory.swap.max = max\n"
			   "[memcg wl]\n"
			   "memory.max = 256M\n"
			   "memory.high = max\n"
			   "[workload a]\n"
			   "type = anon-zipf\n"
			   "memcg = wl\n"
			   "size = 2.5x\n"
			   "accesses = 1000\n";

static void test_valid_plan(void **state)
{
	struct plan *p = NULL;
	char *err = NULL;

	(void)state;
	assert_int_equal(plan__parse("good.ini", good, &p, &err), 0);
	assert_null(err);
	assert_string_equal(p->name, "t1");
	assert_int_equal(p->repetitions, 3);
	assert_int_equal(p->interval_ms, 100);
	assert_string_equal(p->baseline, "mg");
	assert_int_equal(p->mem_bytes, 2ull << 30);
	assert_int_equal(p->swap_bytes, 512ull << 20);
	assert_int_equal(p->nvariants, 2);
	assert_int_equal(p->variants[0].lru_enabled, 0);
	assert_int_equal(p->variants[1].lru_enabled, 7);
	assert_int_equal(p->variants[1].min_ttl_ms, 1000);
	assert_int_equal(p->variants[0].min_ttl_ms, -1);
	assert_int_equal(p->variants[0].nsysctls, 1);
	assert_string_equal(p->variants[0].sysctls[0].key, "vm/swappiness");
	assert_string_equal(p->variants[0].sysctls[0].value, "100");
	assert_string_equal(p->variants[0].kernel, "debian");
	assert_string_equal(p->variants[1].kernel, "minimal");
	assert_int_equal(p->nmemcgs, 1);
	assert_int_equal(p->memcgs[0].max_bytes, 256ull << 20);
	assert_string_equal(p->memcgs[0].files[0].value, "268435456");
	assert_string_equal(p->memcgs[0].files[1].value, "max");
	assert_ptr_equal(p->workloads[0].def, workload_find("anon-zipf"));
	/* 2.5 x 256 MiB, resolved to bytes */
	assert_string_equal(p->workloads[0].params[0].key, "size");
	assert_string_equal(p->workloads[0].params[0].value, "671088640");
	assert_int_equal(p->warmup, 1);
	/* the variant's own memcg values; relative sizes still follow [memcg wl] */
	assert_int_equal(p->variants[0].nmemcg_files, 0);
	assert_null(plan_variant__memcg(&p->variants[0], "wl", "memory.max"));
	assert_string_equal(plan_variant__memcg(&p->variants[1], "wl", "memory.max"), "134217728");
	assert_string_equal(plan_variant__memcg(&p->variants[1], "wl", "memory.swap.max"), "max");
	assert_null(plan_variant__memcg(&p->variants[1], "wl", "memory.high"));
	assert_null(plan_variant__memcg(&p->variants[1], "w", "memory.max"));
	plan__free(p);
}

/* Each bad plan must fail with exactly this message (file:line: what). */
static const struct {
	const char *text;
	const char *msg;
} bad[] = {
	{ "[campaign]\nnmae = x\n", "bad.ini:2: unknown key 'nmae' in [campaign]" },
	{ "[guest]\nmemory = 12Q\n", "bad.ini:2: bad size '12Q' for 'memory' (use e.g. 512M, 2G)" },
	{ "[variant a]\nlru = newest\n",
	  "bad.ini:2: bad lru 'newest' (classic, mglru, or a value 0x0..0x7 for "
	  "/sys/kernel/mm/lru_gen/enabled)" },
	{ "[variant a b]\n", "bad.ini:1: [variant] needs a name of letters, digits, '.', '_' or "
			     "'-', got 'a b'" },
	{ "[variant x;rm]\n", "bad.ini:1: [variant] needs a name of letters, digits, '.', '_' or "
			      "'-', got 'x;rm'" },
	{ "[bogus]\n", "bad.ini:1: unknown section [bogus] (campaign, guest, variant, memcg, "
		       "workload)" },
	{ "x = 1\n", "bad.ini:1: 'x' outside any section" },
	{ "[campaign]\nrepetitions = 0\n",
	  "bad.ini:2: bad value '0' for 'repetitions' (an integer from 1 to 1000)" },
	{ "[campaign]\ninterval = 5ms\n", "bad.ini:2: interval '5ms' is below 10ms" },
	{ "[variant a]\n[workload w]\ntype = nope\n",
	  "bad.ini:3: unknown workload type 'nope' (see 'lrubench list')" },
	{ "[variant a]\n[workload w]\ntype = anon-zipf\ntheta = 1.5\n",
	  "bad.ini:4: bad value '1.5' for 'theta' (a number from 0 to 0.9999)" },
	{ "[variant a]\n[workload w]\ntype = anon-zipf\nwat = 1\n",
	  "bad.ini:4: unknown key 'wat' for workload type 'anon-zipf'" },
	{ "[variant a]\n[memcg m]\n[workload w]\ntype = anon-zipf\nmemcg = m\nsize = 2x\n"
	  "accesses = 5\n",
	  "bad.ini:0: [workload w] size = 2x is relative, but memcg 'm' has no memory.max" },
	{ "[variant a]\n[workload w]\ntype = anon-zipf\nmemcg = nope\nsize = 1M\n",
	  "bad.ini:0: [workload w] names memcg 'nope', which has no [memcg] section" },
	{ "[variant a]\nsysctl.vm.swappiness = 1;reboot\n",
	  "bad.ini:2: bad value '1;reboot' for 'sysctl.vm.swappiness'" },
	{ "[campaign]\n", "bad.ini:0: no [variant NAME] section" },
	{ "[variant a]\n[variant a]\n", "bad.ini:2: duplicate [variant a]" },
	{ "[variant a]\nkernel = my kernel\n",
	  "bad.ini:2: bad kernel 'my kernel' (debian, a recipe: NAME for kernels/NAME.ini or a "
	  "FILE.ini, or a bzImage path holding a '/')" },
	{ "[memcg m]\nmemory.max = lots\n",
	  "bad.ini:2: bad size 'lots' for 'memory.max' (e.g. 256M, or max)" },
	{ "[campaign]\nrepetitions = 2\nwarmup = 2\n[variant a]\n[workload w]\ntype = anon-zipf\n"
	  "memcg = m\nsize = 1M\n[memcg m]\n",
	  "bad.ini:0: warmup 2 leaves none of the 2 repetitions measured" },
	{ "[variant a]\nmemcg.m.memory.max = lots\n",
	  "bad.ini:2: bad size 'lots' for 'memory.max' (e.g. 256M, or max)" },
	{ "[variant a]\nmemcg.m.memory.pressure = 1\n",
	  "bad.ini:2: unknown memcg file 'memory.pressure' in 'memcg.m.memory.pressure'" },
	{ "[memcg m]\nmemory.swappiness = 10\n",
	  "bad.ini:2: 'memory.swappiness' is a cgroup v1 file; cgroup v2 has none (use "
	  "sysctl.vm.swappiness in a [variant])" },
	{ "[memcg m]\nmemory.oom.group = 2\n",
	  "bad.ini:2: bad value '2' for 'memory.oom.group' (0 or 1)" },
	{ "[variant a]\nmemcg.memory.max = 1M\n",
	  "bad.ini:2: bad key 'memcg.memory.max' (memcg.NAME.memory.FILE)" },
	{ "[variant a]\nmemcg.n.memory.max = 1M\n[memcg m]\n[workload w]\ntype = anon-zipf\n"
	  "memcg = m\nsize = 1M\n",
	  "bad.ini:0: [variant a] memcg.n.memory.max: no such [memcg]" },
	/* Sweeps, per-variant knobs, disks, choices. */
	{ "[variant a]\nsysctl.vm.swappiness = 0, 60,\n",
	  "bad.ini:2: empty value in the list '0, 60,' for 'sysctl.vm.swappiness'" },
	{ "[variant a]\nsysctl.vm.swappiness = 0,,60\n",
	  "bad.ini:2: empty value in the list '0,,60' for 'sysctl.vm.swappiness'" },
	{ "[variant a]\n\nsysctl.vm.swappiness = 0, 6;0\n",
	  "bad.ini:3: bad value '6;0' for 'sysctl.vm.swappiness'" },
	{ "[variant a]\nmin_ttl_ms = 0, 1000, 0\n",
	  "bad.ini:2: '0' listed twice for 'min_ttl_ms'" },
	{ "[guest]\ncgroup2_options = nsdelegate,memory_recursive\n",
	  "bad.ini:2: unknown cgroup2 mount option 'memory_recursive' in "
	  "'nsdelegate,memory_recursive' (nsdelegate, memory_recursiveprot, memory_localevents, "
	  "favordynmods, memory_hugetlb_accounting, pids_localevents, or none)" },
	{ "[guest]\nmemory = 256M\nnuma = 4\n[variant a]\n[memcg m]\n[workload w]\n"
	  "type = anon-zipf\nmemcg = m\nsize = 1M\n",
	  "bad.ini:3: numa = 4 with memory = 256M leaves 64M a node; a node needs 128M at least "
	  "(raise memory or lower numa)" },
	{ "[guest]\nnuma = 9\n", "bad.ini:2: bad value '9' for 'numa' (an integer from 1 to 8)" },
	{ "[guest]\nnuma = 2\n[variant a]\n[memcg m]\n[workload w]\ntype = anon-zipf\n"
	  "memcg = m\nsize = 1M\nnuma_policy = bind:0,2\n",
	  "bad.ini:9: numa_policy 'bind:0,2' of [workload w] names node 2; the guest has 2 nodes "
	  "([guest] numa = 2)" },
	{ "[variant a]\n[memcg m]\n[workload w]\ntype = anon-zipf\nnuma_policy = bind:1\n"
	  "memcg = m\nsize = 1M\n",
	  "bad.ini:5: numa_policy 'bind:1' of [workload w] names node 1; the guest has 1 node "
	  "([guest] numa = 1)" },
	{ "[workload w]\nnuma_policy = spread\n",
	  "bad.ini:2: bad numa_policy 'spread': want default, bind:LIST, interleave:LIST or "
	  "preferred:N (LIST: 0,1 or 0-3)" },
	{ "[workload w]\nnuma_policy = interleave:1-0\n",
	  "bad.ini:2: bad numa_policy 'interleave:1-0': a node list is numbers below 64 and ranges: "
	  "0, 0,2 or 0-3" },
	{ "[guest]\ncpus = 2\n[variant a]\n[memcg m]\n[workload w]\ntype = anon-zipf\n"
	  "memcg = m\nsize = 1M\ncpu_affinity = 1-2\n",
	  "bad.ini:9: cpu_affinity '1-2' of [workload w] names vCPU 2; the guest has 2 ([guest] "
	  "cpus, or the clock's default)" },
	{ "[workload w]\ncpu_affinity = all\n",
	  "bad.ini:2: bad cpu_affinity 'all': a list of vCPUs below 64 and ranges: 0, 0,2 or 0-3" },
	{ "[workload w]\nnuma_policy = preferred:0,1\n",
	  "bad.ini:2: bad numa_policy 'preferred:0,1': preferred takes one node" },
	{ "[guest]\ncgroup2_options = nsdelegate,\n",
	  "bad.ini:2: bad cgroup2_options 'nsdelegate,' (names separated by commas, or none)" },
	{ "[guest]\ncgroup2_options = nsdelegate\ncgroup2_options = none\n",
	  "bad.ini:3: 'cgroup2_options' given twice in [guest] (first at line 2)" },
	{ "[variant a]\nthp = never, sometimes\n",
	  "bad.ini:2: bad thp 'sometimes' (never, always or madvise)" },
	{ "[variant a]\nlru = classic, mglru\n",
	  "bad.ini:2: 'lru' takes one value, not a list (sweeps: min_ttl_ms, thp, read_ahead_kb, "
	  "fault_around_bytes, sysctl.*)" },
	{ "[variant a]\nthp = never, always\nthp = madvise, never\n",
	  "bad.ini:3: 'thp' given twice in [variant a] (first at line 2)" },
	{ "[variant a]\nread_ahead_kb = 16M\n",
	  "bad.ini:2: bad value '16M' for 'read_ahead_kb' (an integer from 0 to 1048576)" },
	{ "[variant a-swappiness0]\n[variant a]\nsysctl.vm.swappiness = 0, 60\n",
	  "bad.ini:0: two variants named 'a-swappiness0' once sweeps are expanded" },
	{ "[campaign]\nbaseline = a\n[variant a]\nsysctl.vm.swappiness = 0, 60\n[memcg m]\n"
	  "[workload w]\ntype = anon-zipf\nmemcg = m\nsize = 1M\n",
	  "bad.ini:0: baseline 'a' is not a variant (a swept variant is named NAME-KNOBVALUE, "
	  "e.g. a-swappiness0)" },
	{ "[variant a]\nread_ahead_kb = 0\n[memcg m]\nmemory.max = 8M\n[workload w]\n"
	  "type = anon-zipf\nmemcg = m\nsize = 1x\n",
	  "bad.ini:2: read_ahead_kb applies to the scratch disk, which no workload of this plan "
	  "uses" },
	{ "[guest]\nscratch_size = 1M\n", "bad.ini:2: scratch_size '1M' is below 64M" },
	{ "[guest]\ntrace = yes\n", "bad.ini:2: bad value 'yes' for 'trace' (on or off)" },
	{ "[variant a]\ntrace = reclaim\n", "bad.ini:2: bad value 'reclaim' for 'trace' (on or off)" },
	{ "[campaign]\nrepetitions = sometimes\n",
	  "bad.ini:2: bad value 'sometimes' for 'repetitions' (an integer from 1 to 1000)" },
	{ "[campaign]\nrepetitions = 3\nmax_repetitions = 6\n[variant a]\n[memcg m]\n"
	  "[workload w]\ntype = anon-zipf\nmemcg = m\nsize = 1M\n",
	  "bad.ini:3: min_repetitions, max_repetitions and max_time apply only with "
	  "repetitions = auto" },
	{ "[campaign]\nrepetitions = auto\nmin_repetitions = 5\nmax_repetitions = 4\n"
	  "[variant a]\n[memcg m]\n[workload w]\ntype = anon-zipf\nmemcg = m\nsize = 1M\n",
	  "bad.ini:4: max_repetitions 4 is below min_repetitions 5" },
	{ "[campaign]\nrepetitions = auto\nmin_repetitions = 1\n",
	  "bad.ini:3: bad value '1' for 'min_repetitions' (an integer from 2 to 1000)" },
	{ "[variant a]\n[workload w]\ntype = anon-zipf\nkey = majflt, tput\n",
	  "bad.ini:4: key 'tput' is not a result anon-zipf reports on every run (see 'lrubench "
	  "list')" },
	{ "[variant a]\n[workload w]\ntype = anon-file-mix\nkey = gen_anon_young_pct\n",
	  "bad.ini:4: key 'gen_anon_young_pct' is not a result anon-file-mix reports on every run "
	  "(see 'lrubench list')" },
	{ "[variant a]\n[workload w]\nkey = majflt\n",
	  "bad.ini:3: 'type' must come before 'key' in [workload w]" },
	{ "[variant a]\n[workload w]\ntype = mmap-stride\nadvice = often\n",
	  "bad.ini:4: bad value 'often' for 'advice' (normal|random|sequential)" },
	{ "[variant a]\n[workload w]\ntype = mmap-stride\ndir = /tmp\n",
	  "bad.ini:4: 'dir' is given by lrubench (/scratch/w)" },
	{ "[variant a]\n[workload w]\ntype = mmap-stride\nstride = 4K\nstride = 8K\n",
	  "bad.ini:5: 'stride' given twice in [workload w] (first at line 4)" },
	/* Every key once per section (#28): a second value silently won. */
	{ "[campaign]\nrepetitions = 3\nname = x\nrepetitions = 5\n",
	  "bad.ini:4: 'repetitions' given twice in [campaign] (first at line 2)" },
	{ "[guest]\nmemory = 1G\n[campaign]\n[guest]\nmemory = 2G\n",
	  "bad.ini:5: 'memory' given twice in [guest] (first at line 2)" },
	{ "[variant a]\nlru = mglru\nlru = classic\n",
	  "bad.ini:3: 'lru' given twice in [variant a] (first at line 2)" },
	{ "[variant a]\nmemcg.m.memory.max = 1M\nmemcg.m.memory.max = 2M\n",
	  "bad.ini:3: 'memcg.m.memory.max' given twice in [variant a] (first at line 2)" },
	{ "[memcg m]\nmemory.max = 64M\nmemory.high = 32M\nmemory.max = 128M\n",
	  "bad.ini:4: 'memory.max' given twice in [memcg m] (first at line 2)" },
	{ "[variant a]\n[workload w]\ntype = anon-zipf\ntype = anon-zipf\n",
	  "bad.ini:4: 'type' given twice in [workload w] (first at line 3)" },
	{ "[variant a]\n[workload w]\ntype = anon-zipf\nafter = v\n[workload v]\n",
	  "bad.ini:4: after 'v': not a workload declared above [workload w]" },
	{ "[variant a]\n[workload w]\ntype = anon-zipf\nafter = w\n",
	  "bad.ini:4: after 'w': not a workload declared above [workload w]" },
	{ "[variant a]\n[workload w]\nafter = ,\n", "bad.ini:3: empty 'after' list in [workload w]" },
	{ "[variant a]\n[memcg m]\n[workload w]\ntype = proactive\nmemcg = m\nsize = 1M\n",
	  "bad.ini:0: [workload w] needs 'request' (bytes per memory.reclaim write and memory.high "
	  "step)" },
	/* Numbers are base 10 (#28): no octal, hex, '+', blanks or overflow. */
	{ "[campaign]\nrepetitions = 010\n",
	  "bad.ini:2: bad value '010' for 'repetitions': a number in base 10 without leading zeros "
	  "(an integer from 1 to 1000)" },
	{ "[campaign]\nrepetitions = 0x2\n",
	  "bad.ini:2: bad value '0x2' for 'repetitions': numbers are base 10, no 0x (an integer "
	  "from 1 to 1000)" },
	{ "[campaign]\nretries = +1\n",
	  "bad.ini:2: bad value '+1' for 'retries': a number without a '+' sign (an integer from 0 "
	  "to 10)" },
	{ "[guest]\nclock = wall\n", "bad.ini:2: bad clock 'wall' (real or instructions)" },
	{ "[guest]\ncpus = 1 6\n",
	  "bad.ini:2: bad value '1 6' for 'cpus': a number without blanks (an integer from 1 to "
	  "256)" },
	{ "[campaign]\nseed = 99999999999999999999\n",
	  "bad.ini:2: bad seed '99999999999999999999': too large" },
	{ "[campaign]\nseed = 0x10\n", "bad.ini:2: bad seed '0x10': numbers are base 10, no 0x" },
	{ "[guest]\nmemory = 0100M\n",
	  "bad.ini:2: bad size '0100M' for 'memory': a number in base 10 without leading zeros (use "
	  "e.g. 512M, 2G)" },
	{ "[guest]\nmemory = 99999999999999999999G\n",
	  "bad.ini:2: bad size '99999999999999999999G' for 'memory': too large (use e.g. 512M, 2G)" },
	{ "[campaign]\ntimeout = 030s\n",
	  "bad.ini:2: bad duration '030s' for 'timeout': a number in base 10 without leading zeros "
	  "(use e.g. 500ms, 30s, 2m)" },
	{ "[memcg m]\nmemory.max = 0x100000\n",
	  "bad.ini:2: bad size '0x100000' for 'memory.max': numbers are base 10, no 0x (e.g. 256M, "
	  "or max)" },
	{ "[variant a]\n[workload w]\ntype = anon-zipf\naccesses = 0x10\n",
	  "bad.ini:4: bad value '0x10' for 'accesses': numbers are base 10, no 0x (an unsigned "
	  "integer)" },
	{ "[variant a]\n[workload w]\ntype = anon-zipf\ntheta = 0x1p-1\n",
	  "bad.ini:4: bad value '0x1p-1' for 'theta' (a number from 0 to 0.9999)" },
	{ "[variant a]\n[workload w]\ntype = anon-zipf\nsize = 0x2x\n",
	  "bad.ini:4: bad relative size '0x2x' for 'size'" },
	/* Sizes against the guest (#28): a limit never reached, a set that cannot fit, zeros. */
	{ "[guest]\nmemory = 1G\n[variant a]\n[memcg m]\nmemory.high = 512M\nmemory.max = 64G\n",
	  "bad.ini:6: [memcg m] memory.max = 64G is more than the guest's memory (1G)" },
	{ "[variant a]\n[memcg m]\nmemory.low = 1536M\n[guest]\nmemory = 1G\n",
	  "bad.ini:3: [memcg m] memory.low = 1536M is more than the guest's memory (1G)" },
	{ "[guest]\nswap_size = 256M\n[variant a]\n[memcg m]\nmemory.swap.max = 1G\n",
	  "bad.ini:5: [memcg m] memory.swap.max = 1G is more than the guest's swap, swap_size "
	  "(256M)" },
	{ "[variant a]\nmemcg.m.memory.min = 2G\n[memcg m]\n",
	  "bad.ini:2: [variant a] memcg.m.memory.min = 2G is more than the guest's memory (1G)" },
	{ "[variant a]\n[memcg m]\n[workload w]\ntype = anon-zipf\nmemcg = m\nsize = 64G\n",
	  "bad.ini:6: [workload w] size = 64G is more than the guest's memory (1G)" },
	{ "[variant a]\n[memcg m]\n[workload w]\ntype = mmap-stride\nmemcg = m\nsize = 5G\n",
	  "bad.ini:6: [workload w] size = 5G is more than the guest's memory (1G) and its scratch "
	  "disk (4G)" },
	{ "[guest]\nmemory = 0\n", "bad.ini:2: memory '0' is zero: the guest needs some" },
	{ "[guest]\nswap_size = 0M\n",
	  "bad.ini:2: swap_size '0M' is zero (swap = none for no swap)" },
	{ "[campaign]\ntimeout = 0s\n",
	  "bad.ini:2: timeout '0s' is zero: every run would time out at once" },
	/* What an error echoes is escaped (#28): no raw bytes from a binary file on a terminal. */
	{ "[campaign]\nname = a\x01\x1b[2Jb\n",
	  "bad.ini:2: bad name 'a\\x01\\x1b[2Jb' (letters, digits, '.', '_', '-')" },
	{ "[guest]\nmemory = 1\xff\xfeG\n",
	  "bad.ini:2: bad size '1\\xff\\xfeG' for 'memory' (use e.g. 512M, 2G)" },
	{ "[\xc3\xa9t\xc3\n", "bad.ini:1: bad section header '[\xc3\xa9t\\xc3'" },
	{ "[campaign]\nna\tme\x7f = 1\n", "bad.ini:2: unknown key 'na\\tme\\x7f' in [campaign]" },
};

/* A plan is a regular text file (#28): a FIFO blocked open, a NUL cut the text short. */
static void test_plan_files(void **state)
{
	char dir[] = "/tmp/test-plan.XXXXXX";
	_cleanup_free_ char *fifo = NULL, *nul = NULL, *want = NULL;
	static const char text[] = "[campaign]\nname = x\n\n[var\0iant a]\n";
	struct plan *p = NULL;
	char *err = NULL;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	fifo = xasprintf("%s/fifo.ini", dir);
	nul = xasprintf("%s/nul.ini", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(plan__load(fifo, &p, &err), -EINVAL);
	assert_null(p);
	want = xasprintf("%s: a FIFO, not a regular file", fifo);
	assert_string_equal(err, want);
	free(err);
	free(want);
	assert_int_equal(plan__load(dir, &p, &err), -EINVAL);
	want = xasprintf("%s: a directory, not a regular file", dir);
	assert_string_equal(err, want);
	free(err);
	free(want);
	f = fopen(nul, "we");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, sizeof(text) - 1, f), sizeof(text) - 1);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(plan__load(nul, &p, &err), -EINVAL);
	assert_null(p);
	want = xasprintf("%s:4: a NUL byte: a plan is text", nul);
	assert_string_equal(err, want);
	free(err);
	unlink(fifo);
	unlink(nul);
	rmdir(dir);
}

/* What fits the guest passes: max, a swap limit without zram, a file set on the scratch disk. */
static void test_fits_guest(void **state)
{
	static const char text[] = "[guest]\nmemory = 1G\nswap = none\n"
				   "[variant a]\nmemcg.m.memory.max = max\n"
				   "[memcg m]\nmemory.max = 1G\nmemory.high = max\n"
				   "memory.swap.max = 8G\n"
				   "[workload w]\ntype = mmap-stride\nmemcg = m\nsize = 3G\n";
	struct plan *p = NULL;
	char *err = NULL;

	(void)state;
	if (plan__parse("ok.ini", text, &p, &err) < 0)
		fail_msg("%s", err);
	assert_string_equal(p->workloads[0].params[0].value, "3G");
	plan__free(p);
}

/* The number parsers themselves (harness/common/util.c): base 10, and exact. */
static void test_numbers_base10(void **state)
{
	static const struct {
		const char *s;
		int r;
		int64_t v;
	} i64[] = {
		{ "0", 0, 0 },	  { "42", 0, 42 },	    { "-7", 0, -7 },
		{ "9223372036854775807", 0, INT64_MAX },   { "-9223372036854775808", 0, INT64_MIN },
		{ "9223372036854775808", -ERANGE, 0 },	    { "-9223372036854775809", -ERANGE, 0 },
		{ "010", -EINVAL, 0 },	  { "0x2", -EINVAL, 0 },    { "+1", -EINVAL, 0 },
		{ " 1", -EINVAL, 0 },	  { "1 ", -EINVAL, 0 },	    { "1 0", -EINVAL, 0 },
		{ "", -EINVAL, 0 },	  { "-", -EINVAL, 0 },	    { "-0", -EINVAL, 0 },
		{ "-01", -EINVAL, 0 },	  { "1e3", -EINVAL, 0 },
	};
	uint64_t u = 5;
	double d = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(i64); i++) {
		int64_t v = 12345;

		assert_int_equal(parse_i64(i64[i].s, &v), i64[i].r);
		assert_true(v == (i64[i].r ? 12345 : i64[i].v));
	}
	assert_int_equal(parse_u64("18446744073709551615", &u), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(parse_u64("18446744073709551616", &u), -ERANGE);
	assert_int_equal(parse_u64("-1", &u), -EINVAL);
	assert_int_equal(parse_u64("010", &u), -EINVAL);
	assert_int_equal(parse_u64("0X1", &u), -EINVAL);
	/* Kernel-printed masks keep their hex: lru_gen/enabled reads 0x0007. */
	assert_int_equal(parse_u64_c("0x0007", &u), 0);
	assert_int_equal(u, 7);
	assert_int_equal(parse_u64_c("12", &u), 0);
	assert_int_equal(u, 12);
	assert_int_equal(parse_u64_c("010", &u), -EINVAL);
	assert_int_equal(parse_u64_c("0x", &u), -EINVAL);
	assert_int_equal(parse_u64_c("0x10000000000000000", &u), -ERANGE);
	assert_int_equal(parse_size("0", &u), 0);
	assert_int_equal(u, 0);
	assert_int_equal(parse_size("10M", &u), 0);
	assert_int_equal(u, 10ull << 20);
	assert_int_equal(parse_size("010M", &u), -EINVAL);
	assert_int_equal(parse_size("0x10M", &u), -EINVAL);
	assert_int_equal(parse_size("+1M", &u), -EINVAL);
	assert_int_equal(parse_size("16777216T", &u), -ERANGE);
	assert_int_equal(parse_duration_ms("05s", &u), -EINVAL);
	assert_int_equal(parse_duration_ms("5s", &u), 0);
	assert_int_equal(u, 5000);
	assert_int_equal(parse_double("0.25", &d), 0);
	assert_true(d == 0.25);
	assert_int_equal(parse_double("1e-3", &d), 0);
	assert_int_equal(parse_double(".5", &d), 0);
	assert_int_equal(parse_double("0x1p-1", &d), -EINVAL);
	assert_int_equal(parse_double("inf", &d), -EINVAL);
	assert_int_equal(parse_double("nan", &d), -EINVAL);
	assert_int_equal(parse_double(" 1", &d), -EINVAL);
	assert_int_equal(parse_double("+1", &d), -EINVAL);
	assert_int_equal(parse_double("1.", &d), 0);
	assert_int_equal(parse_double("1e999", &d), -ERANGE);
}

static void test_bad_plans(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct plan *p = NULL;
		char *err = NULL;

		assert_int_equal(plan__parse("bad.ini", bad[i].text, &p, &err), -EINVAL);
		assert_null(p);
		assert_non_null(err);
		assert_string_equal(err, bad[i].msg);
		free(err);
	}
}

static void test_lru_modes(void **state)
{
	unsigned v = 99;

	(void)state;
	assert_int_equal(lru_mode_parse("classic", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(lru_mode_parse("0x0003", &v), 0);
	assert_int_equal(v, 3);
	assert_int_equal(lru_mode_parse("0x8", &v), -EINVAL);
	assert_int_equal(v, 3);
}

/* A sweep expands in place, the last sweep fastest; knobs land in each variant. */
static void test_sweeps(void **state)
{
	static const char text[] = "[campaign]\n"
				   "baseline = classic-swappiness60-thpnever\n"
				   "[guest]\n"
				   "thp = madvise\n"
				   "scratch_size = 3G\n"
				   "[variant classic]\n"
				   "sysctl.vm.watermark_scale_factor = 50\n"
				   "sysctl.vm.swappiness = 0, 60\n"
				   "thp = never,always\n"
				   "[variant mglru]\n"
				   "lru = mglru\n"
				   "min_ttl_ms = 0, 1000\n"
				   "read_ahead_kb = 0\n"
				   "[memcg m]\n"
				   "memory.max = 64M\n"
				   "[workload s]\n"
				   "type = mmap-stride\n"
				   "memcg = m\n"
				   "size = 2x\n"
				   "advice = random\n";
	static const char *const names[] = {
		"classic-swappiness0-thpnever",	 "classic-swappiness0-thpalways",
		"classic-swappiness60-thpnever", "classic-swappiness60-thpalways",
		"mglru-min_ttl_ms0",		 "mglru-min_ttl_ms1000",
	};
	struct plan *p = NULL;
	char *err = NULL;

	(void)state;
	if (plan__parse("sweep.ini", text, &p, &err) < 0)
		fail_msg("%s", err);
	assert_int_equal(p->nvariants, ARRAY_SIZE(names));
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		assert_string_equal(p->variants[i].name, names[i]);
		assert_int_equal(p->variants[i].nsweeps, 0);
	}
	/* classic-swappiness60-thpalways: the fixed sysctl first, then the swept one. */
	assert_int_equal(p->variants[3].nsysctls, 2);
	assert_string_equal(p->variants[3].sysctls[0].key, "vm/watermark_scale_factor");
	assert_string_equal(p->variants[3].sysctls[1].key, "vm/swappiness");
	assert_string_equal(p->variants[3].sysctls[1].value, "60");
	assert_string_equal(plan__variant_thp(p, &p->variants[3]), "always");
	assert_int_equal(p->variants[3].lru_enabled, 0);
	assert_int_equal(p->variants[3].read_ahead_kb, -1);
	assert_int_equal(p->variants[5].min_ttl_ms, 1000);
	assert_int_equal(p->variants[5].lru_enabled, 7);
	assert_int_equal(p->variants[5].read_ahead_kb, 0);
	assert_string_equal(plan__variant_thp(p, &p->variants[5]), "madvise");
	assert_string_equal(p->baseline, "classic-swappiness60-thpnever");
	assert_true(p->needs_scratch);
	assert_false(p->needs_tools);
	assert_int_equal(plan__scratch_bytes(p), 3ull << 30);
	assert_string_equal(p->workloads[0].params[1].value, "random");
	plan__free(p);
}

/* Disks only when a workload needs them; the scratch size follows the guest. */
static void test_disk_needs(void **state)
{
	struct plan *p = NULL;
	char *err = NULL;

	(void)state;
	assert_int_equal(plan__parse("g.ini", good, &p, &err), 0);
	assert_false(p->needs_scratch);
	assert_false(p->needs_tools);
	/* 4 x 2G guest memory */
	assert_int_equal(plan__scratch_bytes(p), 8ull << 30);
	plan__free(p);
	assert_int_equal(plan__parse("f.ini",
				     "[guest]\nmemory = 256M\n[variant a]\n[memcg m]\n"
				     "memory.max = 32M\n[workload f]\ntype = file-zipf\n"
				     "memcg = m\nsize = 2x\n",
				     &p, &err),
			 0);
	assert_true(p->needs_scratch);
	assert_true(p->needs_tools);
	/* 4 x 256M is below the 2G floor */
	assert_int_equal(plan__scratch_bytes(p), 2ull << 30);
	plan__free(p);
}

/* fault_around_bytes: a power of two from a page to 2M, swept like the others; the
 * kernel rounds anything else down, so it is refused with its line. */
static void test_fault_around(void **state)
{
	static const char head[] = "[variant a]\nfault_around_bytes = ";
	static const char tail[] = "\n[memcg m]\n[workload w]\ntype = anon-zipf\nmemcg = m\n"
				   "size = 1M\n";
	static const char *const refused[] = { "5000", "1024", "4M", "0" };
	struct plan *p = NULL;
	char *err = NULL, *text;

	(void)state;
	text = xasprintf("%s4096, 65536%s", head, tail);
	if (plan__parse("fa.ini", text, &p, &err) < 0)
		fail_msg("%s", err);
	free(text);
	assert_int_equal(p->nvariants, 2);
	assert_int_equal(p->variants[0].fault_around_bytes, 4096);
	assert_int_equal(p->variants[1].fault_around_bytes, 65536);
	plan__free(p);
	assert_int_equal(plan__parse("fa.ini", "[variant a]\n[memcg m]\n[workload w]\n"
				     "type = anon-zipf\nmemcg = m\nsize = 1M\n", &p, &err), 0);
	assert_int_equal(p->variants[0].fault_around_bytes, -1); /* the kernel's */
	plan__free(p);
	for (size_t i = 0; i < ARRAY_SIZE(refused); i++) {
		text = xasprintf("%s%s%s", head, refused[i], tail);
		assert_int_not_equal(plan__parse("fa.ini", text, &p, &err), 0);
		if (!strstr(err, "fa.ini:2") || !strstr(err, refused[i]))
			fail_msg("%s: %s", refused[i], err);
		free(err);
		err = NULL;
		free(text);
	}
}

/* Reclaim tracing: on unless [guest] says off; a variant's own setting wins. */
static void test_trace(void **state)
{
	struct plan *p = NULL;
	char *err = NULL;

	(void)state;
	if (plan__parse("t.ini", "[variant a]\n[memcg m]\n[workload w]\ntype = anon-zipf\n"
				 "memcg = m\nsize = 1M\n",
			&p, &err) < 0)
		fail_msg("%s", err);
	assert_true(plan__variant_trace(p, &p->variants[0]));
	plan__free(p);
	if (plan__parse("t.ini",
			"[guest]\ntrace = off\n[variant plain]\n[variant traced]\ntrace = on\n"
			"[memcg m]\n[workload w]\ntype = anon-zipf\nmemcg = m\nsize = 1M\n",
			&p, &err) < 0)
		fail_msg("%s", err);
	assert_false(plan__variant_trace(p, &p->variants[0]));
	assert_true(plan__variant_trace(p, &p->variants[1]));
	plan__free(p);
}

/* cgroup2 is mounted as systemd mounts it unless the plan says otherwise. */
static void test_cgroup2_options(void **state)
{
	static const char body[] = "[variant a]\n[memcg m]\n[workload w]\ntype = anon-zipf\n"
				   "memcg = m\nsize = 1M\n";
	_cleanup_free_ char *none = xasprintf("[guest]\ncgroup2_options = none\n%s", body);
	struct plan *p = NULL;
	char *err = NULL;

	(void)state;
	if (plan__parse("t.ini", body, &p, &err) < 0)
		fail_msg("%s", err);
	assert_string_equal(p->cgroup2_options, "nsdelegate,memory_recursiveprot");
	plan__free(p);
	if (plan__parse("t.ini", none, &p, &err) < 0)
		fail_msg("%s", err);
	assert_string_equal(p->cgroup2_options, "none");
	plan__free(p);
}

/* [guest] numa and a workload's numa_policy reach the run's conf. */
static void test_numa(void **state)
{
	static const char text[] = "[guest]\nnuma = 2\ncpus = 1\n[variant a]\n[memcg m]\n"
				   "[workload w]\ntype = anon-zipf\nmemcg = m\nsize = 1M\n"
				   "numa_policy = interleave:0-1\ncpu_affinity = 0\n";
	struct plan *p = NULL;
	char *err = NULL;

	(void)state;
	if (plan__parse("t.ini", text, &p, &err) < 0)
		fail_msg("%s", err);
	assert_int_equal(p->numa, 2);
	assert_string_equal(p->workloads[0].numa_policy, "interleave:0-1");
	assert_string_equal(p->workloads[0].cpu_affinity, "0");
	plan__free(p);
	/* vCPU 1 exists on the real clock's 2, not on the instruction clock's default 1 */
	if (plan__parse("t.ini", "[variant a]\n[memcg m]\n[workload w]\ntype = anon-zipf\n"
				 "memcg = m\nsize = 1M\ncpu_affinity = 1\n",
			&p, &err) < 0)
		fail_msg("%s", err);
	assert_int_equal(plan__placements_check(p, &err), 0);
	assert_null(err);
	plan__set_clock(p, "instructions");
	assert_int_equal(plan__placements_check(p, &err), -EINVAL);
	assert_string_equal(err, "t.ini:7: cpu_affinity '1' of [workload w] names vCPU 1; the guest "
				 "has 1 ([guest] cpus, or the clock's default)");
	free(err);
	plan__free(p);
}

/* [guest] clock: the vCPUs follow it unless the plan says them; --clock re-resolves. */
static void test_clock(void **state)
{
	static const char body[] = "[variant a]\n[memcg m]\n[workload w]\ntype = anon-zipf\n"
				   "memcg = m\nsize = 1M\n";
	static const struct {
		const char *guest;
		const char *clock;
		int cpus, asked;
		bool sleep;
	} cases[] = {
		{ "", "real", 2, 0, true },
		{ "[guest]\nclock = real\n", "real", 2, 0, true },
		{ "[guest]\nclock = instructions\n", "instructions", 1, 0, true },
		{ "[guest]\nclock = instructions\ncpus = 2\n", "instructions", 2, 2, true },
		{ "[guest]\nclock = instructions\nclock_sleep = off\n", "instructions", 1, 0, false },
		{ "[guest]\ncpus = 3\n", "real", 3, 3, true },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		_cleanup_free_ char *text = xasprintf("%s%s", cases[i].guest, body);
		struct plan *p = NULL;
		char *err = NULL;

		if (plan__parse("c.ini", text, &p, &err) < 0)
			fail_msg("%s: %s", cases[i].guest, err);
		assert_string_equal(p->clock, cases[i].clock);
		assert_int_equal(p->cpus, cases[i].cpus);
		assert_int_equal(p->cpus_asked, cases[i].asked);
		assert_int_equal(p->clock_sleep, cases[i].sleep);
		/* --clock on the command line: the default follows, a said cpus stays */
		plan__set_clock(p, PLAN_CLOCK_INSTRUCTIONS);
		assert_string_equal(p->clock, "instructions");
		assert_int_equal(p->cpus, cases[i].asked ? cases[i].asked : 1);
		plan__set_clock(p, PLAN_CLOCK_REAL);
		assert_int_equal(p->cpus, cases[i].asked ? cases[i].asked : 2);
		plan__set_clock(p, p->clock); /* its own string: no use after free (ASan) */
		assert_string_equal(p->clock, "real");
		plan__free(p);
	}
	assert_true(plan_clock_ok("real") && plan_clock_ok("instructions"));
	assert_false(plan_clock_ok("Real") || plan_clock_ok("") || plan_clock_ok("icount"));
}

/* repetitions = auto with its defaults and bounds; [workload] key = replaces the catalogue's. */
static void test_adaptive_and_keys(void **state)
{
	static const char body[] = "[variant a]\n[variant b]\nlru = mglru\n[memcg m]\n"
				   "memory.max = 64M\n[workload w]\ntype = anon-zipf\nmemcg = m\n"
				   "size = 2x\nkey = throughput,  lat_p99 majflt\n";
	_cleanup_free_ char *auto_text = xasprintf("[campaign]\nrepetitions = auto\n%s", body);
	_cleanup_free_ char *bounded = xasprintf(
		"[campaign]\nrepetitions = auto\nmin_repetitions = 4\nmax_repetitions = 9\n"
		"max_time = 10m\n%s",
		body);
	struct plan *p = NULL;
	char *err = NULL;

	(void)state;
	assert_int_equal(plan__parse("a.ini", auto_text, &p, &err), 0);
	assert_true(p->adaptive);
	assert_int_equal(p->min_repetitions, 3);
	assert_int_equal(p->max_repetitions, 8);
	assert_int_equal(p->repetitions, 3);
	assert_int_equal(p->max_time_ms, 0);
	assert_string_equal(p->workloads[0].key, "throughput lat_p99 majflt");
	assert_null(p->workloads[0].after);
	plan__free(p);
	/* after: the workloads that exit first, as the agent's run.conf lists them */
	{
		_cleanup_free_ char *seq = xasprintf(
			"%s[workload x]\ntype = anon-zipf\nmemcg = m\nsize = 1x\n"
			"[workload y]\ntype = anon-zipf\nmemcg = m\nsize = 1x\nafter = w x\n",
			auto_text);

		assert_int_equal(plan__parse("s.ini", seq, &p, &err), 0);
		assert_string_equal(p->workloads[2].after, "w,x");
		plan__free(p);
	}
	assert_int_equal(plan__parse("b.ini", bounded, &p, &err), 0);
	assert_true(p->adaptive);
	assert_int_equal(p->min_repetitions, 4);
	assert_int_equal(p->max_repetitions, 9);
	assert_int_equal(p->repetitions, 4);
	assert_int_equal(p->max_time_ms, 600000);
	plan__free(p);
	/* a fixed number: not adaptive, and no key list means the catalogue's */
	assert_int_equal(plan__parse("c.ini", good, &p, &err), 0);
	assert_false(p->adaptive);
	assert_null(p->workloads[0].key);
	assert_string_equal(p->workloads[0].def->decides, "throughput majflt");
	plan__free(p);
}

static void test_shipped_plans_parse(void **state)
{
	static const char *const plans[] = { "default", "quick", "c1", "c2", "c3",
					     "c4",	"c5",	 "c6", "full", "claims", "mechanisms" };
	struct plan *p = NULL;
	char *err = NULL;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(plans); i++) {
		_cleanup_free_ char *path = xasprintf("workloads/plans/%s.ini", plans[i]);

		if (plan__load(path, &p, &err) < 0)
			fail_msg("%s", err);
		assert_string_equal(p->name, plans[i]);
		assert_true(p->nvariants >= 2);
		/* shipped plans add blocks until their key metrics are decided */
		if (!p->adaptive || p->min_repetitions < 3)
			fail_msg("%s: not repetitions = auto from 3 blocks", path);
		/* Each says in its header what it tests and what to look at. */
		if (!strstr(p->text, "Claim") || !strstr(p->text, "Signals"))
			fail_msg("%s: no 'Claim' or 'Signals' in its header", path);
		plan__free(p);
	}
	assert_int_equal(plan__load("workloads/plans/default.ini", &p, &err), 0);
	assert_int_equal(p->nvariants, 2);
	plan__free(p);
}

static void test_remap(void **state)
{
	const char *text = "[campaign]\nname = t\nbaseline = classic\n"
			   "[variant classic]\nlru = classic\n"
			   "[variant mglru]\nlru = mglru\nthp = always\nsysctl.vm.swappiness = 100\n"
			   "memcg.wl.memory.max = 32M\n"
			   "[memcg wl]\nmemory.max = 64M\n"
			   "[workload anon]\ntype = anon-zipf\nmemcg = wl\nsize = 1x\n"
			   "duration = 1s\n";
	const char *remap = "good\tmglru\t/k/good dir/bzImage\nstep\tmglru\t/k/step/bzImage\n"
			    "baseline\tgood\n";
	const char *kernels[] = { "/k/good dir/bzImage", "/k/step/bzImage" };
	const char *labels[] = { "good", "step" };
	struct plan *p = NULL;
	char *err = NULL;

	(void)state;
	assert_int_equal(plan__parse("t.ini", text, &p, &err), 0);
	assert_int_equal(p->nvariants, 2);
	/* Refusals name the line and leave the plan as it was. */
	assert_int_equal(plan__remap(p, "good\tnothing\t/k\nbaseline\tgood\n", &err), -EINVAL);
	assert_non_null(strstr(err, "line 1: the plan has no variant 'nothing'"));
	free(err);
	assert_int_equal(plan__remap(p, "good\tmglru\nbaseline\tgood\n", &err), -EINVAL);
	assert_non_null(strstr(err, "line 1: expected NAME<tab>FROM<tab>KERNEL"));
	free(err);
	assert_int_equal(plan__remap(p, "a\tmglru\t/k\na\tclassic\t/k\nbaseline\ta\n", &err),
			 -EINVAL);
	assert_non_null(strstr(err, "variant 'a' twice"));
	free(err);
	assert_int_equal(plan__remap(p, "a\tmglru\t/k\textra\nbaseline\ta\n", &err), -EINVAL);
	assert_non_null(strstr(err, "line 1: expected NAME<tab>FROM<tab>KERNEL"));
	free(err);
	assert_int_equal(plan__remap(p, "a\tmglru\t/k\nbaseline\tb\n", &err), -EINVAL);
	assert_non_null(strstr(err, "no baseline among them"));
	free(err);
	assert_int_equal(p->nvariants, 2);
	assert_string_equal(p->variants[1].name, "mglru");
	assert_null(p->remap);

	assert_int_equal(plan__remap(p, remap, &err), 0);
	assert_int_equal(p->nvariants, 2);
	for (size_t i = 0; i < 2; i++) {
		const struct plan_variant *v = &p->variants[i];

		/* The variant's mode, knobs and overrides on each kernel, in order. */
		assert_string_equal(v->name, labels[i]);
		assert_string_equal(v->kernel, kernels[i]);
		assert_string_equal(v->lru, "mglru");
		assert_string_equal(v->thp, "always");
		assert_int_equal(v->nsysctls, 1);
		assert_string_equal(v->sysctls[0].value, "100");
		assert_int_equal(v->nmemcg_files, 1);
		assert_null(v->config);
	}
	assert_string_equal(p->baseline, "good");
	assert_string_equal(p->remap, remap); /* for the campaign to store */
	/* Once: a second text would name variants the stored one re-made. */
	assert_int_equal(plan__remap(p, "x\tgood\t/k\nbaseline\tx\n", &err), -EINVAL);
	assert_non_null(strstr(err, "re-made already"));
	free(err);
	assert_string_equal(p->variants[0].name, "good");
	plan__free(p); /* no leak, no double free (ASan) */
}

/* Every plan the integration tests and the README run still parses (stricter parsing must
 * not refuse a plan that ships). */
static void test_every_plan_parses(void **state)
{
	static const char *const dirs[] = { "workloads/plans", "harness/tests/plans" };
	size_t n = 0;

	(void)state;
	for (size_t d = 0; d < ARRAY_SIZE(dirs); d++) {
		DIR *dir = opendir(dirs[d]);
		struct dirent *e;

		assert_non_null(dir);
		while ((e = readdir(dir))) {
			_cleanup_free_ char *path = NULL, *err = NULL;
			struct plan *p = NULL;
			size_t len = strlen(e->d_name);

			if (len < 5 || strcmp(e->d_name + len - 4, ".ini"))
				continue;
			path = xasprintf("%s/%s", dirs[d], e->d_name);
			if (plan__load(path, &p, &err) < 0)
				fail_msg("%s", err);
			plan__free(p);
			n++;
		}
		closedir(dir);
	}
	assert_true(n >= 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_plan),
		cmocka_unit_test(test_bad_plans),
		cmocka_unit_test(test_numbers_base10),
		cmocka_unit_test(test_plan_files),
		cmocka_unit_test(test_fits_guest),
		cmocka_unit_test(test_lru_modes),
		cmocka_unit_test(test_sweeps),
		cmocka_unit_test(test_disk_needs),
		cmocka_unit_test(test_trace),
		cmocka_unit_test(test_fault_around),
		cmocka_unit_test(test_adaptive_and_keys),
		cmocka_unit_test(test_shipped_plans_parse),
		cmocka_unit_test(test_every_plan_parses),
		cmocka_unit_test(test_remap),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_cgroup2_options),
		cmocka_unit_test(test_numa),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
