"""The planner's Keras column against TensorFlow's own allocator: every configuration of the lab's grid
(interop/node/kerasGrid.ts: ten families at small sizes, square and not, batches 1-32, frozen / last N /
all, float32 and mixed_float16) is planned by planKeras in Node and measured here by one Keras 3 training
step each (interop/keras_memory.py, in one Python process of its own: TensorFlow reads
TF_CPU_ALLOCATOR_USE_BFC when it loads, and this session's TensorFlow is already loaded).

Targets: median |error| <= 3%, max <= 8%, never under by more than 5%, on at least 40 configurations,
and the same on the configurations planKeras was not tuned on."""

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
BUDGET_S = 480

# The grid is twelve builds and twenty-four traced steps: on a shared two-core machine one build with its
# two traces took 90-380 s, past the suite's 10-minute budget, so it runs when asked (and in
# `npm run bench -- --only=keras`, which measures the same grid).
pytestmark = pytest.mark.skipif(
    os.environ.get("VRAM_LAB_KERAS_GRID") != "1",
    reason="the Keras memory grid takes longer than the suite's budget here; VRAM_LAB_KERAS_GRID=1 runs it",
)


@pytest.fixture(scope="module")
def grid(node, tmp_path_factory):
    work = tmp_path_factory.mktemp("keras_memory")
    configurations = node("kerasPlan", {}, work)
    path, out = work / "configurations.json", work / "measured.json"
    path.write_text(json.dumps(configurations))
    subprocess.run([sys.executable, str(HERE / "keras_memory.py"), str(path), str(out), f"--budget-s={BUDGET_S}"],
                   check=True, timeout=BUDGET_S + 300)
    results = json.loads(out.read_text())["results"]
    return [{**c, **r} for c, r in zip(configurations, results)]


def errors(rows):
    return [(r["predictedBytes"] - r["peak_bytes"]) / r["peak_bytes"] * 100 for r in rows if "peak_bytes" in r]


def describe(rows):
    return "\n".join(
        f"{r['family']} {r['height']}x{r['width']} {r['precision']} {r['set']} b{r['batch']}: "
        f"planned {r['predictedBytes'] / 1e6:.1f} MB, measured "
        + (f"{r['peak_bytes'] / 1e6:.1f} MB" if "peak_bytes" in r else r["status"])
        for r in rows
    )


def test_every_configuration_is_measured(grid):
    assert len(grid) >= 40
    assert all(r["status"] == "measured" for r in grid), describe(grid)


@pytest.mark.parametrize("which", ["all", "held out"])
def test_planKeras_within_the_targets(grid, which):
    rows = grid if which == "all" else [r for r in grid if not r["tuning"]]
    e = errors(rows)
    summary = (f"median |error| {statistics.median(map(abs, e)):.1f}%, max {max(map(abs, e)):.1f}%, "
               f"worst under {max(0, -min(e)):.1f}% over {len(e)}\n{describe(rows)}")
    assert statistics.median(map(abs, e)) <= 3, summary
    assert max(map(abs, e)) <= 8, summary
    assert min(e) >= -5, summary
