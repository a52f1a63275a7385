// SPDX-License-Identifier: GPL-2.0
/* Numbers as the comparison tables, reports and history write them (see numfmt.h). */
#include "numfmt.h"

#include <math.h>
#include <stdio.h>

void fmt_num(char *buf, size_t len, double x)
{
	double a = fabs(x);

	if (isnan(x))
		snprintf(buf, len, "-");
	else if (a >= 1e10)
		snprintf(buf, len, "%.3gG", x / 1e9);
	else if (a >= 1e7)
		snprintf(buf, len, "%.4gM", x / 1e6);
	else if (a >= 100 || x == floor(x))
		snprintf(buf, len, "%.0f", x);
	else
		snprintf(buf, len, "%.3g", x);
}
