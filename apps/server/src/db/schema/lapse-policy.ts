import { LAPSE_NOTICE_KINDS, type LapseNoticeKind } from '@tunedrop/shared/schemas/lapse-policy';
import { check, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { createdAt, inList } from './columns';

// ------------------------------------------------- lapsed accounts (issue 26, migration 0050)

/**
 * What the lapse policy did for one lapse of one account (record 196): a row per kind, written with the
 * mail (and the takedown) in one transaction, so a second run of the daily job does nothing again. A
 * new lapse (a later `lapsed_at`) starts afresh.
 */
export const lapseNotices = pgTable(
  'lapse_notices',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    lapsedAt: timestamp('lapsed_at', { withTimezone: true }).notNull(),
    kind: text('kind').$type<LapseNoticeKind>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.lapsedAt, t.kind] }),
    check('lapse_notices_kind_check', inList('kind', LAPSE_NOTICE_KINDS)),
  ],
);
