/**
 * The non-US regime's self-billing invoices (issue 38): numbered without gaps (a rolled-back invoice gives
 * its number back), one per statement or payout, the VAT at the payee's registered rate, the operator's and
 * payee's details on the PDF; a bad VAT number is refused and changes nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestUser } from '../../test-support/fixtures';
import { createTestSystem, type TestSystem } from '../../test-support/harness';
import { cliAuditActor } from '../audit';
import { issueSelfBillingInvoice, readVatRegistration, saveVatRegistration } from './invoices';
import { saveStatementIssuerForTest } from './tax-fixtures';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => system?.close());

const pdfText = (pdf: Buffer) => {
  const dir = mkdtempSync(join(tmpdir(), 'tax-invoice-'));
  try {
    writeFileSync(join(dir, 'a.pdf'), pdf);
    return execFileSync('pdftotext', ['-layout', join(dir, 'a.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

it('numbers self-billing invoices without gaps, one per payout, with VAT and both parties', async () => {
  await saveStatementIssuerForTest(system.db, 'Label Operator GmbH', 'Torstrasse 1\n10119 Berlin');
  const { userId } = await createTestUser(system, { fullName: 'Dora Deutsch', artistName: 'Dora' });
  expect(
    await saveVatRegistration(
      system.db,
      userId,
      { vatNumber: 'x', ratePercent: '19' },
      cliAuditActor(),
    ).catch((error: Error) => error.message),
  ).toBe('Enter the VAT or GST number, such as DE123456789.');
  expect(await readVatRegistration(system.db, userId)).toBeNull();
  await saveVatRegistration(
    system.db,
    userId,
    { vatNumber: 'de123456789', ratePercent: '19' },
    cliAuditActor(),
  );

  const first = await issueSelfBillingInvoice(system.db, {
    userId,
    reference: { type: 'payout', id: 'payout-1', description: 'Payout of 2027-01' },
    netCents: 10_001,
  });
  // A failing invoice (no such payee) rolls back and gives its number back.
  await expect(
    issueSelfBillingInvoice(system.db, {
      userId: 'nobody',
      reference: { type: 'payout', id: 'p-x', description: 'x' },
      netCents: 1,
    }),
  ).rejects.toThrow('No such payee.');
  const second = await issueSelfBillingInvoice(system.db, {
    userId,
    reference: { type: 'statement', id: `${userId}:2027-01`, description: 'Statement 2027-01' },
    netCents: 500,
  });
  const again = await issueSelfBillingInvoice(system.db, {
    userId,
    reference: { type: 'payout', id: 'payout-1', description: 'Payout of 2027-01' },
    netCents: 10_001,
  });
  expect([first.number, second.number, again.number]).toEqual([first.number, first.number + 1, first.number]);
  expect(first).toMatchObject({ netCents: 10_001, vatRatePercent: '19', vatCents: 1900, totalCents: 11_901 });
  const text = pdfText(first.pdf);
  expect(text).toContain(`Self-billing invoice SB-${String(first.number).padStart(6, '0')}`);
  expect(text).toContain('Label Operator GmbH');
  expect(text).toContain('DE123456789');
  expect(text).toMatch(/Total\s+\$119\.01/);
});
