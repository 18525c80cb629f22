#!/usr/bin/env bash
# Packs what gpu/webgpu.sh needs on the GPU machine (no browser, no registry) into one archive,
# gpu/webgpu/pack.tar.xz (git-ignored; carry gpu/webgpu): gpu/webgpu-node.ts bundled with esbuild into
# one file, Dawn's WebGPU for Node (the `webgpu` npm package 0.6.2, installed in a scratch folder outside
# the project: its index.js and linux-x64 dawn.node), this machine's node binary (for a machine without
# node) and Debian's Vulkan loader (libvulkan1, for a machine whose ldconfig lists none). One archive, so
# that no JavaScript lies in the tree for `eslint .` or `prettier --check .` to read. About 30 MB.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
scratch="${SCRATCH:-/tmp/gpu-webgpu-pack}"
stage="$scratch/pack"
rm -rf "$stage" "$here/webgpu"
mkdir -p "$stage/dawn/dist/linux-x64" "$stage/debs" "$here/webgpu"

(cd "$scratch" && { [[ -f package.json ]] || npm init -y >/dev/null; } && npm install --silent webgpu@0.6.2)
dawn="$scratch/node_modules/webgpu"
cp "$dawn/index.js" "$dawn/package.json" "$stage/dawn/"
cp "$dawn/dist/linux-x64/dawn.node" "$stage/dawn/dist/linux-x64/"
(cd "$here/.." && npx esbuild gpu/webgpu-node.ts --bundle --platform=node --format=cjs --log-level=error \
  --external:webgpu --outfile="$stage/webgpu-node.cjs")
cp "$(readlink -f "$(command -v node)")" "$stage/node"
node --version >"$stage/node.version"
(cd "$stage/debs" && apt-get download libvulkan1 2>/dev/null)
XZ_OPT=-T1 tar -cJf "$here/webgpu/pack.tar.xz" -C "$stage" .
tar -tvJf "$here/webgpu/pack.tar.xz"
du -sh "$here/webgpu"
