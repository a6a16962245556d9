/** Release expenses (record 148): recorded by the owner, recouped by postings before any share. */
import { parseAmountToCents } from '@tunedrop/shared';
import { type ExpenseInput, isDescribed, SPLIT_LIMITS, SPLIT_TEXTS } from '@tunedrop/shared/schemas/splits';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { releaseExpenses } from '../../db/schema';
import { enqueueMail } from '../../infra/mail/mail';
import type { Viewer } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { rows } from '../../lib/sql';
import { recordAudit } from '../audit';
import { expenseMail } from './mails';
import { lockSplitsForEdit } from './posting';
import { ownedRelease, readReleaseSplits } from './release-splits';

/** Whole cents of a release's expenses not yet repaid to its owner by postings. */
export async function outstandingExpenseCents(db: DbOrTx, releaseId: string): Promise<number> {
  const [row] = await rows<{ cents: string | number }>(
    db,
    sql`select (select coalesce(sum(amount_cents), 0) from release_expenses where release_id = ${releaseId})
             - (select coalesce(sum(cents), 0) from split_recoupments where release_id = ${releaseId}) as cents`,
  );
  return Number(row?.cents ?? 0);
}

/**
 * Records an expense (record 148): described, at most $10,000, and never more than $10,000 outstanding
 * per release (the release row lock orders concurrent adds); written to the audit log, and every payee who
 * accepted is mailed, all in one transaction.
 */
export async function addExpense(
  db: Db,
  releaseId: string,
  viewer: Viewer,
  input: ExpenseInput,
  appUrl: string,
) {
  return db.transaction(async (tx) => {
    await lockSplitsForEdit(tx);
    const release = await ownedRelease(tx, releaseId, viewer, true);
    const amountCents = parseAmountToCents(input.amount);
    if (amountCents === null || amountCents <= 0 || amountCents > SPLIT_LIMITS.maxExpenseCents) {
      throw new AppError('invalid_amount', SPLIT_TEXTS.expenseAmount, 422, {
        amount: SPLIT_TEXTS.expenseAmount,
      });
    }
    if (!isDescribed(input.description)) {
      throw new AppError('invalid_description', SPLIT_TEXTS.expenseDescription, 422, {
        description: SPLIT_TEXTS.expenseDescription,
      });
    }
    const outstanding = await outstandingExpenseCents(tx, release.id);
    if (outstanding + amountCents > SPLIT_LIMITS.maxOutstandingExpenseCents) {
      const message = SPLIT_TEXTS.expenseOutstanding(outstanding);
      throw new AppError('expense_bound', message, 422, { amount: message });
    }
    const [expense] = await tx
      .insert(releaseExpenses)
      .values({
        releaseId: release.id,
        amountCents,
        description: input.description,
        spentOn: input.spentOn,
        createdBy: viewer.user.id,
      })
      .returning({ id: releaseExpenses.id });
    if (!expense) throw new Error('expense insert returned nothing');
    const after = {
      expenseId: expense.id,
      amountCents,
      description: input.description,
      spentOn: input.spentOn,
    };
    await recordAudit(tx, viewer, {
      kind: 'splits.expense',
      subject: { type: 'release', id: release.id, label: release.title },
      releaseId: release.id,
      subjectUserId: release.userId,
      before: { outstandingCents: outstanding },
      after: { ...after, outstandingCents: outstanding + amountCents },
    });
    const payees = await rows<{ email: string; ownerName: string | null }>(
      tx,
      sql`select distinct u.email,
                 (select coalesce(pr.artist_name, o.email) from "user" o left join profiles pr on pr.id = o.id
                   where o.id = ${release.userId}) as owner_name
            from split_payees p join "user" u on u.id = p.user_id
           where p.release_id = ${release.id} and p.status = 'accepted'`,
    );
    for (const payee of payees) {
      await enqueueMail(
        tx,
        expenseMail({
          to: payee.email,
          ownerName: payee.ownerName ?? 'The release owner',
          releaseTitle: release.title,
          description: input.description,
          amountCents,
          spentOn: input.spentOn,
          outstandingCents: outstanding + amountCents,
          appUrl,
        }),
      );
    }
    return readReleaseSplits(tx, release, viewer);
  });
}
