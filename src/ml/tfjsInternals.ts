import * as tf from '@tensorflow/tfjs';
import type { WebGPUBackend, WebGPUProgram } from '@tensorflow/tfjs-backend-webgpu';

/**
 * Every place the lab reaches past tfjs' documented API: the gradient tape, the engine's variable
 * registry and backend reset, its kernel registry, private layer fields and backend objects. Each
 * function names the tfjs 4.22 behaviour it relies on, so an upgrade is checked here and nowhere else.
 */

/** One node of the engine's gradient tape, as far as the lab reads it. */
export interface TapeNode {
  /** The kernel that ran, e.g. 'Conv2D'. */ kernelName: string;
  /** Its inputs by name and its outputs, as tensor objects (possibly disposed since). */
  inputs: Record<string, tf.Tensor>;
  outputs: tf.Tensor[];
  /** Tensors the node's gradient function needs, kept alive until the backward pass ends. */
  saved?: tf.Tensor[];
  /** Given one dy per output (null: none), a lazy gradient per input name. */
  gradient?: (dys: (tf.Tensor | null)[]) => Record<string, () => tf.Tensor>;
}

/**
 * The engine state fields the lab reads and writes. tfjs 4.22 declares `activeTape` as a non-null
 * array, but sets it to null whenever no gradient computation runs; this view says so.
 */
interface TapeState {
  activeTape: TapeNode[] | null;
  gradientDepth: number;
}

// The engine fills a null dy with zeros before a node's gradient reads it, which its typings omit.
const tapeState = (): TapeState => tf.engine().state as unknown as TapeState;

/**
 * The tensors the active gradient tape saved for the backward pass, in tape order (empty outside a
 * gradient computation). tfjs 4.22: `engine().state.activeTape` lists a node per taped kernel, each
 * with the `saved` tensors its gradient needs; it is null when no tape is recording.
 */
export function tapeSavedTensors(): tf.Tensor[] {
  return (tapeState().activeTape ?? []).flatMap((node) => node.saved ?? []);
}

/**
 * When a kernel throws inside tf.variableGrads, tfjs leaves the gradient tape behind with every
 * tensor it saved for the backward pass still kept. Dispose them so a failed step leaks nothing.
 * tfjs 4.22: after a gradient computation ends normally, `gradientDepth` is back at 0 and
 * `activeTape` is null; a thrown kernel leaves depth 0 with the tape still set, which this clears the
 * way the engine would have.
 */
export function releaseAbandonedTape(): void {
  const state = tapeState();
  if (state.gradientDepth !== 0 || !state.activeTape) return;
  for (const node of state.activeTape) for (const t of node.saved ?? []) t.dispose();
  state.activeTape = null;
}

/** The engine members through which every kernel call and every tf.keep pass. */
interface KernelCalls {
  runKernelFunc(params: unknown): unknown;
  keep<T extends tf.Tensor>(result: T): T;
  orphanedSavesReleased?: true;
}

/** Disposes the tensors in `kept` that are alive and saved by no node of the active tape. */
function disposeOrphans(kept: readonly tf.Tensor[]): void {
  const inTape = new Set(tapeSavedTensors().map((t) => t.id));
  for (const t of kept) if (!t.isDisposed && !inTape.has(t.id)) t.dispose();
}

/**
 * Makes a failed kernel call release the tensors it saved for the backward pass. tfjs 4.22: while a
 * tape records, a kernel keeps (engine.keep) a clone of each tensor its gradient needs, one after
 * another (saveTensorsForBackwardMode for kernels, the `save` callback for customGrad ops such as the
 * fused conv2d), and only then adds the tape node that lists them. When a later clone fails (the memory
 * budget refuses its bytes), the clones already kept belong to no node and no scope, so neither the
 * scope nor releaseAbandonedTape frees them: one tensor leaked per such OOM. Every call goes through
 * the private `runKernelFunc`, nested calls included; here the outermost call records what is kept
 * during it, and when it throws, disposes what no tape node holds. Installed once, when this module
 * loads, on the one engine.
 */
