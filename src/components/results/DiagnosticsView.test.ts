import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { classScores, type DiagnosticsReport } from '../../core/diagnostics';
import { DiagnosticsView } from './DiagnosticsView';

const counts = [
  [3, 1],
  [2, 4],
];
const report: DiagnosticsReport = {
  phase: 'fine-tune',
  counts,
  perClass: classScores(counts),
  total: 10,
  correct: 7,
  misclassified: [
    { index: 1, path: 'cats/a.png', label: 0, predicted: 1, confidence: 0.9, thumbnail: null },
    { index: 5, path: 'dogs/b.png', label: 1, predicted: 0, confidence: 0.6, thumbnail: null },
    { index: 8, path: 'dogs/c.png', label: 1, predicted: 0, confidence: 0.55, thumbnail: null },
  ],
};

describe('DiagnosticsView', () => {
  const html = renderToStaticMarkup(createElement(DiagnosticsView, { report, classNames: ['cat', 'dog'] }));

  it('renders one button per cell with its count and share, named for screen readers', () => {
    const cells = [...html.matchAll(/data-count="(\d+)"/g)].map((m) => Number(m[1]));
    expect(cells).toEqual([3, 1, 2, 4, 3]);
    expect(html).toContain('aria-label="2 dog images predicted as cat (33% of dog)"');
    expect(html.match(/<button type="button"[^>]*aria-pressed="false"/g)).toHaveLength(4);
  });

  it('lists every misclassified image with true and predicted class and confidence', () => {
    expect(html).toContain('7 of 10 validation images right');
    expect(html.match(/data-testid="misclassified-item"/g)).toHaveLength(3);
    expect(html).toContain('dog → cat (60%)');
    expect(html).toContain('cats/a.png');
  });
});
