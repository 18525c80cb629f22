"""One Keras 3 training step per configuration, its peak measured by TensorFlow's own allocator.

Reads the configurations interop/node/kerasPlan.ts writes (the lab's classifier, trainable set, batch and
precision, with planKeras' prediction) and writes one measurement per configuration, in one process:

    python interop/keras_memory.py configurations.json measured.json [--budget-s 420]

The classifier is rebuilt as the lab's Keras script builds it (src/core/export/scriptParts.ts): the
keras.applications backbone (include_top=False, random weights: bytes do not depend on values) called with
training=False, the lab's head, Adam and sparse categorical cross-entropy, a float32 output under
mixed_float16. Each family at one size and precision is built once; each trainable set is compiled once
and its step traced once (Keras' own `train_step` under tf.function with an unknown batch dimension, what
`train_on_batch`'s reduce_retracing settles on), so the grid's cost is its builds and traces, not its
batches. Per batch: one warm-up step (Adam's slots exist from the build), `reset_memory_stats`, one
measured step, and the peak from `get_memory_info('CPU:0')`, which TensorFlow reports on CPU only with
its BFC allocator (TF_CPU_ALLOCATOR_USE_BFC=true, set here before TensorFlow loads).

What the CPU peak holds beyond what a CUDA card would: oneDNN's scratch buffers and the layout copies its
kernels make. They are not separated here; the caller reports the error, not a corrected number.
The first compile of a build is measured before later ones; TensorFlow keeps a traced step's variables
(the old Adam slots) after a recompile, so each configuration's peak is counted less what the allocator
held, beyond the model's weights, right after its compile (before the new Adam makes its slots).
"""

import argparse
import gc
import json
import os
import sys
import time

os.environ["TF_CPU_ALLOCATOR_USE_BFC"] = "true"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
# Where the peak is read: CPU:0 here; GPU:0 (--device) on a CUDA machine runs the same grid.
DEVICE = "CPU:0"


def build(keras, c):
    """The lab's classifier in Keras (the generated script's build_model), and its backbone."""
    from keras import layers

    keras.mixed_precision.set_global_policy(c["precision"])
    shape = (c["height"], c["width"], 3)
    fn = getattr(keras.applications, c["application"])
    extra = {"include_preprocessing": True} if c["application"].startswith("EfficientNetV2") else {}
    base = fn(include_top=False, weights=None, input_shape=shape, **extra)
    inputs = keras.Input(shape=shape, name="input_layer")
    x = layers.Rescaling(1 / 127.5, offset=-1, name="preprocess")(inputs) if c["rescale"] else inputs
    x = base(x, training=False)
    x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
    x = layers.Dropout(0.2, name="head_dropout_1")(x)
    x = layers.Dense(128, activation="relu", name="head_dense")(x)
    x = layers.Dropout(0.2, name="head_dropout_2")(x)
    outputs = layers.Dense(c["classes"], activation="softmax", name="predictions", dtype="float32")(x)
    return keras.Model(inputs, outputs), base


def compiled_step(tf, keras, model, base, c):
    """Sets the configuration's trainable layers, compiles with a fresh Adam and traces one step."""
    if c["set"] == "frozen":
        base.trainable = False
    else:
        base.trainable = True
        if c["unfrozen"] is not None:
            keep = set(c["unfrozen"])
            for layer in base.layers:
                layer.trainable = layer.name in keep
    model.compile(optimizer=keras.optimizers.Adam(1e-4), loss="sparse_categorical_crossentropy")
    # Measured after the compile dropped the previous optimizer, before the new one makes its slots.
    before = leftover(tf, model)
    model.optimizer.build(model.trainable_variables)
    signature = [
        tf.TensorSpec((None, c["height"], c["width"], 3), tf.float32),
        tf.TensorSpec((None,), tf.int32),
    ]
    return tf.function(lambda x, y: model.train_step((x, y)), input_signature=signature), before


def leftover(tf, model):
    """Allocated bytes that are not this model's weights: earlier builds and compiles that TensorFlow has
    not released (traced functions keep their variables). They sit still in the allocator during the
    measured step, so the step's own peak is the allocator's peak less them."""
    gc.collect()
    weights = sum(v.numpy().nbytes for v in model.weights)
    return tf.config.experimental.get_memory_info(DEVICE)["current"] - weights


def measure(tf, step, c, before):
    """Peak bytes of one step after a warm-up, as TensorFlow's BFC allocator counts them, less `before`
    (what the allocator held for other builds and compiles before this configuration's compile)."""
    import numpy as np

    rng = np.random.default_rng(c["batch"])
    x = tf.constant(rng.uniform(0, 255, (c["batch"], c["height"], c["width"], 3)).astype("float32"))
    y = tf.constant((np.arange(c["batch"]) % c["classes"]).astype("int32"))
    step(x, y)
    tf.config.experimental.reset_memory_stats(DEVICE)
    base = tf.config.experimental.get_memory_info(DEVICE)["current"]
    t0 = time.monotonic()
    step(x, y)
    info = tf.config.experimental.get_memory_info(DEVICE)
    return {"peak_bytes": info["peak"] - before, "base_bytes": base - before, "leftover_bytes": before,
            "step_s": round(time.monotonic() - t0, 3)}


def describe(c):
    return f"{c['application']} {c['height']}x{c['width']} {c['precision']} {c['set']} batch {c['batch']}"


def groups(configurations):
    """Indices of the configurations by build, then by trainable set, in the order given."""
    out = {}
    for i, c in enumerate(configurations):
        key = (c["application"], c["height"], c["width"], c["precision"], c["rescale"])
        out.setdefault(key, {}).setdefault(c["set"], []).append(i)
    return out


def run(configurations, budget_s):
    import keras
    import tensorflow as tf

    started = time.monotonic()
    results = [None] * len(configurations)
    for sets in groups(configurations).values():
        first = configurations[next(iter(sets.values()))[0]]
        if time.monotonic() - started > budget_s:
            for indices in sets.values():
                for i in indices:
                    results[i] = {"status": f"skipped: over the {budget_s:.0f} s budget"}
            continue
        t0 = time.monotonic()
        model, base = build(keras, first)
        for indices in sets.values():
            step = None  # the previous set's traced step, and with it its Adam slots, can go
            step, before = compiled_step(tf, keras, model, base, configurations[indices[0]])
            for i in indices:
                results[i] = {"status": "measured", **measure(tf, step, configurations[i], before)}
                print(f"keras_memory: {describe(configurations[i])}: {results[i]['peak_bytes'] / 1e6:.1f} MB "
                      f"after {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
        for indices in sets.values():
            for i in indices:
                results[i]["build_s"] = round(time.monotonic() - t0, 1)
        del model, base
        keras.backend.clear_session()
        gc.collect()
    keras.mixed_precision.set_global_policy("float32")
    return {"tensorflow": tf.__version__, "keras": keras.__version__,
            "seconds": round(time.monotonic() - started, 1), "results": results}


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("configurations")
    p.add_argument("out")
    p.add_argument("--budget-s", type=float, default=480.0, help="builds started after this are skipped")
    p.add_argument("--device", default="CPU:0", help="the device whose allocator is read (GPU:0 on CUDA)")
    args = p.parse_args(argv)
    global DEVICE
    DEVICE = args.device
    with open(args.configurations, encoding="utf-8") as f:
        configurations = json.load(f)
    answer = run(configurations, args.budget_s)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(answer, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
