/**
 * Build-time prerender of the public pages (record 128), bundled by `vite build --ssr` and called by
 * prerender.mjs: renders one path with the same routes and providers as main.tsx, signed out and with
 * every query still pending, which is exactly what the first client render sees before hydration.
 */
import { DEFAULT_SITE_BRAND, type SiteBrand } from '@tunedrop/shared/schemas/brand';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppProviders } from './app/providers';
import { routes } from './app/router';
import { setSiteBrand } from './lib/site-brand';
import { prerenderHead } from './lib/use-page-title';

export type Prerendered = { html: string; title?: string; description?: string };

/**
 * `brand`: the operator's (record 327) when the server renders a page for saved brand settings; the build
 * renders with the default, which is what a page without the meta tag hydrates with.
 */
export async function render(pathname: string, brand: SiteBrand = DEFAULT_SITE_BRAND): Promise<Prerendered> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${pathname}`));
  if (context instanceof Response) throw new Error(`${pathname}: the router answered a redirect`);
  if (context.statusCode !== 200) throw new Error(`${pathname}: status ${context.statusCode}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  setSiteBrand(brand);
  prerenderHead.title = undefined;
  prerenderHead.description = undefined;
  const html = renderToString(
    <StrictMode>
      <AppProviders>
        {/* No inline hydration script (the CSP allows none); main.tsx needs no loader data. */}
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </StrictMode>,
  );
  return { html, ...prerenderHead };
}
