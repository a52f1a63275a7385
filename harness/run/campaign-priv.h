/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside a campaign (harness/run/ only): its state, and the jobs its files
 * share. campaign.c starts, resumes and works a campaign from these:
 *   campaign-kernels.c  the kernels, guest images and tools disk, before any run
 *   campaign-record.c   what a campaign writes about itself, and reads back
 *   campaign-run-one.c  one run, in a worker process
 *   campaign-schedule.c the scheduler: workers, retries, progress
 *   campaign-adaptive.c repetitions = auto: a block more, or stop
 *   campaign-signal.c   SIGINT/SIGTERM
 */
#ifndef LRUBENCH_CAMPAIGN_PRIV_H
#define LRUBENCH_CAMPAIGN_PRIV_H

#include "campaign.h"
#include "guest-clock.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct kernel;
struct kbuild;
struct guest_image;
struct tools_image;
struct store;
struct store_run;
struct run_outcome;

/* One distinct kernel of the campaign, shared by the variants naming it. */
struct campaign_kernel {
	char *spec; /* the plan's kernel value */
	struct kernel *k;
	struct kbuild *kb; /* when built from a recipe: its manifest, for provenance */
	struct guest_image *img;
	char *accel, *accel_why;
};

struct campaign {
	struct plan *plan;
	const struct campaign_opts *o;
	struct store *st;
	char *name;	/* campaign name: plan name + start time */
	char *dir;	/* results/<name>/: per-run console logs */
	struct campaign_kernel *kernels;
	size_t nkernels;
	size_t *variant_kernel; /* variant index -> kernels index */
	struct tools_image *tools; /* when a workload runs a host tool */
	int64_t *variant_id;
	bool quiet; /* a worker: the scheduler already said what the kernels are */
	bool adaptive; /* repetitions = auto: blocks are added until decided (adaptive.h) */
	struct guest_clock clock; /* the guests' clock, resolved once, recorded as guest.clock */
};

/* Worker exit codes (lrubench __run-one). */
#define WORKER_OK 0
#define WORKER_STORE_FAILED 4
#define WORKER_HOST_TROUBLE 5

/* campaign-signal.c: the signal that asked to stop (SIGINT, SIGTERM), or 0. */
extern volatile int campaign_interrupted;
/* Stop the current guest, keep what it sent, leave a resumable store. */
void campaign__signals_install(void);

/* campaign-kernels.c: each variant's kernel resolved (built, checked, its image
 * made, its accelerator chosen), and the tools disk; 0 or -errno, logged. */
int campaign__kernels_resolve(struct campaign *c);
/* Record each kernel's guest image in the campaign's store: its later runs keep it. */
void campaign__images_pin(struct campaign *c);
void campaign__kernels_free(struct campaign *c);
/* The guests' clock of a new campaign: on instructions, its shift calibrated (or the
 * host's cached one); 0 or -errno, logged. Workers and --resume read guest.clock instead. */
int campaign__clock_resolve(struct campaign *c);
/*
 * The QEMU of c's guests: with clock = instructions and more than one vCPU,
 * the one unpacked from bookworm-backports into BUILD/QEMU_BACKPORTS_DIR
 * (the system's 7.2 hangs there); -ENOENT, said, when it is not there.
 */
#define QEMU_BACKPORTS_DIR "qemu-backports"
int campaign__qemu_choose(const struct campaign *c);

/* campaign-record.c: the new campaign's meta (created at now), variants and runs
 * (*ret_nruns of them: a shard's share); 0 or -errno, logged. */
int campaign__record(struct campaign *c, const char *db, time_t now, int reps, size_t *ret_nruns);
/* Load a campaign from its database: its plan, options (o, whose strings are
 * kept in saved, CAMPAIGN_SAVED_OPTS of them, for the caller to free), variants
 * and kernels. Shared by --resume and the workers. 0 or -errno, logged. */
#define CAMPAIGN_SAVED_OPTS 7
int campaign__load(struct campaign *c, const char *db, struct campaign_opts *o, char **saved);

/* campaign-run-one.c: one run of variant vi; 0, or -errno when the store failed. */
int campaign__run_one(struct campaign *c, size_t vi, const struct store_run *run,
		      struct run_outcome *out);

/* campaign-schedule.c */
/* The plan's index of a variant's row id, or -1. */
int campaign__variant_index(const struct campaign *c, int64_t variant_id);
/*
 * An infrastructure failure is not data: the same variant and repetition is
 * queued again (a new run row, last in order) until retries are used up, or
 * regardless of them (budget false) when the host, not the guest, cut it short.
 */
int campaign__retry_infra(struct campaign *c, int64_t run_id, int64_t variant, int rep,
			  uint64_t seed, bool budget);
/* Run every pending run in worker processes; 0, -EINTR or -errno (logged). */
int campaign__execute(struct campaign *c, const char *db, int *ret_failed_runs);

/* campaign-adaptive.c: a block more (1), stop (0), or -errno. */
int campaign__adaptive_more(struct campaign *c, const char *db, int64_t wall_ms);

#endif
