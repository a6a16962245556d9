/**
 * PayPal Payouts against a local fake of its documented API (issue 38): credentials tested, a batch
 * creation answered 500 three times (the first one having made the batch) ends in exactly one PayPal batch
 * read back through the duplicate's link, webhooks verified by PayPal's verify call (a forged one changes
 * nothing), UNCLAIMED and RETURNED each delivered twice and out of order re-credit the payee once, a
 * SUCCESS read by polling pays, and `ledger:verify` holds after each.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payoutBatches, payoutItems } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { balancesOf, expectLedgerVerifies } from '../../test-support/money-checks';
import { type PaypalFake, startPaypalFake } from '../../test-support/paypal-fake';
import { fundUser, savePaypal } from '../../test-support/wallet-fixtures';
import { signTaxForm, w9Form } from '../tax';
import { startPayoutRun } from './run-plan';
import { sendPayoutRun } from './run-send';
import { withholdingFor } from './withholding';

let system: TestSystem;
let fake: PaypalFake;
let people: Awaited<ReturnType<typeof staff>>;
type Person = Awaited<ReturnType<TestSystem['signedInUser']>>;
let returned: Person;
let paid: Person;

const admin = (path: string, init: { method?: string; json?: unknown } = {}) =>
  system.request(path, { ...init, cookie: people.admin.cookie });

const balanceOf = (userId: string) => balancesOf(system, userId);

const ledgerHolds = () => expectLedgerVerifies(system);

async function deliver(hook: { body: string; headers: Record<string, string> }) {
  return system.request('/api/payouts/webhooks/paypal', {
    method: 'POST',
    body: hook.body,
    headers: hook.headers,
  });
}

beforeAll(async () => {
  system = await createTestSystem();
  fake = await startPaypalFake();
  people = await staff(system);
  for (const name of ['returned', 'paid'] as const) {
    const person = await system.signedInUser({ plan: 'basic', email: `paypal.${name}@example.com` });
    await fundUser(system, person.userId, name === 'returned' ? 7_500 : 5_000);
    await savePaypal(system, person.userId, `${name}.receiver@example.com`);
    await signTaxForm(
      system.db,
      system.config.appSecret,
      w9Form(`${name} payee`),
      { userId: person.userId, signedAt: new Date(), address: '127.0.0.1', userAgent: 'test' },
      { id: null, email: 'test' },
    );
    if (name === 'returned') returned = person;
    else paid = person;
  }
}, 120_000);

afterAll(async () => {
  await fake?.close();
  await system?.close();
});

describe('PayPal payouts against the fake', () => {
  it('tests the credentials and enables PayPal', async () => {
    const wrong = await admin('/api/admin/payouts/providers', {
      method: 'PUT',
      json: {
        provider: 'paypal',
        enabled: false,
        credentials: { clientId: fake.clientId, clientSecret: 'wrong', webhookId: fake.webhookId },
        baseUrl: fake.url,
      },
    });
    expect(wrong.status).toBe(200);
    const refused = await readJson(
      await admin('/api/admin/payouts/providers/paypal/test', { method: 'POST' }),
    );
    expect(refused).toEqual({ ok: false, message: 'PayPal refused the credentials (HTTP 401)' });
    const saved = await admin('/api/admin/payouts/providers', {
      method: 'PUT',
      json: {
        provider: 'paypal',
        enabled: true,
        credentials: { clientId: fake.clientId, clientSecret: fake.clientSecret, webhookId: fake.webhookId },
        baseUrl: fake.url,
      },
    });
    expect(saved.status).toBe(200);
    expect(
      await readJson(await admin('/api/admin/payouts/providers/paypal/test', { method: 'POST' })),
    ).toEqual({
      ok: true,
      message: 'PayPal accepted the credentials.',
    });
  });

  it('makes exactly one PayPal batch when its creation answers 500 three times, then settles from webhooks and polling', async () => {
    const { runId } = await startPayoutRun(system.db, {
      trigger: 'manual',
      actor: { id: null, email: 'test' },
      withholding: withholdingFor,
    });
    fake.failCreations(3);
    await sendPayoutRun(system.db, system.config.appSecret, runId);
    expect(fake.createCalls()).toBe(4);
    expect(fake.batches.length).toBe(1);
    const [batch] = await system.db.select().from(payoutBatches).where(eq(payoutBatches.runId, runId));
    expect(batch?.providerReference).toBe(fake.batches[0]?.id);
    expect(fake.batches[0]?.items.map((item) => item.value).sort()).toEqual(['50.00', '75.00']);
    const items = await system.db.select().from(payoutItems).where(eq(payoutItems.runId, runId));
    expect(items.map((item) => [item.state, item.provider, item.providerStatus])).toEqual([
      ['sent', 'paypal', 'PENDING'],
      ['sent', 'paypal', 'PENDING'],
    ]);
    await ledgerHolds();

    const returnedKey = `${runId}:${returned.userId}`;
    // A forged webhook changes nothing.
    const forged = await deliver(fake.webhook(returnedKey, 'RETURNED', { badSignature: true }));
    expect(forged.status).toBe(400);
    expect((await readJson(forged)).error.code).toBe('webhook_signature');
    expect(await balanceOf(returned.userId)).toEqual({ balance: 0, pending: 7_500 });

    // RETURNED then UNCLAIMED, each delivered twice, out of order: one re-credit.
    const returnedEvent = fake.webhook(returnedKey, 'RETURNED', { eventId: 'WH-RETURNED-1' });
    const unclaimedEvent = fake.webhook(returnedKey, 'UNCLAIMED', { eventId: 'WH-UNCLAIMED-1' });
    for (const hook of [unclaimedEvent, returnedEvent, unclaimedEvent, returnedEvent]) {
      expect((await deliver(hook)).status).toBe(200);
    }
    // A second RETURNED event with its own id (PayPal resends with new ids too) changes nothing either.
    expect((await deliver(fake.webhook(returnedKey, 'RETURNED'))).status).toBe(200);
    expect(await balanceOf(returned.userId)).toEqual({ balance: 7_500, pending: 0 });
    await ledgerHolds();

    // The other item succeeds; the admin polls.
    fake.setStatus(`${runId}:${paid.userId}`, 'SUCCESS');
    const polled = await admin(`/api/admin/payouts/runs/${runId}/poll`, { method: 'POST' });
    expect(await readJson(polled)).toEqual({ applied: 2 });
    expect(await balanceOf(paid.userId)).toEqual({ balance: 0, pending: 0 });
    const again = await admin(`/api/admin/payouts/runs/${runId}/poll`, { method: 'POST' });
    expect(await readJson(again)).toEqual({ applied: 0 });
    const run = await readJson(await admin(`/api/admin/payouts/runs/${runId}`));
    expect(run.items.map((item: { email: string; state: string }) => [item.email, item.state])).toEqual([
      ['paypal.paid@example.com', 'paid'],
      ['paypal.returned@example.com', 'returned'],
    ]);
    await ledgerHolds();
  });
});
