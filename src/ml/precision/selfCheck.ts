import * as tf from '@tensorflow/tfjs';
import { EDGE_VALUES } from './edgeValues';
import { float32Bits, packHalves, roundToHalf } from './half';
import { packFloat16, unpackFloat16 } from './kernels';

/** One value the active backend converted differently from the reference. */
export interface Float16Mismatch {
  /** The float32 input. */ input: number;
  /** What the reference gives (the rounded value, or the packed word). */ expected: number;
  /** What the backend gave. */ actual: number;
  /** 'round trip': unpack(pack(x)); 'word': the packed int32 word (not on webgl, see kernels.ts). */
  check: 'round trip' | 'word';
}

/** Whether two float32 values are the same bits, any NaN matching any NaN. */
const same = (a: number, b: number) =>
  Number.isNaN(a) ? Number.isNaN(b) : float32Bits(a) === float32Bits(b);

/**
 * Runs the edge values through the pack and unpack kernels on the ACTIVE backend and returns every
 * mismatch with the cpu reference (empty when the backend converts exactly). On webgl only the round
 * trip is checked: its int32 tensors are float textures, so reading the words back gives floats.
 * Leaves no tensor behind.
 */
export async function float16SelfCheck(): Promise<Float16Mismatch[]> {
  const values = Float32Array.from(EDGE_VALUES);
  const x = tf.tensor1d(values);
  const packed = packFloat16(x);
  const back = unpackFloat16<tf.Rank.R1>(packed, [values.length]);
  try {
    const mismatches: Float16Mismatch[] = [];
    const roundTrip = await back.data<'float32'>();
    values.forEach((v, i) => {
      const expected = roundToHalf(v);
      if (!same(expected, roundTrip[i]!)) {
        mismatches.push({ input: v, expected, actual: roundTrip[i]!, check: 'round trip' });
      }
    });
    if (tf.getBackend() !== 'webgl') {
      const words = await packed.data<'int32'>();
      packHalves(values).forEach((w, i) => {
        if (w !== words[i])
          mismatches.push({ input: values[2 * i]!, expected: w, actual: words[i]!, check: 'word' });
      });
    }
    return mismatches;
  } finally {
    tf.dispose([x, packed, back]);
  }
}
