/**
 * Staff notifications (issue 26 finding 3, record 179): the modules where an event happens call
 * `notifyStaff` in the transaction that makes it; each staff user allowed to hear of the kind gets a
 * mail through the outbox (sent after commit by `mail.send`, record 083), a line in tomorrow's digest,
 * or nothing, as they chose.
 */
import type { Role } from '@tunedrop/shared';
import {
  DEFAULT_STAFF_NOTIFICATION_MODE,
  STAFF_NOTIFICATION_LABELS,
  STAFF_NOTIFICATION_MESSAGES,
  STAFF_NOTIFICATION_ROLES,
  type StaffNotificationKind,
  type StaffNotificationMode,
  type StaffNotificationPreferencesInput,
  type StaffNotificationPreferencesView,
  staffNotificationKindsFor,
} from '@tunedrop/shared/schemas/staff-notifications';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  profiles,
  staffNotificationDigestItems,
  staffNotificationPreferences,
  userRoles,
} from '../../db/schema';
import { enqueueMail } from '../../infra/mail/mail';
import { AppError } from '../../lib/errors';

export type StaffEvent = {
  kind: StaffNotificationKind;
  /** One line: the mail's subject and the event's line in a digest. */
  summary: string;
  /** The mail's body after the summary (what happened, where to act). */
  details?: string[];
};

// Titles and store names go into a subject line: no line breaks or other control characters.
export const oneLine = (text: string) => text.replace(/\p{Cc}+/gu, ' ').trim();

/** Staff who may hear of `kind`, with their choice for it (a kind never chosen is mailed at once). */
async function recipientsOf(db: DbOrTx, kind: StaffNotificationKind) {
  const roles = [...STAFF_NOTIFICATION_ROLES[kind]];
  return db
    .selectDistinct({
      userId: profiles.id,
      email: profiles.email,
      mode: sql<StaffNotificationMode>`coalesce(${staffNotificationPreferences.mode}, ${DEFAULT_STAFF_NOTIFICATION_MODE})`,
    })
    .from(userRoles)
    .innerJoin(profiles, eq(profiles.id, userRoles.userId))
    .leftJoin(
      staffNotificationPreferences,
      and(
        eq(staffNotificationPreferences.userId, userRoles.userId),
        eq(staffNotificationPreferences.kind, kind),
      ),
    )
    .where(inArray(userRoles.role, roles));
}

/** Mails or queues for the digest one event, in the caller's transaction (rolled back with it). */
export async function notifyStaff(db: DbOrTx, event: StaffEvent): Promise<void> {
  const summary = oneLine(event.summary);
  const recipients = await recipientsOf(db, event.kind);
  const digest = recipients.filter((r) => r.mode === 'digest');
  if (digest.length > 0) {
    await db
      .insert(staffNotificationDigestItems)
      .values(digest.map((r) => ({ userId: r.userId, kind: event.kind, summary })));
  }
  for (const recipient of recipients.filter((r) => r.mode === 'immediate')) {
    await enqueueMail(db, {
      to: recipient.email,
      subject: summary,
      text: [
        summary,
        '',
        ...(event.details ?? []),
        '',
        `You get these mails at once as a staff member (${STAFF_NOTIFICATION_LABELS[event.kind]}); choose a daily digest or none on your Account page.`,
      ].join('\n'),
    });
  }
}

export async function readPreferences(
  db: DbOrTx,
  userId: string,
  roles: readonly Role[],
): Promise<StaffNotificationPreferencesView> {
  const chosen = await db
    .select({ kind: staffNotificationPreferences.kind, mode: staffNotificationPreferences.mode })
    .from(staffNotificationPreferences)
    .where(eq(staffNotificationPreferences.userId, userId));
  return {
    preferences: staffNotificationKindsFor(roles).map((kind) => ({
      kind,
      label: STAFF_NOTIFICATION_LABELS[kind],
      mode: chosen.find((row) => row.kind === kind)?.mode ?? DEFAULT_STAFF_NOTIFICATION_MODE,
    })),
  };
}

/** Saves the user's choices; a kind their roles do not receive is refused (400), nothing saved. */
export async function savePreferences(
  db: DbOrTx,
  userId: string,
  roles: readonly Role[],
  input: StaffNotificationPreferencesInput,
): Promise<StaffNotificationPreferencesView> {
  const allowed = staffNotificationKindsFor(roles);
  const refused = input.preferences.findIndex((p) => !allowed.includes(p.kind));
  if (refused >= 0) {
    throw new AppError('validation_error', STAFF_NOTIFICATION_MESSAGES.notForRole, 422, {
      [`preferences.${refused}.kind`]: STAFF_NOTIFICATION_MESSAGES.notForRole,
    });
  }
  for (const { kind, mode } of input.preferences) {
    await db
      .insert(staffNotificationPreferences)
      .values({ userId, kind, mode })
      .onConflictDoUpdate({
        target: [staffNotificationPreferences.userId, staffNotificationPreferences.kind],
        set: { mode, updatedAt: sql`now()` },
      });
  }
  return readPreferences(db, userId, roles);
}
