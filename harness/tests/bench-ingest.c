// SPDX-License-Identifier: GPL-2.0
/*
 * Host ingest rate: the first complete sample of a captured stream, repeated
 * with fresh sequence numbers, fed through ingest into a new store in 4 KiB
 * chunks (as from the socket). Prints values per second. A benchmark: it
 * prints a figure and asserts nothing about time.
 *
 *   bench-ingest STREAM_FILE SAMPLES DB_PATH
 */
#include "ingest.h"
#include "store.h"
#include "util.h"

#include <string.h>

int main(int argc, char **argv)
{
	_cleanup_free_ char *text = NULL, *block = NULL, *buf = NULL;
	struct store *st = NULL;
	struct ingest *in = NULL;
	int64_t variant, run;
	uint64_t n;
	const char *s, *e;
	size_t blen, len = 0, cap = 1u << 20;
	int64_t t0, t1;

	if (argc != 4 || parse_u64(argv[2], &n) < 0) {
		fprintf(stderr, "usage: bench-ingest STREAM_FILE SAMPLES DB_PATH\n");
		return 2;
	}
	if (read_file(argv[1], 64u << 20, &text, NULL) < 0 || !(s = strstr(text, "\nsample ")) ||
	    !(e = strstr(s, "\nend "))) {
		fprintf(stderr, "bench-ingest: %s has no complete sample\n", argv[1]);
		return 2;
	}
	/* The values of one sample, without its sample/end lines. */
	s = strchr(s + 1, '\n') + 1;
	blen = (size_t)(e + 1 - s);
	block = strndup(s, blen);
	unlink(argv[3]);
	if (store__open(argv[3], &st) < 0 ||
	    store__variant_add(st, "bench", "none", "mglru", "", &variant) < 0 ||
	    store__run_add(st, variant, 0, 0, 1, &run) < 0 || ingest__new(st, run, &in) < 0) {
		fprintf(stderr, "bench-ingest: store setup failed\n");
		return 1;
	}
	buf = xcalloc(1, cap);
	t0 = now_mono_ns();
	for (uint64_t i = 0; i < n; i++) {
		int k = snprintf(buf, cap, "sample %llu %llu\n", (unsigned long long)i,
				 (unsigned long long)(i * 1000000000ull));
		size_t count = 0;

		len = (size_t)k;
		memcpy(buf + len, block, blen);
		len += blen;
		for (size_t j = 0; j < blen; j++)
			count += block[j] == '\n';
		len += (size_t)snprintf(buf + len, cap - len, "end %llu %zu\n",
					(unsigned long long)i, count);
		for (size_t off = 0; off < len; off += 4096)
			ingest__feed(in, buf + off, len - off < 4096 ? len - off : 4096);
	}
	ingest__finish(in);
	t1 = now_mono_ns();
	printf("ingest: %llu samples, %llu values in %.2f s: %.0f values/s (%llu rejected)\n",
	       (unsigned long long)ingest__stats(in)->samples,
	       (unsigned long long)ingest__stats(in)->values, (double)(t1 - t0) / 1e9,
	       (double)ingest__stats(in)->values / ((double)(t1 - t0) / 1e9),
	       (unsigned long long)ingest__stats(in)->rejected);
	ingest__free(in);
	store__close(st);
	return 0;
}
