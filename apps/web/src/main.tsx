/**
 * Starts the web app. The public pages come prerendered (record 128): the page's lazy route modules are
 * loaded first (the HTML preloads them), then React hydrates the server's markup in a transition, so the
 * work is split into short tasks. Every other page starts from the empty shell and renders on the client.
 */
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider } from 'react-router';
import { AppProviders } from './app/providers';
import { routes } from './app/router';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

const isPrerendered = root.hasChildNodes();
if (isPrerendered) {
  // The router must start with the matched routes' components in hand, or its first render (nothing
  // yet) would not match the prerendered markup.
  const lazyRoutes = (matchRoutes(routes, window.location) ?? [])
    .map((match) => match.route)
    .filter((route) => route.lazy);
  await Promise.all(
    lazyRoutes.map(async (route) => {
      const load = route.lazy;
      if (typeof load !== 'function') return;
      Object.assign(route, { ...(await load()), lazy: undefined });
    }),
  );
}

const router = createBrowserRouter(routes);
const app = (
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>
);
if (isPrerendered) startTransition(() => void hydrateRoot(root, app));
else createRoot(root).render(app);
