import { SUPPORT_LIMITS, SUPPORT_MESSAGES } from '@tunedrop/shared/schemas/support';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox, settings, supportMessages, supportReplies } from '../../db/schema';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { replyByTime } from './reply-by';
import { TIME_ZONE_SETTING } from './service';

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(() => system.close());
beforeEach(async () => {
  await system.db.delete(supportReplies);
  await system.db.delete(supportMessages);
  await system.db.delete(mailOutbox);
  await system.db.delete(settings).where(eq(settings.key, TIME_ZONE_SETTING));
});

const valid = { subject: 'My release is stuck', body: 'Hello,\nmy album has been in review for a week.' };

const write = (cookie: string, json: unknown = valid) =>
  system.request('/api/support/messages', { method: 'POST', cookie, json });

const DAY_MS = 86_400_000;

describe('POST /api/support/messages', () => {
  it("stores a Pro artist's message with a reply-by one business day ahead and mails support", async () => {
    const pro = await system.signedInUser({ plan: 'pro', fullName: 'Ada Pro' });
    const before = Date.now();
    const response = await write(pro.cookie);
    expect(response.status).toBe(201);
    const thread = await readJson(response);
    expect(thread).toMatchObject({
      subject: valid.subject,
      body: valid.body,
      plan: 'pro',
      timeZone: 'UTC',
      answeredAt: null,
      replies: [],
    });
    const sentAt = new Date(thread.createdAt);
    expect(sentAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(thread.replyBy).toBe(replyByTime(sentAt, 1, 'UTC').toISOString());
    // One business day: at least a day, at most a weekend and a day away.
    const ahead = Date.parse(thread.replyBy) - sentAt.getTime();
    expect(ahead).toBeGreaterThan(DAY_MS - 1000);
    expect(ahead).toBeLessThanOrEqual(4 * DAY_MS);

    const mails = await system.db.select().from(mailOutbox);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.recipient).toBe(system.config.SUPPORT_EMAIL);
    expect(mails[0]?.subject).toBe(`[Pro] Support: ${valid.subject}`);
    expect(mails[0]?.textBody).toContain(`Reply by: ${thread.replyBy}`);
    expect(mails[0]?.textBody).toContain(valid.body);
  });

  it.each([
    ['a Basic artist', { plan: 'basic' as const }],
    ['a payee without a plan', { subscription: 'inactive' as const }],
    [
      'a Pro artist whose subscription ended',
      {
        plan: 'pro' as const,
        subscription: 'canceled' as const,
        subscriptionEnd: new Date(Date.now() - DAY_MS),
      },
    ],
  ])('gives %s the Basic reply-by time (3 business days)', async (_, options) => {
    const user = await system.signedInUser(options);
    const thread = await readJson(await write(user.cookie));
    expect(thread.plan).toBe('basic');
    expect(thread.replyBy).toBe(replyByTime(new Date(thread.createdAt), 3, 'UTC').toISOString());
  });

  it("counts in the operator's time zone set by an admin", async () => {
    const admin = await system.signedInUser({ roles: ['admin'] });
    const saved = await system.request('/api/admin/support/settings', {
      method: 'PUT',
      cookie: admin.cookie,
      json: { timeZone: 'Pacific/Auckland' },
    });
    expect(saved.status).toBe(200);
    expect(await readJson(saved)).toEqual({ timeZone: 'Pacific/Auckland', source: 'settings' });
    const pro = await system.signedInUser({ plan: 'pro' });
    const thread = await readJson(await write(pro.cookie));
    expect(thread.timeZone).toBe('Pacific/Auckland');
    expect(thread.replyBy).toBe(replyByTime(new Date(thread.createdAt), 1, 'Pacific/Auckland').toISOString());
  });

  it.each([
    ['subject', { subject: '   ' }, SUPPORT_MESSAGES.subjectRequired],
    [
      'subject',
      { subject: 's'.repeat(SUPPORT_LIMITS.subjectMaxLength + 1) },
      SUPPORT_MESSAGES.subjectTooLong,
    ],
    ['subject', { subject: 'Help\nBcc: victim@example.com' }, 'This field must be on one line.'],
    ['body', { body: '' }, SUPPORT_MESSAGES.messageRequired],
    ['body', { body: 'b'.repeat(SUPPORT_LIMITS.messageMaxLength + 1) }, SUPPORT_MESSAGES.messageTooLong],
    ['body', { body: 'ring \u0007 the bell' }, 'This field cannot contain control characters.'],
  ])('refuses a bad %s with 422 and stores nothing', async (field, change, message) => {
    const user = await system.signedInUser();
    const response = await write(user.cookie, { ...valid, ...change });
    expect(response.status).toBe(422);
    const body = await readJson(response);
    expect(body.error.fields?.[field] ?? body.error.message).toBe(message);
    expect(await system.db.select().from(supportMessages)).toHaveLength(0);
    expect(await system.db.select().from(mailOutbox)).toHaveLength(0);
  });

  it('accepts a message of exactly the longest length, keeping its line breaks', async () => {
    const user = await system.signedInUser();
    const body = `a\n${'b'.repeat(SUPPORT_LIMITS.messageMaxLength - 2)}`;
    const response = await write(user.cookie, { subject: 's'.repeat(SUPPORT_LIMITS.subjectMaxLength), body });
    expect(response.status).toBe(201);
    expect((await readJson(response)).body).toBe(body);
  });
});

