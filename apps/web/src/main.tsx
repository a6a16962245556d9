/**
 * Starts the web app. The public pages come prerendered (record 128): the page's lazy route modules are
 * loaded first (the HTML preloads them), then React hydrates the server's markup in a transition, so the
 * work is split into short tasks. Every other page starts from the empty shell and renders on the client.
 */
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider } from 'react-router';
import { AppProviders } from './app/providers';
import { registerRoutes } from './app/route-loaders';
import { routes } from './app/router';
import { readSiteBrandFromDocument, setSiteBrand } from './lib/site-brand';
import './index.css';

// The operator's brand (record 327) from the page's meta tag, before any render reads it.
setSiteBrand(readSiteBrandFromDocument());

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

/** Resolves the lazy routes matching this URL, so the router's first render is the prerendered page. */
async function loadMatchedRoutes(): Promise<void> {
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

function start(container: HTMLElement, isPrerendered: boolean): void {
  registerRoutes(routes);
  const router = createBrowserRouter(routes);
  const app = (
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>
  );
  if (isPrerendered) startTransition(() => void hydrateRoot(container, app));
  else createRoot(container).render(app);
}

// No top-level await here: it would make the bundler split the entry's modules into many small chunks.
if (root.hasChildNodes()) void loadMatchedRoutes().then(() => start(root, true));
else start(root, false);
