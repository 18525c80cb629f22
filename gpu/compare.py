"""Joins gpu/keras_peak.py's measured lines with gpu/predict.ts' predicted ones, as a markdown table.

    python3 gpu/compare.py measured.jsonl predicted.jsonl

Error is (predicted - measured) / measured, in percent of the measurement, as the lab's
predictionError (src/core/planner/planner.ts) signs it: positive where the planner over-predicts. The weights'
count is checked too: the planner's weights (bytes / 4) against Keras' count_params().
"""

import json
import sys

MIB = 2**20


def lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip().startswith("{")]


def mib(n):
    return "n/a" if n is None else f"{n / MIB:,.1f}"


def table(measured, predicted):
    plans = {(p["batch"], p["precision"]): p for p in predicted if p.get("kind") == "predicted"}
    rows = [m for m in measured if m.get("kind") == "measured"]
    device = next((m for m in measured if m.get("kind") == "device"), {})
    out = []
    cuda = device.get("cuda")
    where = f"{cuda['name']}, torch {cuda['torch']}, CUDA {cuda['cuda']}" if cuda else "no CUDA (no peak read)"
    out.append(
        f"{device.get('model', '?')} {device.get('height', '?')}×{device.get('width', '?')}, "
        f"Keras {device.get('keras', '?')} on {device.get('backend', '?')}, {where}"
    )
    params = next((m["params"] for m in rows if m.get("params")), None)
    planned = next(iter(plans.values()), None)
    if params and planned:
        out.append(f"weights: Keras count_params {params:,}, planner {planned['categories']['weights'] // 4:,}")
    out.append("")
    out.append("| batch | precision | measured MiB | predicted MiB | error % | status |")
    out.append("| ---: | --- | ---: | ---: | ---: | --- |")
    for m in rows:
        p = plans.get((m["batch"], m["precision"]))
        measured_bytes = m.get("peak_bytes")
        predicted_bytes = p["peak_bytes"] if p else None
        error = (
            f"{(predicted_bytes - measured_bytes) / measured_bytes * 100:+.1f}"
            if measured_bytes and predicted_bytes is not None
            else "n/a"
        )
        status = m.get("status", "?")
        if m.get("error"):
            status += ": " + m["error"].splitlines()[0][:160].replace("|", "/")
        out.append(
            f"| {m['batch']} | {m['precision']} | {mib(measured_bytes)} | {mib(predicted_bytes)} | {error} | {status} |"
        )
    return "\n".join(out)


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    print(table(lines(argv[0]), lines(argv[1])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
