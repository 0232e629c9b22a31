/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lttng-calibrate: what differs between the kernels it builds for, in one
 * place (as lttng-modules keeps its include/wrapper/).  Everything else in
 * the module is written against one API; each difference here is a range
 * of LINUX_VERSION_CODE or a kernel option.
 */
#ifndef _LTTNG_CALIBRATE_COMPAT_H
#define _LTTNG_CALIBRATE_COMPAT_H

#include <linux/version.h>

/* Whether the kernel built for is @major.@minor.@patch or later. */
#define LTTNG_CALIBRATE_KERNEL_AT_LEAST(major, minor, patch) \
	(KERNEL_VERSION(major, minor, patch) <= LINUX_VERSION_CODE)

/*
 * fprobe: since 5.18 behind CONFIG_FPROBE (Debian's 6.1 does not set it,
 * its 6.12 does).  Handlers got an entry_data pointer and the entry handler
 * a return value in 6.5, which is as old as the module goes; in 6.14
 * fprobe moved onto the function graph tracer, and handlers get a
 * struct ftrace_regs instead of a struct pt_regs.
 *
 * lttng_calibrate_fprobe_set_maxactive(): how many calls of the probed
 * function an fprobe with an exit handler follows at once.  Before 6.14 it
 * preallocates that many instances (nr_maxactive); since 6.14 the entry
 * data live on each task's function graph shadow stack, there is no such
 * limit, and struct fprobe has no nr_maxactive any more.
 */
#if IS_ENABLED(CONFIG_FPROBE) && LTTNG_CALIBRATE_KERNEL_AT_LEAST(6, 5, 0)
#define LTTNG_CALIBRATE_HAVE_FPROBE	1
#include <linux/fprobe.h>
#if LTTNG_CALIBRATE_KERNEL_AT_LEAST(6, 14, 0)
#define lttng_calibrate_fprobe_regs	ftrace_regs
static inline void lttng_calibrate_fprobe_set_maxactive(struct fprobe *fp,
							int maxactive)
{
}
#else
#define lttng_calibrate_fprobe_regs	pt_regs
static inline void lttng_calibrate_fprobe_set_maxactive(struct fprobe *fp,
							int maxactive)
{
	fp->nr_maxactive = maxactive;
}
#endif
#define LTTNG_CALIBRATE_FPROBE_UNAVAILABLE	NULL
#elif IS_ENABLED(CONFIG_FPROBE)
#define LTTNG_CALIBRATE_FPROBE_UNAVAILABLE \
	"the fprobe API of kernels before 6.5 is not supported"
#else
#define LTTNG_CALIBRATE_FPROBE_UNAVAILABLE \
	"the kernel is built without CONFIG_FPROBE"
#endif

#endif /* _LTTNG_CALIBRATE_COMPAT_H */
