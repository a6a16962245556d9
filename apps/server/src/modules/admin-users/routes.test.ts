/** User Management API, and the admin-only rule on every route of users, withdrawals and balances. */

import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMembers, auditLog, profiles, splitPayees, userRoles } from '../../db/schema';
import { ADMIN_ROUTES, staff } from '../../test-support/admin-fixtures';
import { createTestRelease, createTestUser } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { isPayeeSql } from '../wallet';

let system: TestSystem;
let people: Awaited<ReturnType<typeof staff>>;
beforeAll(async () => {
  system = await createTestSystem();
  people = await staff(system);
});
afterAll(async () => {
  await system.close();
});

const asAdmin = (path: string, init: { method?: string; json?: unknown } = {}) =>
  system.request(path, { ...init, cookie: people.admin.cookie });

describe('admin only', () => {
  it('refuses moderators and artists (403) and anonymous callers (401) on every route', async () => {
    for (const route of ADMIN_ROUTES) {
      const init = { method: route.method, ...(route.json ? { json: route.json } : {}) };
      for (const who of [people.moderator, people.artist]) {
        const response = await system.request(route.path, { ...init, cookie: who.cookie });
        expect(`${route.method} ${route.path} ${response.status}`).toBe(`${route.method} ${route.path} 403`);
        expect((await readJson(response)).error.message).toBe(
          'You need admin privileges to access this page.',
        );
      }
      const anonymous = await system.request(route.path, init);
      expect(`${route.method} ${route.path} ${anonymous.status}`).toBe(`${route.method} ${route.path} 401`);
    }
  });
});

describe('GET /api/admin/users', () => {
  it('searches, counts every tab in SQL and pages on the server', async () => {
    const tag = `zq${crypto.randomUUID().slice(0, 6)}`;
    const made: string[] = [];
    for (let index = 0; index < 23; index += 1) {
      const user = await createTestUser(system, {
        email: `${tag}-${index}@example.com`,
        artistName: `Artist ${index}`,
        plan: index % 3 === 0 ? 'pro' : 'basic',
        roles: index === 1 ? ['free_access'] : index === 2 ? ['moderator', 'free_access'] : [],
        ...(index === 4 ? { banReason: 'spam' } : {}),
      });
      made.push(user.userId);
    }
    const first = await readJson(await asAdmin(`/api/admin/users?q=${tag.toUpperCase()}`));
    expect(first.counts).toEqual({
      all: 23,
      basic: 15,
      pro: 8,
      payees: 0,
      team: 0,
      staff: 0,
      banned: 1,
      free_access: 2,
      moderators: 1,
    });
    expect(first.total).toBe(23);
    expect(first.users).toHaveLength(20);
    expect(first.pageSize).toBe(20);
    const second = await readJson(await asAdmin(`/api/admin/users?q=${tag}&page=2`));
    expect(second.users).toHaveLength(3);
    const ids = [...first.users, ...second.users].map((user: { id: string }) => user.id);
    expect(new Set(ids).size).toBe(23);
    expect(ids.sort()).toEqual([...made].sort());

    const pro = await readJson(await asAdmin(`/api/admin/users?q=${tag}&tab=pro`));
    expect(pro.total).toBe(8);
    expect(pro.users.every((user: { plan: string }) => user.plan === 'pro')).toBe(true);
    const moderators = await readJson(await asAdmin(`/api/admin/users?q=${tag}&tab=moderators`));
    expect(moderators.users.map((user: { roles: string[] }) => user.roles)).toEqual([
      ['free_access', 'moderator'],
    ]);
    const banned = await readJson(await asAdmin(`/api/admin/users?q=${tag}&tab=banned`));
    expect(banned.users).toHaveLength(1);
    expect(banned.users[0]).toMatchObject({ banned: true, banReason: 'spam' });

    const byArtist = await readJson(
      await asAdmin(`/api/admin/users?q=${encodeURIComponent('artist 17')}&tab=all`),
    );
    expect(byArtist.users.some((user: { email: string }) => user.email === `${tag}-17@example.com`)).toBe(
      true,
    );
    // LIKE wildcards in the query match themselves only.
    expect((await readJson(await asAdmin('/api/admin/users?q=%25'))).total).toBe(0);
    expect((await asAdmin('/api/admin/users?tab=nope')).status).toBe(422);
  });
});

