import { CONTACT_LIMITS, CONTACT_MESSAGES } from '@tunedrop/shared/schemas/site';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contactRequests, mailOutbox } from '../../db/schema';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';

const valid = {
  name: 'Ada Lovelace',
  companyName: 'Analytical Records',
  email: 'ada@example.com',
  links: ['https://open.spotify.com/artist/ada', ''],
};

let system: TestSystem;
beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(() => system.close());
beforeEach(async () => {
  await system.db.delete(contactRequests);
  await system.db.delete(mailOutbox);
});

const send = (json: unknown, ip = '203.0.113.7') =>
  system.request('/api/contact', { method: 'POST', json, headers: { 'x-test-client-ip': ip } });

describe('POST /api/contact', () => {
  it('stores the request, drops empty links and queues a mail to SUPPORT_EMAIL', async () => {
    const response = await send({
      ...valid,
      name: '  Ada Lovelace ',
      links: ['', ' https://ada.example/music ', '   ', 'http://instagram.com/ada'],
    });
    expect(response.status).toBe(201);
    const { id } = await readJson(response);

    const [row] = await system.db.select().from(contactRequests).where(eq(contactRequests.id, id));
    expect(row).toMatchObject({
      name: 'Ada Lovelace',
      companyName: 'Analytical Records',
      email: 'ada@example.com',
      links: ['https://ada.example/music', 'http://instagram.com/ada'],
      clientAddress: '203.0.113.7',
      handledAt: null,
    });

    const mails = await system.db.select().from(mailOutbox);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.recipient).toBe(system.config.SUPPORT_EMAIL);
    expect(mails[0]?.subject).toBe('Contact request from Ada Lovelace (Analytical Records)');
    expect(mails[0]?.textBody).toContain('Email Address: ada@example.com');
    expect(mails[0]?.textBody).toContain('- https://ada.example/music\n- http://instagram.com/ada');
  });

  it('accepts a request without links', async () => {
    const response = await send({ ...valid, links: [''] });
    expect(response.status).toBe(201);
    const rows = await system.db.select().from(contactRequests);
    expect(rows.map((row) => row.links)).toEqual([[]]);
  });

  it.each([
    ['name', { name: '   ' }, CONTACT_MESSAGES.nameRequired],
    ['name', { name: 'x'.repeat(CONTACT_LIMITS.nameMaxLength + 1) }, CONTACT_MESSAGES.nameTooLong],
    ['name', { name: 'Ada\nBcc: victim@example.com' }, CONTACT_MESSAGES.singleLine],
    ['companyName', { companyName: '' }, CONTACT_MESSAGES.companyRequired],
    [
      'companyName',
      { companyName: 'y'.repeat(CONTACT_LIMITS.companyNameMaxLength + 1) },
      CONTACT_MESSAGES.companyTooLong,
    ],
    ['email', { email: 'not-an-email' }, CONTACT_MESSAGES.emailInvalid],
    ['email', { email: 'ada @example.com' }, CONTACT_MESSAGES.emailInvalid],
    ['email', { email: `${'a'.repeat(250)}@example.com` }, CONTACT_MESSAGES.emailTooLong],
    ['links.0', { links: ['ftp://files.example/demo.wav'] }, CONTACT_MESSAGES.linkInvalid],
    ['links.0', { links: ['javascript:alert(1)'] }, CONTACT_MESSAGES.linkInvalid],
    ['links.1', { links: ['https://ok.example', 'spotify.com/artist'] }, CONTACT_MESSAGES.linkInvalid],
    [
      'links.0',
      { links: [`https://example.com/${'p'.repeat(CONTACT_LIMITS.linkMaxLength)}`] },
      CONTACT_MESSAGES.linkTooLong,
    ],
  ])('refuses a bad %s with 422 and stores nothing', async (field, change, message) => {
    const response = await send({ ...valid, ...change });
    expect(response.status).toBe(422);
    const body = await readJson(response);
    expect(body.error.code).toBe('validation_error');
    expect(body.error.fields[field]).toBe(message);
    expect(await system.db.select().from(contactRequests)).toHaveLength(0);
    expect(await system.db.select().from(mailOutbox)).toHaveLength(0);
  });

  it('refuses missing required fields', async () => {
    const response = await send({ links: [] });
    expect(response.status).toBe(422);
    const body = await readJson(response);
    expect(Object.keys(body.error.fields).sort()).toEqual(['companyName', 'email', 'name']);
  });

  it('accepts 10 links and refuses 11, counting only non-empty ones', async () => {
    const ten = Array.from({ length: 10 }, (_, index) => `https://example.com/${index}`);
    expect((await send({ ...valid, links: [...ten, '', ' '] })).status).toBe(201);
    const eleven = await send({ ...valid, links: [...ten, 'https://example.com/10'] });
    expect(eleven.status).toBe(422);
    expect((await readJson(eleven)).error.fields.links).toBe(CONTACT_MESSAGES.tooManyLinks);
  });

  it('refuses a huge list of blank links', async () => {
    const response = await send({ ...valid, links: Array.from({ length: 500 }, () => '') });
    expect(response.status).toBe(422);
    expect((await readJson(response)).error.fields.links).toBe(CONTACT_MESSAGES.tooManyLinks);
  });

  it('refuses a cross-site post', async () => {
    const response = await system.request('/api/contact', {
      method: 'POST',
      json: valid,
      headers: { origin: 'https://evil.example' },
    });
    expect(response.status).toBe(403);
  });
});

