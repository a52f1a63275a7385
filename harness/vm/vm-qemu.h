/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running a guest under QEMU: argv built and exec'd without a shell, the
 * console to a per-run log file, the agent's channel on a virtio-serial port
 * backed by a unix socket the host listens on, and three timeouts (boot to
 * the agent's first byte, channel silence, whole run) that kill QEMU and say
 * which one fired. QEMU dies with lrubench (PR_SET_PDEATHSIG).
 */
#ifndef LRUBENCH_VM_QEMU_H
#define LRUBENCH_VM_QEMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A virtio-blk disk; the guest finds it by serial (/sys/block/vdX/serial). */
struct vm_disk {
	const char *path;   /* raw image */
	const char *serial; /* at most 20 characters */
	bool readonly;
};

/* QEMU's -icount: the guest's clock advances 2^shift ns per executed instruction. */
struct vm_icount {
	int shift;  /* 0..10 */
	bool sleep; /* on: an idle guest's time follows the host's; off: it jumps ahead */
};

struct vm_spec {
	const char *kernel;
	const char *initrd;
	const char *cmdline;
	const char *accel; /* "kvm" or "tcg" */
	const struct vm_icount *icount; /* the instruction-counted clock (tcg only); NULL: real */
	uint64_t mem_mb;
	int cpus;
	int numa; /* NUMA nodes; 0 or 1: none (vm_argv splits memory and deals out CPUs) */
	const struct vm_disk *disks;
	size_t ndisks;
	const char *run_dir; /* console.log, qemu.log and the channel socket go here */
	uint64_t hello_timeout_ms;   /* boot to the agent's first byte; 0 = none */
	uint64_t silence_timeout_ms; /* no byte on the channel for this long; 0 = none */
	uint64_t timeout_ms;	     /* the whole run; 0 = none */
	/* Set asynchronously (a signal handler) to stop the run; may be NULL. */
	const volatile int *interrupt;
};

enum vm_end {
	VM_EXITED,	   /* QEMU exited by itself (guest powered off, or reboot on panic) */
	VM_HELLO_TIMEOUT,  /* the agent never spoke */
	VM_SILENCE_TIMEOUT, /* the agent went silent */
	VM_TIMEOUT,	   /* the whole-run timeout */
	VM_ABORTED,	   /* the data callback asked to stop */
	VM_START_FAILED,   /* QEMU could not be started */
	VM_INTERRUPTED,	   /* the host was asked to stop (SIGINT, SIGTERM) */
};

struct vm_result {
	enum vm_end end;
	int exit_code;		/* QEMU's exit status when it exited */
	int signal;		/* or the signal that ended it */
	int64_t first_byte_ns;	/* launch to the first channel byte, -1 if none */
	int64_t wall_ns;	/* launch to exit */
	uint64_t channel_bytes;
	char *argv;		/* QEMU's argv joined with spaces (provenance) */
	char *error;		/* start failure or QEMU's stderr tail */
};

/* Called with each chunk of channel bytes; return <0 to stop the run. */
typedef int (*vm_data_fn)(void *ctx, const char *buf, size_t len);

/* The argv for spec (NULL-terminated, malloc'd strings); for tests and provenance. */
char **vm_argv(const struct vm_spec *s, const char *sock_path, const char *console_path);
void vm_argv_free(char **argv);

int vm_run(const struct vm_spec *s, vm_data_fn on_data, void *ctx, struct vm_result *res);
void vm_result__clear(struct vm_result *res);
/* Remove a probe's run_dir: the console.log and qemu.log vm_run wrote there, then
 * the directory (left in place if the caller kept other files in it). */
void vm_run_dir_remove(const char *run_dir);
const char *vm_end_name(enum vm_end end);

/* Whether /dev/kvm can be opened read-write (usable is another matter: probe). */
bool vm_kvm_openable(void);
/* QEMU's version line, malloc'd, or NULL. */
char *vm_qemu_version(void);
/*
 * Run every later guest of this process on the QEMU unpacked under root
 * (ROOT/usr/bin/qemu-system-x86_64, its firmware in ROOT/usr/share/qemu and
 * ROOT/usr/share/seabios; scripts/fetch-qemu-backports.sh); NULL: the
 * system's (qemu-system-x86_64 on PATH), the default.
 */
void vm_qemu_use(const char *root);

#endif
