/**
 * Access declared per route: every route passes exactly one `access(rule)` middleware, which the
 * route-listing test looks for. Ownership is checked in the services.
 */

import { createHmac, timingSafeEqual } from 'node:crypto';
import { GATE_MESSAGE, hasRole, passesSubscriptionGate, type Role } from '@tunedrop/shared';
import {
  type AccountNeed,
  type AccountRole,
  ROLE_LABELS,
  roleAllows,
  TEAM_TEXTS,
} from '@tunedrop/shared/schemas/team';
import { and, eq, sql } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Db } from '../db/client';
import { cachedRead } from '../db/read-cache';
import { accountMembers, accountOwners, profiles, session, user, userRoles } from '../db/schema';
import type { AppEnv, Viewer } from './context';
import { AppError, forbidden, unauthorized } from './errors';
import { guardBody } from './request-body';
import { SESSION_EXPIRES_IN_SECONDS, SESSION_UPDATE_AGE_SECONDS } from './session-config';

export const ACCESS_RULES = ['public', 'user', 'subscriber', 'moderator', 'admin'] as const;
export type AccessRule = (typeof ACCESS_RULES)[number];

export const ACCESS_RULE = Symbol.for('tunedrop.accessRule');
/** What the route needs of the caller's role on the acting account (record 325), beside ACCESS_RULE. */
export const ACCOUNT_NEED = Symbol.for('tunedrop.accountNeed');
/** The browser's chosen account (an account id), checked against the membership on every request. */
export const ACCOUNT_COOKIE = 'tunedrop.account';

/** Marks middleware that runs before every route of a router, so the access-listing test can tell it apart. */
export const GLOBAL_MIDDLEWARE = Symbol.for('tunedrop.globalMiddleware');
export const globalMiddleware = (handler: MiddlewareHandler<AppEnv>) =>
  Object.assign(handler, { [GLOBAL_MIDDLEWARE]: true as const });
export type AccessMiddleware = MiddlewareHandler<AppEnv> & {
  [ACCESS_RULE]: AccessRule;
  [ACCOUNT_NEED]: AccountNeed;
};

/**
 * better-auth's cookie names, read once: the session cookie ("tunedrop.session_token") and the one it
 * sets beside it when "Remember me" was left off ("tunedrop.dont_remember"); `__Secure-` prefixed over HTTPS.
 */
type CookieNames = { sessionToken: string; dontRemember: string };

/** The part of better-auth (modules/auth) read here: its cookie names, and its own session check. */
export type SessionAuth = {
  $context: Promise<{
    authCookies: { sessionToken: { name: string }; dontRememberToken: { name: string } };
  }>;
  api: { getSession(input: { headers: Headers }): Promise<unknown> };
};
const cookieNamesByAuth = new WeakMap<object, Promise<CookieNames>>();
function cookieNames(auth: SessionAuth): Promise<CookieNames> {
  let names = cookieNamesByAuth.get(auth);
  if (!names) {
    names = auth.$context.then((context) => ({
      sessionToken: context.authCookies.sessionToken.name,
      dontRemember: context.authCookies.dontRememberToken.name,
    }));
    cookieNamesByAuth.set(auth, names);
  }
  return names;
}

/**
 * The value of a signed cookie (`value.base64(HMAC-SHA256(secret, value))`, better-call's format),
 * or null when its signature does not match.
 */
function verifiedCookieValue(signed: string, secret: string): string | null {
  const dot = signed.lastIndexOf('.');
  if (dot < 1) return null;
  const token = signed.slice(0, dot);
  const signature = Buffer.from(signed.slice(dot + 1), 'base64');
  const expected = createHmac('sha256', secret).update(token).digest();
  return signature.length === expected.length && timingSafeEqual(signature, expected) ? token : null;
}

/** Session, user, profile and roles of one session token in one query (record 125). */
function viewerQuery(db: Db) {
  return db
    .select({
      sessionId: session.id,
      expiresAt: session.expiresAt,
      ...personFields(),
    })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .innerJoin(profiles, eq(profiles.id, session.userId))
    .where(eq(session.token, sql.placeholder('token')))
    .limit(1)
    .prepare('tunedrop_viewer');
}

