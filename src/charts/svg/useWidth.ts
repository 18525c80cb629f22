import { useLayoutEffect, useRef, useState } from 'react';

/**
 * The width of the element the ref is put on, in CSS pixels, kept current by a ResizeObserver: the
 * charts draw at the width they are given, so their text is never stretched. The first width is the
 * observer's first report, made after the browser's own layout of the frame: reading clientWidth here
 * forced a layout of the whole page inside the task that mounted the charts (a trace of a run's first
 * step: 106 of that 138 ms task's 254 samples), and redrew each chart once more in it.
 */
export function useWidth<E extends HTMLElement>(initial = 480) {
  const ref = useRef<E>(null);
  const [width, setWidth] = useState(initial);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      const w = Math.round(entry?.contentRect.width ?? 0);
      if (w > 0) setWidth(w);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}
