import { useLayoutEffect } from 'react';

/** Starts the page at the top when it loads (spec 01 §2 for /pricing; the legal pages too). */
export function useScrollToTopOnLoad() {
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, []);
}
