// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the statistics a run publishes: results and results_kv of runs
 * of 1 to 1000000 iterations, the per-iteration deltas and what their
 * readers hold, and the harness's own figures against a clock of the
 * test's.
 *
 * Every test ends by checking that the kernel log gained no warning, bug,
 * oops, lockdep report or RCU stall.
 */
#define _GNU_SOURCE
#include <sys/mount.h>

#include "../kselftest_harness.h"

#include "lttng_calibrate_harness.h"

ENV_FIXTURE(calib)

TEST_F(calib, run_1)
{
	ASSERT_EQ(0, run("1\n"));
	check_results(_metadata, 1);
}

TEST_F(calib, run_10)
{
	ASSERT_EQ(0, run("10\n"));
	check_results(_metadata, 10);
}

TEST_F_TIMEOUT(calib, run_1000000, 300)
{
	ASSERT_EQ(0, run("1000000\n"));
	check_results(_metadata, 1000000);
}

static int columns(const char *line)
{
	int n = 1;

	for (; *line && *line != '\n'; line++)
		n += *line == '\t';
	return n;
}

/* The deltas file holds min(N, W) rows of 1 + 2 * (1 + counters) columns. */
static void check_deltas(struct __test_metadata *_metadata, long long n,
			 int window, int counters)
{
	char *text = lc_read_file(DIR "deltas", NULL), *line;
	long long rows = n < window ? n : window, first = n - rows, it;

	ASSERT_NE(NULL, text);
	EXPECT_EQ(rows + 1, count_lines(text));
	EXPECT_EQ(0, strncmp(text, "iteration\ttarget.cycles\tbaseline.cycles",
			     39));
	EXPECT_EQ(3 + 2 * counters, columns(text));
	line = strchr(text, '\n');
	for (it = first; line && line[1]; it++) {
		line++;
		EXPECT_EQ(it, strtoll(line, NULL, 10));
		EXPECT_EQ(3 + 2 * counters, columns(line));
		line = strchr(line, '\n');
	}
	EXPECT_EQ(n, it);
	free(text);
}

TEST_F(calib, deltas_window)
{
	ASSERT_EQ(0, param_write("deltas_window", "50"));
	ASSERT_EQ(0, run("10"));
	check_deltas(_metadata, 10, 50, 0);
	ASSERT_EQ(0, run("200"));
	check_deltas(_metadata, 200, 50, 0);
	ASSERT_EQ(0, write_str(DIR "counters", "page-faults cpu-clock\n"));
	ASSERT_EQ(0, run("1000"));
	check_deltas(_metadata, 1000, 50, 2);
	ASSERT_EQ(0, param_write("deltas_window", "0"));
	ASSERT_EQ(0, run("10"));
	check_deltas(_metadata, 0, 0, 2);
}

/*
 * A reader of deltas holds a copy of the ring: at most 8 copies at once,
 * EMFILE past them, and a copy closed makes room again.
 */
#define DELTAS_MAX_OPEN	8

