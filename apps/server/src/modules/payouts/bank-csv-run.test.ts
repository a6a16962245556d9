/**
 * A payout run end to end on bank-csv (issue 38): who is due and who is blocked (named, with the reason),
 * the preview changing nothing, the withholding decided by the tax module (W-9 0%, a W-8BEN without a
 * treaty 30%, a US payee without a W-9 blocked under "block") and its lines recorded when paid and
 * reversed on a refund, the payout file, a run killed after the provider answered and resumed (one
 * batch, one file, nobody paid twice), the bank's confirmation (paid and returned, a repeat changes
 * nothing), the requests a run holds untouchable elsewhere, and `ledger:verify` / `audit:balances` after
 * each step.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommands } from '../../cli-commands';
import {
  payoutBatches,
  payoutItems,
  payoutProviders,
  payoutRuns,
  profiles,
  webhookMessages,
  withdrawalRequests,
} from '../../db/schema';
import { CliError } from '../../lib/cli-error';
import { rows } from '../../lib/sql';
import { staff } from '../../test-support/admin-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { fundUser, saveBank, savePaypal } from '../../test-support/wallet-fixtures';
import { withdrawnCents } from '../ledger';
import { signTaxForm, w8benForm, w9Form } from '../tax';
import { requestWithdrawal } from '../wallet';
import { BANK_CSV_HEADER } from './providers/bank-csv';
import { previewPayoutRun, startPayoutRun } from './run-plan';
import { sendPayoutRun } from './run-send';
import { withholdingFor } from './withholding';

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
type Person = Awaited<ReturnType<TestSystem['signedInUser']>>;
let bank: Person;
let foreign: Person;
let noDetails: Person;
let small: Person;
let requester: Person;
let unsigned: Person;

async function cli(name: string, flags: Record<string, boolean> = {}) {
  const command = cliCommands[name];
  if (!command) throw new Error(`${name} is not registered`);
  try {
    return { ok: true, text: String(await command.run(system, [], flags)) };
  } catch (error) {
    if (error instanceof CliError) return { ok: false, text: error.message };
    throw error;
  }
}

async function expectBooksHold() {
  const verify = await cli('ledger:verify');
  expect(verify.text).not.toMatch(/differ/i);
  expect(verify.ok).toBe(true);
  const audit = await cli('audit:balances');
  expect(audit.ok, audit.text).toBe(true);
}

async function money(userId: string) {
  const [row] = await system.db
    .select({ balance: profiles.balanceCents, pending: profiles.pendingBalanceCents })
    .from(profiles)
    .where(eq(profiles.id, userId));
  return row;
}

const admin = (path: string, init: { method?: string; json?: unknown } = {}) =>
  system.request(path, { ...init, cookie: people.admin.cookie });

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
  const person = (name: string) =>
    system.signedInUser({ plan: 'basic', email: `payouts.${name}@example.com` });
  bank = await person('bank');
  foreign = await person('foreign');
  noDetails = await person('nodetails');
  small = await person('small');
  requester = await person('requester');
  unsigned = await person('unsigned');
  await fundUser(system, bank.userId, 12_345);
  await saveBank(system, bank.userId);
  await fundUser(system, foreign.userId, 10_000);
  await savePaypal(system, foreign.userId, 'foreign.payee@example.com');
  await fundUser(system, noDetails.userId, 8_000);
  await fundUser(system, small.userId, 1_000);
  await saveBank(system, small.userId);
  // A pending request of $60 and $5 left (below Basic's $50 minimum): the run pays the request only.
  await fundUser(system, requester.userId, 6_500);
  await savePaypal(system, requester.userId, 'requester@example.com');
  await requestWithdrawal(system.db, requester.userId, '60');
  // No tax form: a US person by default, blocked under the default policy "block".
  await fundUser(system, unsigned.userId, 5_000);
  await saveBank(system, unsigned.userId, '000999888777');
  const sign = (userId: string, form: Parameters<typeof signTaxForm>[2]) =>
    signTaxForm(
      system.db,
      system.config.appSecret,
      form,
      { userId, signedAt: new Date(), address: '127.0.0.1', userAgent: 'test' },
      { id: null, email: 'test' },
    );
  await sign(bank.userId, w9Form('Bank Payee'));
  await sign(requester.userId, w9Form('Requester Payee'));
  await sign(foreign.userId, w8benForm('Foreign Payee', 'BR', null));
}, 120_000);

afterAll(async () => {
  await system?.close();
});

describe('a payout run on bank-csv', () => {
  it("names each blocked payee with the reason, on the admin preview and the artist's Payouts page", async () => {
    const response = await admin('/api/admin/payouts/preview');
    expect(response.status).toBe(200);
    const preview = await readJson(response);
    const byEmail = Object.fromEntries(
      preview.items.map((item: { email: string; blocked: { reason: string } | null }) => [
        item.email,
        item.blocked?.reason ?? null,
      ]),
    );
    expect(byEmail['payouts.nodetails@example.com']).toBe(
      'No payout details: add a payout method on the Payouts page.',
    );
    expect(byEmail['payouts.unsigned@example.com']).toMatch(/W-9/);
    expect(byEmail['payouts.bank@example.com']).toBeNull();
    expect(byEmail['payouts.small@example.com']).toBeUndefined();
    const page = await readJson(await system.request('/api/payouts', { cookie: unsigned.cookie }));
    expect(page.blockers).toEqual([byEmail['payouts.unsigned@example.com']]);
    const smallPage = await readJson(await system.request('/api/payouts', { cookie: small.cookie }));
    expect(smallPage.blockers).toEqual(['The balance is below the minimum payout of $50.00.']);
  });

  it('previews who is paid, how much and the withholding, and changes nothing', async () => {
    const before = await Promise.all([bank, foreign, requester].map((p) => money(p.userId)));
    const preview = await previewPayoutRun(system.db, {
      trigger: 'manual',
      actor: { id: null, email: 'test' },
      withholding: withholdingFor,
    });
    const pay = Object.fromEntries(preview.items.map((item) => [item.email, item]));
    expect(pay['payouts.bank@example.com']).toMatchObject({
      grossCents: 12_345,
      withheldCents: 0,
      netCents: 12_345,
      provider: 'bank-csv',
      blocked: null,
    });
    expect(pay['payouts.foreign@example.com']).toMatchObject({
      grossCents: 10_000,
      withheldCents: 3_000,
      netCents: 7_000,
      withholding: expect.stringContaining('30%'),
    });
    expect(pay['payouts.requester@example.com']).toMatchObject({ grossCents: 6_000, netCents: 6_000 });
    expect(pay['payouts.nodetails@example.com']?.blocked?.code).toBe('no_details');
    expect(pay['payouts.unsigned@example.com']?.blocked?.code).toBe('tax');
    expect(pay['payouts.small@example.com']).toBeUndefined();
    expect(preview.totals).toEqual({
      payees: 3,
      blocked: 2,
      grossCents: 28_345,
      withheldCents: 3_000,
      netCents: 25_345,
    });
    expect(await Promise.all([bank, foreign, requester].map((p) => money(p.userId)))).toEqual(before);
    expect(await system.db.select().from(payoutRuns)).toEqual([]);
    await expectBooksHold();
  });

  it('plans, is killed after the bank-csv file was made, resumes with one batch and one file, then reconciles', async () => {
    const started = await startPayoutRun(system.db, {
      trigger: 'manual',
      actor: { id: null, email: 'test' },
      withholding: withholdingFor,
    });
    const runId = started.runId;
    // Reserved: the balances are pending withdrawals the run holds.
    expect(await money(bank.userId)).toEqual({ balance: 0, pending: 12_345 });
    expect(await money(requester.userId)).toEqual({ balance: 500, pending: 6_000 });
    expect(await money(noDetails.userId)).toEqual({ balance: 8_000, pending: 0 });
    await expectBooksHold();

    // The admin cannot approve or reject a request the run holds, nor can the owner cancel it.
    const [held] = await system.db
      .select({ id: withdrawalRequests.id })
      .from(withdrawalRequests)
      .where(eq(withdrawalRequests.userId, requester.userId));
    const approve = await admin(`/api/admin/withdrawals/${held?.id}/approve`, { method: 'POST' });
    expect(approve.status).toBe(409);
    expect((await readJson(approve)).error.code).toBe('in_payout_run');
    const cancel = await system.request(`/api/wallet/withdrawals/${held?.id}/cancel`, {
      method: 'POST',
      cookie: requester.cookie,
    });
    expect(cancel.status).toBe(409);

    // Killed after the provider answered, before the answer was recorded.
    await expect(
      sendPayoutRun(system.db, system.config.appSecret, runId, {
        afterProviderCall: () => {
          throw new Error('killed');
        },
      }),
    ).rejects.toThrow('killed');
    const midway = await system.db.select().from(payoutItems).where(eq(payoutItems.runId, runId));
    expect(midway.filter((item) => item.state === 'planned').length).toBe(3);
    // Resumed, then run once more (a duplicate job): one batch, items sent once.
    await sendPayoutRun(system.db, system.config.appSecret, runId);
    await sendPayoutRun(system.db, system.config.appSecret, runId);
    const batches = await system.db.select().from(payoutBatches).where(eq(payoutBatches.runId, runId));
    expect(batches.map((b) => [b.provider, b.senderBatchId])).toEqual([
      ['bank-csv', `tunedrop-${runId}-bank-csv`],
    ]);
    const run = await readJson(await admin(`/api/admin/payouts/runs/${runId}`));
    expect(run.state).toBe('sent');
    expect(run.items.map((item: { email: string; state: string }) => [item.email, item.state])).toEqual([
      ['payouts.bank@example.com', 'sent'],
      ['payouts.foreign@example.com', 'sent'],
      ['payouts.nodetails@example.com', 'blocked'],
      ['payouts.requester@example.com', 'sent'],
      ['payouts.unsigned@example.com', 'blocked'],
    ]);

    const file = await admin(`/api/admin/payouts/runs/${runId}/file`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('text/csv');
    const lines = (await file.text()).trim().split(/\r?\n/);
    expect(lines[0]).toBe(BANK_CSV_HEADER.join(','));
    expect(lines.length).toBe(4);
    const bankLine = lines.find((line) => line.startsWith(`${runId}:${bank.userId},`));
    expect(bankLine).toContain(',bank,Test Artist,000123456789,021000021,First Test Bank,,123.45,USD,');
    const foreignLine = lines.find((line) => line.startsWith(`${runId}:${foreign.userId},`));
    expect(foreignLine).toContain(',paypal,,,,,foreign.payee@example.com,70.00,USD,');
    await expectBooksHold();

    // A confirmation naming a reference of no payout in this run changes nothing.
    const wrong = await admin(`/api/admin/payouts/runs/${runId}/confirmation`, {
      method: 'POST',
      json: { csv: `reference,status\n${runId}:${bank.userId},paid\nnope,paid\n` },
    });
    expect(wrong.status).toBe(422);
    expect((await readJson(wrong)).error.message).toBe('No payout of this run has the reference "nope".');
    expect((await money(bank.userId))?.pending).toBe(12_345);

    const confirmation = [
      'reference,status,reason',
      `${runId}:${bank.userId},paid,`,
      `${runId}:${foreign.userId},paid,`,
      `${runId}:${requester.userId},returned,account closed`,
    ].join('\n');
    // Webhook endpoints of two payees: their payout events are written with the settlement (issue 40).
    for (const person of [bank, requester]) {
      const hook = await system.request('/api/webhooks/endpoints', {
        method: 'POST',
        cookie: person.cookie,
        json: { url: 'http://127.0.0.1:9/hooks' },
      });
      expect(hook.status).toBe(201);
    }
    const applied = await admin(`/api/admin/payouts/runs/${runId}/confirmation`, {
      method: 'POST',
      json: { csv: confirmation },
    });
    expect(applied.status).toBe(200);
    expect(await readJson(applied)).toEqual({ rows: 3, changed: 3 });
    const again = await admin(`/api/admin/payouts/runs/${runId}/confirmation`, {
      method: 'POST',
      json: { csv: confirmation },
    });
    expect(await readJson(again)).toEqual({ rows: 3, changed: 0 });

    expect(await money(bank.userId)).toEqual({ balance: 0, pending: 0 });
    expect(await money(foreign.userId)).toEqual({ balance: 0, pending: 0 });
    // Returned once: the request's $60 back beside the $5 left.
    expect(await money(requester.userId)).toEqual({ balance: 6_500, pending: 0 });
    const [request] = await system.db
      .select()
      .from(withdrawalRequests)
      .where(eq(withdrawalRequests.id, held?.id ?? ''));
    expect(request?.status).toBe('rejected');
    expect(request?.rejectionReason).toBe('Payout returned: account closed');

    // The journal: paid net 123.45 + 70.00, withheld 30.00 owed for the foreign payee.
    const totals = await rows<{ account: string; subject: string | null; total: string }>(
      system.db,
      sql`select e.account, e.subject, sum(e.amount)::text as total
            from journal_entries e join journal_transactions t on t.id = e.transaction_id
           where t.kind in ('payout_paid', 'payout_returned')
           group by e.account, e.subject order by e.account, e.subject`,
    );
    expect(totals.find((row) => row.account === 'withdrawals_paid')?.total).toBe('-193.45');
    expect(totals.find((row) => row.account === 'tax_withheld_payable')).toEqual({
      account: 'tax_withheld_payable',
      subject: foreign.userId,
      total: '-30.00',
    });
    // The tax module kept the lines it decided on with the paid transaction: 30% of the foreign payee's $100.
    const taxLines = await rows<{ userId: string; withheld: string; gross: string }>(
      system.db,
      sql`select user_id, sum(withheld_cents)::text as withheld, sum(gross_cents)::text as gross
            from tax_withholding_lines group by user_id order by user_id`,
    );
    expect(taxLines.find((row) => row.userId === foreign.userId)).toMatchObject({
      withheld: '3000',
      gross: '10000',
    });
    expect(taxLines.find((row) => row.userId === bank.userId)).toMatchObject({
      withheld: '0',
      gross: '12345',
    });
    expect(taxLines.find((row) => row.userId === requester.userId)).toBeUndefined();
    await expectBooksHold();

    // By hand: a refund of a paid payout re-credits once; a second mark is refused.
    const bankItem = run.items.find((item: { email: string }) => item.email === 'payouts.bank@example.com');
    const refund = await admin(`/api/admin/payouts/items/${bankItem.id}/mark`, {
      method: 'POST',
      json: { outcome: 'returned', reason: 'bank reversed it' },
    });
    expect(refund.status).toBe(200);
    const twice = await admin(`/api/admin/payouts/items/${bankItem.id}/mark`, {
      method: 'POST',
      json: { outcome: 'returned', reason: 'again' },
    });
    expect(twice.status).toBe(409);
    expect(await money(bank.userId)).toEqual({ balance: 12_345, pending: 0 });
    const [bankLines] = await rows<{ gross: string }>(
      system.db,
      sql`select sum(gross_cents)::text as gross from tax_withholding_lines where user_id = ${bank.userId}`,
    );
    expect(bankLines?.gross).toBe('0');
    await expectBooksHold();
    // What the analytics show as withdrawn: the paid gross, less the refund, nothing for the returned one.
    expect(await withdrawnCents(system.db, foreign.userId)).toBe(10_000);
    expect(await withdrawnCents(system.db, bank.userId)).toBe(0);
    expect(await withdrawnCents(system.db, requester.userId)).toBe(0);

    const hooks = async (userId: string) =>
      (
        await system.db
          .select({ payload: webhookMessages.payload })
          .from(webhookMessages)
          .where(eq(webhookMessages.accountId, userId))
          .orderBy(webhookMessages.createdAt)
      ).map((row) => row.payload as { type: string; data: Record<string, unknown> });
    expect((await hooks(bank.userId)).map((event) => [event.type, event.data.payoutItemId])).toEqual([
      ['payout.paid', bankItem.id],
      ['payout.returned', bankItem.id],
    ]);
    expect(await hooks(requester.userId)).toMatchObject([
      { type: 'payout.failed', data: { runId, reason: 'account closed' } },
    ]);

    const page = await readJson(await system.request('/api/payouts', { cookie: requester.cookie }));
    expect(page.payouts[0]).toMatchObject({
      state: 'returned',
      returnReason: 'account closed',
      netCents: 6_000,
    });
  });

  it('payouts:run --preview prints the plan and changes nothing; the admin routes are admin-only', async () => {
    // Compared with before: the run of the case above exists or not, whichever order the cases ran in.
    const runsBefore = (await system.db.select({ id: payoutRuns.id }).from(payoutRuns)).length;
    const preview = await cli('payouts:run', { preview: true });
    expect(preview.ok).toBe(true);
    expect(preview.text).toContain('Preview (nothing sent):');
    expect(preview.text).toContain(
      'BLOCKED  payouts.nodetails@example.com  $80.00  No payout details: add a payout method on the Payouts page.',
    );
    const runs = await system.db.select({ id: payoutRuns.id }).from(payoutRuns);
    expect(runs.length).toBe(runsBefore);
    for (const path of [
      '/api/admin/payouts/preview',
      '/api/admin/payouts/runs',
      '/api/admin/payouts/settings',
    ]) {
      expect((await system.request(path, { cookie: bank.cookie })).status).toBe(403);
    }
  });
});

describe('provider settings', () => {
  it('refuses enabling PayPal without credentials and stores credentials encrypted, shown masked', async () => {
    const refused = await admin('/api/admin/payouts/providers', {
      method: 'PUT',
      json: { provider: 'paypal', enabled: true },
    });
    expect(refused.status).toBe(422);
    const saved = await admin('/api/admin/payouts/providers', {
      method: 'PUT',
      json: {
        provider: 'paypal',
        enabled: false,
        credentials: { clientId: 'client-abcd1234', clientSecret: 'very-secret-value', webhookId: '' },
        baseUrl: 'http://127.0.0.1:45999',
      },
    });
    expect(saved.status).toBe(200);
    expect(await readJson(saved)).toMatchObject({
      provider: 'paypal',
      enabled: false,
      hasCredentials: true,
      credentialsHint: '…1234',
    });
    const [row] = await system.db
      .select({ stored: payoutProviders.credentialsEncrypted })
      .from(payoutProviders)
      .where(eq(payoutProviders.provider, 'paypal'));
    expect(row?.stored).toMatch(/^v1\./);
    expect(row?.stored).not.toContain('very-secret-value');
    const settings = await readJson(await admin('/api/admin/payouts/settings'));
    expect(JSON.stringify(settings)).not.toContain('very-secret-value');
    const test = await admin('/api/admin/payouts/providers/bank-csv/test', { method: 'POST' });
    expect(await readJson(test)).toMatchObject({ ok: true });
  });
});
