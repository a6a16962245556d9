/**
 * Delivery targets in the audit log (record 191): add, edit, disable, enable and remove, from the admin
 * page or the CLI, with the target's name and its fields before and after. Credentials never enter the
 * log: the URL is the masked one, a password, key or S3 secret shows as set or not, and a replaced one as
 * "replaced".
 */
import type { DbOrTx } from '../../db/client';
import type { deliveryTargets } from '../../db/schema';
import { type AuditActor, type AuditKind, changedFields, recordAudit } from '../audit';

// The row type stated here, not imported from targets.ts, which imports this file.
type TargetRow = typeof deliveryTargets.$inferSelect;

/** What the log shows of a target: no secret, names as the admin page shows them. */
export function targetAuditFields(row: TargetRow) {
  return {
    name: row.name,
    url: row.urlMasked,
    dpid: row.dpid,
    platforms: row.platforms ?? 'all',
    profile: row.profile,
    enabled: row.enabled,
    password: row.hasPassword ? 'set' : 'none',
    privateKey: row.hasPrivateKey ? 'set' : 'none',
    ownS3: row.hasOwnS3 ? 'set' : 'none',
    hostKey: row.hostKeySha256 ?? 'not pinned',
  };
}

export async function auditTarget(
  tx: DbOrTx,
  actor: AuditActor | undefined,
  entry: { kind: AuditKind; id: string; name: string; before?: unknown; after?: unknown },
): Promise<void> {
  // Internal callers without an actor (fixtures, benches) are not admin actions.
  if (!actor) return;
  await recordAudit(tx, actor, {
    kind: entry.kind,
    subject: { type: 'delivery_target', id: entry.id, label: entry.name },
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

/**
 * An edit in the log: only the fields that changed; a change of `enabled` alone is an enable or disable.
 * `credentialsReplaced` says a secret was given again (its value is not compared, only recorded).
 */
export async function auditTargetEdit(
  tx: DbOrTx,
  actor: AuditActor | undefined,
  before: TargetRow,
  after: TargetRow,
  credentialsReplaced: boolean,
): Promise<void> {
  const diff = changedFields(targetAuditFields(before), targetAuditFields(after));
  const was: Record<string, unknown> = { ...diff?.before };
  const now: Record<string, unknown> = { ...diff?.after };
  if (credentialsReplaced) {
    was.credentials = 'previous';
    now.credentials = 'replaced';
  }
  const fields = Object.keys(now);
  if (fields.length === 0) return;
  const kind: AuditKind =
    fields.length === 1 && fields[0] === 'enabled'
      ? after.enabled
        ? 'delivery.target.enable'
        : 'delivery.target.disable'
      : 'delivery.target.edit';
  await auditTarget(tx, actor, { kind, id: after.id, name: after.name, before: was, after: now });
}
