/**
 * Priority support (issue 28, decisions 173 and 174): a signed-in user writes to support from the Help page;
 * each message carries the reply-by time of the user's plan counted in the operator's time zone; admins
 * read the open messages in reply-by order and reply; a reply is mailed through the outbox in the same
 * transaction and shows in the user's Help history.
 */
import {
  type AdminSupportMessageList,
  type AdminSupportMessageView,
  SUPPORT_LIMITS,
  SUPPORT_MESSAGES,
  SUPPORT_PAGE_SIZE,
  type SupportFilter,
  type SupportMessage,
  type SupportSettingsView,
  type SupportThreadView,
  supportPlanOf,
} from '@tunedrop/shared/schemas/support';
import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, min, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { settings, supportMessages, supportReplies, user } from '../../db/schema';
import { enqueueMail } from '../../infra/mail/mail';
import type { Viewer } from '../../lib/context';
import { AppError, notFound } from '../../lib/errors';
import { pageInfo, pageWindow } from '../../lib/paging';
import { run } from '../../lib/sql';
import { type AuditActor, auditSettings, readSettingValues } from '../audit';
import { replyByTime } from './reply-by';

/** The settings-table key of the operator's time zone; without a row, reply-by times count in UTC. */
export const TIME_ZONE_SETTING = 'OPERATOR_TIME_ZONE';
export const DEFAULT_TIME_ZONE = 'UTC';
/** How many of a user's own threads the Help page shows (newest first). */
export const HISTORY_LIMIT = 50;

export class SupportRateLimitError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate_limited', SUPPORT_MESSAGES.rateLimited(Math.max(1, Math.ceil(retryAfterSeconds / 60))), 429);
  }
}

// ------------------------------------------------------------------ operator time zone

export async function readSupportSettings(db: DbOrTx): Promise<SupportSettingsView> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, TIME_ZONE_SETTING));
  return row?.value
    ? { timeZone: row.value, source: 'settings' }
    : { timeZone: DEFAULT_TIME_ZONE, source: 'default' };
}

export async function saveSupportSettings(
  db: DbOrTx,
  values: { timeZone: string },
  updatedBy: string,
  actor?: AuditActor,
): Promise<SupportSettingsView> {
  const now = new Date();
  await db.transaction(async (tx) => {
    const before = await readSettingValues(tx, [TIME_ZONE_SETTING]);
    await tx
      .insert(settings)
      .values({ key: TIME_ZONE_SETTING, value: values.timeZone, updatedBy, updatedAt: now })
      .onConflictDoUpdate({
        target: settings.key,
        set: { value: values.timeZone, updatedBy, updatedAt: now },
      });
    if (actor) {
      await auditSettings(tx, actor, 'Support time zone', before, { [TIME_ZONE_SETTING]: values.timeZone });
    }
  });
  return readSupportSettings(db);
}

// ------------------------------------------------------------------ the user's side

export type SendOptions = { supportEmail: string; appUrl: string; isRateLimited: boolean; now?: Date };

/** Stores the message with its plan and reply-by time and tells support by mail, in one transaction. */
export async function sendSupportMessage(
  db: Db,
  viewer: Viewer,
  input: SupportMessage,
  options: SendOptions,
): Promise<SupportThreadView> {
  const now = options.now ?? new Date();
  const plan = supportPlanOf({ ...viewer.profile, roles: viewer.roles }, now);
  return db.transaction(async (tx) => {
    if (options.isRateLimited) await assertUnderRateLimit(tx, viewer.user.id, now);
    const { timeZone } = await readSupportSettings(tx);
    const replyBy = replyByTime(now, SUPPORT_LIMITS.replyBusinessDays[plan], timeZone);
    const [row] = await tx
      .insert(supportMessages)
      .values({
        userId: viewer.user.id,
        subject: input.subject,
        body: input.body,
        plan,
        timeZone,
        replyBy,
        createdAt: now,
      })
      .returning();
    if (!row) throw new Error('support message insert returned no row');
    await enqueueMail(tx, {
      to: options.supportEmail,
      subject: `[${plan === 'pro' ? 'Pro' : 'Basic'}] Support: ${input.subject}`,
      text: [
        `${viewer.user.name} <${viewer.user.email}> wrote to support (${plan === 'pro' ? 'Pro' : 'Basic'} plan).`,
        `Reply by: ${replyBy.toISOString()} (${SUPPORT_LIMITS.replyBusinessDays[plan]} business day${SUPPORT_LIMITS.replyBusinessDays[plan] === 1 ? '' : 's'}, counted in ${timeZone})`,
        '',
        `Subject: ${input.subject}`,
        '',
        input.body,
        '',
        `Reply from ${options.appUrl}/admin/messages so the answer shows in the user's Help history.`,
      ].join('\n'),
    });
    return toThreadView(row, []);
  });
}