function releaseOrphanedSaves(): void {
  const engine = tf.engine() as unknown as KernelCalls;
  if (engine.orphanedSavesReleased) return;
  const runKernelFunc = engine.runKernelFunc.bind(engine);
  const keep = engine.keep.bind(engine);
  let kept: tf.Tensor[] | null = null;
  engine.keep = (result) => {
    kept?.push(result);
    return keep(result);
  };
  engine.runKernelFunc = (params) => {
    const outer = kept === null;
    if (outer) kept = [];
    try {
      return runKernelFunc(params);
    } catch (err) {
      if (outer) disposeOrphans(kept!);
      throw err;
    } finally {
      if (outer) kept = null;
    }
  };
  engine.orphanedSavesReleased = true;
}
releaseOrphanedSaves();

/**
 * Gradients of `f` with respect to `xs`, with `dy` as the incoming gradient of f's result (ones when
 * undefined); an x that f does not depend on gets a null gradient instead of an error. tfjs 4.22's
 * `engine().gradients(f, xs, dy, allowNoGradients)` is what tf.grads wraps, and the only entry point
 * that takes a dy for a tensor-valued f (the public API takes one only through tf.customGrad).
 */
export function gradientsWithDy(
  f: () => tf.Tensor,
  xs: tf.Tensor[],
  dy: tf.Tensor | undefined,
): { value: tf.Tensor; grads: (tf.Tensor | null)[] } {
  return tf.engine().gradients(f, xs, dy, true);
}

/** The engine's tape controls, which engine.gradients uses around its forward pass. */
interface TapeControl {
  startTape(): void;
  endTape(): void;
}

/**
 * Runs `f` under a fresh gradient tape the way engine.gradients runs its forward pass, and hands the
 * tape to the caller, who then owns every node's saved tensors (the engine forgets them). tfjs 4.22:
 * startTape sets `activeTape` to [] at depth 0 and raises `gradientDepth`, endTape lowers it; the
 * forward runs in tidy('forward'), so only the result and the saved tensors (engine.keep) outlive it.
 * Nested gradients are refused: the outer tape would keep nodes this caller frees.
 */
export function recordTape(f: () => tf.Tensor): { y: tf.Tensor; tape: TapeNode[] } {
  const state = tapeState();
  if (state.gradientDepth !== 0)
    throw new Error('The lean backward pass cannot run inside another gradient.');
  const engine = tf.engine() as unknown as TapeControl;
  engine.startTape();
  let y: tf.Tensor;
  try {
    y = tf.tidy('forward', f);
  } catch (err) {
    engine.endTape();
    releaseAbandonedTape();
    throw err;
  }
  engine.endTape();
  const tape = state.activeTape ?? [];
  state.activeTape = null;
  return { y, tape };
}

/**
 * Every variable alive in the engine, by name: the model's weights and the optimizer's slots alike.
 * tfjs 4.22: `engine().registeredVariables` holds each tf.Variable from creation until disposal.
 */
export function registeredVariables(): Readonly<Record<string, tf.Variable>> {
  return tf.engine().registeredVariables;
}

/**
 * Disposes every backend instance, and with it the buffers each keeps pooled (tfjs never returns them
 * otherwise). tfjs 4.22: `engine().reset()` removes the backend instances but keeps their registered
 * factories, so the next tf.setBackend creates a fresh one.
 */
export function resetBackends(): void {
  tf.engine().reset();
}

/** What an interceptor sees of one kernel run. */
export interface KernelCall {
  /** tfjs kernel name, e.g. 'Conv2D'. */ kernelName: string;
  /** Its inputs. */ inputs: tf.TensorInfo[];
  /** Its outputs, not yet registered with the engine (tf.memory() does not count them yet). */
  outputs: tf.TensorInfo[];
}

