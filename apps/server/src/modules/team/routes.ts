/**
 * Team routes (issue 27, record 202; the list is in packages/shared/src/schemas/team.ts). The acting
 * account is chosen with a cookie that lib/access.ts checks against the membership on every request.
 */
import {
  changeRoleSchema,
  inviteMemberSchema,
  leaveAccountSchema,
  switchAccountSchema,
  TEAM_TEXTS,
  transferOwnershipSchema,
} from '@tunedrop/shared/schemas/team';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { setCookie } from 'hono/cookie';
import { ACCOUNT_COOKIE, access, requireViewer } from '../../lib/access';
import type { AppEnv } from '../../lib/context';
import { notFound } from '../../lib/errors';
import { uuidParam } from '../../lib/params';
import { validate } from '../../lib/validate';
import { leaveAccount, transferOwnership } from './ownership';
import {
  acceptTeamInvitation,
  assertMayAct,
  changeMemberRole,
  getTeam,
  getTeamInvitation,
  inviteMember,
  listAccounts,
  removeMember,
  TeamInvitationLimitError,
  withdrawInvitation,
} from './service';

const tokenOf = (token: string) => {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw notFound(TEAM_TEXTS.invitationNotFound);
  return token;
};

/**
 * The chosen account for this browser session (no Max-Age). The viewer's own account is written too, not
 * cleared: without a choice a team-only person acts for their team (record 230), and choosing their own
 * account must hold.
 */
function chooseAccount(c: Context<AppEnv>, accountId: string) {
  const secure = c.var.deps.config.appUrl.startsWith('https:');
  setCookie(c, ACCOUNT_COOKIE, accountId, { path: '/', httpOnly: true, sameSite: 'Lax', secure });
}

/** Answers the list as it stands after the switch (the viewer of this request still holds the old one). */
function withCurrent<T extends { items: { id: string; isCurrent: boolean }[] }>(
  list: T,
  accountId: string,
): T {
  return { ...list, items: list.items.map((item) => ({ ...item, isCurrent: item.id === accountId })) };
}

export const accountsRoutes = new Hono<AppEnv>()
  .get('/', access('user', 'personal'), async (c) => {
    return c.json(await listAccounts(c.var.deps.db, requireViewer(c)), 200);
  })
  .put('/current', access('user', 'personal'), validate('json', switchAccountSchema), async (c) => {
    const viewer = requireViewer(c);
    const { accountId } = c.req.valid('json');
    await assertMayAct(c.var.deps.db, viewer, accountId);
    chooseAccount(c, accountId);
    return c.json(withCurrent(await listAccounts(c.var.deps.db, viewer), accountId), 200);
  });

export const teamRoutes = new Hono<AppEnv>()
  .get('/', access('user', 'read'), async (c) => {
    return c.json(await getTeam(c.var.deps.db, requireViewer(c)), 200);
  })
  .post('/invitations', access('subscriber', 'owner'), validate('json', inviteMemberSchema), async (c) => {
    const viewer = requireViewer(c);
    const { db, config } = c.var.deps;
    try {
      await inviteMember(db, viewer, c.req.valid('json'), config.appUrl);
    } catch (error) {
      if (error instanceof TeamInvitationLimitError) c.header('Retry-After', String(error.retryAfterSeconds));
      throw error;
    }
    c.var.deps.wakeMail();
    return c.json(await getTeam(db, viewer), 201);
  })
  .delete('/invitations/:id', access('user', 'owner'), async (c) => {
    const viewer = requireViewer(c);
    await withdrawInvitation(
      c.var.deps.db,
      viewer,
      uuidParam(c.req.param('id'), TEAM_TEXTS.invitationNotFound),
    );
    return c.json(await getTeam(c.var.deps.db, viewer), 200);
  })
  .put('/members/:userId', access('user', 'owner'), validate('json', changeRoleSchema), async (c) => {
    const viewer = requireViewer(c);
    await changeMemberRole(c.var.deps.db, viewer, c.req.param('userId'), c.req.valid('json').role);
    return c.json(await getTeam(c.var.deps.db, viewer), 200);
  })
  .delete('/members/:userId', access('user', 'owner'), async (c) => {
    const viewer = requireViewer(c);
    await removeMember(c.var.deps.db, viewer, c.req.param('userId'));
    return c.json(await getTeam(c.var.deps.db, viewer), 200);
  })
  .post('/transfer', access('user', 'owner'), validate('json', transferOwnershipSchema), async (c) => {
    const viewer = requireViewer(c);
    await transferOwnership(c.var.deps.db, viewer, c.req.valid('json').userId);
    // The team as the former owner now sees it: an Admin (record 205).
    const after = { ...viewer, account: { ...viewer.account, role: 'admin' as const } };
    return c.json(await getTeam(c.var.deps.db, after), 200);
  })
  .post('/leave', access('user', 'read'), validate('json', leaveAccountSchema), async (c) => {
    const viewer = requireViewer(c);
    await leaveAccount(c.var.deps.db, viewer, c.req.valid('json').accountId);
    // Back on their own account (record 205).
    chooseAccount(c, viewer.user.id);
    return c.json(withCurrent(await listAccounts(c.var.deps.db, viewer), viewer.user.id), 200);
  });

export const teamInvitationRoutes = new Hono<AppEnv>()
  .get('/:token', access('public'), async (c) => {
    const viewer = c.get('viewer') ?? null;
    return c.json(await getTeamInvitation(c.var.deps.db, tokenOf(c.req.param('token')), viewer), 200);
  })
  .post('/:token/accept', access('user', 'personal'), async (c) => {
    const viewer = requireViewer(c);
    const accountId = await acceptTeamInvitation(c.var.deps.db, tokenOf(c.req.param('token')), viewer);
    // The new member lands in the account they joined.
    chooseAccount(c, accountId);
    return c.json(withCurrent(await listAccounts(c.var.deps.db, viewer), accountId), 200);
  });
