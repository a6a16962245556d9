/**
 * A split save traced (issue 43 finding 10, record 229): every save is audited with what the target's
 * shares were and are; an admin changing another account's split must say why, and every payee whose
 * share changed by it is mailed with the reason (new payees get their invitation instead).
 */
import { hundredthsToPercent, percentToHundredths, SPLIT_TEXTS } from '@tunedrop/shared/schemas/splits';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { enqueueMail, type OutgoingMail } from '../../infra/mail/mail';
import type { Viewer } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { rows } from '../../lib/sql';
import { recordAudit } from '../audit';
import { quoted } from './mails';
import { isStaffChange, type OwnedRelease } from './release-splits';

/** A target's shares: the owner's percent and each payee's (lower-case email → percent text). */
export type SplitShape = { ownerPercent: string; payees: Map<string, string> };

/** The reason an admin gives for changing another account's split; refused (422) when missing. */
export function requiredReason(release: OwnedRelease, viewer: Viewer, reason: string | undefined) {
  if (!isStaffChange(release, viewer)) return null;
  const given = reason?.trim() ?? '';
  if (given === '') {
    throw new AppError('reason_required', SPLIT_TEXTS.reasonRequired, 422, {
      reason: SPLIT_TEXTS.reasonRequired,
    });
  }
  return given;
}

/**
 * The split in force for the target before this save: its own newest version, else (for a track) the
 * release default's; with no version the owner has 100%.
 */
export async function splitInForce(
  tx: DbOrTx,
  releaseId: string,
  trackId: string | null,
): Promise<SplitShape> {
  const [version] = await rows<{ id: string; ownerPercent: string }>(
    tx,
    sql`
      select id, owner_percent::text as owner_percent from split_versions
       where release_id = ${releaseId}
         and (track_id is not distinct from ${trackId}::uuid or track_id is null)
       order by (track_id is null), version desc
       limit 1`,
  );
  if (!version) return { ownerPercent: '100.00', payees: new Map() };
  const shares = await rows<{ email: string; percent: string }>(
    tx,
    sql`select lower(p.email) as email, s.percent::text as percent
          from split_shares s join split_payees p on p.id = s.payee_id
         where s.version_id = ${version.id}`,
  );
  return {
    ownerPercent: version.ownerPercent,
    payees: new Map(shares.map((share) => [share.email, share.percent])),
  };
}

const sameShare = (a: string | undefined, b: string | undefined) =>
  percentToHundredths(a ?? '0') === percentToHundredths(b ?? '0');

const show = (shape: SplitShape) => ({
  ownerPercent: hundredthsToPercent(percentToHundredths(shape.ownerPercent) ?? 0),
  shares: [...shape.payees.entries()].map(([email, percent]) => `${email} ${percent}%`).join(', ') || 'none',
});

/** The audit row of a save, and the mails of an admin's change to the payees whose share changed. */
export async function traceSplitSave(
  tx: DbOrTx,
  input: {
    viewer: Viewer;
    release: OwnedRelease;
    target: string;
    before: SplitShape;
    after: SplitShape;
    reason: string | null;
    invited: readonly string[];
    appUrl: string;
  },
): Promise<void> {
  const { viewer, release, before, after, reason } = input;
  await recordAudit(tx, viewer, {
    kind: 'splits.save',
    releaseId: release.id,
    subject: { type: 'release', id: release.id, label: release.title },
    subjectUserId: release.userId,
    before: { target: input.target, ...show(before) },
    after: { target: input.target, ...show(after), ...(reason ? { reason } : {}) },
  });
  if (!reason) return;
  const invited = new Set(input.invited);
  const emails = new Set([...before.payees.keys(), ...after.payees.keys()]);
  for (const email of emails) {
    const was = before.payees.get(email);
    const now = after.payees.get(email);
    if (invited.has(email) || sameShare(was, now)) continue;
    await enqueueMail(
      tx,
      shareChangedMail({
        to: email,
        releaseTitle: release.title,
        target: input.target,
        was: was ?? '0',
        now: now ?? '0',
        reason,
        appUrl: input.appUrl,
      }),
    );
  }
}

function shareChangedMail(input: {
  to: string;
  releaseTitle: string;
  target: string;
  was: string;
  now: string;
  reason: string;
  appUrl: string;
}): OutgoingMail {
  return {
    to: input.to,
    subject: SPLIT_TEXTS.shareChangedMailSubject,
    text: [
      'Hi,',
      '',
      'A Tunedrop administrator changed the royalty split of a release you share. This is the change:',
      '',
      `  Release: ${quoted(input.releaseTitle)}`,
      `  Applies to: ${input.target}`,
      `  Your share: ${input.was}% → ${input.now}%`,
      `  Reason given: ${quoted(input.reason)}`,
      '',
      `It applies to reports posted from now on. Your shares are listed under “Your split shares” on your Royalties page: ${input.appUrl}/dashboard/royalties`,
      '',
      '— The Tunedrop team',
    ].join('\n'),
  };
}
