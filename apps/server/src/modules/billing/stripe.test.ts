/**
 * Stripe: the real SDK against a local fake of the Stripe API (STRIPE_API_BASE), and webhook
 * deliveries signed with Stripe.webhooks.generateTestHeaderString.
 */
import { DEFAULT_PLANS } from '@tunedrop/shared/schemas/brand';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentEvents, profiles } from '../../db/schema';
import { stripeConnectionOptions } from '../../infra/payments/stripe-provider';
import {
  deliverWebhook,
  FAKE_PRICES,
  type FakeStripe,
  fakeSubscription,
  startFakeStripe,
  stripeEnv,
  stripeEvent,
  subscriberGate,
} from '../../test-support/billing-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;
let fake: FakeStripe;

beforeAll(async () => {
  fake = await startFakeStripe();
  system = await createTestSystem(stripeEnv(fake));
});

afterAll(async () => {
  await system?.close();
  await fake?.close();
});

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const inDays = (days: number) => seconds(new Date(Date.now() + days * 86_400_000));

async function profileOf(userId: string) {
  const [row] = await system.db.select().from(profiles).where(eq(profiles.id, userId));
  if (!row) throw new Error('no profile');
  return row;
}

/** An inactive user with a Stripe customer id, as after create-checkout. */
async function customerUser(customer: string) {
  const user = await system.signedInUser({ subscription: 'inactive' });
  await system.db.update(profiles).set({ paymentCustomerId: customer }).where(eq(profiles.id, user.userId));
  return user;
}

describe('STRIPE_API_BASE', () => {
  it('is parsed into the SDK host, port and protocol', () => {
    expect(stripeConnectionOptions('http://127.0.0.1:12111')).toEqual({
      host: '127.0.0.1',
      port: '12111',
      protocol: 'http',
    });
    expect(stripeConnectionOptions('https://stripe.internal')).toEqual({
      host: 'stripe.internal',
      port: 443,
      protocol: 'https',
    });
    expect(stripeConnectionOptions(undefined)).toEqual({});
  });
});

describe('create-checkout with Stripe', () => {
  it('creates a customer and a subscription Checkout Session with the plan price and absolute return URLs', async () => {
    const user = await system.signedInUser({ subscription: 'inactive' });
    const response = await system.request('/api/billing/create-checkout', {
      method: 'POST',
      cookie: user.cookie,
      json: {
        plan: 'pro',
        successUrl: '/dashboard?success=true',
        cancelUrl: '/checkout?plan=pro&canceled=true',
      },
    });
    expect(response.status).toBe(200);
    const body = await readJson(response);
    expect(body.url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_fake_/);
    expect(body.planChange).toBeNull();
    const session = fake.requests.find((request) => request.path === '/v1/checkout/sessions');
    expect(session?.params).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': FAKE_PRICES.pro,
      success_url: 'http://localhost:3000/dashboard?success=true',
      cancel_url: 'http://localhost:3000/checkout?plan=pro&canceled=true',
      client_reference_id: user.userId,
      'subscription_data[metadata][userId]': user.userId,
    });
    const profile = await profileOf(user.userId);
    expect(profile.paymentCustomerId).toBe(session?.params.customer);
  });

  it('accepts a configured price id instead of a plan, and refuses an unknown one', async () => {
    const user = await system.signedInUser({ subscription: 'inactive' });
    const ok = await system.request('/api/billing/create-checkout', {
      method: 'POST',
      cookie: user.cookie,
      json: {
        priceId: FAKE_PRICES.basic,
        successUrl: '/dashboard/account?success=true',
        cancelUrl: '/dashboard/account?canceled=true',
      },
    });
    expect(ok.status).toBe(200);
    const unknown = await system.request('/api/billing/create-checkout', {
      method: 'POST',
      cookie: user.cookie,
      json: { priceId: 'price_someone_elses', successUrl: '/dashboard', cancelUrl: '/dashboard' },
    });
    expect(unknown.status).toBe(422);
    expect((await readJson(unknown)).error.fields.priceId).toBe('This price is not one of our plans.');
  });

  it.each([
    'https://evil.example/dashboard?success=true',
    '//evil.example/dashboard',
    'javascript:alert(1)',
    'http://localhost:3001/dashboard',
    'dashboard?success=true',
    '/\\evil.example',
  ])('refuses a successUrl that is not a page of this app: %s', async (successUrl) => {
    const user = await system.signedInUser({ subscription: 'inactive' });
    const before = fake.requests.length;
    const response = await system.request('/api/billing/create-checkout', {
      method: 'POST',
      cookie: user.cookie,
      json: { plan: 'basic', successUrl, cancelUrl: '/checkout?canceled=true' },
    });
    expect(response.status).toBe(422);
    expect((await readJson(response)).error.fields).toEqual({ successUrl: 'Must be a page of this site.' });
    expect(fake.requests.length).toBe(before);
  });

  it('accepts an absolute URL on our own origin', async () => {
    const user = await system.signedInUser({ subscription: 'inactive' });
    const response = await system.request('/api/billing/create-checkout', {
      method: 'POST',
      cookie: user.cookie,
      json: {
        plan: 'basic',
        successUrl: 'http://localhost:3000/dashboard?success=true',
        cancelUrl: '/checkout?plan=basic&canceled=true',
      },
    });
    expect(response.status).toBe(200);
  });

  it('needs a signed-in user', async () => {
    const response = await system.request('/api/billing/create-checkout', {
      method: 'POST',
      json: { plan: 'basic', successUrl: '/dashboard', cancelUrl: '/dashboard' },
    });
    expect(response.status).toBe(401);
  });
});