describe('tab counts without a search (kept by triggers, migration 0008)', () => {
  it('match a count of every profile through sign-ups, plan changes, bans and deletes', async () => {
    const truth = async () => {
      const rows = await system.db.select().from(profiles);
      const roles = await system.db.select().from(userRoles);
      const withRole = (role: string) =>
        rows.filter((row) => roles.some((grant) => grant.userId === row.id && grant.role === role)).length;
      const payees = await system.db.select({ id: profiles.id }).from(profiles).where(isPayeeSql);
      const isPayee = (id: string) => payees.some((payee) => payee.id === id);
      const members = await system.db.select().from(accountMembers);
      // As the cards' badges (record 230): never subscribed and joined another account; staff without a plan.
      const isTeam = (row: (typeof rows)[number]) =>
        row.subscriptionStatus === 'inactive' &&
        row.subscriptionEnd === null &&
        !isPayee(row.id) &&
        members.some((member) => member.userId === row.id && member.accountId !== row.id);
      const isStaff = (row: (typeof rows)[number]) =>
        row.subscriptionStatus === 'inactive' &&
        !isTeam(row) &&
        roles.some((grant) => grant.userId === row.id && ['admin', 'moderator'].includes(grant.role));
      const holdsPlan = (row: (typeof rows)[number], plan: string) =>
        row.plan === plan && !isPayee(row.id) && !isTeam(row) && !isStaff(row);
      return {
        all: rows.length,
        basic: rows.filter((row) => holdsPlan(row, 'basic')).length,
        pro: rows.filter((row) => holdsPlan(row, 'pro')).length,
        payees: payees.length,
        team: rows.filter(isTeam).length,
        staff: rows.filter(isStaff).length,
        banned: rows.filter((row) => row.banned).length,
        free_access: withRole('free_access'),
        moderators: withRole('moderator'),
      };
    };
    const counts = async () => (await readJson(await asAdmin('/api/admin/users'))).counts;
    expect(await counts()).toEqual(await truth());
    const made = await createTestUser(system, { plan: 'pro', roles: ['free_access'] });
    expect(await counts()).toEqual(await truth());
    await system.db.update(profiles).set({ plan: 'basic' }).where(eq(profiles.id, made.userId));
    await system.db
      .update(profiles)
      .set({ banned: true, banReason: 'spam', bannedAt: new Date() })
      .where(eq(profiles.id, made.userId));
    expect(await counts()).toEqual(await truth());
    await system.db.delete(profiles).where(eq(profiles.id, made.userId));
    expect(await counts()).toEqual(await truth());
  });
});

describe('team members and staff (records 230, 274)', () => {
  it('counts and lists them under their own tabs, not Basic, with or without a search', async () => {
    const tag = `zt${crypto.randomUUID().slice(0, 6)}`;
    const before = (await readJson(await asAdmin('/api/admin/users'))).counts;
    const owner = await createTestUser(system, {
      plan: 'basic',
      email: `${tag}-owner@example.com`,
      artistName: `Crew ${tag}`,
    });
    const member = await createTestUser(system, {
      email: `${tag}-member@example.com`,
      subscription: 'inactive',
    });
    await system.db
      .insert(accountMembers)
      .values({ accountId: owner.userId, userId: member.userId, role: 'catalog' });
    const moderator = await createTestUser(system, {
      email: `${tag}-moderator@example.com`,
      subscription: 'inactive',
      roles: ['moderator'],
    });
    // A moderator who pays for a plan is counted by the plan.
    const payingModerator = await createTestUser(system, {
      email: `${tag}-paying@example.com`,
      roles: ['moderator'],
    });

    const after = (await readJson(await asAdmin('/api/admin/users'))).counts;
    expect(after).toMatchObject({
      all: before.all + 4,
      basic: before.basic + 2,
      team: before.team + 1,
      staff: before.staff + 1,
      moderators: before.moderators + 2,
    });
    const searched = await readJson(await asAdmin(`/api/admin/users?q=${tag}`));
    expect(searched.counts).toMatchObject({ all: 4, basic: 2, pro: 0, team: 1, staff: 1, moderators: 2 });
    const listed = async (tab: string) =>
      (await readJson(await asAdmin(`/api/admin/users?q=${tag}&tab=${tab}`))).users.map(
        (user: { id: string }) => user.id,
      );
    expect((await listed('basic')).sort()).toEqual([owner.userId, payingModerator.userId].sort());
    expect(await listed('staff')).toEqual([moderator.userId]);
    const team = await readJson(await asAdmin(`/api/admin/users?q=${tag}&tab=team`));
    expect(team.users.map((user: { id: string; teamOf: string }) => [user.id, user.teamOf])).toEqual([
      [member.userId, `Crew ${tag}`],
    ]);
    expect((await listed('all')).length).toBe(4);
    // Without a search, the Team members tab lists the member too.
    const unfiltered = await readJson(await asAdmin('/api/admin/users?tab=team'));
    expect(unfiltered.users.map((user: { id: string }) => user.id)).toContain(member.userId);
  });
});

