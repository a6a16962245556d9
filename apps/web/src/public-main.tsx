/**
 * The entry of the prerendered public pages (record 209): `/`, `/pricing`, `/terms`, `/privacy`, `/login`
 * and `/signup`. Built on its own (vite.public.config.ts) with `react-router` resolved to
 * src/public/router.tsx, so these pages load React, TanStack Query and their own code, but neither React
 * Router nor the dashboard app: a link to another page loads that page's document. It hydrates the markup
 * that entry-server.tsx rendered with the app's real routes (same providers, same components); every
 * other page is the single-page app of main.tsx.
 */
import { type ComponentType, type ReactNode, StrictMode, startTransition, useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { PublicLayout } from './app/layouts/public-layout';
import { readSiteBrandFromDocument, setSiteBrand } from './lib/site-brand';
import { OutletProvider } from './public/router';

type PageModule = { default: ComponentType };

/**
 * Each prerendered path, its page module, and whether the public chrome (header, footer) frames it; the
 * pages outside it (sign-in, sign-up) use the query cache. prerender.mjs preloads the same modules.
 */
const pages: Record<string, { load: () => Promise<PageModule>; framed: boolean }> = {
  '/': { load: () => import('./features/site/routes/home-page'), framed: true },
  '/pricing': { load: () => import('./features/site/routes/pricing-page'), framed: true },
  '/terms': { load: () => import('./features/site/routes/terms-page'), framed: true },
  '/privacy': { load: () => import('./features/site/routes/privacy-page'), framed: true },
  '/login': { load: () => import('./features/auth/routes/login-page'), framed: false },
  '/signup': { load: () => import('./features/auth/routes/signup-page'), framed: false },
};

// The operator's brand (record 327) from the page's meta tag, before any render reads it.
setSiteBrand(readSiteBrandFromDocument());

const root = document.getElementById('root');
const pathname = window.location.pathname.length > 1 ? window.location.pathname.replace(/\/+$/, '') : '/';
const page = pages[pathname];
if (!root || !page) throw new Error(`public-main: no prerendered page for ${pathname}`);

/** Marks the page as interactive once hydrated, as AppProviders does; the e2e journeys wait on it. */
function HydrationMark(): null {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return null;
}

/** The page in its chrome, or in the app's providers (query cache, sign-in sync, toasts). */
async function pageElement(): Promise<ReactNode> {
  if (!page) return null;
  if (page.framed) {
    const { default: Page } = await page.load();
    return (
      <>
        <HydrationMark />
        <OutletProvider page={<Page />}>
          <PublicLayout />
        </OutletProvider>
      </>
    );
  }
  const [{ default: Page }, { AppProviders }] = await Promise.all([page.load(), import('./app/providers')]);
  return (
    <AppProviders>
      <Page />
    </AppProviders>
  );
}

// The page's modules are already loading (the HTML has the page as an async script and preloads the rest).
void pageElement().then((element) => {
  // In a transition: hydration yields between short slices instead of one long task (record 128).
  startTransition(() => {
    hydrateRoot(root, <StrictMode>{element}</StrictMode>);
  });
});