/**
 * Counts the user's messages in the window. A transaction-scoped advisory lock on the user makes
 * concurrent sends queue here, so a burst cannot slip past the count.
 */
async function assertUnderRateLimit(tx: DbOrTx, userId: string, now: Date): Promise<void> {
  await run(tx, sql`select pg_advisory_xact_lock(hashtextextended(${`support:${userId}`}, 0))`);
  const windowMs = SUPPORT_LIMITS.rateLimitWindowMinutes * 60_000;
  const [recent] = await tx
    .select({ total: count(), oldest: min(supportMessages.createdAt) })
    .from(supportMessages)
    .where(
      and(
        eq(supportMessages.userId, userId),
        gt(supportMessages.createdAt, new Date(now.getTime() - windowMs)),
      ),
    );
  if (!recent || recent.total < SUPPORT_LIMITS.rateLimitCount) return;
  const oldest = recent.oldest ? new Date(recent.oldest).getTime() : now.getTime();
  throw new SupportRateLimitError(Math.max(1, Math.ceil((oldest + windowMs - now.getTime()) / 1000)));
}

/** The user's own threads, newest first (at most HISTORY_LIMIT). */
export async function listOwnThreads(db: DbOrTx, userId: string): Promise<SupportThreadView[]> {
  const messages = await db
    .select()
    .from(supportMessages)
    .where(eq(supportMessages.userId, userId))
    .orderBy(desc(supportMessages.createdAt), desc(supportMessages.id))
    .limit(HISTORY_LIMIT);
  return withReplies(db, messages);
}

/** One of the user's own threads; another user's message answers 404, as an unknown one does. */
export async function getOwnThread(db: DbOrTx, userId: string, id: string): Promise<SupportThreadView> {
  const messages = await db
    .select()
    .from(supportMessages)
    .where(and(eq(supportMessages.id, id), eq(supportMessages.userId, userId)));
  const [thread] = await withReplies(db, messages);
  if (!thread) throw notFound(SUPPORT_MESSAGES.notFound);
  return thread;
}

// ------------------------------------------------------------------ the admin's side

const isOpen = isNull(supportMessages.answeredAt);

const filterCondition = (status: SupportFilter) =>
  status === 'open' ? isOpen : status === 'answered' ? isNotNull(supportMessages.answeredAt) : undefined;

/**
 * Open messages by reply-by time (so overdue ones come first, then the soonest due), then answered ones,
 * most recently answered first.
 */
export async function listSupportMessagesForAdmin(
  db: DbOrTx,
  params: { status: SupportFilter; page: number },
  now: Date = new Date(),
): Promise<AdminSupportMessageList> {
  const { limit, offset } = pageWindow(params.page, SUPPORT_PAGE_SIZE);
  const [messages, [counts]] = await Promise.all([
    db
      .select({ message: supportMessages, userName: user.name, userEmail: user.email })
      .from(supportMessages)
      .innerJoin(user, eq(user.id, supportMessages.userId))
      .where(filterCondition(params.status))
      .orderBy(
        sql`${supportMessages.answeredAt} is not null`,
        sql`case when ${supportMessages.answeredAt} is null then ${supportMessages.replyBy} end asc`,
        desc(supportMessages.answeredAt),
        asc(supportMessages.id),
      )
      .limit(limit)
      .offset(offset),
    db
      .select({
        open: sql<number>`count(*) filter (where ${supportMessages.answeredAt} is null)`.mapWith(Number),
        answered: sql<number>`count(*) filter (where ${supportMessages.answeredAt} is not null)`.mapWith(
          Number,
        ),
        overdue:
          sql<number>`count(*) filter (where ${supportMessages.answeredAt} is null and ${supportMessages.replyBy} < ${now.toISOString()}::timestamptz)`.mapWith(
            Number,
          ),
      })
      .from(supportMessages),
  ]);
  const threads = await withReplies(
    db,
    messages.map((row) => row.message),
  );
  const items = threads.map(
    (thread, index): AdminSupportMessageView => ({
      ...thread,
      userName: messages[index]?.userName ?? '',
      userEmail: messages[index]?.userEmail ?? '',
      isOverdue: thread.answeredAt === null && Date.parse(thread.replyBy) < now.getTime(),
    }),
  );
  const open = counts?.open ?? 0;
  const answered = counts?.answered ?? 0;
  const total = params.status === 'open' ? open : params.status === 'answered' ? answered : open + answered;
  return {
    items,
    ...pageInfo(params.page, SUPPORT_PAGE_SIZE, total),
    counts: { open, answered, overdue: counts?.overdue ?? 0 },
  };
}

