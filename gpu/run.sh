#!/usr/bin/env bash
# The device check of issue 16 item 6: Keras 3 on PyTorch/CUDA measures the peak of one EfficientNetV2-L
# fine-tune step at 300x500 (gpu/keras_peak.py) and the table compares it with the planner's Keras
# prediction (gpu/predicted.jsonl, written here by gpu/predict.ts). Nothing is fetched: the Keras wheels
# come from gpu/wheels (gpu/fetch-wheels.sh; carry it). Results go to $OUT: env.txt, measured.jsonl,
# keras_peak.log, table.md. About 3 minutes on an H200; keras_peak.py starts no configuration after
# 360 s and is stopped at 480 s.
#
#   gpu/run.sh                 the measurement (needs CUDA and PyTorch)
#   gpu/run.sh --smoke         EfficientNetV2B0 at 64x64, batch 2, on any backend (no peak without CUDA)
#   gpu/run.sh --install-only  install the wheels and check that Keras imports
# PYTHON picks the interpreter (default python3), KERAS_BACKEND the backend (default torch).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mode="${1:-full}"
py="${PYTHON:-python3}"
out="${OUT:-/tmp/gpu-out}"
site="${GPU_SITE:-/tmp/gpu-site}"
export KERAS_BACKEND="${KERAS_BACKEND:-torch}" PYTHONUNBUFFERED=1
started=$(date +%s)
mkdir -p "$out"

{
  date -u
  nvidia-smi --query-gpu=name,memory.total,memory.used,driver_version --format=csv,noheader 2>&1 || echo "no nvidia-smi"
  "$py" --version
  "$py" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.is_available())' 2>&1 |
    tail -1
} | tee "$out/env.txt"

ls gpu/wheels/keras-3.15.1-*.whl >/dev/null 2>&1 || {
  echo "run.sh: no gpu/wheels/keras-3.15.1-*.whl: run gpu/fetch-wheels.sh first and carry gpu/wheels" >&2
  exit 3
}
"$py" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$site" \
  --find-links gpu/wheels keras==3.15.1 namex optree || exit 3
export PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}"

# Keras' other requirements are in the image; install a carried one only where its import fails.
declare -A wheels=([absl]="absl_py" [rich]="rich markdown_it_py mdurl pygments" [h5py]="h5py" [ml_dtypes]="ml_dtypes"
  [typing_extensions]="typing_extensions")
for module in "${!wheels[@]}"; do
  "$py" -c "import $module" 2>/dev/null && continue
  echo "run.sh: $module does not import here; installing it from gpu/wheels/extra" | tee -a "$out/env.txt"
  for name in ${wheels[$module]}; do
    "$py" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$site" \
      gpu/wheels/extra/"$name"-*.whl || exit 3
  done
done
"$py" -c 'import keras; print("keras", keras.__version__, "backend", keras.backend.backend())' 2>&1 |
  tee -a "$out/env.txt"
[[ "${PIPESTATUS[0]}" == 0 ]] || exit 4
[[ "$mode" == "--install-only" ]] && exit 0

flags=(--budget-s 360 --out "$out/measured.jsonl")
predicted=gpu/predicted.jsonl
if [[ "$mode" == "--smoke" ]]; then
  flags+=(--smoke)
  predicted=gpu/predicted-smoke.jsonl
fi
rm -f "$out/measured.jsonl"
timeout 480 "$py" gpu/keras_peak.py "${flags[@]}" 2>&1 | tee "$out/keras_peak.log"
status="${PIPESTATUS[0]}"
echo "keras_peak.py exited $status after $(($(date +%s) - started)) s"
[[ -s "$out/measured.jsonl" ]] || exit 5
"$py" gpu/compare.py "$out/measured.jsonl" "$predicted" | tee "$out/table.md"
exit "$status"
