/**
 * A team with roles (issue 27, record 202), over HTTP on the real database: invitations (verified address,
 * plan limit, expiry), the account switch, each role's reach on the owner's account, and the audit naming
 * the member who acted.
 */
import { TEAM_TEXTS } from '@tunedrop/shared/schemas/team';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountInvitations, auditLog, mailOutbox, profiles } from '../../db/schema';
import { createTestRelease } from '../../test-support/fixtures';
import { createTestSystem, readJson, type TestSystem } from '../../test-support/harness';
import { teamInvitationToken } from '../../test-support/team-fixtures';
import { fundUser, savePaypal } from '../../test-support/wallet-fixtures';

let system: TestSystem;
type Person = Awaited<ReturnType<TestSystem['signedInUser']>>;
let owner: Person;
let releaseId: string;

beforeAll(async () => {
  system = await createTestSystem();
  owner = await system.signedInUser({ plan: 'basic', artistName: 'Owner Band' });
  releaseId = (await createTestRelease(system, owner.userId, { trackCount: 1 })).releaseId;
  await fundUser(system, owner.userId, 200_00);
  await savePaypal(system, owner.userId);
});
afterAll(async () => {
  await system?.close();
});

const invitationToken = (email: string) => teamInvitationToken(system, email);

/** Invites a new person with `role`, lets them accept, and returns them acting for the owner's account. */
async function joinAs(
  role: 'admin' | 'catalog' | 'finance' | 'viewer',
): Promise<Person & { acting: string }> {
  const member = await system.signedInUser({ subscription: 'inactive' });
  const invited = await system.request('/api/team/invitations', {
    method: 'POST',
    cookie: owner.cookie,
    json: { email: member.email, role },
  });
  expect(invited.status).toBe(201);
  const token = await invitationToken(member.email);
  const accepted = await system.request(`/api/team-invitations/${token}/accept`, {
    method: 'POST',
    cookie: member.cookie,
  });
  expect(accepted.status).toBe(200);
  // Accepting chooses the account for this browser session.
  expect(accepted.headers.getSetCookie().join(';')).toContain(`tunedrop.account=${owner.userId}`);
  return { ...member, acting: `${member.cookie}; tunedrop.account=${owner.userId}` };
}

const editRelease = (cookie: string) =>
  system.request(`/api/releases/${releaseId}`, {
    method: 'PATCH',
    cookie,
    json: {
      title: 'Edited By Team',
      primaryArtists: ['Owner Band'],
      genre: 'Rock',
      labelName: 'My Label',
      copyrightHolder: 'Owner Holdings',
      copyrightYear: 2020,
      publishingHolder: 'Owner Publishing',
    },
  });

