/**
 * Payee accounts (issue 27, record 175): who is one, the operator's payee minimum enforced on withdrawal
 * requests, "Payee" in the admin list and /api/me, and the plan minimums unchanged for everyone else.
 */
import { randomBytes } from 'node:crypto';
import { PAYEE_TEXTS } from '@tunedrop/shared/schemas/wallet';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { profiles, settings, splitPayees } from '../../db/schema';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { fundUser, savePaypal } from '../../test-support/wallet-fixtures';
import { PAYEE_MINIMUM_SETTING } from './payees';

let system: TestSystem;
let owner: Awaited<ReturnType<TestSystem['signedInUser']>>;
let admin: Awaited<ReturnType<TestSystem['signedInUser']>>;
let releaseId: string;

beforeAll(async () => {
  system = await createTestSystem();
  owner = await system.signedInUser({ plan: 'pro' });
  admin = await system.signedInUser({ roles: ['admin'] });
  ({ releaseId } = await createTestRelease(system, owner.userId, { status: 'live' }));
});
afterAll(async () => {
  await system.close();
});

/** A split invitation of the owner's release to `email`: pending, or accepted by `userId`. */
async function invite(email: string, accepted?: { userId: string }) {
  await system.db.insert(splitPayees).values({
    releaseId,
    email,
    tokenHash: randomBytes(16).toString('hex'),
    invitedBy: owner.userId,
    ...(accepted ? { status: 'accepted', userId: accepted.userId, acceptedAt: new Date() } : {}),
  });
}

/** Someone without a subscription, signed in, holding `balanceCents` with PayPal details saved. */
async function withoutPlan(balanceCents = 0) {
  const user = await system.signedInUser({ subscription: 'inactive' });
  if (balanceCents) await fundUser(system, user.userId, balanceCents);
  await savePaypal(system, user.userId);
  return user;
}

const wallet = async (cookie: string) => readJson(await system.request('/api/wallet', { cookie }));
const me = async (cookie: string) => readJson(await system.request('/api/me', { cookie }));
const withdraw = (cookie: string, amount: unknown) =>
  system.request('/api/wallet/withdrawals', { method: 'POST', cookie, json: { amount } });
const setPayeeMinimum = (minimumWithdrawal: unknown, cookie = admin.cookie) =>
  system.request('/api/admin/wallet/payee-settings', {
    method: 'PUT',
    cookie,
    json: { minimumWithdrawal },
  });

describe('who is a payee', () => {
  it('an account invited to a split (pending) or holding an accepted share, never subscribed', async () => {
    const invited = await withoutPlan();
    await invite(invited.email);
    expect((await me(invited.cookie)).isPayee).toBe(true);

    const accepted = await withoutPlan();
    await invite(accepted.email, { userId: accepted.userId });
    expect((await me(accepted.cookie)).isPayee).toBe(true);
  });

  it('not an artist from the pricing flow without an invitation, nor a subscriber, nor a withdrawn invitee', async () => {
    const unpaid = await withoutPlan();
    expect((await me(unpaid.cookie)).isPayee).toBe(false);

    const subscriber = await system.signedInUser({ plan: 'basic' });
    await invite(subscriber.email, { userId: subscriber.userId });
    expect((await me(subscriber.cookie)).isPayee).toBe(false);

    // Once they subscribe (the provider's event sets the state), a payee is an artist like any other.
    const later = await withoutPlan();
    await invite(later.email, { userId: later.userId });
    await system.db
      .update(profiles)
      .set({
        subscriptionStatus: 'active',
        subscriptionStateAt: new Date(),
        subscriptionEnd: new Date(Date.now() + 864e5),
      })
      .where(eq(profiles.id, later.userId));
    expect((await me(later.cookie)).isPayee).toBe(false);

    const withdrawn = await withoutPlan();
    await system.db.insert(splitPayees).values({
      releaseId,
      email: withdrawn.email,
      tokenHash: randomBytes(16).toString('hex'),
      status: 'withdrawn',
      withdrawnAt: new Date(),
    });
    expect((await me(withdrawn.cookie)).isPayee).toBe(false);
  });
});