describe('payees (record 175)', () => {
  it('counts and lists a split payee under Payee, not Basic, with or without a search', async () => {
    const tag = `zp${crypto.randomUUID().slice(0, 6)}`;
    const owner = await createTestUser(system, { plan: 'pro', email: `${tag}-owner@example.com` });
    const { releaseId } = await createTestRelease(system, owner.userId, { status: 'live' });
    const payee = await createTestUser(system, {
      email: `${tag}-payee@example.com`,
      subscription: 'inactive',
    });
    const before = (await readJson(await asAdmin('/api/admin/users'))).counts;
    await system.db.insert(splitPayees).values({
      releaseId,
      email: `${tag}-payee@example.com`,
      tokenHash: randomBytes(16).toString('hex'),
      invitedBy: owner.userId,
    });
    const after = await readJson(await asAdmin('/api/admin/users'));
    expect(after.counts.payees).toBe(before.payees + 1);
    expect(after.counts.basic).toBe(before.basic - 1);
    const searched = await readJson(await asAdmin(`/api/admin/users?q=${tag}`));
    expect(searched.counts).toMatchObject({ all: 2, basic: 0, pro: 1, payees: 1 });
    const tab = await readJson(await asAdmin(`/api/admin/users?q=${tag}&tab=payees`));
    expect(tab.users.map((user: { id: string; isPayee: boolean }) => [user.id, user.isPayee])).toEqual([
      [payee.userId, true],
    ]);
    const basic = await readJson(await asAdmin(`/api/admin/users?q=${tag}&tab=basic`));
    expect(basic.users).toEqual([]);
  });
});

describe('roles', () => {
  it('grants and revokes free access and moderator, with audit rows', async () => {
    const user = await createTestUser(system);
    const path = (role: string) => `/api/admin/users/${user.userId}/roles/${role}`;
    expect(await readJson(await asAdmin(path('free_access'), { method: 'PUT' }))).toMatchObject({
      isGranted: true,
      isChanged: true,
    });
    expect(await readJson(await asAdmin(path('free_access'), { method: 'PUT' }))).toMatchObject({
      isChanged: false,
    });
    await asAdmin(path('moderator'), { method: 'PUT' });
    const roles = async () =>
      (await system.db.select().from(userRoles).where(eq(userRoles.userId, user.userId)))
        .map((row) => row.role)
        .sort();
    expect(await roles()).toEqual(['free_access', 'moderator']);
    await asAdmin(path('free_access'), { method: 'DELETE' });
    await asAdmin(path('moderator'), { method: 'DELETE' });
    expect(await roles()).toEqual([]);
    const audits = await system.db.select().from(auditLog).where(eq(auditLog.subjectUserId, user.userId));
    expect(audits.map((row) => row.action).sort()).toEqual([
      'role.grant',
      'role.grant',
      'role.revoke',
      'role.revoke',
    ]);
    expect(audits.every((row) => row.actorId === people.admin.userId)).toBe(true);
  });

  it('never touches the admin role here, so an admin cannot remove their own', async () => {
    for (const method of ['PUT', 'DELETE']) {
      const response = await asAdmin(`/api/admin/users/${people.admin.userId}/roles/admin`, { method });
      expect(response.status).toBe(422);
      expect((await readJson(response)).error.code).toBe('admin_role_not_here');
    }
    const rows = await system.db.select().from(userRoles).where(eq(userRoles.userId, people.admin.userId));
    expect(rows.map((row) => row.role)).toEqual(['admin']);
    expect(
      (await asAdmin(`/api/admin/users/${people.admin.userId}/roles/superuser`, { method: 'PUT' })).status,
    ).toBe(404);
    const missing = await asAdmin('/api/admin/users/00000000-0000-4000-8000-000000000000/roles/moderator', {
      method: 'PUT',
    });
    expect(missing.status).toBe(404);
  });
});

describe('bans', () => {
  it("needs a reason ('Ban reason required'), refuses a self-ban, and unban clears all three fields", async () => {
    const user = await createTestUser(system);
    for (const json of [{}, { reason: '   ' }]) {
      const response = await asAdmin(`/api/admin/users/${user.userId}/ban`, { method: 'POST', json });
      expect(response.status).toBe(422);
      expect((await readJson(response)).error).toMatchObject({
        code: 'ban_reason_required',
        message: 'Please provide a reason for banning this user.',
      });
    }
    const self = await asAdmin(`/api/admin/users/${people.admin.userId}/ban`, {
      method: 'POST',
      json: { reason: 'x' },
    });
    expect(self.status).toBe(422);
    expect((await readJson(self)).error.code).toBe('cannot_ban_self');

    const banned = await asAdmin(`/api/admin/users/${user.userId}/ban`, {
      method: 'POST',
      json: { reason: ' Copyright abuse ' },
    });
    expect(banned.status).toBe(200);
    const [afterBan] = await system.db.select().from(profiles).where(eq(profiles.id, user.userId));
    expect(afterBan).toMatchObject({ banned: true, banReason: 'Copyright abuse' });
    expect(afterBan?.bannedAt).toBeInstanceOf(Date);

    expect((await asAdmin(`/api/admin/users/${user.userId}/unban`, { method: 'POST' })).status).toBe(200);
    const [afterUnban] = await system.db.select().from(profiles).where(eq(profiles.id, user.userId));
    expect(afterUnban).toMatchObject({ banned: false, banReason: null, bannedAt: null });
    const audits = await system.db.select().from(auditLog).where(eq(auditLog.subjectUserId, user.userId));
    expect(audits.map((row) => row.action).sort()).toEqual(['user.ban', 'user.unban']);
    const missing = await asAdmin('/api/admin/users/00000000-0000-4000-8000-000000000000/ban', {
      method: 'POST',
      json: { reason: 'x' },
    });
    expect(missing.status).toBe(404);
  });
});
