/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What an export to another system's format (KCIDB: report/kcidb.h) reads
 * of a campaign store beyond the dataset: each variant's kernel as its runs
 * recorded it, and whether its runs booted. Reads only; what it returns is
 * malloc'd and freed by the matching __free (NULL and empty accepted).
 * Returns 0 or -EIO (SQLite's message in store__errmsg()).
 */
#ifndef LRUBENCH_STORE_EXPORT_H
#define LRUBENCH_STORE_EXPORT_H

#include <stddef.h>
#include <stdint.h>

struct store;

/* A variant's kernel: its kernel.* provenance and how its runs went. */
struct store_export_kernel {
	char *variant;
	char **key, **value; /* "kernel.sha256", ...: each from the variant's first run that has it */
	size_t nkeys;
	int64_t runs;	       /* runs of the variant, any status */
	int64_t booted;	       /* of them: completed, or the agent answered (boot_to_agent_s) */
	int64_t failed_kernel; /* of them: ended failed-kernel */
};
/* Every variant, by id. */
int store__export_kernels(struct store *st, struct store_export_kernel **ret, size_t *ret_n);
void store_export_kernels__free(struct store_export_kernel *k, size_t n);
/* The value of key in k, or NULL (also for ""). */
const char *store_export_kernel__get(const struct store_export_kernel *k, const char *key);

#endif