describe('POST /api/contact rate limit', () => {
  let limited: TestSystem;
  beforeAll(async () => {
    limited = await createTestSystem({ RATE_LIMITS: 'on' });
  });
  afterAll(() => limited.close());

  const sendFrom = (ip: string) =>
    limited.request('/api/contact', { method: 'POST', json: valid, headers: { 'x-test-client-ip': ip } });

  it(`allows ${CONTACT_LIMITS.rateLimitCount} requests per address per window, then answers 429`, async () => {
    for (let index = 0; index < CONTACT_LIMITS.rateLimitCount; index++) {
      expect((await sendFrom('198.51.100.1')).status).toBe(201);
    }
    const refused = await sendFrom('198.51.100.1');
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(CONTACT_LIMITS.rateLimitWindowMinutes * 60 - 60);
    expect(retryAfter).toBeLessThanOrEqual(CONTACT_LIMITS.rateLimitWindowMinutes * 60);
    const body = await readJson(refused);
    expect(body.error).toEqual({
      code: 'rate_limited',
      message: CONTACT_MESSAGES.rateLimited(CONTACT_LIMITS.rateLimitWindowMinutes),
    });
    const stored = await limited.db
      .select()
      .from(contactRequests)
      .where(eq(contactRequests.clientAddress, '198.51.100.1'));
    expect(stored).toHaveLength(CONTACT_LIMITS.rateLimitCount);

    // Another address is not affected.
    expect((await sendFrom('198.51.100.2')).status).toBe(201);
  });

  it('counts only requests inside the window', async () => {
    const hourAgo = new Date(Date.now() - (CONTACT_LIMITS.rateLimitWindowMinutes * 60_000 + 1000));
    await limited.db.insert(contactRequests).values(
      Array.from({ length: CONTACT_LIMITS.rateLimitCount }, () => ({
        name: 'Old',
        companyName: 'Old',
        email: 'old@example.com',
        clientAddress: '198.51.100.3',
        createdAt: hourAgo,
      })),
    );
    expect((await sendFrom('198.51.100.3')).status).toBe(201);
  });

  it('holds under a concurrent burst from one address', async () => {
    const answers = await Promise.all(
      Array.from({ length: CONTACT_LIMITS.rateLimitCount + 3 }, () => sendFrom('198.51.100.4')),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(CONTACT_LIMITS.rateLimitCount);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3);
  });
});

