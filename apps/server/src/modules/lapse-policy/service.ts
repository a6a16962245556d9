/**
 * The lapse policy (issue 26 finding 8, record 196): an operator setting on /admin/settings, and the
 * daily run that applies it. With "take down after N days", an account whose subscription gate closed
 * (ended or past due; admins and free access are exempt) and which still has approved or live releases is
 * mailed at the lapse, 7 days before the takedown and at the takedown, and on day N its releases are
 * taken down through the one takedown path (takedown messages to every store holding them). Each step
 * happens once per lapse (a `lapse_notices` row written in the same transaction); a resubscription
 * reopens the gate, so nothing more happens for that lapse.
 */
import {
  LAPSE_TAKEDOWN_MAX_DAYS,
  LAPSE_TAKEDOWN_MIN_DAYS,
  LAPSE_WARNING_DAYS_BEFORE,
  type LapseNoticeKind,
  type LapsePolicy,
  type LapseStanding,
  lapseConsequence,
} from '@tunedrop/shared/schemas/lapse-policy';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { lapseNotices, profiles, releases, settings, userRoles } from '../../db/schema';
import { enqueueMail, type OutgoingMail } from '../../infra/mail/mail';
import { type AuditActor, auditSettings, readSettingValues, recordAudit } from '../audit';
import { addEvent, queueTakedowns } from '../delivery';

export const LAPSE_POLICY_MODE_SETTING = 'LAPSE_POLICY_MODE';
export const LAPSE_POLICY_DAYS_SETTING = 'LAPSE_POLICY_DAYS';

/** Who the audit log names for what the daily run does (no account acts). */
const SYSTEM_ACTOR = { id: null, email: 'system:lapse-policy' };

export async function readLapsePolicy(db: DbOrTx): Promise<LapsePolicy> {
  const values = await readSettingValues(db, [LAPSE_POLICY_MODE_SETTING, LAPSE_POLICY_DAYS_SETTING]);
  const days = Number(values[LAPSE_POLICY_DAYS_SETTING]);
  if (
    values[LAPSE_POLICY_MODE_SETTING] === 'take_down' &&
    Number.isInteger(days) &&
    days >= LAPSE_TAKEDOWN_MIN_DAYS &&
    days <= LAPSE_TAKEDOWN_MAX_DAYS
  ) {
    return { mode: 'take_down', days };
  }
  return { mode: 'keep_live' };
}

export async function saveLapsePolicy(
  db: Db,
  policy: LapsePolicy,
  updatedBy: string,
  actor: AuditActor,
): Promise<LapsePolicy> {
  const now = new Date();
  const next = {
    [LAPSE_POLICY_MODE_SETTING]: policy.mode,
    [LAPSE_POLICY_DAYS_SETTING]: policy.mode === 'take_down' ? String(policy.days) : null,
  };
  await db.transaction(async (tx) => {
    const before = await readSettingValues(tx, Object.keys(next));
    for (const [key, value] of Object.entries(next)) {
      await tx
        .insert(settings)
        .values({ key, value, updatedBy, updatedAt: now })
        .onConflictDoUpdate({ target: settings.key, set: { value, updatedBy, updatedAt: now } });
    }
    await auditSettings(tx, actor, 'Lapsed accounts', before, next);
  });
  return readLapsePolicy(db);
}

const DAY_MS = 86_400_000;
/** Whole UTC days since the epoch: the run counts days, not hours, so its time of day does not matter. */
const dayOf = (at: Date) => Math.floor(at.getTime() / DAY_MS);
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

type Lapsed = { userId: string; email: string; artistName: string; lapsedAt: Date };

/**
 * Accounts past the gate at `now`, not exempt, with a known lapse moment; with releases still out unless
 * `hasReleasesOut` is false (the banner asks for one account whatever it still has out).
 */
