import type * as tf from '@tensorflow/tfjs';
import { firstTrainableLayer } from '../../core/model/modelSpec';
import type { TrainingPhase } from '../../core/settings/trainConfig';

/** Trainable state of a classifier after a phase was set up. */
export interface TrainableSummary {
  /** Parameters that receive gradients. */ trainableParams: number;
  /** All parameters, including BatchNorm moving statistics. */ totalParams: number;
  /** Layers with trainable weights. */ trainableLayers: number;
}

/**
 * Keras semantics for the two phases. Frozen: every backbone layer (index < backboneLayerCount) is
 * not trainable and the head is. Fine-tune: additionally the last `unfreeze` backbone layers (counting
 * every layer, as `base_model.layers[-N:]` does in Keras), or exactly the backbone layers named.
 */
export function applyPhase(
  model: tf.LayersModel,
  backboneLayerCount: number,
  phase: TrainingPhase,
  unfreeze: Unfreeze,
): TrainableSummary {
  const named = typeof unfreeze === 'number' ? null : new Set(unfreeze);
  const firstUnfrozen = named
    ? backboneLayerCount
    : firstTrainableLayer(backboneLayerCount, phase, unfreeze as number);
  model.layers.forEach((layer, i) => {
    layer.trainable =
      i >= firstUnfrozen || (phase === 'fine-tune' && named !== null && named.has(layer.name));
  });
  return summarise(model);
}

/** Which backbone layers fine-tuning unfreezes: the last N, or these names. */
export type Unfreeze = number | readonly string[];

export function summarise(model: tf.LayersModel): TrainableSummary {
  const count = (ws: readonly { shape: readonly (number | null)[] }[]) =>
    ws.reduce((n, w) => n + w.shape.reduce<number>((a, b) => a * (b ?? 1), 1), 0);
  return {
    trainableParams: count(model.trainableWeights),
    totalParams: count(model.weights),
    trainableLayers: model.layers.filter((l) => l.trainable && l.trainableWeights.length > 0).length,
  };
}
