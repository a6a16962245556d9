/**
 * Planning a payout run (issue 38, record 267): who is due (the available balance when it reaches the
 * account's minimum, plus its pending withdrawal requests no run holds), who is blocked and why (no payout
 * details, details changed within the hold, no provider for the method, the tax module's answer), and the
 * withholding. A planned item holds the payee's pending requests (payout_item_requests): the gross stays in
 * withdrawals payable until the provider confirms. The preview is the same planning, rolled back.
 */
import { randomUUID } from 'node:crypto';
import { formatCents } from '@tunedrop/shared';
import {
  PAYOUT_TEXTS,
  type PayoutPreview,
  type PayoutPreviewItem,
  type PayoutProviderId,
  type PayoutRunTrigger,
} from '@tunedrop/shared/schemas/payouts';
import { holdTime } from '@tunedrop/shared/schemas/wallet';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { payoutItemRequests, payoutItems, payoutRuns, withdrawalRequests } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { enqueue } from '../../lib/jobs';
import { rows } from '../../lib/sql';
import { type AuditActor, recordAudit } from '../audit';
import { applyBalanceChange, lockProfile, minimumPayoutCents } from '../wallet';
import { sendPayoutRunJob } from './jobs';
import { isProviderOn, providerRows } from './settings';
import { checkedDecision, type WithholdingFor } from './withholding';

export type PlanOptions = {
  trigger: PayoutRunTrigger;
  actor: AuditActor;
  withholding: WithholdingFor;
  now?: Date;
  /** Only these accounts (an immediate run for one withdrawal request). */
  accountIds?: string[];
  /** The scheduled run's month, YYYY-MM: a second run for it is refused by the database. */
  period?: string | null;
  /** False: planned without its send job (the journeys' fixture sends it itself, killed half-way). */
  shouldQueueSend?: boolean;
};

type Candidate = { id: string };

/** Accounts with money that may be due: a positive balance or a pending request no run holds. */
async function candidates(tx: Tx, accountIds: string[] | undefined): Promise<Candidate[]> {
  const only = accountIds
    ? sql`and p.id in (select jsonb_array_elements_text(${JSON.stringify(accountIds)}::jsonb))`
    : sql``;
  return rows<Candidate>(
    tx,
    sql`select p.id from profiles p
         where (p.balance_cents > 0
                or exists (select 1 from withdrawal_requests w
                            where w.user_id = p.id and w.status = 'pending'
                              and not exists (select 1 from payout_item_requests r
                                               where r.withdrawal_request_id = w.id)))
           ${only}
         order by p.id`,
  );
}

function providerForMethod(
  method: string | null,
  on: Map<PayoutProviderId, boolean>,
): PayoutProviderId | null {
  if (method === 'paypal' && on.get('paypal')) return 'paypal';
  // A Stripe account is paid by Stripe only: the bank file has nothing to pay it to.
  if (method === 'stripe') return on.get('stripe') ? 'stripe' : null;
  if (method === 'wise') return on.get('wise') ? 'wise' : null;
  if (method === 'bank' || method === 'paypal') return on.get('bank-csv') ? 'bank-csv' : null;
  return null;
}

