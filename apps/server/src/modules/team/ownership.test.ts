/**
 * Ownership transfer and leaving (issue 27, record 205), over HTTP on the real database: only the owner
 * transfers, only to a joined member with a verified email; the former owner becomes an Admin and billing
 * follows the ownership while the subscription stays with the account; a member leaves on their own and is
 * back on their own account; the owner cannot leave before transferring. Every change is audited.
 */
import { TEAM_TEXTS } from '@tunedrop/shared/schemas/team';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, user } from '../../db/schema';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { teamInvitationToken } from '../../test-support/team-fixtures';

let system: TestSystem;
type Person = Awaited<ReturnType<TestSystem['signedInUser']>>;

beforeAll(async () => {
  system = await createTestSystem();
});
afterAll(async () => {
  await system?.close();
});

const invitationToken = (email: string) => teamInvitationToken(system, email);

const actingFor = (person: Person, accountId: string) => `${person.cookie}; tunedrop.account=${accountId}`;

async function invite(owner: Person, email: string, role: 'admin' | 'catalog' | 'finance' | 'viewer') {
  const invited = await system.request('/api/team/invitations', {
    method: 'POST',
    cookie: owner.cookie,
    json: { email, role },
  });
  expect(invited.status).toBe(201);
}

async function joinAs(owner: Person, role: 'admin' | 'catalog' | 'finance' | 'viewer'): Promise<Person> {
  const member = await system.signedInUser({ subscription: 'inactive', artistName: 'Member Own' });
  await invite(owner, member.email, role);
  const accepted = await system.request(
    `/api/team-invitations/${await invitationToken(member.email)}/accept`,
    {
      method: 'POST',
      cookie: member.cookie,
    },
  );
  expect(accepted.status).toBe(200);
  return member;
}

const transfer = (cookie: string, userId: string) =>
  system.request('/api/team/transfer', { method: 'POST', cookie, json: { userId } });
const leave = (cookie: string, accountId: string) =>
  system.request('/api/team/leave', { method: 'POST', cookie, json: { accountId } });
const accountOf = async (cookie: string) =>
  (await readJson(await system.request('/api/me', { cookie }))).account as { id: string; role: string };

async function auditRows(action: string, accountId: string) {
  return system.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.subjectId, accountId)));
}

