/**
 * The withholding decision per payout line (issue 38) on a real database: certified W-9 0%; no or
 * uncertified W-9 blocked or 24% by policy; a W-8BEN with a treaty at the table's rate; foreign without a
 * valid form (none, expired) 30%; only US-territory lines subject by default, all lines when set; the
 * non-US regime withholds nothing. recordWithholding keeps the lines only when the payout's journal
 * transaction credits the same cents to tax_withheld_payable.
 */
import { centsToDecimal } from '@tunedrop/shared/money';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taxWithholdingLines } from '../../db/schema';
import { run } from '../../lib/sql';
import { createTestUser } from '../../test-support/fixtures';
import { createTestSystem, type TestSystem } from '../../test-support/harness';
import { cliAuditActor } from '../audit';
import { recordTransaction } from '../ledger';
import { declareResidency, signTaxForm } from './forms';
import { saveTaxSettings } from './settings';
import { w8benForm, w9Form } from './tax-fixtures';
import { saveTreatyRate } from './treaty';
import { recordWithholding, withheldCentsOf, withholdingFor } from './withholding';

let system: TestSystem;
const actor = cliAuditActor();
const SIGNED = new Date('2026-03-10T12:00:00Z');
const PAY = new Date('2026-06-01T00:00:00Z');
const lines = [
  { key: 'us', territory: 'US', cents: 10_001 },
  { key: 'de', territory: 'DE', cents: 5_000 },
];

beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => system?.close());

async function payee(form: Parameters<typeof signTaxForm>[2] | null) {
  const user = await createTestUser(system);
  if (form) {
    await signTaxForm(
      system.db,
      system.config.appSecret,
      form,
      {
        userId: user.userId,
        signedAt: SIGNED,
        address: '203.0.113.9',
        userAgent: 'vitest',
      },
      actor,
    );
  }
  return user.userId;
}

const settings = (
  noW9Policy: 'block' | 'withhold',
  scope: 'us_territory' | 'all' = 'us_territory',
  regime: 'us_withholding_agent' | 'non_us' = 'us_withholding_agent',
) => saveTaxSettings(system.db, { regime, noW9Policy, scope }, null, actor);

describe('withholdingFor', () => {
  it('rounds the withheld cents half up on the exact product', () => {
    expect(withheldCentsOf(10_001, '30')).toBe(3000); // 3000.3
    expect(withheldCentsOf(10_005, '24')).toBe(2401); // 2401.2
    expect(withheldCentsOf(25, '30')).toBe(8); // 7.5 → 8
    expect(withheldCentsOf(1234, '0')).toBe(0);
  });

  it('certified W-9: nothing withheld, reported on 1099-MISC', async () => {
    await settings('block');
    const userId = await payee(w9Form('Uma States'));
    const decision = await withholdingFor(system.db, { accountId: userId, lines, asOf: PAY });
    expect(decision).toMatchObject({ status: 'ok', form: '1099-misc', withheldCents: 0, netCents: 15_001 });
  });

  it('DE W-8BEN with the treaty: the table rate 0% on US lines, exemption code 04 on 1042-S', async () => {
    await settings('block');
    const userId = await payee(w8benForm('Dora Deutsch', 'DE', { article: '12(1)', ratePercent: '0' }));
    const decision = await withholdingFor(system.db, { accountId: userId, lines, asOf: PAY });
    expect(decision).toMatchObject({ status: 'ok', form: '1042-s', exemptionCode: '04', withheldCents: 0 });
    if (decision.status !== 'ok') throw new Error('blocked');
    expect(decision.lines[0]).toMatchObject({
      isSubject: true,
      ratePercent: '0',
      basis: 'Form W-8BEN DE treaty art. 12(1)',
    });
  });

  it('BR W-8BEN without a treaty: 30% of the US-territory line only; all lines when the scope is all', async () => {
    await settings('block');
    const userId = await payee(
      w8benForm('Bruna Brasil', 'BR', null, {
        permanentAddress: { street: 'Rua Augusta 100', city: 'São Paulo', country: 'BR' },
      }),
    );
    const decision = await withholdingFor(system.db, { accountId: userId, lines, asOf: PAY });
    expect(decision).toMatchObject({ status: 'ok', form: '1042-s', withheldCents: 3000, netCents: 12_001 });
    if (decision.status !== 'ok') throw new Error('blocked');
    expect(
      decision.lines.map((line) => [line.key, line.isSubject, line.ratePercent, line.withheldCents]),
    ).toEqual([
      ['us', true, '30', 3000],
      ['de', false, '0', 0],
    ]);
    await settings('block', 'all');
    const all = await withholdingFor(system.db, { accountId: userId, lines, asOf: PAY });
    expect(all).toMatchObject({ status: 'ok', withheldCents: 3000 + 1500 });
    await settings('block');
  });

  it('US payee without a W-9: blocked in plain words under "block", 24% under "withhold"', async () => {
    const userId = await payee(null);
    await settings('block');
    expect(await withholdingFor(system.db, { accountId: userId, lines, asOf: PAY })).toEqual({
      status: 'blocked',
      reason:
        'No Form W-9 on file: payouts are on hold until a certified Form W-9 (or a Form W-8 for a non-US person) is signed.',
    });
    await settings('withhold');
    expect(await withholdingFor(system.db, { accountId: userId, lines, asOf: PAY })).toMatchObject({
      status: 'ok',
      form: '1099-misc',
      withheldCents: 2400, // 24% of 10001 = 2400.24
    });
    await settings('block');
  });

  it('an uncertified W-9 is blocked like none; a W-9 with item 2 crossed out is withheld 24% whatever the policy', async () => {
    await settings('block');
    const uncertified = await payee(w9Form('Ursula Unsigned', { isCertified: false, signatureName: '' }));
    expect(await withholdingFor(system.db, { accountId: uncertified, lines, asOf: PAY })).toMatchObject({
      status: 'blocked',
      reason: expect.stringContaining('The Form W-9 is not certified'),
    });
    const backup = await payee(w9Form('Bob Backup', { isSubjectToBackupWithholding: true }));
    expect(await withholdingFor(system.db, { accountId: backup, lines, asOf: PAY })).toMatchObject({
      status: 'ok',
      withheldCents: 2400,
    });
  });

  it('a declared foreign payee without a form, and an expired W-8, are withheld 30%', async () => {
    await settings('block');
    const declared = await payee(null);
    await declareResidency(system.db, declared, false);
    expect(await withholdingFor(system.db, { accountId: declared, lines, asOf: PAY })).toMatchObject({
      status: 'ok',
      form: '1042-s',
      withheldCents: 3000,
    });
    const expiring = await payee(w8benForm('Eva Expired', 'DE', { article: '12(1)', ratePercent: '0' }));
    // Signed in 2026: valid to 2029-12-31, expired on 2030-01-01.
    expect(
      await withholdingFor(system.db, { accountId: expiring, lines, asOf: new Date('2029-12-31T23:00:00Z') }),
    ).toMatchObject({ withheldCents: 0 });
    const after = await withholdingFor(system.db, {
      accountId: expiring,
      lines,
      asOf: new Date('2030-01-01T00:00:00Z'),
    });
    expect(after).toMatchObject({ status: 'ok', withheldCents: 3000 });
    if (after.status === 'ok') expect(after.lines[0]?.basis).toBe('Form W-8 expired on 2029-12-31');
  });

  it('a treaty rate changed by the operator applies from its date; earlier payouts keep the old rate', async () => {
    await settings('block');
    const userId = await payee(w8benForm('Jun Japan', 'JP', { article: '12(1)', ratePercent: '0' }));
    await saveTreatyRate(
      system.db,
      { country: 'JP', ratePercent: '10', article: '12(2)', effectiveFrom: '2027-01-01' },
      actor,
    );
    expect(await withholdingFor(system.db, { accountId: userId, lines, asOf: PAY })).toMatchObject({
      withheldCents: 0,
    });
    expect(
      await withholdingFor(system.db, { accountId: userId, lines, asOf: new Date('2027-02-01T00:00:00Z') }),
    ).toMatchObject({
      withheldCents: 1000,
    });
  });

  it('the non-US regime withholds nothing and names no US form', async () => {
    await settings('block', 'us_territory', 'non_us');
    const userId = await payee(null);
    expect(await withholdingFor(system.db, { accountId: userId, lines, asOf: PAY })).toMatchObject({
      status: 'ok',
      form: null,
      withheldCents: 0,
    });
    await settings('block');
  });
});

