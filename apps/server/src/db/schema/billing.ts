import { PLANS, type Plan } from '@tunedrop/shared';
import { check, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from './auth';
import { createdAt, inList } from './columns';

// ---------------------------------------------------------------- billing

/** Provider events seen, by id, so a replayed webhook is a no-op. */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Checkout sessions of the built-in payment sandbox. */
export const sandboxCheckouts = pgTable(
  'sandbox_checkouts',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    plan: text('plan').$type<Plan>().notNull(),
    successUrl: text('success_url').notNull(),
    cancelUrl: text('cancel_url').notNull(),
    status: text('status').$type<'open' | 'paid' | 'canceled'>().notNull().default('open'),
    createdAt: createdAt(),
  },
  () => [
    check('sandbox_checkouts_plan_check', inList('plan', PLANS)),
    check('sandbox_checkouts_status_check', inList('status', ['open', 'paid', 'canceled'])),
  ],
);