TEST_F(calib, deltas_snapshots_capped)
{
	int fds[DELTAS_MAX_OPEN], i, fd;

	ASSERT_EQ(0, run("10"));
	for (i = 0; i < DELTAS_MAX_OPEN; i++) {
		fds[i] = open(DIR "deltas", O_RDONLY);
		ASSERT_LE(0, fds[i]) {
			TH_LOG("open %d of deltas: %s", i + 1, strerror(errno));
		}
	}
	fd = open(DIR "deltas", O_RDONLY);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EMFILE, errno) {
		TH_LOG("open %d of deltas: %s", DELTAS_MAX_OPEN + 1,
		       fd < 0 ? strerror(errno) : "opened");
	}
	if (fd >= 0)
		close(fd);
	close(fds[0]);
	fds[0] = open(DIR "deltas", O_RDONLY);
	EXPECT_LE(0, fds[0]);
	for (i = 0; i < DELTAS_MAX_OPEN; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* memory.current of cgroup @cg, in bytes; -1 when unreadable. */
static long long memory_current(const char *cg)
{
	char path[128], *text;
	long long v;

	snprintf(path, sizeof(path), "%s/memory.current", cg);
	text = lc_read_file(path, NULL);
	if (!text)
		return -1;
	v = atoll(text);
	free(text);
	return v;
}

/*
 * The copy a reader of deltas holds is charged to the reader's memory
 * cgroup: a 65536-row ring of four counters (5 MiB) opened from a cgroup
 * adds at least that much to its memory.current.
 */
TEST_F(calib, deltas_snapshot_charged_to_its_reader)
{
	const char *root = "/sys/fs/cgroup";
	const char *cg = "/sys/fs/cgroup/lttng_calibrate_memory";
	const long long ring = 65536LL * 2 * 5 * 8;
	long long grown = -1;
	char path[128], pid[16];
	bool mounted = false;
	int pipefd[2], status;

	ASSERT_EQ(0, param_write("deltas_window", "65536"));
	ASSERT_EQ(0, write_str(DIR "counters",
			       "cpu-clock page-faults context-switches cpu-migrations"));
	ASSERT_EQ(0, run("1"));
	if (access("/sys/fs/cgroup/cgroup.controllers", F_OK)) {
		if (mount("cgroup2", root, "cgroup2", 0, NULL))
			SKIP(return, "no cgroup v2: %s", strerror(errno));
		mounted = true;
	}
	if (write_str("/sys/fs/cgroup/cgroup.subtree_control", "+memory")) {
		if (mounted)
			umount(root);
		SKIP(return, "no memory controller in cgroup v2");
	}
	ASSERT_EQ(0, mkdir(cg, 0755));
	ASSERT_EQ(0, pipe(pipefd));
	self->env.child = fork();
	ASSERT_LE(0, self->env.child);
	if (self->env.child == 0) {
		long long before;
		int fd;

		snprintf(pid, sizeof(pid), "%d", getpid());
		snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
		if (write_str(path, pid))
			_exit(100);
		before = memory_current(cg);
		fd = open(DIR "deltas", O_RDONLY);
		if (fd < 0)
			_exit(101);
		grown = memory_current(cg) - before;
		close(fd);
		_exit(write(pipefd[1], &grown, sizeof(grown)) ==
		      sizeof(grown) ? 0 : 102);
	}
	close(pipefd[1]);
	ASSERT_EQ(self->env.child, waitpid(self->env.child, &status, 0));
	self->env.child = 0;
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) {
		TH_LOG("reader: status 0x%x", status);
	}
	EXPECT_EQ(sizeof(grown), read(pipefd[0], &grown, sizeof(grown)));
	close(pipefd[0]);
	TH_LOG("memory.current grew by %lld bytes with deltas open (ring %lld)",
	       grown, ring);
	EXPECT_LE(ring, grown);
	EXPECT_EQ(0, rmdir(cg));
	if (mounted)
		umount(root);
	EXPECT_EQ(0, write_str(DIR "counters", "\n"));
}

TEST_F_TIMEOUT(calib, deltas_readable_during_run, 120)
{
	char *text, *line;
	int i;

	ASSERT_EQ(0, write_str(DIR "counters", "cpu-clock\n"));
	self->env.child = start_run(LONG_RUN);
	ASSERT_LT(0, self->env.child);
	ASSERT_TRUE(wait_running(5000, 30000));
	for (i = 0; i < 20; i++) {
		text = lc_read_file(DIR "deltas", NULL);
		ASSERT_NE(NULL, text);
		/* The run may overwrite a few of the oldest rows meanwhile. */
		EXPECT_GE(1001, count_lines(text));
		EXPECT_LE(1001 - 64, count_lines(text));
		for (line = text; line && *line; line = strchr(line, '\n')) {
			if (*line == '\n')
				line++;
			if (*line)
				EXPECT_EQ(5, columns(line));
		}
		free(text);
	}
}

static double elapsed_ns(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1e9 + (b->tv_nsec - a->tv_nsec);
}

/*
 * The harness figures against a clock of our own: the loop's wall time
 * (wall cycles per iteration, times the iterations, in ns at the clock's
 * frequency) lies inside the write that ran it, which adds only the run's
 * set-up and teardown; and the two timed windows lie inside the loop.
 */
TEST_F(calib, harness_cross_check)
{
	double wall, timed, khz, done, loop_ns, write_ns;
	struct timespec start, end;
	char *text;

	/* Enough iterations that the loop is most of the write. */
	clock_gettime(CLOCK_MONOTONIC, &start);
	ASSERT_EQ(0, run("1000000"));
	clock_gettime(CLOCK_MONOTONIC, &end);
	write_ns = elapsed_ns(&start, &end);
	text = lc_read_file(DIR "results_kv", NULL);
	ASSERT_NE(NULL, text);
	wall = lc_kv_double(text, "harness.wall_cycles_per_iteration", -1);
	timed = lc_kv_double(text, "harness.timed_cycles_per_iteration", -1);
	khz = lc_kv_double(text, "clock.khz", -1);
	done = lc_kv_double(text, "run.iterations.done", -1);
	free(text);
	ASSERT_LT(0, khz);
	ASSERT_EQ(1000000, done);
	EXPECT_LT(0, timed);
	EXPECT_LT(timed, wall);
	loop_ns = wall * done * 1e6 / khz;
	fprintf(stderr, "# loop %.0f ns of the write's %.0f ns\n", loop_ns,
		write_ns);
	/*
	 * 10 % for two clocks' rates; the set-up (the thread, its CPU) is
	 * a few ms of a write of hundreds, so a wall time off by half or
	 * more is caught.
	 */
	EXPECT_LT(loop_ns, write_ns * 1.1);
	EXPECT_GT(loop_ns, write_ns * 0.7);
}

int main(int argc, char **argv)
{
	return lttng_calibrate_main(argc, argv);
}
