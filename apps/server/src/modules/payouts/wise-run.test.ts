/**
 * Wise payouts against a local fake of its documented API (issue 38): the token tested, the payee's Wise
 * details checked by the shared schema, a run that makes one recipient, quote and transfer per payee with a
 * fixed customerTransactionId (a transfer creation answered 500 three times still makes one transfer), a
 * recipient Wise refuses gives the money back at once, funding refused for strong authentication leaves
 * "Created — fund it in Wise", and signed `transfers#state-change` events, each delivered twice and out of
 * order, pay or re-credit once; a forged event changes nothing. `ledger:verify` holds after each.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payoutEvents, payoutItems } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { balancesOf, expectLedgerVerifies } from '../../test-support/money-checks';
import { fundUser } from '../../test-support/wallet-fixtures';
import { startWiseFake, type WiseFake } from '../../test-support/wise-fake';
import { signTaxForm, w9Form } from '../tax';
import { savePaymentSettings } from '../wallet';
import { customerTransactionId } from './providers/wise';
import { startPayoutRun } from './run-plan';
import { sendPayoutRun } from './run-send';
import { pollSentWisePayouts } from './wise-events';
import { withholdingFor } from './withholding';

let system: TestSystem;
let fake: WiseFake;
let people: Awaited<ReturnType<typeof staff>>;
type Person = Awaited<ReturnType<TestSystem['signedInUser']>>;
const payees: Record<'euro' | 'pound' | 'refused', Person> = {} as never;

const GOOD_IBAN = 'DE89370400440532013000';
const REFUSED_IBAN = 'GB82WEST12345698765432';
const address = {
  wise_country: 'DE',
  wise_city: 'Berlin',
  wise_post_code: '10115',
  wise_address: 'Invalidenstr. 1',
};

const admin = (path: string, init: { method?: string; json?: unknown } = {}) =>
  system.request(path, { ...init, cookie: people.admin.cookie });

const balanceOf = (userId: string) => balancesOf(system, userId);

const ledgerHolds = () => expectLedgerVerifies(system);

const deliver = (hook: { body: string; headers: Record<string, string> }) =>
  system.request('/api/payouts/webhooks/wise', { method: 'POST', body: hook.body, headers: hook.headers });

async function itemOf(runId: string, userId: string) {
  const [item] = await system.db
    .select()
    .from(payoutItems)
    .where(eq(payoutItems.idempotencyKey, `${runId}:${userId}`));
  if (!item) throw new Error('no item');
  return item;
}

async function runOnce() {
  const { runId } = await startPayoutRun(system.db, {
    trigger: 'manual',
    actor: { id: null, email: 'test' },
    withholding: withholdingFor,
  });
  await sendPayoutRun(system.db, system.config.appSecret, runId);
  return runId;
}

beforeAll(async () => {
  system = await createTestSystem();
  fake = await startWiseFake();
  people = await staff(system);
  const details = {
    euro: { wise_account_holder: 'Erika Mustermann', wise_currency: 'EUR', wise_iban: GOOD_IBAN, ...address },
    pound: {
      wise_account_holder: 'Jane Smith',
      wise_currency: 'GBP',
      wise_sort_code: '40-30-20',
      wise_account_number: '41234567',
      ...address,
      wise_country: 'GB',
    },
    refused: {
      wise_account_holder: 'Rex Refused',
      wise_currency: 'EUR',
      wise_iban: REFUSED_IBAN,
      ...address,
    },
  };
  for (const name of ['euro', 'pound', 'refused'] as const) {
    const person = await system.signedInUser({ plan: 'basic', email: `wise.${name}@example.com` });
    await fundUser(system, person.userId, { euro: 6_000, pound: 7_000, refused: 8_000 }[name]);
    await savePaymentSettings(system.db, system.config.appSecret, person.userId, {
      payment_method: 'wise',
      payment_details: details[name],
    });
    await signTaxForm(
      system.db,
      system.config.appSecret,
      w9Form(`${name} payee`),
      { userId: person.userId, signedAt: new Date(), address: '127.0.0.1', userAgent: 'test' },
      { id: null, email: 'test' },
    );
    payees[name] = person;
  }
  fake.refuseIban(REFUSED_IBAN);
}, 120_000);

afterAll(async () => {
  await fake?.close();
  await system?.close();
});

describe('Wise payouts against the fake', () => {
  it('checks Wise details with the shared schema', async () => {
    const person = await system.signedInUser({ plan: 'basic', email: 'wise.form@example.com' });
    const save = (payment_details: unknown) =>
      system.request('/api/wallet/payment-settings', {
        method: 'PUT',
        cookie: person.cookie,
        json: { payment_method: 'wise', payment_details },
      });
    const cases: [unknown, string][] = [
      [
        { wise_account_holder: 'Cher', wise_currency: 'EUR', wise_iban: GOOD_IBAN, ...address },
        'first and last name',
      ],
      [
        {
          wise_account_holder: 'Jo Bloggs',
          wise_currency: 'EUR',
          wise_iban: 'DE89370400440532013001',
          ...address,
        },
        'valid IBAN',
      ],
      [
        {
          wise_account_holder: 'Jo Bloggs',
          wise_currency: 'GBP',
          wise_sort_code: '123',
          wise_account_number: '41234567',
          ...address,
        },
        '6-digit sort code',
      ],
      [{ wise_account_holder: 'Jo Bloggs', wise_currency: 'USD', ...address }, 'currency'],
    ];
    for (const [details, message] of cases) {
      const response = await save(details);
      expect(response.status).toBe(422);
      const { error } = await readJson(response);
      expect(error.code).toBe('wise_details_invalid');
      expect(error.message).toContain(message);
    }
    const saved = await save({
      wise_account_holder: 'Jo Bloggs',
      wise_currency: 'EUR',
      wise_iban: 'de89 3704 0044 0532 0130 00',
      ...address,
    });
    expect(saved.status).toBe(200);
    expect((await readJson(saved)).paymentDetails).toEqual({
      method: 'wise',
      accountHolder: 'Jo Bloggs',
      currency: 'EUR',
      account: '•••• 3000',
    });
  });

  it('tests the token and enables Wise', async () => {
    const wrong = await admin('/api/admin/payouts/providers', {
      method: 'PUT',
      json: {
        provider: 'wise',
        enabled: false,
        credentials: { apiToken: 'wrong', profileId: fake.profileId, webhookPublicKey: fake.publicKeyPem },
        baseUrl: fake.url,
      },
    });
    expect(wrong.status).toBe(200);
    expect(await readJson(await admin('/api/admin/payouts/providers/wise/test', { method: 'POST' }))).toEqual(
      {
        ok: false,
        message: 'Wise refused the API token (HTTP 401)',
      },
    );
    const saved = await admin('/api/admin/payouts/providers', {
      method: 'PUT',
      json: {
        provider: 'wise',
        enabled: true,
        credentials: {
          apiToken: fake.apiToken,
          profileId: fake.profileId,
          webhookPublicKey: fake.publicKeyPem,
        },
        baseUrl: fake.url,
      },
    });
    expect(saved.status).toBe(200);
    expect((await readJson(saved)).credentialsHint).toBe('…0001');
    expect(await readJson(await admin('/api/admin/payouts/providers/wise/test', { method: 'POST' }))).toEqual(
      {
        ok: true,
        message: `Wise accepted the token for business profile ${fake.profileId}.`,
      },
    );
  });

  it('creates one transfer per payee through 5xx retries, stops at "fund it in Wise" under SCA, and settles from signed events once', async () => {
    fake.setScaRequired(true);
    fake.failTransferCreations(3);
    const runId = await runOnce();
    // Three 500s on the first transfer (the first made it) and one answer each for the other: two transfers.
    expect(fake.transferCalls()).toBe(5);
    expect(fake.transfers.map((t) => t.customerTransactionId).sort()).toEqual(
      [payees.euro, payees.pound].map((p) => customerTransactionId(`${runId}:${p.userId}`)).sort(),
    );
    expect(fake.transfers.map((t) => [t.sourceAmount, t.targetCurrency]).sort()).toEqual([
      [60, 'EUR'],
      [70, 'GBP'],
    ]);
    // The refused recipient's money is back at once.
    const refused = await itemOf(runId, payees.refused.userId);
    expect(refused.state).toBe('returned');
    expect(refused.providerStatus).toBe('recipient refused: HTTP 422 Please specify a valid IBAN.');
    expect(await balanceOf(payees.refused.userId)).toEqual({ balance: 8_000, pending: 0 });

    const run = await readJson(await admin(`/api/admin/payouts/runs/${runId}`));
    expect(run.state).toBe('sent');
    expect(
      run.items.map(
        (item: { email: string; state: string; awaitingFunding: boolean; providerStatus: string }) => [
          item.email,
          item.state,
          item.awaitingFunding,
          item.providerStatus,
        ],
      ),
    ).toEqual([
      ['wise.euro@example.com', 'sent', true, 'incoming_payment_waiting'],
      ['wise.pound@example.com', 'sent', true, 'incoming_payment_waiting'],
      [
        'wise.refused@example.com',
        'returned',
        false,
        'recipient refused: HTTP 422 Please specify a valid IBAN.',
      ],
    ]);
    await ledgerHolds();

    const euro = await itemOf(runId, payees.euro.userId);
    const pound = await itemOf(runId, payees.pound.userId);
    const euroTransfer = Number(euro.providerReference);
    const poundTransfer = Number(pound.providerReference);

    // A forged event changes nothing.
    const forged = await deliver(fake.webhook(euroTransfer, 'outgoing_payment_sent', { badSignature: true }));
    expect(forged.status).toBe(400);
    expect((await readJson(forged)).error.code).toBe('webhook_signature');
    const unsigned = fake.webhook(euroTransfer, 'outgoing_payment_sent');
    const { 'x-signature-sha256': _, ...noSignature } = unsigned.headers;
    expect((await deliver({ body: unsigned.body, headers: noSignature })).status).toBe(400);
    expect((await itemOf(runId, payees.euro.userId)).state).toBe('sent');
    expect(await system.db.select().from(payoutEvents).where(eq(payoutEvents.provider, 'wise'))).toEqual([]);

    // The operator funds both in Wise. Euro: paid, events twice and out of order.
    const sent = fake.webhook(euroTransfer, 'outgoing_payment_sent');
    const processing = fake.webhook(euroTransfer, 'processing');
    const waiting = fake.webhook(euroTransfer, 'incoming_payment_waiting');
    for (const hook of [sent, processing, waiting, sent, processing])
      expect((await deliver(hook)).status).toBe(200);
    expect((await itemOf(runId, payees.euro.userId)).state).toBe('paid');
    expect(await balanceOf(payees.euro.userId)).toEqual({ balance: 0, pending: 0 });

    // Pound: sent, bounced back, cancelled, refunded; each twice, out of order: one re-credit.
    const poundSent = fake.webhook(poundTransfer, 'outgoing_payment_sent');
    const bounced = fake.webhook(poundTransfer, 'bounced_back');
    const cancelled = fake.webhook(poundTransfer, 'cancelled');
    const refunded = fake.webhook(poundTransfer, 'funds_refunded');
    for (const hook of [refunded, bounced, poundSent, cancelled, refunded, poundSent, bounced, cancelled]) {
      expect((await deliver(hook)).status).toBe(200);
    }
    const poundAfter = await itemOf(runId, payees.pound.userId);
    expect(poundAfter.state).toBe('returned');
    expect(poundAfter.returnReason).toBe('Wise: funds refunded');
    expect(await balanceOf(payees.pound.userId)).toEqual({ balance: 7_000, pending: 0 });
    await ledgerHolds();
  });

  it('funds by API where the profile allows it, and reads a lost event by polling', async () => {
    fake.setScaRequired(false);
    await fundUser(system, payees.pound.userId, 9_000);
    const before = fake.transfers.length;
    const runId = await runOnce();
    expect(fake.transfers.length).toBe(before + 1);
    const item = await itemOf(runId, payees.pound.userId);
    expect([item.state, item.providerStatus]).toEqual(['sent', 'processing']);
    const run = await readJson(await admin(`/api/admin/payouts/runs/${runId}`));
    expect(
      run.items.find((i: { email: string }) => i.email === 'wise.pound@example.com').awaitingFunding,
    ).toBe(false);

    // The poll job reads it: processing, recorded once, nothing moves.
    expect(await pollSentWisePayouts(system.db, system.config.appSecret)).toEqual({
      runs: 1,
      applied: 1,
      failed: [],
    });
    expect(await pollSentWisePayouts(system.db, system.config.appSecret)).toEqual({
      runs: 1,
      applied: 0,
      failed: [],
    });
    fake.setStatus(Number(item.providerReference), 'outgoing_payment_sent');
    expect(await readJson(await admin(`/api/admin/payouts/runs/${runId}/poll`, { method: 'POST' }))).toEqual({
      applied: 1,
    });
    expect((await itemOf(runId, payees.pound.userId)).state).toBe('paid');
    // The webhook of the same state afterwards is the same event.
    expect(
      await readJson(await deliver(fake.webhook(Number(item.providerReference), 'outgoing_payment_sent'))),
    ).toEqual({
      status: 'ok',
      applied: false,
    });
    expect(await balanceOf(payees.pound.userId)).toEqual({ balance: 0, pending: 0 });
    await ledgerHolds();
  });
});