describe('POST /api/payments/webhook', () => {
  it('applies a genuine checkout completion: reads the subscription, links the customer, activates the plan', async () => {
    const user = await system.signedInUser({ subscription: 'inactive' });
    const periodEnd = inDays(30);
    fake.subscriptions.set(
      'sub_valid',
      fakeSubscription({ id: 'sub_valid', customer: 'cus_valid', price: FAKE_PRICES.pro, periodEnd }),
    );
    const response = await deliverWebhook(
      system,
      stripeEvent('evt_valid_1', 'checkout.session.completed', inDays(0), {
        id: 'cs_valid',
        object: 'checkout.session',
        mode: 'subscription',
        customer: 'cus_valid',
        subscription: 'sub_valid',
        client_reference_id: user.userId,
      }),
    );
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ received: true, outcome: 'applied' });
    expect(fake.requests.some((r) => r.method === 'GET' && r.path === '/v1/subscriptions/sub_valid')).toBe(
      true,
    );
    const profile = await profileOf(user.userId);
    expect(profile).toMatchObject({
      subscriptionStatus: 'active',
      plan: 'pro',
      pendingPlan: null,
      paymentCustomerId: 'cus_valid',
      paymentSubscriptionId: 'sub_valid',
    });
    expect(profile.subscriptionEnd?.getTime()).toBe(periodEnd * 1000);
    const me = await readJson(await system.request('/api/me', { cookie: user.cookie }));
    expect(me.profile.subscriptionStatus).toBe('active');
  });

  it('refuses a forged delivery: wrong secret, no signature, or a body other than the one signed', async () => {
    const user = await customerUser('cus_forged');
    const event = stripeEvent('evt_forged_1', 'customer.subscription.created', inDays(0), {
      ...fakeSubscription({ id: 'sub_forged', customer: 'cus_forged', periodEnd: inDays(30) }),
    });
    const wrongSecret = await deliverWebhook(system, event, { secret: 'whsec_attacker' });
    expect(wrongSecret.status).toBe(400);
    expect((await readJson(wrongSecret)).error.code).toBe('invalid_webhook_signature');
    const unsigned = await deliverWebhook(system, event, { signature: null });
    expect(unsigned.status).toBe(400);
    const tampered = await deliverWebhook(
      system,
      { ...event, id: 'evt_forged_2' },
      {
        body: JSON.stringify({ ...event, id: 'evt_forged_2', type: 'customer.subscription.deleted' }),
      },
    );
    expect(tampered.status).toBe(400);
    expect((await profileOf(user.userId)).subscriptionStatus).toBe('inactive');
    const recorded = await system.db.select().from(paymentEvents).where(eq(paymentEvents.id, 'evt_forged_1'));
    expect(recorded).toEqual([]);
  });

  it('records each event once: a replay is a no-op', async () => {
    const user = await customerUser('cus_replay');
    const event = stripeEvent(
      'evt_replay_1',
      'customer.subscription.created',
      inDays(0),
      fakeSubscription({ id: 'sub_replay', customer: 'cus_replay', periodEnd: inDays(30) }),
    );
    expect(await readJson(await deliverWebhook(system, event))).toMatchObject({ outcome: 'applied' });
    // Something later changes the profile (without a newer event time); the replay must not undo it.
    await system.db
      .update(profiles)
      .set({ subscriptionStatus: 'past_due', subscriptionStateAt: null })
      .where(eq(profiles.id, user.userId));
    const replay = await deliverWebhook(system, event);
    expect(replay.status).toBe(200);
    expect(await readJson(replay)).toEqual({ received: true, outcome: 'duplicate' });
    expect((await profileOf(user.userId)).subscriptionStatus).toBe('past_due');
    const recorded = await system.db.select().from(paymentEvents).where(eq(paymentEvents.id, 'evt_replay_1'));
    expect(recorded).toHaveLength(1);
  });

  it('tolerates events out of order: an older state never overwrites a newer one', async () => {
    const user = await customerUser('cus_order');
    const periodEnd = inDays(30);
    const base = { id: 'sub_order', customer: 'cus_order', periodEnd };
    const created = stripeEvent('evt_order_created', 'customer.subscription.created', inDays(0) - 300, {
      ...fakeSubscription(base),
    });
    const canceling = stripeEvent('evt_order_updated', 'customer.subscription.updated', inDays(0) - 100, {
      ...fakeSubscription({ ...base, cancelAtPeriodEnd: true }),
    });
    // The newer event arrives first…
    expect(await readJson(await deliverWebhook(system, canceling))).toMatchObject({ outcome: 'applied' });
    // …and the older one, arriving late, is recorded but changes nothing.
    expect(await readJson(await deliverWebhook(system, created))).toMatchObject({ outcome: 'stale' });
    let profile = await profileOf(user.userId);
    expect(profile.subscriptionStatus).toBe('canceled');
    expect(profile.cancelAtPeriodEnd).toBe(true);
    expect(profile.subscriptionEnd?.getTime()).toBe(periodEnd * 1000);

    const endedAt = inDays(0);
    const deleted = stripeEvent('evt_order_deleted', 'customer.subscription.deleted', inDays(0), {
      ...fakeSubscription({ ...base, status: 'canceled', endedAt }),
    });
    expect(await readJson(await deliverWebhook(system, deleted))).toMatchObject({ outcome: 'applied' });
    profile = await profileOf(user.userId);
    expect(profile.subscriptionStatus).toBe('canceled');
    expect(profile.cancelAtPeriodEnd).toBe(false);
    expect(profile.subscriptionEnd?.getTime()).toBe(endedAt * 1000);
  });

  it('turns a failed invoice into past_due, which the subscription gate refuses, until payment recovers', async () => {
    const user = await customerUser('cus_due');
    const base = { id: 'sub_due', customer: 'cus_due', periodEnd: inDays(30) };
    await deliverWebhook(
      system,
      stripeEvent('evt_due_1', 'customer.subscription.created', inDays(0) - 60, fakeSubscription(base)),
    );
    const failed = await deliverWebhook(
      system,
      stripeEvent('evt_due_2', 'invoice.payment_failed', inDays(0) - 30, {
        id: 'in_due',
        object: 'invoice',
        customer: 'cus_due',
        parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_due' } },
      }),
    );
    expect(await readJson(failed)).toMatchObject({ outcome: 'applied' });
    expect((await profileOf(user.userId)).subscriptionStatus).toBe('past_due');
    expect(await subscriberGate(system, user.cookie)).toEqual({
      status: 402,
      error: { code: 'subscription_required', message: 'Please subscribe to access the dashboard.' },
    });

    await deliverWebhook(
      system,
      stripeEvent('evt_due_3', 'customer.subscription.updated', inDays(0), fakeSubscription(base)),
    );
    expect((await profileOf(user.userId)).subscriptionStatus).toBe('active');
    expect((await subscriberGate(system, user.cookie)).status).toBe(200);
  });

  it('ignores a failed invoice of a subscription that is not the current one', async () => {
    const user = await customerUser('cus_other');
    await deliverWebhook(
      system,
      stripeEvent(
        'evt_other_1',
        'customer.subscription.created',
        inDays(0) - 10,
        fakeSubscription({ id: 'sub_current', customer: 'cus_other', periodEnd: inDays(30) }),
      ),
    );
    const failed = await deliverWebhook(
      system,
      stripeEvent('evt_other_2', 'invoice.payment_failed', inDays(0), {
        id: 'in_other',
        object: 'invoice',
        customer: 'cus_other',
        parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_old' } },
      }),
    );
    expect(await readJson(failed)).toMatchObject({ outcome: 'ignored' });
    expect((await profileOf(user.userId)).subscriptionStatus).toBe('active');
  });

  it('keeps a mid-period price change pending until the next billing cycle', async () => {
    const user = await customerUser('cus_switch');
    const periodEnd = inDays(30);
    const base = { id: 'sub_switch', customer: 'cus_switch', periodEnd };
    await deliverWebhook(
      system,
      stripeEvent('evt_switch_1', 'customer.subscription.created', inDays(0) - 60, fakeSubscription(base)),
    );
    await deliverWebhook(
      system,
      stripeEvent(
        'evt_switch_2',
        'customer.subscription.updated',
        inDays(0) - 30,
        fakeSubscription({ ...base, price: FAKE_PRICES.pro }),
      ),
    );
    let profile = await profileOf(user.userId);
    expect(profile.plan).toBe('basic');
    expect(profile.pendingPlan).toBe('pro');

    const nextPeriodEnd = periodEnd + 30 * 86_400;
    await deliverWebhook(
      system,
      stripeEvent(
        'evt_switch_3',
        'customer.subscription.updated',
        inDays(0),
        fakeSubscription({ ...base, price: FAKE_PRICES.pro, periodEnd: nextPeriodEnd }),
      ),
    );
    profile = await profileOf(user.userId);
    expect(profile.plan).toBe('pro');
    expect(profile.pendingPlan).toBeNull();
    expect(profile.subscriptionEnd?.getTime()).toBe(nextPeriodEnd * 1000);
  });

  it('records and ignores event types it does not handle', async () => {
    const response = await deliverWebhook(
      system,
      stripeEvent('evt_ignored_1', 'charge.refunded', inDays(0), { id: 'ch_1', object: 'charge' }),
    );
    expect(await readJson(response)).toEqual({ received: true, outcome: 'ignored' });
  });
});

