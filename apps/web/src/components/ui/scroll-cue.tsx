/**
 * A cue for a row that scrolls sideways (issue 18): fades at the edges that hide more content and a short
 * line saying so, shown only while the content is wider than its box (e.g. on a 390 px phone).
 */
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { type RefObject, useCallback, useEffect, useState } from 'react';
import { cn } from './cn';

export type ScrollEdges = { isOverflowing: boolean; hasMoreLeft: boolean; hasMoreRight: boolean };

/** Whether `ref`'s element overflows sideways, and on which sides there is more to see. */
export function useScrollEdges(ref: RefObject<HTMLElement | null>, watch: unknown = null): ScrollEdges {
  const [edges, setEdges] = useState<ScrollEdges>({
    isOverflowing: false,
    hasMoreLeft: false,
    hasMoreRight: false,
  });
  const measure = useCallback(() => {
    const element = ref.current;
    if (!element) return;
    const max = element.scrollWidth - element.clientWidth;
    const next = {
      isOverflowing: max > 1,
      hasMoreLeft: element.scrollLeft > 1,
      hasMoreRight: element.scrollLeft < max - 1,
    };
    setEdges((current) =>
      current.isOverflowing === next.isOverflowing &&
      current.hasMoreLeft === next.hasMoreLeft &&
      current.hasMoreRight === next.hasMoreRight
        ? current
        : next,
    );
  }, [ref]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `watch` re-measures when the content changes
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    measure();
    element.addEventListener('scroll', measure, { passive: true });
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => {
      element.removeEventListener('scroll', measure);
      observer.disconnect();
    };
  }, [ref, measure, watch]);
  return edges;
}

/** Edge fades over a scrolling row; place inside a `relative` wrapper around the row. */
export function ScrollFades({ edges, surface = 'card' }: { edges: ScrollEdges; surface?: 'card' | 'page' }) {
  const from = surface === 'card' ? 'from-ink-900' : 'from-ink-950';
  return (
    <>
      <div
        aria-hidden
        className={cn(
          'pointer-events-none absolute inset-y-0 left-0 flex w-10 items-center bg-gradient-to-r to-transparent transition-opacity',
          from,
          edges.hasMoreLeft ? 'opacity-100' : 'opacity-0',
        )}
      >
        <ChevronLeft className="size-4 text-zinc-300" />
      </div>
      <div
        aria-hidden
        className={cn(
          'pointer-events-none absolute inset-y-0 right-0 flex w-10 items-center justify-end bg-gradient-to-l to-transparent transition-opacity',
          from,
          edges.hasMoreRight ? 'opacity-100' : 'opacity-0',
        )}
      >
        <ChevronRight className="size-4 text-zinc-300" />
      </div>
    </>
  );
}

/** The line under a scrolling row, e.g. "Swipe sideways to see all 8 tracks". */
export function ScrollHint({
  edges,
  children,
  testId,
}: {
  edges: ScrollEdges;
  children: string;
  testId?: string;
}) {
  if (!edges.isOverflowing) return null;
  return (
    <p className="flex items-center gap-1 text-xs text-zinc-400" data-testid={testId}>
      <ChevronRight aria-hidden className="size-3.5" /> {children}
    </p>
  );
}