/** The person's user, profile, roles and accounts, as a session's viewer reads them. */
function personFields() {
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    emailVerified: user.emailVerified,
    twoFactorEnabled: user.twoFactorEnabled,
    plan: profiles.plan,
    fullName: profiles.fullName,
    artistName: profiles.artistName,
    banned: profiles.banned,
    banReason: profiles.banReason,
    subscriptionStatus: profiles.subscriptionStatus,
    subscriptionEnd: profiles.subscriptionEnd,
    roles: sql<
      Role[]
    >`coalesce((select array_agg(${userRoles.role}) from ${userRoles} where ${userRoles.userId} = ${user.id}), '{}')`,
    // The person's own account after its ownership was transferred (record 205): its owner, and the
    // person's role there (Admin at the transfer). Null and null while they own it.
    ownAccountOwner: sql<
      string | null
    >`(select ${accountOwners.ownerId} from ${accountOwners} where ${accountOwners.accountId} = ${user.id})`,
    ownAccountRole: sql<string | null>`(select ${accountMembers.role} from ${accountMembers}
        where ${accountMembers.accountId} = ${user.id} and ${accountMembers.userId} = ${user.id})`,
    // The first account the person joined as a member (record 230), by account_members_user_idx.
    firstTeamAccount: sql<string | null>`(select ${accountMembers.accountId} from ${accountMembers}
        where ${accountMembers.userId} = ${user.id} and ${accountMembers.accountId} <> ${user.id}
        order by ${accountMembers.createdAt}, ${accountMembers.accountId} limit 1)`,
  };
}

/** Built once per database: drizzle's query building cost more CPU than the query itself (record 125). */
const viewerQueries = new WeakMap<object, ReturnType<typeof viewerQuery>>();
async function viewerRow(db: Db, token: string) {
  let query = viewerQueries.get(db);
  if (!query) {
    query = viewerQuery(db);
    viewerQueries.set(db, query);
  }
  const prepared = query;
  // From memory on the embedded database until anything is written (read-cache.ts, record 305); the expiry
  // is compared with the time by the caller, on every request.
  return cachedRead(db, `viewer:${token}`, async () => (await prepared.execute({ token }))[0]);
}

/** better-auth's rule (`updateAge`): a session whose last extension is a day old is extended on its next use. */
function isDueForRefresh(expiresAt: Date, now: number): boolean {
  return expiresAt.getTime() - (SESSION_EXPIRES_IN_SECONDS - SESSION_UPDATE_AGE_SECONDS) * 1000 <= now;
}

/**
 * A session signed in without "Remember me" carries better-auth's signed `dont_remember` cookie. better-auth
 * never extends such a session (its getSession returns it as it is), and the session lives one day
 * (SESSION_DONT_REMEMBER_SECONDS), so by the rule above it always looks due: asking better-auth on every
 * request took three more queries for nothing (issue 29, record 171). It still ends when it expires.
 */
function isDontRemember(c: Context<AppEnv>, names: CookieNames): boolean {
  const signed = getCookie(c, names.dontRemember);
  return signed !== undefined && verifiedCookieValue(signed, c.get('deps').config.appSecret) !== null;
}

/**
 * The signed-in caller, read on every request of a route with an access rule. The fast path checks the
 * cookie's signature here and reads session, user, profile and roles in one query, cached only on the
 * embedded database and only until its next write (record 305), so a revoked session (sign-out, password
 * change, ban) ends at the next request on every instance. better-auth's
 * getSession runs only when the session is expired or due for its daily refresh (never due for a session
 * without "Remember me", which better-auth does not extend), so its rules (cleanup, sliding expiry) stay
 * its own (records 125, 171).
 */