describe('webhook events in the same second, and events for a customer not known yet', () => {
  const second = inDays(0) - 20;

  it('two genuinely signed events of one second (deleted, then updated) end in what Stripe says: canceled', async () => {
    const user = await customerUser('cus_tie_a');
    const base = { id: 'sub_tie_a', customer: 'cus_tie_a', periodEnd: inDays(30) };
    await deliverWebhook(
      system,
      stripeEvent('evt_tie_a0', 'customer.subscription.created', second - 60, fakeSubscription(base)),
    );
    // Stripe's truth now: the subscription was deleted.
    const ended = fakeSubscription({ ...base, status: 'canceled', endedAt: second });
    fake.subscriptions.set('sub_tie_a', ended);
    const deleted = stripeEvent('evt_tie_a1', 'customer.subscription.deleted', second, ended);
    // An update from just before the deletion, stamped with the same second, arrives last.
    const updated = stripeEvent(
      'evt_tie_a2',
      'customer.subscription.updated',
      second,
      fakeSubscription(base),
    );
    expect(await readJson(await deliverWebhook(system, deleted))).toMatchObject({ outcome: 'applied' });
    const late = await deliverWebhook(system, updated);
    expect(late.status).toBe(200);
    expect(await readJson(late)).toMatchObject({ outcome: 'applied' });
    const profile = await profileOf(user.userId);
    expect(profile.subscriptionStatus).toBe('canceled');
    expect(profile.subscriptionEnd?.getTime()).toBe(second * 1000);
    expect(
      fake.requests.some(
        (request) => request.path === '/v1/subscriptions' && request.params.customer === 'cus_tie_a',
      ),
    ).toBe(true);
    // Both are recorded once: replays stay no-ops.
    expect(await readJson(await deliverWebhook(system, updated))).toMatchObject({ outcome: 'duplicate' });
  });

  it('the same pair in the other order ends the same way, and a resumed subscription wins when that is the truth', async () => {
    const user = await customerUser('cus_tie_b');
    const base = { id: 'sub_tie_b', customer: 'cus_tie_b', periodEnd: inDays(30) };
    const ended = fakeSubscription({ ...base, status: 'canceled', endedAt: second });
    fake.subscriptions.set('sub_tie_b', ended);
    await deliverWebhook(
      system,
      stripeEvent('evt_tie_b1', 'customer.subscription.updated', second, fakeSubscription(base)),
    );
    await deliverWebhook(system, stripeEvent('evt_tie_b2', 'customer.subscription.deleted', second, ended));
    expect((await profileOf(user.userId)).subscriptionStatus).toBe('canceled');

    // Canceling at the period end, then resumed, both in one second, delivered resumed-first.
    const other = await customerUser('cus_tie_c');
    const running = { id: 'sub_tie_c', customer: 'cus_tie_c', periodEnd: inDays(30) };
    fake.subscriptions.set('sub_tie_c', fakeSubscription(running));
    await deliverWebhook(
      system,
      stripeEvent('evt_tie_c1', 'customer.subscription.updated', second, fakeSubscription(running)),
    );
    await deliverWebhook(
      system,
      stripeEvent(
        'evt_tie_c2',
        'customer.subscription.updated',
        second,
        fakeSubscription({ ...running, cancelAtPeriodEnd: true }),
      ),
    );
    const profile = await profileOf(other.userId);
    expect(profile.subscriptionStatus).toBe('active');
    expect(profile.cancelAtPeriodEnd).toBe(false);
  });

  it('an event for a customer no account has yet is answered non-2xx, not recorded, and applies on the retry', async () => {
    const base = { id: 'sub_later', customer: 'cus_later', periodEnd: inDays(30) };
    const event = stripeEvent('evt_later_1', 'customer.subscription.created', second, fakeSubscription(base));
    const first = await deliverWebhook(system, event);
    expect(first.status).toBe(409);
    expect((await readJson(first)).error.code).toBe('customer_not_found');
    expect(await system.db.select().from(paymentEvents).where(eq(paymentEvents.id, 'evt_later_1'))).toEqual(
      [],
    );

    // The profile gets its customer id (create-checkout committing); Stripe's retry then applies.
    const user = await customerUser('cus_later');
    const retry = await deliverWebhook(system, event);
    expect(retry.status).toBe(200);
    expect(await readJson(retry)).toMatchObject({ outcome: 'applied' });
    expect((await profileOf(user.userId)).subscriptionStatus).toBe('active');
  });
});

