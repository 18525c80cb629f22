import * as tf from '@tensorflow/tfjs';
import type { ResumePoint, SavedTensor, TrainerSnapshot } from '../../core/run/resume';
import type { Trainer } from './trainer';

/** A host copy of a tensor's values (the tensor stays the caller's). */
async function saved(t: tf.Tensor): Promise<SavedTensor> {
  const dtype = t.dtype === 'int32' ? 'int32' : 'float32';
  const values = (await t.data()) as Float32Array | Int32Array;
  // data() may hand back the backend's own buffer on the CPU backend: copy, so later steps cannot change it.
  return { shape: [...t.shape], dtype, values: values.slice() };
}

/**
 * Every variable of the model layer by layer: trainable, frozen and BatchNorm statistics alike. Not in
 * model.weights order, which lists the trainable ones first and so changes with the phase.
 */
function variablesInOrder(model: tf.LayersModel) {
  return model.layers.flatMap((layer) => layer.weights);
}

/** Host copies of every variable of the model, in an order that does not depend on the phase. */
export async function saveModelWeights(model: tf.LayersModel): Promise<SavedTensor[]> {
  return Promise.all(variablesInOrder(model).map((w) => saved(w.read())));
}

/**
 * Writes saved weights into a model built from the same settings. Checks count and shapes first, so a
 * mismatch changes nothing and says which weight differs.
 */
export function restoreModelWeights(model: tf.LayersModel, weights: readonly SavedTensor[]): void {
  const own = variablesInOrder(model);
  if (own.length !== weights.length)
    throw new Error(
      `The saved run has ${weights.length} weights; this model has ${own.length}: it was built with other settings.`,
    );
  own.forEach((w, i) => {
    const s = weights[i]!;
    if (s.shape.join('×') !== w.shape.join('×'))
      throw new Error(
        `The saved weight ${i} (${w.name}) is ${s.shape.join('×')}; the model's is ${w.shape.join('×')}.`,
      );
  });
  // write() assigns the variable the new tensor's buffer; tidy then frees only the wrappers.
  tf.tidy(() =>
    own.forEach((w, i) => w.write(tf.tensor(weights[i]!.values, weights[i]!.shape, weights[i]!.dtype))),
  );
}

/** Adam's state as getWeights() gives it (iteration count, then the slots by position), copied to the host. */
export async function saveOptimizer(optimizer: tf.Optimizer): Promise<SavedTensor[]> {
  const named = await optimizer.getWeights();
  try {
    return await Promise.all(named.map((n) => saved(n.tensor)));
  } finally {
    // The iteration count is a scalar made for this call; the slots are the optimizer's own variables.
    named[0]?.tensor.dispose();
  }
}

/**
 * Gives a fresh optimizer (no step taken yet) the saved state. setWeights makes each slot a variable
 * over the given tensor's buffer, so the tensors made here are released once it has run.
 */
export async function restoreOptimizer(
  optimizer: tf.Optimizer,
  state: readonly SavedTensor[],
): Promise<void> {
  if (optimizer.iterations > 0)
    throw new Error('Optimizer state can only be restored before the first step.');
  if (state.length === 0) return;
  const tensors = state.map((s) => tf.tensor(s.values, s.shape, s.dtype));
  try {
    await optimizer.setWeights(
      tensors.map((tensor, i) => ({ name: i === 0 ? 'iter' : `slot_${i}`, tensor })),
    );
  } finally {
    tf.dispose(tensors);
  }
}

/**
 * The trainer's whole state at a checkpoint: every model weight, the dropout draws, and Adam's state
 * when the run continues inside the same phase (a phase that starts afresh gets a new optimizer).
 */
export async function snapshotTrainer(trainer: Trainer, point: ResumePoint): Promise<TrainerSnapshot> {
  const state = await trainer.snapshotState();
  return {
    weights: await saveModelWeights(trainer.model),
    optimizer: point.epoch === 0 ? [] : state.optimizer,
    draws: state.draws,
  };
}
