// SPDX-License-Identifier: GPL-2.0
/*
 * lttng-calibrate: the settings runs work with, and the run slot.
 *
 * One copy of the settings is current.  A run takes a snapshot when it
 * starts and works only on that; while it is in progress every change is
 * refused with -EBUSY, so what a result says about its settings is what
 * the run used.  The lock is only ever held for a moment: never across a
 * run, so no reader or writer waits for one.  The files that change the
 * settings are their owners' (lttng-calibrate-input.c has the parsing they
 * share); this file calls nothing of the module.
 *
 * Module parameters stay writable while the module's exit runs and until
 * the module is freed: the exit closes the settings, and every change is
 * refused from then on.
 */
#include "lttng-calibrate.h"

#include <linux/err.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>

static DEFINE_MUTEX(settings_mutex);
static bool interface_ready;
static bool run_active;
static bool settings_closed;
static struct lttng_calibrate_settings current_settings = {
	.cpu = -1,
	.max_iterations = 100000000,
	.chunk_iterations = 10000,
	.deltas_window = 1000,
};

/**
 * lttng_calibrate_settings_lock() - the current settings, to change them
 *
 * Context: process context, may sleep (killable).
 * Return: the settings, locked until lttng_calibrate_settings_unlock(); or
 * ERR_PTR(-EBUSY) while a run is in progress, ERR_PTR(-ENODEV) once the
 * module is going away, ERR_PTR(-EINTR) when killed while waiting.
 */
struct lttng_calibrate_settings *lttng_calibrate_settings_lock(void)
{
	int err = 0;

	if (mutex_lock_killable(&settings_mutex))
		return ERR_PTR(-EINTR);
	if (settings_closed)
		err = -ENODEV;
	else if (run_active)
		err = -EBUSY;
	if (err) {
		mutex_unlock(&settings_mutex);
		return ERR_PTR(err);
	}
	return &current_settings;
}

/**
 * lttng_calibrate_interface_ready() - the load is done: files may be opened
 *
 * For the last statement of the module's init.  Until then every open of
 * a file of the interface fails: a load that fails after creating some of
 * them frees the module whatever its reference count, so no file may be
 * open then (nor a run started, which would hold the load up in
 * debugfs_remove_recursive()).
 */
void lttng_calibrate_interface_ready(void)
{
	/* Pairs with the acquire in lttng_calibrate_interface_open(). */
	smp_store_release(&interface_ready, true);
}

/**
 * lttng_calibrate_interface_open() - whether a file may be opened
 *
 * For every ->open of the interface's files.  A failed open never reaches
 * ->release.
 *
 * Return: 0 once the module's init has finished, else -ENODEV.
 */
int lttng_calibrate_interface_open(void)
{
	/* Pairs with the release in lttng_calibrate_interface_ready(). */
	return smp_load_acquire(&interface_ready) ? 0 : -ENODEV;
}

/**
 * lttng_calibrate_settings_close() - refuse every change from now on
 *
 * For the module's exit: once it returns, lttng_calibrate_settings_lock()
 * refuses with -ENODEV, and the settings stay locked until
 * lttng_calibrate_settings_unlock(), so that what is kept with them (the
 * events held for the counters) is released under the lock, after the
 * last change that was let in.
 *
 * Context: process context, may sleep; no run is left.
 */
void lttng_calibrate_settings_close(void)
{
	mutex_lock(&settings_mutex);
	settings_closed = true;
}

/**
 * lttng_calibrate_settings_unlock() - release lttng_calibrate_settings_lock()
 */
void lttng_calibrate_settings_unlock(void)
{
	lockdep_assert_held(&settings_mutex);
	mutex_unlock(&settings_mutex);
}

/**
 * lttng_calibrate_settings_assert_locked() - for state kept with the settings
 *
 * Other files keep state that changes with a setting (the events held for
 * the selected counters) under the settings lock: they assert it with this.
 */
void lttng_calibrate_settings_assert_locked(void)
{
	lockdep_assert_held(&settings_mutex);
}

/**
 * lttng_calibrate_settings_begin_run() - claim the run slot
 * @snap: receives the settings the run works with
 *
 * Context: process context, may sleep (killable).
 * Return: 0, -EBUSY while another run is in progress, -EINTR if killed.
 */
int lttng_calibrate_settings_begin_run(struct lttng_calibrate_settings *snap)
{
	struct lttng_calibrate_settings *s = lttng_calibrate_settings_lock();

	if (IS_ERR(s))
		return PTR_ERR(s);
	*snap = *s;
	run_active = true;
	lttng_calibrate_settings_unlock();
	return 0;
}

/**
 * lttng_calibrate_settings_end_run() - release the run slot
 *
 * Context: process context, may sleep; never fails.
 */
void lttng_calibrate_settings_end_run(void)
{
	mutex_lock(&settings_mutex);
	run_active = false;
	mutex_unlock(&settings_mutex);
}

/**
 * lttng_calibrate_settings_get() - a copy of the current settings
 * @copy: receives them
 *
 * Works during a run too: the settings do not change then.
 *
 * Context: process context, may sleep (killable).
 * Return: 0, or -EINTR when killed while waiting.
 */
int lttng_calibrate_settings_get(struct lttng_calibrate_settings *copy)
{
	if (mutex_lock_killable(&settings_mutex))
		return -EINTR;
	*copy = current_settings;
	mutex_unlock(&settings_mutex);
	return 0;
}
