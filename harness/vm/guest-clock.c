// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's clock (guest-clock.h): the mode's QEMU arguments, and the
 * instruction-counted clock's shift calibrated on this host.
 */
#include "guest-clock.h"
#include "image.h"
#include "kernel.h"
#include "run-conf.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define CAL_SHIFT 0	      /* the calibration guest's shift: 1 ns per instruction */
#define CAL_SPAN_MS 400	      /* guest time busy-looped */
#define CAL_TIMEOUT_MS 300000 /* boot to the agent under -icount is slow: minutes at worst */
#define SHIFT_MAX 10

int guest_clock_shift_for(int s0, double guest_ns, double wall_ns)
{
	double n;

	if (!(guest_ns > 0) || !(wall_ns > 0))
		return s0;
	/* guest/wall = R * 2^s0 (R: instructions per wall ns); want R * 2^n = 1 */
	n = (double)s0 + log2(wall_ns / guest_ns);
	n = floor(n + 0.5);
	return n < 0 ? 0 : n > SHIFT_MAX ? SHIFT_MAX : (int)n;
}

/* The calibration guest's two events, timed on arrival. */
struct cal {
	char line[1024];
	size_t len;
	int64_t guest_start, guest_end; /* the events' guest CLOCK_MONOTONIC, ns; -1: not seen */
	int64_t wall_start, wall_end;	/* when they arrived here */
	unsigned long long loops;
};

static int cal_line(struct cal *c, const char *line, int64_t now)
{
	long long t;
	char what[32];

	if (sscanf(line, "event %lld calibrate %31s", &t, what) != 2)
		return 0;
	if (!strcmp(what, "start")) {
		c->guest_start = t;
		c->wall_start = now;
		return 0;
	}
	if (!strcmp(what, "end") && c->guest_start >= 0) {
		const char *l = strstr(line, "loops=");

		c->guest_end = t;
		c->wall_end = now;
		if (l)
			sscanf(l, "loops=%llu", &c->loops);
		return -1; /* both seen: stop the guest */
	}
	return 0;
}

static int cal_data(void *ctx, const char *buf, size_t len)
{
	struct cal *c = ctx;
	int64_t now = now_mono_ns();

	for (size_t i = 0; i < len; i++) {
		if (buf[i] != '\n') {
			if (c->len < sizeof(c->line) - 1)
				c->line[c->len++] = buf[i];
			continue;
		}
		c->line[c->len] = '\0';
		c->len = 0;
		if (cal_line(c, c->line, now) < 0)
			return -1;
	}
	return 0;
}

/* The host's boot and QEMU's version: a new boot or another QEMU calibrates again. */
static char *cache_key(void)
{
	_cleanup_free_ char *boot_id = NULL, *qv = vm_qemu_version(), *s = NULL;
	char key[65];

	read_file("/proc/sys/kernel/random/boot_id", 256, &boot_id, NULL);
	s = xasprintf("%s|%s", boot_id ? strstrip(boot_id) : "", qv ? qv : "");
	sha256_buf(s, strlen(s), key);
	return xasprintf("%.16s", key);
}

/* Boot the calibration guest once: 0 with the shift and how it was found, or -errno. */
static int calibrate(const struct kernel *k, const struct guest_image *img, const char *build_dir,
		     int *ret_shift, char **ret_why)
{
	_cleanup_free_ char *dir = xasprintf("%s/clock-XXXXXX", build_dir);
	_cleanup_free_ char *initrd = NULL, *hello = NULL, *conf = NULL, *err = NULL;
	struct vm_icount ic = { .shift = CAL_SHIFT, .sleep = true };
	struct cal c = { .guest_start = -1, .guest_end = -1 };
	struct vm_spec spec;
	struct vm_result res;
	double g, w;
	int r = 0;

	mkdir_p(build_dir);
	if (!mkdtemp(dir))
		return -errno;
	initrd = xasprintf("%s/initrd.cpio", dir);
	hello = run_conf__hello(img, "clock-calibration");
	conf = xasprintf("%scalibrate_ms=%d\n", hello, CAL_SPAN_MS);
	if (guest_image__run_initrd(img, conf, initrd, &err) < 0) {
		*ret_why = xasprintf("calibration image: %s", err);
		r = -EIO;
		goto out;
	}
	spec = (struct vm_spec){
		.kernel = k->image,
		.initrd = initrd,
		.cmdline = "console=ttyS0 panic=-1 rdinit=/init quiet",
		.accel = "tcg",
		.icount = &ic,
		.mem_mb = 512,
		.cpus = 1,
		.run_dir = dir,
		.hello_timeout_ms = CAL_TIMEOUT_MS,
		.timeout_ms = CAL_TIMEOUT_MS,
	};
	log_info("calibrating the instruction-counted clock: a guest busy-loops %d ms of its "
		 "time at shift %d",
		 CAL_SPAN_MS, CAL_SHIFT);
	vm_run(&spec, cal_data, &c, &res);
	if (c.guest_end < 0) {
		if (res.error)
			res.error[strcspn(res.error, "\n")] = '\0';
		*ret_why = xasprintf("the calibration guest did not finish its loop (%s after "
				     "%.1f s%s%s; console in %s)",
				     vm_end_name(res.end), (double)res.wall_ns / 1e9,
				     res.error ? ": " : "", res.error ? res.error : "", dir);
		vm_result__clear(&res);
		free(TAKE_PTR(dir)); /* its console stays for the reader */
		return -EIO;
	}
	vm_result__clear(&res);
	g = (double)(c.guest_end - c.guest_start);
	w = (double)(c.wall_end - c.wall_start);
	*ret_shift = guest_clock_shift_for(CAL_SHIFT, g, w);
	*ret_why = xasprintf("calibrated: %.0f ms of guest time at shift %d took %.0f ms here "
			     "(%.0f M instructions/s), so 2^%d ns per instruction keeps guest time "
			     "%.2fx real time",
			     g / 1e6, CAL_SHIFT, w / 1e6, g / (double)(1 << CAL_SHIFT) / w * 1e3,
			     *ret_shift, g / w * (double)(1 << (*ret_shift - CAL_SHIFT)));
out:
	unlink(initrd);
	vm_run_dir_remove(dir);
	return r;
}

