/**
 * One readable Keras script for the lab's plan: the same data, model, phases and remedies, to run where
 * the memory is (one GPU, several on one host, or several hosts). Pure string building from the
 * settings; `python3 -m py_compile` checks every variant in the tests, and the Keras interop suite runs it.
 */
import type { ModelSpec } from '../model/modelSpec';
import { catalogEntry } from '../model/models';
import { planInput, planKeras } from '../planner/planner';
import { fineTunedBackbone, trainableLabel } from '../settings/trainable';
import type { TrainConfig, TrainingPhase } from '../settings/trainConfig';
import {
  kerasApplication,
  mebibytes,
  py,
  pyNum,
  replicaBatch,
  type KerasRemedies,
  type KerasScriptInput,
} from './scriptBasics';
import { dataSection, memoryCallbackSection, modelSection, trainingSection } from './scriptParts';
import { formatBytes } from '../format';

export type { KerasDataSource, KerasPrediction, KerasRemedies, KerasScriptInput } from './scriptBasics';
export { kerasApplication } from './scriptBasics';

const epochWords = (n: number): string => `${n} epoch${n === 1 ? '' : 's'}`;

function header(input: KerasScriptInput): string {
  const { config } = input;
  const app = kerasApplication(config.model);
  const name = catalogEntry(config.model).displayName;
  const { micro, steps } = replicaBatch(config);
  const predicted = (bytes: number | null) => (bytes === null ? 'not planned' : formatBytes(bytes));
  const lines = [
    `"""Fine-tune ${name} (keras.applications.${app.fn}) at ${config.height}x${config.width}, as planned in VRAM Lab.`,
    '',
    `Classes: ${input.classNames.length}. Per-replica batch: ${config.batchSize}${steps > 1 ? ` (${steps} micro-batches of ${micro}, accumulated)` : ''}.`,
    `Phase 1: backbone frozen, ${epochWords(config.frozenEpochs)} at ${pyNum(config.frozenLearningRate)}.`,
    `Phase 2: ${trainableLabel(config.fineTune)} (${input.unfrozen.length} backbone layers) unfrozen, ${epochWords(config.fineTuneEpochs)} at ${pyNum(config.fineTuneLearningRate)}.`,
    `Remedies: ${remedyWords(input).join(', ') || 'none'}.`,
    '',
    `The lab's per-replica memory prediction (Keras on a CUDA card${input.prediction.card ? `, for ${input.prediction.card}` : ''}):`,
    `  phase 1 ${predicted(input.prediction.frozen)}, phase 2 ${predicted(input.prediction.fineTune)}.`,
    'The MemoryLog callback below prints the measured peak of GPU:0 next to it after every epoch.',
    'The prediction leaves out cuDNN workspaces and allocator fragmentation, so expect a measured peak above it.',
    '',
    'Run:  python train.py --data DIR [--strategy none|mirrored|multiworker] [--weights imagenet|none]',
    '      [--epochs N] [--steps-per-epoch N] [--batch N] [--save FILE|none] [--cpu-devices N]',
    ...(app.standIn ? ['', `Note: ${app.standIn}`] : []),
    '"""',
  ];
  return lines.join('\n');
}

/** The remedies in words, as the header and the tests name them. */
export function remedyWords(input: KerasScriptInput): string[] {
  const { config, remedies } = input;
  const words: string[] = [];
  if (remedies.mixedPrecision) words.push('mixed_float16');
  if (config.techniques.accumulationSteps > 1)
    words.push(`gradient_accumulation_steps=${config.techniques.accumulationSteps}`);
  if (config.budgetBytes !== null) words.push(`memory_limit=${mebibytes(config.budgetBytes)} MiB`);
  else if (remedies.memoryGrowth) words.push('memory growth');
  return words;
}

