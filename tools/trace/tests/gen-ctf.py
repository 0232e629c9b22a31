#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# gen-ctf.py DIR SCENARIO: write a small CTF 1.8 trace, shaped like the
# one lttng-modules writes for "lttng enable-event calibrate --kernel
# --function=..." with two perf contexts, so that the real babeltrace2
# and babeltrace 1 print it (capture-fixtures.sh). One stream per CPU,
# cpu_id in the packet context, perf counters in the stream event
# context, ip and parent_ip in the payload.
#
# Scenarios:
#   edges   2 CPUs, starting 2 ms before midnight: 3 good pairs on CPU 0
#           (one crossing midnight), a lost return, a return without
#           entry, a pair that migrates from CPU 0 to CPU 1, a
#           sched_switch, 2 discarded events on CPU 1, 2 pairs on CPU 1
#   return  lttng-modules < 2.13 naming: calibrate_entry and
#           calibrate_return, old perf context names (perf_LLC_...)
import os
import struct
import sys

MAGIC = 0xC1FC1FC1
NS = 1000000000
# 1 January 2024 00:00:00 UTC, minus 2 ms: the trace crosses midnight
ORIGIN_S = 1704067199
ORIGIN_NS = 998000000

METADATA = """/* CTF 1.8 */
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 64; align = 8; signed = false; base = 16; }
	:= uint64_hex_t;

trace {
	major = 1;
	minor = 8;
	byte_order = le;
	packet.header := struct {
		uint32_t magic;
		uint32_t stream_id;
	};
};

env {
	hostname = "calib-gen";
	domain = "kernel";
	tracer_name = "lttng-modules";
	tracer_major = 2;
	tracer_minor = 13;
};

clock {
	name = "monotonic";
	freq = 1000000000;
	offset_s = %d;
	offset = %d;
};

typealias integer {
	size = 64; align = 8; signed = false;
	map = clock.monotonic.value;
} := uint64_clock_monotonic_t;

stream {
	id = 0;
	packet.context := struct {
		uint64_clock_monotonic_t timestamp_begin;
		uint64_clock_monotonic_t timestamp_end;
		uint64_t content_size;
		uint64_t packet_size;
		uint64_t events_discarded;
		uint32_t cpu_id;
	};
	event.header := struct {
		uint32_t id;
		uint64_clock_monotonic_t timestamp;
	};
	event.context := struct {
%s	};
};
"""

EVENT = """
event {
	name = "%s";
	id = %d;
	stream_id = 0;
	fields := struct {
		uint64_hex_t ip;
		uint64_hex_t parent_ip;
	};
};
"""


def scenario_edges():
	"""(cpu, ns since origin, event, counters) in time order"""
	ev = []
	t = 0

	def add(cpu, name, clock, pf, dt=1000):
		nonlocal t
		t += dt
		ev.append((cpu, t, name, (clock, pf)))

	# three good pairs on CPU 0, the third across midnight
	add(0, "calibrate_entry", 1000, 10)
	add(0, "calibrate_exit", 1900, 10, 900)
	add(0, "calibrate_entry", 5000, 10)
	add(0, "calibrate_exit", 6100, 11, 1100)
	t = 1998000
	add(0, "calibrate_entry", 9000, 11)
	add(1, "sched_switch", 0, 0, 700)
	add(0, "calibrate_exit", 10000, 13, 500)
	# a lost return: the first entry is never closed
	add(0, "calibrate_entry", 20000, 20)
	add(0, "calibrate_entry", 21000, 20)
	add(0, "calibrate_exit", 21800, 20, 800)
	# a return without entry
	add(0, "calibrate_exit", 22000, 20)
	# a pair that migrates: entry on CPU 0, exit on CPU 1
	add(0, "calibrate_entry", 30000, 30)
	add(1, "calibrate_exit", 7000, 5, 2000)
	# two pairs on CPU 1, 2 events discarded before them
	add(1, "DISCARD", 2, 0)
	add(1, "calibrate_entry", 8000, 5)
	add(1, "calibrate_exit", 8700, 5, 700)
	add(1, "calibrate_entry", 9000, 5)
	add(1, "calibrate_exit", 9900, 6, 900)
	return ev, ("perf_cpu_cpu_clock", "perf_cpu_page_fault"), \
		("calibrate_entry", "calibrate_exit", "sched_switch")


def scenario_return():
	ev = []
	t = 0
	names = ("calibrate_entry", "calibrate_return")
	for i in range(4):
		t += 3000
		ev.append((0, t, names[0], (100 * i, 1000 * i)))
		t += 1000 + 10 * i
		ev.append((0, t, names[1], (100 * i + 5 + i, 1000 * i + 2 * i)))
	return ev, ("perf_LLC_load_misses", "perf_LLC_store_misses"), names


def packet(cpu, events, discarded, ids):
	body = b""
	for _, t, name, counters in events:
		body += struct.pack("<IQ", ids[name], t)
		body += struct.pack("<%dQ" % len(counters), *counters)
		body += struct.pack("<QQ", 0xFFFFFFFFC02F8000, 0xFFFFFFFFC02F845A)
	head_size = 8 + 5 * 8 + 4
	bits = (head_size + len(body)) * 8
	begin = events[0][1] if events else 0
	end = events[-1][1] if events else 0
	head = struct.pack("<II", MAGIC, 0)
	head += struct.pack("<QQQQQI", begin, end, bits, bits, discarded, cpu)
	return head + body


def write_stream(path, cpu, events, ids):
	"""one packet per run of events; DISCARD starts a new packet"""
	data = b""
	run = []
	discarded = 0
	for e in events:
		if e[2] == "DISCARD":
			if run:
				data += packet(cpu, run, discarded, ids)
			run = []
			discarded += e[3][0]
		else:
			run.append(e)
	data += packet(cpu, run, discarded, ids)
	with open(path, "wb") as f:
		f.write(data)


def main():
	out, name = sys.argv[1], sys.argv[2]
	events, context, names = globals()["scenario_" + name]()
	os.makedirs(out, exist_ok=True)
	ids = {n: i for i, n in enumerate(names)}
	fields = "".join("\t\tuint64_t %s;\n" % c for c in context)
	with open(os.path.join(out, "metadata"), "w") as f:
		f.write(METADATA % (ORIGIN_S, ORIGIN_NS, fields))
		for n in names:
			f.write(EVENT % (n, ids[n]))
	for cpu in sorted({e[0] for e in events}):
		write_stream(os.path.join(out, "chan_%d" % cpu), cpu,
			     [e for e in events if e[0] == cpu], ids)


main()
