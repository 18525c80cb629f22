import { describe, expect, it } from 'vitest';
import { chooseModel } from './modelDefaults';
import { MODEL_CATALOG } from '../model/models';

describe('chooseModel', () => {
  it('sets Tiny to the 64×64 its label names, whatever size was set before', () => {
    expect(chooseModel({ weights: 'random' }, 'tiny')).toEqual({ model: 'tiny', height: 64, width: 64 });
  });

  it('gives every model in the catalog its own default size, square', () => {
    for (const m of MODEL_CATALOG) {
      const choice = chooseModel({ weights: 'random' }, m.id);
      expect([choice.height, choice.width]).toEqual([m.defaultSize, m.defaultSize]);
    }
    expect(chooseModel({ weights: 'random' }, 'b7').height).toBe(600);
    expect(chooseModel({ weights: 'random' }, 'mobilenetv2').height).toBe(224);
  });

  it('drops the packaged MobileNetV2 weights for another architecture and keeps them for MobileNetV2', () => {
    expect(chooseModel({ weights: 'nsfwjs' }, 'b0').weights).toBe('random');
    expect(chooseModel({ weights: 'nsfwjs' }, 'mobilenetv2')).not.toHaveProperty('weights');
    expect(chooseModel({ weights: 'lite0' }, 'mobilenetv2').weights).toBe('random');
    expect(chooseModel({ weights: 'lite0' }, 'lite0')).toEqual({ model: 'lite0', height: 224, width: 224 });
  });

  it('leaves random and user-loaded weights as chosen', () => {
    expect(chooseModel({ weights: 'file' }, 'v2-s')).not.toHaveProperty('weights');
    expect(chooseModel({ weights: 'random' }, 'tiny')).not.toHaveProperty('weights');
  });
});
