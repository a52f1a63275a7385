# lrubench: build, run and test.
#
#   make run     install what is missing, build, fetch Debian's kernel, run the default A/B
#   make check   lint, fuzz-build, unit (sanitizers) and integration (real guests under
#                QEMU, tier check of harness/tests/integration/TESTS), timed at the end
#   make check-full  the same with the full integration tier (cold 6.12 kernel builds)
#   make bench   benchmarks that print figures
#   make clean   remove build outputs (keeps results/, reports/ and the kernel cache)

SHELL     := /bin/bash
BUILD     ?= build
CC        ?= gcc
PLAN      ?= workloads/plans/quick.ini

WARN := -std=gnu11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wwrite-strings -Wformat=2 -Wundef -Wvla -Wimplicit-fallthrough -Wjump-misses-init \
	-Wno-format-nonliteral -Werror
CFLAGS   ?= -O2 -g
# The host program's library, one folder per layer; harness/LAYERS ranks them
# (scripts/layers.sh checks that nothing uses a layer above its own).
HARNESS_DIRS := $(shell awk '!/^\#/ && NF { print $$1 }' harness/LAYERS | grep -vx common)
HARNESS_INC  := -Iharness/common $(HARNESS_DIRS:%=-Iharness/%) -Iharness
CPPFLAGS += -D_GNU_SOURCE $(HARNESS_INC) -Iworkloads -MMD -MP
VERSION  := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
CPPFLAGS += -DLRUBENCH_VERSION='"$(VERSION)"'
# The files that print the version are recompiled when it changes (a commit,
# a dirty tree), not only when they do: the stamp is rewritten only then.
VERSION_STAMP := $(BUILD)/version.stamp
VERSION_USERS := $(shell grep -l LRUBENCH_VERSION harness/*/*.c 2>/dev/null)

# Workloads: a row WORKLOAD(anon_zipf) of workloads/WORKLOADS.def each, for
# workloads/wl-anon-zipf.c: a guest binary and, compiled with -DWL_DEF_ONLY,
# the definition alone (parameters, results), which the host's catalogue lists.
WL_IDS := $(shell sed -n 's/^WORKLOAD(\([a-z0-9_]*\))$$/\1/p' workloads/WORKLOADS.def)
WL_SRCS := $(patsubst %,workloads/wl-%.c,$(subst _,-,$(WL_IDS)))
WL_DEF_OBJS := $(WL_SRCS:%.c=$(BUILD)/host/%.def.o)

# Host program: every .c of the layer folders is a library object but
# harness/cmd/lrubench.c (main). harness/common: shared by the host and the guest agent.
COMMON_SRCS := $(wildcard harness/common/*.c)
HOST_SRCS := $(foreach d,$(HARNESS_DIRS),$(wildcard harness/$(d)/*.c)) workloads/catalogue.c \
	workloads/workload.c $(COMMON_SRCS)
HOST_OBJS := $(HOST_SRCS:%.c=$(BUILD)/host/%.o) $(WL_DEF_OBJS)
HOST_LIB_OBJS := $(filter-out $(BUILD)/host/harness/cmd/lrubench.o,$(HOST_OBJS))
HOST_LDLIBS := -lsqlite3 -lcrypto -lgsl -lgslcblas -lm -llzma -lzstd -lz

# Guest side: static binaries, so the initramfs needs no libraries.
LIBPERF    := $(BUILD)/libperf
AGENT_SRCS := $(wildcard harness/guest/*.c) $(COMMON_SRCS)
AGENT_OBJS := $(AGENT_SRCS:%.c=$(BUILD)/guest/%.o)
AGENT_LDLIBS := $(LIBPERF)/lib/libperf.a $(LIBPERF)/lib/libapi.a -lcgroup -lpthread
WL_LIB_SRCS := $(wildcard workloads/lib/*.c) workloads/workload.c harness/common/util.c
WL_LIB_OBJS := $(WL_LIB_SRCS:%.c=$(BUILD)/guest/%.o)
WL_BINS := $(WL_SRCS:workloads/%.c=$(BUILD)/guest/bin/%)
AGENT := $(BUILD)/guest/bin/lrubench-agent
KSELFTEST_SERIES := 6.1 6.12
KSELFTEST_BINS := $(KSELFTEST_SERIES:%=$(BUILD)/guest/bin/kselftest-memcontrol-%)

# Unit tests: cmocka, under ASan and UBSan, one binary per harness/tests/test-*.c.
TEST_SRCS := $(wildcard harness/tests/test-*.c)
TEST_BINS := $(TEST_SRCS:harness/tests/%.c=$(BUILD)/tests/%)
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer
TEST_LIB_OBJS := $(HOST_LIB_OBJS:$(BUILD)/host/%=$(BUILD)/san/%) \
	$(filter-out %/util.o %/workloads/workload.o,$(WL_LIB_OBJS:$(BUILD)/guest/%=$(BUILD)/san/%)) \
	$(BUILD)/san/harness/guest/agent-conf.o \
	$(BUILD)/san/harness/guest/stall-pair.o $(BUILD)/san/harness/guest/perf-ring.o \
	$(BUILD)/san/harness/guest/trace-events.o

.PHONY: all deps run check check-full lint unit unit-bins integration bench clean fuzz \
	fuzz-build claims
# Objects are not intermediates to delete: keep them for incremental builds
# (not .SECONDARY for all: it would also keep a missing version stamp missing).
.PRECIOUS: $(BUILD)/host/%.o $(BUILD)/host/%.def.o $(BUILD)/guest/%.o $(BUILD)/san/%.o
QEMU_BACKPORTS := $(BUILD)/qemu-backports/root/usr/bin/qemu-system-x86_64
all: $(BUILD)/lrubench $(AGENT) $(WL_BINS) $(KSELFTEST_BINS) $(BUILD)/tools/extract-ikconfig $(QEMU_BACKPORTS)

# Every compile waits for deps (an order-only prerequisite: it runs first, once,
# and never makes anything out of date), so `make -j2 deps all` cannot compile
# before the packages (zstd.h, ...) are installed.
deps:
	@scripts/install-deps.sh

# QEMU 10 from bookworm-backports, unpacked (not installed) for guests of more
# than one vCPU on the instruction-counted clock (scripts/fetch-qemu-backports.sh).
$(QEMU_BACKPORTS): scripts/fetch-qemu-backports.sh | deps
	@scripts/fetch-qemu-backports.sh $(BUILD)/qemu-backports

$(BUILD)/host/%.o: %.c | deps
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -c -o $@ $<

$(VERSION_STAMP): FORCE
	@mkdir -p $(dir $@)
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' > $@
FORCE:
$(VERSION_USERS:%.c=$(BUILD)/host/%.o) $(VERSION_USERS:%.c=$(BUILD)/san/%.o): $(VERSION_STAMP)

# A workload's definition alone (workloads/wl-def.h).
$(BUILD)/host/%.def.o: %.c | deps
	@mkdir -p $(dir $@)
	@echo "  CC      $< (definition)"
	@$(CC) $(CPPFLAGS) -DWL_DEF_ONLY $(WARN) $(CFLAGS) -c -o $@ $<

$(BUILD)/lrubench: $(HOST_OBJS)
	$(CC) $(CFLAGS) -o $@ $^ $(HOST_LDLIBS)

# The kernel's own IKCONFIG extractor, for kernels without a config file beside them.
$(BUILD)/tools/extract-ikconfig: | deps
	@mkdir -p $(dir $@)
	tar -xJf /usr/src/linux-source-6.1.tar.xz -O linux-source-6.1/scripts/extract-ikconfig > $@.tmp
	chmod +x $@.tmp && mv $@.tmp $@

$(LIBPERF)/lib/libperf.a: | deps
	scripts/build-libperf.sh $(LIBPERF)

$(BUILD)/guest/%.o: %.c | deps $(LIBPERF)/lib/libperf.a
	@mkdir -p $(dir $@)
	@echo "  CC      $< (guest)"
	@$(CC) $(CPPFLAGS) -Iworkloads/lib -I$(LIBPERF)/include $(WARN) $(CFLAGS) -c -o $@ $<

$(AGENT): $(AGENT_OBJS) $(LIBPERF)/lib/libperf.a
	@mkdir -p $(dir $@)
	$(CC) -static $(CFLAGS) -o $@ $(AGENT_OBJS) $(AGENT_LDLIBS)

# The workloads' library as an archive: each binary links only what it uses
# (json-c for the fio wrapper, SQLite for sqlite-kv: static, from Debian).
WL_LIB_A := $(BUILD)/guest/libwl.a
WL_LDLIBS := -ljson-c -lsqlite3 -lm -lpthread -ldl
$(WL_LIB_A): $(WL_LIB_OBJS)
	@rm -f $@
	@ar rcs $@ $^

$(BUILD)/guest/bin/wl-%: $(BUILD)/guest/workloads/wl-%.o $(WL_LIB_A)
	@mkdir -p $(dir $@)
	$(CC) -static $(CFLAGS) -o $@ $^ $(WL_LDLIBS)

# The kernel's memcg selftest of each series the guest boots (the kselftest-memcg
# workload): built from linux-source as the kernel builds it, not with our flags.
$(BUILD)/guest/bin/kselftest-memcontrol-%: scripts/build-kselftest-memcg.sh | deps
	scripts/build-kselftest-memcg.sh $* $@

$(BUILD)/san/%.o: %.c | deps
	@mkdir -p $(dir $@)
	@echo "  CC      $< (sanitizers)"
	@$(CC) $(CPPFLAGS) -Iworkloads/lib -DLRUBENCH_TEST $(WARN) -O1 -g $(SAN) -c -o $@ $<

$(BUILD)/san/%.def.o: %.c | deps
	@mkdir -p $(dir $@)
	@echo "  CC      $< (definition, sanitizers)"
	@$(CC) $(CPPFLAGS) -Iworkloads/lib -DLRUBENCH_TEST -DWL_DEF_ONLY $(WARN) -O1 -g $(SAN) -c -o $@ $<

$(BUILD)/tests/%: $(BUILD)/san/harness/tests/%.o $(TEST_LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ -lcmocka $(HOST_LDLIBS) -ljson-c

# test-workload-toy: a toy workload defined in the test alone, registered by
# one row (harness/tests/workloads-toy.def: WORKLOADS.def's rows and its own),
# in a catalogue built from that list instead of WORKLOADS.def.
$(BUILD)/san/toy/workloads/catalogue.o: workloads/catalogue.c | deps
	@mkdir -p $(dir $@)
	@echo "  CC      $< (toy list, sanitizers)"
	@$(CC) $(CPPFLAGS) -DLRUBENCH_TEST -DWORKLOADS_LIST='"tests/workloads-toy.def"' \
		$(WARN) -O1 -g $(SAN) -c -o $@ $<

$(BUILD)/tests/test-workload-toy: $(BUILD)/san/harness/tests/test-workload-toy.o \
		$(BUILD)/san/toy/workloads/catalogue.o \
		$(filter-out $(BUILD)/san/workloads/catalogue.o,$(TEST_LIB_OBJS))
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ -lcmocka $(HOST_LDLIBS) -ljson-c

# lrubench exits 1 when a key metric regressed: that is the A/B's answer, not a
# failure of make run; 2 (error) and 3 (runs failed, too few blocks) fail it.
run: deps all
	@rc=0; $(BUILD)/lrubench run $(PLAN) || rc=$$?; \
	if [ $$rc -eq 1 ]; then echo "make run: a key metric regressed (lrubench exit 1): the verdicts above"; rc=0; fi; \
	exit $$rc

# The claims scoreboard: workloads/plans/claims.ini (every claim's workloads
# in one guest, four variants on each of two kernels, about 55 minutes under
# TCG), then the scoreboard and reports/<campaign>/deck.pdf. Exit 1 of the run (a key
# regression) is an answer, not a failure.
CLAIMS_PLAN ?= workloads/plans/claims.ini
CLAIMS_STAMP := $(shell date +%Y%m%d-%H%M%S)
CLAIMS_DB ?= results/$(basename $(notdir $(CLAIMS_PLAN)))-$(CLAIMS_STAMP).db
claims: deps all
	@set -e; rc=0; nice $(BUILD)/lrubench run $(CLAIMS_PLAN) --db $(CLAIMS_DB) || rc=$$?; \
	[ $$rc -le 1 ] || exit $$rc; \
	camp=$$(sqlite3 $(CLAIMS_DB) "SELECT value FROM meta WHERE key = 'campaign'"); \
	$(BUILD)/lrubench claims $(CLAIMS_DB) --deck $${LRUBENCH_REPORTS:-reports}/$$camp

# The test binaries compile on every core (unless make already runs with -j),
# then each runs, even after one fails: harness/tests/unit.sh counts the cases.
NPROC := $(shell nproc 2>/dev/null || echo 1)
unit: deps
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC)) unit-bins
	@harness/tests/unit.sh $(BUILD) $(TEST_BINS)

unit-bins: $(TEST_BINS)

# Integration tests: harness/tests/integration/NAME.t through prove; the tiers
# and the order are the table harness/tests/integration/TESTS.
IT_TIER ?= check
integration: deps all
	harness/tests/integration/run $(BUILD) $(IT_TIER)

# cppcheck over every C file, clean at the level scripts/lint.sh states; the
# layers of harness/LAYERS (from the includes and the host objects' symbols:
# nothing used upward, no circle, SQL only in the store); the naming rule.
lint: deps $(HOST_OBJS)
	@scripts/lint.sh
	@scripts/layers.sh $(BUILD)
	@scripts/names.sh

# lint, fuzz-build, unit, integration in order, each timed (harness/tests/check.sh).
check:
	@MAKE="$(MAKE)" harness/tests/check.sh check $(BUILD)

# check-full adds the slurm test, whose packages only it installs.
check-full:
	@scripts/install-deps.sh --slurm
	@MAKE="$(MAKE)" harness/tests/check.sh full $(BUILD)

$(BUILD)/bench-ingest: $(BUILD)/host/harness/tests/bench-ingest.o $(HOST_LIB_OBJS)
	$(CC) $(CFLAGS) -o $@ $^ $(HOST_LDLIBS)

bench: deps all $(BUILD)/bench-ingest $(BUILD)/tests/test-verdict-sim $(BUILD)/tests/test-intervals
	harness/tests/bench.sh $(BUILD)

# Fuzzing (libFuzzer, clang): each target runs FUZZ_SECONDS on its committed seed
# corpus (harness/tests/fuzz/NAME/), new inputs kept in build/fuzz/NAME/.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := stream plan recipe
FUZZ_SRCS_stream := harness/store/stream.c harness/common/util.c
FUZZ_SRCS_plan := $(wildcard harness/model/plan*.c) workloads/catalogue.c workloads/workload.c $(WL_SRCS) \
	harness/base/ini.c harness/kernel/kbuild-recipe.c harness/kernel/kernel.c \
	harness/kernel/kernel-version.c harness/base/files.c harness/base/spawn.c harness/common/util.c \
	harness/common/mempolicy.c
FUZZ_LIBS_plan := -lcrypto
FUZZ_SRCS_recipe := harness/base/ini.c harness/kernel/kbuild-recipe.c harness/kernel/kernel.c \
	harness/kernel/kernel-version.c harness/base/files.c harness/base/spawn.c harness/common/util.c
FUZZ_LIBS_recipe := -lcrypto
# -DWL_DEF_ONLY: the workloads' files give the plan fuzzer their definitions alone
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE $(HARNESS_INC) \
	-Iworkloads -DLRUBENCH_VERSION='"$(VERSION)"' -DWL_DEF_ONLY

$(BUILD)/fuzz/fuzz-%: harness/tests/fuzz-%.c $(FUZZ_SRCS_stream) $(FUZZ_SRCS_plan) $(FUZZ_SRCS_recipe) | deps
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_SRCS_$*) -lm $(FUZZ_LIBS_$*)

fuzz-build: deps $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz-%)

fuzz: fuzz-build
	@set -e; for t in $(FUZZ_TARGETS); do \
		mkdir -p $(BUILD)/fuzz/$$t; \
		echo "== fuzz $$t for $(FUZZ_SECONDS) s"; \
		$(BUILD)/fuzz/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
			-print_final_stats=1 $(BUILD)/fuzz/$$t harness/tests/fuzz/$$t 2>&1 | \
			grep -E '^(stat::number_of_executed_units|==[0-9]+==|SUMMARY)' ; \
		test $${PIPESTATUS[0]} -eq 0; \
	done

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
