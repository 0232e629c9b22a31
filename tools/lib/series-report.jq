# SPDX-License-Identifier: GPL-2.0
#
# The report of tools/lttng-calibrate-series, a jq module
# (jq -L tools/lib 'include "series-report"; ...'):
#
#   report($unit)   the report, made of what "lttng-calibrate-compare
#                   --series --format json" says of a series (its input)
#                   and $unit, the unit of the values ("" when unknown):
#                   every step with its mean, the interval of the mean and
#                   its runs; every change point with the first patch of
#                   the new level, its confidence and the line to paste
#                   into a mail.  A first label "base" is step 0 (the tree
#                   without the series); otherwise the first label is
#                   patch 1.
#   report($unit; $numbers; $total; $missing)
#                   the same, for a series of which some steps were not
#                   measured: $numbers, the step of each label in order,
#                   $total, the series' number of patches, and $missing,
#                   the steps left out, [{step, patch, status}] (status:
#                   "does not build", "not measured")
#   table           the report as text: the steps, then the change points
#                   and their mail lines, or the confidence at which there
#                   is none
#   csv             the steps as CSV, a header first
#   svg             the steps' means and intervals, and the change points,
#                   as an SVG image

# d1: a number with one decimal.
def d1: (. * 10 | round) as $r | ($r | fabs) as $a |
	(if $r < 0 then "-" else "" end) + "\($a / 10 | floor).\($a % 10)";

# p_below: "p < P", P the power of ten just above the p-value.
def p_below:
	if . <= 0 then "p < 1e-300"
	else (log10 | ceil) as $e |
		if $e >= -3 then "p < \(pow(10; $e))" else "p < 1e\($e)" end
	end;

def report($unit; $numbers; $total; $missing):
	(if (.series | length) > 0 and .series[0].label == "base" then 1 else 0 end) as $base |
	(if $total == null then .series | length - $base else $total end) as $patches |
	# step_of(i): the step of label i (from 1): its place, or the step
	# number given for it when some steps were not measured.
	def step_of(i): if ($numbers | length) > 0 then $numbers[i - 1] else i - $base end;
	(if $unit == "" then "" else " " + $unit end) as $u |
	[.change_points[] | .label_index] as $starts |
	{
		format: "lttng-calibrate-series/1",
		source: .source,
		confidence: .confidence,
		min_change_percent: .min_change_percent,
		unit: (if $unit == "" then null else $unit end),
		steps: [.series[] | {
			step: step_of(.label_index),
			patch: .label,
			runs: .n,
			mean: .mean,
			low: (if .halfwidth == null then null else .mean - .halfwidth end),
			high: (if .halfwidth == null then null else .mean + .halfwidth end),
			new_level: (.label_index as $i | $starts | index([$i]) != null)
		}],
		change_points: [.change_points[] | {
			step: step_of(.label_index),
			index: (.label_index - 1),
			patch: .label,
			before: .before.mean,
			after: .after.mean,
			percent: .step.percent,
			percent_halfwidth: .step.percent_halfwidth,
			p: .p_corrected,
			confidence_of_change: ((1 - .p_corrected) * 100 | tostring | .[0:11]),
			mail: "patch \(step_of(.label_index)) of \($patches), \(.label): \(.before.mean | d1) -> \(.after.mean | d1)\($u) (\(if .step.percent > 0 then "+" else "" end)\(.step.percent | d1) %, \(.p_corrected | p_below))"
		}],
		missing: $missing
	} |
	# The step and percent of each change point on the step where it starts.
	.change_points as $cp |
	.steps |= map(.step as $s | ($cp | map(select(.step == $s)) | first) as $c |
		. + {percent: $c.percent, p: $c.p});
def report($unit): report($unit; []; null; []);