describe('Help history and ownership', () => {
  it('shows users only their own messages; another user’s answers 404', async () => {
    const ada = await system.signedInUser();
    const bob = await system.signedInUser();
    const mine = await readJson(await write(ada.cookie, { subject: 'First', body: 'one' }));
    await write(ada.cookie, { subject: 'Second', body: 'two' });
    await write(bob.cookie, { subject: 'Bob asks', body: 'three' });

    const adaList = await readJson(await system.request('/api/support/messages', { cookie: ada.cookie }));
    expect(adaList.items.map((item: { subject: string }) => item.subject)).toEqual(['Second', 'First']);
    const bobList = await readJson(await system.request('/api/support/messages', { cookie: bob.cookie }));
    expect(bobList.items.map((item: { subject: string }) => item.subject)).toEqual(['Bob asks']);

    const own = await system.request(`/api/support/messages/${mine.id}`, { cookie: ada.cookie });
    expect(own.status).toBe(200);
    expect((await readJson(own)).subject).toBe('First');
    const other = await system.request(`/api/support/messages/${mine.id}`, { cookie: bob.cookie });
    expect(other.status).toBe(404);
    expect((await readJson(other)).error.message).toBe(SUPPORT_MESSAGES.notFound);
    expect((await system.request('/api/support/messages')).status).toBe(401);
  });
});

