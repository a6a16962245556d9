/**
 * Review and ban actions in the audit log: who, what, when and the state before and after, in the same
 * transaction as the change, through the one writer of modules/audit (record 191) with the release's
 * title or the user's email as the name, read now so a later deletion leaves the row readable.
 */
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { releases, user } from '../../db/schema';
import type { Viewer } from '../../lib/context';
import { recordAudit } from '../audit';

export type AuditAction =
  | 'release.approve'
  | 'release.reject'
  | 'release.unapprove'
  | 'release.unreject'
  | 'release.takedown_approve'
  | 'release.takedown_reject'
  | 'release.delete'
  | 'release.export'
  | 'user.ban'
  | 'user.unban';

export async function writeAudit(
  tx: DbOrTx,
  actor: Viewer,
  entry: {
    action: AuditAction;
    releaseId?: string | null;
    subjectUserId?: string | null;
    before?: unknown;
    after?: unknown;
  },
): Promise<void> {
  const [release] = entry.releaseId
    ? await tx.select({ title: releases.title }).from(releases).where(eq(releases.id, entry.releaseId))
    : [];
  // A deleted release is gone by the time its deletion is written: its snapshot holds the title.
  const snapshotTitle = (entry.before as { title?: unknown } | null | undefined)?.title;
  const releaseTitle = release?.title ?? (typeof snapshotTitle === 'string' ? snapshotTitle : null);
  const [subject] =
    !releaseTitle && entry.subjectUserId
      ? await tx.select({ email: user.email }).from(user).where(eq(user.id, entry.subjectUserId))
      : [];
  await recordAudit(tx, actor, {
    kind: entry.action,
    subject: releaseTitle
      ? { type: 'release', id: entry.releaseId ?? null, label: releaseTitle }
      : subject
        ? { type: 'user', id: entry.subjectUserId ?? null, label: subject.email }
        : null,
    releaseId: entry.releaseId ?? null,
    subjectUserId: entry.subjectUserId ?? null,
    before: entry.before,
    after: entry.after,
  });
}