def table:
	def pad($n): . + " " * ([$n - length, 0] | max);
	def lpad($n): " " * ([$n - length, 0] | max) + .;
	def num: if . == null then "-" else d1 end;
	"\(.source): \(.steps | length) steps, \(.confidence) % confidence",
	"",
	"step  \("patch" | pad(44))  \("mean" | lpad(9))  \("\(.confidence) % interval" | pad(20))  runs",
	# The steps left out are rows too, marked so, in step order.
	((.steps + (.missing // [])) | sort_by(.step)[] |
	if .status != null then
	"\(.step | tostring | lpad(4))  \(.patch | pad(44))  \("-" | lpad(9))  \(.status)"
	else
	"\(.step | tostring | lpad(4))  \(.patch | pad(44))  \(.mean | num | lpad(9))  \(if .low == null then "-" else "\(.low | d1) .. \(.high | d1)" end | pad(20))  \(.runs)\(if .new_level then "  <- new level" else "" end)"
	end),
	"",
	(if (.missing // []) | length > 0 then
		"left out of the analysis: \(.missing | map("step \(.step)") | join(", "))", ""
	else empty end),
	if (.change_points | length) == 0 then
		"no change point at \(.confidence) % confidence\(if (.min_change_percent // 0) > 0 then " of a change of \(.min_change_percent) % or more" else "" end)"
	else
		(.change_points[] |
		"change point: \(.patch) (step \(.step)), confidence of the change \(.confidence_of_change) %",
		.mail)
	end;

def csv:
	(["step", "patch", "runs", "mean", "low", "high", "new_level",
	  "percent", "p"] | @csv),
	(.steps[] | [.step, .patch, .runs, .mean, .low, .high, .new_level,
		     .percent, .p] | @csv);

def svg:
	def f: . * 100 | round / 100 | tostring;
	def esc: gsub("&"; "&amp;") | gsub("<"; "&lt;") | gsub(">"; "&gt;");
	(.steps | map(select(.mean != null))) as $s |
	($s | map(.low // .mean) | min) as $lo0 |
	($s | map(.high // .mean) | max) as $hi0 |
	(($hi0 - $lo0) | if . == 0 then 1 else . end) as $span |
	($lo0 - $span * 0.1) as $lo | ($hi0 + $span * 0.1) as $hi |
	(.steps | length) as $n |
	def x(i): 60 + (i + 0.5) * (640 / $n);
	def y(v): 40 + (($hi - v) / ($hi - $lo)) * 300;
	"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"720\" height=\"400\" font-family=\"sans-serif\" font-size=\"11\">",
	"<title>\(.source | esc)</title>",
	"<rect width=\"720\" height=\"400\" fill=\"white\"/>",
	"<text x=\"360\" y=\"20\" text-anchor=\"middle\" font-size=\"13\">\(.source | esc)</text>",
	"<line x1=\"60\" y1=\"340\" x2=\"700\" y2=\"340\" stroke=\"black\"/>",
	"<line x1=\"60\" y1=\"40\" x2=\"60\" y2=\"340\" stroke=\"black\"/>",
	"<text x=\"55\" y=\"\(y($hi0) | f)\" text-anchor=\"end\">\($hi0 | d1)</text>",
	"<text x=\"55\" y=\"\(y($lo0) | f)\" text-anchor=\"end\">\($lo0 | d1)</text>",
	"<text x=\"15\" y=\"190\" transform=\"rotate(-90 15 190)\" text-anchor=\"middle\">\(.unit // "" | esc)</text>",
	(.change_points[] |
		"<line x1=\"\(x(.index - 0.5) | f)\" y1=\"40\" x2=\"\(x(.index - 0.5) | f)\" y2=\"340\" stroke=\"red\" stroke-dasharray=\"4 3\"><title>\(.mail | esc)</title></line>"),
	(.steps | to_entries[] | .key as $i | .value |
		"<text x=\"\(x($i) | f)\" y=\"355\" text-anchor=\"middle\">\(.step)</text>",
		if .mean == null then empty else
		(if .low == null then empty else
		"<line x1=\"\(x($i) | f)\" y1=\"\(y(.low) | f)\" x2=\"\(x($i) | f)\" y2=\"\(y(.high) | f)\" stroke=\"gray\"/>" end),
		"<circle cx=\"\(x($i) | f)\" cy=\"\(y(.mean) | f)\" r=\"3\" fill=\"\(if .new_level then "red" else "black" end)\"><title>\(.patch | esc): \(.mean | d1)</title></circle>"
		end),
	"</svg>";
