#!/usr/bin/env bash
# Downloads the wheels gpu/run.sh installs offline on the GPU machine into gpu/wheels (git-ignored):
# Keras 3.15.1 and the two of its requirements the machine's image lacks (namex, pure Python; optree,
# compiled, for CPython 3.11-3.13 on x86-64 Linux: the image's python3 was 3.12.3 when last read), and
# under gpu/wheels/extra the requirements the image has (absl-py, rich and its own, h5py, ml-dtypes,
# optree's typing-extensions),
# which run.sh installs only if one of them fails to import there. About 12 MB in all.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir="$here/wheels"
mkdir -p "$dir/extra"
platforms=(--platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64
  --platform manylinux2014_x86_64)
get() { python3 -m pip download --quiet --no-deps --only-binary=:all: --implementation cp "${platforms[@]}" "$@"; }

get --python-version 3.12 -d "$dir" keras==3.15.1 namex==0.1.0
for v in 3.11 3.12 3.13; do get --python-version "$v" -d "$dir" optree==0.20.0; done
get --python-version 3.12 -d "$dir/extra" absl-py==2.5.1 rich==15.0.0 markdown-it-py==4.3.0 mdurl==0.1.2 \
  pygments==2.21.0 h5py==3.16.0 ml-dtypes==0.7.0 typing-extensions==4.16.0
ls -l "$dir" "$dir/extra"
du -sh "$dir"
