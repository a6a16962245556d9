/**
 * A non-US operator's payee gets a self-billing invoice with each payout (issue 38): issued in the
 * transaction that pays it (the gross, VAT at the payee's registered rate), once however often the payout
 * is confirmed, none for a payout returned before it was paid; the admin lists every payee's invoices and
 * downloads each PDF; `ledger:verify` holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommands } from '../../cli-commands';
import { staff } from '../../test-support/admin-fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { fundUser, saveBank } from '../../test-support/wallet-fixtures';
import { startPayoutRun } from './run-plan';
import { sendPayoutRun } from './run-send';
import { withholdingFor } from './withholding';

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
type Person = Awaited<ReturnType<TestSystem['signedInUser']>>;
let payee: Person;
let other: Person;

const admin = (path: string, init: { method?: string; json?: unknown } = {}) =>
  system.request(path, { ...init, cookie: people.admin.cookie });

beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
  payee = await system.signedInUser({ plan: 'basic', email: 'vat.payee@example.com' });
  other = await system.signedInUser({ plan: 'basic', email: 'vat.other@example.com' });
  for (const person of [payee, other]) {
    await fundUser(system, person.userId, 10_000);
    await saveBank(system, person.userId);
  }
  const regime = await admin('/api/admin/tax/settings', {
    method: 'PUT',
    json: { regime: 'non_us', noW9Policy: 'block', scope: 'us_territory' },
  });
  expect(regime.status).toBe(200);
  const vat = await system.request('/api/tax/vat', {
    method: 'PUT',
    cookie: payee.cookie,
    json: { vatNumber: 'DE123456789', ratePercent: '19' },
  });
  expect(vat.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await system?.close();
});

describe('self-billing invoices with payouts', () => {
  it('issues one invoice when a payout is paid, none for one returned, and lists them for the admin', async () => {
    const { runId } = await startPayoutRun(system.db, {
      trigger: 'manual',
      actor: { id: null, email: 'test' },
      withholding: withholdingFor,
    });
    await sendPayoutRun(system.db, system.config.appSecret, runId);
    const run = await readJson(await admin(`/api/admin/payouts/runs/${runId}`));
    const itemOf = (email: string) =>
      (run.items as { id: string; email: string; withheldCents: number }[]).find((i) => i.email === email);
    const paid = itemOf('vat.payee@example.com');
    const returned = itemOf('vat.other@example.com');
    expect(paid?.withheldCents).toBe(0);
    const marked = await admin(`/api/admin/payouts/items/${paid?.id}/mark`, {
      method: 'POST',
      json: { outcome: 'paid' },
    });
    expect(marked.status).toBe(200);
    // The bank's confirmation says it again: nothing changes, no second invoice.
    const confirmed = await admin(`/api/admin/payouts/runs/${runId}/confirmation`, {
      method: 'POST',
      json: { csv: `reference,status\r\n${runId}:${payee.userId},paid\r\n` },
    });
    expect(confirmed.status).toBe(200);
    await admin(`/api/admin/payouts/items/${returned?.id}/mark`, {
      method: 'POST',
      json: { outcome: 'returned', reason: 'account closed' },
    });

    const mine = await readJson(await system.request('/api/tax/invoices', { cookie: payee.cookie }));
    expect(mine.invoices).toHaveLength(1);
    expect(mine.invoices[0]).toMatchObject({
      referenceType: 'payout',
      referenceId: paid?.id,
      netCents: 10_000,
      vatCents: 1_900,
      totalCents: 11_900,
    });
    expect(mine.invoices[0].numberText).toMatch(/^SB-\d{6}$/);
    const theirs = await readJson(await system.request('/api/tax/invoices', { cookie: other.cookie }));
    expect(theirs.invoices).toEqual([]);

    const all = await readJson(await admin('/api/admin/tax/invoices'));
    expect(all.invoices.map((row: { email: string; numberText: string }) => row.email)).toEqual([
      'vat.payee@example.com',
    ]);
    const pdf = await admin(`/api/admin/tax/invoices/${all.invoices[0].id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    // The payee's own PDF route does not open another payee's invoice.
    const foreign = await system.request(`/api/tax/invoices/${all.invoices[0].id}/pdf`, {
      cookie: other.cookie,
    });
    expect(foreign.status).toBe(404);

    const verify = cliCommands['ledger:verify'];
    if (!verify) throw new Error('ledger:verify is not registered');
    await expect(verify.run(system, [], {})).resolves.toBeTruthy();
  });
});
