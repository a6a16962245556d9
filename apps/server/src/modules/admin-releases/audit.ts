/**
 * The audit log: every moderator or admin action writes who, what, when and the state before and after,
 * in the same transaction as the change. Admins read it, filtered by user and release.
 */
import type { AuditEntry, AuditPage } from '@tunedrop/shared/schemas/admin-releases';
import { and, desc, eq, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { auditLog, profiles } from '../../db/schema';
import type { Viewer } from '../../lib/context';
import { decodeCursor, encodeCursor } from '../../lib/cursor';

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
  await tx.insert(auditLog).values({
    actorId: actor.user.id,
    actorEmail: actor.user.email,
    action: entry.action,
    releaseId: entry.releaseId ?? null,
    subjectUserId: entry.subjectUserId ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

/** Newest first. `user` is an email or a user id and matches the actor or the subject. */
export async function listAudit(
  db: DbOrTx,
  filters: {
    user?: string | undefined;
    releaseId?: string | undefined;
    cursor?: string | undefined;
    limit: number;
  },
): Promise<AuditPage> {
  const conditions: SQL[] = [];
  if (filters.user) {
    const user = filters.user.trim();
    const ids = [user];
    if (user.includes('@')) {
      const rows = await db
        .select({ id: profiles.id })
        .from(profiles)
        .where(eq(sql`lower(${profiles.email})`, user.toLowerCase()));
      ids.push(...rows.map((row) => row.id));
    }
    const byUser = or(
      ...ids.map((id) => or(eq(auditLog.actorId, id), eq(auditLog.subjectUserId, id))),
      eq(sql`lower(${auditLog.actorEmail})`, user.toLowerCase()),
    );
    if (byUser) conditions.push(byUser);
  }
  if (filters.releaseId) conditions.push(eq(auditLog.releaseId, filters.releaseId.toLowerCase()));
  if (filters.cursor) {
    const cursor = decodeCursor(filters.cursor);
    conditions.push(
      sql`(${auditLog.createdAt}, ${auditLog.id}) < (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)`,
    );
  }
  const rows = await db
    .select({
      id: auditLog.id,
      createdAt: auditLog.createdAt,
      createdAtText: sql<string>`${auditLog.createdAt}::text`,
      actorId: auditLog.actorId,
      actorEmail: auditLog.actorEmail,
      action: auditLog.action,
      releaseId: auditLog.releaseId,
      subjectUserId: auditLog.subjectUserId,
      withdrawalRequestId: auditLog.withdrawalRequestId,
      before: auditLog.before,
      after: auditLog.after,
    })
    .from(auditLog)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(filters.limit + 1);
  const page = rows.slice(0, filters.limit);
  const last = page.at(-1);
  const items: AuditEntry[] = page.map(({ createdAtText: _text, createdAt, ...row }) => ({
    ...row,
    createdAt: createdAt.toISOString(),
  }));
  return {
    items,
    nextCursor:
      rows.length > filters.limit && last
        ? encodeCursor({ createdAt: last.createdAtText, id: last.id })
        : null,
  };
}
