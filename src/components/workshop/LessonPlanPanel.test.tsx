// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LessonPlanPanel } from './LessonPlanPanel';

afterEach(cleanup);

/** The lab's links in docs/workshop.md, in order, each once. */
function docLinks(): string[] {
  const doc = readFileSync('docs/workshop.md', 'utf8');
  return [...new Set([...doc.matchAll(/\(http:\/\/localhost:5173\/(\?[^)]*)\)/g)].map((m) => m[1]!))];
}

describe('the lesson plan view', () => {
  it('lists the steps in order, linking what docs/workshop.md links', () => {
    render(<LessonPlanPanel />);
    const list = screen.getByRole('list');
    const steps = within(list).getAllByRole('listitem');
    expect(steps.length).toBe(8);
    expect(steps[0]!.textContent).toMatch(/^Everyone on the same footing \(5 min\)/);
    const hrefs = within(list)
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(docLinks());
  });
});
