/** The payment sandbox through the API: checkout Pay and Cancel, the portal, and time passing. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentEvents, profiles } from '../../db/schema';
import { subscriberGate } from '../../test-support/billing-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

let system: TestSystem;

beforeAll(async () => {
  system = await createTestSystem();
});

afterAll(async () => {
  await system?.close();
});

const DAY = 86_400_000;

async function profileOf(userId: string) {
  const [row] = await system.db.select().from(profiles).where(eq(profiles.id, userId));
  if (!row) throw new Error('no profile');
  return row;
}

async function startCheckout(cookie: string, plan: 'basic' | 'pro') {
  const response = await system.request('/api/billing/create-checkout', {
    method: 'POST',
    cookie,
    json: { plan, successUrl: '/dashboard?success=true', cancelUrl: `/checkout?plan=${plan}&canceled=true` },
  });
  expect(response.status).toBe(200);
  const body = await readJson(response);
  const id = new URL(body.url).pathname.split('/').pop() as string;
  return { url: body.url as string, id };
}

async function subscribed(plan: 'basic' | 'pro' = 'basic') {
  const user = await system.signedInUser({ subscription: 'inactive', plan: 'basic' });
  const { id } = await startCheckout(user.cookie, plan);
  const pay = await system.request(`/api/billing/sandbox/checkouts/${id}/pay`, {
    method: 'POST',
    cookie: user.cookie,
  });
  expect(pay.status).toBe(200);
  return user;
}

async function portal(cookie: string, json: unknown) {
  return system.request('/api/billing/sandbox/portal', { method: 'POST', cookie, json });
}

async function checkSubscription(cookie: string) {
  const response = await system.request('/api/billing/check-subscription', { method: 'POST', cookie });
  expect(response.status).toBe(200);
  return readJson(response);
}

describe('sandbox checkout', () => {
  it('Pay runs the webhook code path: active, plan set, period end a month ahead, event recorded', async () => {
    const user = await system.signedInUser({ subscription: 'inactive', plan: 'basic' });
    expect((await subscriberGate(system, user.cookie)).status).toBe(402);
    const { url, id } = await startCheckout(user.cookie, 'pro');
    expect(url).toBe(`http://localhost:3000/sandbox/checkout/${id}`);

    const page = await system.request(`/api/billing/sandbox/checkouts/${id}`, { cookie: user.cookie });
    expect(await readJson(page)).toMatchObject({
      id,
      plan: 'pro',
      planName: 'Pro',
      priceLabel: '$19.99',
      status: 'open',
    });

    const pay = await system.request(`/api/billing/sandbox/checkouts/${id}/pay`, {
      method: 'POST',
      cookie: user.cookie,
    });
    expect(await readJson(pay)).toEqual({ redirectUrl: 'http://localhost:3000/dashboard?success=true' });
    const profile = await profileOf(user.userId);
    expect(profile).toMatchObject({ subscriptionStatus: 'active', plan: 'pro', cancelAtPeriodEnd: false });
    const monthAhead = profile.subscriptionEnd ? profile.subscriptionEnd.getTime() - Date.now() : 0;
    expect(monthAhead).toBeGreaterThan(27 * DAY);
    expect(monthAhead).toBeLessThan(32 * DAY);
    expect(profile.paymentSubscriptionId).toMatch(/^sub_sbx_/);
    const events = await system.db.select().from(paymentEvents);
    expect(
      events.some((event) => event.type === 'checkout.session.completed' && event.id.startsWith('evt_sbx_')),
    ).toBe(true);
    expect((await subscriberGate(system, user.cookie)).status).toBe(200);
    expect(await checkSubscription(user.cookie)).toMatchObject({
      subscription_status: 'active',
      subscription_end: profile.subscriptionEnd?.toISOString(),
      plan: 'pro',
      has_subscription: true,
    });

    // A second click on Pay lands on the same page and starts nothing new.
    const again = await system.request(`/api/billing/sandbox/checkouts/${id}/pay`, {
      method: 'POST',
      cookie: user.cookie,
    });
    expect(await readJson(again)).toEqual({ redirectUrl: 'http://localhost:3000/dashboard?success=true' });
    expect((await profileOf(user.userId)).paymentSubscriptionId).toBe(profile.paymentSubscriptionId);
  });

  it('Cancel sends the browser to the cancel URL and the checkout can no longer be paid', async () => {
    const user = await system.signedInUser({ subscription: 'inactive' });
    const { id } = await startCheckout(user.cookie, 'basic');
    const cancel = await system.request(`/api/billing/sandbox/checkouts/${id}/cancel`, {
      method: 'POST',
      cookie: user.cookie,
    });
    expect(await readJson(cancel)).toEqual({
      redirectUrl: 'http://localhost:3000/checkout?plan=basic&canceled=true',
    });
    const pay = await system.request(`/api/billing/sandbox/checkouts/${id}/pay`, {
      method: 'POST',
      cookie: user.cookie,
    });
    expect(pay.status).toBe(409);
    expect((await profileOf(user.userId)).subscriptionStatus).toBe('inactive');
  });

  it("hides another user's checkout", async () => {
    const owner = await system.signedInUser({ subscription: 'inactive' });
    const other = await system.signedInUser({ subscription: 'inactive' });
    const { id } = await startCheckout(owner.cookie, 'basic');
    const read = await system.request(`/api/billing/sandbox/checkouts/${id}`, { cookie: other.cookie });
    expect(read.status).toBe(404);
    const pay = await system.request(`/api/billing/sandbox/checkouts/${id}/pay`, {
      method: 'POST',
      cookie: other.cookie,
    });
    expect(pay.status).toBe(404);
    expect((await profileOf(other.userId)).subscriptionStatus).toBe('inactive');
    expect((await profileOf(owner.userId)).subscriptionStatus).toBe('inactive');
  });

  it('refuses a second subscription for the same plan', async () => {
    const user = await subscribed('basic');
    const response = await system.request('/api/billing/create-checkout', {
      method: 'POST',
      cookie: user.cookie,
      json: { plan: 'basic', successUrl: '/dashboard', cancelUrl: '/dashboard' },
    });
    expect(response.status).toBe(409);
    expect((await readJson(response)).error.message).toBe('You are already subscribed to the Basic plan.');
  });
});

describe('sandbox portal', () => {
  it('the customer portal opens /sandbox/portal', async () => {
    const user = await subscribed();
    const response = await system.request('/api/billing/customer-portal', {
      method: 'POST',
      cookie: user.cookie,
    });
    expect(await readJson(response)).toEqual({ url: 'http://localhost:3000/sandbox/portal' });
  });

  it('needs a subscription to manage', async () => {
    const user = await system.signedInUser({ subscription: 'inactive' });
    const response = await system.request('/api/billing/customer-portal', {
      method: 'POST',
      cookie: user.cookie,
    });
    expect(response.status).toBe(409);
    expect((await readJson(response)).error.message).toBe(
      'You have no subscription to manage yet. Choose a plan first.',
    );
  });

  it('an active subscription granted by an admin (no provider customer) is told why there is nothing to manage', async () => {
    const user = await system.signedInUser({ subscription: 'active' });
    const response = await system.request('/api/billing/customer-portal', {
      method: 'POST',
      cookie: user.cookie,
    });
    expect(response.status).toBe(409);
    expect((await readJson(response)).error.message).toBe(
      'Your subscription was granted by the Tunedrop team, so there is no billing to manage. Contact support to change it.',
    );
  });

  it('cancel at period end keeps access until the end; resume restores it', async () => {
    const user = await subscribed();
    const end = (await profileOf(user.userId)).subscriptionEnd?.toISOString();
    const canceled = await readJson(await portal(user.cookie, { action: 'cancel' }));
    expect(canceled).toMatchObject({
      subscription_status: 'canceled',
      subscription_end: end,
      cancel_at_period_end: true,
    });
    expect((await subscriberGate(system, user.cookie)).status).toBe(200);
    expect((await portal(user.cookie, { action: 'cancel' })).status).toBe(409);

    const resumed = await readJson(await portal(user.cookie, { action: 'resume' }));
    expect(resumed).toMatchObject({
      subscription_status: 'active',
      subscription_end: end,
      cancel_at_period_end: false,
    });
  });

  it('a canceled subscription ends at its period end, and the gate closes', async () => {
    const user = await subscribed();
    await portal(user.cookie, { action: 'cancel' });
    const past = new Date(Date.now() - DAY);
    await system.db.update(profiles).set({ subscriptionEnd: past }).where(eq(profiles.id, user.userId));
    const state = await checkSubscription(user.cookie);
    expect(state).toMatchObject({
      subscription_status: 'canceled',
      cancel_at_period_end: false,
      subscription_end: past.toISOString(),
    });
    expect((await subscriberGate(system, user.cookie)).status).toBe(402);
    expect((await portal(user.cookie, { action: 'resume' })).status).toBe(409);
  });

  it('switching plan takes effect at the next billing cycle (FAQ), then renews on the new plan', async () => {
    const user = await subscribed('basic');
    const switched = await readJson(await portal(user.cookie, { action: 'switch_plan', plan: 'pro' }));
    expect(switched).toMatchObject({ plan: 'basic', pending_plan: 'pro', subscription_status: 'active' });
    // Switching back before the cycle ends cancels the pending change.
    expect(await readJson(await portal(user.cookie, { action: 'switch_plan', plan: 'basic' }))).toMatchObject(
      {
        plan: 'basic',
        pending_plan: null,
      },
    );
    await portal(user.cookie, { action: 'switch_plan', plan: 'pro' });

    // The period ends: the sandbox renews the subscription on its new price.
    const lastEnd = new Date(Date.now() - 1000);
    await system.db.update(profiles).set({ subscriptionEnd: lastEnd }).where(eq(profiles.id, user.userId));
    const renewed = await checkSubscription(user.cookie);
    expect(renewed).toMatchObject({ subscription_status: 'active', plan: 'pro', pending_plan: null });
    expect(new Date(renewed.subscription_end).getTime()).toBeGreaterThan(Date.now() + 27 * DAY);
  });

  it('Upgrade to Pro from the account page schedules the change on the running subscription', async () => {
    const user = await subscribed('basic');
    const end = (await profileOf(user.userId)).subscriptionEnd?.toISOString();
    const response = await system.request('/api/billing/create-checkout', {
      method: 'POST',
      cookie: user.cookie,
      json: {
        plan: 'pro',
        successUrl: '/dashboard/account?success=true',
        cancelUrl: '/dashboard/account?canceled=true',
      },
    });
    expect(await readJson(response)).toEqual({
      url: 'http://localhost:3000/dashboard/account?success=true',
      planChange: { plan: 'pro', effectiveAt: end },
    });
    expect(await checkSubscription(user.cookie)).toMatchObject({ plan: 'basic', pending_plan: 'pro' });
  });

  it('refuses switching plans while the subscription is canceling', async () => {
    const user = await subscribed('basic');
    await portal(user.cookie, { action: 'cancel' });
    const response = await portal(user.cookie, { action: 'switch_plan', plan: 'pro' });
    expect(response.status).toBe(409);
    expect((await readJson(response)).error.message).toBe('Resume your subscription before switching plans.');
  });

  it('validates the action', async () => {
    const user = await subscribed();
    expect((await portal(user.cookie, { action: 'refund' })).status).toBe(422);
    expect((await portal(user.cookie, { action: 'switch_plan', plan: 'gold' })).status).toBe(422);
  });
});

describe('sandbox availability', () => {
  it('is refused when NODE_ENV=production, unless PAYMENTS_SANDBOX=1', async () => {
    const production = { NODE_ENV: 'production', APP_SECRET: 'x'.repeat(40) };
    const refused = await createTestSystem(production);
    try {
      const user = await refused.signedInUser({ subscription: 'inactive' });
      const checkout = await refused.request('/api/billing/create-checkout', {
        method: 'POST',
        cookie: user.cookie,
        json: { plan: 'basic', successUrl: '/dashboard', cancelUrl: '/dashboard' },
      });
      expect(checkout.status).toBe(503);
      const portalPage = await refused.request('/api/billing/sandbox/portal', { cookie: user.cookie });
      expect(portalPage.status).toBe(404);
    } finally {
      await refused.close();
    }
    const allowed = await createTestSystem({ ...production, PAYMENTS_SANDBOX: '1' });
    try {
      const user = await allowed.signedInUser({ subscription: 'inactive' });
      const checkout = await allowed.request('/api/billing/create-checkout', {
        method: 'POST',
        cookie: user.cookie,
        json: { plan: 'basic', successUrl: '/dashboard', cancelUrl: '/dashboard' },
      });
      expect(checkout.status).toBe(200);
      expect((await readJson(checkout)).url).toMatch(/\/sandbox\/checkout\/cs_sbx_/);
    } finally {
      await allowed.close();
    }
  });
});