async function lapsedAccounts(
  db: DbOrTx,
  now: Date,
  options: { userId?: string; isReleaseOutRequired?: boolean } = {},
): Promise<(Lapsed & { hasReleasesOut: boolean })[]> {
  const lapsedAt = sql<Date>`coalesce(${profiles.subscriptionEnd}, ${profiles.subscriptionStateAt})`;
  const releasesOut = sql`exists (select 1 from ${releases} x where x.user_id = ${profiles.id}
    and x.status in ('approved', 'live'))`;
  const found = await db
    .select({
      userId: profiles.id,
      email: profiles.email,
      artistName: profiles.artistName,
      lapsedAt: sql<string>`${lapsedAt}`,
      hasReleasesOut: sql<boolean>`${releasesOut}`,
    })
    .from(profiles)
    .where(
      and(
        options.userId ? eq(profiles.id, options.userId) : undefined,
        sql`${profiles.subscriptionStatus} <> 'active'`,
        sql`not (${profiles.subscriptionStatus} = 'canceled' and ${profiles.subscriptionEnd} > ${now.toISOString()})`,
        sql`${lapsedAt} is not null and ${lapsedAt} <= ${now.toISOString()}`,
        sql`not exists (select 1 from ${userRoles} r where r.user_id = ${profiles.id}
          and r.role in ('admin', 'free_access'))`,
        options.isReleaseOutRequired === false ? undefined : releasesOut,
      ),
    );
  return found.map((row) => ({ ...row, artistName: row.artistName ?? '', lapsedAt: new Date(row.lapsedAt) }));
}

/** The notices already sent for one lapse, by kind, with when. */
async function noticesOf(db: DbOrTx, account: Lapsed): Promise<Map<LapseNoticeKind, Date>> {
  const rows = await db
    .select({ kind: lapseNotices.kind, at: lapseNotices.createdAt })
    .from(lapseNotices)
    .where(and(eq(lapseNotices.userId, account.userId), eq(lapseNotices.lapsedAt, account.lapsedAt)));
  return new Map(rows.map((row) => [row.kind as LapseNoticeKind, row.at]));
}

/**
 * The takedown day of a lapse (one rule for the run, its mails and the banner): N days after the lapse, but
 * never before the warning window after the first mail (`firstNoticeAt`, else today when it goes out).
 */
function takedownDayOf(account: Lapsed, days: number, firstNoticeAt: Date | undefined, today: number) {
  // An account that lapsed before the policy was switched on still gets the warning window (at most N days).
  const noticeDay = firstNoticeAt ? dayOf(firstNoticeAt) : today;
  return Math.max(dayOf(account.lapsedAt) + days, noticeDay + Math.min(days, LAPSE_WARNING_DAYS_BEFORE));
}

/**
 * Where one account's releases stand under the policy at `now` (issue 44): what the dashboard's banner
 * says, with the same dates and words as the mails of the daily run.
 */
export async function lapseStandingOf(
  db: DbOrTx,
  userId: string,
  now: Date = new Date(),
): Promise<LapseStanding> {
  const policy = await readLapsePolicy(db);
  if (policy.mode !== 'take_down') return { kind: 'kept_live' };
  const [account] = await lapsedAccounts(db, now, { userId, isReleaseOutRequired: false });
  if (!account) return { kind: 'kept_live' };
  const notices = await noticesOf(db, account);
  if (notices.has('takedown')) return { kind: 'taking_down' };
  if (!account.hasReleasesOut) return { kind: 'kept_live' };
  const today = dayOf(now);
  const takedownDay = takedownDayOf(account, policy.days, notices.get('lapse'), today);
  return today >= takedownDay
    ? { kind: 'taking_down' }
    : { kind: 'scheduled', takedownDate: dateOf(takedownDay) };
}

/** Claims one step for one lapse; false when an earlier run already took it. */
async function claim(tx: DbOrTx, account: Lapsed, kind: LapseNoticeKind, now: Date): Promise<boolean> {
  const inserted = await tx
    .insert(lapseNotices)
    .values({ userId: account.userId, lapsedAt: account.lapsedAt, kind, createdAt: now })
    .onConflictDoNothing()
    .returning({ kind: lapseNotices.kind });
  return inserted.length > 0;
}

