import { useLayoutEffect, useRef, useState } from 'react';

/**
 * The width of the element the ref is put on, in CSS pixels, kept current by a ResizeObserver: the
 * charts draw at the width they are given, so their text is never stretched.
 */
export function useWidth<E extends HTMLElement>(initial = 480) {
  const ref = useRef<E>(null);
  const [width, setWidth] = useState(initial);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth || initial);
    const observer = new ResizeObserver(([entry]) => {
      const w = Math.round(entry?.contentRect.width ?? 0);
      if (w > 0) setWidth(w);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [initial]);
  return [ref, width] as const;
}
