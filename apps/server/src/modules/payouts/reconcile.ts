/**
 * Reconciling bank-csv payouts (issue 38): the operator marks an item paid or returned by hand, or uploads
 * the bank's confirmation (CSV with the columns `reference`, `status` paid|returned and an optional
 * `reason`; reference is the payout file's). Each change is audited; a row naming an unknown reference or
 * status refuses the whole file before anything changes; a repeat changes nothing (settle.ts).
 */
import { PAYOUT_TEXTS } from '@tunedrop/shared/schemas/payouts';
import { parse } from 'csv-parse/sync';
import { eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { payoutItems } from '../../db/schema';
import type { Viewer } from '../../lib/context';
import { AppError, notFound } from '../../lib/errors';
import { recordAudit } from '../audit';
import { settlePaid, settleReturned } from './settle';

async function markInTransaction(
  tx: Tx,
  viewer: Viewer,
  item: typeof payoutItems.$inferSelect,
  outcome: 'paid' | 'returned',
  reason: string,
  source: string,
) {
  const result =
    outcome === 'paid'
      ? await settlePaid(tx, item.id, { providerStatus: `marked paid (${source})`, actorId: viewer.user.id })
      : await settleReturned(tx, item.id, {
          providerStatus: `marked returned (${source})`,
          reason: reason || 'returned by the bank',
          actorId: viewer.user.id,
        });
  if (result.changed) {
    await recordAudit(tx, viewer, {
      kind: 'payouts.mark',
      subject: { type: 'payout', id: item.id, label: item.idempotencyKey },
      subjectUserId: item.userId,
      before: { state: item.state },
      after: { state: result.state, source, ...(reason ? { reason } : {}) },
    });
  }
  return result;
}

/** By hand, from the run's page: only a sent item (or a paid one, returned) can move. */
export async function markPayoutItem(
  db: Db,
  viewer: Viewer,
  itemId: string,
  outcome: 'paid' | 'returned',
  reason: string,
) {
  return db.transaction(async (tx) => {
    const [item] = await tx.select().from(payoutItems).where(eq(payoutItems.id, itemId));
    if (!item) throw notFound(PAYOUT_TEXTS.itemNotFound);
    const allowed =
      outcome === 'paid' ? item.state === 'sent' : item.state === 'sent' || item.state === 'paid';
    if (!allowed) throw new AppError('not_sent', PAYOUT_TEXTS.notSent, 409);
    return markInTransaction(tx, viewer, item, outcome, reason, 'by hand');
  });
}

type ConfirmationRow = { reference: string; status: 'paid' | 'returned'; reason: string };

function readConfirmation(text: string): ConfirmationRow[] {
  let records: Record<string, string>[];
  try {
    records = parse(text, {
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      skip_empty_lines: true,
      trim: true,
      bom: true,
    });
  } catch {
    throw new AppError('confirmation_unreadable', PAYOUT_TEXTS.confirmationUnreadable, 422);
  }
  if (records.length === 0 || !('reference' in (records[0] ?? {})) || !('status' in (records[0] ?? {}))) {
    throw new AppError('confirmation_unreadable', PAYOUT_TEXTS.confirmationUnreadable, 422);
  }
  return records.map((record, index) => {
    const status = (record.status ?? '').toLowerCase();
    if (status !== 'paid' && status !== 'returned') {
      throw new AppError(
        'confirmation_status',
        `Row ${index + 2}: status must be paid or returned, not "${record.status ?? ''}".`,
        422,
      );
    }
    return { reference: record.reference ?? '', status, reason: record.reason ?? '' };
  });
}

/** The bank's confirmation for one run's bank-csv batch: all rows applied, or none. */
export async function applyConfirmation(db: Db, viewer: Viewer, runId: string, text: string) {
  const rows = readConfirmation(text);
  return db.transaction(async (tx) => {
    const items = await tx
      .select()
      .from(payoutItems)
      .where(
        inArray(
          payoutItems.idempotencyKey,
          rows.map((row) => row.reference),
        ),
      );
    const byKey = new Map(
      items.filter((item) => item.runId === runId).map((item) => [item.idempotencyKey, item]),
    );
    const unknown = rows.find((row) => !byKey.has(row.reference));
    if (unknown) {
      throw new AppError(
        'confirmation_reference',
        `No payout of this run has the reference "${unknown.reference}".`,
        422,
      );
    }
    let changed = 0;
    for (const row of rows) {
      const item = byKey.get(row.reference);
      if (!item) continue;
      const result = await markInTransaction(tx, viewer, item, row.status, row.reason, 'bank confirmation');
      if (result.changed) changed += 1;
    }
    return { rows: rows.length, changed };
  });
}