/** A lapse mail: its consequence is `lapseConsequence`, the banner's words and date (issue 44). */
export function lapseMail(
  kind: LapseNoticeKind,
  input: { to: string; artistName: string; takedownDate: string; appUrl: string },
): OutgoingMail {
  const greeting = `Hi ${input.artistName.replace(/\p{Cc}+/gu, ' ').trim() || 'there'},`;
  const billing = `${input.appUrl}/dashboard/account`;
  const scheduled = lapseConsequence({ kind: 'scheduled', takedownDate: input.takedownDate });
  const lines: Record<LapseNoticeKind, { subject: string; body: string }> = {
    lapse: {
      subject: 'Your subscription has lapsed: your releases will be taken down',
      body: `Your Tunedrop subscription is no longer active. ${scheduled}`,
    },
    warning: {
      subject: `Your releases will be taken down on ${input.takedownDate}`,
      body: `Your Tunedrop subscription is still not active. ${scheduled}`,
    },
    takedown: {
      subject: 'Your releases are being taken down',
      body: lapseConsequence({ kind: 'taking_down' }),
    },
  };
  const { subject, body } = lines[kind];
  return {
    to: input.to,
    subject,
    text: [greeting, '', body, '', `Subscribe again: ${billing}`, '', '— The Tunedrop team'].join('\n'),
  };
}

/** Takes down one account's approved and live releases through the takedown path (delivery/planning). */
async function takeDownReleasesOf(tx: DbOrTx, userId: string, note: string): Promise<number> {
  const out = await tx
    .select({ id: releases.id, status: releases.status, title: releases.title })
    .from(releases)
    .where(and(eq(releases.userId, userId), inArray(releases.status, ['approved', 'live'])))
    .for('update');
  for (const release of out) {
    const queued = await queueTakedowns(tx, release.id);
    let status = release.status;
    if (queued > 0) {
      // The worker sets taken_down once every store confirmed, as for an approved takedown request.
      await addEvent(tx, release.id, 'takedown_in_progress', note);
    } else {
      status = 'taken_down';
      await tx
        .update(releases)
        .set({ status, takedownRequested: false, updatedAt: new Date() })
        .where(eq(releases.id, release.id));
      await addEvent(tx, release.id, 'taken_down', note);
    }
    await recordAudit(tx, SYSTEM_ACTOR, {
      kind: 'release.takedown_approve',
      releaseId: release.id,
      subjectUserId: userId,
      before: { status: release.status },
      after: { status, reason: note },
    });
  }
  return out.length;
}

export type LapseRunResult = { mails: number; takedowns: number };

/** One daily run at `now` (injectable for tests): mails and takedowns due, each once per lapse. */
export async function applyLapsePolicy(
  db: Db,
  appUrl: string,
  now: Date = new Date(),
): Promise<LapseRunResult> {
  const result: LapseRunResult = { mails: 0, takedowns: 0 };
  const policy = await readLapsePolicy(db);
  if (policy.mode !== 'take_down') return result;
  const today = dayOf(now);
  for (const account of await lapsedAccounts(db, now)) {
    await db.transaction(async (tx) => {
      const notices = await noticesOf(tx, account);
      const noticeDay = dayOf(notices.get('lapse') ?? now);
      const takedownDay = takedownDayOf(account, policy.days, notices.get('lapse'), today);
      const mail = async (kind: LapseNoticeKind) => {
        if (!(await claim(tx, account, kind, now))) return false;
        await enqueueMail(
          tx,
          lapseMail(kind, {
            to: account.email,
            artistName: account.artistName,
            takedownDate: dateOf(takedownDay),
            appUrl,
          }),
        );
        result.mails += 1;
        return true;
      };
      if (today >= takedownDay) {
        // Claimed first so the lapse and warning mails, never sent, are not sent after the takedown.
        await claim(tx, account, 'lapse', now);
        await claim(tx, account, 'warning', now);
        if (await mail('takedown')) {
          result.takedowns += await takeDownReleasesOf(
            tx,
            account.userId,
            `Taken down: the account's subscription lapsed (lapse policy, ${policy.days} days).`,
          );
        }
        return;
      }
      await mail('lapse');
      // No separate warning when the lapse mail already fell within the last 7 days.
      if (today >= takedownDay - LAPSE_WARNING_DAYS_BEFORE) {
        if (noticeDay > takedownDay - LAPSE_WARNING_DAYS_BEFORE) await claim(tx, account, 'warning', now);
        else await mail('warning');
      }
    });
  }
  return result;
}
