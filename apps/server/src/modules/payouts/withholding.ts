/**
 * The seam with the tax module (issue 38, /work/notes/38-interface.md, record 267): how much tax a payout
 * withholds, or why it is blocked. The payout's gross is shared into lines by territory of the payee's
 * posted earnings (`territoryLinesFor`), the tax module decides per line, and the decision is kept on the
 * item so its lines are recorded (`recordWithholding`) in the transaction that journals the payment.
 */
import type { DbOrTx } from '../../db/client';
import {
  recordWithholding,
  reverseWithholding,
  type WithholdingDecision as TaxDecision,
  withholdingFor as taxWithholdingFor,
  territoryLinesFor,
} from '../tax';

export type WithholdingRequest = {
  /** profiles.id of the payee account. */
  accountId: string;
  /** What leaves the balance in this payout, in cents. */
  grossCents: number;
  /** Stable per (run, payee). */
  payoutItemId: string;
  /** The run's date: form validity, treaty effective dates. */
  asOf: Date;
};

export type TaxLinesDecision = Extract<TaxDecision, { status: 'ok' }>;

export type WithholdingDecision =
  | { status: 'blocked'; code: string; reason: string }
  | { status: 'ok'; withheldCents: number; summary: string; lines: TaxLinesDecision | null };

/** Called in the run's database transaction; reads only. */
export type WithholdingFor = (db: DbOrTx, request: WithholdingRequest) => Promise<WithholdingDecision>;

/** "W-9 certified 0%", "no valid W-8 30%; not subject: sale outside the US (DE) 0%": each basis once. */
function summaryOf(decision: TaxLinesDecision): string {
  const parts = [...new Set(decision.lines.map((line) => `${line.basis} ${line.ratePercent}%`))];
  return parts.join('; ') || 'nothing to withhold';
}

/** The tax module's decision for a payout's gross, its lines by territory of the payee's earnings. */
export const withholdingFor: WithholdingFor = async (db, request) => {
  const lines = await territoryLinesFor(db, { accountId: request.accountId, cents: request.grossCents });
  const decision = await taxWithholdingFor(db, { accountId: request.accountId, lines, asOf: request.asOf });
  if (decision.status === 'blocked') return { status: 'blocked', code: 'tax', reason: decision.reason };
  if (decision.grossCents !== request.grossCents) {
    throw new Error(
      `withholding for ${request.accountId}: lines of ${decision.grossCents} cents for a gross of ${request.grossCents}`,
    );
  }
  return {
    status: 'ok',
    withheldCents: decision.withheldCents,
    summary: summaryOf(decision),
    lines: decision,
  };
};

/** Refuses an answer outside 0..gross or not whole cents: a bug in the seam must not move money. */
export function checkedDecision(
  request: WithholdingRequest,
  decision: WithholdingDecision,
): WithholdingDecision {
  if (decision.status === 'blocked') return decision;
  const { withheldCents } = decision;
  if (!Number.isSafeInteger(withheldCents) || withheldCents < 0 || withheldCents > request.grossCents) {
    throw new Error(
      `withholding for ${request.accountId}: ${withheldCents} cents is not between 0 and ${request.grossCents}`,
    );
  }
  return decision;
}

/** The planned decision's lines, recorded with the journal transaction that paid them. */
export async function recordPaidWithholding(
  tx: DbOrTx,
  input: { decision: unknown; accountId: string; journalTransactionId: string; itemId: string; paidAt: Date },
): Promise<void> {
  if (!input.decision) return;
  await recordWithholding(tx, {
    // Written by plan from the tax module's own answer (a TaxLinesDecision), read back from jsonb.
    decision: input.decision as TaxLinesDecision,
    accountId: input.accountId,
    journalTransactionId: input.journalTransactionId,
    reference: { type: 'payout_item', id: input.itemId },
    paidAt: input.paidAt,
  });
}

/** A paid payout refunded: its withholding lines reversed with the journal transaction that reverses it. */
export function reversePaidWithholding(
  tx: DbOrTx,
  input: { journalTransactionId: string; paidJournalTransactionId: string; at: Date },
): Promise<void> {
  return reverseWithholding(tx, {
    journalTransactionId: input.journalTransactionId,
    reversesJournalTransactionId: input.paidJournalTransactionId,
    reversedAt: input.at,
  });
}
