"""tensorflowjs_converter's SavedModel path, as `tensorflowjs_converter --input_format=tf_saved_model`:
python interop/tfjs_convert.py SAVED_MODEL_DIR OUTPUT_DIR. Writes a tfjs graph model (model.json and
weight shards).

The tensorflowjs package imports three packages at module level that this path never calls, and that
are not installed here (requirements-nodeps.txt): tensorflow_decision_forests (imported only to register
its custom ops; every release pins one TensorFlow version exactly, 1.12.0 needs 2.19.0, so it cannot load
beside 2.21) and jax with jax.experimental.jax2tf (only for convert_jax; jaxlib alone is a 100 MB wheel).
They are registered as empty modules before tensorflowjs is imported. Keras must not be imported in this
process afterwards: it probes jax and would find the empty module. Runs as its own process for that reason.
"""

import os
import sys
import types

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import tensorflow  # noqa: E402,F401  (the real one, before the empty modules exist)

for name in ("tensorflow_decision_forests", "jax", "jax.experimental", "jax.experimental.jax2tf"):
    sys.modules[name] = types.ModuleType(name)
sys.modules["jax"].experimental = sys.modules["jax.experimental"]
sys.modules["jax.experimental"].jax2tf = sys.modules["jax.experimental.jax2tf"]

from tensorflowjs.converters import tf_saved_model_conversion_v2  # noqa: E402

if __name__ == "__main__":
    saved_model, output = sys.argv[1:3]
    tf_saved_model_conversion_v2.convert_tf_saved_model(saved_model, output)