/**
 * Re-registers every kernel of `backendName` so `after` sees each run before the engine takes its
 * outputs; `listening` is asked first, so a wrapper with nobody listening costs one call. When `after`
 * throws, the outputs are released and the error propagates as the kernel's own.
 * tfjs 4.22: `getKernelsForBackend` lists a backend's kernels and unregister + register replaces one
 * (tfjs has no allocation hook; this is its extension point); Engine.runKernel registers a kernel's
 * outputs as tensors only after kernelFunc returns; `KernelBackend.disposeData(dataId, true)` frees a
 * buffer and `disposeData(dataId, false)` gives back one reference (an output aliasing an input, as
 * Reshape's does, took only a reference).
 */
export function interceptKernels(
  backendName: string,
  listening: () => boolean,
  after: (call: KernelCall) => void,
): void {
  for (const config of tf.getKernelsForBackend(backendName)) {
    const inner = config.kernelFunc;
    tf.unregisterKernel(config.kernelName, backendName);
    tf.registerKernel({
      ...config,
      kernelFunc: (args) => {
        const out = inner(args);
        if (!listening()) return out;
        const outputs = Array.isArray(out) ? out : [out];
        const inputs = Object.values(args.inputs).filter((t): t is tf.TensorInfo => t != null);
        try {
          after({ kernelName: config.kernelName, inputs, outputs });
        } catch (err) {
          // The engine never sees these outputs, so nothing else would release them. The registry
          // types a kernel's backend as {}; it is the KernelBackend the kernel was registered for.
          const inputIds = new Set(inputs.map((t) => t.dataId));
          const backend = args.backend as tf.KernelBackend;
          for (const o of outputs) backend.disposeData(o.dataId, !inputIds.has(o.dataId));
          throw err;
        }
        return out;
      },
    });
  }
}

const isDropout = (layer: tf.layers.Layer): boolean => layer.getClassName() === 'Dropout';

/**
 * Runs fn with each of these Dropout layers' seed set to `seeds[i]`, then restores their own.
 * tfjs-layers 4.22: Dropout keeps its seed in a private `seed` field, read on every call() and passed
 * to the mask's random draw; getConfig() reports it as `seed`.
 */
export function withDropoutSeedsSet<T>(
  dropouts: readonly tf.layers.Layer[],
  seeds: readonly string[],
  fn: () => T,
): T {
  const own = dropouts.map((d) => d.getConfig()['seed']);
  dropouts.forEach((d, i) => Object.assign(d, { seed: seeds[i] }));
  try {
    return fn();
  } finally {
    dropouts.forEach((d, i) => Object.assign(d, { seed: own[i] }));
  }
}

/** The model's Dropout layers, in layer order. */
export function dropoutLayers(model: tf.LayersModel): tf.layers.Layer[] {
  return model.layers.filter(isDropout);
}

/**
 * Sets a Dropout layer's rate (tests: 0 turns the layer into the identity). tfjs-layers 4.22: Dropout
 * keeps its rate in a private `rate` field, read on every call(); 0 skips the mask.
 */
export function setDropoutRate(layer: tf.layers.Layer, rate: number): void {
  if (!isDropout(layer)) throw new Error(`${layer.name} is not a Dropout layer.`);
  Object.assign(layer, { rate });
}

/**
 * A layer's own weight lists, whatever its trainable flag: the weights it trains when trainable, and
 * those it never trains (BatchNorm's moving statistics). tfjs-layers 4.22: Layer keeps them in the
 * protected `_trainableWeights` and private `_nonTrainableWeights`; the public getters fold the flag
 * in (a frozen layer's trainableWeights is empty).
 */
export function layerWeightLists(layer: tf.layers.Layer): {
  trainable: tf.LayerVariable[];
  nonTrainable: tf.LayerVariable[];
} {
  return { trainable: layer['_trainableWeights'], nonTrainable: layer['_nonTrainableWeights'] };
}

/** tfjs-backend-webgpu 4.22's WebGPUBackend, told apart by the fields the lab reads. */
const isWebGPU = (backend: tf.KernelBackend): backend is WebGPUBackend =>
  'device' in backend && 'adapterInfo' in backend;

/** tfjs 4.22's MathBackendWebGL, told apart by its GPGPUContext. */
const isWebGL = (backend: tf.KernelBackend): backend is tf.MathBackendWebGL => 'gpgpu' in backend;

