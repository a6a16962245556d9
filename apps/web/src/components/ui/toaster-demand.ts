/**
 * Whether any code that raises toasts has loaded (components/ui/toast.ts says so when it loads). The
 * providers mount sonner's Toaster only then, so pages without toasts (the public pages) never load
 * sonner (record 316); sonner replays a toast raised before its Toaster subscribed.
 */
let isNeeded = false;
const listeners = new Set<() => void>();

export function requestToaster(): void {
  if (isNeeded) return;
  isNeeded = true;
  for (const listener of listeners) listener();
}

export function subscribeToasterDemand(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const isToasterNeeded = (): boolean => isNeeded;
