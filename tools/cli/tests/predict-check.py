#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of lttng-calibrate predict's JSON output.

Usage: predict-check.py events FILE LOW HIGH
       predict-check.py zero FILE MAX_EVENTS
       predict-check.py row FILE CONFIGURATION LOW HIGH
Exits 0 when the file is as it should be, else prints why and exits 1.
Both check the schema, that every row is ok, and that each row's figures
are computed from what was measured (predicted = events x cost where runs
are not scaled to a throughput, the percents of the untraced CPU time,
explained = predicted / measured);
then:
  events  every row recorded LOW to HIGH events per run, and lost none;
  zero    every row recorded at most MAX_EVENTS per run, its predicted
          overhead is under 1 %, and its measured overhead is zero within
          twice its 95 % interval (half a percent more for the clock's
          granularity);
  row     the row CONFIGURATION recorded LOW to HIGH events per run, and
          lost none.
tests/bench-vm-test runs both, on a workload of known system calls and on
one that makes none.
"""
import json
import math
import sys

TOP = ["format", "kernel", "command", "runs", "clock", "clock_khz",
       "cpu_time", "scaled_to_throughput", "untraced", "rows"]
ROW = ["configuration", "status", "reason", "cost_basis", "events_per_run",
       "events_lost", "cost_per_event_cycles", "cost_ci95_cycles",
       "predicted_overhead_cycles", "predicted_overhead_percent",
       "predicted_ci95_percent", "measured_overhead_cycles",
       "measured_overhead_percent", "measured_ci95_percent",
       "measured_cost_per_event_cycles", "explained_fraction",
       "untraced_cpu_cycles", "throughput", "agree"]


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-6)


def check_row(r, scaled):
    assert list(r) == ROW, list(r)
    assert r["status"] == "ok", r
    for f in ROW[4:17]:
        if f == "measured_cost_per_event_cycles" and not r["events_per_run"]:
            assert r[f] is None, (f, r)
        elif f != "explained_fraction" or r["measured_overhead_cycles"]:
            assert isinstance(r[f], (int, float)), (f, r)
    base = r["untraced_cpu_cycles"]
    assert base > 0, r
    if not scaled:
        assert close(r["predicted_overhead_cycles"],
                     r["events_per_run"] * r["cost_per_event_cycles"]), r
    assert close(r["predicted_overhead_percent"],
                 100 * r["predicted_overhead_cycles"] / base), r
    assert close(r["measured_overhead_percent"],
                 100 * r["measured_overhead_cycles"] / base), r
    # The measured cost of an event: the measured overhead over the
    # events, scaled as the prediction's (events x cost).
    if r["events_per_run"] and r["cost_per_event_cycles"]:
        assert close(r["measured_cost_per_event_cycles"] *
                     r["predicted_overhead_cycles"] /
                     r["cost_per_event_cycles"],
                     r["measured_overhead_cycles"]), r
    if r["measured_overhead_cycles"]:
        assert close(r["explained_fraction"],
                     r["predicted_overhead_cycles"] /
                     r["measured_overhead_cycles"]), r
    # The prediction's interval: at least the cost's, the events' spread
    # added to it.
    cost_only = 100 * (r["predicted_overhead_cycles"] * r["cost_ci95_cycles"]
                       / r["cost_per_event_cycles"] / base
                       if r["cost_per_event_cycles"] else 0)
    assert r["predicted_ci95_percent"] >= cost_only * (1 - 1e-6), r
    # Agreement: the difference inside its own interval, the two
    # half-widths in quadrature.
    if r["measured_ci95_percent"] is not None:
        assert r["agree"] == (
            abs(r["measured_overhead_percent"] -
                r["predicted_overhead_percent"]) <=
            math.hypot(r["measured_ci95_percent"],
                       r["predicted_ci95_percent"])), r
    assert isinstance(r["agree"], bool), r


def load(path):
    j = json.load(open(path))
    assert list(j) == TOP, list(j)
    assert j["format"] == "lttng-calibrate-predict/1", j["format"]
    assert j["runs"] >= 2 and j["clock_khz"] > 0, j
    assert j["cpu_time"].startswith("cgroup"), j["cpu_time"]
    assert j["untraced"]["cpu_ns"] > 0, j["untraced"]
    assert j["rows"], "no rows"
    for r in j["rows"]:
        check_row(r, j["scaled_to_throughput"])
    return j


def check_events(path, low, high):
    for r in load(path)["rows"]:
        assert int(low) <= r["events_per_run"] <= int(high), \
            (r["configuration"], r["events_per_run"], low, high)
        assert r["events_lost"] == 0, r


def check_one(path, name, low, high):
    rows = [r for r in load(path)["rows"] if r["configuration"] == name]
    assert len(rows) == 1, ("no row", name)
    r = rows[0]
    assert int(low) <= r["events_per_run"] <= int(high), \
        (name, r["events_per_run"], low, high)
    assert r["events_lost"] == 0, r


def check_zero(path, most):
    for r in load(path)["rows"]:
        assert r["events_per_run"] <= int(most), r
        assert r["predicted_overhead_percent"] < 1, r
        assert abs(r["measured_overhead_percent"]) <= \
            2 * r["measured_ci95_percent"] + 0.5, r


def main():
    checks = {"events": (check_events, 3), "zero": (check_zero, 2),
              "row": (check_one, 4)}
    if len(sys.argv) < 2 or sys.argv[1] not in checks or \
            len(sys.argv) != 2 + checks[sys.argv[1]][1]:
        sys.exit(__doc__)
    try:
        checks[sys.argv[1]][0](*sys.argv[2:])
    except (AssertionError, KeyError, TypeError, ValueError) as e:
        print("%s: %s: %r" % (sys.argv[1], sys.argv[2], e))
        sys.exit(1)


if __name__ == "__main__":
    main()