describe('team invitations', () => {
  it('only the invited, verified address accepts; the mail names the account and the role', async () => {
    const stranger = await system.signedInUser();
    const invitee = 'invitee-a@example.com';
    const invited = await system.request('/api/team/invitations', {
      method: 'POST',
      cookie: owner.cookie,
      json: { email: invitee, role: 'viewer' },
    });
    expect(invited.status).toBe(201);
    const [mail] = await system.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, invitee));
    expect(mail?.subject).toBe(TEAM_TEXTS.mailSubject);
    expect(mail?.textBody).toContain('Role: Viewer');
    const token = await invitationToken(invitee);
    const view = await readJson(
      await system.request(`/api/team-invitations/${token}`, { cookie: stranger.cookie }),
    );
    expect(view).toMatchObject({ accountName: 'Owner Band', role: 'viewer', status: 'pending' });
    expect(view.acceptance.status).toBe('other_account');
    const refused = await system.request(`/api/team-invitations/${token}/accept`, {
      method: 'POST',
      cookie: stranger.cookie,
    });
    expect(refused.status).toBe(403);
    // Withdrawn, it is gone.
    await system.db
      .update(accountInvitations)
      .set({ withdrawnAt: new Date() })
      .where(eq(accountInvitations.email, invitee));
    expect((await system.request(`/api/team-invitations/${token}`)).status).toBe(404);
  });

  it('refuses an expired invitation with 410', async () => {
    const member = await system.signedInUser();
    const other = await system.signedInUser({ plan: 'pro' });
    expect(
      (
        await system.request('/api/team/invitations', {
          method: 'POST',
          cookie: other.cookie,
          json: { email: member.email, role: 'viewer' },
        })
      ).status,
    ).toBe(201);
    const token = await invitationToken(member.email);
    await system.db
      .update(accountInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountInvitations.email, member.email));
    const answer = await system.request(`/api/team-invitations/${token}/accept`, {
      method: 'POST',
      cookie: member.cookie,
    });
    expect(answer.status).toBe(410);
    expect((await readJson(answer)).error.message).toBe(TEAM_TEXTS.invitationExpired);
  });

  it('holds the plan limit: Basic has 2 places, members and pending invitations counted', async () => {
    const basic = await system.signedInUser({ plan: 'basic' });
    const invite = (email: string) =>
      system.request('/api/team/invitations', {
        method: 'POST',
        cookie: basic.cookie,
        json: { email, role: 'viewer' },
      });
    expect((await invite('limit-1@example.com')).status).toBe(201);
    expect((await invite('limit-2@example.com')).status).toBe(201);
    const third = await invite('limit-3@example.com');
    expect(third.status).toBe(422);
    expect((await readJson(third)).error.message).toBe(TEAM_TEXTS.memberLimit(2, 'Basic'));
    // Pro allows 10.
    await system.db.update(profiles).set({ plan: 'pro' }).where(eq(profiles.id, basic.userId));
    expect((await invite('limit-3@example.com')).status).toBe(201);
  });

  it('a member cannot invite: team changes are the owner’s', async () => {
    const admin = await joinAs('admin');
    const answer = await system.request('/api/team/invitations', {
      method: 'POST',
      cookie: admin.acting,
      json: { email: 'by-admin@example.com', role: 'viewer' },
    });
    expect(answer.status).toBe(403);
    expect((await readJson(answer)).error.message).toBe(TEAM_TEXTS.roleRefused('Admin'));
    // Back to the owner's limit for the next tests: remove the admin.
    expect(
      (await system.request(`/api/team/members/${admin.userId}`, { method: 'DELETE', cookie: owner.cookie }))
        .status,
    ).toBe(200);
  });
});