describe('ownership transfer', () => {
  it('refuses a member who is not the owner, a pending invitee, a stranger and an unverified member', async () => {
    const owner = await system.signedInUser({ plan: 'pro', artistName: 'Refusing Label' });
    const admin = await joinAs(owner, 'admin');
    const finance = await joinAs(owner, 'finance');

    // An Admin, acting for the account, is not its owner.
    const byAdmin = await transfer(actingFor(admin, owner.userId), finance.userId);
    expect(byAdmin.status).toBe(403);
    expect((await readJson(byAdmin)).error.message).toBe(TEAM_TEXTS.roleRefused('Admin'));

    // Someone invited who has not joined yet, and someone never invited.
    const pending = await system.signedInUser({ subscription: 'inactive' });
    await invite(owner, pending.email, 'viewer');
    for (const target of [pending.userId, (await system.signedInUser()).userId]) {
      const refused = await transfer(owner.cookie, target);
      expect(refused.status).toBe(422);
      expect((await readJson(refused)).error.message).toBe(TEAM_TEXTS.transferNotMember);
    }

    // A member whose email is no longer verified.
    await system.db.update(user).set({ emailVerified: false }).where(eq(user.id, finance.userId));
    const unverified = await transfer(owner.cookie, finance.userId);
    expect(unverified.status).toBe(422);
    expect((await readJson(unverified)).error.message).toBe(TEAM_TEXTS.transferUnverified);

    // Nothing changed.
    expect(await accountOf(owner.cookie)).toEqual({ id: owner.userId, role: 'owner' });
    expect(await auditRows('team.transfer', owner.userId)).toEqual([]);
  });

  it('hands the account to a member: the former owner is an Admin, billing follows, the subscription stays', async () => {
    const owner = await system.signedInUser({ plan: 'pro', artistName: 'Moving Label' });
    const catalog = await joinAs(owner, 'catalog');
    const newOwner = actingFor(catalog, owner.userId);
    expect((await system.request('/api/billing/sandbox/portal', { cookie: newOwner })).status).toBe(403);

    const done = await transfer(owner.cookie, catalog.userId);
    expect(done.status).toBe(200);
    const team = await readJson(done);
    expect(team.viewerRole).toBe('admin');
    expect(
      team.members.map((member: { userId: string; role: string }) => [member.userId, member.role]),
    ).toEqual([
      [catalog.userId, 'owner'],
      [owner.userId, 'admin'],
    ]);

    // The former owner, on the account they founded, is now an Admin: no billing, no team changes.
    expect(await accountOf(owner.cookie)).toEqual({ id: owner.userId, role: 'admin' });
    const portal = await system.request('/api/billing/sandbox/portal', { cookie: owner.cookie });
    expect(portal.status).toBe(403);
    expect((await readJson(portal)).error.message).toBe(TEAM_TEXTS.roleRefused('Admin'));
    const again = await transfer(owner.cookie, catalog.userId);
    expect(again.status).toBe(403);

    // The new owner reaches the account's billing: its Pro subscription, not their own (inactive) profile.
    expect(await accountOf(newOwner)).toEqual({ id: owner.userId, role: 'owner' });
    const billing = await system.request('/api/billing/sandbox/portal', { cookie: newOwner });
    expect(billing.status).toBe(200);
    expect(await readJson(billing)).toMatchObject({ plan: 'pro', subscription_status: 'active' });
    const accounts = await readJson(await system.request('/api/accounts', { cookie: newOwner }));
    expect(accounts.items.map((item: { id: string; role: string }) => [item.id, item.role])).toEqual([
      [catalog.userId, 'owner'],
      [owner.userId, 'owner'],
    ]);

    // The founder cannot leave the account of their sign-in, nor be removed from it.
    const founderLeaves = await leave(owner.cookie, owner.userId);
    expect(founderLeaves.status).toBe(409);
    expect((await readJson(founderLeaves)).error.message).toBe(TEAM_TEXTS.founderCannotLeave);
    const removed = await system.request(`/api/team/members/${owner.userId}`, {
      method: 'DELETE',
      cookie: newOwner,
    });
    expect(removed.status).toBe(409);

    const [audit] = await auditRows('team.transfer', owner.userId);
    expect(audit).toMatchObject({ actorId: owner.userId, subjectUserId: catalog.userId });

    // And back: the founder owns it again and has no member row left.
    expect((await transfer(newOwner, owner.userId)).status).toBe(200);
    expect(await accountOf(owner.cookie)).toEqual({ id: owner.userId, role: 'owner' });
    expect(await accountOf(newOwner)).toEqual({ id: owner.userId, role: 'admin' });
    const back = await readJson(await system.request('/api/team', { cookie: owner.cookie }));
    expect(
      back.members.map((member: { userId: string; role: string }) => [member.userId, member.role]),
    ).toEqual([
      [owner.userId, 'owner'],
      [catalog.userId, 'admin'],
    ]);
  });
});

describe('leaving an account', () => {
  it('the owner cannot leave; a member leaves, is back on their own account and cannot act for it again', async () => {
    const owner = await system.signedInUser({ plan: 'pro', artistName: 'Left Label' });
    const viewer = await joinAs(owner, 'viewer');
    const acting = actingFor(viewer, owner.userId);

    const ownerLeaves = await leave(owner.cookie, owner.userId);
    expect(ownerLeaves.status).toBe(409);
    expect((await readJson(ownerLeaves)).error.message).toBe(TEAM_TEXTS.ownerCannotLeave);

    // The account named must be the acting one (another tab may have switched it).
    const wrong = await leave(acting, viewer.userId);
    expect(wrong.status).toBe(409);
    expect((await readJson(wrong)).error.message).toBe(TEAM_TEXTS.leaveOtherAccount);

    const left = await leave(acting, owner.userId);
    expect(left.status).toBe(200);
    // Back on their own account, written rather than cleared (record 230).
    expect(left.headers.getSetCookie().join(';')).toContain(`tunedrop.account=${viewer.userId};`);
    const accounts = await readJson(left);
    expect(
      accounts.items.map((item: { id: string; isCurrent: boolean }) => [item.id, item.isCurrent]),
    ).toEqual([[viewer.userId, true]]);
    // Even with the old cookie, the next request is on their own account.
    expect(await accountOf(acting)).toEqual({ id: viewer.userId, role: 'owner' });
    expect((await leave(acting, owner.userId)).status).toBe(409);
    const team = await readJson(await system.request('/api/team', { cookie: owner.cookie }));
    expect(team.members.map((member: { userId: string }) => member.userId)).toEqual([owner.userId]);
    const [audit] = await auditRows('team.leave', owner.userId);
    expect(audit).toMatchObject({ actorId: viewer.userId });
  });
});
