/**
 * The money journal's closed lists (issue 36, docs/money.md): what a journal transaction may be and the
 * accounts its entries move. The database CHECKs are built from these.
 */

export const JOURNAL_TRANSACTION_KINDS = [
  'royalty_posting',
  'split_release',
  'split_return',
  'suspense_assignment',
  'suspense_release',
  'manual_adjustment',
  'bulk_adjustment',
  'cli_adjustment',
  'withdrawal_request',
  'withdrawal_cancel',
  'withdrawal_reject',
  'withdrawal_paid',
  'correction',
  'opening_balance',
  /** A payout run's item confirmed paid: gross out of withdrawals payable, net paid, the withholding owed. */
  'payout_paid',
  /** A payout returned, failed, unclaimed or refunded: the money back to the payee's balance, once. */
  'payout_returned',
  /** Part of a contract's royalty reserve released to its payee on schedule (issue 39, record 287). */
  'reserve_release',
] as const;
export type JournalTransactionKind = (typeof JOURNAL_TRANSACTION_KINDS)[number];

export const JOURNAL_ACCOUNTS = [
  /** Per royalty import: debited with the report's gross in USD (matched and unmatched lines). */
  'store_receivable',
  /** Per user: what the artist may withdraw (profiles.balance_cents is its cache). */
  'artist_payable',
  /** Per user: requested, not yet paid (profiles.pending_balance_cents is its cache). */
  'withdrawals_payable',
  /** Paid out to artists. */
  'withdrawals_paid',
  /** Per split payee: shares held for a pending invitation. */
  'payee_held',
  /** Per royalty import: its unmatched lines not yet assigned or released. */
  'suspense',
  /** The operator's distribution fee. */
  'fee_income',
  /** Released suspense, kept by the operator. */
  'operator_revenue',
  /** The sub-cent residue of postings. */
  'rounding_residue',
  /** The counter-account of balance changes made by hand (single, bulk CSV, CLI). */
  'manual_adjustments',
  /** Per user: tax withheld from their payouts, owed to the tax authority (issue 38). */
  'tax_withheld_payable',
  /** Per contract: the payee's royalties held back as a reserve, released on the term's schedule (record 287). */
  'reserve_held',
] as const;
export type JournalAccount = (typeof JOURNAL_ACCOUNTS)[number];

/** Accounts a person can withdraw from: they only ever move in whole cents. */
export const WHOLE_CENT_ACCOUNTS = [
  'artist_payable',
  'withdrawals_payable',
  'payee_held',
  'tax_withheld_payable',
  'reserve_held',
] as const;

/** Accounts whose balance is what the operator owes (credit-positive): balance = -(sum of amounts). */
export const LIABILITY_ACCOUNTS: readonly JournalAccount[] = [
  'artist_payable',
  'withdrawals_payable',
  'payee_held',
  'suspense',
  'fee_income',
  'operator_revenue',
  'rounding_residue',
  'tax_withheld_payable',
  'reserve_held',
];