/**
 * The current backend when it is the one registered as `name` and has that backend's shape. The name
 * is checked first, as tf.backend() would otherwise start a backend when none runs yet.
 */
function current<B extends tf.KernelBackend>(
  name: 'webgpu' | 'webgl',
  is: (backend: tf.KernelBackend) => backend is B,
): B | null {
  if (tf.getBackend() !== name) return null;
  const backend = tf.backend();
  return is(backend) ? backend : null;
}

/**
 * The GPUDevice the WebGPU backend runs on, or null on other backends. tfjs-backend-webgpu 4.22:
 * WebGPUBackend keeps it in its `device` field (public in its typings, not in tfjs' documented API).
 */
export function webgpuDevice(): WebGPUBackend['device'] | null {
  return current('webgpu', isWebGPU)?.device ?? null;
}

/**
 * The vendor and architecture the WebGPU adapter reported, or null on other backends.
 * tfjs-backend-webgpu 4.22: WebGPUBackend.adapterInfo is an AdapterInfo holding both in private
 * fields (undefined when the adapter gave no info); it keeps no description.
 */
export function webgpuAdapter(): { vendor?: string; architecture?: string } | null {
  const info = current('webgpu', isWebGPU)?.adapterInfo;
  return info ? { vendor: info['vendor'], architecture: info['architecture'] } : null;
}

/**
 * The WebGL context the WebGL backend draws with, or null on other backends. tfjs 4.22:
 * MathBackendWebGL keeps its GPGPUContext in `gpgpu`, whose `gl` is the context.
 */
export function webglContext(): tf.MathBackendWebGL['gpgpu']['gl'] | null {
  return current('webgl', isWebGL)?.gpgpu.gl ?? null;
}

/** The WebGL backend's program description (tfjs re-exports the backend, not this type). */
export type GPGPUProgram = Parameters<tf.MathBackendWebGL['runWebGLProgram']>[0];

/** A kernel function's backend argument, which the kernel registry types as {}. */
type KernelBackendArg = NonNullable<unknown>;

/**
 * The KernelBackend a kernel function is handed. tfjs 4.22: the registry's KernelFunc types `backend`
 * as {}, but the engine passes the backend instance the kernel was registered for; `readSync` and
 * `write` (a new buffer from values, returning its dataId) are part of KernelBackend's interface.
 */
export function kernelBackend(backend: KernelBackendArg): tf.KernelBackend {
  return backend as tf.KernelBackend;
}

/**
 * Runs a WGSL compute program on the WebGPU backend a kernel was handed. tfjs-backend-webgpu 4.22:
 * `WebGPUBackend.runWebGPUProgram(program, inputs, outputDtype)` compiles the program once per
 * shader key and input shapes, binds each input as `array<f32|i32>` named as in `variableNames`, the
 * output as `result`, and the uniforms (`xShape` for an input 'X', `size` when program.size is set).
 */
export function runWebGPUProgram(
  backend: KernelBackendArg,
  program: WebGPUProgram,
  inputs: tf.TensorInfo[],
  outputDtype: tf.DataType,
): tf.TensorInfo {
  return (backend as WebGPUBackend).runWebGPUProgram(program, inputs, outputDtype);
}

/**
 * Runs a GLSL ES 3.0 fragment program on the WebGL backend a kernel was handed. tfjs 4.22:
 * `MathBackendWebGL.runWebGLProgram(program, inputs, outputDtype)` renders `userCode` (with `getX(i)`
 * for an input 'X' and `setOutput(float)`) into a float texture, one value per texel when neither
 * packedInputs nor packedOutput is set; an int32 tensor is stored in the same float textures.
 */
export function runWebGLProgram(
  backend: KernelBackendArg,
  program: GPGPUProgram,
  inputs: tf.TensorInfo[],
  outputDtype: tf.DataType,
): tf.TensorInfo {
  return (backend as tf.MathBackendWebGL).runWebGLProgram(program, inputs, outputDtype);
}
