#!/usr/bin/env bash
# The bench's WebGPU rows on the GPU machine, in Node on Dawn's Vulkan backend (gpu/webgpu-node.ts).
# Everything comes from gpu/webgpu/pack.tar.xz (gpu/webgpu-pack.sh; carry gpu/webgpu), unpacked under
# /tmp: the bundle, Dawn, a node binary used only where the machine has none, and a Vulkan loader used
# only where ldconfig lists none. The Vulkan driver is the one of the machine's NVIDIA driver mount.
# Arguments go to webgpu-node.ts (default: the float16 check, the technique rows at 64×64 batch 4, the
# planner rows). Output: stdout and $OUT/webgpu.log.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
pack=gpu/webgpu/pack.tar.xz
out="${OUT:-/tmp/gpu-out}"
run=/tmp/gpu-webgpu
mkdir -p "$out" "$run"
[[ -f "$pack" ]] || { echo "webgpu.sh: no $pack: run gpu/webgpu-pack.sh and carry gpu/webgpu" >&2; exit 3; }
python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2], filter="tar")' "$pack" "$run" || exit 3

node=$(command -v node || true)
[[ -n "$node" ]] || node="$run/node"
if ! ldconfig -p | grep -q libvulkan.so.1; then
  for deb in "$run"/debs/*.deb; do dpkg -x "$deb" "$run/vulkan"; done
  export LD_LIBRARY_PATH="$run/vulkan/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[[ -z "${VK_DRIVER_FILES:-}" && -f "$icd" ]] && export VK_DRIVER_FILES="$icd"
echo "node $("$node" --version), Vulkan driver files: ${VK_DRIVER_FILES:-none set}"

args=("$@")
[[ ${#args[@]} -gt 0 ]] || args=(--only=float16-check,techniques,planner)
WEBGPU_NODE="$run/dawn" DAWN_FLAGS="${DAWN_FLAGS:-backend=vulkan}" "$node" "$run/webgpu-node.cjs" "${args[@]}" 2>&1 |
  tee "$out/webgpu.log"
exit "${PIPESTATUS[0]}"
