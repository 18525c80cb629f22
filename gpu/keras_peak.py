"""Peak GPU memory of one Keras 3 training step, measured on CUDA through the PyTorch backend.

The model is the lab's (and the seed's, ../shared/design/OOM-CONTEXT.md): keras.applications
EfficientNetV2L(include_top=False, include_preprocessing=True, weights=None) at 300x500x3, called with
training=False as the lab's generated Keras script calls it (src/core/export/scriptParts.ts), then the
seed's head (GlobalAveragePooling2D, Dropout 0.2, Dense 128 relu, Dropout 0.2, Dense 6 softmax, float32
under mixed precision). Phase 2 of the seed: every layer trainable, Adam(1e-4), sparse categorical
cross-entropy. Weights are random (weights=None): memory does not depend on their values.

For each precision the model is built once; for each batch one warm-up train_on_batch (it creates
Adam's slots and lets cuDNN pick its algorithms), then the cache is emptied, the peak statistics reset,
and one measured train_on_batch: peak = torch.cuda.max_memory_allocated() over that step. A step that
runs out of memory is reported as "did not fit" with the error's text, and the run goes on.

One JSON line per configuration on stdout (and in --out). Without CUDA it exits with status 2, except
with --smoke: EfficientNetV2B0 at 64x64, batch 2, on whatever backend and device there are (the peak is
null where it cannot be read), to check the script's logic on a machine without a GPU.

    KERAS_BACKEND=torch python3 gpu/keras_peak.py --out measured.jsonl
    KERAS_BACKEND=jax python3 gpu/keras_peak.py --smoke
"""

import argparse
import gc
import json
import os
import sys
import time

os.environ.setdefault("KERAS_BACKEND", "torch")

FULL = {"model": "EfficientNetV2L", "height": 300, "width": 500, "classes": 6}
SMOKE = {"model": "EfficientNetV2B0", "height": 64, "width": 64, "classes": 6}


def batches(text):
    return [int(b) for b in text.split(",") if b.strip()]


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--smoke", action="store_true", help="EfficientNetV2B0 at 64x64, batch 2, any device")
    p.add_argument("--float32", type=batches, default=None, help="float32 batches (default 1,4,8,16,28)")
    p.add_argument("--mixed", type=batches, default=None, help="mixed_float16 batches (default 28,1,4,8,16)")
    p.add_argument("--budget-s", type=float, default=420.0, help="skip configurations started after this")
    p.add_argument("--limit-gib", type=float, default=None, help="cap the allocator (a smaller card)")
    p.add_argument("--out", default=None, help="also append the JSON lines to this file")
    args = p.parse_args(argv)
    if args.float32 is None:
        args.float32 = [2] if args.smoke else [1, 4, 8, 16, 28]
    if args.mixed is None:
        args.mixed = [2] if args.smoke else [28, 1, 4, 8, 16]
    return args


class Cuda:
    """The torch CUDA allocator's statistics, or None where they cannot be read."""

    def __init__(self, backend):
        self.torch = None
        if backend == "torch":
            import torch

            if torch.cuda.is_available():
                torch.backends.cudnn.benchmark = False
                self.torch = torch

    @property
    def available(self):
        return self.torch is not None

    def device(self):
        if not self.available:
            return None
        t = self.torch
        props = t.cuda.get_device_properties(0)
        return {"name": props.name, "total_bytes": props.total_memory, "torch": t.__version__, "cuda": t.version.cuda}

    def limit(self, gib):
        total = self.torch.cuda.get_device_properties(0).total_memory
        self.torch.cuda.set_per_process_memory_fraction(min(1.0, gib * 2**30 / total))

    def settle(self):
        gc.collect()
        if self.available:
            self.torch.cuda.synchronize()
            self.torch.cuda.empty_cache()

    def reset(self):
        self.settle()
        if self.available:
            self.torch.cuda.reset_peak_memory_stats()
            return self.torch.cuda.memory_allocated()
        return None

    def peak(self):
        if not self.available:
            return None
        self.torch.cuda.synchronize()
        return {
            "peak_bytes": self.torch.cuda.max_memory_allocated(),
            "reserved_peak_bytes": self.torch.cuda.max_memory_reserved(),
        }

    def is_oom(self, error):
        if self.available and isinstance(error, self.torch.cuda.OutOfMemoryError):
            return True
        return "out of memory" in str(error).lower() or "resource_exhausted" in str(error).lower()


