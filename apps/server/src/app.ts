/** The Hono app: global middleware, every module's router under /api, and the built web app (lib/web-app.ts). */
import { Hono, type MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { routePath } from 'hono/route';
import { secureHeaders } from 'hono/secure-headers';
import type { Deps } from './deps';
import { access, globalMiddleware } from './lib/access';
import type { AppEnv } from './lib/context';
import { refuseControlCharacters } from './lib/control-characters';
import { AppError, databaseUnavailable, databaseUnavailableReason, internalErrorBody } from './lib/errors';
import { metricsHandler, observeHttpRequest } from './lib/metrics';
import { webDistDir } from './lib/paths';
import { closeOnUnreadBody } from './lib/request-body';
import { requestIdFor, runWithRequestContext } from './lib/request-context';
import { traceRequest } from './lib/telemetry';
import { mountWebApp } from './lib/web-app';
import { adminBalancesRoutes } from './modules/admin-balances/routes';
import { adminReleasesRoutes } from './modules/admin-releases/routes';
import { adminUsersRoutes } from './modules/admin-users/routes';
import { adminWithdrawalsRoutes } from './modules/admin-withdrawals/routes';
import { analyticsRoutes } from './modules/analytics/routes';
import { apiKeysRoutes } from './modules/api-keys/routes';
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
import { contractRoutes } from './modules/contracts/routes';
import { deliveryRoutes } from './modules/delivery/routes';
import { financeRoutes } from './modules/finance/routes';
import { healthRoutes } from './modules/health/routes';
import { lapsePolicyRoutes } from './modules/lapse-policy/routes';
import { liveUpdatesRoutes } from './modules/live-updates/routes';
import { payoutsRoutes } from './modules/payouts/routes';
import { buildV1Routes } from './modules/public-api';
import { releaseUpdatesRoutes } from './modules/release-updates/routes';
import { releasesRoutes } from './modules/releases/routes';
import { royaltyChecksRoutes, royaltyImportsRoutes } from './modules/royalty-imports';
import { royaltiesRoutes } from './modules/royalty-posting';
import { siteRoutes } from './modules/site/routes';
import { splitsRoutes } from './modules/splits/routes';
import { staffNotificationsRoutes } from './modules/staff-notifications/routes';
import { statementsRoutes } from './modules/statements';
import { supportRoutes } from './modules/support/routes';
import { taxRoutes } from './modules/tax/routes';
import { accountsRoutes, teamInvitationRoutes, teamRoutes } from './modules/team/routes';
import { walletRoutes } from './modules/wallet/routes';
import { webhooksRoutes } from './modules/webhooks/routes';

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
  .route('/', taxRoutes)
  .route('/', contentIdRoutes)
  .route('/', contentIdClaimsRoutes)
  .route('/', billingRoutes)
  .route('/', liveUpdatesRoutes)
  .route('/', builderRoutes)
  .route('/', releasesRoutes)
  .route('/', releaseUpdatesRoutes)
  .route('/', walletRoutes)
  .route('/', payoutsRoutes)
  .route('/', analyticsRoutes)
  .route('/', adminReleasesRoutes)
  .route('/', auditRoutes)
  .route('/', adminUsersRoutes)
  .route('/', adminWithdrawalsRoutes)
  .route('/', adminBalancesRoutes)
  .route('/', royaltyImportsRoutes)
  .route('/', royaltyChecksRoutes)
  .route('/', royaltiesRoutes)
  .route('/', statementsRoutes)
  .route('/', financeRoutes)
  .route('/', contractRoutes)
  .route('/', splitsRoutes)
  .route('/', deliveryRoutes)
  .route('/', staffNotificationsRoutes)
  .route('/', lapsePolicyRoutes)
  .route('/', catalogueImportRoutes)
  .route('/', brandRoutes)
  .route('/', artistProfilesRoutes)
  .route('/', apiKeysRoutes)
  .route('/', webhooksRoutes);

/** The public API v1 (record 290): the app's own handler chains of the routes listed in its table. */
const v1Routes = buildV1Routes(apiRoutes.routes);

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

/** What a worker instance serves (record 156): its probes and /metrics. */
const WORKER_PATHS = /^\/(api\/health(\/(live|ready))?|metrics)$/;

export type AppOptions = {
  /**
   * A worker (TUNEDROP_ROLE=worker) runs jobs and answers only its probes and metrics; every other path
   * answers 404 naming the role, with its X-Request-Id like any answer.
   */
  isWorkerOnly?: boolean;
};

export function createApp(deps: Deps, options: AppOptions = {}) {
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
      // Inside the request's span when traces are on (record 225): the jobs it enqueues carry its context.
      await runWithRequestContext({ requestId }, () =>
        traceRequest(
          c.req,
          () => routePath(c),
          () => c.res.status,
          next,
        ),
      );
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
  if (options.isWorkerOnly) {
    app.use(
      '*',
      globalMiddleware(async (c, next) => {
        if (WORKER_PATHS.test(c.req.path)) return next();
        return c.json(
          {
            error: {
              code: 'NOT_FOUND',
              message: 'This is a worker instance (TUNEDROP_ROLE=worker): it runs jobs and serves no API.',
            },
          },
          404,
        );
      }),
    );
  }
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

  app.route('/api/v1', v1Routes);
  app.route('/', apiRoutes);
  // Prometheus scrapes outside /api (record 159 says who may read it).
  app.get('/metrics', access('public'), metricsHandler);
  if (testFixtures && deps.config.E2E_FIXTURES_TOKEN && deps.config.NODE_ENV !== 'production') {
    app.route('/api/test-fixtures', testFixtures);
  }
  app.all('/api/*', (c) => c.json({ error: { code: 'not_found', message: 'Not found' } }, 404));

  // The public pages and the shell carry the operator's brand (record 327).
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
        error.headers,
      );
    }
    if (error instanceof HTTPException) {
      return c.json(
        { error: { code: 'http_error', message: error.message || 'Request failed' } },
        error.status,
      );
    }
    // A hung, gone or overloaded database (its timeouts, record 223): 503 with one stable message, logged
    // with the driver's reason only (a wrapped query error's message carries the query's values).
    const unavailable = databaseUnavailableReason(error);
    if (unavailable) {
      logger.warn(
        { reqId: c.get('requestId'), path: c.req.path, reason: unavailable },
        'database unavailable',
      );
      const answer = databaseUnavailable();
      return c.json({ error: { code: answer.code, message: answer.message } }, 503, { 'Retry-After': '5' });
    }
    logger.error({ err: error, reqId: c.get('requestId'), path: c.req.path }, 'unhandled error');
    return c.json({ error: internalErrorBody(c.get('requestId')) }, 500);
  });

  return app;
}
