/**
 * Royalty splits (issue 17, decision 140): the owner's rules (who shares, how much, expenses), the
 * invitation's acceptance and the payee's view. Versions are immutable: a save writes a new version of
 * its target (release default or one track) under the release's row lock and the splits lock taken
 * shared (posting takes it exclusive), so a version either precedes a posting or follows it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { hasRole, parseAmountToCents } from '@tunedrop/shared';
import {
  type ExpenseInput,
  hundredthsToPercent,
  type InvitationAcceptance,
  isDescribed,
  maskEmail,
  type PayeeSharesResponse,
  type PayeeStatus,
  percentToHundredths,
  type ReleaseSplits,
  SPLIT_LIMITS,
  SPLIT_TEXTS,
  type SplitExpenseView,
  type SplitInvitation,
  type SplitSetInput,
  type SplitVersionView,
} from '@tunedrop/shared/schemas/splits';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client';
import {
  auditLog,
  releaseExpenses,
  releases,
  splitPayees,
  splitShares,
  splitVersions,
} from '../../db/schema';
import { enqueueMail } from '../../infra/mail/mail';
import type { Viewer } from '../../lib/context';
import { AppError, notFound } from '../../lib/errors';
import { rows } from '../../lib/sql';
import { applyBalanceChange } from '../wallet/balance';
import { recordInvitationSends } from './invitation-limits';
import { expenseMail, invitationMail } from './mails';
import { lockSplitsForEdit } from './posting';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const oneLine = (text: string) => text.replace(/\p{Cc}+/gu, ' ').trim();

type OwnedRelease = { id: string; title: string; userId: string };

/** The release when the viewer owns it or is an admin; 404 otherwise (another artist learns nothing). */
async function ownedRelease(db: DbOrTx, releaseId: string, viewer: Viewer, lock = false) {
  const query = db
    .select({ id: releases.id, title: releases.title, userId: releases.userId, status: releases.status })
    .from(releases)
    .where(eq(releases.id, releaseId));
  const [release] = lock ? await query.for('update') : await query;
  if (!release || release.status === 'deleted') throw notFound('Release not found');
  if (release.userId !== viewer.user.id && !hasRole(viewer.roles, 'admin'))
    throw notFound('Release not found');
  return release as OwnedRelease;
}

export async function getReleaseSplits(
  db: DbOrTx,
  releaseId: string,
  viewer: Viewer,
): Promise<ReleaseSplits> {
  const release = await ownedRelease(db, releaseId, viewer);
  return readReleaseSplits(db, release);
}

