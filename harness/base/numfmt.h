/* SPDX-License-Identifier: GPL-2.0 */
/* Numbers as the comparison tables, reports and history write them. */
#ifndef LRUBENCH_NUMFMT_H
#define LRUBENCH_NUMFMT_H

#include <stddef.h>

/* x in at most 9 columns ("123456789", "12.3M", "1.5G", "0.25"); "-" for NAN. */
void fmt_num(char *buf, size_t len, double x);

#endif
