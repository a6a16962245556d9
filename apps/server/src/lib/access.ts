/**
 * Access declared per route: every route passes exactly one `access(rule)` middleware, which the
 * route-listing test looks for. Ownership is checked in the services.
 */
import { GATE_MESSAGE, hasRole, passesSubscriptionGate, type Role } from '@tunedrop/shared';
import { eq } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import { profiles, userRoles } from '../db/schema';
import type { AppEnv, Viewer } from './context';
import { AppError, forbidden, unauthorized } from './errors';

export const ACCESS_RULES = ['public', 'user', 'subscriber', 'moderator', 'admin'] as const;
export type AccessRule = (typeof ACCESS_RULES)[number];

export const ACCESS_RULE = Symbol.for('tunedrop.accessRule');

/** Marks middleware that runs before every route of a router, so the access-listing test can tell it apart. */
export const GLOBAL_MIDDLEWARE = Symbol.for('tunedrop.globalMiddleware');
export const globalMiddleware = (handler: MiddlewareHandler<AppEnv>) =>
  Object.assign(handler, { [GLOBAL_MIDDLEWARE]: true as const });
export type AccessMiddleware = MiddlewareHandler<AppEnv> & { [ACCESS_RULE]: AccessRule };

export async function loadViewer(c: Context<AppEnv>): Promise<Viewer | null> {
  const { auth, db } = c.var.deps;
  const result = await auth.api.getSession({ headers: c.req.raw.headers });
  if (!result) return null;
  const [profileRows, roleRows] = await Promise.all([
    db.select().from(profiles).where(eq(profiles.id, result.user.id)).limit(1),
    db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, result.user.id)),
  ]);
  const profile = profileRows[0];
  if (!profile) return null;
  return {
    user: {
      id: result.user.id,
      email: result.user.email,
      name: result.user.name,
      emailVerified: result.user.emailVerified,
    },
    sessionId: result.session.id,
    profile: {
      plan: profile.plan,
      fullName: profile.fullName,
      artistName: profile.artistName,
      banned: profile.banned,
      banReason: profile.banReason,
      subscriptionStatus: profile.subscriptionStatus,
      subscriptionEnd: profile.subscriptionEnd,
    },
    roles: roleRows.map((row) => row.role as Role),
  };
}

function check(rule: AccessRule, viewer: Viewer | null): void {
  if (rule === 'public') return;
  if (!viewer) throw unauthorized();
  if (rule === 'user') return;
  const isGatePassed = passesSubscriptionGate({
    subscriptionStatus: viewer.profile.subscriptionStatus,
    subscriptionEnd: viewer.profile.subscriptionEnd,
    roles: viewer.roles,
  });
  if (!isGatePassed) throw new AppError('subscription_required', GATE_MESSAGE, 402);
  if (rule === 'subscriber') return;
  const isAdmin = hasRole(viewer.roles, 'admin');
  if (rule === 'admin' && !isAdmin) throw forbidden('You need admin privileges to access this page.');
  if (rule === 'moderator' && !isAdmin && !hasRole(viewer.roles, 'moderator')) {
    throw forbidden("You don't have admin or moderator privileges.");
  }
}

export function access(rule: AccessRule): AccessMiddleware {
  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    const viewer = c.get('viewer') === undefined ? await loadViewer(c) : c.get('viewer');
    c.set('viewer', viewer);
    check(rule, viewer);
    await next();
  };
  return Object.assign(middleware, { [ACCESS_RULE]: rule });
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

export function hasViewerRole(viewer: Viewer, role: Role): boolean {
  return hasRole(viewer.roles, role);
}
