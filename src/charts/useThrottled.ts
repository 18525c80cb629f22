import { useEffect, useRef, useState } from 'react';

/**
 * `value`, changing at most once every `ms`: a chart fed samples four times a second redraws once a
 * second instead (a redraw of a few hundred points costs the page time it could give to input), while the
 * numbers beside it stay live. The latest value always arrives: a change inside the window is shown
 * when the window ends, and the first change after a quiet window at once.
 */
export function useThrottled<T>(value: T, ms: number): T {
  const [shown, setShown] = useState(value);
  const shownAt = useRef(Number.NEGATIVE_INFINITY);
  useEffect(() => {
    if (Object.is(value, shown)) return;
    const show = () => {
      shownAt.current = performance.now();
      setShown(value);
    };
    const timer = setTimeout(show, Math.max(0, shownAt.current + ms - performance.now()));
    return () => clearTimeout(timer);
  }, [value, shown, ms]);
  return shown;
}
