// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import type { View } from '../core/settings/views';
import { startViewRoute } from './viewRoute';

const popTo = (url: string) => {
  history.replaceState(null, '', url);
  window.dispatchEvent(new PopStateEvent('popstate'));
};

afterEach(() => history.replaceState(null, '', '/'));

describe('the view route', () => {
  it('writes the first view into the address without a history entry, keeping the link’s query', () => {
    history.replaceState(null, '', '/?batch=8&view=planner');
    const before = history.length;
    startViewRoute('memory', () => {});
    expect(location.search).toBe('?batch=8&view=planner');
    expect(location.hash).toBe('#/memory');
    expect(history.length).toBe(before);
    expect(document.title).toBe('Memory · VRAM Lab');
  });

  it('pushes one entry per view shown, and none for the view already shown', () => {
    history.replaceState(null, '', '/');
    const route = startViewRoute('data', () => {});
    const before = history.length;
    route.show('model');
    route.show('model');
    route.show('train');
    expect(history.length).toBe(before + 2);
    expect(location.hash).toBe('#/train');
    expect(document.title).toBe('Train · VRAM Lab');
  });

  it('tells the page the view that back, forward or a typed hash brings, and ignores hashes naming none', () => {
    history.replaceState(null, '', '/');
    const seen: View[] = [];
    const route = startViewRoute('data', (v) => seen.push(v));
    route.show('results');
    popTo('/#/model');
    popTo('/#/model');
    popTo('/#nowhere');
    popTo('/#workshop');
    expect(seen).toEqual(['model', 'workshop']);
    expect(document.title).toBe('Workshop · VRAM Lab');
  });
});
