/**
 * The `payouts.poll` job against the local PayPal (issue 38): sent items move to paid or returned as PayPal
 * reports them; an item UNCLAIMED stays on its way for 29 days (however often it is polled) and is returned
 * to the payee's balance through the journal exactly once when a poll sees it 30 days after it was sent;
 * polling again, or PayPal's own RETURNED afterwards, changes nothing; `ledger:verify` holds after each.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payoutItems } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestSystem, type TestSystem } from '../../test-support/harness';
import { balancesOf, expectLedgerVerifies } from '../../test-support/money-checks';
import { type PaypalFake, startPaypalFake } from '../../test-support/paypal-fake';
import { fundUser, savePaypal } from '../../test-support/wallet-fixtures';
import { signTaxForm, w9Form } from '../tax';
import { pollSentPayouts } from './provider-events';
import { startPayoutRun } from './run-plan';
import { sendPayoutRun } from './run-send';
import { withholdingFor } from './withholding';

let system: TestSystem;
let fake: PaypalFake;
let people: Awaited<ReturnType<typeof staff>>;
type Person = Awaited<ReturnType<TestSystem['signedInUser']>>;
let unclaimed: Person;
let succeeds: Person;
let fails: Person;

const DAY = 86_400_000;

const balanceOf = (userId: string) => balancesOf(system, userId);

async function itemOf(userId: string) {
  const [row] = await system.db
    .select({ state: payoutItems.state, reason: payoutItems.returnReason, sentAt: payoutItems.sentAt })
    .from(payoutItems)
    .where(eq(payoutItems.userId, userId));
  if (!row) throw new Error('no payout item');
  return row;
}

const ledgerHolds = () => expectLedgerVerifies(system);

beforeAll(async () => {
  system = await createTestSystem();
  fake = await startPaypalFake();
  people = await staff(system);
  const amounts = { unclaimed: 6_000, succeeds: 5_100, fails: 5_200 } as const;
  for (const name of ['unclaimed', 'succeeds', 'fails'] as const) {
    const person = await system.signedInUser({ plan: 'basic', email: `poll.${name}@example.com` });
    await fundUser(system, person.userId, amounts[name]);
    await savePaypal(system, person.userId, `${name}.receiver@example.com`);
    await signTaxForm(
      system.db,
      system.config.appSecret,
      w9Form(`${name} payee`),
      { userId: person.userId, signedAt: new Date(), address: '127.0.0.1', userAgent: 'test' },
      { id: null, email: 'test' },
    );
    if (name === 'unclaimed') unclaimed = person;
    else if (name === 'succeeds') succeeds = person;
    else fails = person;
  }
  const saved = await system.request('/api/admin/payouts/providers', {
    method: 'PUT',
    cookie: people.admin.cookie,
    json: {
      provider: 'paypal',
      enabled: true,
      credentials: { clientId: fake.clientId, clientSecret: fake.clientSecret, webhookId: fake.webhookId },
      baseUrl: fake.url,
    },
  });
  expect(saved.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await fake?.close();
  await system?.close();
});

describe('polling PayPal for payouts on their way', () => {
  it('settles sent items as PayPal reports them and returns an item unclaimed for 30 days exactly once', async () => {
    const { runId } = await startPayoutRun(system.db, {
      trigger: 'manual',
      actor: { id: null, email: 'test' },
      withholding: withholdingFor,
    });
    await sendPayoutRun(system.db, system.config.appSecret, runId);
    const key = (person: Person) => `${runId}:${person.userId}`;
    const sentAt = (await itemOf(unclaimed.userId)).sentAt;
    if (!sentAt) throw new Error('not sent');

    // Nothing reported yet: a poll changes no state.
    expect((await pollSentPayouts(system.db, system.config.appSecret)).runs).toBe(1);
    expect((await itemOf(succeeds.userId)).state).toBe('sent');

    fake.setStatus(key(succeeds), 'SUCCESS');
    fake.setStatus(key(fails), 'FAILED');
    fake.setStatus(key(unclaimed), 'UNCLAIMED');
    const first = await pollSentPayouts(system.db, system.config.appSecret, new Date(sentAt.getTime() + DAY));
    expect(first.failed).toEqual([]);
    expect((await itemOf(succeeds.userId)).state).toBe('paid');
    expect(await itemOf(fails.userId)).toMatchObject({ state: 'returned', reason: 'PayPal: failed' });
    expect(await balanceOf(fails.userId)).toEqual({ balance: 5_200, pending: 0 });
    expect((await itemOf(unclaimed.userId)).state).toBe('sent');
    await ledgerHolds();

    // Unclaimed, polled again on day 29: still on its way, the money still out of the balance.
    await pollSentPayouts(system.db, system.config.appSecret, new Date(sentAt.getTime() + 29 * DAY));
    expect((await itemOf(unclaimed.userId)).state).toBe('sent');
    expect(await balanceOf(unclaimed.userId)).toEqual({ balance: 0, pending: 6_000 });

    // Day 30: returned, the money back on the balance once, however often it is polled after.
    for (const days of [30, 30, 31]) {
      await pollSentPayouts(system.db, system.config.appSecret, new Date(sentAt.getTime() + days * DAY));
    }
    expect(await itemOf(unclaimed.userId)).toMatchObject({
      state: 'returned',
      reason: 'unclaimed for 30 days',
    });
    expect(await balanceOf(unclaimed.userId)).toEqual({ balance: 6_000, pending: 0 });
    await ledgerHolds();

    // PayPal returns it itself afterwards: nothing more moves.
    fake.setStatus(key(unclaimed), 'RETURNED');
    const after = await pollSentPayouts(system.db, system.config.appSecret);
    expect(after.runs).toBe(0);
    const webhook = fake.webhook(key(unclaimed), 'RETURNED');
    const delivered = await system.request('/api/payouts/webhooks/paypal', {
      method: 'POST',
      body: webhook.body,
      headers: webhook.headers,
    });
    expect(delivered.status).toBe(200);
    expect(await balanceOf(unclaimed.userId)).toEqual({ balance: 6_000, pending: 0 });
    expect(await balanceOf(succeeds.userId)).toEqual({ balance: 0, pending: 0 });
    await ledgerHolds();
  });
});
