// The trainer's internal shapes of one step: what each micro-batch hands back and what a batch leaves.
import type * as tf from '@tensorflow/tfjs';
import type { StepTechnique } from '../../core/memory/memory';
import type { SavedActivations } from './measure';

/** One micro-batch's contribution: its scaled loss, weighted accuracy, gradients and measurements. */
export interface MicroStep {
  loss: tf.Scalar;
  accuracy: tf.Scalar;
  grads: tf.NamedTensorMap;
  saved: SavedActivations;
  checkpoint: StepTechnique['checkpoint'];
}

/** A micro-batch's forward and backward, before its loss and accuracy are added. */
export type MicroPass = Pick<MicroStep, 'grads' | 'saved' | 'checkpoint'>;

/** The loss and weighted accuracy a micro-batch's loss function computed, once it has run. */
export type MicroLosses = Partial<Pick<MicroStep, 'loss' | 'accuracy'>>;

/** What the micro-batches of one batch left behind, besides the gradient sum. */
export interface Accumulated {
  sizes: number[];
  parts: { loss: tf.Scalar; accuracy: tf.Scalar }[];
  saved: SavedActivations;
  checkpoint: StepTechnique['checkpoint'];
}
