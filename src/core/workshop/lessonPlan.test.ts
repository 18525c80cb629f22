import { describe, expect, it } from 'vitest';
import { DEFAULT_TRAIN_CONFIG } from '../settings/settings';
import { readLink } from '../settings/url';
import { LESSON_PLAN } from './lessonPlan';

describe('the lesson plan', () => {
  it('every step’s link applies whole', () => {
    const base = {
      config: DEFAULT_TRAIN_CONFIG,
      backend: 'auto' as const,
      sample: false,
      view: null,
      mode: 'explore' as const,
    };
    for (const step of LESSON_PLAN)
      if (step.query) expect(readLink(step.query, base).ignored, step.title).toEqual([]);
  });

  it('takes about an hour', () => {
    const minutes = LESSON_PLAN.reduce((sum, s) => sum + s.minutes, 0);
    expect(minutes).toBeGreaterThanOrEqual(55);
    expect(minutes).toBeLessThanOrEqual(80);
  });
});
