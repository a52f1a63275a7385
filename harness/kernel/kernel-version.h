#ifndef LRUBENCH_KERNEL_VERSION_H
#define LRUBENCH_KERNEL_VERSION_H

#include <stdbool.h>

/* A kernel version; sub is -1 when only the X.Y series is known (Debian ABI
 * strings such as "6.1.0-57-cloud-amd64" do not carry the upstream sublevel). */
struct kernel_version {
	int major, minor, sub;
};
/* "6.1.192" -> 6.1.192, "6.1.0-57-cloud-amd64" -> 6.1.(-1), "6.1" -> 6.1.0;
 * -EINVAL if release does not start with X.Y. */
int kernel_version_parse(const char *release, struct kernel_version *ret);
/* Whether v (sub -1: anywhere in its series) may fall in [from, until); an
 * until of 0.0.0 is open. */
bool kernel_version_in_range(struct kernel_version v, struct kernel_version from,
			     struct kernel_version until);

#endif