describe('roles on the owner’s account', () => {
  it('Finance sees statements and withdraws from the owner’s balance, but is refused release edits', async () => {
    const finance = await joinAs('finance');
    const me = await readJson(await system.request('/api/me', { cookie: finance.acting }));
    expect(me.account).toEqual({ id: owner.userId, role: 'finance' });
    expect(me.profile.artistName).toBe('Owner Band');
    expect((await system.request('/api/royalties/statements', { cookie: finance.acting })).status).toBe(200);
    const withdrawal = await system.request('/api/wallet/withdrawals', {
      method: 'POST',
      cookie: finance.acting,
      json: { amount: 60 },
    });
    expect(withdrawal.status).toBe(201);
    const [account] = await system.db
      .select({ balance: profiles.balanceCents })
      .from(profiles)
      .where(eq(profiles.id, owner.userId));
    expect(account?.balance).toBe(140_00);
    const edit = await editRelease(finance.acting);
    expect(edit.status).toBe(403);
    expect((await readJson(edit)).error.message).toBe(TEAM_TEXTS.roleRefused('Finance'));
    // Billing stays the owner's.
    expect(
      (await system.request('/api/billing/customer-portal', { method: 'POST', cookie: finance.acting }))
        .status,
    ).toBe(403);
    // Without the account cookie a member who never subscribed acts for the team (record 230): their own
    // empty account would only put a plan to them. Choosing their own account still takes them there.
    const fresh = await readJson(await system.request('/api/me', { cookie: finance.cookie }));
    expect(fresh.account).toEqual({ id: owner.userId, role: 'finance' });
    const chosen = await system.request('/api/accounts/current', {
      method: 'PUT',
      cookie: finance.cookie,
      json: { accountId: finance.userId },
    });
    expect(chosen.headers.getSetCookie().join(';')).toContain(`tunedrop.account=${finance.userId}`);
    const own = await readJson(
      await system.request('/api/me', { cookie: `${finance.cookie}; tunedrop.account=${finance.userId}` }),
    );
    expect(own.account).toEqual({ id: finance.userId, role: 'owner' });
    await system.request(`/api/team/members/${finance.userId}`, { method: 'DELETE', cookie: owner.cookie });
  });

  it('Catalog edits releases and adds an expense (audited as the member), but is refused withdrawals', async () => {
    const catalog = await joinAs('catalog');
    const edit = await editRelease(catalog.acting);
    expect(edit.status).toBe(200);
    const expense = await system.request(`/api/releases/${releaseId}/expenses`, {
      method: 'POST',
      cookie: catalog.acting,
      json: { amount: '10.00', description: 'Mastering', spentOn: '2026-01-15' },
    });
    expect(expense.status).toBe(201);
    const [row] = await system.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'splits.expense'), eq(auditLog.actorId, catalog.userId)));
    expect(row).toMatchObject({ actorEmail: catalog.email, accountId: owner.userId });
    const withdrawal = await system.request('/api/wallet/withdrawals', {
      method: 'POST',
      cookie: catalog.acting,
      json: { amount: 60 },
    });
    expect(withdrawal.status).toBe(403);
    expect((await readJson(withdrawal)).error.message).toBe(TEAM_TEXTS.roleRefused('Catalog'));
    expect((await system.request('/api/wallet', { cookie: catalog.acting })).status).toBe(200);
    await system.request(`/api/team/members/${catalog.userId}`, { method: 'DELETE', cookie: owner.cookie });
  });

  it('the admin users list names a member by their team, never as Basic (record 230)', async () => {
    const member = await joinAs('viewer');
    const admin = await system.signedInUser({ roles: ['admin'] });
    const page = await readJson(
      await system.request(`/api/admin/users?q=${encodeURIComponent(member.email)}`, {
        cookie: admin.cookie,
      }),
    );
    expect(
      page.users.map((user: { email: string; teamOf: string | null }) => [user.email, user.teamOf]),
    ).toEqual([[member.email, 'Owner Band']]);
    const self = await readJson(
      await system.request(`/api/admin/users?q=${encodeURIComponent(owner.email)}`, { cookie: admin.cookie }),
    );
    expect(self.users[0]?.teamOf).toBeNull();
    await system.request(`/api/team/members/${member.userId}`, { method: 'DELETE', cookie: owner.cookie });
  });

  it('a removed member is back on their own account at the next request', async () => {
    const viewer = await joinAs('viewer');
    expect((await system.request('/api/releases', { cookie: viewer.acting })).status).toBe(200);
    expect((await editRelease(viewer.acting)).status).toBe(403);
    await system.request(`/api/team/members/${viewer.userId}`, { method: 'DELETE', cookie: owner.cookie });
    const me = await readJson(await system.request('/api/me', { cookie: viewer.acting }));
    expect(me.account).toEqual({ id: viewer.userId, role: 'owner' });
    // And cannot choose that account again.
    const chosen = await system.request('/api/accounts/current', {
      method: 'PUT',
      cookie: viewer.cookie,
      json: { accountId: owner.userId },
    });
    expect(chosen.status).toBe(403);
  });

  it('lists the accounts a person acts for and switches between them', async () => {
    const member = await joinAs('viewer');
    const list = await readJson(await system.request('/api/accounts', { cookie: member.acting }));
    expect(
      list.items.map((item: { role: string; isCurrent: boolean }) => [item.role, item.isCurrent]),
    ).toEqual([
      ['owner', false],
      ['viewer', true],
    ]);
    const back = await system.request('/api/accounts/current', {
      method: 'PUT',
      cookie: member.acting,
      json: { accountId: member.userId },
    });
    expect(back.status).toBe(200);
    // Their own account is written, not cleared: without a choice a team-only person acts for the team.
    expect(back.headers.getSetCookie().join(';')).toContain(`tunedrop.account=${member.userId};`);
    await system.request(`/api/team/members/${member.userId}`, { method: 'DELETE', cookie: owner.cookie });
  });
});
