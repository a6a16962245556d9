/**
 * The journal's one writer (issue 36, docs/money.md): a balanced transaction and its entries, written in
 * the caller's database transaction. The database refuses an unbalanced or empty transaction at commit
 * (migration 0067); this refuses it first, with the difference, so a bug fails where it is made. A
 * correction names the transaction it corrects, and only a correction does (migration 0084).
 */

import { isWholeCents, isZeroDecimal, sumDecimalsAtScale } from '@tunedrop/shared/money';
import type { JournalAccount, JournalTransactionKind } from '@tunedrop/shared/schemas/ledger';
import { WHOLE_CENT_ACCOUNTS } from '@tunedrop/shared/schemas/ledger';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { journalTransactions } from '../../db/schema';
import { run } from '../../lib/sql';

export type JournalEntryInput = {
  account: JournalAccount;
  /** Whose account: a user id, split payee id or royalty import id; null/absent for the operator's. */
  subject?: string | null;
  /** Exact USD decimal text; positive = debit, negative = credit. */
  amount: string;
};

export type JournalTransactionInput = {
  kind: JournalTransactionKind;
  reference?: { type: string; id: string } | null;
  /** The admin who acted; null for the system or the CLI. */
  actorId?: string | null;
  memo?: string | null;
  /** The report's rate to USD, when its amounts were converted. */
  rate?: string | null;
  /**
   * The transaction this one corrects: required for a `correction` and refused for any other kind (the
   * database's journal_transactions_corrects_check, migration 0084).
   */
  correctsId?: string | null;
  /**
   * When it happened, for a fact dated in the past (a carried-over opening balance, a test's earlier month);
   * the running app's paths leave it out and the database's clock dates it.
   */
  at?: Date | null;
  entries: JournalEntryInput[];
};

const WHOLE_CENTS = new Set<string>(WHOLE_CENT_ACCOUNTS);

/**
 * The entries merged per (account, subject), zero legs dropped; throws when they do not sum to zero or a
 * whole-cent account moves by a fraction of a cent. Every sum is the shared money module's (record 263).
 */
function balancedEntries(entries: readonly JournalEntryInput[]): JournalEntryInput[] {
  const merged = new Map<string, { account: JournalAccount; subject: string | null; amounts: string[] }>();
  for (const entry of entries) {
    const subject = entry.subject ?? null;
    const key = `${entry.account}\u0000${subject ?? ''}\u0000${subject === null ? 'n' : 's'}`;
    const found = merged.get(key);
    if (found) found.amounts.push(entry.amount);
    else merged.set(key, { account: entry.account, subject, amounts: [entry.amount] });
  }
  const sum = (amounts: readonly string[]) => {
    try {
      return sumDecimalsAtScale(amounts);
    } catch {
      throw new Error(`journal: not a decimal amount among ${amounts.join(', ')}`);
    }
  };
  const total = sum(entries.map((entry) => entry.amount));
  if (!isZeroDecimal(total)) {
    throw new Error(`journal: the entries do not balance (they sum to ${total} USD)`);
  }
  const out: JournalEntryInput[] = [];
  for (const { account, subject, amounts } of merged.values()) {
    const amount = sum(amounts);
    if (isZeroDecimal(amount)) continue;
    if (WHOLE_CENTS.has(account) && !isWholeCents(amount)) {
      throw new Error(`journal: ${account} moves in whole cents only (${amount} for ${subject})`);
    }
    out.push({ account, subject, amount });
  }
  return out;
}

/**
 * Writes one balanced transaction and its entries (one statement each) in the caller's database
 * transaction (a savepoint when given one, its own when given the pool). Returns the transaction's id,
 * or null when every leg is zero (nothing moved: nothing is written).
 */
export async function recordTransaction(db: DbOrTx, input: JournalTransactionInput): Promise<string | null> {
  if (input.kind === 'correction' && !input.correctsId) {
    throw new Error('journal: a correction must name the transaction it corrects (correctsId)');
  }
  if (input.kind !== 'correction' && input.correctsId) {
    throw new Error(`journal: only a correction names a transaction it corrects (this is a ${input.kind})`);
  }
  const entries = balancedEntries(input.entries);
  if (entries.length === 0) return null;
  const write = async (tx: DbOrTx) => {
    const [created] = await tx
      .insert(journalTransactions)
      .values({
        kind: input.kind,
        referenceType: input.reference?.type ?? null,
        referenceId: input.reference?.id ?? null,
        actorId: input.actorId ?? null,
        memo: input.memo ?? null,
        rate: input.rate ?? null,
        correctsId: input.correctsId ?? null,
        ...(input.at ? { createdAt: input.at } : {}),
      })
      .returning({ id: journalTransactions.id });
    if (!created) throw new Error('journal: the transaction was not written');
    // One parameter for every entry: a posting's thousands of legs stay one statement.
    await run(
      tx,
      sql`
        insert into journal_entries (transaction_id, account, subject, amount)
        select ${created.id}::uuid, e.account, e.subject, e.amount
          from jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) as e(account text, subject text, amount numeric)`,
    );
    return created.id;
  };
  return 'rollback' in db ? write(db) : db.transaction(write);
}
