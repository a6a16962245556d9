/**
 * The audit log's shared words (record 191): every kind of audited action with its label, the filters of
 * the admin audit page and CSV export, and the entry shape. One list, so server writers, the page and the
 * tests agree on the names.
 */
import { z } from 'zod';
import { safeText } from '../text';

/** Kind -> label. Append a kind here when a new action is audited; never rename one (rows keep it). */
export const AUDIT_KINDS = {
  'royalties.import': 'Imported a royalty report',
  'royalties.delete': 'Deleted a royalty report',
  'royalties.post': 'Posted a royalty report',
  'royalties.rate_set': 'Set a report’s exchange rate',
  'royalties.overlap_override': 'Included lines already posted',
  'royalties.warning_accept': 'Accepted a sanity warning',
  'royalties.warning_resolve': 'Resolved a sanity warning (lines unmatched)',
  'royalties.code_assign': 'Assigned a sales code',
  'royalties.code_unassign': 'Removed a sales code assignment',
  'royalties.suspense_assign': 'Assigned suspense money',
  'royalties.suspense_release': 'Released suspense to operator revenue',
  'settings.update': 'Changed settings',
  'delivery.target.add': 'Added a delivery target',
  'delivery.target.edit': 'Edited a delivery target',
  'delivery.target.disable': 'Disabled a delivery target',
  'delivery.target.enable': 'Enabled a delivery target',
  'delivery.target.remove': 'Removed a delivery target',
  'finance.fee': 'Changed a distribution fee',
  'splits.expense': 'Recorded a release expense',
  'splits.save': 'Saved a release’s split',
  'release.approve': 'Approved release',
  'release.reject': 'Rejected release',
  'release.unapprove': 'Unapproved release',
  'release.unreject': 'Unrejected release',
  'release.resubmit': 'Resubmitted release (artist)',
  'release.replace_cover': 'Replaced cover art (artist)',
  'release.replace_audio': 'Replaced track audio (artist)',
  'release.add_track': 'Added a track (artist)',
  'release.remove_track': 'Removed a track (artist)',
  'release.update_request': 'Sent a release update for review (artist)',
  'release.update_approve': 'Approved a release update',
  'release.update_reject': 'Rejected a release update',
  'release.takedown_approve': 'Approved takedown',
  'release.takedown_reject': 'Rejected takedown',
  'release.store_takedown_reject': 'Rejected a store takedown',
  'release.delete': 'Deleted release permanently',
  'release.export': 'Exported release files',
  'release.edit': 'Edited a release',
  'release.edit_tracks': 'Edited a release’s tracks',
  'user.ban': 'Banned user',
  'user.unban': 'Unbanned user',
  'role.grant': 'Granted a role',
  'role.revoke': 'Revoked a role',
  'withdrawal.approve': 'Approved a withdrawal',
  'withdrawal.reject': 'Rejected a withdrawal',
  'wallet.payment_settings': 'Changed payout details',
  'wallet.payment_settings_confirm': 'Confirmed new payout details',
  'wallet.withdrawal_request': 'Requested a withdrawal',
  'payouts.provider_settings': 'Changed a payout provider',
  'payouts.settings': 'Changed the payout schedule',
  'payouts.run': 'Started a payout run',
  'payouts.mark': 'Marked a payout paid or returned',
  'team.invite': 'Invited a team member',
  'team.invitation_withdraw': 'Withdrew a team invitation',
  'team.join': 'Joined a team',
  'team.role_change': 'Changed a team member’s role',
  'team.remove': 'Removed a team member',
  'team.leave': 'Left a team',
  'team.transfer': 'Transferred account ownership',
  'content_id.opt_in': 'Opted a track into Content ID',
  'content_id.opt_out': 'Opted a track out of Content ID',
  'content_id.add_channel': 'Allowed a YouTube channel',
  'content_id.remove_channel': 'Removed an allowed YouTube channel',
  'content_id.asset_id': 'Set a track’s YouTube asset id',
  'content_id.claim_release_request': 'Asked to release a Content ID claim',
  'content_id.claim_released': 'Released a Content ID claim',
  'tax.form_signed': 'Signed a tax form',
  'tax.form_invalidated': 'A tax form stopped being valid',
  'tax.treaty_rate': 'Changed a treaty rate',
  'tax.vat_registration': 'Changed a VAT registration',
  'contracts.create': 'Created a label contract',
  'contracts.edit': 'Edited a label contract',
  'contracts.advance': 'Recorded a contract advance or cost',
} as const;

export type AuditKind = keyof typeof AUDIT_KINDS;
export const AUDIT_KIND_LIST = Object.keys(AUDIT_KINDS) as AuditKind[];

