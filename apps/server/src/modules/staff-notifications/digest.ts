/**
 * The daily digest (record 179): one mail per staff user listing the events they chose to read once a
 * day, none when there is nothing. Each user's items are marked sent and the mail written to the
 * outbox in one transaction, so a retried run never lists an event twice.
 */
import {
  STAFF_NOTIFICATION_LABELS,
  STAFF_NOTIFICATION_ROLES,
} from '@tunedrop/shared/schemas/staff-notifications';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { profiles, staffNotificationDigestItems, userRoles } from '../../db/schema';
import { enqueueMail } from '../../infra/mail/mail';

/** Sends every waiting digest; returns how many mails were written. */
export async function sendStaffDigests(db: Db, appUrl: string): Promise<number> {
  const users = await db
    .selectDistinct({ userId: staffNotificationDigestItems.userId })
    .from(staffNotificationDigestItems)
    .where(isNull(staffNotificationDigestItems.sentAt));
  let sent = 0;
  for (const { userId } of users) {
    const isMailed = await db.transaction(async (tx) => {
      const items = await tx
        .update(staffNotificationDigestItems)
        .set({ sentAt: new Date() })
        .where(
          and(eq(staffNotificationDigestItems.userId, userId), isNull(staffNotificationDigestItems.sentAt)),
        )
        .returning();
      const [profile] = await tx
        .select({ email: profiles.email })
        .from(profiles)
        .where(eq(profiles.id, userId));
      // A role taken away since the event was queued: its kinds are no longer told to this user.
      const roles = (
        await tx
          .select({ role: userRoles.role })
          .from(userRoles)
          .where(inArray(userRoles.userId, [userId]))
      ).map((row) => row.role);
      const listed = items
        .filter((item) => STAFF_NOTIFICATION_ROLES[item.kind].some((role) => roles.includes(role)))
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
      if (!profile || listed.length === 0) return false;
      const lines: string[] = [];
      for (const [kind, label] of Object.entries(STAFF_NOTIFICATION_LABELS)) {
        const ofKind = listed.filter((item) => item.kind === kind);
        if (ofKind.length === 0) continue;
        lines.push(`${label} (${ofKind.length}):`, ...ofKind.map((item) => `- ${item.summary}`), '');
      }
      await enqueueMail(tx, {
        to: profile.email,
        subject: `Tunedrop staff digest: ${listed.length} event${listed.length === 1 ? '' : 's'}`,
        text: [
          'What happened since your last digest:',
          '',
          ...lines,
          `Open Tunedrop: ${appUrl}/admin`,
          'Change what you receive on your Account page.',
        ].join('\n'),
      });
      return true;
    });
    if (isMailed) sent += 1;
  }
  return sent;
}
