# lrubench: build, run and test.
#
#   make run     install what is missing, build, fetch Debian's kernel, run the default A/B
#   make check   every test: unit (sanitizers) and integration (real guests under QEMU)
#   make bench   benchmarks that print figures
#   make clean   remove build outputs (keeps results/, reports/ and the kernel cache)

BUILD     ?= build
CC        ?= gcc
PLAN      ?= workloads/plans/default.ini

WARN := -std=gnu11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wwrite-strings -Wformat=2 -Wundef -Wvla -Wimplicit-fallthrough -Wjump-misses-init \
	-Wno-format-nonliteral -Werror
CFLAGS   ?= -O2 -g
CPPFLAGS += -D_GNU_SOURCE -Iharness/common -Iharness -Iworkloads -MMD -MP
VERSION  := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
CPPFLAGS += -DLRUBENCH_VERSION='"$(VERSION)"'

# Host program: every harness/*.c is a library object but lrubench.c (main).
HOST_SRCS := $(wildcard harness/*.c) workloads/catalogue.c harness/common/util.c
HOST_OBJS := $(HOST_SRCS:%.c=$(BUILD)/host/%.o)
HOST_LIB_OBJS := $(filter-out $(BUILD)/host/harness/lrubench.o,$(HOST_OBJS))
HOST_LDLIBS := -lsqlite3 -lcrypto -lgsl -lgslcblas -lm

# Guest side: static binaries, so the initramfs needs no libraries.
LIBPERF    := $(BUILD)/libperf
AGENT_SRCS := $(wildcard harness/guest/*.c) harness/common/util.c
AGENT_OBJS := $(AGENT_SRCS:%.c=$(BUILD)/guest/%.o)
AGENT_LDLIBS := $(LIBPERF)/lib/libperf.a $(LIBPERF)/lib/libapi.a -lcgroup -lpthread
WL_LIB_SRCS := $(wildcard workloads/lib/*.c) harness/common/util.c
WL_LIB_OBJS := $(WL_LIB_SRCS:%.c=$(BUILD)/guest/%.o)
WL_SRCS := $(wildcard workloads/wl-*.c)
WL_BINS := $(WL_SRCS:workloads/%.c=$(BUILD)/guest/bin/%)
AGENT := $(BUILD)/guest/bin/lrubench-agent

# Unit tests: cmocka, under ASan and UBSan, one binary per harness/tests/test-*.c.
TEST_SRCS := $(wildcard harness/tests/test-*.c)
TEST_BINS := $(TEST_SRCS:harness/tests/%.c=$(BUILD)/tests/%)
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer
TEST_LIB_OBJS := $(HOST_LIB_OBJS:$(BUILD)/host/%=$(BUILD)/san/%) \
	$(filter-out %/util.o,$(WL_LIB_OBJS:$(BUILD)/guest/%=$(BUILD)/san/%)) \
	$(BUILD)/san/harness/guest/procfs-parse.o $(BUILD)/san/harness/guest/agent-conf.o

.PHONY: all deps run check unit integration bench clean fuzz
# Objects are not intermediates to delete: keep them for incremental builds.
.SECONDARY:
all: $(BUILD)/lrubench $(AGENT) $(WL_BINS) $(BUILD)/tools/extract-ikconfig

deps:
	@scripts/install-deps.sh

$(BUILD)/host/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -c -o $@ $<

$(BUILD)/lrubench: $(HOST_OBJS)
	$(CC) $(CFLAGS) -o $@ $^ $(HOST_LDLIBS)

# The kernel's own IKCONFIG extractor, for kernels without a config file beside them.
$(BUILD)/tools/extract-ikconfig:
	@mkdir -p $(dir $@)
	tar -xJf /usr/src/linux-source-6.1.tar.xz -O linux-source-6.1/scripts/extract-ikconfig > $@.tmp
	chmod +x $@.tmp && mv $@.tmp $@

$(LIBPERF)/lib/libperf.a:
	scripts/build-libperf.sh $(LIBPERF)

$(BUILD)/guest/%.o: %.c | $(LIBPERF)/lib/libperf.a
	@mkdir -p $(dir $@)
	@echo "  CC      $< (guest)"
	@$(CC) $(CPPFLAGS) -Iworkloads/lib -I$(LIBPERF)/include $(WARN) $(CFLAGS) -c -o $@ $<

$(AGENT): $(AGENT_OBJS) $(LIBPERF)/lib/libperf.a
	@mkdir -p $(dir $@)
	$(CC) -static $(CFLAGS) -o $@ $(AGENT_OBJS) $(AGENT_LDLIBS)

$(BUILD)/guest/bin/wl-%: $(BUILD)/guest/workloads/wl-%.o $(WL_LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -static $(CFLAGS) -o $@ $^ -lm -lpthread

$(BUILD)/san/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (sanitizers)"
	@$(CC) $(CPPFLAGS) -Iworkloads/lib -DLRUBENCH_TEST $(WARN) -O1 -g $(SAN) -c -o $@ $<

$(BUILD)/tests/%: $(BUILD)/san/harness/tests/%.o $(TEST_LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ -lcmocka $(HOST_LDLIBS)

run: deps all
	$(BUILD)/lrubench run $(PLAN)

unit: deps $(TEST_BINS)
	@set -e; for t in $(TEST_BINS); do echo "== $$t"; $$t; done

integration: deps all
	harness/tests/integration.sh $(BUILD)

check: unit integration

$(BUILD)/bench-ingest: $(BUILD)/host/harness/tests/bench-ingest.o $(HOST_LIB_OBJS)
	$(CC) $(CFLAGS) -o $@ $^ $(HOST_LDLIBS)

bench: deps all $(BUILD)/bench-ingest
	harness/tests/bench.sh $(BUILD)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
