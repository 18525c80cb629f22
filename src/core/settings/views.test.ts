import { describe, expect, it } from 'vitest';
import { readLink } from './url';
import { DEFAULT_TRAIN_CONFIG } from './settings';
import {
  documentTitle,
  hashOf,
  initialView,
  LINK_TARGETS,
  LINK_TARGET_IDS,
  linkView,
  neighbourView,
  VIEWS,
  viewFromHash,
} from './views';

describe('views', () => {
  it('reads the view a hash names, and nothing else', () => {
    expect(viewFromHash('#/train')).toBe('train');
    expect(viewFromHash('#results')).toBe('results');
    expect(viewFromHash('')).toBeNull();
    expect(viewFromHash('#/')).toBeNull();
    expect(viewFromHash('#/planner')).toBeNull();
    expect(viewFromHash('#/constructor')).toBeNull();
    expect(viewFromHash('#oom-title')).toBeNull();
    for (const v of VIEWS) expect(viewFromHash(hashOf(v.id))).toBe(v.id);
  });

  it('opens on the hash, then the link, then the data view', () => {
    expect(initialView('#/results', 'sweep')).toBe('results');
    expect(initialView('', 'sweep')).toBe('experiments');
    expect(initialView('#/nowhere', 'planner')).toBe('memory');
    expect(initialView('', null)).toBe('data');
  });

  it('keeps every panel name older links used, each in a view', () => {
    const older = ['data', 'settings', 'layers', 'run', 'oom', 'planner', 'memory', 'sweep', 'metrics'];
    const more = ['preview', 'lessons', 'log', 'history', 'experiments', 'class-results'];
    for (const target of [...older, ...more]) expect(LINK_TARGET_IDS).toContain(target);
    for (const v of VIEWS) expect(LINK_TARGETS[v.id].view).toBe(v.id);
  });

  it('a link names a view or a panel; the README links open where they say', () => {
    const base = {
      config: DEFAULT_TRAIN_CONFIG,
      backend: 'auto' as const,
      sample: false,
      view: null,
      mode: 'explore' as const,
    };
    const cases: [string, string][] = [
      ['?view=sweep', 'experiments'],
      ['?view=planner', 'memory'],
      ['?view=experiments', 'experiments'],
      ['?view=class-results', 'workshop'],
      ['?view=train', 'train'],
    ];
    for (const [query, view] of cases) {
      const target = readLink(query, base).settings.view;
      expect(target && LINK_TARGETS[target].view).toBe(view);
    }
    expect(readLink('?view=toString', base).ignored[0]).toMatch(/^view=toString: view must be one of data, /);
  });

  it('arrow keys walk the views in order and wrap round', () => {
    expect(neighbourView('data', 'next')).toBe('model');
    expect(neighbourView('data', 'previous')).toBe('workshop');
    expect(neighbourView('workshop', 'next')).toBe('data');
    expect(neighbourView('train', 'first')).toBe('data');
    expect(neighbourView('train', 'last')).toBe('workshop');
  });

  it('titles the document by its view', () => {
    expect(documentTitle('train')).toBe('Train · VRAM Lab');
    expect(new Set(VIEWS.map((v) => documentTitle(v.id))).size).toBe(VIEWS.length);
  });
  it('a copied link names the view shown, keeping the panel a link opened while its view is shown', () => {
    expect(linkView('memory', null)).toBe('memory');
    expect(linkView('data', null)).toBeNull();
    expect(linkView('memory', 'planner')).toBe('planner');
    expect(linkView('train', 'planner')).toBe('train');
    expect(linkView('data', 'planner')).toBeNull();
    expect(linkView('data', 'preview')).toBe('preview');
  });
});
