import * as tf from '@tensorflow/tfjs';
import { kernelBackend, runWebGLProgram, runWebGPUProgram, type GPGPUProgram } from '../tfjsInternals';
import { packHalves, unpackHalves } from './half';
import { GLSL_HALF, WGSL_HALF } from './shaders';

/**
 * Two kernels that store float32 tensors as IEEE binary16 pairs and read them back: the memory half of
 * mixed precision, with the maths left in float32 (tfjs has no float16 dtype). 'PackFloat16' turns n
 * float32 values into ceil(n / 2) int32 words (element 2i in the low 16 bits of word i), 'UnpackFloat16'
 * turns them back into the first `size` float32 values. Registered for cpu, webgl (WebGL2) and webgpu.
 */
export const PACK_FLOAT16 = 'PackFloat16';
export const UNPACK_FLOAT16 = 'UnpackFloat16';

type KernelArgs = Parameters<tf.KernelFunc>[0];

const input = (args: KernelArgs, name: string): tf.TensorInfo => {
  const t = args.inputs[name];
  if (!t) throw new Error(`${name} is missing.`);
  return t;
};

/** The number of float32 values an UnpackFloat16 call returns. */
const sizeAttr = (args: KernelArgs): number => {
  const size = (args.attrs as { size?: unknown } | undefined)?.size;
  if (typeof size !== 'number') throw new Error('UnpackFloat16 needs its size.');
  return size;
};

const wordsFor = (size: number) => Math.ceil(size / 2);

function cpuPack(args: KernelArgs): tf.TensorInfo {
  const x = input(args, 'x');
  const backend = kernelBackend(args.backend);
  const words = packHalves(backend.readSync(x.dataId) as Float32Array);
  return { dataId: backend.write(words, [words.length], 'int32'), shape: [words.length], dtype: 'int32' };
}

function cpuUnpack(args: KernelArgs): tf.TensorInfo {
  const packed = input(args, 'packed');
  const size = sizeAttr(args);
  const backend = kernelBackend(args.backend);
  const values = unpackHalves(backend.readSync(packed.dataId) as Int32Array, size);
  return { dataId: backend.write(values, [size], 'float32'), shape: [size], dtype: 'float32' };
}

/** A flat WebGPU program over `size` outputs, 64 invocations a workgroup. */
function webgpuProgram(shaderKey: string, variable: string, size: number, main: string) {
  return {
    shaderKey,
    variableNames: [variable],
    outputShape: [size],
    dispatchLayout: { x: [0] },
    dispatch: [Math.ceil(size / 64), 1, 1] as [number, number, number],
    workgroupSize: [64, 1, 1] as [number, number, number],
    size: true,
    getUserCode: () =>
      `${WGSL_HALF}\nfn main(index : i32) {\n  if (index < uniforms.size) {\n${main}\n  }\n}`,
  };
}

function webgpuPack(args: KernelArgs): tf.TensorInfo {
  const x = input(args, 'x');
  const words = wordsFor(tf.util.sizeFromShape(x.shape));
  // uniforms.xShape is the input's length (packFloat16 hands the kernel a flat x).
  const main = `
    let i = index * 2;
    let low = halfBits(X[i]);
    var high = 0u;
    if (i + 1 < uniforms.xShape) { high = halfBits(X[i + 1]); }
    result[index] = bitcast<i32>(low | (high << 16u));`;
  return runWebGPUProgram(args.backend, webgpuProgram('packFloat16', 'X', words, main), [x], 'int32');
}

function webgpuUnpack(args: KernelArgs): tf.TensorInfo {
  const packed = input(args, 'packed');
  const main = `
    let word = bitcast<u32>(P[index / 2]);
    let bits = select(word >> 16u, word & 0xffffu, index % 2 == 0);
    result[index] = fromHalfBits(bits);`;
  const program = webgpuProgram('unpackFloat16', 'P', sizeAttr(args), main);
  return runWebGPUProgram(args.backend, program, [packed], 'float32');
}