async function readReleaseSplits(db: DbOrTx, release: OwnedRelease): Promise<ReleaseSplits> {
  const [owner] = await rows<{ email: string }>(
    db,
    sql`select email from "user" where id = ${release.userId}`,
  );
  const trackRows = await rows<{ id: string; position: number; title: string }>(
    db,
    sql`select id, position, title from tracks where release_id = ${release.id} order by position`,
  );
  const versions = await rows<{
    id: string;
    trackId: string | null;
    trackTitle: string | null;
    version: number;
    ownerPercent: string;
    createdAt: Date | string;
    createdByEmail: string | null;
    shares: { payeeId: string; email: string; status: PayeeStatus; percent: string }[] | null;
  }>(
    db,
    sql`
      select v.id, v.track_id, t.title as track_title, v.version, v.owner_percent::text as owner_percent,
             v.created_at, u.email as created_by_email,
             (select json_agg(json_build_object('payeeId', p.id, 'email', p.email, 'status', p.status,
                                                'percent', s.percent::text) order by s.percent desc, p.email)
                from split_shares s join split_payees p on p.id = s.payee_id
               where s.version_id = v.id) as shares
        from split_versions v
        left join tracks t on t.id = v.track_id
        left join "user" u on u.id = v.created_by
       where v.release_id = ${release.id}
       order by v.created_at desc, v.version desc`,
  );
  const history: SplitVersionView[] = versions.map((row) => ({
    id: row.id,
    trackId: row.trackId,
    trackTitle: row.trackTitle,
    version: Number(row.version),
    ownerPercent: row.ownerPercent,
    shares: row.shares ?? [],
    createdAt: new Date(row.createdAt).toISOString(),
    createdByEmail: row.createdByEmail,
  }));
  const seen = new Set<string>();
  const current = history
    .filter((version) => {
      const key = version.trackId ?? '';
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => (a.trackId === null ? -1 : b.trackId === null ? 1 : 0));
  const payees = await rows<{
    id: string;
    email: string;
    status: PayeeStatus;
    createdAt: Date | string;
    acceptedAt: Date | string | null;
    withdrawnAt: Date | string | null;
    held: string;
    paid: string;
  }>(
    db,
    sql`
      select p.id, p.email, p.status, p.created_at, p.accepted_at, p.withdrawn_at,
             coalesce((select sum(s.cents) from split_settlements s
                        where s.payee_id = p.id and s.held and s.released_to is null), 0)::text as held,
             coalesce((select sum(s.cents) from split_settlements s
                        where s.payee_id = p.id and (not s.held or s.released_to = 'payee')), 0)::text as paid
        from split_payees p
       where p.release_id = ${release.id}
       order by p.created_at, p.email`,
  );
  const expenses = await db
    .select()
    .from(releaseExpenses)
    .where(eq(releaseExpenses.releaseId, release.id))
    .orderBy(releaseExpenses.spentOn, releaseExpenses.createdAt);
  const [recouped] = await rows<{ cents: string }>(
    db,
    sql`select coalesce(sum(cents), 0)::text as cents from split_recoupments where release_id = ${release.id}`,
  );
  const expensesCents = expenses.reduce((sum, row) => sum + row.amountCents, 0);
  const recoupedCents = Number(recouped?.cents ?? 0);
  const payeeViews = payees.map((row) => ({
    id: row.id,
    email: row.email,
    status: row.status,
    invitedAt: new Date(row.createdAt).toISOString(),
    acceptedAt: row.acceptedAt ? new Date(row.acceptedAt).toISOString() : null,
    withdrawnAt: row.withdrawnAt ? new Date(row.withdrawnAt).toISOString() : null,
    heldCents: Number(row.held),
    paidCents: Number(row.paid),
  }));
  return {
    releaseId: release.id,
    releaseTitle: release.title,
    ownerEmail: owner?.email ?? '',
    tracks: trackRows.map((row) => ({ id: row.id, position: Number(row.position), title: row.title })),
    current,
    history,
    payees: payeeViews,
    expenses: expenses.map((row) => ({
      id: row.id,
      amountCents: row.amountCents,
      description: row.description,
      spentOn: row.spentOn,
      createdAt: row.createdAt.toISOString(),
    })),
    recoupment: { expensesCents, recoupedCents, remainingCents: expensesCents - recoupedCents },
    heldCents: payeeViews.reduce((sum, payee) => sum + payee.heldCents, 0),
  };
}

/**
 * Saves a new version of one split (release default or a track). New payees are invited (a mail with
 * their own link, in the same transaction); payees already invited to this release keep their invitation.
 */
export async function saveSplit(
  db: Db,
  releaseId: string,
  viewer: Viewer,
  input: SplitSetInput,
  appUrl: string,
): Promise<ReleaseSplits> {
  return db.transaction(async (tx) => {
    await lockSplitsForEdit(tx);
    const release = await ownedRelease(tx, releaseId, viewer, true);
    if (input.trackId) {
      const [track] = await rows<{ id: string }>(
        tx,
        sql`select id from tracks where id = ${input.trackId} and release_id = ${release.id}`,
      );
      if (!track) throw new AppError('track_not_in_release', SPLIT_TEXTS.trackNotInRelease, 422);
    }
    const [owner] = await rows<{ email: string; artistName: string | null }>(
      tx,
      sql`
        select u.email, p.artist_name from "user" u left join profiles p on p.id = u.id
         where u.id = ${release.userId}`,
    );
    const emails = input.payees.map((payee) => payee.email.trim().toLowerCase());
    if (owner && emails.includes(owner.email.toLowerCase())) {
      throw new AppError('owner_listed', SPLIT_TEXTS.ownerListed, 422);
    }
    if (new Set(emails).size !== emails.length)
      throw new AppError('duplicate_payee', SPLIT_TEXTS.duplicate, 422);
    const ownerHundredths = percentToHundredths(input.ownerPercent);
    const payeeHundredths = input.payees.map((payee) => percentToHundredths(payee.percent));
    if (
      ownerHundredths === null ||
      ownerHundredths < 0 ||
      ownerHundredths > 10_000 ||
      payeeHundredths.some((value) => value === null || value < 1 || value > 10_000)
    ) {
      throw new AppError('invalid_percent', SPLIT_TEXTS.percentRange, 422);
    }
    const sum = payeeHundredths.reduce<number>((total, value) => total + (value ?? 0), ownerHundredths);
    if (sum !== 10_000) throw new AppError('sum_not_100', SPLIT_TEXTS.sumNot100, 422);

    const existing = await tx
      .select({ id: splitPayees.id, email: splitPayees.email })
      .from(splitPayees)
      .where(and(eq(splitPayees.releaseId, release.id), sql`${splitPayees.status} <> 'withdrawn'`));
    const byEmail = new Map(existing.map((row) => [row.email.toLowerCase(), row.id]));
    const created: { email: string; token: string }[] = [];
    for (const email of emails) {
      if (byEmail.has(email)) continue;
      const token = randomBytes(32).toString('base64url');
      const [payee] = await tx
        .insert(splitPayees)
        .values({ releaseId: release.id, email, tokenHash: hashToken(token), invitedBy: viewer.user.id })
        .returning({ id: splitPayees.id });
      if (!payee) throw new Error('payee insert returned nothing');
      byEmail.set(email, payee.id);
      created.push({ email, token });
    }
    const [last] = await rows<{ version: number | null }>(
      tx,
      sql`
        select max(version) as version from split_versions
         where release_id = ${release.id}
           and track_id is not distinct from ${input.trackId ?? null}::uuid`,
    );
    const [version] = await tx
      .insert(splitVersions)
      .values({
        releaseId: release.id,
        trackId: input.trackId ?? null,
        version: Number(last?.version ?? 0) + 1,
        ownerPercent: hundredthsToPercent(ownerHundredths),
        createdBy: viewer.user.id,
      })
      .returning({ id: splitVersions.id });
    if (!version) throw new Error('version insert returned nothing');
    if (emails.length > 0) {
      await tx.insert(splitShares).values(
        emails.map((email, index) => ({
          versionId: version.id,
          payeeId: byEmail.get(email) as string,
          percent: hundredthsToPercent(payeeHundredths[index] ?? 0),
        })),
      );
    }
    // Counted (and refused with 429 past the limits) in this transaction: a refused save sends nothing.
    await recordInvitationSends(
      tx,
      viewer.user.id,
      release.id,
      created.map((invite) => invite.email),
    );
    for (const invite of created) {
      await enqueueMail(
        tx,
        invitationMail({
          to: invite.email,
          ownerName: owner?.artistName ?? owner?.email ?? 'A Tunedrop artist',
          releaseTitle: release.title,
          url: `${appUrl}/splits/invitations/${invite.token}`,
          appUrl,
        }),
      );
    }
    return readReleaseSplits(tx, release);
  });
}

/** Withdraws a pending invitation: later shares go to the owner; held ones return at the next posting. */
export async function withdrawPayee(db: Db, releaseId: string, payeeId: string, viewer: Viewer) {
  return db.transaction(async (tx) => {
    await lockSplitsForEdit(tx);
    const release = await ownedRelease(tx, releaseId, viewer, true);
    const [updated] = await tx
      .update(splitPayees)
      .set({ status: 'withdrawn', withdrawnAt: sql`clock_timestamp()` })
      .where(
        and(
          eq(splitPayees.id, payeeId),
          eq(splitPayees.releaseId, release.id),
          eq(splitPayees.status, 'pending'),
        ),
      )
      .returning({ id: splitPayees.id });
    if (!updated) {
      const [row] = await tx
        .select({ id: splitPayees.id })
        .from(splitPayees)
        .where(and(eq(splitPayees.id, payeeId), eq(splitPayees.releaseId, release.id)));
      if (!row) throw notFound('Invitation not found');
      throw new AppError('not_pending', SPLIT_TEXTS.notPending, 409);
    }
    return readReleaseSplits(tx, release);
  });
}

/** Whole cents of a release's expenses not yet repaid to its owner by postings. */
async function outstandingExpenseCents(db: DbOrTx, releaseId: string): Promise<number> {
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
    await tx.insert(auditLog).values({
      actorId: viewer.user.id,
      actorEmail: viewer.user.email,
      action: 'release.expense_add',
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
    return readReleaseSplits(tx, release);
  });
}

async function releaseExpenseViews(db: DbOrTx, releaseId: string): Promise<SplitExpenseView[]> {
  const found = await db
    .select()
    .from(releaseExpenses)
    .where(eq(releaseExpenses.releaseId, releaseId))
    .orderBy(releaseExpenses.spentOn, releaseExpenses.createdAt);
  return found.map((row) => ({
    id: row.id,
    amountCents: row.amountCents,
    description: row.description,
    spentOn: row.spentOn,
    createdAt: row.createdAt.toISOString(),
  }));
}

async function invitationByToken(db: DbOrTx, token: string, lock = false) {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const query = db
    .select()
    .from(splitPayees)
    .where(eq(splitPayees.tokenHash, hashToken(token)));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

/**
 * Who may accept (record 147): a signed-in account whose verified email is the invited address, and not
 * the release owner. Anyone else is told which address (masked) must sign in.
 */
function acceptanceFor(
  invitedEmail: string,
  ownerId: string | undefined,
  viewer: Viewer | null,
): InvitationAcceptance {
  const masked = maskEmail(invitedEmail);
  if (!viewer) return { status: 'signed_out', message: SPLIT_TEXTS.invitationOtherAccount(masked) };
  if (viewer.user.id === ownerId) return { status: 'owner', message: SPLIT_TEXTS.ownInvitation };
  if (viewer.user.email.toLowerCase() !== invitedEmail.toLowerCase()) {
    return { status: 'other_account', message: SPLIT_TEXTS.invitationOtherAccount(masked) };
  }
  if (!viewer.user.emailVerified) return { status: 'unverified', message: SPLIT_TEXTS.invitationUnverified };
  return { status: 'ready', message: null };
}

/** What accepting means, shown before the payee signs up or accepts (public: the token is the secret). */
export async function getInvitation(
  db: DbOrTx,
  token: string,
  viewer: Viewer | null,
): Promise<SplitInvitation> {
  const payee = await invitationByToken(db, token);
  if (!payee) throw notFound(SPLIT_TEXTS.invitationNotFound);
  const [release] = await rows<{
    title: string;
    ownerName: string | null;
    ownerEmail: string;
    userId: string;
  }>(
    db,
    sql`
      select r.title, p.artist_name as owner_name, u.email as owner_email, r.user_id
        from releases r join "user" u on u.id = r.user_id left join profiles p on p.id = r.user_id
       where r.id = ${payee.releaseId}`,
  );
  // The newest version of each target (default and tracks) that lists this payee.
  const shares = await rows<{ trackTitle: string | null; percent: string }>(
    db,
    sql`
      select t.title as track_title, s.percent::text as percent
        from (select distinct on (coalesce(v.track_id, '00000000-0000-0000-0000-000000000000'::uuid)) v.*
                from split_versions v where v.release_id = ${payee.releaseId}
               order by coalesce(v.track_id, '00000000-0000-0000-0000-000000000000'::uuid), v.created_at desc,
                        v.version desc) v
        join split_shares s on s.version_id = v.id and s.payee_id = ${payee.id}
        left join tracks t on t.id = v.track_id
       order by v.track_id is not null, t.position`,
  );
  const [held] = await rows<{ cents: string }>(
    db,
    sql`
      select coalesce(sum(cents), 0)::text as cents from split_settlements
       where payee_id = ${payee.id} and held and released_to is null`,
  );
  const acceptance = acceptanceFor(payee.email, release?.userId, viewer);
  // The full address only to its own (verified) account and to the owner who typed it.
  const isOwnAddress = acceptance.status === 'ready' || acceptance.status === 'owner';
  return {
    releaseTitle: release?.title ?? '',
    ownerName: release?.ownerName ?? release?.ownerEmail ?? '',
    email: isOwnAddress ? payee.email : maskEmail(payee.email),
    status: payee.status,
    acceptance,
    shares: shares.map((row) => ({ trackTitle: row.trackTitle, percent: row.percent })),
    heldCents: Number(held?.cents ?? 0),
    expenses: await releaseExpenseViews(db, payee.releaseId),
    remainingExpenseCents: await outstandingExpenseCents(db, payee.releaseId),
  };
}

/**
 * Accepts an invitation for the signed-in account (any plan or none): future shares are paid to it, and
 * the shares held so far are credited now through the one balance path (one 'split_release' log row).
 */
export async function acceptInvitation(
  db: Db,
  token: string,
  viewer: Viewer,
): Promise<{ accepted: true; releasedCents: number }> {
  return db.transaction(async (tx: Tx) => {
    await lockSplitsForEdit(tx);
    const payee = await invitationByToken(tx, token, true);
    if (!payee) throw notFound(SPLIT_TEXTS.invitationNotFound);
    if (payee.status === 'withdrawn')
      throw new AppError('invitation_withdrawn', SPLIT_TEXTS.invitationWithdrawn, 409);
    if (payee.status === 'accepted') {
      throw new AppError('invitation_accepted', SPLIT_TEXTS.invitationAccepted, 409);
    }
    const [release] = await tx
      .select({ userId: releases.userId, title: releases.title })
      .from(releases)
      .where(eq(releases.id, payee.releaseId));
    if (release?.userId === viewer.user.id) throw new AppError('own_release', SPLIT_TEXTS.ownInvitation, 422);
    // The link alone is not enough (record 147): it must be the invited address's own, verified account.
    const acceptance = acceptanceFor(payee.email, release?.userId, viewer);
    if (acceptance.status === 'other_account')
      throw new AppError('invitation_other_account', acceptance.message, 403);
    if (acceptance.status === 'unverified')
      throw new AppError('invitation_unverified', acceptance.message, 403);
    await tx
      .update(splitPayees)
      .set({ status: 'accepted', userId: viewer.user.id, acceptedAt: sql`clock_timestamp()` })
      .where(eq(splitPayees.id, payee.id));
    const [released] = await rows<{ cents: string | null }>(
      tx,
      sql`
        with released as (
          update split_settlements
             set released_to = 'payee', released_at = clock_timestamp(), payee_user_id = ${viewer.user.id}
           where payee_id = ${payee.id} and held and released_to is null
          returning cents
        )
        select sum(cents)::text as cents from released`,
    );
    const releasedCents = Number(released?.cents ?? 0);
    if (releasedCents !== 0) {
      await applyBalanceChange(tx, {
        userId: viewer.user.id,
        balanceDeltaCents: releasedCents,
        addsPositiveDifferenceToEarnings: true,
        updateType: 'split_release',
        notes: `Held split shares of "${oneLine(release?.title ?? '')}" released on acceptance`,
      });
    }
    return { accepted: true as const, releasedCents };
  });
}

/** The payee's shares, newest report first: release, track, report, percentage, exact amount, held or paid. */
export async function listPayeeShares(db: DbOrTx, userId: string): Promise<PayeeSharesResponse> {
  const found = await rows<{
    importId: string;
    fileName: string;
    period: string;
    releaseTitle: string;
    trackTitle: string | null;
    percent: string;
    amount: string;
    held: boolean;
    postedAt: Date | string;
  }>(
    db,
    sql`
      select a.import_id, i.file_name, a.period, r.title as release_title, t.title as track_title,
             a.percent::text as percent, a.amount_usd::text as amount,
             (st.held and st.released_to is null) as held, i.posted_at
        from split_payees p
        join split_allocations a on a.payee_id = p.id and a.kind = 'share'
        join split_settlements st on st.import_id = a.import_id and st.payee_id = p.id
        join royalty_imports i on i.id = a.import_id
        join releases r on r.id = a.release_id
        left join tracks t on t.id = a.track_id
       where p.user_id = ${userId}
       order by i.posted_at desc, r.title, t.position nulls first, a.period
       limit 500`,
  );
  const [totals] = await rows<{ paid: string; held: string }>(
    db,
    sql`
      select coalesce(sum(cents) filter (where not held or released_to = 'payee'), 0)::text as paid,
             coalesce(sum(cents) filter (where held and released_to is null), 0)::text as held
        from split_settlements s join split_payees p on p.id = s.payee_id
       where p.user_id = ${userId}`,
  );
  return {
    items: found.map((row) => ({
      importId: row.importId,
      reportName: row.fileName,
      period: row.period,
      releaseTitle: row.releaseTitle,
      trackTitle: row.trackTitle,
      percent: row.percent,
      amountUsd: row.amount,
      held: row.held,
      postedAt: new Date(row.postedAt).toISOString(),
    })),
    totals: { paidCents: Number(totals?.paid ?? 0), heldCents: Number(totals?.held ?? 0) },
    expenses: await payeeExpenses(db, userId),
  };
}

/** Expenses on the releases this account accepted a share of (record 148), newest first. */
async function payeeExpenses(db: DbOrTx, userId: string): Promise<PayeeSharesResponse['expenses']> {
  const found = await rows<{
    id: string;
    amountCents: number | string;
    description: string;
    spentOn: string;
    createdAt: Date | string;
    releaseTitle: string;
    ownerName: string;
  }>(
    db,
    sql`select e.id, e.amount_cents, e.description, e.spent_on::text as spent_on, e.created_at,
               r.title as release_title, coalesce(pr.artist_name, u.email) as owner_name
          from release_expenses e
          join releases r on r.id = e.release_id
          join "user" u on u.id = r.user_id
          left join profiles pr on pr.id = r.user_id
         where e.release_id in (select release_id from split_payees where user_id = ${userId} and status = 'accepted')
         order by e.created_at desc
         limit 200`,
  );
  return found.map((row) => ({
    id: row.id,
    amountCents: Number(row.amountCents),
    description: row.description,
    spentOn: row.spentOn,
    createdAt: new Date(row.createdAt).toISOString(),
    releaseTitle: row.releaseTitle,
    ownerName: row.ownerName,
  }));
}
