/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LTTNG_CALIBRATE_TRACE_REPORT_H
#define LTTNG_CALIBRATE_TRACE_REPORT_H

#include <stdio.h>

#include "../lib/lc.h"
#include "analysis.h"

void report_print(FILE *out, const struct trace_analysis *an,
		  enum lc_format format);
void report_context_name(const char *field, char *buf, size_t size);

#endif
