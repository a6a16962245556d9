import {
  JOURNAL_ACCOUNTS,
  JOURNAL_TRANSACTION_KINDS,
  type JournalAccount,
  type JournalTransactionKind,
  WHOLE_CENT_ACCOUNTS,
} from '@tunedrop/shared/schemas/ledger';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  check,
  index,
  numeric,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { inList } from './columns';

// ---------------------------------------------------------------- money journal (issue 36, migration 0067)

/**
 * One balanced movement of money (docs/money.md). Append-only: migration 0067's triggers refuse UPDATE,
 * DELETE and TRUNCATE, and refuse at commit a transaction whose entries do not sum to zero. actor_id has
 * no foreign key on purpose: ON DELETE SET NULL would be an UPDATE of an append-only row.
 */
export const journalTransactions = pgTable(
  'journal_transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').$type<JournalTransactionKind>().notNull(),
    /** What it came from: 'royalty_import', 'withdrawal_request', 'suspense_line', 'user', ... */
    referenceType: text('reference_type'),
    referenceId: text('reference_id'),
    /** The admin who acted; null for the system or the CLI. */
    actorId: text('actor_id'),
    memo: text('memo'),
    currency: text('currency').notNull().default('USD'),
    /** The report's rate to USD, when the amounts were converted. */
    rate: numeric('rate'),
    correctsId: uuid('corrects_id').references((): AnyPgColumn => journalTransactions.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
    /** The database transaction that wrote it: its entries must be written in the same one. */
    txid: bigint('txid', { mode: 'number' }).notNull().default(sql`txid_current()`),
  },
  (t) => [
    check('journal_transactions_kind_check', inList('kind', JOURNAL_TRANSACTION_KINDS)),
    // A correction names the transaction it corrects, and only a correction names one (migration 0084).
    check('journal_transactions_corrects_check', sql`(kind = 'correction') = (corrects_id is not null)`),
    index('journal_transactions_reference_idx').on(t.referenceType, t.referenceId),
    index('journal_transactions_created_idx').on(t.createdAt),
  ],
);

/** One leg of a journal transaction: positive = debit, negative = credit, exact USD. */
export const journalEntries = pgTable(
  'journal_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => journalTransactions.id),
    account: text('account').$type<JournalAccount>().notNull(),
    /** Whose account: the user id, split payee id or royalty import id; null for the operator's accounts. */
    subject: text('subject'),
    amount: numeric('amount').notNull(),
    currency: text('currency').notNull().default('USD'),
  },
  (t) => [
    check('journal_entries_account_check', inList('account', JOURNAL_ACCOUNTS)),
    check(
      'journal_entries_whole_cents',
      sql.raw(
        `account not in (${WHOLE_CENT_ACCOUNTS.map((a) => `'${a}'`).join(', ')}) or amount = trunc(amount, 2)`,
      ),
    ),
    index('journal_entries_account_subject_idx').on(t.account, t.subject),
    index('journal_entries_transaction_idx').on(t.transactionId),
  ],
);
