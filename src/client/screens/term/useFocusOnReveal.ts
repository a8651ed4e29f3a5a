import { useEffect, useRef } from 'react';

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Progressive questions: when `revealed` grows, the newly shown item (`items[revealed - 1]`) is
 * scrolled into view and focused, so that screen readers announce its question. Returns the
 * ref callback to put on item `index`.
 */
export function useFocusOnReveal(revealed: number): (index: number) => (element: HTMLElement | null) => void {
  const items = useRef<Array<HTMLElement | null>>([]);
  const shown = useRef(revealed);
  useEffect(() => {
    const before = shown.current;
    shown.current = revealed;
    if (revealed <= before) return;
    const item = items.current[revealed - 1];
    if (!item) return;
    // jsdom and old browsers lack scrollIntoView options; focus alone still works there.
    item.scrollIntoView?.({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
    item.focus({ preventScroll: true });
  }, [revealed]);
  return (index: number) => (element: HTMLElement | null) => {
    items.current[index] = element;
  };
}
