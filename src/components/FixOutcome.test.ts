import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FixOutcome, type AppliedFixClaim } from './FixOutcome';

const fix: AppliedFixClaim = {
  title: 'Halve the batch: 16 → 8',
  predictedBytes: 61.2e6,
  fits: true,
  phase: 'fine-tune',
  limit: 90e6,
};
const text = (html: string) => html.replace(/<[^>]+>/g, '');
const render = (props: Parameters<typeof FixOutcome>[0]) =>
  renderToStaticMarkup(createElement(FixOutcome, props));

describe('FixOutcome', () => {
  it('shows the claim next to the measured peak of the same phase, with the difference', () => {
    const html = render({
      fix,
      batches: [
        { phase: 'frozen', peakBytes: 80e6 },
        { phase: 'fine-tune', peakBytes: 60.1e6 },
        { phase: 'fine-tune', peakBytes: 60.8e6 },
        { phase: 'fine-tune' },
      ],
      ranOut: false,
    });
    expect(text(html)).toContain('claimed: fits, 61.2 MB predicted');
    expect(text(html)).toContain('measured: 60.8 MB, fits (−0.7%)');
    expect(html).toContain('data-kept="true"');
  });

  it('says when the claim was not kept, and waits before the first step', () => {
    const over = render({ fix, batches: [{ phase: 'fine-tune', peakBytes: 95e6 }], ranOut: false });
    expect(text(over)).toContain('measured: 95.0 MB, does not fit (+55.2%)');
    expect(over).toContain('data-kept="false"');
    const waiting = render({ fix, batches: [{ phase: 'frozen', peakBytes: 5e6 }], ranOut: false });
    expect(text(waiting)).toContain('measured: waiting for the first fine-tune step');
    expect(waiting).toContain('data-kept="pending"');
    expect(text(render({ fix, batches: [], ranOut: true }))).toContain('ran out of memory again');
    expect(render({ fix: null, batches: [], ranOut: false })).toBe('');
  });
});
