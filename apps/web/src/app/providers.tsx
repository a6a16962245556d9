import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from 'sonner';
import { AuthSync } from '../lib/auth-sync';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, refetchOnWindowFocus: true },
  },
});

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <AuthSync />
      {children}
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
    </QueryClientProvider>
  );
}