/** The label of a kind; a kind this build does not know (an older or newer row) shows as itself. */
export const auditKindLabel = (kind: string): string => (AUDIT_KINDS as Record<string, string>)[kind] ?? kind;

/** Groups offered by the kind filter: a prefix such as `royalties` or `delivery.target` matches its kinds. */
export const AUDIT_KIND_GROUPS = {
  royalties: 'Royalties (all)',
  settings: 'Settings (all)',
  'delivery.target': 'Delivery targets (all)',
  finance: 'Finance (all)',
  splits: 'Splits (all)',
  release: 'Releases (all)',
  user: 'Users (all)',
  role: 'Roles (all)',
  withdrawal: 'Withdrawals (all)',
  wallet: 'Wallet: payout details and requests (all)',
  content_id: 'Content ID (all)',
  team: 'Team (all)',
  tax: 'Tax forms and rates (all)',
  contracts: 'Label contracts (all)',
} as const;

/** What an audit row is about; its name is stored with the row so deletions leave it readable. */
export type AuditSubjectType =
  | 'royalty_report'
  | 'code'
  | 'suspense'
  | 'setting'
  | 'delivery_target'
  | 'plan'
  | 'account'
  | 'expense'
  | 'release'
  | 'track'
  | 'user'
  | 'withdrawal'
  | 'tax_form'
  | 'treaty_rate'
  | 'payout_provider'
  | 'payout_run'
  | 'payout'
  | 'contract';

const kindFilter = safeText()
  .trim()
  .max(60)
  .regex(/^[a-z_.]+$/, 'Choose a kind from the list.')
  .optional()
  .or(z.literal('').transform(() => undefined));

const dayFilter = safeText()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date as YYYY-MM-DD.')
  .optional()
  .or(z.literal('').transform(() => undefined));

/** Filters of GET /api/admin/audit and GET /api/admin/audit.csv (from and to are whole UTC days, inclusive). */
export const auditFilterSchema = z.object({
  kind: kindFilter,
  user: safeText().trim().max(254).optional(),
  releaseId: safeText()
    .trim()
    .regex(/^[0-9a-fA-F-]{36}$/, 'Enter a full release id.')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  from: dayFilter,
  to: dayFilter,
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export const auditQuerySchema = auditFilterSchema.extend({
  cursor: safeText().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export type AuditEntry = {
  id: string;
  createdAt: string;
  actorId: string | null;
  actorEmail: string;
  /** The current name of the actor when the account still exists (artist name, else email). */
  actorName: string | null;
  action: string;
  releaseId: string | null;
  subjectUserId: string | null;
  withdrawalRequestId: string | null;
  /**
   * The account a team member acted for (record 202), with its owner's email now; null when the actor
   * acted on their own account.
   */
  accountId: string | null;
  accountLabel: string | null;
  subjectType: string | null;
  subjectId: string | null;
  /** The subject's name when the action was written (kept after the subject is deleted). */
  subjectLabel: string | null;
  before: unknown;
  after: unknown;
};

export type AuditPage = { items: AuditEntry[]; nextCursor: string | null };

const show = (value: unknown): string =>
  value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);

/** One changed field: its value before and after as text ('—' for none); a side is null when absent. */
export type AuditFieldChange = { field: string; before: string | null; after: string | null };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The fields that changed between before and after; when one side is missing (a creation or a deletion),
 * every field of the other side.
 */
export function auditDiff(before: unknown, after: unknown): AuditFieldChange[] {
  if (isRecord(before) && isRecord(after)) {
    return [...new Set([...Object.keys(before), ...Object.keys(after)])]
      .filter((key) => JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null))
      .map((field) => ({ field, before: show(before[field]), after: show(after[field]) }));
  }
  if (isRecord(after)) {
    return Object.entries(after).map(([field, value]) => ({ field, before: null, after: show(value) }));
  }
  if (isRecord(before)) {
    return Object.entries(before).map(([field, value]) => ({ field, before: show(value), after: null }));
  }
  if (before == null && after == null) return [];
  return [
    {
      field: 'value',
      before: before == null ? null : show(before),
      after: after == null ? null : show(after),
    },
  ];
}

/** The changes as text for a CSV cell or a screen reader: "field: before → after". */
export function auditChanges(before: unknown, after: unknown): string[] {
  return auditDiff(before, after).map(({ field, before: was, after: now }) =>
    was === null
      ? `${field}: ${now}`
      : now === null
        ? `${field}: ${was} (removed)`
        : `${field}: ${was} → ${now}`,
  );
}
