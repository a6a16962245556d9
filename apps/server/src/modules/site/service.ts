/**
 * Contact Us requests: stored, mailed to SUPPORT_EMAIL through the outbox in the same transaction,
 * rate-limited per client address from the stored rows (no process memory, so it holds across
 * instances), and listed for admins.
 */
import {
  CONTACT_LIMITS,
  CONTACT_MESSAGES,
  CONTACT_REQUESTS_PAGE_SIZE,
  type ContactRequest,
  type ContactRequestFilter,
  type ContactRequestList,
  type ContactRequestView,
} from '@tunedrop/shared/schemas/site';
import { and, count, desc, eq, gt, isNotNull, isNull, min, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { contactRequests, user } from '../../db/schema';
import { enqueueMail } from '../../infra/mail/mail';
import { AppError, notFound } from '../../lib/errors';
import { pageInfo, pageWindow } from '../../lib/paging';
import { run } from '../../lib/sql';

export class ContactRateLimitError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate_limited', CONTACT_MESSAGES.rateLimited(Math.max(1, Math.ceil(retryAfterSeconds / 60))), 429);
  }
}

export type SubmitContactOptions = {
  clientAddress: string;
  supportEmail: string;
  appUrl: string;
  isRateLimited: boolean;
  now?: Date;
};

export async function submitContactRequest(
  db: Db,
  input: ContactRequest,
  options: SubmitContactOptions,
): Promise<{ id: string }> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    if (options.isRateLimited) await assertUnderRateLimit(tx, options.clientAddress, now);
    const [row] = await tx
      .insert(contactRequests)
      .values({
        name: input.name,
        companyName: input.companyName,
        email: input.email,
        links: input.links,
        clientAddress: options.clientAddress,
        createdAt: now,
      })
      .returning({ id: contactRequests.id });
    if (!row) throw new Error('contact request insert returned no row');
    await enqueueMail(tx, {
      to: options.supportEmail,
      subject: `Contact request from ${input.name} (${input.companyName})`,
      text: contactMailText(input, now, options.appUrl),
    });
    return { id: row.id };
  });
}

/**
 * Counts this address's requests in the window. A transaction-scoped advisory lock on the address
 * makes concurrent requests from one address queue here, so a burst cannot slip past the count.
 */
async function assertUnderRateLimit(tx: DbOrTx, clientAddress: string, now: Date): Promise<void> {
  await run(tx, sql`select pg_advisory_xact_lock(hashtextextended(${`contact:${clientAddress}`}, 0))`);
  const windowMs = CONTACT_LIMITS.rateLimitWindowMinutes * 60_000;
  const since = new Date(now.getTime() - windowMs);
  const [recent] = await tx
    .select({ total: count(), oldest: min(contactRequests.createdAt) })
    .from(contactRequests)
    .where(and(eq(contactRequests.clientAddress, clientAddress), gt(contactRequests.createdAt, since)));
  if (!recent || recent.total < CONTACT_LIMITS.rateLimitCount) return;
  const oldest = recent.oldest ? new Date(recent.oldest).getTime() : now.getTime();
  const retryAfterSeconds = Math.max(1, Math.ceil((oldest + windowMs - now.getTime()) / 1000));
  throw new ContactRateLimitError(retryAfterSeconds);
}

function contactMailText(input: ContactRequest, receivedAt: Date, appUrl: string): string {
  const links = input.links.length > 0 ? input.links.map((link) => `- ${link}`).join('\n') : '(none)';
  return [
    'A new Contact Us request arrived from the Tunedrop website.',
    '',
    `Name: ${input.name}`,
    `Artist/Label/Company Name: ${input.companyName}`,
    `Email Address: ${input.email}`,
    'Website or social links:',
    links,
    '',
    `Received: ${receivedAt.toISOString()}`,
    `Reply to the sender at ${input.email}. Mark it as handled at ${appUrl}/admin/messages`,
  ].join('\n');
}

const viewColumns = {
  id: contactRequests.id,
  name: contactRequests.name,
  companyName: contactRequests.companyName,
  email: contactRequests.email,
  links: contactRequests.links,
  createdAt: contactRequests.createdAt,
  handledAt: contactRequests.handledAt,
  handledByName: user.name,
};

type ViewRow = {
  id: string;
  name: string;
  companyName: string;
  email: string;
  links: string[];
  createdAt: Date;
  handledAt: Date | null;
  handledByName: string | null;
};

const toView = (row: ViewRow): ContactRequestView => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  handledAt: row.handledAt ? row.handledAt.toISOString() : null,
});

const filterCondition = (status: ContactRequestFilter) =>
  status === 'open'
    ? isNull(contactRequests.handledAt)
    : status === 'handled'
      ? isNotNull(contactRequests.handledAt)
      : undefined;

/** Newest first, one page at a time, with the open and handled counts for the tabs. */
export async function listContactRequests(
  db: DbOrTx,
  params: { status: ContactRequestFilter; page: number },
): Promise<ContactRequestList> {
  const pageSize = CONTACT_REQUESTS_PAGE_SIZE;
  const [rows, [counts]] = await Promise.all([
    db
      .select(viewColumns)
      .from(contactRequests)
      .leftJoin(user, eq(user.id, contactRequests.handledBy))
      .where(filterCondition(params.status))
      .orderBy(desc(contactRequests.createdAt), desc(contactRequests.id))
      .limit(pageWindow(params.page, pageSize).limit)
      .offset(pageWindow(params.page, pageSize).offset),
    db
      .select({
        open: sql<number>`count(*) filter (where ${contactRequests.handledAt} is null)`.mapWith(Number),
        handled: sql<number>`count(*) filter (where ${contactRequests.handledAt} is not null)`.mapWith(
          Number,
        ),
      })
      .from(contactRequests),
  ]);
  const open = counts?.open ?? 0;
  const handled = counts?.handled ?? 0;
  const total = params.status === 'open' ? open : params.status === 'handled' ? handled : open + handled;
  return { items: rows.map(toView), ...pageInfo(params.page, pageSize, total), counts: { open, handled } };
}

/** Marks a request handled (keeping the first handler and time) or open again. */
export async function setContactRequestHandled(
  db: Db,
  params: { id: string; isHandled: boolean; adminId: string },
): Promise<ContactRequestView> {
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(contactRequests)
      .set(
        params.isHandled
          ? {
              handledAt: sql`coalesce(${contactRequests.handledAt}, now())`,
              handledBy: sql`case when ${contactRequests.handledAt} is null then ${params.adminId} else ${contactRequests.handledBy} end`,
            }
          : { handledAt: null, handledBy: null },
      )
      .where(eq(contactRequests.id, params.id))
      .returning({ id: contactRequests.id });
    if (updated.length === 0) throw notFound('Contact request not found.');
    const [row] = await tx
      .select(viewColumns)
      .from(contactRequests)
      .leftJoin(user, eq(user.id, contactRequests.handledBy))
      .where(eq(contactRequests.id, params.id));
    if (!row) throw notFound('Contact request not found.');
    return toView(row);
  });
}