export type ReplyOptions = { appUrl: string; now?: Date };

/**
 * Adds a staff reply, marks the message answered (the first reply's time stays) and mails the reply to the
 * message's author, in one transaction; the message row is locked so two replies are ordered.
 */
export async function replyToSupportMessage(
  db: Db,
  params: { id: string; author: Viewer; body: string },
  options: ReplyOptions,
): Promise<SupportThreadView> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const [target] = await tx
      .select({ message: supportMessages, email: user.email, name: user.name })
      .from(supportMessages)
      .innerJoin(user, eq(user.id, supportMessages.userId))
      .where(eq(supportMessages.id, params.id))
      .for('update', { of: supportMessages });
    if (!target) throw notFound(SUPPORT_MESSAGES.notFound);
    const authorName = params.author.profile.fullName.trim() || params.author.user.name;
    await tx.insert(supportReplies).values({
      messageId: params.id,
      authorId: params.author.user.id,
      authorName,
      body: params.body,
      createdAt: now,
    });
    await tx
      .update(supportMessages)
      .set({ answeredAt: sql`coalesce(${supportMessages.answeredAt}, ${now.toISOString()}::timestamptz)` })
      .where(eq(supportMessages.id, params.id));
    await enqueueMail(tx, {
      to: target.email,
      subject: `Re: ${target.message.subject}`,
      text: [
        `Hello ${target.name},`,
        '',
        `${authorName} from Tunedrop support replied to your message "${target.message.subject}":`,
        '',
        params.body,
        '',
        `See the whole conversation in Help: ${options.appUrl}/dashboard/help/${params.id}`,
      ].join('\n'),
    });
    const [message] = await tx.select().from(supportMessages).where(eq(supportMessages.id, params.id));
    if (!message) throw notFound(SUPPORT_MESSAGES.notFound);
    const [thread] = await withReplies(tx, [message]);
    if (!thread) throw notFound(SUPPORT_MESSAGES.notFound);
    return thread;
  });
}

// ------------------------------------------------------------------ views

type MessageRow = typeof supportMessages.$inferSelect;
type ReplyRow = typeof supportReplies.$inferSelect;

/** The threads of `messages`, in their order, each with its replies oldest first (one query for all). */
async function withReplies(db: DbOrTx, messages: MessageRow[]): Promise<SupportThreadView[]> {
  if (messages.length === 0) return [];
  const replies = await db
    .select()
    .from(supportReplies)
    .where(
      inArray(
        supportReplies.messageId,
        messages.map((message) => message.id),
      ),
    )
    .orderBy(asc(supportReplies.createdAt), asc(supportReplies.id));
  const byMessage = new Map<string, ReplyRow[]>();
  for (const reply of replies) {
    const list = byMessage.get(reply.messageId);
    if (list) list.push(reply);
    else byMessage.set(reply.messageId, [reply]);
  }
  return messages.map((message) => toThreadView(message, byMessage.get(message.id) ?? []));
}

function toThreadView(message: MessageRow, replies: ReplyRow[]): SupportThreadView {
  return {
    id: message.id,
    subject: message.subject,
    body: message.body,
    plan: message.plan,
    createdAt: message.createdAt.toISOString(),
    replyBy: message.replyBy.toISOString(),
    timeZone: message.timeZone,
    answeredAt: message.answeredAt ? message.answeredAt.toISOString() : null,
    replies: replies.map((reply) => ({
      id: reply.id,
      body: reply.body,
      authorName: reply.authorName,
      createdAt: reply.createdAt.toISOString(),
    })),
  };
}
