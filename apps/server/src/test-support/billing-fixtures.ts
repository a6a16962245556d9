/**
 * A small fake of the Stripe API (just what the payments provider calls) on a local port, so the real
 * `stripe` SDK can be pointed at it with STRIPE_API_BASE; and helpers that sign webhook deliveries
 * with Stripe.webhooks.generateTestHeaderString exactly as Stripe would.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import type { AppEnv } from '../lib/context';
import type { TestSystem } from './harness';

export const FAKE_PRICES = { basic: 'price_basic_test', pro: 'price_pro_test' } as const;
export const WEBHOOK_SECRET = 'whsec_test_secret_for_tunedrop';

export type FakeSubscription = {
  id: string;
  object: 'subscription';
  customer: string;
  status: string;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  ended_at: number | null;
  created: number;
  metadata: Record<string, string>;
  items: {
    object: 'list';
    data: {
      id: string;
      object: 'subscription_item';
      price: { id: string; object: 'price' };
      current_period_start: number;
      current_period_end: number;
    }[];
  };
};

export function fakeSubscription(options: {
  id: string;
  customer: string;
  status?: string;
  price?: string;
  periodEnd: number;
  cancelAtPeriodEnd?: boolean;
  endedAt?: number | null;
  userId?: string;
}): FakeSubscription {
  return {
    id: options.id,
    object: 'subscription',
    customer: options.customer,
    status: options.status ?? 'active',
    cancel_at_period_end: options.cancelAtPeriodEnd ?? false,
    cancel_at: null,
    ended_at: options.endedAt ?? null,
    created: options.periodEnd - 30 * 86_400,
    metadata: options.userId ? { userId: options.userId } : {},
    items: {
      object: 'list',
      data: [
        {
          id: `si_${options.id}`,
          object: 'subscription_item',
          price: { id: options.price ?? FAKE_PRICES.basic, object: 'price' },
          current_period_start: options.periodEnd - 30 * 86_400,
          current_period_end: options.periodEnd,
        },
      ],
    },
  };
}

export type FakeStripe = {
  url: string;
  /** Every request the SDK made: method, path and form parameters. */
  requests: { method: string; path: string; params: Record<string, string> }[];
  subscriptions: Map<string, FakeSubscription>;
  close: () => Promise<void>;
};

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: FakeStripe['requests'] = [];
  const subscriptions = new Map<string, FakeSubscription>();
  let counter = 0;
  const next = (prefix: string) => `${prefix}_fake_${++counter}`;

  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const params = Object.fromEntries(new URLSearchParams(req.method === 'GET' ? url.search : body));
      requests.push({ method: req.method ?? 'GET', path: url.pathname, params });
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': next('req') });
        res.end(JSON.stringify(value));
      };
      if (!req.headers.authorization?.startsWith('Bearer sk_test_')) {
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key' } });
      }
      const subscriptionPath = url.pathname.match(/^\/v1\/subscriptions\/([^/]+)$/);
      if (req.method === 'POST' && url.pathname === '/v1/customers') {
        return send(200, { id: next('cus'), object: 'customer', email: params.email, metadata: {} });
      }
      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const id = next('cs');
        return send(200, {
          id,
          object: 'checkout.session',
          mode: params.mode,
          customer: params.customer,
          url: `https://checkout.stripe.test/c/pay/${id}`,
        });
      }
      if (req.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
        const id = next('bps');
        return send(200, {
          id,
          object: 'billing_portal.session',
          customer: params.customer,
          return_url: params.return_url,
          url: `https://billing.stripe.test/p/session/${id}`,
        });
      }
      if (req.method === 'GET' && url.pathname === '/v1/subscriptions') {
        const data = [...subscriptions.values()]
          .filter((subscription) => subscription.customer === params.customer)
          .sort((a, b) => b.created - a.created);
        return send(200, { object: 'list', data, has_more: false, url: '/v1/subscriptions' });
      }
      if (subscriptionPath?.[1]) {
        const subscription = subscriptions.get(decodeURIComponent(subscriptionPath[1]));
        if (!subscription) {
          return send(404, { error: { type: 'invalid_request_error', message: 'No such subscription' } });
        }
        if (req.method === 'POST') {
          const price = params['items[0][price]'];
          const item = subscription.items.data[0];
          if (price && item) item.price = { id: price, object: 'price' };
          for (const [key, value] of Object.entries(params)) {
            const match = key.match(/^metadata\[(.+)\]$/);
            if (match?.[1]) subscription.metadata[match[1]] = value;
          }
        }
        return send(200, subscription);
      }
      return send(404, { error: { type: 'invalid_request_error', message: `Unknown ${url.pathname}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    subscriptions,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Environment for createTestSystem that switches payments to Stripe at the fake. */
export function stripeEnv(fake: FakeStripe): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: 'sk_test_tunedrop',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PRICE_BASIC: FAKE_PRICES.basic,
    STRIPE_PRICE_PRO: FAKE_PRICES.pro,
    STRIPE_API_BASE: fake.url,
  };
}

export function stripeEvent(id: string, type: string, created: number, object: unknown) {
  return {
    id,
    object: 'event',
    type,
    created,
    api_version: Stripe.API_VERSION,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  };
}

/** Delivers an event to POST /api/payments/webhook, signed with `secret` (the real one unless forging). */
export async function deliverWebhook(
  system: TestSystem,
  event: unknown,
  options: { secret?: string; signature?: string | null; body?: string } = {},
) {
  const payload = JSON.stringify(event);
  const signature =
    options.signature === undefined
      ? Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET })
      : options.signature;
  return system.request('/api/payments/webhook', {
    method: 'POST',
    body: options.body ?? payload,
    headers: {
      'content-type': 'application/json',
      ...(signature === null ? {} : { 'stripe-signature': signature }),
    },
  });
}

/**
 * Calls a throwaway route guarded by access('subscriber') with the system's deps, as every subscriber
 * route of the app is; answers the status and error code the caller would get.
 */
export async function subscriberGate(system: TestSystem, cookie: string) {
  const { Hono } = await import('hono');
  const { access } = await import('../lib/access');
  const { AppError } = await import('../lib/errors');
  const probe = new Hono<AppEnv>()
    .use('*', async (c, next) => {
      c.set('deps', system);
      await next();
    })
    .get('/probe', access('subscriber'), (c) => c.json({ ok: true }, 200))
    .onError((error, c) =>
      error instanceof AppError
        ? c.json({ error: { code: error.code, message: error.message } }, error.status)
        : c.json({ error: { code: 'internal_error', message: String(error) } }, 500),
    );
  const response = await probe.request('/probe', {
    headers: { cookie, origin: system.config.appUrl },
  });
  const body = (await response.json()) as { error?: { code: string; message: string } };
  return { status: response.status, error: body.error ?? null };
}
