// The inputs of the Keras script and the small Python-literal helpers its sections share.
import type { ModelId } from '../model/models';
import type { TrainConfig } from '../settings/trainConfig';

/** Where the images come from: class folders (`root/<class>/*.jpg`) or a CSV manifest of path,label. */
export type KerasDataSource = { kind: 'folders' } | { kind: 'manifest'; file: string };

/** Remedies that have no TrainConfig field because they only exist on a real GPU. */
export interface KerasRemedies {
  /** keras.mixed_precision 'mixed_float16': float16 compute and activations, float32 weights and output. */
  mixedPrecision: boolean;
  /** Allocate GPU memory on demand instead of reserving the card (ignored when a memory_limit is set). */
  memoryGrowth: boolean;
}

/** The planner's Keras prediction of one replica's peak, per phase, in bytes (null: not planned). */
export interface KerasPrediction {
  frozen: number | null;
  fineTune: number | null;
  /** The card the prediction was made for, in words (e.g. 'a 16 GB card'); null when none was set. */
  card: string | null;
}

export interface KerasScriptInput {
  config: TrainConfig;
  /** Class names in the lab's label order (label i is classNames[i]). */
  classNames: string[];
  /** Backbone layers phase 2 unfreezes, in model order (core/settings/trainable fineTunedBackbone). */
  unfrozen: string[];
  data: KerasDataSource;
  remedies: KerasRemedies;
  prediction: KerasPrediction;
}

/** How a lab model maps onto keras.applications. */
export interface KerasApplication {
  /** The keras.applications function. */
  fn: string;
  /**
   * How pixels in [0, 255] reach the model: V2's `include_preprocessing=True` argument, V1's
   * always-built-in Rescaling + Normalization, or MobileNetV2's preprocess_input as a Rescaling layer.
   */
  preprocessing: 'argument' | 'built-in' | 'rescaling';
  /** Why this is not the lab's exact model, or null when it is. */
  standIn: string | null;
}

/** The keras.applications counterpart of each lab model (ml/models/registry's kerasName; a test pins both). */
export function kerasApplication(id: ModelId): KerasApplication {
  if (id === 'tiny')
    return {
      fn: 'EfficientNetB0',
      preprocessing: 'built-in',
      standIn:
        "EfficientNet-Tiny is the lab's own EfficientNet (width and depth × 0.25) for software GPUs; keras.applications has none, so this script uses EfficientNetB0, whose layer names include Tiny's.",
    };
  if (id === 'lite0')
    return {
      fn: 'EfficientNetB0',
      preprocessing: 'built-in',
      standIn:
        "keras.applications has no EfficientNet-Lite; this script uses EfficientNetB0, whose layer names include Lite0's, but which has swish, squeeze-and-excite and ImageNet mean/std preprocessing where Lite0 has ReLU6, none and (x - 127) / 128, so the lab's Lite0 weights do not load into it.",
    };
  if (id === 'mobilenetv2') return { fn: 'MobileNetV2', preprocessing: 'rescaling', standIn: null };
  if (id.startsWith('v2-'))
    return { fn: `EfficientNetV2${id.slice(3).toUpperCase()}`, preprocessing: 'argument', standIn: null };
  return { fn: `EfficientNet${id.toUpperCase()}`, preprocessing: 'built-in', standIn: null };
}

/** A Python string literal (JSON's escapes are valid Python, and JSON never emits a raw newline). */
export const py = (s: string): string => JSON.stringify(s);

/** A Python number literal (JS prints 1e-7 and 0.0001, both valid Python). */
export const pyNum = (n: number): string => String(n);

/** A Python list of strings, wrapped to lines of about 100 characters. */
export function pyList(items: readonly string[], indent = '    '): string {
  if (items.length === 0) return '[]';
  const lines: string[] = [];
  let line = '';
  for (const item of items.map(py)) {
    if (line && line.length + item.length + 2 > 96) {
      lines.push(line);
      line = '';
    }
    line += `${item}, `;
  }
  lines.push(line);
  return `[\n${lines.map((l) => indent + l.trimEnd()).join('\n')}\n]`;
}

/** Per-replica dataset batch and accumulation: k micro-batches of batch/k make one optimizer update. */
export function replicaBatch(config: TrainConfig): { micro: number; steps: number } {
  const steps = Math.max(1, config.techniques.accumulationSteps);
  return { micro: Math.max(1, Math.ceil(config.batchSize / steps)), steps };
}

/** TensorFlow's memory_limit is in MiB. */
export const mebibytes = (bytes: number): number => Math.max(1, Math.floor(bytes / 2 ** 20));