function flagsSection(input: KerasScriptInput): string {
  const { config } = input;
  const dataHelp =
    input.data.kind === 'manifest' ? 'the CSV manifest (path,label)' : 'the folder of class folders';
  return `import argparse
import json
import math
import os
import tempfile

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--data", default=${py(input.data.kind === 'manifest' ? input.data.file : 'data')}, help=${py(dataHelp)})
parser.add_argument("--strategy", choices=["none", "mirrored", "multiworker"], default="none",
                    help="none: one device; mirrored: every GPU of this host; multiworker: several hosts (TF_CONFIG)")
parser.add_argument("--weights", choices=["imagenet", "none"], default=${py(config.weights === 'random' ? 'none' : 'imagenet')},
                    help="starting weights of the backbone (none: random, e.g. for a quick check)")
parser.add_argument("--epochs", type=int, default=None,
                    help="epochs of each phase (default: the lab's ${config.frozenEpochs} frozen and ${config.fineTuneEpochs} fine-tune)")
parser.add_argument("--steps-per-epoch", type=int, default=None, help="stop each epoch after this many batches")
parser.add_argument("--batch", type=int, default=${config.batchSize}, help="images per replica and optimizer update")
parser.add_argument("--memory-log", default=None, help="also append each epoch's measured and predicted peak here, as JSON lines")
parser.add_argument("--save", default=${py(`${kerasApplication(config.model).fn.toLowerCase()}_classifier.keras`)},
                    help="where the trained model goes, in Keras' .keras format (none: not saved)")
parser.add_argument("--cpu-devices", type=int, default=1,
                    help="on a machine without GPUs, split the CPU into this many devices (try --strategy mirrored anywhere)")
args = parser.parse_args()`;
}

function deviceSection(input: KerasScriptInput): string {
  const { config, remedies } = input;
  const memory =
    config.budgetBytes !== null
      ? `# The lab's simulated card: a hard per-GPU budget, TensorFlow's memory_limit (in MiB), like the lab's.
# (Memory growth cannot be combined with a logical device configuration, so it is not set.)
for gpu in GPUS:
    tf.config.set_logical_device_configuration(
        gpu, [tf.config.LogicalDeviceConfiguration(memory_limit=${mebibytes(config.budgetBytes)})])`
      : remedies.memoryGrowth
        ? `# Memory growth: allocate on demand instead of reserving the whole card up front, so other
# processes can use what this one does not (and nvidia-smi shows what is really in use).
for gpu in GPUS:
    tf.config.experimental.set_memory_growth(gpu, True)`
        : '# TensorFlow reserves most of each GPU at start-up (no memory growth, no memory_limit chosen).';
  const precision = remedies.mixedPrecision
    ? `
# Mixed precision: float16 compute and activations (about half the activation memory), float32
# master weights. compile() wraps the optimizer in a LossScaleOptimizer under this policy.
keras.mixed_precision.set_global_policy("mixed_float16")
`
    : '';
  return `# TensorFlow reads these at import, so set them first.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")

import tensorflow as tf
import keras
from keras import layers

# GPU settings must be made before anything touches the GPUs (the strategy below does).
GPUS = tf.config.list_physical_devices("GPU")
${memory}
# Several logical CPUs let MirroredStrategy run real replicas without a GPU: slower than one device,
# but the same code path as a multi-GPU host (one model copy per device, gradients summed).
CPU_REPLICAS = args.cpu_devices if args.cpu_devices > 1 and not GPUS else 1
if CPU_REPLICAS > 1:
    tf.config.set_logical_device_configuration(
        tf.config.list_physical_devices("CPU")[0], [tf.config.LogicalDeviceConfiguration()] * CPU_REPLICAS)
${precision}
keras.utils.set_random_seed(${config.seed})`;
}

