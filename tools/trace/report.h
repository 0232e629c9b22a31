/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LTTNG_CALIBRATE_TRACE_REPORT_H
#define LTTNG_CALIBRATE_TRACE_REPORT_H

#include <stdio.h>

#include "analysis.h"

enum report_format {
	REPORT_TABLE,
	REPORT_CSV,
	REPORT_JSON,
};

void report_print(FILE *out, const struct trace_analysis *an,
		  enum report_format format);
void report_context_name(const char *field, char *buf, size_t size);

#endif