describe('the payee minimum', () => {
  // Each case starts from the default, whichever ran before it (the files' cases run in any order).
  beforeEach(async () => {
    await system.db.delete(settings).where(eq(settings.key, PAYEE_MINIMUM_SETTING));
  });

  it('defaults to $50, is set by an admin, and the server holds payees to it', async () => {
    const payee = await withoutPlan(1500);
    await invite(payee.email, { userId: payee.userId });
    expect(await wallet(payee.cookie)).toMatchObject({
      isPayee: true,
      minimumWithdrawalCents: 5000,
      hasProMinimum: false,
    });
    const refused = await withdraw(payee.cookie, '15');
    expect(refused.status).toBe(422);
    expect((await readJson(refused)).error.message).toBe(
      'Minimum withdrawal is $50.00. Your balance: $15.00',
    );

    const saved = await setPayeeMinimum('10');
    expect(saved.status).toBe(200);
    expect(await readJson(saved)).toEqual({ minimumWithdrawalCents: 1000, source: 'settings' });
    expect(await wallet(payee.cookie)).toMatchObject({ isPayee: true, minimumWithdrawalCents: 1000 });

    const tooLow = await withdraw(payee.cookie, '9.99');
    expect(tooLow.status).toBe(422);
    expect((await readJson(tooLow)).error.message).toBe('Minimum withdrawal is $10.00');
    expect((await withdraw(payee.cookie, '12')).status).toBe(201);
  });

  it('leaves the Basic and Pro minimums as the spec says', async () => {
    expect((await setPayeeMinimum('5')).status).toBe(200);
    const basic = await system.signedInUser({ plan: 'basic' });
    await fundUser(system, basic.userId, 3000);
    await savePaypal(system, basic.userId);
    expect(await wallet(basic.cookie)).toMatchObject({ isPayee: false, minimumWithdrawalCents: 5000 });
    expect((await withdraw(basic.cookie, '30')).status).toBe(422);

    const pro = await system.signedInUser({ plan: 'pro' });
    expect(await wallet(pro.cookie)).toMatchObject({ isPayee: false, minimumWithdrawalCents: 2000 });

    // An artist from the pricing flow who never paid keeps Basic's minimum.
    const unpaid = await withoutPlan(3000);
    expect(await wallet(unpaid.cookie)).toMatchObject({ isPayee: false, minimumWithdrawalCents: 5000 });
  });

  it('refuses amounts out of bounds or malformed, and non-admins', async () => {
    expect((await setPayeeMinimum('5')).status).toBe(200);
    for (const value of ['0', '0.99', '1000.01', '12.345', '-5', 'ten', '']) {
      const response = await setPayeeMinimum(value);
      expect(response.status, value).toBe(422);
      expect((await readJson(response)).error.fields.minimumWithdrawal).toBe(PAYEE_TEXTS.minimumInvalid);
    }
    expect((await setPayeeMinimum('20', owner.cookie)).status).toBe(403);
    const read = await system.request('/api/admin/wallet/payee-settings', { cookie: admin.cookie });
    expect((await readJson(read)).minimumWithdrawalCents).toBe(500);
  });
});

describe('the admin users list', () => {
  it('marks a payee, and not an artist on the Basic plan', async () => {
    const payee = await withoutPlan();
    await invite(payee.email, { userId: payee.userId });
    const basic = await system.signedInUser({ plan: 'basic' });
    const list = async (q: string) => {
      const body = await readJson(
        await system.request(`/api/admin/users?q=${encodeURIComponent(q)}`, { cookie: admin.cookie }),
      );
      return body.users as { email: string; plan: string; isPayee: boolean }[];
    };
    expect(await list(payee.email)).toEqual([expect.objectContaining({ email: payee.email, isPayee: true })]);
    expect(await list(basic.email)).toEqual([
      expect.objectContaining({ email: basic.email, plan: 'basic', isPayee: false }),
    ]);
    const firstPage = await list('');
    expect(firstPage.find((row) => row.email === payee.email)?.isPayee).toBe(true);
  });
});