describe('check-subscription and customer-portal with Stripe', () => {
  it('reconciles with Stripe: a subscription the webhook never reported becomes visible', async () => {
    const user = await customerUser('cus_reconcile');
    const periodEnd = inDays(20);
    fake.subscriptions.set(
      'sub_reconcile',
      fakeSubscription({ id: 'sub_reconcile', customer: 'cus_reconcile', price: FAKE_PRICES.pro, periodEnd }),
    );
    const response = await system.request('/api/billing/check-subscription', {
      method: 'POST',
      cookie: user.cookie,
    });
    expect(response.status).toBe(200);
    expect(await readJson(response)).toMatchObject({
      subscription_status: 'active',
      subscription_end: new Date(periodEnd * 1000).toISOString(),
      plan: 'pro',
      has_subscription: true,
    });
  });

  it('answers the stored state when the user has no customer yet', async () => {
    const user = await system.signedInUser({ subscription: 'inactive' });
    const response = await system.request('/api/billing/check-subscription', {
      method: 'POST',
      cookie: user.cookie,
    });
    expect(await readJson(response)).toMatchObject({
      subscription_status: 'inactive',
      subscription_end: null,
    });
  });

  it('opens a Billing Portal session that returns to the account page', async () => {
    const user = await customerUser('cus_portal');
    await system.db
      .update(profiles)
      .set({ paymentSubscriptionId: 'sub_portal' })
      .where(eq(profiles.id, user.userId));
    const response = await system.request('/api/billing/customer-portal', {
      method: 'POST',
      cookie: user.cookie,
    });
    expect(response.status).toBe(200);
    expect((await readJson(response)).url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\//);
    const call = fake.requests.findLast((request) => request.path === '/v1/billing_portal/sessions');
    expect(call?.params).toMatchObject({
      customer: 'cus_portal',
      return_url: 'http://localhost:3000/dashboard/account',
    });
  });

  it('schedules a plan change on the running subscription instead of a second checkout', async () => {
    const user = await customerUser('cus_upgrade');
    const periodEnd = inDays(25);
    fake.subscriptions.set(
      'sub_upgrade',
      fakeSubscription({ id: 'sub_upgrade', customer: 'cus_upgrade', periodEnd, userId: user.userId }),
    );
    await deliverWebhook(
      system,
      stripeEvent(
        'evt_upgrade_1',
        'customer.subscription.created',
        inDays(0) - 5,
        fake.subscriptions.get('sub_upgrade'),
      ),
    );
    const response = await system.request('/api/billing/create-checkout', {
      method: 'POST',
      cookie: user.cookie,
      json: {
        plan: 'pro',
        successUrl: '/dashboard/account?success=true',
        cancelUrl: '/dashboard/account?canceled=true',
      },
    });
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({
      url: 'http://localhost:3000/dashboard/account?success=true',
      planChange: { plan: 'pro', effectiveAt: new Date(periodEnd * 1000).toISOString() },
    });
    const update = fake.requests.findLast((request) => request.path === '/v1/subscriptions/sub_upgrade');
    expect(update?.params).toMatchObject({ 'items[0][price]': FAKE_PRICES.pro, proration_behavior: 'none' });
    const profile = await profileOf(user.userId);
    expect(profile.plan).toBe('basic');
    expect(profile.pendingPlan).toBe('pro');
  });
});

describe('price ids saved in Plans (record 329)', () => {
  const OPERATOR_PRO = 'price_operator_pro';
  let adminCookie = '';
  const savePlans = (proPriceId: string) =>
    system.request('/api/admin/plans', {
      method: 'PUT',
      cookie: adminCookie,
      json: { ...DEFAULT_PLANS, pro: { ...DEFAULT_PLANS.pro, priceId: proPriceId } },
    });

  beforeAll(async () => {
    adminCookie = (await system.signedInUser({ roles: ['admin'] })).cookie;
    expect((await savePlans(OPERATOR_PRO)).status).toBe(200);
  });

  afterAll(async () => {
    // The other tests of this file expect the environment's prices.
    await savePlans('');
  });

  it("checkout creates the session with the saved id; a plan left empty keeps the environment's", async () => {
    const pro = await system.signedInUser({ subscription: 'inactive' });
    const proCheckout = await system.request('/api/billing/create-checkout', {
      method: 'POST',
      cookie: pro.cookie,
      json: { plan: 'pro', successUrl: '/dashboard', cancelUrl: '/checkout?plan=pro' },
    });
    expect(proCheckout.status).toBe(200);
    const proSession = fake.requests.findLast((request) => request.path === '/v1/checkout/sessions');
    expect(proSession?.params).toMatchObject({
      'line_items[0][price]': OPERATOR_PRO,
      client_reference_id: pro.userId,
    });

    // The saved id is also accepted as the checkout's priceId; the basic plan has none saved.
    const byPrice = await system.signedInUser({ subscription: 'inactive' });
    const byPriceCheckout = await system.request('/api/billing/create-checkout', {
      method: 'POST',
      cookie: byPrice.cookie,
      json: { priceId: OPERATOR_PRO, successUrl: '/dashboard', cancelUrl: '/dashboard' },
    });
    expect(byPriceCheckout.status).toBe(200);
    expect(
      fake.requests.findLast((request) => request.path === '/v1/checkout/sessions')?.params,
    ).toMatchObject({ 'line_items[0][price]': OPERATOR_PRO, client_reference_id: byPrice.userId });

    const basic = await system.signedInUser({ subscription: 'inactive' });
    const basicCheckout = await system.request('/api/billing/create-checkout', {
      method: 'POST',
      cookie: basic.cookie,
      json: { plan: 'basic', successUrl: '/dashboard', cancelUrl: '/checkout?plan=basic' },
    });
    expect(basicCheckout.status).toBe(200);
    expect(
      fake.requests.findLast((request) => request.path === '/v1/checkout/sessions')?.params,
    ).toMatchObject({ 'line_items[0][price]': FAKE_PRICES.basic, client_reference_id: basic.userId });
  });

  it('a subscription of the saved price is the pro plan, by webhook and by reconciliation', async () => {
    const user = await system.signedInUser({ subscription: 'inactive' });
    fake.subscriptions.set(
      'sub_operator',
      fakeSubscription({
        id: 'sub_operator',
        customer: 'cus_operator',
        price: OPERATOR_PRO,
        periodEnd: inDays(30),
      }),
    );
    const response = await deliverWebhook(
      system,
      stripeEvent('evt_operator_1', 'checkout.session.completed', inDays(0), {
        id: 'cs_operator',
        object: 'checkout.session',
        mode: 'subscription',
        customer: 'cus_operator',
        subscription: 'sub_operator',
        client_reference_id: user.userId,
      }),
    );
    expect(response.status).toBe(200);
    expect(await profileOf(user.userId)).toMatchObject({
      subscriptionStatus: 'active',
      plan: 'pro',
      paymentSubscriptionId: 'sub_operator',
    });

    const reconciled = await customerUser('cus_operator_reconcile');
    fake.subscriptions.set(
      'sub_operator_reconcile',
      fakeSubscription({
        id: 'sub_operator_reconcile',
        customer: 'cus_operator_reconcile',
        price: OPERATOR_PRO,
        periodEnd: inDays(20),
      }),
    );
    const check = await system.request('/api/billing/check-subscription', {
      method: 'POST',
      cookie: reconciled.cookie,
    });
    expect(await readJson(check)).toMatchObject({ subscription_status: 'active', plan: 'pro' });
  });
});
