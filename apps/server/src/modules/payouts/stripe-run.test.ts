/**
 * Stripe Connect payouts against a local fake of Stripe's documented API (issue 38, record 281): the key
 * tested, onboarding by account link with `account.updated` saying when it is complete (a forged or stale
 * event changes nothing), one transfer per (run, payee) under a deterministic Idempotency-Key even when its
 * creation answers 500 three times, a payee whose account cannot receive transfers re-credited at once,
 * `transfer.reversed` delivered twice and out of order re-crediting once, bank payout events shown on the
 * payout, and `ledger:verify` holding after each.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, payoutItems } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { balancesOf, expectLedgerVerifies } from '../../test-support/money-checks';
import {
  STRIPE_FAKE_CONNECT_SECRET,
  STRIPE_FAKE_KEY,
  STRIPE_FAKE_PLATFORM_SECRET,
  type StripeConnectFake,
  startStripeConnectFake,
} from '../../test-support/stripe-connect-fake';
import { fundUser } from '../../test-support/wallet-fixtures';
import { signTaxForm, w9Form } from '../tax';
import { savePayoutDetails } from '../wallet';
import { startPayoutRun } from './run-plan';
import { sendPayoutRun } from './run-send';
import { withholdingFor } from './withholding';

let system: TestSystem;
let fake: StripeConnectFake;
let people: Awaited<ReturnType<typeof staff>>;
type Person = Awaited<ReturnType<TestSystem['signedInUser']>>;
const payees: Record<'reversed' | 'kept' | 'unready', Person> = {} as never;

const admin = (path: string, init: { method?: string; json?: unknown } = {}) =>
  system.request(path, { ...init, cookie: people.admin.cookie });
const as = (person: Person, path: string, init: { method?: string; json?: unknown } = {}) =>
  system.request(path, { ...init, cookie: person.cookie });

const balanceOf = (userId: string) => balancesOf(system, userId);

const ledgerHolds = () => expectLedgerVerifies(system);

const deliver = (hook: { body: string; headers: Record<string, string> }) =>
  system.request('/api/payouts/webhooks/stripe', { method: 'POST', body: hook.body, headers: hook.headers });

const accountIdOf = (person: Person) => {
  const account = fake.accounts.find((a) => a.email === person.email);
  if (!account) throw new Error(`no Stripe account for ${person.email}`);
  return account.id;
};

beforeAll(async () => {
  system = await createTestSystem();
  fake = await startStripeConnectFake();
  people = await staff(system);
  const amounts = { reversed: 7_500, kept: 5_000, unready: 6_000 } as const;
  for (const name of ['reversed', 'kept', 'unready'] as const) {
    const person = await system.signedInUser({ plan: 'basic', email: `stripe.${name}@example.com` });
    await fundUser(system, person.userId, amounts[name]);
    await signTaxForm(
      system.db,
      system.config.appSecret,
      w9Form(`${name} payee`),
      { userId: person.userId, signedAt: new Date(), address: '127.0.0.1', userAgent: 'test' },
      { id: null, email: 'test' },
    );
    payees[name] = person;
  }
}, 120_000);

afterAll(async () => {
  await fake?.close();
  await system?.close();
});

describe('Stripe Connect payouts against the fake', () => {
  it('tests the key, enables Stripe and keeps the credentials encrypted', async () => {
    const put = (secretKey: string) =>
      admin('/api/admin/payouts/providers', {
        method: 'PUT',
        json: {
          provider: 'stripe',
          enabled: true,
          credentials: {
            secretKey,
            webhookSecret: STRIPE_FAKE_PLATFORM_SECRET,
            connectWebhookSecret: STRIPE_FAKE_CONNECT_SECRET,
          },
          baseUrl: fake.url,
        },
      });
    expect((await put('sk_test_wrong')).status).toBe(200);
    const refused = await readJson(
      await admin('/api/admin/payouts/providers/stripe/test', { method: 'POST' }),
    );
    expect(refused.ok).toBe(false);
    expect(refused.message).toContain('Invalid API Key');
    expect((await put(STRIPE_FAKE_KEY)).status).toBe(200);
    expect(
      await readJson(await admin('/api/admin/payouts/providers/stripe/test', { method: 'POST' })),
    ).toEqual({ ok: true, message: 'Stripe accepted the key; available balance 10000.00 USD.' });
    const settings = await readJson(await admin('/api/admin/payouts/settings'));
    const stripe = settings.providers.find((p: { provider: string }) => p.provider === 'stripe');
    expect(stripe).toMatchObject({ enabled: true, hasCredentials: true, credentialsHint: '…outs' });
    expect(JSON.stringify(settings)).not.toContain(STRIPE_FAKE_KEY);
  });

  it('onboards by account link; account.updated says when it is complete; then Stripe is the method', async () => {
    const person = payees.reversed;
    const first = await readJson(await as(person, '/api/payouts/stripe/onboarding', { method: 'POST' }));
    const again = await readJson(await as(person, '/api/payouts/stripe/onboarding', { method: 'POST' }));
    expect(first.url).toContain('/setup/e/acct_');
    expect(again.url).toBe(first.url);
    expect(fake.accounts.filter((a) => a.email === person.email)).toHaveLength(1);
    const before = await readJson(await as(person, '/api/payouts/stripe'));
    expect(before).toMatchObject({ isOffered: true, isComplete: false, isMethod: false });
    const early = await as(person, '/api/payouts/stripe/use', { method: 'POST' });
    expect(early.status).toBe(409);
    expect((await readJson(early)).error.code).toBe('stripe_onboarding_incomplete');

    const accountId = accountIdOf(person);
    const staleIncomplete = fake.accountUpdated(accountId, { created: 1_000 });
    fake.completeOnboarding(accountId);
    const forged = await deliver(fake.accountUpdated(accountId, { secret: 'whsec_forged' }));
    expect(forged.status).toBe(400);
    expect((await readJson(forged)).error.code).toBe('webhook_signature');
    expect((await readJson(await as(person, '/api/payouts/stripe'))).isComplete).toBe(false);
    const complete = fake.accountUpdated(accountId, { created: 2_000 });
    expect(await readJson(await deliver(complete))).toEqual({ received: true, applied: true });
    expect(await readJson(await deliver(complete))).toEqual({ received: true, applied: false });
    // The older, incomplete state arrives last: it does not undo the newer one.
    expect((await deliver(staleIncomplete)).status).toBe(200);
    expect(await readJson(await as(person, '/api/payouts/stripe'))).toMatchObject({
      isComplete: true,
      canReceiveTransfers: true,
      payoutsEnabled: true,
    });
    const used = await readJson(await as(person, '/api/payouts/stripe/use', { method: 'POST' }));
    expect(used.paymentDetails).toEqual({ method: 'stripe', stripeAccount: `•••• ${accountId.slice(-4)}` });
    expect((await readJson(await as(person, '/api/payouts/stripe'))).isMethod).toBe(true);
    expect((await readJson(await as(person, '/api/payouts'))).method).toBe('stripe');

    // The second payee onboards the same way; the third's account never gets `transfers`.
    for (const other of [payees.kept, payees.unready]) {
      await as(other, '/api/payouts/stripe/onboarding', { method: 'POST' });
      const id = accountIdOf(other);
      if (other === payees.kept) {
        fake.completeOnboarding(id);
        await deliver(fake.accountUpdated(id));
        expect((await as(other, '/api/payouts/stripe/use', { method: 'POST' })).status).toBe(200);
      } else {
        await savePayoutDetails(system.db, system.config.appSecret, other.userId, {
          method: 'stripe',
          details: { stripe_account_id: id },
        });
      }
    }
  });

  it('makes one transfer per payee under a fixed Idempotency-Key when creation answers 500 three times', async () => {
    const { runId } = await startPayoutRun(system.db, {
      trigger: 'manual',
      actor: { id: null, email: 'test' },
      withholding: withholdingFor,
    });
    fake.failTransfers(3);
    await sendPayoutRun(system.db, system.config.appSecret, runId);
    expect(fake.transfers.map((t) => t.amount).sort()).toEqual([5_000, 7_500]);
    const keyOf = (person: Person) => `tunedrop-transfer-${runId}:${person.userId}`;
    // The first payee in key order took the three 500s; every attempt carried its own payee's fixed key
    // (the refused payee's second key of the sequence when its first refusal was saved and replayed).
    expect(new Set(fake.transferKeys.map((key) => key.replace(/:[2-5]$/, '')))).toEqual(
      new Set([keyOf(payees.reversed), keyOf(payees.kept), keyOf(payees.unready)]),
    );
    expect(fake.transferKeys.length).toBeGreaterThanOrEqual(3 + 3);
    const items = await system.db.select().from(payoutItems).where(eq(payoutItems.runId, runId));
    const byUser = new Map(items.map((item) => [item.userId, item]));
    expect(byUser.get(payees.reversed.userId)).toMatchObject({
      state: 'paid',
      providerStatus: 'transfer created',
    });
    expect(byUser.get(payees.kept.userId)).toMatchObject({
      state: 'paid',
      providerStatus: 'transfer created',
    });
    expect(byUser.get(payees.unready.userId)).toMatchObject({
      state: 'returned',
      providerStatus: 'transfer refused: insufficient_capabilities_for_transfer',
    });
    expect(await balanceOf(payees.unready.userId)).toEqual({ balance: 6_000, pending: 0 });
    const mails = await system.db.select().from(mailOutbox);
    const subjectsTo = (person: Person) =>
      mails.filter((mail) => mail.recipient === person.email).map((mail) => mail.subject);
    expect(subjectsTo(payees.kept)).toContain('Your payout of $50.00 has been sent');
    expect(subjectsTo(payees.unready)).toEqual(['Your payout of $60.00 was returned']);
    expect(await balanceOf(payees.reversed.userId)).toEqual({ balance: 0, pending: 0 });
    await ledgerHolds();

    // Sending the run again (a resumed job) makes nothing new.
    await sendPayoutRun(system.db, system.config.appSecret, runId);
    expect(fake.transfers).toHaveLength(2);

    // transfer.reversed, delivered twice and after an older bank payout event, re-credits once.
    const reversedItem = byUser.get(payees.reversed.userId);
    const transfer = fake.transfers.find((t) => t.id === reversedItem?.providerReference);
    if (!transfer) throw new Error('no transfer for the reversed payee');
    const olderPayout = fake.bankPayout(transfer.destination, 'paid', { payoutId: 'po_older' });
    fake.reverse(transfer.id);
    const reversal = fake.transferReversed(transfer.id, { eventId: 'evt_reversal_1' });
    for (const hook of [reversal, olderPayout, reversal]) expect((await deliver(hook)).status).toBe(200);
    expect((await deliver(fake.transferReversed(transfer.id))).status).toBe(200);
    expect(await balanceOf(payees.reversed.userId)).toEqual({ balance: 7_500, pending: 0 });
    const [reversedAfter] = await system.db
      .select()
      .from(payoutItems)
      .where(eq(payoutItems.id, reversedItem?.id ?? ''));
    expect(reversedAfter).toMatchObject({ state: 'returned', providerStatus: 'transfer reversed' });
    await ledgerHolds();

    // The other payee's bank payout fails, then the same payout's `paid` arrives late: the failure stays.
    const keptAccount = accountIdOf(payees.kept);
    const failed = fake.bankPayout(keptAccount, 'failed', {
      payoutId: 'po_bank_1',
      failureCode: 'account_closed',
    });
    const latePaid = fake.bankPayout(keptAccount, 'paid', { payoutId: 'po_bank_1' });
    expect((await deliver(failed)).status).toBe(200);
    expect((await deliver(latePaid)).status).toBe(200);
    const [keptAfter] = await system.db
      .select()
      .from(payoutItems)
      .where(eq(payoutItems.id, byUser.get(payees.kept.userId)?.id ?? ''));
    expect(keptAfter).toMatchObject({
      state: 'paid',
      providerStatus: 'bank payout po_bank_1 failed: account_closed',
    });
    expect(await balanceOf(payees.kept.userId)).toEqual({ balance: 0, pending: 0 });
    await ledgerHolds();
  });

  it('stops the run on the platform’s own refusal (balance_insufficient) and resumes without paying twice', async () => {
    await fundUser(system, payees.kept.userId, 6_000);
    const { runId } = await startPayoutRun(system.db, {
      trigger: 'manual',
      actor: { id: null, email: 'test' },
      withholding: withholdingFor,
      accountIds: [payees.kept.userId],
    });
    fake.setBalance(100);
    await expect(sendPayoutRun(system.db, system.config.appSecret, runId)).rejects.toThrow(
      /balance_insufficient/,
    );
    expect(await balanceOf(payees.kept.userId)).toEqual({ balance: 0, pending: 6_000 });
    fake.setBalance(1_000_000);
    const before = fake.transfers.length;
    await sendPayoutRun(system.db, system.config.appSecret, runId);
    await sendPayoutRun(system.db, system.config.appSecret, runId);
    expect(fake.transfers.length).toBe(before + 1);
    // Stripe replayed the saved refusal under the first key; the second key of the sequence made the transfer.
    const base = `tunedrop-transfer-${runId}:${payees.kept.userId}`;
    expect(fake.transferKeys.slice(-3)).toEqual([base, base, `${base}:2`]);
    expect(await balanceOf(payees.kept.userId)).toEqual({ balance: 0, pending: 0 });
    await ledgerHolds();
  });
});
