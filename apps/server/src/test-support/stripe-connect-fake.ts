/**
 * A local Stripe that speaks the parts of its documented API that Connect payouts use (issue 38, record
 * 281): the balance, Express accounts, account links, transfers (created under an Idempotency-Key whose
 * first answer is replayed, listed by transfer_group, refused with Stripe's error codes) and reversals.
 * Its events are signed as Stripe signs them (`Stripe-Signature`, by the SDK's own test header), with the
 * platform endpoint's secret or the Connect endpoint's. Forced 5xx answers test the retries.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export const STRIPE_FAKE_KEY = 'sk_test_tunedrop_payouts';
export const STRIPE_FAKE_PLATFORM_SECRET = 'whsec_fake_platform_endpoint';
export const STRIPE_FAKE_CONNECT_SECRET = 'whsec_fake_connect_endpoint';

type FakeAccount = {
  id: string;
  email: string;
  detailsSubmitted: boolean;
  transfersActive: boolean;
  payoutsEnabled: boolean;
};
type FakeTransfer = {
  id: string;
  amount: number;
  amountReversed: number;
  destination: string;
  transferGroup: string;
  metadata: Record<string, string>;
  created: number;
};
type Saved = { params: string; status: number; body: unknown };
type Signed = { body: string; headers: Record<string, string> };

export type StripeConnectFake = {
  url: string;
  accounts: FakeAccount[];
  transfers: FakeTransfer[];
  /** Idempotency keys seen on POST /v1/transfers, in order, one per call. */
  transferKeys: string[];
  /** The platform's available USD balance, in cents. */
  setBalance: (cents: number) => void;
  /** The next N transfer creations answer 500; the first of them still makes the transfer (the worst case). */
  failTransfers: (count: number) => void;
  /** Stripe's onboarding, done by the payee: details submitted, `transfers` active, payouts enabled. */
  completeOnboarding: (accountId: string) => FakeAccount;
  reverse: (transferId: string, amount?: number) => FakeTransfer;
  accountUpdated: (accountId: string, options?: EventOptions) => Signed;
  transferReversed: (transferId: string, options?: EventOptions) => Signed;
  bankPayout: (
    accountId: string,
    outcome: 'paid' | 'failed',
    options?: EventOptions & { payoutId?: string; failureCode?: string },
  ) => Signed;
  close: () => Promise<void>;
};

type EventOptions = { eventId?: string; created?: number; secret?: string };

const now = () => Math.floor(Date.now() / 1000);

function stripeError(
  status: number,
  type: string,
  code: string | undefined,
  message: string,
  param?: string,
) {
  return { status, body: { error: { type, code, message, param } } };
}

