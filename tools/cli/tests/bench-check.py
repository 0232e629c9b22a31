#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of lttng-calibrate bench's CSV, JSON and SVG output.

Usage: bench-check.py csv|json|svg|svg-fits FILE
       bench-check.py json-vm FILE [UNAVAILABLE,...]
Exits 0 when the file is as it should be, else prints why and exits 1.
tests/bench-tests.sh runs csv, json and svg on the output of the rows of
tests/data/bench.kv, and svg-fits (every text inside the chart) on the
charts of Documentation/bench; tests/bench-vm-test runs json-vm on a real
bench, with the rows the kernel cannot offer (any other row must be ok),
and svg-fits on its chart.
"""
import csv
import json
import sys
import xml.etree.ElementTree as ET

FIELDS = ["mechanism", "status", "reason", "overhead_cycles", "ci95_cycles",
          "stddev_cycles", "overhead_ns", "ci95_ns", "median_cycles",
          "samples", "per_kprobe", "events_expected", "events_recorded"]
TOP = ["format", "kernel", "cpu_model", "iterations", "clock", "clock_khz",
       "rows"]
SVG = "{http://www.w3.org/2000/svg}"


def check_csv(path):
    rows = list(csv.reader(open(path)))
    assert rows[0] == FIELDS, rows[0]
    assert all(len(r) == len(FIELDS) for r in rows), "not rectangular"
    assert len(rows) == 9, len(rows)
    d = {r[0]: dict(zip(FIELDS, r)) for r in rows[1:]}
    assert d["fprobe"]["overhead_cycles"] == "", "a null is an empty field"
    assert d["tracepoint-perf"]["reason"].startswith(
        'perf exited with status 1: "event'), d["tracepoint-perf"]
    assert d["ftrace-kretprobe"]["reason"] == \
        "the ring buffer lost 12 events (overrun, dropped)"
    assert d["kretprobe"]["per_kprobe"] == "2.440", d["kretprobe"]


def check_schema(j):
    assert list(j) == TOP, list(j)
    assert j["format"] == "lttng-calibrate-bench/1", j["format"]
    assert isinstance(j["iterations"], int)
    for r in j["rows"]:
        assert list(r) == FIELDS, list(r)
        assert r["status"] in ("ok", "lost", "unavailable", "failed"), r
        if r["status"] != "ok":
            assert r["reason"], r
        if r["status"] == "unavailable":
            assert all(r[f] is None for f in FIELDS[3:]), r
        for f in ("median_cycles", "samples", "events_expected",
                  "events_recorded"):
            assert r[f] is None or isinstance(r[f], int), (f, r)


def check_json(path):
    j = json.load(open(path))
    check_schema(j)
    assert j["iterations"] == 20000 and j["clock_khz"] == 1000000, j
    rows = {r["mechanism"]: r for r in j["rows"]}
    assert [r["mechanism"] for r in j["rows"]] == [
        "none", "kprobe", "kretprobe", "fprobe", "ftrace-kretprobe",
        "tracepoint-off", "tracepoint-perf", "bpftrace-fentry"]
    k = rows["kprobe"]
    assert k["per_kprobe"] == 1.0 and k["events_expected"] == 20001, k
    assert k["overhead_cycles"] == 173.035 and k["median_cycles"] == 173, k
    assert abs(rows["kretprobe"]["per_kprobe"] - 2.44) < 0.001
    assert rows["none"]["events_recorded"] is None
    assert rows["ftrace-kretprobe"]["events_recorded"] == 19989
    assert rows["tracepoint-perf"]["overhead_cycles"] is None


def check_json_vm(path, unavailable=""):
    """A real bench: every row ok with every call recorded, except the rows
    named, which may be unavailable with a reason; prints one line per
    row."""
    j = json.load(open(path))
    check_schema(j)
    allowed = set(unavailable.split(",")) - {""}
    bad = []
    for r in j["rows"]:
        print("%-24s %-11s %10s %10s %s" % (
            r["mechanism"], r["status"], r["events_expected"],
            r["events_recorded"], r["reason"]))
        if r["status"] == "unavailable" and r["mechanism"] in allowed:
            continue
        if r["status"] != "ok" or r["events_recorded"] != r["events_expected"] \
                or r["samples"] != j["iterations"]:
            bad.append(r["mechanism"])
        elif r["events_expected"] is not None and \
                r["events_expected"] != j["iterations"] + 1:
            bad.append(r["mechanism"])
    assert not bad, "not ok: " + ", ".join(bad)


def check_svg(path):
    root = ET.parse(path).getroot()
    assert root.tag == SVG + "svg", root.tag
    bars = [r for r in root.iter(SVG + "rect") if r.get("class") == "bar"]
    # one per measured row: none, kprobe, kretprobe, ftrace-kretprobe,
    # tracepoint-off
    assert len(bars) == 5, len(bars)
    titles = [b.find(SVG + "title").text for b in bars]
    assert titles[1].startswith("kprobe: 173.035 +/- 0.004 cycles"), titles
    errs = [g for g in root.iter(SVG + "g") if g.get("class") == "errorbar"]
    assert len(errs) == 5, len(errs)
    text = " ".join("".join(t.itertext()) for t in root.iter(SVG + "text"))
    for word in ("6.1.0-57-amd64", "20000 iterations", "kretprobe",
                 "bpftrace-fentry", "unavailable: lttng_calibrate has no BTF",
                 "95% confidence"):
        assert word in text, word
    w = [float(b.get("width")) for b in bars]
    assert w[2] > w[1] > w[0] >= 0, w
    check_svg_fits(path)


# Advance widths of DejaVu Sans, the widest usual sans-serif, in 1/1000
# of the font size (lc_svg_dejavu[] in tools/lib/svg.c holds the same);
# any other character counts as 1000.
DEJAVU = dict(zip(
    " !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
    [318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361,
     318, 337, 337, 337, 838, 838, 838, 531, 1000, 390, 337, 390, 838, 500,
     500, 636, 337, 636, 838]))
DEJAVU.update({d: 636 for d in "0123456789"})
DEJAVU.update(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                  [684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557,
                   863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685,
                   611, 685]))
DEJAVU.update(zip("abcdefghijklmnopqrstuvwxyz",
                  [613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278,
                   974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592,
                   592, 525]))
DEJAVU["\u00b1"] = 838
# A viewer draws the chart in a font of its own choosing, whose letters may
# be wider than DejaVu's (a reason ran 47 px past the edge of a chart that
# DejaVu's widths said fitted): every text counts a fifth wider.
WIDER = 1.2


def check_svg_fits(path):
    """Every text of the chart lies inside it, in DejaVu Sans a fifth wider
    (bold: a tenth wider again): no label, figure or reason is clipped at
    an edge, whatever sans-serif font the viewer draws it in."""
    root = ET.parse(path).getroot()
    width = float(root.get("width"))
    assert root.get("viewBox") == "0 0 %s %s" % (root.get("width"),
                                                 root.get("height"))
    outside = []
    for t in root.iter(SVG + "text"):
        s = "".join(t.itertext())
        size = float(t.get("font-size", root.get("font-size")))
        w = sum(DEJAVU.get(c, 1000) for c in s) * size / 1000 * WIDER
        if t.get("font-weight") == "bold":
            w *= 1.1
        x = float(t.get("x"))
        left = {"end": x - w, "middle": x - w / 2}.get(t.get("text-anchor"),
                                                       x)
        if left < 0 or left + w > width:
            outside.append("%r: %.1f to %.1f" % (s, left, left + w))
    assert not outside, "outside 0 to %g: %s" % (width, "; ".join(outside))


def main():
    checks = {"csv": check_csv, "json": check_json, "svg": check_svg,
              "svg-fits": check_svg_fits, "json-vm": check_json_vm}
    if len(sys.argv) not in (3, 4) or sys.argv[1] not in checks or \
            (len(sys.argv) == 4 and sys.argv[1] != "json-vm"):
        sys.exit(__doc__)
    try:
        checks[sys.argv[1]](*sys.argv[2:])
    except (AssertionError, ValueError, KeyError, ET.ParseError) as e:
        print("%s: %s: %r" % (sys.argv[1], sys.argv[2], e))
        sys.exit(1)


if __name__ == "__main__":
    main()
