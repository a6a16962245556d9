import { PLANS, type Plan } from '@tunedrop/shared';
import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { createdAt, inList } from './columns';

// ---------------------------------------------------------------- support (issue 28, migration 0026)

/** A signed-in user's message to support, with the plan and reply-by time it was sent under (record 173). */
export const supportMessages = pgTable(
  'support_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    plan: text('plan').$type<Plan>().notNull(),
    /** The operator's zone the reply-by time was counted in, kept so a later change moves no promise. */
    timeZone: text('time_zone').notNull(),
    replyBy: timestamp('reply_by', { withTimezone: true }).notNull(),
    /** Set by the first staff reply; the message then leaves the open list. */
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('support_messages_plan_check', inList('plan', PLANS)),
    index('support_messages_user_created_idx').on(t.userId, t.createdAt.desc()),
    index('support_messages_open_reply_by_idx').on(t.replyBy, t.id).where(sql`${t.answeredAt} is null`),
    index('support_messages_answered_idx')
      .on(t.answeredAt.desc(), t.id)
      .where(sql`${t.answeredAt} is not null`),
  ],
);

/** A staff reply, mailed to the message's author through the outbox in the same transaction. */
export const supportReplies = pgTable(
  'support_replies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    messageId: uuid('message_id')
      .notNull()
      .references(() => supportMessages.id, { onDelete: 'cascade' }),
    authorId: text('author_id').references(() => user.id, { onDelete: 'set null' }),
    /** The name shown in the thread, kept if the staff account goes away. */
    authorName: text('author_name').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('support_replies_message_created_idx').on(t.messageId, t.createdAt)],
);
