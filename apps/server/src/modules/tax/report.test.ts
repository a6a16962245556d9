/**
 * Year-end 1099-MISC and 1042-S (issue 38): from payouts posted as the payouts module posts them (journal
 * transaction and withholding lines together), one row per recipient with the form's boxes; the totals
 * equal the journal's paid and withheld figures to the cent; a withholding line the journal does not back
 * refuses the report; `tax:report` prints the CSV and writes recipient PDFs.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { centsToDecimal } from '@tunedrop/shared/money';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliCommands } from '../../cli-commands';
import { rows, run } from '../../lib/sql';
import { createTestUser } from '../../test-support/fixtures';
import { createTestSystem, type TestSystem } from '../../test-support/harness';
import { cliAuditActor } from '../audit';
import { recordTransaction } from '../ledger';
import { signTaxForm } from './forms';
import { buildTaxReport, TaxReportMismatch, taxReportCsv } from './report';
import { saveTaxSettings } from './settings';
import { postTestPayout, w8benForm, w9Form } from './tax-fixtures';
import { reverseWithholding } from './withholding';

let system: TestSystem;
const actor = cliAuditActor();
const JAN = new Date('2027-01-15T10:00:00Z');
const lines = (us: number, de: number) => [
  { key: 'us', territory: 'US', cents: us },
  { key: 'de', territory: 'DE', cents: de },
];
const ids: Record<string, string> = {};

async function payee(key: string, email: string, form: Parameters<typeof signTaxForm>[2] | null) {
  const { userId } = await createTestUser(system, { email });
  if (form) {
    await signTaxForm(
      system.db,
      system.config.appSecret,
      form,
      { userId, signedAt: new Date('2026-12-01T00:00:00Z'), address: null, userAgent: null },
      actor,
    );
  }
  ids[key] = userId;
  return userId;
}

beforeAll(async () => {
  system = await createTestSystem();
  await saveTaxSettings(
    system.db,
    { regime: 'us_withholding_agent', noW9Policy: 'withhold', scope: 'us_territory' },
    null,
    actor,
  );
  await postTestPayout(
    system.db,
    await payee('us', 'a-uma@example.com', w9Form('Uma States')),
    lines(10_000, 2_500),
    JAN,
  );
  await postTestPayout(
    system.db,
    await payee(
      'de',
      'b-dora@example.com',
      w8benForm('Dora Deutsch', 'DE', { article: '12(1)', ratePercent: '0' }),
    ),
    lines(8_000, 1_000),
    JAN,
  );
  const br = w8benForm('Bruna Brasil', 'BR', null, {
    permanentAddress: { street: 'Rua Augusta 100', city: 'São Paulo', country: 'BR' },
  });
  await postTestPayout(system.db, await payee('br', 'c-bruna@example.com', br), lines(10_001, 4_000), JAN);
  await postTestPayout(system.db, await payee('none', 'd-nora@example.com', null), lines(5_000, 0), JAN);
  // A payout of December 2026 is not in 2027's report.
  await postTestPayout(system.db, ids.us as string, lines(7_700, 0), new Date('2026-12-31T23:59:59Z'));
});
afterAll(async () => system?.close());

describe('tax reports', () => {
  it('1099-MISC: royalties and backup withholding per US recipient, equal to the journal', async () => {
    const report = await buildTaxReport(system.db, system.config.appSecret, {
      year: 2027,
      form: '1099-misc',
    });
    expect(report.rows.map((row) => [row.email, row.tin, row.grossCents, row.withheldCents])).toEqual([
      ['a-uma@example.com', '123-45-6789', 12_500, 0],
      ['d-nora@example.com', '', 5_000, 1_200],
    ]);
    expect(report.totals).toEqual({ grossCents: 17_500, withheldCents: 1_200 });
    expect(report.journal).toMatchObject({ grossCents: 17_500, withheldCents: 1_200 });
    expect(taxReportCsv(report).split('\r\n')[1]).toBe(
      '2027,Uma States,123-45-6789,"1 Main St, Austin TX 78701, US",a-uma@example.com,125.00,0.00,yes',
    );
  });

  it('1042-S: income code 12, US-source gross, exemption code and rate per foreign recipient', async () => {
    const report = await buildTaxReport(system.db, system.config.appSecret, { year: 2027, form: '1042-s' });
    expect(
      report.rows.map((row) => [
        row.name,
        row.country,
        row.grossCents,
        row.exemptionCode,
        row.ratePercent,
        row.withheldCents,
      ]),
    ).toEqual([
      ['Dora Deutsch', 'DE', 8_000, '04', '0', 0],
      ['Bruna Brasil', 'BR', 10_001, '', '30', 3_000],
    ]);
    // Withheld equals the journal; the journal's gross of these payouts includes their non-US lines.
    expect(report.journal).toEqual({
      grossCents: 9_000 + 14_001,
      withheldCents: 3_000,
      linesGrossCents: 23_001,
    });
    await expect(cliCommands['ledger:verify']?.run(system, [], {})).resolves.toContain(
      'tax_withheld_payable',
    );
  });

  it('tax:report prints the CSV and writes one PDF per recipient', async () => {
    const out = await mkdtemp(join(tmpdir(), 'tax-report-'));
    try {
      const command = cliCommands['tax:report'];
      if (!command) throw new Error('no tax:report');
      const printed = await command.run(system, [], { year: '2027', form: '1042-s', out });
      expect(printed).toContain('1042-s 2027: 2 recipient row(s), paid $180.01, withheld $30.00');
      const files = (await readdir(out)).sort();
      expect(files).toHaveLength(3);
      expect(await readFile(join(out, '1042-s-2027.csv'), 'utf8')).toContain('Bruna Brasil,BR,');
      expect((await readFile(join(out, files[0] as string))).subarray(0, 5).toString()).toBe('%PDF-');
      await expect(command.run(system, [], { year: '2027', form: '1099-nec' })).rejects.toThrow(
        /--form must be one of/,
      );
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });

  it('refuses a report whose withholding the journal does not back', async () => {
    // A payee and a year of its own (2029): the lines are append-only, and the other cases read 2027 and 2028.
    const br = w8benForm('Tina Tampered', 'BR', null, {
      permanentAddress: { street: 'Rua 3', city: 'Recife', country: 'BR' },
    });
    const userId = await payee('tampered', 'f-tina@example.com', br);
    await postTestPayout(system.db, userId, lines(10_001, 4_000), new Date('2029-01-15T10:00:00Z'));
    await run(
      system.db,
      sql`insert into tax_withholding_lines (user_id, journal_transaction_id, reference_type, reference_id, line_key,
            territory, gross_cents, is_subject, rate_percent, withheld_cents, basis, report_form, paid_at)
          select user_id, journal_transaction_id, 'tampered', 'x', 'extra', 'US', 0, true, 30, 99, 'tampered', '1042-s', paid_at
            from tax_withholding_lines where user_id = ${userId} limit 1`,
    );
    await expect(
      buildTaxReport(system.db, system.config.appSecret, { year: 2029, form: '1042-s' }),
    ).rejects.toThrow(TaxReportMismatch);
    await expect(
      buildTaxReport(system.db, system.config.appSecret, { year: 2029, form: '1042-s' }),
    ).rejects.toThrow('withheld: report $30.99, journal tax_withheld_payable $30.00');
  });

  it('a refunded payout reverses its withholding: the year nets to zero and still equals the journal', async () => {
    const userId = await payee(
      'refund',
      'e-rita@example.com',
      w8benForm('Rita Refund', 'BR', null, {
        permanentAddress: { street: 'Rua 2', city: 'Rio', country: 'BR' },
      }),
    );
    const paidAt = new Date('2028-02-01T00:00:00Z');
    const decision = await postTestPayout(system.db, userId, lines(1_000, 0), paidAt);
    if (decision.status !== 'ok') throw new Error('blocked');
    await system.db.transaction(async (tx) => {
      const [paid] = await rows<{ id: string }>(
        tx,
        sql`select journal_transaction_id as id from tax_withholding_lines where user_id = ${userId} limit 1`,
      );
      const id = await recordTransaction(tx, {
        kind: 'payout_returned',
        entries: [
          { account: 'withdrawals_paid', amount: centsToDecimal(decision.netCents) },
          {
            account: 'tax_withheld_payable',
            subject: userId,
            amount: centsToDecimal(decision.withheldCents),
          },
          { account: 'artist_payable', subject: userId, amount: centsToDecimal(-decision.grossCents) },
        ],
      });
      if (!id || !paid) throw new Error('not written');
      // The returned gross is on the payee's balance again, as the journal says (ledger:verify checks it).
      await run(
        tx,
        sql`update profiles set balance_cents = balance_cents + ${decision.grossCents} where id = ${userId}`,
      );
      await reverseWithholding(tx, {
        journalTransactionId: id,
        reversesJournalTransactionId: paid.id,
        reversedAt: paidAt,
      });
    });
    const report = await buildTaxReport(system.db, system.config.appSecret, { year: 2028, form: '1042-s' });
    expect(report.totals).toEqual({ grossCents: 0, withheldCents: 0 });
    expect(report.journal).toEqual({ grossCents: 0, withheldCents: 0, linesGrossCents: 0 });
  });
});