/** Plans the run in `tx`: the run row, an item per payee due, the sweep requests; returns the preview. */
async function planInTransaction(
  tx: Tx,
  options: PlanOptions,
): Promise<{ runId: string; preview: PayoutPreview }> {
  const now = options.now ?? new Date();
  const runId = randomUUID();
  await tx.insert(payoutRuns).values({
    id: runId,
    trigger: options.trigger,
    period: options.period ?? null,
    createdAt: now,
    createdBy: 'user' in options.actor ? options.actor.user.id : options.actor.id,
  });
  const stored = await providerRows(tx);
  const on = new Map<PayoutProviderId, boolean>([
    ['bank-csv', isProviderOn('bank-csv', stored.get('bank-csv'))],
    ['paypal', isProviderOn('paypal', stored.get('paypal'))],
    ['stripe', isProviderOn('stripe', stored.get('stripe'))],
    ['wise', isProviderOn('wise', stored.get('wise'))],
  ]);
  const items: PayoutPreviewItem[] = [];
  for (const { id: userId } of await candidates(tx, options.accountIds)) {
    const profile = await lockProfile(tx, userId);
    if (!profile) continue;
    const pending = await tx
      .select({ id: withdrawalRequests.id, amountCents: withdrawalRequests.amountCents })
      .from(withdrawalRequests)
      .where(
        sql`${withdrawalRequests.userId} = ${userId} and ${withdrawalRequests.status} = 'pending'
            and not exists (select 1 from payout_item_requests r where r.withdrawal_request_id = ${withdrawalRequests.id})`,
      )
      .orderBy(withdrawalRequests.id)
      .for('update');
    const pendingCents = pending.reduce((sum, row) => sum + row.amountCents, 0);
    const minimumCents = await minimumPayoutCents(tx, userId, profile.plan);
    const sweepCents = profile.balanceCents >= minimumCents ? profile.balanceCents : 0;
    const grossCents = pendingCents + sweepCents;
    if (grossCents === 0) continue;

    const itemId = randomUUID();
    const provider = providerForMethod(profile.paymentMethod, on);
    let blocked: { code: string; reason: string } | null = null;
    if (!profile.paymentMethod || !profile.paymentDetailsEncrypted) {
      blocked = { code: 'no_details', reason: PAYOUT_TEXTS.noDetails };
    } else if (profile.payoutHoldUntil && profile.payoutHoldUntil.getTime() > now.getTime()) {
      blocked = {
        code: 'payout_hold',
        reason: PAYOUT_TEXTS.held(holdTime(profile.payoutHoldUntil.toISOString())),
      };
    } else if (!provider) {
      blocked = { code: 'provider_off', reason: PAYOUT_TEXTS.providerOff(profile.paymentMethod) };
    }
    let withheldCents = 0;
    let summary: string | null = null;
    let lines: Record<string, unknown> | null = null;
    if (!blocked) {
      const request = { accountId: userId, grossCents, payoutItemId: itemId, asOf: now };
      const decision = checkedDecision(request, await options.withholding(tx, request));
      if (decision.status === 'blocked') blocked = { code: decision.code, reason: decision.reason };
      else {
        withheldCents = decision.withheldCents;
        summary = decision.summary;
        lines = decision.lines;
      }
    }
    await tx.insert(payoutItems).values({
      id: itemId,
      runId,
      userId,
      provider: blocked ? null : provider,
      state: blocked ? 'blocked' : 'planned',
      blockedCode: blocked?.code ?? null,
      blockedReason: blocked?.reason ?? null,
      paymentMethod: blocked ? null : profile.paymentMethod,
      paymentDetailsEncrypted: blocked ? null : profile.paymentDetailsEncrypted,
      grossCents,
      withheldCents,
      netCents: grossCents - withheldCents,
      withholdingSummary: summary,
      withholdingDecision: lines,
      idempotencyKey: `${runId}:${userId}`,
      createdAt: now,
    });
    if (!blocked && profile.paymentMethod && profile.paymentDetailsEncrypted) {
      const held = pending.map((row) => row.id);
      if (sweepCents > 0) {
        // The swept balance becomes a pending request like the artist's own: withdrawal_request on the journal.
        const [request] = await tx
          .insert(withdrawalRequests)
          .values({
            userId,
            amountCents: sweepCents,
            paymentMethod: profile.paymentMethod,
            paymentDetailsEncrypted: profile.paymentDetailsEncrypted,
            status: 'pending',
            requestedAt: now,
            notes: `Payout run ${runId}`,
          })
          .returning({ id: withdrawalRequests.id });
        if (!request) throw new Error('withdrawal insert returned nothing');
        await applyBalanceChange(tx, {
          userId,
          balanceDeltaCents: -sweepCents,
          pendingDeltaCents: sweepCents,
          updateType: 'withdrawal_request',
          withdrawalRequestId: request.id,
          notes: `Payout run (${formatCents(sweepCents)})`,
        });
        held.push(request.id);
      }
      await tx
        .insert(payoutItemRequests)
        .values(held.map((withdrawalRequestId) => ({ withdrawalRequestId, itemId })));
    }
    items.push({
      accountId: userId,
      email: profile.email,
      name: profile.artistName || profile.fullName || profile.email,
      provider: blocked ? null : provider,
      grossCents,
      withheldCents,
      netCents: grossCents - withheldCents,
      withholding: summary,
      blocked,
    });
  }
  const payable = items.filter((item) => !item.blocked);
  if (items.length === 0) throw new AppError('nothing_to_pay', PAYOUT_TEXTS.nothingToPay, 409);
  const preview: PayoutPreview = {
    items,
    totals: {
      payees: payable.length,
      blocked: items.length - payable.length,
      grossCents: payable.reduce((sum, item) => sum + item.grossCents, 0),
      withheldCents: payable.reduce((sum, item) => sum + item.withheldCents, 0),
      netCents: payable.reduce((sum, item) => sum + item.netCents, 0),
    },
  };
  return { runId, preview };
}

class PreviewRollback extends Error {
  constructor(readonly preview: PayoutPreview) {
    super('preview');
  }
}

/** What a run would do now, without doing it: the planning in a transaction that is rolled back. */
export async function previewPayoutRun(db: Db, options: PlanOptions): Promise<PayoutPreview> {
  try {
    await db.transaction(async (tx) => {
      const { preview } = await planInTransaction(tx, options);
      throw new PreviewRollback(preview);
    });
  } catch (error) {
    if (error instanceof PreviewRollback) return error.preview;
    throw error;
  }
  throw new Error('the preview was not rolled back');
}

/** Plans a run and enqueues its sending in the same transaction: all of it, or nothing. */
export async function startPayoutRun(
  db: Db,
  options: PlanOptions,
): Promise<{ runId: string; preview: PayoutPreview }> {
  return db.transaction(async (tx) => {
    const planned = await planInTransaction(tx, options);
    await recordAudit(tx, options.actor, {
      kind: 'payouts.run',
      subject: { type: 'payout_run', id: planned.runId, label: `Payout run (${options.trigger})` },
      after: planned.preview.totals,
    });
    if (planned.preview.totals.payees > 0 && options.shouldQueueSend !== false) {
      await enqueue(tx, sendPayoutRunJob, { runId: planned.runId }, { singletonKey: planned.runId });
    }
    return planned;
  });
}
