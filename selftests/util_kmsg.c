// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel log: what a test caused in it, checked against the patterns
 * of kmsg_patterns.h (the list the shell scripts use too), and the marks a
 * test writes in it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kmsg_patterns.h"
#include "lttng_calibrate_util.h"

/**
 * kmsg_next() - the next kernel log record
 * @fd: /dev/kmsg, opened O_NONBLOCK
 * @rec: the record, NUL-terminated
 * @size: room in @rec
 *
 * Return: false when there is none left.
 */
bool kmsg_next(int fd, char *rec, size_t size)
{
	ssize_t n;

	/* EPIPE: records were overwritten; keep going.  EAGAIN: no more. */
	while ((n = read(fd, rec, size - 1)) < 0 && errno == EPIPE)
		;
	if (n <= 0)
		return false;
	rec[n] = '\0';
	return true;
}

/**
 * kmsg_has_errors() - whether the kernel log gained an error
 * @fd: /dev/kmsg, opened O_NONBLOCK and positioned where the test began
 *
 * Every record that holds one of the patterns of kmsg_patterns.h is
 * printed, but for the kernel's unload race that kmsg_patterns.h tolerates
 * during an unload a test marked (kmsg_unload_begins()).
 *
 * Return: 1 if any record written since holds one, else 0.
 */
int kmsg_has_errors(int fd)
{
	struct lc_kmsg_scan scan;
	struct utsname uts;
	char rec[8192];
	int tolerated = 0;

	lc_kmsg_scan_start(&scan, uname(&uts) ? "" : uts.release);
	while (kmsg_next(fd, rec, sizeof(rec))) {
		if (lc_kmsg_scan_line(&scan, rec))
			fprintf(stderr, "# kernel log: %s", rec);
		if (scan.tolerated != tolerated) {
			fputs("# kernel log: above: the kernel's unload race, tolerated\n",
			      stderr);
			tolerated = scan.tolerated;
		}
	}
	return lc_kmsg_scan_end(&scan) > 0;
}

/**
 * kmsg_write() - write a line to the kernel log
 * @text: the line, with its newline
 *
 * For kmsg_has_errors() to read.
 */
void kmsg_write(const char *text)
{
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, text, strlen(text)) < 0)
		perror("/dev/kmsg");
	close(fd);
}

/**
 * kmsg_unload_begins() - mark an unload that files may be opened during
 *
 * The kernel's race between the two (kmsg_patterns.h) is tolerated from
 * here to kmsg_unload_ends(), called once delete_module() returned.
 */
void kmsg_unload_begins(void)
{
	kmsg_write(LC_KMSG_UNLOAD_BEGINS "\n");
}

/**
 * kmsg_unload_ends() - end what kmsg_unload_begins() marked
 */
void kmsg_unload_ends(void)
{
	kmsg_write(LC_KMSG_UNLOAD_ENDS "\n");
}

/**
 * kmsg_count() - the kernel log records that hold a text
 * @fd: /dev/kmsg, opened O_NONBLOCK, read from where it is
 * @what: the text
 *
 * Return: how many records hold @what.
 */
int kmsg_count(int fd, const char *what)
{
	char rec[8192];
	int count = 0;

	while (kmsg_next(fd, rec, sizeof(rec)))
		count += !!strstr(rec, what);
	return count;
}