describe('admin support messages', () => {
  /** Messages written directly with chosen reply-by times (hours from now; negative = overdue). */
  const seed = async (
    userId: string,
    rows: {
      subject: string;
      plan: 'pro' | 'basic';
      dueInHours: number;
      sentHoursAgo: number;
      isAnswered?: boolean;
    }[],
  ) => {
    const now = Date.now();
    await system.db.insert(supportMessages).values(
      rows.map((row) => ({
        userId,
        subject: row.subject,
        body: `About ${row.subject}`,
        plan: row.plan,
        timeZone: 'UTC',
        replyBy: new Date(now + row.dueInHours * 3_600_000),
        createdAt: new Date(now - row.sentHoursAgo * 3_600_000),
        answeredAt: row.isAnswered ? new Date(now - 60_000) : null,
      })),
    );
  };

  it('lists open messages overdue first, then soonest due, with plan and reply-by; answered ones last', async () => {
    const admin = await system.signedInUser({ roles: ['admin'] });
    const artist = await system.signedInUser({ fullName: 'Nina Artist' });
    await seed(artist.userId, [
      { subject: 'Older Basic, due later', plan: 'basic', dueInHours: 30, sentHoursAgo: 40 },
      { subject: 'Newer Pro, due sooner', plan: 'pro', dueInHours: 20, sentHoursAgo: 1 },
      { subject: 'Overdue Basic', plan: 'basic', dueInHours: -2, sentHoursAgo: 80 },
      { subject: 'Answered Pro', plan: 'pro', dueInHours: -50, sentHoursAgo: 90, isAnswered: true },
    ]);

    const open = await readJson(
      await system.request('/api/admin/support/messages', { cookie: admin.cookie }),
    );
    expect(open.items.map((item: { subject: string }) => item.subject)).toEqual([
      'Overdue Basic',
      'Newer Pro, due sooner',
      'Older Basic, due later',
    ]);
    expect(open.items.map((item: { isOverdue: boolean }) => item.isOverdue)).toEqual([true, false, false]);
    expect(open.items[1]).toMatchObject({ plan: 'pro', userEmail: artist.email, answeredAt: null });
    expect(open).toMatchObject({ page: 1, total: 3, counts: { open: 3, answered: 1, overdue: 1 } });

    const all = await readJson(
      await system.request('/api/admin/support/messages?status=all', { cookie: admin.cookie }),
    );
    expect(all.items.map((item: { subject: string }) => item.subject)).toEqual([
      'Overdue Basic',
      'Newer Pro, due sooner',
      'Older Basic, due later',
      'Answered Pro',
    ]);
    expect(all.items[3].isOverdue).toBe(false);
  });

  it('replies: the answer is mailed to the user, shows in their history and the message leaves the open list', async () => {
    const admin = await system.signedInUser({ roles: ['admin'], fullName: 'Grace Admin' });
    const artist = await system.signedInUser({ plan: 'pro' });
    const thread = await readJson(await write(artist.cookie));
    await system.db.delete(mailOutbox);

    const replied = await system.request(`/api/admin/support/messages/${thread.id}/replies`, {
      method: 'POST',
      cookie: admin.cookie,
      json: { body: '  We approved it this morning.\nIt goes live on Friday.  ' },
    });
    expect(replied.status).toBe(201);
    const view = await readJson(replied);
    expect(view.replies).toHaveLength(1);
    expect(view.replies[0]).toMatchObject({
      body: 'We approved it this morning.\nIt goes live on Friday.',
      authorName: 'Grace Admin',
    });
    const answeredAt = view.answeredAt;
    expect(Date.parse(answeredAt)).toBeGreaterThan(Date.now() - 60_000);

    const mails = await system.db.select().from(mailOutbox);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.recipient).toBe(artist.email);
    expect(mails[0]?.subject).toBe(`Re: ${valid.subject}`);
    expect(mails[0]?.textBody).toContain('We approved it this morning.\nIt goes live on Friday.');
    expect(mails[0]?.textBody).toContain(`${system.config.appUrl}/dashboard/help/${thread.id}`);

    const history = await readJson(await system.request('/api/support/messages', { cookie: artist.cookie }));
    expect(history.items[0].replies.map((reply: { body: string }) => reply.body)).toEqual([
      'We approved it this morning.\nIt goes live on Friday.',
    ]);
    expect(history.items[0].answeredAt).toBe(answeredAt);

    const open = await readJson(
      await system.request('/api/admin/support/messages', { cookie: admin.cookie }),
    );
    expect(open.items).toHaveLength(0);

    // A second reply joins the thread; the first answer's time stays.
    const again = await readJson(
      await system.request(`/api/admin/support/messages/${thread.id}/replies`, {
        method: 'POST',
        cookie: admin.cookie,
        json: { body: 'It is live now.' },
      }),
    );
    expect(again.replies.map((reply: { body: string }) => reply.body)).toEqual([
      'We approved it this morning.\nIt goes live on Friday.',
      'It is live now.',
    ]);
    expect(again.answeredAt).toBe(answeredAt);
  });

  it('refuses artists and moderators, an empty reply and an unknown message', async () => {
    const artist = await system.signedInUser({ plan: 'pro' });
    const moderator = await system.signedInUser({ roles: ['moderator'] });
    const admin = await system.signedInUser({ roles: ['admin'] });
    const thread = await readJson(await write(artist.cookie));
    for (const cookie of [artist.cookie, moderator.cookie]) {
      expect((await system.request('/api/admin/support/messages', { cookie })).status).toBe(403);
      const reply = await system.request(`/api/admin/support/messages/${thread.id}/replies`, {
        method: 'POST',
        cookie,
        json: { body: 'Not mine to answer' },
      });
      expect(reply.status).toBe(403);
    }
    const empty = await system.request(`/api/admin/support/messages/${thread.id}/replies`, {
      method: 'POST',
      cookie: admin.cookie,
      json: { body: '  ' },
    });
    expect(empty.status).toBe(422);
    expect((await readJson(empty)).error.fields.body).toBe(SUPPORT_MESSAGES.replyRequired);
    const unknown = await system.request(
      '/api/admin/support/messages/00000000-0000-4000-8000-000000000000/replies',
      { method: 'POST', cookie: admin.cookie, json: { body: 'Hello' } },
    );
    expect(unknown.status).toBe(404);
    expect(await system.db.select().from(supportReplies)).toHaveLength(0);
  });
});

