import { describe, expect, it } from 'vitest';
import { featureCache } from './techniques';
import {
  adoptMachineDefaults,
  DEFAULT_TRAIN_CONFIG,
  defaultsFor,
  isSoftwareDefaults,
  SOFTWARE_TRAIN_CONFIG,
  validateTrainConfig,
} from './settings';
import { readLink, writeLink, type LinkSettings } from './url';

const link = (config = DEFAULT_TRAIN_CONFIG): LinkSettings => ({
  config,
  backend: 'auto',
  sample: false,
  view: null,
  mode: 'explore',
});

describe('defaults for the machine', () => {
  it('without a GPU: valid settings at 64×64 on which the feature cache runs', () => {
    expect(validateTrainConfig(SOFTWARE_TRAIN_CONFIG)).toEqual([]);
    expect(defaultsFor('software')).toBe(SOFTWARE_TRAIN_CONFIG);
    expect(defaultsFor('cpu')).toBe(SOFTWARE_TRAIN_CONFIG);
    expect(defaultsFor('gpu')).toBe(DEFAULT_TRAIN_CONFIG);
    expect(SOFTWARE_TRAIN_CONFIG.height).toBe(64);
    expect(featureCache(SOFTWARE_TRAIN_CONFIG).on).toBe(true);
    expect(featureCache(DEFAULT_TRAIN_CONFIG).on).toBe(false);
  });

  it('replaces untouched defaults of either set, in any key order, and nothing a user chose', () => {
    const reordered = Object.fromEntries(
      Object.entries(DEFAULT_TRAIN_CONFIG).reverse(),
    ) as typeof DEFAULT_TRAIN_CONFIG;
    expect(adoptMachineDefaults(reordered, 'software')).toBe(SOFTWARE_TRAIN_CONFIG);
    expect(adoptMachineDefaults(SOFTWARE_TRAIN_CONFIG, 'gpu')).toBe(DEFAULT_TRAIN_CONFIG);
    const chosen = { ...DEFAULT_TRAIN_CONFIG, batchSize: 16 };
    expect(adoptMachineDefaults(chosen, 'software')).toBe(chosen);
    expect(isSoftwareDefaults(adoptMachineDefaults(DEFAULT_TRAIN_CONFIG, 'software'))).toBe(true);
    expect(isSoftwareDefaults(DEFAULT_TRAIN_CONFIG)).toBe(false);
  });

  it('a link carries every value, so it gives the same settings over either set of defaults', () => {
    const query = writeLink(link(DEFAULT_TRAIN_CONFIG));
    const onGpu = readLink(query, link(DEFAULT_TRAIN_CONFIG)).settings.config;
    const onSoftware = readLink(query, link(SOFTWARE_TRAIN_CONFIG)).settings.config;
    expect(onSoftware).toEqual(onGpu);
    expect(onSoftware).toEqual(DEFAULT_TRAIN_CONFIG);
  });
});
