import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False in the prerendered HTML and during hydration, true once React owns the page (at once on pages
 * rendered in the browser). A prerendered form keeps its submit button disabled until then, so a submit
 * before the scripts have loaded cannot fall back to the browser's own GET with the password in the URL.
 */
export function useIsHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
