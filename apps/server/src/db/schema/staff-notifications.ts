import {
  STAFF_NOTIFICATION_KINDS,
  STAFF_NOTIFICATION_MODES,
  type StaffNotificationKind,
  type StaffNotificationMode,
} from '@tunedrop/shared/schemas/staff-notifications';
import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { createdAt, inList, updatedAt } from './columns';

// ------------------------------------------------- staff notifications (issue 26, migration 0033)

/** A staff user's choice for one kind; a kind without a row is mailed at once (record 179). */
export const staffNotificationPreferences = pgTable(
  'staff_notification_preferences',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<StaffNotificationKind>().notNull(),
    mode: text('mode').$type<StaffNotificationMode>().notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind] }),
    check('staff_notification_preferences_kind_check', inList('kind', STAFF_NOTIFICATION_KINDS)),
    check('staff_notification_preferences_mode_check', inList('mode', STAFF_NOTIFICATION_MODES)),
  ],
);

/** An event waiting for its recipient's daily digest; `sent_at` is set by the digest that lists it. */
export const staffNotificationDigestItems = pgTable(
  'staff_notification_digest_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<StaffNotificationKind>().notNull(),
    summary: text('summary').notNull(),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    check('staff_notification_digest_items_kind_check', inList('kind', STAFF_NOTIFICATION_KINDS)),
    index('staff_notification_digest_items_unsent_idx')
      .on(t.userId, t.createdAt)
      .where(sql`${t.sentAt} is null`),
  ],
);