int guest_clock__resolve(struct guest_clock *gc, const char *mode, const struct kernel *k,
			 const struct guest_image *img, bool sleep, const char *build_dir,
			 bool use_cache, char **ret_err)
{
	_cleanup_free_ char *key = NULL, *cache = NULL, *cached = NULL, *why = NULL;
	int shift, r;

	*gc = (struct guest_clock){ 0 };
	if (!strcmp(mode, "real"))
		return 0;
	if (strcmp(mode, "instructions")) {
		*ret_err = xasprintf("bad clock '%s' (real or instructions)", mode);
		return -EINVAL;
	}
	key = cache_key();
	cache = xasprintf("%s/clock-shift-%s", build_dir, key);
	if (use_cache && read_file(cache, 4096, &cached, NULL) == 0 &&
	    sscanf(cached, "%d", &shift) == 1 && shift >= 0 && shift <= SHIFT_MAX &&
	    strchr(cached, '\n')) {
		gc->instructions = true;
		gc->icount = (struct vm_icount){ .shift = shift, .sleep = sleep };
		gc->why = xasprintf("%s (cached for this host boot)", strchr(cached, '\n') + 1);
		return 0;
	}
	r = calibrate(k, img, build_dir, &shift, &why);
	if (r < 0) {
		*ret_err = TAKE_PTR(why);
		return r;
	}
	{
		FILE *f = fopen(cache, "w");

		if (f) {
			fprintf(f, "%d\n%s", shift, why);
			fclose(f);
		}
	}
	gc->instructions = true;
	gc->icount = (struct vm_icount){ .shift = shift, .sleep = sleep };
	gc->why = TAKE_PTR(why);
	return 0;
}

char *guest_clock__format(const struct guest_clock *gc)
{
	if (!gc->instructions)
		return xstrdup("real");
	return xasprintf("instructions shift=%d sleep=%s", gc->icount.shift,
			 gc->icount.sleep ? "on" : "off");
}

int guest_clock__parse(struct guest_clock *gc, const char *text)
{
	int shift, n = 0;
	char sleep[4];

	*gc = (struct guest_clock){ 0 };
	if (!strcmp(text, "real"))
		return 0;
	if (sscanf(text, "instructions shift=%d sleep=%3s%n", &shift, sleep, &n) != 2 ||
	    text[n] || shift < 0 || shift > SHIFT_MAX ||
	    (strcmp(sleep, "on") && strcmp(sleep, "off")))
		return -EINVAL;
	gc->instructions = true;
	gc->icount = (struct vm_icount){ .shift = shift, .sleep = !strcmp(sleep, "on") };
	return 0;
}

const char *guest_clock_mode(const char *formatted)
{
	return formatted && !strncmp(formatted, "instructions", 12) ? "instructions" : "real";
}

char *guest_clock_describe(const char *formatted)
{
	struct guest_clock gc;

	if (!formatted || guest_clock__parse(&gc, formatted) < 0 || !gc.instructions)
		return xstrdup("real (guest time follows the host's)");
	return xasprintf("instructions (guest time: %d ns per executed instruction, sleep %s)",
			 1 << gc.icount.shift, gc.icount.sleep ? "on" : "off");
}

int guest_clock_cpus_ok(int cpus, const char *qemu_version, char **ret_err)
{
	const char *v = qemu_version ? strstr(qemu_version, "version ") : NULL;
	int major = 0, minor = 0;

	if (cpus <= 1)
		return 0;
	if (v && sscanf(v, "version %d.%d", &major, &minor) == 2 &&
	    (major > 8 || (major == 8 && minor >= 1)))
		return 0;
	*ret_err = xasprintf("%d vCPUs on the instruction-counted clock need QEMU 8.1 or later, "
			     "and this is %s: before 8.1 a guest with -icount and -smp %d hangs "
			     "at \"x86: Booting SMP configuration\"",
			     cpus, v ? v : "an unknown QEMU", cpus);
	return -ENOTSUP;
}

void guest_clock__clear(struct guest_clock *gc)
{
	free(gc->why);
	*gc = (struct guest_clock){ 0 };
}
