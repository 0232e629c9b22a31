// SPDX-License-Identifier: GPL-2.0
/*
 * bpftrace's mechanisms of lttng-calibrate bench: a count map on the
 * module's tracepoint, and on the target through a kprobe, a kretprobe and
 * fentry.  bpftrace runs the writer and prints the map when it ends.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mechanisms.h"

/*
 * Whether the kernel has the symbol NAME (/proc/kallsyms, whose names
 * are there for root even where its addresses read 0).
 */
static bool lc_kallsyms_has(const char *name)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	size_t n = strlen(name), cap = 0;
	char *line = NULL, *sym;
	bool found = false;

	if (!f)
		return false;
	while (!found && getline(&line, &cap, f) > 0) {
		/* "ADDRESS TYPE NAME[\t[MODULE]]\n" */
		sym = strchr(line, ' ');
		sym = sym ? strchr(sym + 1, ' ') : NULL;
		found = sym && !strncmp(sym + 1, name, n) &&
			(sym[n + 1] == '\n' || sym[n + 1] == '\t');
	}
	free(line);
	fclose(f);
	return found;
}

/* bpftrace: a count map, printed when the writer it runs ends. */
static enum lc_tracer_prep lc_bpftrace_prepare(struct lc_tracer_ctx *ctx,
					       const struct lc_bench_mech *m,
					       char *why, size_t len)
{
	enum lc_tracer_prep rc = lc_tracer_need("bpftrace", "bpftrace", why, len);

	(void)ctx;
	if (rc != LC_PREP_OK || strncmp(m->arg, "kfunc:", 6))
		return rc;
	if (access("/sys/kernel/btf/vmlinux", F_OK)) {
		snprintf(why, len,
			 "no /sys/kernel/btf/vmlinux: the kernel has no BTF (CONFIG_DEBUG_INFO_BTF)");
		return LC_PREP_UNAVAILABLE;
	}
	/*
	 * A BPF trampoline reaches a kernel function through ftrace's direct
	 * calls; without them (arm64 before 6.4) it fails to attach.
	 */
	if (!lc_kallsyms_has("register_ftrace_direct")) {
		snprintf(why, len,
			 "the kernel has no ftrace direct calls for BPF trampolines (CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS; arm64 has them from 6.4)");
		return LC_PREP_UNAVAILABLE;
	}
	if (access("/sys/kernel/btf/lttng_calibrate", F_OK)) {
		snprintf(why, len,
			 "lttng_calibrate has no BTF (built without vmlinux: add it with 'pahole -J --btf_base /sys/kernel/btf/vmlinux' on a copy of the .ko, and load that)");
		return LC_PREP_UNAVAILABLE;
	}
	return LC_PREP_OK;
}

static int lc_bpftrace_command(struct lc_tracer_ctx *ctx,
			       const struct lc_bench_mech *m, char **argv,
			       char *buf, size_t len)
{
	/* bpftrace 0.17 runs only an ELF binary: the shell, then the script */
	int n = snprintf(buf, len, "%s { @calls = count(); }%c/bin/sh %s",
			 m->arg, '\0', ctx->writer);

	if (n < 0 || (size_t)n >= len)
		return -1;
	argv[0] = "bpftrace";
	argv[1] = "-e";
	argv[2] = buf;
	argv[3] = "-c";
	argv[4] = buf + strlen(buf) + 1;
	argv[5] = NULL;
	return 0;
}

static int lc_bpftrace_count(struct lc_tracer_ctx *ctx,
			     const struct lc_bench_mech *m,
			     struct lc_tracer_count *c)
{
	char out[PATH_MAX + 32];
	char *text;

	snprintf(out, sizeof(out), "%s/%s.out", ctx->tmpdir, m->name);
	text = lc_read_file(out, NULL);
	c->recorded = 0;
	if (text)
		c->recorded = lc_field_ll(text, "@calls: ", 0);
	if (text && strstr(text, "Lost ")) {
		free(text);
		return lc_tracer_count_set(c, true, "bpftrace lost events");
	}
	free(text);
	return 0;
}

/* A row of bpftrace: a count map on PROBE, the module's target TARGET. */
#define LC_BPFTRACE_MECH(_name, _target, _probe) {			\
	.name = _name, .probe = "external", .target = _target,		\
	.arg = _probe, .prepare = lc_bpftrace_prepare,			\
	.command = lc_bpftrace_command, .count = lc_bpftrace_count,	\
}

const struct lc_bench_mech lc_bench_tracepoint_bpf =
	LC_BPFTRACE_MECH("tracepoint-bpf", "tracepoint", "tracepoint:" LC_BENCH_TP);
const struct lc_bench_mech lc_bench_payload_bpf =
	LC_BPFTRACE_MECH("payload-bpf", "payload", "tracepoint:" LC_BENCH_PAYLOAD);
const struct lc_bench_mech lc_bench_bpftrace_kprobe =
	LC_BPFTRACE_MECH("bpftrace-kprobe", "function", "kprobe:" LC_BENCH_TARGET);
const struct lc_bench_mech lc_bench_bpftrace_kretprobe =
	LC_BPFTRACE_MECH("bpftrace-kretprobe", "function",
			 "kretprobe:" LC_BENCH_TARGET);
const struct lc_bench_mech lc_bench_bpftrace_fentry =
	LC_BPFTRACE_MECH("bpftrace-fentry", "function",
			 "kfunc:lttng_calibrate:" LC_BENCH_TARGET);