describe('admin contact requests', () => {
  const seedRequests = async () => {
    const base = Date.now() - 10 * 60_000;
    const rows = await system.db
      .insert(contactRequests)
      .values(
        ['First', 'Second', 'Third'].map((name, index) => ({
          name,
          companyName: `${name} Label`,
          email: `${name.toLowerCase()}@example.com`,
          links: [`https://example.com/${index}`],
          createdAt: new Date(base + index * 60_000),
        })),
      )
      .returning({ id: contactRequests.id, name: contactRequests.name });
    return Object.fromEntries(rows.map((row) => [row.name, row.id])) as Record<string, string>;
  };

  it('refuses visitors, artists and moderators', async () => {
    expect((await system.request('/api/admin/messages')).status).toBe(401);
    const artist = await system.signedInUser({ plan: 'pro' });
    const artistAnswer = await system.request('/api/admin/messages', { cookie: artist.cookie });
    expect(artistAnswer.status).toBe(403);
    expect((await readJson(artistAnswer)).error.message).toBe(
      'You need admin privileges to access this page.',
    );
    const moderator = await system.signedInUser({ roles: ['moderator'] });
    expect((await system.request('/api/admin/messages', { cookie: moderator.cookie })).status).toBe(403);
    const ids = await seedRequests();
    const patch = await system.request(`/api/admin/messages/${ids.First}`, {
      method: 'PATCH',
      cookie: artist.cookie,
      json: { isHandled: true },
    });
    expect(patch.status).toBe(403);
  });

  it('lists requests newest first and marks them handled or open again', async () => {
    const admin = await system.signedInUser({ roles: ['admin'], fullName: 'Grace Admin' });
    const ids = await seedRequests();

    const list = await readJson(await system.request('/api/admin/messages', { cookie: admin.cookie }));
    expect(list.items.map((item: { name: string }) => item.name)).toEqual(['Third', 'Second', 'First']);
    expect(list.items[0]).toMatchObject({
      companyName: 'Third Label',
      email: 'third@example.com',
      links: ['https://example.com/2'],
      handledAt: null,
      handledByName: null,
    });
    expect(list).toMatchObject({ page: 1, total: 3, counts: { open: 3, handled: 0 } });

    const patched = await system.request(`/api/admin/messages/${ids.Second}`, {
      method: 'PATCH',
      cookie: admin.cookie,
      json: { isHandled: true },
    });
    expect(patched.status).toBe(200);
    const view = await readJson(patched);
    expect(view.handledByName).toBe('Grace Admin');
    expect(Date.parse(view.handledAt)).toBeGreaterThan(Date.now() - 60_000);

    const open = await readJson(
      await system.request('/api/admin/messages?status=open', { cookie: admin.cookie }),
    );
    expect(open.items.map((item: { name: string }) => item.name)).toEqual(['Third', 'First']);
    expect(open.counts).toEqual({ open: 2, handled: 1 });
    const handled = await readJson(
      await system.request('/api/admin/messages?status=handled', { cookie: admin.cookie }),
    );
    expect(handled.items.map((item: { name: string }) => item.name)).toEqual(['Second']);

    const reopened = await system.request(`/api/admin/messages/${ids.Second}`, {
      method: 'PATCH',
      cookie: admin.cookie,
      json: { isHandled: false },
    });
    expect(await readJson(reopened)).toMatchObject({ handledAt: null, handledByName: null });
  });

  it('answers 404 for an unknown request and 422 for a bad id or body', async () => {
    const admin = await system.signedInUser({ roles: ['admin'] });
    const unknown = await system.request('/api/admin/messages/00000000-0000-4000-8000-000000000000', {
      method: 'PATCH',
      cookie: admin.cookie,
      json: { isHandled: true },
    });
    expect(unknown.status).toBe(404);
    const badId = await system.request('/api/admin/messages/not-a-uuid', {
      method: 'PATCH',
      cookie: admin.cookie,
      json: { isHandled: true },
    });
    expect(badId.status).toBe(422);
    const ids = await seedRequests();
    const badBody = await system.request(`/api/admin/messages/${ids.First}`, {
      method: 'PATCH',
      cookie: admin.cookie,
      json: { isHandled: 'yes' },
    });
    expect(badBody.status).toBe(422);
  });
});
