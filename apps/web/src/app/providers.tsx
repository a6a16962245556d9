import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { isToasterNeeded, subscribeToasterDemand } from '../components/ui/toaster-demand';
import { AuthSync } from '../lib/auth-sync';
import { queryClient } from './query-client';

export { queryClient };

// sonner's Toaster loads once a page that raises toasts has loaded, after the first commit (record 316):
// the public pages never load it. A toast raised before it subscribes is replayed by sonner when it does.
const Toaster = lazy(() => import('sonner').then((module) => ({ default: module.Toaster })));

export function AppProviders({ children }: { children: ReactNode }) {
  // False on the server and in the first client render (hydration), true after the first commit.
  const [isMounted, setIsMounted] = useState(false);
  const isToasterWanted = useSyncExternalStore(subscribeToasterDemand, isToasterNeeded, () => false);
  useEffect(() => {
    setIsMounted(true);
    // Marks the app as interactive (hydrated or rendered); the e2e journeys wait on it (record 128).
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <QueryClientProvider client={queryClient}>
      <AuthSync />
      {children}
      {isMounted && isToasterWanted ? (
        <Suspense fallback={null}>
          {/* Bottom right, clear of page headings and the dashboard's top bar (issue 18); one at a time (spec 01 §2). */}
          <Toaster
            theme="dark"
            position="bottom-right"
            offset={24}
            mobileOffset={16}
            visibleToasts={1}
            richColors
            closeButton
          />
        </Suspense>
      ) : null}
    </QueryClientProvider>
  );
}