export async function startStripeConnectFake(): Promise<StripeConnectFake> {
  const accounts: FakeAccount[] = [];
  const transfers: FakeTransfer[] = [];
  const transferKeys: string[] = [];
  const saved = new Map<string, Saved>();
  let balance = 1_000_000;
  let failing = 0;
  let failedOnce = false;
  let counter = 0;
  let url = '';
  const next = (prefix: string) => `${prefix}_fake${String(++counter).padStart(6, '0')}`;

  const accountJson = (account: FakeAccount) => ({
    id: account.id,
    object: 'account',
    type: 'express',
    email: account.email,
    details_submitted: account.detailsSubmitted,
    payouts_enabled: account.payoutsEnabled,
    charges_enabled: false,
    capabilities: { transfers: account.transfersActive ? 'active' : 'inactive' },
    metadata: {},
  });
  const transferJson = (transfer: FakeTransfer) => ({
    id: transfer.id,
    object: 'transfer',
    amount: transfer.amount,
    amount_reversed: transfer.amountReversed,
    currency: 'usd',
    created: transfer.created,
    destination: transfer.destination,
    livemode: false,
    metadata: transfer.metadata,
    reversed: transfer.amountReversed >= transfer.amount,
    transfer_group: transfer.transferGroup,
  });

  /** POST /v1/transfers as Stripe answers it, before idempotency. */
  const createTransfer = (params: Record<string, string>) => {
    const amount = Number(params.amount);
    const destination = params.destination ?? '';
    const account = accounts.find((a) => a.id === destination);
    if (!account)
      return stripeError(
        400,
        'invalid_request_error',
        'resource_missing',
        `No such destination: '${destination}'`,
        'destination',
      );
    if (!account.transfersActive)
      return stripeError(
        400,
        'invalid_request_error',
        'insufficient_capabilities_for_transfer',
        'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
        'destination',
      );
    if (amount > balance)
      return stripeError(
        400,
        'invalid_request_error',
        'balance_insufficient',
        'You have insufficient available funds in your Stripe account.',
      );
    balance -= amount;
    const metadata: Record<string, string> = {};
    for (const [key, value] of Object.entries(params)) {
      const match = /^metadata\[(.+)\]$/.exec(key);
      if (match?.[1]) metadata[match[1]] = value;
    }
    const transfer: FakeTransfer = {
      id: next('tr'),
      amount,
      amountReversed: 0,
      destination,
      transferGroup: params.transfer_group ?? '',
      metadata,
      created: now(),
    };
    transfers.push(transfer);
    return { status: 200, body: transferJson(transfer) };
  };

  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => {
      raw += chunk;
    });
    request.on('end', () => {
      const address = new URL(request.url ?? '/', 'http://fake');
      const params = Object.fromEntries(
        new URLSearchParams(request.method === 'GET' ? address.search : raw),
      ) as Record<string, string>;
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(status, {
          'content-type': 'application/json',
          'request-id': next('req'),
          ...headers,
        });
        response.end(JSON.stringify(body));
      };
      if (request.headers.authorization !== `Bearer ${STRIPE_FAKE_KEY}`) {
        return send(401, {
          error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_****' },
        });
      }
      const key = request.headers['idempotency-key'];
      const path = address.pathname;
      if (request.method === 'GET' && path === '/v1/balance') {
        return send(200, {
          object: 'balance',
          livemode: false,
          available: [{ amount: balance, currency: 'usd', source_types: { card: balance } }],
          pending: [{ amount: 0, currency: 'usd' }],
        });
      }
      if (request.method === 'POST' && path === '/v1/accounts') {
        const replay = typeof key === 'string' ? saved.get(`accounts:${key}`) : undefined;
        if (replay) return send(replay.status, replay.body, { 'idempotent-replayed': 'true' });
        const account: FakeAccount = {
          id: next('acct'),
          email: params.email ?? '',
          detailsSubmitted: false,
          transfersActive: false,
          payoutsEnabled: false,
        };
        accounts.push(account);
        const body = accountJson(account);
        if (typeof key === 'string') saved.set(`accounts:${key}`, { params: raw, status: 200, body });
        return send(200, body);
      }
      if (request.method === 'POST' && path === '/v1/account_links') {
        if (!accounts.some((a) => a.id === params.account))
          return send(400, {
            error: { type: 'invalid_request_error', code: 'resource_missing', param: 'account' },
          });
        if (!params.refresh_url || !params.return_url || params.type !== 'account_onboarding')
          return send(400, { error: { type: 'invalid_request_error', code: 'parameter_missing' } });
        return send(200, {
          object: 'account_link',
          created: now(),
          expires_at: now() + 300,
          url: `${url}/setup/e/${params.account}?return=${encodeURIComponent(params.return_url)}`,
        });
      }
      if (request.method === 'GET' && path === '/v1/transfers') {
        const data = transfers
          .filter((t) => !params.transfer_group || t.transferGroup === params.transfer_group)
          .filter((t) => !params.destination || t.destination === params.destination)
          .reverse()
          .slice(0, Number(params.limit ?? 10))
          .map(transferJson);
        return send(200, { object: 'list', data, has_more: false, url: '/v1/transfers' });
      }
      if (request.method === 'POST' && path === '/v1/transfers') {
        transferKeys.push(typeof key === 'string' ? key : '');
        const replay = typeof key === 'string' ? saved.get(`transfers:${key}`) : undefined;
        if (replay && replay.params !== raw) {
          return send(400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
            },
          });
        }
        if (failing > 0) {
          failing -= 1;
          // The first failure happened after Stripe made the transfer and saved its answer: the
          // connection broke on the way back (a 500 from the edge). The others fail before execution.
          if (!failedOnce && !replay) {
            const made = createTransfer(params);
            if (typeof key === 'string') saved.set(`transfers:${key}`, { params: raw, ...made });
          }
          failedOnce = true;
          return send(500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
        }
        if (replay) return send(replay.status, replay.body, { 'idempotent-replayed': 'true' });
        const made = createTransfer(params);
        if (typeof key === 'string') saved.set(`transfers:${key}`, { params: raw, ...made });
        return send(made.status, made.body);
      }
      send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${path})` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const accountOf = (id: string) => {
    const account = accounts.find((a) => a.id === id);
    if (!account) throw new Error(`fake Stripe has no account ${id}`);
    return account;
  };
  const transferOf = (id: string) => {
    const transfer = transfers.find((t) => t.id === id);
    if (!transfer) throw new Error(`fake Stripe has no transfer ${id}`);
    return transfer;
  };
  const sign = (
    type: string,
    object: unknown,
    options: EventOptions,
    defaultSecret: string,
    account?: string,
  ): Signed => {
    const event = {
      id: options.eventId ?? next('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: options.created ?? now(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      ...(account ? { account } : {}),
      data: { object },
    };
    const body = JSON.stringify(event);
    return {
      body,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({
          payload: body,
          secret: options.secret ?? defaultSecret,
        }),
      },
    };
  };

  return {
    url,
    accounts,
    transfers,
    transferKeys,
    setBalance: (cents) => {
      balance = cents;
    },
    failTransfers: (count) => {
      failing = count;
      failedOnce = false;
    },
    completeOnboarding: (accountId) => {
      const account = accountOf(accountId);
      account.detailsSubmitted = true;
      account.transfersActive = true;
      account.payoutsEnabled = true;
      return account;
    },
    reverse: (transferId, amount) => {
      const transfer = transferOf(transferId);
      transfer.amountReversed = Math.min(
        transfer.amount,
        transfer.amountReversed + (amount ?? transfer.amount),
      );
      balance += amount ?? transfer.amount;
      return transfer;
    },
    // Connected accounts' events go to the Connect endpoint and name the account.
    accountUpdated: (accountId, options = {}) =>
      sign(
        'account.updated',
        accountJson(accountOf(accountId)),
        options,
        STRIPE_FAKE_CONNECT_SECRET,
        accountId,
      ),
    transferReversed: (transferId, options = {}) =>
      sign('transfer.reversed', transferJson(transferOf(transferId)), options, STRIPE_FAKE_PLATFORM_SECRET),
    bankPayout: (accountId, outcome, options = {}) => {
      accountOf(accountId);
      const created = options.created ?? now();
      const payout = {
        id: options.payoutId ?? next('po'),
        object: 'payout',
        amount: 0,
        currency: 'usd',
        created,
        arrival_date: created + 2 * 86_400,
        status: outcome,
        failure_code: outcome === 'failed' ? (options.failureCode ?? 'account_closed') : null,
        failure_message: outcome === 'failed' ? 'The bank account has been closed.' : null,
      };
      return sign(`payout.${outcome}`, payout, options, STRIPE_FAKE_CONNECT_SECRET, accountId);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
