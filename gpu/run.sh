#!/usr/bin/env bash
# The device check of issue 16 item 6, in one command under 10 minutes. First Keras 3 on PyTorch/CUDA
# measures the peak of one EfficientNetV2-L fine-tune step at 300x500 (gpu/keras_peak.py) and the table
# compares it with the planner's Keras prediction (gpu/predicted.jsonl, written here by gpu/predict.ts).
# Then, where gpu/webgpu is carried, the bench's WebGPU rows run in Node on Dawn (gpu/webgpu.sh) in the
# time left. Nothing is fetched: the Keras wheels come from gpu/wheels (gpu/fetch-wheels.sh), the WebGPU
# pack from gpu/webgpu (gpu/webgpu-pack.sh); carry both. Results go to $OUT: env.txt, measured.jsonl,
# keras_peak.log, table.md, webgpu.log. keras_peak.py starts no configuration after 180 s and is stopped
# at 240 s; the WebGPU rows are stopped GPU_TOTAL_S (default 330) seconds after the start, so that a
# 15-minute device lease has time for a second try.
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
export PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}"
mkdir -p "$out"

{
  date -u
  nvidia-smi --query-gpu=name,memory.total,memory.used,driver_version --format=csv,noheader 2>&1 || echo "no nvidia-smi"
  "$py" --version
  "$py" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.is_available())' 2>&1 |
    tail -1
} | tee "$out/env.txt"

# Keras' other requirements are in the image; a carried one is installed only where its import fails.
declare -A extra=([absl]="absl_py" [rich]="rich markdown_it_py mdurl pygments" [h5py]="h5py" [ml_dtypes]="ml_dtypes"
  [typing_extensions]="typing_extensions")
install() {
  local pip=("$py" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$site")
  ls gpu/wheels/keras-3.15.1-*.whl >/dev/null 2>&1 || {
    echo "run.sh: no gpu/wheels/keras-3.15.1-*.whl: run gpu/fetch-wheels.sh first and carry gpu/wheels" >&2
    return 3
  }
  "${pip[@]}" --find-links gpu/wheels keras==3.15.1 namex optree || return 3
  for module in "${!extra[@]}"; do
    "$py" -c "import $module" 2>/dev/null && continue
    echo "run.sh: $module does not import here; installing it from gpu/wheels/extra" | tee -a "$out/env.txt"
    for name in ${extra[$module]}; do "${pip[@]}" gpu/wheels/extra/"$name"-*.whl || return 3; done
  done
  "$py" -c 'import keras; print("keras", keras.__version__, "backend", keras.backend.backend())' 2>&1 |
    tee -a "$out/env.txt"
  [[ "${PIPESTATUS[0]}" == 0 ]] || return 4
}

measure() {
  local flags=(--budget-s 180 --out "$out/measured.jsonl") predicted=gpu/predicted.jsonl status
  if [[ "$mode" == "--smoke" ]]; then
    flags+=(--smoke)
    predicted=gpu/predicted-smoke.jsonl
  fi
  rm -f "$out/measured.jsonl"
  timeout 240 "$py" gpu/keras_peak.py "${flags[@]}" 2>&1 | tee "$out/keras_peak.log"
  status="${PIPESTATUS[0]}"
  echo "keras_peak.py exited $status after $(($(date +%s) - started)) s"
  [[ -s "$out/measured.jsonl" ]] || return 5
  "$py" gpu/compare.py "$out/measured.jsonl" "$predicted" | tee "$out/table.md"
  return "$status"
}

install
status=$?
[[ "$mode" == "--install-only" ]] && exit "$status"
if [[ "$status" == 0 ]]; then
  measure
  status=$?
fi

# WEBGPU_ARGS replaces webgpu-node.ts' default groups (e.g. --only=float16-check).
if [[ "$mode" != "--smoke" && -f gpu/webgpu/pack.tar.xz ]]; then
  left=$((${GPU_TOTAL_S:-330} - ($(date +%s) - started)))
  echo "WebGPU rows on Dawn, stopped after $left s"
  # shellcheck disable=SC2086
  timeout "$left" gpu/webgpu.sh ${WEBGPU_ARGS:-} || echo "webgpu.sh exited $? after $(($(date +%s) - started)) s"
fi
exit "$status"