/**
 * WebGL has no integer textures in tfjs: an int32 tensor lives in a float32 texture. The word's 32 bits
 * are stored as the float with those bits (uintBitsToFloat) and read back with floatBitsToUint, so the
 * texture holds the exact pairs as long as the driver keeps float bit patterns through a render (a
 * driver that flushes float32 subnormals or rewrites NaN payloads would break pairs whose high half is
 * tiny or Inf/NaN; selfCheck.ts tests exactly those on the live backend). tf.memory() counts 4 bytes a
 * word either way. Reading such a tensor's values on webgl (dataSync) gives the floats, not the bits.
 */
function webglProgram(variable: string, size: number, main: string): GPGPUProgram {
  if (tf.env().getNumber('WEBGL_VERSION') !== 2) {
    throw new Error('float16 storage on webgl needs WebGL2 (integer bit operations in shaders).');
  }
  return {
    variableNames: [variable],
    outputShape: [size],
    userCode: `${GLSL_HALF}\nvoid main() {\n  int index = getOutputCoords();\n${main}\n}`,
  };
}

function webglPack(args: KernelArgs): tf.TensorInfo {
  const x = input(args, 'x');
  const size = tf.util.sizeFromShape(x.shape);
  const main = `
  int i = index * 2;
  uint low = halfBits(getX(i));
  uint high = i + 1 < ${size} ? halfBits(getX(i + 1)) : 0u;
  setOutput(uintBitsToFloat(low | (high << 16u)));`;
  return runWebGLProgram(args.backend, webglProgram('X', wordsFor(size), main), [x], 'int32');
}

function webglUnpack(args: KernelArgs): tf.TensorInfo {
  const packed = input(args, 'packed');
  const main = `
  uint word = floatBitsToUint(getP(index / 2));
  uint bits = (index % 2 == 0) ? (word & 0xffffu) : (word >> 16u);
  setOutput(fromHalfBits(bits));`;
  return runWebGLProgram(args.backend, webglProgram('P', sizeAttr(args), main), [packed], 'float32');
}

const KERNELS: tf.KernelConfig[] = [
  { kernelName: PACK_FLOAT16, backendName: 'cpu', kernelFunc: cpuPack },
  { kernelName: UNPACK_FLOAT16, backendName: 'cpu', kernelFunc: cpuUnpack },
  { kernelName: PACK_FLOAT16, backendName: 'webgpu', kernelFunc: webgpuPack },
  { kernelName: UNPACK_FLOAT16, backendName: 'webgpu', kernelFunc: webgpuUnpack },
  { kernelName: PACK_FLOAT16, backendName: 'webgl', kernelFunc: webglPack },
  { kernelName: UNPACK_FLOAT16, backendName: 'webgl', kernelFunc: webglUnpack },
];

/**
 * Registers the kernels once (a second registration would make tfjs warn). Called when this module
 * loads, so they exist before the memory hooks (memory/kernelHook.ts) wrap a backend's kernels and the
 * budget sees pack and unpack like any other kernel.
 */
function registerOnce(): void {
  for (const k of KERNELS) if (!tf.getKernel(k.kernelName, k.backendName)) tf.registerKernel(k);
}
registerOnce();

/** `x` as float16 pairs: an int32 tensor of ceil(size / 2) words. The caller owns it. */
export function packFloat16(x: tf.Tensor): tf.Tensor1D {
  if (x.dtype !== 'float32') throw new Error(`packFloat16 takes float32, not ${x.dtype}.`);
  // Flattened by tfjs' own Reshape, which lays a packed WebGL texture out flat where needed.
  return tf.tidy(() => tf.engine().runKernel(PACK_FLOAT16, { x: tf.reshape(x, [-1]) }) as tf.Tensor1D);
}

/** Packed float16 pairs back as a float32 tensor of `shape`. The caller owns it. */
export function unpackFloat16<R extends tf.Rank>(packed: tf.Tensor1D, shape: tf.ShapeMap[R]): tf.Tensor<R> {
  const size = tf.util.sizeFromShape(shape);
  if (packed.dtype !== 'int32' || packed.size !== wordsFor(size)) {
    throw new Error(`unpackFloat16: ${packed.size} words cannot hold ${size} values.`);
  }
  return tf.tidy(() => {
    const flat = tf.engine().runKernel(UNPACK_FLOAT16, { packed }, { size }) as tf.Tensor1D;
    return tf.reshape(flat, shape);
  });
}
