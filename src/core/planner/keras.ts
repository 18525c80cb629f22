import { product } from '../model/modelSpec';
import { cats, F32, parameterBytes, sum, type Plan, type PlanInput } from './parts';
import { gradientPath, stepFlops } from './recipes';
import { maxOf } from '../extent';

export type Precision = 'float32' | 'mixed_float16';

/**
 * What TensorFlow/Keras on a CUDA card would need for the same step: only ops on the gradient path are
 * recorded, each keeps what its gradient reads (a conv its input, BatchNorm its input, swish its input,
 * a multiply both inputs), and activation gradients are freed as soon as they are used, so the
 * transient is about the largest layer's output and gradient. Mixed precision stores activations in
 * float16 and keeps float32 master weights. cuDNN workspaces and allocator fragmentation are not modelled.
 */
export function planKeras(input: PlanInput, precision: Precision = 'float32'): Plan {
  const { spec, batch, trainable } = input;
  const params = parameterBytes(input);
  const act = precision === 'mixed_float16' ? 2 : F32;
  const inputBytes = batch * spec.height * spec.width * 3 * F32;
  const modes = gradientPath(spec, trainable);
  const perLayer = spec.layers.map((layer) => {
    const mode = modes.get(layer.name) ?? 'off';
    const I = layer.inputShapes.reduce((n, s) => n + product(s), 0) * batch * act;
    const O = product(layer.outputShape) * batch * act;
    if (mode === 'off') return { layer: layer.name, saved: 0, out: O };
    const keepsInput = ['conv2d', 'depthwiseConv2d', 'batchNormalization', 'activation', 'multiply', 'dense'];
    const conv = layer.kind === 'conv2d' && layer.activation && layer.activation !== 'linear' ? O : 0;
    const savedBytes = keepsInput.includes(layer.kind) ? I + conv : layer.kind === 'dropout' ? O : 0;
    return { layer: layer.name, saved: savedBytes, out: O };
  });
  const saved = sum(perLayer.map((l) => l.saved));
  const largest = Math.max(0, maxOf(perLayer.map((l) => l.out)));
  const categories = cats(params, inputBytes, {
    gradients: params.gradients,
    savedActivations: saved,
    transient: 2 * largest,
  });
  return {
    peakBytes: sum(Object.values(categories)),
    at: 'backward',
    categories,
    byLayer: perLayer
      .filter((l) => l.saved > 0)
      .map((l) => ({ layer: l.layer, bytes: l.saved }))
      .sort((a, b) => b.bytes - a.bytes),
    flops: stepFlops(spec, batch, modes),
    approximateKinds: [],
  };
}
