/** The Hono app: global middleware, every module's router under /api, and the built web app (lib/web-app.ts). */
import { Hono, type MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { routePath } from 'hono/route';
import { secureHeaders } from 'hono/secure-headers';
import type { Deps } from './deps';
import { access, globalMiddleware } from './lib/access';
import type { AppEnv } from './lib/context';
import { refuseControlCharacters } from './lib/control-characters';
import { AppError, internalErrorBody } from './lib/errors';
import { metricsHandler, observeHttpRequest } from './lib/metrics';
import { webDistDir } from './lib/paths';
import { closeOnUnreadBody } from './lib/request-body';
import { requestIdFor, runWithRequestContext } from './lib/request-context';
import { mountWebApp } from './lib/web-app';
import { adminBalancesRoutes } from './modules/admin-balances/routes';
import { adminReleasesRoutes } from './modules/admin-releases/routes';
import { adminUsersRoutes } from './modules/admin-users/routes';
import { adminWithdrawalsRoutes } from './modules/admin-withdrawals/routes';
import { analyticsRoutes } from './modules/analytics/routes';
import { appConfigRoutes } from './modules/app-config/routes';
import { artistProfilesRoutes } from './modules/artist-profiles/routes';
import { auditRoutes } from './modules/audit/routes';
import { authRoutes, meRoutes } from './modules/auth/routes';
import { billingRoutes } from './modules/billing/routes';
import { readSiteBrand } from './modules/brand';
import { brandRoutes } from './modules/brand/routes';
import { builderRoutes } from './modules/builder/routes';
import { catalogueImportRoutes } from './modules/catalogue-import/routes';
import { contentIdClaimsRoutes } from './modules/content-id/claims-routes';
import { contentIdRoutes } from './modules/content-id/routes';
import { deliveryRoutes } from './modules/delivery/routes';
import { financeRoutes } from './modules/finance/routes';
import { healthRoutes } from './modules/health/routes';
import { lapsePolicyRoutes } from './modules/lapse-policy/routes';
import { liveUpdatesRoutes } from './modules/live-updates/routes';
import { releaseUpdatesRoutes } from './modules/release-updates/routes';
import { releasesRoutes } from './modules/releases/routes';
import { royaltyChecksRoutes } from './modules/royalties/report-checks-routes';
import { royaltiesRoutes } from './modules/royalties/routes';
import { siteRoutes } from './modules/site/routes';
import { splitsRoutes } from './modules/splits/routes';
import { staffNotificationsRoutes } from './modules/staff-notifications/routes';
import { supportRoutes } from './modules/support/routes';
import { accountsRoutes, teamInvitationRoutes, teamRoutes } from './modules/team/routes';
import { walletRoutes } from './modules/wallet/routes';

/**
 * Every API router under /api, mounted with chained .route() so this value's type carries every route,
 * method, input and response: AppType, read by the web app's hono/client (record 090).
 */
const apiRoutes = new Hono<AppEnv>()
  .basePath('/api')
  .route('/health', healthRoutes)
  .route('/auth', authRoutes)
  .route('/me', meRoutes)
  .route('/config', appConfigRoutes)
  .route('/accounts', accountsRoutes)
  .route('/team', teamRoutes)
  .route('/team-invitations', teamInvitationRoutes)
  .route('/', siteRoutes)
  .route('/', supportRoutes)
  .route('/', contentIdRoutes)
  .route('/', contentIdClaimsRoutes)
  .route('/', billingRoutes)
  .route('/', liveUpdatesRoutes)
  .route('/', builderRoutes)
  .route('/', releasesRoutes)
  .route('/', releaseUpdatesRoutes)
  .route('/', walletRoutes)
  .route('/', analyticsRoutes)
  .route('/', adminReleasesRoutes)
  .route('/', auditRoutes)
  .route('/', adminUsersRoutes)
  .route('/', adminWithdrawalsRoutes)
  .route('/', adminBalancesRoutes)
  .route('/', royaltiesRoutes)
  .route('/', royaltyChecksRoutes)
  .route('/', financeRoutes)
  .route('/', splitsRoutes)
  .route('/', deliveryRoutes)
  .route('/', staffNotificationsRoutes)
  .route('/', lapsePolicyRoutes)
  .route('/', catalogueImportRoutes)
  .route('/', brandRoutes)
  .route('/', artistProfilesRoutes);

/** The API's type for `hc<AppType>()`; import it type-only through `@tunedrop/server/app-type`. */
export type AppType = typeof apiRoutes;

/**
 * The end-to-end fixtures router, set only by the e2e entry (main-e2e.ts) and tests, so the production
 * bundle never contains it; mounted only when E2E_FIXTURES_TOKEN is set outside production.
 */
let testFixtures: Hono<AppEnv, never, '/'> | null = null;
export function enableTestFixtures(routes: Hono<AppEnv, never, '/'>): void {
  testFixtures = routes;
}

export function createApp(deps: Deps) {
  const app = new Hono<AppEnv>();
  const { logger } = deps;

  app.use(
    '*',
    globalMiddleware(async (c, next) => {
      const started = performance.now();
      c.set('deps', deps);
      // A trusted proxy's id is kept when it looks like one (lib/request-context.ts); it is echoed in
      // answers and logs, so nothing else is.
      const requestId = requestIdFor(c.req.header('x-request-id'), deps.config.TRUST_PROXY === '1');
      c.set('requestId', requestId);
      // Every log line written while this request runs (routes, services, errors) carries its id.
      await runWithRequestContext({ requestId }, () => next());
      try {
        c.res.headers.set('X-Request-Id', requestId);
      } catch {
        // An immutable response (a redirect made by Response.redirect): it goes without the header.
      }
      const seconds = (performance.now() - started) / 1000;
      // The pattern of the route that answered (e.g. /api/releases/:id), never the raw path: bounded labels.
      observeHttpRequest(c.req.method, routePath(c), c.res.status, seconds);
      if (c.req.path.startsWith('/api/')) {
        logger.info(
          {
            reqId: requestId,
            method: c.req.method,
            path: c.req.path,
            status: c.res.status,
            ms: Math.round(seconds * 1000),
          },
          'request',
        );
      }
    }),
  );
  app.use(
    '*',
    globalMiddleware(
      secureHeaders({
        contentSecurityPolicy: {
          defaultSrc: ["'self'"],
          imgSrc: ["'self'", 'data:', 'blob:', 'https://i.scdn.co'],
          mediaSrc: ["'self'", 'blob:'],
          styleSrc: ["'self'", "'unsafe-inline'"],
          connectSrc: ["'self'"],
          frameAncestors: ["'none'"],
        },
        crossOriginEmbedderPolicy: false,
      }) as MiddlewareHandler<AppEnv>,
    ),
  );
  // A refusal to a body still arriving closes the connection rather than reading the rest (lib/request-body.ts).
  app.use('/api/*', globalMiddleware(closeOnUnreadBody()));
  // NUL and control characters in a path or query: 422 before any route (lib/control-characters.ts). Bodies
  // are bounded and checked by each route's access() once the caller is let in (record 145).
  app.use('/api/*', globalMiddleware(refuseControlCharacters()));
  // Cross-site request forgery: a browser always sends Origin on cross-site writes; it must be ours.
  app.use(
    '/api/*',
    globalMiddleware(async (c, next) => {
      const isWrite = !['GET', 'HEAD', 'OPTIONS'].includes(c.req.method);
      const origin = c.req.header('origin');
      if (
        isWrite &&
        origin &&
        origin !== deps.config.appUrl &&
        !c.req.path.startsWith('/api/payments/webhook')
      ) {
        throw new AppError('bad_origin', 'This request came from another site and was refused.', 403);
      }
      await next();
    }),
  );

  app.route('/', apiRoutes);
  // Prometheus scrapes outside /api (record 159 says who may read it).
  app.get('/metrics', access('public'), metricsHandler);
  if (testFixtures && deps.config.E2E_FIXTURES_TOKEN && deps.config.NODE_ENV !== 'production') {
    app.route('/api/test-fixtures', testFixtures);
  }
  app.all('/api/*', (c) => c.json({ error: { code: 'not_found', message: 'Not found' } }, 404));

  // The public pages and the shell carry the operator's brand (record 203).
  mountWebApp(app, webDistDir, { readSiteBrand });

  app.onError((error, c) => {
    if (error instanceof AppError) {
      return c.json(
        {
          error: {
            code: error.code,
            message: error.message,
            ...(error.fields ? { fields: error.fields } : {}),
          },
        },
        error.status,
      );
    }
    if (error instanceof HTTPException) {
      return c.json(
        { error: { code: 'http_error', message: error.message || 'Request failed' } },
        error.status,
      );
    }
    logger.error({ err: error, reqId: c.get('requestId'), path: c.req.path }, 'unhandled error');
    return c.json({ error: internalErrorBody(c.get('requestId')) }, 500);
  });

  return app;
}

export type App = ReturnType<typeof createApp>;
