/**
 * Royalty statements a label can send as they are (issue 25, record 190): one statement per month of
 * balance changes, from the opening balance through gross earnings, the operator's fee, split shares,
 * withdrawals and adjustments to the closing balance, every amount in whole cents so the rows add up to the
 * totals. The operator who issues them (name and address) is a setting.
 *
 *     GET /api/royalties/statements                   → StatementMonthsResponse
 *     GET /api/royalties/statements/:period/summary   → RoyaltyStatement
 *     GET /api/royalties/statements/:period.csv|.pdf  → the same statement as a file
 *     GET /api/admin/royalties/statement-issuer       → StatementIssuerView
 *     PUT /api/admin/royalties/statement-issuer       body StatementIssuerInput → StatementIssuerView
 */
import { z } from 'zod';
import { multilineText, safeText } from '../text';

/** Without a setting, statements are issued in the product's name, with no address. */
export const STATEMENT_ISSUER_DEFAULT_NAME = 'Tunedrop';

export const STATEMENT_TEXTS = {
  issuerNameRequired: 'Enter the legal name statements are issued in.',
  issuerNameTooLong: 'The legal name can be at most 120 characters.',
  issuerAddressTooLong: 'The address can be at most 400 characters.',
  issuerSaved: 'Statement issuer saved.',
  /** What the month of a statement is (its period), said on the page and in the files. */
  periodNote:
    'A statement covers the changes to your balance in one calendar month (UTC): the reports posted, your split shares, withdrawals and adjustments. Each earnings row names its sales month.',
  grossNote:
    'Gross earnings are what the stores reported for your music, before the distribution fee and split shares.',
} as const;

/** PUT /api/admin/royalties/statement-issuer: the legal name and postal address printed on statements. */
export const statementIssuerSchema = z.object({
  legalName: safeText()
    .trim()
    .min(1, STATEMENT_TEXTS.issuerNameRequired)
    .max(120, STATEMENT_TEXTS.issuerNameTooLong),
  address: multilineText().trim().max(400, STATEMENT_TEXTS.issuerAddressTooLong),
});
export type StatementIssuerInput = z.output<typeof statementIssuerSchema>;
export type StatementIssuerView = {
  legalName: string;
  /** Lines of the postal address; empty when none is set. */
  address: string;
  source: 'settings' | 'default';
};

/** A month with a statement: its balances and the net earnings credited in it. */
export type StatementMonth = {
  period: string;
  openingCents: number;
  closingCents: number;
  /** Net earnings credited in the month (after fee and split shares). */
  amountCents: number;
  /** Earnings lines of the reports posted in the month. */
  lines: number;
};
export type StatementMonthsResponse = { items: StatementMonth[] };

/** One row of an earnings breakdown: whole cents (the rows add up to the gross) and the exact sum. */
export type StatementAmountRow = { label: string; units: string; cents: number; exact: string };

/** A split share moved by the month's postings (or released from hold): to a payee, or from an owner. */
export type StatementShareRow = {
  direction: 'to' | 'from';
  party: string;
  releaseTitle: string | null;
  trackTitle: string | null;
  isrc: string | null;
  percent: string | null;
  /** "held": kept for a payee who has not accepted yet; "released": a held share paid on acceptance. */
  note: 'held' | 'released' | null;
  cents: number;
  exact: string;
};

/** A balance change that is not a royalty posting: a withdrawal, its refund, or an adjustment. */
export type StatementMovementRow = { date: string; description: string; cents: number };

/**
 * A contract payee's royalty reserves in the month (issue 39, record 287): held back by the month's
 * postings, released to the balance in the month, and still held at its end. Information beside the
 * balance: what is held is not in it until released (the release is one of the month's other earnings).
 */
export type StatementReserves = { heldCents: number; releasedCents: number; balanceCents: number };

export type RoyaltyStatement = {
  /** YYYY-MM: the calendar month (UTC) of the balance changes it covers. */
  period: string;
  issuer: { legalName: string; address: string };
  account: { name: string; email: string };
  /**
   * Set on one artist profile's view (records 201 and 235): earnings, fee, shares paid and net earnings are
   * that profile's releases' only; the opening and closing balance, withdrawals and adjustments stay the
   * whole account's (one balance per account), and `outsideProfileCents` is the rest of the account's net.
   */
  artistProfile?: { id: string; name: string };
  /**
   * On a profile's view: the account's net earnings not of this profile (its other profiles, shares received
   * on others' releases, other credits), so opening + this net + this + withdrawals + adjustments = closing.
   */
  outsideProfileCents?: number;
  /** Sales months of the earnings lines posted in the period. */
  salesPeriods: string[];
  openingCents: number;
  earnings: {
    /** Reported earnings of the account's own music, to the cent as credited (sum of every breakdown). */
    grossCents: number;
    /** The exact sum of the lines before truncation to the cent. */
    grossExact: string;
    lines: number;
    units: string;
    byStore: StatementAmountRow[];
    byCountry: StatementAmountRow[];
    byTrack: StatementAmountRow[];
  };
  /** The operator's distribution fee taken at posting (≤ 0). */
  feeCents: number;
  /** The fee's percentage when every report of the month took the same one; null otherwise or without a fee. */
  feePercent: string | null;
  shares: StatementShareRow[];
  /** A payee's shares received, by the store, country and track of the earnings they came from; null without. */
  sharesReceived: {
    byStore: StatementAmountRow[];
    byCountry: StatementAmountRow[];
    byTrack: StatementAmountRow[];
  } | null;
  /** Held shares returned to this owner, and any other credit of a posting (e.g. suspense assignments). */
  otherEarnings: StatementMovementRow[];
  /** Net earnings credited: gross + fee + shares + other earnings. */
  netEarningsCents: number;
  withdrawals: StatementMovementRow[];
  adjustments: StatementMovementRow[];
  closingCents: number;
  /** Set for a contract payee who has had a reserve by the month's end; absent otherwise. */
  reserves?: StatementReserves;
};