function strategySection(input: KerasScriptInput): string {
  const { steps } = replicaBatch(input.config);
  const accumulation =
    steps > 1
      ? `# Gradient accumulation: the dataset yields micro-batches of MICRO_BATCH, and the optimizer applies one
# update per ACCUMULATION of them, so an update sees args.batch images with the activations of one micro-batch.
ACCUMULATION = ${steps}
MICRO_BATCH = -(-args.batch // ACCUMULATION)`
      : `ACCUMULATION = 1
MICRO_BATCH = args.batch`;
  return `${accumulation}


def make_strategy(name):
    """One device, every GPU of this host, or every GPU of several hosts."""
    if name == "mirrored":
        # Every GPU by default; with --cpu-devices N and no GPU, the N logical CPUs made above.
        cpus = [d.name for d in tf.config.list_logical_devices("CPU")] if CPU_REPLICAS > 1 else None
        return tf.distribute.MirroredStrategy(cpus)
    if name == "multiworker":
        # Every host runs this same script with its own TF_CONFIG, for example on host 0 of two:
        # TF_CONFIG='{"cluster": {"worker": ["host0:12345", "host1:12345"]}, "task": {"type": "worker", "index": 0}}'
        if "TF_CONFIG" not in os.environ:
            raise SystemExit("--strategy multiworker needs TF_CONFIG set on every host")
        print("TF_CONFIG task:", json.loads(os.environ["TF_CONFIG"]).get("task"))
        return tf.distribute.MultiWorkerMirroredStrategy()
    return tf.distribute.get_strategy()


strategy = make_strategy(args.strategy)
REPLICAS = strategy.num_replicas_in_sync
# The lab plans one replica; each replica holds a whole model and its share of the batch, so the
# dataset is batched with the global batch and the per-replica memory stays what the lab predicted.
if ACCUMULATION > 1 and args.strategy != "none":
    # Keras 3 cannot accumulate gradients under tf.distribute (its conditional update needs a
    # cross-replica sum inside a cond: "merge_call called while defining a new graph"). Keep the
    # micro-batch, so each replica's memory stays as predicted, and let the replicas make up the batch.
    print(f"gradient accumulation is off under --strategy {args.strategy}: each update sees {MICRO_BATCH} x replicas images")
    ACCUMULATION = 1
GLOBAL_BATCH = MICRO_BATCH * REPLICAS
print(f"{REPLICAS} replica(s); global batch {GLOBAL_BATCH} = {MICRO_BATCH} per replica x {REPLICAS}")`;
}

/** What the lab knows when the user asks for the script. */
export interface KerasScriptSource {
  config: TrainConfig;
  /** The described model at the configured size (it resolves the trainable set and the prediction). */
  spec: ModelSpec;
  classNames: string[];
  /** The CSV manifest the labels came from, or null for class folders. */
  manifest: string | null;
  remedies: KerasRemedies;
}

/**
 * The script's input from the lab's state. The prediction is the planner's Keras plan for one replica's
 * micro-batch (accumulation keeps one micro-batch's activations), in the precision the remedies choose.
 */
export function kerasScriptInputFor(o: KerasScriptSource): KerasScriptInput {
  const { config, spec } = o;
  const { micro } = replicaBatch(config);
  const precision = o.remedies.mixedPrecision ? 'mixed_float16' : 'float32';
  const peak = (phase: TrainingPhase, epochs: number) =>
    epochs > 0
      ? planKeras({ ...planInput(spec, config, phase), batch: micro, accumulationSteps: 1 }, precision)
          .peakBytes
      : null;
  return {
    config,
    classNames: o.classNames,
    unfrozen: fineTunedBackbone(spec, config.fineTune),
    data: o.manifest ? { kind: 'manifest', file: o.manifest } : { kind: 'folders' },
    remedies: o.remedies,
    prediction: {
      frozen: peak('frozen', config.frozenEpochs),
      fineTune: peak('fine-tune', config.fineTuneEpochs),
      card: config.budgetBytes === null ? null : `a ${formatBytes(config.budgetBytes)} card`,
    },
  };
}

/** The whole script: docstring, flags, device settings, strategy, data, model, callback, both phases. */
export function kerasScript(input: KerasScriptInput): string {
  return [
    header(input),
    flagsSection(input),
    deviceSection(input),
    strategySection(input),
    dataSection(input),
    modelSection(input),
    memoryCallbackSection(input),
    trainingSection(input),
  ]
    .join('\n\n\n')
    .concat('\n');
}
