/**
 * A posting's journal transaction (issue 36, docs/money.md): one balanced transaction per settled report.
 * The artists' legs come from the balance path (collected, not written); this adds the other side: the
 * store's receivable for the report's gross (or, for a suspense assignment, the suspense it pays out of),
 * the held shares per payee, the contract reserves held per contract (record 287), the operator's fee, the report's unmatched lines and the rounding residue.
 */
import { centsToDecimal, negateDecimal, sumDecimalsAtScale } from '@tunedrop/shared/money';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { rows } from '../../lib/sql';
import { type JournalEntryInput, recordTransaction } from '../ledger';

export type PostingJournal = {
  report: { id: string; fileName: string; exchangeRate: string | null; suspenseOf: string | null };
  /** The artists' legs, as applyBalanceChanges collected them. */
  artistLegs: JournalEntryInput[];
  /** USD sum of the report's earnings lines (the postings' gross before the fee). */
  matchedUsd: string;
  /** USD sum of the unmatched lines booked to suspense by this posting. */
  suspenseUsd: string;
  feeCents: number;
  residue: string;
  memo: string;
  actorId: string | null;
};

export async function recordPosting(tx: Tx, posting: PostingJournal): Promise<void> {
  const { report } = posting;
  const held = await rows<{ payeeId: string; cents: string }>(
    tx,
    sql`select payee_id, sum(cents)::text as cents from split_settlements
         where import_id = ${report.id} and held group by payee_id`,
  );
  // Contract reserves (record 287): the payee's cents held back, per contract, until released.
  const reserved = await rows<{ contractId: string; cents: string }>(
    tx,
    sql`select contract_id, sum(held_cents)::text as cents from contract_reserves
         where import_id = ${report.id} group by contract_id`,
  );
  const entries: JournalEntryInput[] = [
    ...posting.artistLegs,
    ...reserved.map((row) => ({
      account: 'reserve_held' as const,
      subject: row.contractId,
      amount: centsToDecimal(-BigInt(row.cents)),
    })),
    ...held.map((row) => ({
      account: 'payee_held' as const,
      subject: row.payeeId,
      amount: centsToDecimal(-BigInt(row.cents)),
    })),
    { account: 'fee_income', amount: centsToDecimal(-posting.feeCents) },
    { account: 'rounding_residue', amount: negateDecimal(posting.residue) },
  ];
  if (report.suspenseOf) {
    // An assignment brings no new money: the lines leave the original report's suspense.
    entries.push({ account: 'suspense', subject: report.suspenseOf, amount: posting.matchedUsd });
  } else {
    entries.push(
      {
        account: 'store_receivable',
        subject: report.id,
        amount: sumDecimalsAtScale([posting.matchedUsd, posting.suspenseUsd]),
      },
      { account: 'suspense', subject: report.id, amount: negateDecimal(posting.suspenseUsd) },
    );
  }
  await recordTransaction(tx, {
    kind: report.suspenseOf ? 'suspense_assignment' : 'royalty_posting',
    reference: { type: 'royalty_import', id: report.id },
    actorId: posting.actorId,
    memo: posting.memo,
    rate: report.exchangeRate,
    entries,
  });
}
