// Shared by the interop dumpers: they run in Node under tsx, read one JSON job file named on the command
// line and print one JSON answer, so pytest pays one tsx start per batch of configurations.
import { readFileSync, writeFileSync } from 'node:fs';
import * as tf from '@tensorflow/tfjs';

/** The job file named by the first argument, parsed. */
export function readJob<T>(): T {
  const path = process.argv[2];
  if (path === undefined) throw new Error('usage: npx tsx <dumper>.ts <job.json> [<answer.json>]');
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** Writes the answer to the second argument's file, or prints it when there is none. */
export function writeAnswer(answer: unknown): void {
  const text = JSON.stringify(answer);
  const path = process.argv[3];
  if (path === undefined) process.stdout.write(`${text}\n`);
  else writeFileSync(path, text);
}

/** The tfjs CPU backend, the one the lab's unit tests and these comparisons run on. */
export async function cpu(): Promise<void> {
  await tf.setBackend('cpu');
  await tf.ready();
}

/** A float32 binary file as Python's numpy `tofile` writes it (little-endian, no header). */
export function readFloat32(path: string): Float32Array {
  const buffer = readFileSync(path);
  return new Float32Array(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength));
}

/** Writes values as raw little-endian float32, for numpy's `fromfile`. */
export function writeFloat32(path: string, values: Float32Array): void {
  writeFileSync(path, Buffer.from(values.buffer, values.byteOffset, values.byteLength));
}
