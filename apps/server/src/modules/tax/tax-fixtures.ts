/** Forms as the interview sends them, and a payout posted as payouts posts it: for tests and fixtures. */

import { centsToDecimal as centsToUsd } from '@tunedrop/shared/money';
import type { TaxFormInput } from '@tunedrop/shared/schemas/tax';
import type { Db } from '../../db/client';
import { settings } from '../../db/schema';
import { recordTransaction } from '../ledger';
import {
  recordWithholding,
  type WithholdingDecision,
  type WithholdingLineInput,
  withholdingFor,
} from './withholding';

export const w9Form = (
  name: string,
  overrides: Partial<Extract<TaxFormInput, { kind: 'w9' }>> = {},
): TaxFormInput => ({
  kind: 'w9',
  name,
  classification: 'individual',
  tinType: 'ssn',
  tin: '123-45-6789',
  address: { street: '1 Main St', city: 'Austin', region: 'TX', postalCode: '78701', country: 'US' },
  isSubjectToBackupWithholding: false,
  isCertified: true,
  signatureName: name,
  ...overrides,
});

export const w8benForm = (
  name: string,
  country: string,
  treaty: { article: string; ratePercent: string } | null,
  overrides: Partial<Extract<TaxFormInput, { kind: 'w8ben' }>> = {},
): TaxFormInput => ({
  kind: 'w8ben',
  name,
  citizenship: country,
  permanentAddress: { street: 'Hauptstrasse 5', city: 'Berlin', postalCode: '10115', country },
  foreignTin: '12345678901',
  dateOfBirth: '1990-04-01',
  ...(treaty ? { treaty: { country, ...treaty } } : {}),
  signatureName: name,
  hasCapacity: true,
  ...overrides,
});

/**
 * A payout as the payouts module posts it (the seam, record 270): the decision, one balanced journal
 * transaction (withdrawals_payable + gross, withdrawals_paid − net, tax_withheld_payable − withheld) and the
 * withholding lines in the same database transaction. The payee's withdrawals_payable is funded first by a
 * manual adjustment from manual_adjustments so the books stay whole.
 */
export async function postTestPayout(
  db: Db,
  userId: string,
  lines: WithholdingLineInput[],
  paidAt: Date,
): Promise<WithholdingDecision> {
  const decision = await withholdingFor(db, { accountId: userId, lines, asOf: paidAt });
  if (decision.status !== 'ok') return decision;
  await db.transaction(async (tx) => {
    await recordTransaction(tx, {
      kind: 'manual_adjustment',
      memo: 'test: fund the payout',
      entries: [
        { account: 'manual_adjustments', amount: centsToUsd(decision.grossCents) },
        { account: 'withdrawals_payable', subject: userId, amount: centsToUsd(-decision.grossCents) },
      ],
    });
    const id = await recordTransaction(tx, {
      kind: 'payout_paid',
      memo: 'test: payout paid',
      entries: [
        { account: 'withdrawals_payable', subject: userId, amount: centsToUsd(decision.grossCents) },
        { account: 'withdrawals_paid', amount: centsToUsd(-decision.netCents) },
        { account: 'tax_withheld_payable', subject: userId, amount: centsToUsd(-decision.withheldCents) },
      ],
    });
    if (!id) throw new Error('payout not written');
    await recordWithholding(tx, {
      decision,
      accountId: userId,
      journalTransactionId: id,
      reference: { type: 'test_payout', id },
      paidAt,
    });
  });
  return decision;
}

/** The operator's legal name and address as the statements print them (for invoices and 1042-S tests). */
export async function saveStatementIssuerForTest(db: Db, legalName: string, address: string): Promise<void> {
  await db
    .insert(settings)
    .values([
      { key: 'STATEMENT_ISSUER_NAME', value: legalName },
      { key: 'STATEMENT_ISSUER_ADDRESS', value: address },
    ])
    .onConflictDoNothing();
}
