import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { tinyClassifier } from './fixtures';
import { applyPhase } from './freeze';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('applyPhase', () => {
  it('trains the head, plus the last N backbone layers or exactly the named ones when fine-tuning', () => {
    const { model, backboneLayerCount } = tinyClassifier();
    const names = model.layers.map((l) => l.name);
    const trainable = () => model.layers.filter((l) => l.trainable).map((l) => l.name);
    const head = names.slice(backboneLayerCount);

    applyPhase(model, backboneLayerCount, 'frozen', 10);
    expect(trainable()).toEqual(head);
    applyPhase(model, backboneLayerCount, 'fine-tune', 3);
    expect(trainable()).toEqual(names.slice(backboneLayerCount - 3));
    const summary = applyPhase(model, backboneLayerCount, 'fine-tune', ['stem_conv', 'top_conv']);
    expect(trainable()).toEqual(['stem_conv', 'top_conv', ...head]);
    expect(summary.trainableLayers).toBe(2 + 2);
    // The frozen phase ignores a choice meant for fine-tuning.
    applyPhase(model, backboneLayerCount, 'frozen', ['stem_conv']);
    expect(trainable()).toEqual(head);
    model.dispose();
  });
});