describe('admin support settings', () => {
  it('defaults to UTC and refuses what is not an IANA zone', async () => {
    const admin = await system.signedInUser({ roles: ['admin'] });
    const current = await system.request('/api/admin/support/settings', { cookie: admin.cookie });
    expect(await readJson(current)).toEqual({ timeZone: 'UTC', source: 'default' });
    for (const timeZone of ['Mars/Olympus_Mons', '+01:00', '', 'Europe/Berlin\n']) {
      const refused = await system.request('/api/admin/support/settings', {
        method: 'PUT',
        cookie: admin.cookie,
        json: { timeZone },
      });
      expect(refused.status).toBe(422);
    }
    const saved = await system.request('/api/admin/support/settings', {
      method: 'PUT',
      cookie: admin.cookie,
      json: { timeZone: ' America/New_York ' },
    });
    expect(await readJson(saved)).toEqual({ timeZone: 'America/New_York', source: 'settings' });
  });
});

describe('POST /api/support/messages rate limit', () => {
  let limited: TestSystem;
  beforeAll(async () => {
    limited = await createTestSystem({ RATE_LIMITS: 'on' });
  });
  afterAll(() => limited.close());

  it(`allows ${SUPPORT_LIMITS.rateLimitCount} messages per user per window, then answers 429`, async () => {
    const user = await limited.signedInUser();
    const other = await limited.signedInUser();
    const send = (cookie: string) =>
      limited.request('/api/support/messages', { method: 'POST', cookie, json: valid });
    const answers = await Promise.all(
      Array.from({ length: SUPPORT_LIMITS.rateLimitCount + 2 }, () => send(user.cookie)),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(SUPPORT_LIMITS.rateLimitCount);
    expect(statuses.filter((status) => status === 429)).toHaveLength(2);
    const refused = answers.find((answer) => answer.status === 429);
    const retryAfter = Number(refused?.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(SUPPORT_LIMITS.rateLimitWindowMinutes * 60 - 60);
    expect(retryAfter).toBeLessThanOrEqual(SUPPORT_LIMITS.rateLimitWindowMinutes * 60);
    expect((await readJson(refused as Response)).error.message).toBe(
      SUPPORT_MESSAGES.rateLimited(SUPPORT_LIMITS.rateLimitWindowMinutes),
    );
    // Another user is not affected.
    expect((await send(other.cookie)).status).toBe(201);
  });
});