export async function loadViewer(c: Context<AppEnv>): Promise<Viewer | null> {
  // c.get, not c.var: hono builds a new object of every variable on each read of c.var.
  const deps = c.get('deps');
  const { db, config } = deps;
  const auth: SessionAuth = deps.auth;
  const cookieHeader = c.req.header('cookie');
  if (!cookieHeader) return null;
  const names = await cookieNames(auth);
  const signed = getCookie(c, names.sessionToken);
  if (!signed) return null;
  const token = verifiedCookieValue(signed, config.appSecret);
  if (!token) return null;
  let row = await viewerRow(db, token);
  if (!row) return null;
  const now = Date.now();
  if (row.expiresAt.getTime() <= now || (isDueForRefresh(row.expiresAt, now) && !isDontRemember(c, names))) {
    const result = await auth.api.getSession({ headers: c.req.raw.headers });
    if (!result) return null;
    row = await viewerRow(db, token);
    if (!row) return null;
  }
  const chosen = getCookie(c, ACCOUNT_COOKIE) || teamOnlyAccount(row);
  const membership = chosen && chosen !== row.userId ? await membershipOf(db, chosen, row.userId) : null;
  return viewerOf(row, membership, row.sessionId);
}

/**
 * The viewer an API key acts as (record 290): the person who made it, on the account it was made for, with
 * their role there now (null when they are no longer its owner or a member), read like a session's.
 */
export async function viewerOfPerson(
  db: Db,
  userId: string,
  accountId: string,
  sessionId: string,
): Promise<Viewer | null> {
  const [row] = await db
    .select(personFields())
    .from(user)
    .innerJoin(profiles, eq(profiles.id, user.id))
    .where(eq(user.id, userId))
    .limit(1);
  if (!row) return null;
  const membership = accountId !== row.userId ? await membershipOf(db, accountId, row.userId) : null;
  if (accountId !== row.userId && !membership) return null;
  return viewerOf(row, membership, sessionId);
}

/**
 * Where a browser that chose no account acts (record 230): a person who never held a subscription of
 * their own and is not staff, but joined a team, acts for the team's account, so an invited member is
 * never put to the plan picker of their own empty account. Choosing their own account (the switcher
 * writes its id to the cookie) still takes them there.
 */
function teamOnlyAccount(row: {
  firstTeamAccount: string | null;
  subscriptionStatus: string;
  subscriptionEnd: Date | null;
  roles: Role[];
}): string | null {
  if (!row.firstTeamAccount) return null;
  const hasOwnAccess =
    row.subscriptionStatus !== 'inactive' ||
    row.subscriptionEnd !== null ||
    row.roles.some((role) => role === 'admin' || role === 'moderator' || role === 'free_access');
  return hasOwnAccess ? null : row.firstTeamAccount;
}

/**
 * The person's role on the account they founded: Owner unless they transferred it (record 205), then their
 * member row's role. The founder can neither leave nor be removed from it, so the row is there; were it
 * missing, Viewer (read-only) is the least a row could have said.
 */
function ownAccountRole(userId: string, owner: string | null, memberRole: string | null): AccountRole {
  if (owner === null || owner === userId) return 'owner';
  return (memberRole as AccountRole | null) ?? 'viewer';
}

/**
 * The member's role on the chosen account and that account's profile, read on every request that carries
 * the account cookie (record 202): a removed member is back on their own account at the next request. The
 * account's owner by transfer (record 205) is its Owner.
 */
async function membershipOf(db: Db, accountId: string, userId: string) {
  const [found] = await db
    .select({
      accountId: profiles.id,
      role: sql<
        string | null
      >`case when ${accountOwners.ownerId} = ${userId} then 'owner' else ${accountMembers.role} end`,
      plan: profiles.plan,
      fullName: profiles.fullName,
      artistName: profiles.artistName,
      banned: profiles.banned,
      banReason: profiles.banReason,
      subscriptionStatus: profiles.subscriptionStatus,
      subscriptionEnd: profiles.subscriptionEnd,
    })
    .from(profiles)
    .leftJoin(accountOwners, eq(accountOwners.accountId, profiles.id))
    .leftJoin(
      accountMembers,
      and(eq(accountMembers.accountId, profiles.id), eq(accountMembers.userId, userId)),
    )
    .where(eq(profiles.id, accountId))
    .limit(1);
  if (!found?.role) return null;
  const { accountId: id, role, ...profile } = found;
  return { accountId: id, role: role as AccountRole, profile };
}

