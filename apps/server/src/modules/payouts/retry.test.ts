/**
 * The admin's second tries (issue 38): a payout the bank returned is paid again by a run of that payee
 * alone (the money back on the balance goes out again, once), a paid one cannot be; a run whose sending
 * failed keeps the error for the run page and is resumed by a new send job (one at a time), a sent run
 * cannot be; `ledger:verify` holds after each.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payoutRuns, profiles } from '../../db/schema';
import { staff } from '../../test-support/admin-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { expectLedgerVerifies } from '../../test-support/money-checks';
import { fundUser, saveBank } from '../../test-support/wallet-fixtures';
import { signTaxForm, w9Form } from '../tax';
import { startPayoutRun } from './run-plan';
import { recordSendError, sendPayoutRun } from './run-send';
import { withholdingFor } from './withholding';

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
let payee: Awaited<ReturnType<TestSystem['signedInUser']>>;

const admin = (path: string, init: { method?: string; json?: unknown } = {}) =>
  system.request(path, { ...init, cookie: people.admin.cookie });

const ledgerHolds = () => expectLedgerVerifies(system);

async function money() {
  const [row] = await system.db
    .select({ balance: profiles.balanceCents, pending: profiles.pendingBalanceCents })
    .from(profiles)
    .where(eq(profiles.id, payee.userId));
  return row;
}

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
  payee = await system.signedInUser({ plan: 'basic', email: 'retry.payee@example.com' });
  await fundUser(system, payee.userId, 9_000);
  await saveBank(system, payee.userId);
  await signTaxForm(
    system.db,
    system.config.appSecret,
    w9Form('Retry Payee'),
    { userId: payee.userId, signedAt: new Date(), address: '127.0.0.1', userAgent: 'test' },
    { id: null, email: 'test' },
  );
}, 120_000);

afterAll(async () => {
  await system?.close();
});

describe('paying again and resuming', () => {
  it('pays a returned payout again in a run of that payee alone, and refuses a paid one', async () => {
    const { runId } = await startPayoutRun(system.db, {
      trigger: 'manual',
      actor: { id: null, email: 'test' },
      withholding: withholdingFor,
      accountIds: [payee.userId],
    });
    await sendPayoutRun(system.db, system.config.appSecret, runId);
    const run = await readJson(await admin(`/api/admin/payouts/runs/${runId}`));
    const itemId = run.items[0].id as string;
    const early = await admin(`/api/admin/payouts/items/${itemId}/retry`, { method: 'POST' });
    expect(early.status).toBe(409);
    expect((await readJson(early)).error.code).toBe('payout_not_retryable');

    const returned = await admin(`/api/admin/payouts/items/${itemId}/mark`, {
      method: 'POST',
      json: { outcome: 'returned', reason: 'account closed' },
    });
    expect(returned.status).toBe(200);
    expect(await money()).toEqual({ balance: 9_000, pending: 0 });
    await ledgerHolds();

    const again = await admin(`/api/admin/payouts/items/${itemId}/retry`, { method: 'POST' });
    expect(again.status).toBe(201);
    const second = await readJson(again);
    expect(second.id).not.toBe(runId);
    expect(second.items.map((item: { email: string; state: string }) => [item.email, item.state])).toEqual([
      ['retry.payee@example.com', 'planned'],
    ]);
    expect(second.totals).toMatchObject({ payees: 1, grossCents: 9_000, netCents: 9_000 });
    expect(await money()).toEqual({ balance: 0, pending: 9_000 });
    // Asked twice: the balance is held by the new run, so nobody is due.
    const twice = await admin(`/api/admin/payouts/items/${itemId}/retry`, { method: 'POST' });
    expect(twice.status).toBe(409);
    expect((await readJson(twice)).error.code).toBe('nothing_to_pay');
    await ledgerHolds();

    // The failed send keeps its error on the run until it is resumed; one resume job at a time.
    await recordSendError(system.db, second.id, new Error('PayPal batch creation failed (HTTP 500)'));
    const shown = await readJson(await admin(`/api/admin/payouts/runs/${second.id}`));
    expect(shown.error).toBe('PayPal batch creation failed (HTTP 500)');
    const resumed = await admin(`/api/admin/payouts/runs/${second.id}/resume`, { method: 'POST' });
    expect(resumed.status).toBe(200);
    expect(await readJson(resumed)).toEqual({ queued: false });
    await sendPayoutRun(system.db, system.config.appSecret, second.id);
    const [after] = await system.db.select().from(payoutRuns).where(eq(payoutRuns.id, second.id));
    expect(after).toMatchObject({ state: 'sent', error: null });
    const late = await admin(`/api/admin/payouts/runs/${second.id}/resume`, { method: 'POST' });
    expect(late.status).toBe(409);
    expect((await readJson(late)).error.code).toBe('payout_run_sent');

    const paidItem = (await readJson(await admin(`/api/admin/payouts/runs/${second.id}`))).items[0].id;
    await admin(`/api/admin/payouts/items/${paidItem}/mark`, { method: 'POST', json: { outcome: 'paid' } });
    const paidAgain = await admin(`/api/admin/payouts/items/${paidItem}/retry`, { method: 'POST' });
    expect(paidAgain.status).toBe(409);
    expect(await money()).toEqual({ balance: 0, pending: 0 });
    await ledgerHolds();
  });
});