describe('recordWithholding', () => {
  it('keeps the lines when the journal transaction credits the withheld cents; refuses a mismatch', async () => {
    await settings('block');
    const userId = await payee(
      w8benForm('Beto Brasil', 'BR', null, {
        permanentAddress: { street: 'Rua 1', city: 'Rio', country: 'BR' },
      }),
    );
    const decision = await withholdingFor(system.db, { accountId: userId, lines, asOf: PAY });
    if (decision.status !== 'ok') throw new Error('blocked');
    const post = (withheld: number) =>
      system.db.transaction(async (tx) => {
        const id = await recordTransaction(tx, {
          kind: 'payout_paid',
          entries: [
            { account: 'manual_adjustments', amount: centsToDecimal(decision.grossCents) },
            { account: 'withdrawals_paid', amount: centsToDecimal(-(decision.grossCents - withheld)) },
            { account: 'tax_withheld_payable', subject: userId, amount: centsToDecimal(-withheld) },
          ],
        });
        if (!id) throw new Error('not written');
        await recordWithholding(tx, {
          decision,
          accountId: userId,
          journalTransactionId: id,
          reference: { type: 'payout_item', id: userId },
          paidAt: PAY,
        });
      });
    await expect(post(2999)).rejects.toThrow(/credits 2999 cents .* withheld 3000/);
    await post(3000);
    const kept = await system.db
      .select({
        key: taxWithholdingLines.lineKey,
        form: taxWithholdingLines.reportForm,
        withheld: taxWithholdingLines.withheldCents,
      })
      .from(taxWithholdingLines)
      .where(sql`${taxWithholdingLines.userId} = ${userId}`)
      .orderBy(taxWithholdingLines.lineKey);
    expect(kept).toEqual([
      { key: 'de', form: null, withheld: 0 },
      { key: 'us', form: '1042-s', withheld: 3000 },
    ]);
    const refusal = await run(system.db, sql`update tax_withholding_lines set withheld_cents = 0`).then(
      () => 'accepted',
      (error: Error & { cause?: Error }) => `${error.message} ${error.cause?.message ?? ''}`,
    );
    expect(refusal).toMatch(/append-only/);
  });
});
