import type * as tf from '@tensorflow/tfjs';
import type { Batch } from '../data/pipeline';
import type { RunContext } from './runLoop';

/**
 * The run context with every batch of images replaced by the head's input for it (a graph model's
 * features, see RunContext.headInput), for the training and validation steps. The graph has no
 * variables and runs before the step, so it is the frozen backbone outside the tape; tf.data frees each
 * batch's images once its features are made.
 */
export function onHeadInputs(ctx: RunContext, headInput: (xs: tf.Tensor4D) => tf.Tensor): RunContext {
  return {
    ...ctx,
    dataset: (split, epoch) =>
      ctx.dataset(split, epoch).map(
        // The head's model takes the features where a preset's model takes images.
        (b: Batch): Batch => ({ ...b, xs: headInput(b.xs) as Batch['xs'] }),
      ),
  };
}
