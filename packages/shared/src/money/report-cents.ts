/**
 * A posted report's money in whole cents, read one way (issue 44 finding 4): every exact USD amount is cut
 * to the cent toward zero, the rule a posting credits by (`trunc(amount, 2)`), and what the cuts leave is
 * one figure of its own, so the parts add up to the gross to the cent. The finance overview and the posting
 * confirmation show these figures, never an exact amount rounded another way beside them.
 */
import { formatScaled, parseScaled, rescale } from './decimal';

/** Exact decimal USD text → whole cents toward zero ("28.869" → 2886n, "-0.019" → -1n); 0n when not a decimal. */
export function truncateToCents(text: string): bigint {
  const parsed = parseScaled(text);
  if (!parsed) return 0n;
  if (parsed.scale <= 2) return rescale(parsed, 2).units;
  // BigInt division truncates toward zero.
  return parsed.units / 10n ** BigInt(parsed.scale - 2);
}

/** What is left below the cent of an exact amount ("28.865" → "0.005"), as exact decimal text. */
export function belowTheCent(text: string): string {
  const parsed = parseScaled(text);
  if (!parsed || parsed.scale <= 2) return '0';
  const left = parsed.units - truncateToCents(text) * 10n ** BigInt(parsed.scale - 2);
  return formatScaled({ units: left, scale: parsed.scale }).replace(/\.?0+$/, '') || '0';
}

export type ReportCentsInput = {
  /** Exact gross in USD: matched and unmatched lines. */
  grossUsd: string;
  feeCents: number;
  creditedCents: number;
  heldCents: number;
  /** Exact USD booked to suspense. */
  suspenseUsd: string;
};

export type ReportCents = {
  grossCents: number;
  feeCents: number;
  creditedCents: number;
  heldCents: number;
  suspenseCents: number;
  /**
   * Whole cents of the gross that no part took: the sub-cent remainders of each artist's and each suspense
   * line's cut, added up. They stay with the operator as the report's rounding residue.
   */
  roundingCents: number;
};

/** A report's figures in cents by the one rule: gross = fee + credited + held + suspense + rounding. */
export function reportCents(input: ReportCentsInput): ReportCents {
  const grossCents = Number(truncateToCents(input.grossUsd));
  const suspenseCents = Number(truncateToCents(input.suspenseUsd));
  return {
    grossCents,
    feeCents: input.feeCents,
    creditedCents: input.creditedCents,
    heldCents: input.heldCents,
    suspenseCents,
    roundingCents: grossCents - input.feeCents - input.creditedCents - input.heldCents - suspenseCents,
  };
}
