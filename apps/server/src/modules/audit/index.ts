/**
 * The audit trail's one writer (record 191): every audited action, from a route or a CLI, calls
 * recordAudit in the same transaction as the change, with a kind from AUDIT_KINDS, the subject's name at
 * write time, and the changed fields before and after. Reading and exporting the log are in service.ts.
 */
import { userInfo } from 'node:os';
import type { AuditKind, AuditSubjectType } from '@tunedrop/shared/schemas/audit';
import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { auditLog, releases, settings, user } from '../../db/schema';
import type { Viewer } from '../../lib/context';

export type { AuditKind, AuditSubjectType } from '@tunedrop/shared/schemas/audit';

/** Who acted: a signed-in viewer, or an operator at the command line (no account; a label instead). */
export type AuditActor = Viewer | { id: string | null; email: string };

/** The operator at a shell: `cli:<os user>`, kept in actor_email since a CLI run has no account. */
export function cliAuditActor(): { id: null; email: string } {
  let name = 'operator';
  try {
    name = userInfo().username || name;
  } catch {
    // no passwd entry (some containers): the generic name stands
  }
  return { id: null, email: `cli:${name}` };
}

export type AuditRecord = {
  kind: AuditKind;
  /**
   * What it was about; `label` is the human name now (file name, title, target name, setting key). Left
   * out, it is the release's title or else the subject user's email; null states there is none.
   */
  subject?: { type: AuditSubjectType; id?: string | null; label: string } | null;
  releaseId?: string | null;
  subjectUserId?: string | null;
  withdrawalRequestId?: string | null;
  /** The changed fields only, with names rather than ids; money as integer cents or exact strings. */
  before?: unknown;
  after?: unknown;
};

/** Without a stated subject: the release's title, else the subject user's email, read now (record 191). */
async function impliedSubject(tx: DbOrTx, entry: AuditRecord): Promise<AuditRecord['subject']> {
  if (entry.releaseId) {
    const [release] = await tx
      .select({ title: releases.title })
      .from(releases)
      .where(eq(releases.id, entry.releaseId));
    if (release) return { type: 'release', id: entry.releaseId, label: release.title };
  }
  if (entry.subjectUserId) {
    const [subject] = await tx
      .select({ email: user.email })
      .from(user)
      .where(eq(user.id, entry.subjectUserId));
    if (subject) return { type: 'user', id: entry.subjectUserId, label: subject.email };
  }
  return null;
}

export async function recordAudit(tx: DbOrTx, actor: AuditActor, entry: AuditRecord): Promise<void> {
  const who = 'user' in actor ? { id: actor.user.id, email: actor.user.email } : actor;
  // A team member acting for another account (record 202): the member is the actor, the account is kept.
  const actingFor = 'user' in actor && actor.account.id !== actor.user.id ? actor.account.id : null;
  const subject = entry.subject === undefined ? await impliedSubject(tx, entry) : entry.subject;
  await tx.insert(auditLog).values({
    actorId: who.id,
    actorEmail: who.email,
    action: entry.kind,
    releaseId: entry.releaseId ?? null,
    subjectUserId: entry.subjectUserId ?? null,
    withdrawalRequestId: entry.withdrawalRequestId ?? null,
    accountId: actingFor,
    subjectType: subject?.type ?? null,
    subjectId: subject?.id ?? null,
    subjectLabel: subject?.label ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

/**
 * Only the fields whose values differ, as { before, after } (both null when nothing changed), so a
 * settings save that touches one field of twenty logs that one field.
 */
export function changedFields<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
): { before: Partial<T>; after: Partial<T> } | null {
  const was: Partial<T> = {};
  const now: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (after[key] === undefined) continue;
    if (JSON.stringify(before[key] ?? null) === JSON.stringify(after[key] ?? null)) continue;
    was[key] = before[key];
    now[key] = after[key];
  }
  return Object.keys(now).length === 0 ? null : { before: was, after: now };
}

/** The stored values of these settings keys (null when unset), read before a save to audit it. */
export async function readSettingValues(
  tx: DbOrTx,
  keys: readonly string[],
): Promise<Record<string, string | null>> {
  const found = await tx
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(inArray(settings.key, [...keys]));
  const values: Record<string, string | null> = {};
  for (const key of keys) values[key] = found.find((row) => row.key === key)?.value ?? null;
  return values;
}

/**
 * One `settings.update` entry for a save of one settings section (a card of /admin/settings, or the
 * CLI's settings:set), with only the keys whose values changed; nothing when none did.
 */
export async function auditSettings(
  tx: DbOrTx,
  actor: AuditActor,
  section: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Promise<void> {
  const diff = changedFields(before, after);
  if (!diff) return;
  await recordAudit(tx, actor, {
    kind: 'settings.update',
    subject: { type: 'setting', id: section, label: section },
    before: diff.before,
    after: diff.after,
  });
}