function check(rule: AccessRule, viewer: Viewer | null): void {
  if (rule === 'public') return;
  if (!viewer) throw unauthorized();
  if (rule === 'user') return;
  // Staff routes check the role first and need no subscription (spec 02 §6: a moderator reviews without
  // paying; anyone else is told "Access denied" whether or not they subscribe).
  if (rule === 'admin' || rule === 'moderator') {
    const isAdmin = hasRole(viewer.roles, 'admin');
    if (rule === 'admin' && !isAdmin) throw forbidden('You need admin privileges to access this page.');
    if (rule === 'moderator' && !isAdmin && !hasRole(viewer.roles, 'moderator')) {
      throw forbidden("You don't have admin or moderator privileges.");
    }
    return;
  }
  const isGatePassed = passesSubscriptionGate({
    subscriptionStatus: viewer.profile.subscriptionStatus,
    subscriptionEnd: viewer.profile.subscriptionEnd,
    roles: viewer.roles,
  });
  if (!isGatePassed) throw new AppError('subscription_required', GATE_MESSAGE, 402);
}

/** The role check of account-scoped routes (record 325): a member's role must allow what the route needs. */
function checkAccount(need: AccountNeed, viewer: Viewer | null): void {
  if (!viewer || roleAllows(viewer.account.role, need)) return;
  throw new AppError('account_role', TEAM_TEXTS.roleRefused(ROLE_LABELS[viewer.account.role]), 403);
}

/**
 * What a route needs of the acting account when it does not say: user and subscriber routes are the
 * account's and need its owner (a member is refused until the route states a role); staff and public
 * routes are the person's own.
 */
export function defaultAccountNeed(rule: AccessRule): AccountNeed {
  return rule === 'user' || rule === 'subscriber' ? 'owner' : 'personal';
}

/**
 * The route's rule, then the caller's role on the acting account (record 325), then its body: the body's
 * limit and the control-character check run only once the caller is let in, so nobody's body is read
 * before access is checked (lib/request-body.ts, record 145).
 */
export function access(rule: AccessRule, need: AccountNeed = defaultAccountNeed(rule)): AccessMiddleware {
  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    const viewer = c.get('viewer') === undefined ? await loadViewer(c) : c.get('viewer');
    c.set('viewer', viewer);
    check(rule, viewer);
    checkAccount(need, viewer);
    return guardBody(c, next);
  };
  return Object.assign(middleware, { [ACCESS_RULE]: rule, [ACCOUNT_NEED]: need });
}

/** The signed-in viewer on a route whose access rule guarantees one. */
export function requireViewer(c: Context<AppEnv>): Viewer {
  const viewer = c.get('viewer');
  if (!viewer) throw unauthorized();
  return viewer;
}

/** Upload and submission routes refuse banned users with 403 and the ban reason (spec 02 §6). */
export function assertNotBanned(viewer: Viewer): void {
  if (viewer.profile.banned) {
    const reason = viewer.profile.banReason ? ` Reason: ${viewer.profile.banReason}` : '';
    throw new AppError('banned', `Your account has been banned from uploading music.${reason}`, 403);
  }
}

type PersonRow = NonNullable<Awaited<ReturnType<typeof viewerRow>>>;
type Membership = Awaited<ReturnType<typeof membershipOf>>;

/** The viewer of a person's row, on the account they chose (`membership`) or their own. */
function viewerOf(
  row: Omit<PersonRow, 'sessionId' | 'expiresAt'>,
  membership: Membership,
  sessionId: string,
): Viewer {
  return {
    user: {
      id: row.userId,
      email: row.email,
      name: row.name,
      emailVerified: row.emailVerified,
      twoFactorEnabled: row.twoFactorEnabled === true,
    },
    sessionId,
    profile: membership?.profile ?? {
      plan: row.plan,
      fullName: row.fullName,
      artistName: row.artistName,
      banned: row.banned,
      banReason: row.banReason,
      subscriptionStatus: row.subscriptionStatus,
      subscriptionEnd: row.subscriptionEnd,
    },
    roles: row.roles,
    account: membership
      ? { id: membership.accountId, role: membership.role }
      : { id: row.userId, role: ownAccountRole(row.userId, row.ownAccountOwner, row.ownAccountRole) },
  };
}