def build(keras, spec, precision):
    """The lab's classifier: the backbone (include_top=False) and the seed's head, all trainable."""
    from keras import layers

    keras.mixed_precision.set_global_policy(precision)
    shape = (spec["height"], spec["width"], 3)
    base = getattr(keras.applications, spec["model"])(
        include_top=False, weights=None, input_shape=shape, include_preprocessing=True
    )
    inputs = keras.Input(shape=shape, name="input_layer")
    x = base(inputs, training=False)
    x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
    x = layers.Dropout(0.2, name="head_dropout_1")(x)
    x = layers.Dense(128, activation="relu", name="head_dense")(x)
    x = layers.Dropout(0.2, name="head_dropout_2")(x)
    outputs = layers.Dense(spec["classes"], activation="softmax", name="predictions", dtype="float32")(x)
    model = keras.Model(inputs, outputs, name=spec["model"].lower() + "_classifier")
    base.trainable = True
    model.compile(optimizer=keras.optimizers.Adam(1e-4), loss="sparse_categorical_crossentropy")
    return model


def data(np, spec, batch):
    rng = np.random.default_rng(batch)
    x = rng.uniform(0, 255, (batch, spec["height"], spec["width"], 3)).astype("float32")
    y = (np.arange(batch) % spec["classes"]).astype("int32")
    return x, y


def short(error):
    text = f"{type(error).__name__}: {error}".strip()
    return text if len(text) <= 600 else text[:600] + "…"


def main(argv):
    args = parse_args(argv)
    import keras
    import numpy as np

    backend = keras.backend.backend()
    cuda = Cuda(backend)
    if not args.smoke and not cuda.available:
        why = "the backend is not torch" if backend != "torch" else "torch sees no CUDA device"
        print(f"keras_peak: no CUDA to measure on ({why}; KERAS_BACKEND={backend}). "
              "Run it on a machine with an NVIDIA GPU and PyTorch, or pass --smoke.", file=sys.stderr)
        return 2
    if args.limit_gib is not None:
        cuda.limit(args.limit_gib)
    spec = SMOKE if args.smoke else FULL
    out = open(args.out, "a", encoding="utf-8") if args.out else None
    started = time.monotonic()
    failures = 0

    def emit(line):
        text = json.dumps(line)
        print(text, flush=True)
        if out:
            out.write(text + "\n")
            out.flush()

    emit({"kind": "device", "keras": keras.__version__, "backend": backend, "cuda": cuda.device(),
          "limit_gib": args.limit_gib, **spec})
    for precision, sizes in (("float32", args.float32), ("mixed_float16", args.mixed)):
        if not sizes:
            continue
        model = None
        common = {"kind": "measured", **spec, "precision": precision}
        try:
            t0 = time.monotonic()
            model = build(keras, spec, precision)
            build_s = round(time.monotonic() - t0, 2)
        except Exception as error:  # noqa: BLE001 - reported, then the next precision
            failures += not cuda.is_oom(error)
            for b in sizes:
                emit({**common, "batch": b, "fits": False, "status": "build failed", "error": short(error)})
            cuda.settle()
            continue
        for b in sizes:
            line = {**common, "batch": b, "build_s": build_s, "params": model.count_params()}
            if time.monotonic() - started > args.budget_s:
                emit({**line, "fits": None, "status": f"skipped: over the {args.budget_s:.0f} s budget"})
                continue
            try:
                x, y = data(np, spec, b)
                model.train_on_batch(x, y)
                line["base_bytes"] = cuda.reset()
                t0 = time.monotonic()
                loss = model.train_on_batch(x, y)
                line["step_s"] = round(time.monotonic() - t0, 3)
                line.update(cuda.peak() or {"peak_bytes": None})
                if line["peak_bytes"] is not None:
                    line["peak_mib"] = round(line["peak_bytes"] / 2**20, 1)
                emit({**line, "fits": True, "status": "ok", "loss": float(np.asarray(loss))})
            except Exception as error:  # noqa: BLE001 - an OOM is a result; anything else is counted
                oom = cuda.is_oom(error)
                failures += not oom
                emit({**line, "fits": False, "status": "did not fit" if oom else "error", "error": short(error)})
            finally:
                cuda.settle()
        del model
        keras.backend.clear_session()
        cuda.settle()
    emit({"kind": "done", "seconds": round(time.monotonic() - started, 1), "errors": failures})
    if out:
        out.close()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
