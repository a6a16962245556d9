/** The app's one query cache: the providers hand it to React, the route loaders (route-loaders.ts) fill it. */
import { QueryClient } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, refetchOnWindowFocus: true },
  },
});
