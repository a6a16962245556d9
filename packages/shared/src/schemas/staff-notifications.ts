/**
 * Staff notifications (issue 26 finding 3, record 179): which events mail which staff role, and each
 * staff user's choice per kind (at once, in a daily digest, or off). One schema for the preferences
 * form and the server route.
 */
import { z } from 'zod';
import type { Role } from '../constants';

export const STAFF_NOTIFICATION_KINDS = [
  'release_submitted',
  'takedown_requested',
  'withdrawal_requested',
  'delivery_failed',
  'store_rejected',
  'ack_unreadable',
] as const;
export type StaffNotificationKind = (typeof STAFF_NOTIFICATION_KINDS)[number];

export const STAFF_NOTIFICATION_MODES = ['immediate', 'digest', 'off'] as const;
export type StaffNotificationMode = (typeof STAFF_NOTIFICATION_MODES)[number];

/** A kind nobody has chosen for yet is mailed at once. */
export const DEFAULT_STAFF_NOTIFICATION_MODE: StaffNotificationMode = 'immediate';

/**
 * Who may hear of each kind. Moderators review releases and takedowns (spec 02 §6); money and the
 * stores' side are the admins' alone, so a moderator never gets a withdrawal or delivery mail.
 */
export const STAFF_NOTIFICATION_ROLES: Record<StaffNotificationKind, readonly Role[]> = {
  release_submitted: ['moderator', 'admin'],
  takedown_requested: ['moderator', 'admin'],
  withdrawal_requested: ['admin'],
  delivery_failed: ['admin'],
  store_rejected: ['admin'],
  ack_unreadable: ['admin'],
};

export const STAFF_NOTIFICATION_LABELS: Record<StaffNotificationKind, string> = {
  release_submitted: 'Release submissions',
  takedown_requested: 'Takedown requests (whole release or one store)',
  withdrawal_requested: 'Withdrawal requests',
  delivery_failed: 'Failed deliveries',
  store_rejected: 'Store rejections',
  ack_unreadable: 'Unreadable store acknowledgements',
};

export const STAFF_NOTIFICATION_MODE_LABELS: Record<StaffNotificationMode, string> = {
  immediate: 'At once',
  digest: 'Daily digest',
  off: 'Off',
};

/** The kinds a user with these roles may hear of. */
export function staffNotificationKindsFor(roles: readonly Role[]): StaffNotificationKind[] {
  return STAFF_NOTIFICATION_KINDS.filter((kind) =>
    STAFF_NOTIFICATION_ROLES[kind].some((role) => roles.includes(role)),
  );
}

export const STAFF_NOTIFICATION_MESSAGES = {
  notForRole: 'Your role does not receive this kind of notification.',
} as const;

export const staffNotificationPreferencesSchema = z.object({
  preferences: z
    .array(z.object({ kind: z.enum(STAFF_NOTIFICATION_KINDS), mode: z.enum(STAFF_NOTIFICATION_MODES) }))
    .min(1)
    .max(STAFF_NOTIFICATION_KINDS.length),
});
export type StaffNotificationPreferencesInput = z.infer<typeof staffNotificationPreferencesSchema>;

export type StaffNotificationPreference = {
  kind: StaffNotificationKind;
  label: string;
  mode: StaffNotificationMode;
};
export type StaffNotificationPreferencesView = { preferences: StaffNotificationPreference[] };
