/**
 * User Management: the list (search, tab counts computed in SQL, server-side paging) and the admin's
 * actions (free access and moderator grants, bans), each with an audit_log row in the same transaction.
 */
import { isOneOf, ROLES, type Role } from '@tunedrop/shared';
import {
  ADMIN_USERS_TEXTS,
  type AdminUsersPage,
  type AdminUsersQuery,
  type GrantableRole,
  USERS_PAGE_SIZE,
  type UserTab,
} from '@tunedrop/shared/schemas/admin-users';
import { and, desc, eq, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { auditLog, profiles, releases, userRoles } from '../../db/schema';
import { AppError, notFound } from '../../lib/errors';
import { pageInfo, pageWindow } from '../../lib/paging';
import { containsPattern } from '../../lib/search';

export type Admin = { id: string; email: string };

const hasRoleSql = (role: Role) =>
  sql`exists (select 1 from ${userRoles} where ${userRoles.userId} = ${profiles.id} and ${userRoles.role} = ${role})`;

const TAB_FILTERS: Record<UserTab, SQL> = {
  all: sql`true`,
  basic: sql`${profiles.plan} = 'basic'`,
  pro: sql`${profiles.plan} = 'pro'`,
  banned: sql`${profiles.banned}`,
  free_access: hasRoleSql('free_access'),
  moderators: hasRoleSql('moderator'),
};

const tabCount = (tab: UserTab) => sql<number>`count(*) filter (where ${TAB_FILTERS[tab]})`.mapWith(Number);

/** Both drivers give text[] as an array; a text form ('{a,b}') is read too. Unknown values are dropped. */
function parseRoles(value: unknown): Role[] {
  const items = Array.isArray(value)
    ? value
    : typeof value === 'string'
      ? value.replace(/^\{|\}$/g, '').split(',')
      : [];
  return items.filter((item): item is Role => isOneOf(ROLES, item));
}

function searchCondition(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  const pattern = containsPattern(q);
  return or(
    sql`lower(${profiles.email}) like ${pattern}`,
    sql`lower(${profiles.artistName}) like ${pattern}`,
    sql`lower(${profiles.fullName}) like ${pattern}`,
  );
}

export async function listUsers(db: Db, query: AdminUsersQuery): Promise<AdminUsersPage> {
  const search = searchCondition(query.q);
  const [counts] = await db
    .select({
      all: tabCount('all'),
      basic: tabCount('basic'),
      pro: tabCount('pro'),
      banned: tabCount('banned'),
      free_access: tabCount('free_access'),
      moderators: tabCount('moderators'),
    })
    .from(profiles)
    .where(search);
  const { limit, offset } = pageWindow(query.page, USERS_PAGE_SIZE);
  const rows = await db
    .select({
      id: profiles.id,
      email: profiles.email,
      fullName: profiles.fullName,
      artistName: profiles.artistName,
      plan: profiles.plan,
      roles: sql`coalesce((select array_agg(${userRoles.role} order by ${userRoles.role}) from ${userRoles}
        where ${userRoles.userId} = ${profiles.id}), '{}')`.mapWith(parseRoles),
      banned: profiles.banned,
      banReason: profiles.banReason,
      bannedAt: profiles.bannedAt,
      subscriptionStatus: profiles.subscriptionStatus,
      subscriptionEnd: profiles.subscriptionEnd,
      balanceCents: profiles.balanceCents,
      releaseCount: db
        .$count(releases, and(eq(releases.userId, profiles.id), ne(releases.status, 'deleted')))
        .mapWith(Number),
      createdAt: profiles.createdAt,
    })
    .from(profiles)
    .where(and(search, TAB_FILTERS[query.tab]))
    .orderBy(desc(profiles.createdAt), profiles.id)
    .limit(limit)
    .offset(offset);
  const tabCounts: Record<UserTab, number> = counts ?? {
    all: 0,
    basic: 0,
    pro: 0,
    banned: 0,
    free_access: 0,
    moderators: 0,
  };
  return {
    users: rows.map((row) => ({
      ...row,
      bannedAt: row.bannedAt?.toISOString() ?? null,
      subscriptionEnd: row.subscriptionEnd?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
    })),
    counts: tabCounts,
    ...pageInfo(query.page, USERS_PAGE_SIZE, tabCounts[query.tab]),
  };
}

async function audit(
  tx: DbOrTx,
  admin: Admin,
  action: string,
  userId: string,
  before: unknown,
  after: unknown,
) {
  await tx.insert(auditLog).values({
    actorId: admin.id,
    actorEmail: admin.email,
    action,
    subjectUserId: userId,
    before,
    after,
  });
}

const isKnownRole = (role: string): role is GrantableRole => role === 'free_access' || role === 'moderator';

function assertGrantable(role: string): asserts role is GrantableRole {
  if (role === 'admin') throw new AppError('admin_role_not_here', ADMIN_USERS_TEXTS.adminRoleNotHere, 422);
  if (!isKnownRole(role)) throw notFound();
}

async function lockUser(tx: DbOrTx, userId: string) {
  const [profile] = await tx
    .select({ id: profiles.id, banned: profiles.banned, banReason: profiles.banReason })
    .from(profiles)
    .where(eq(profiles.id, userId))
    .for('update');
  if (!profile) throw notFound(ADMIN_USERS_TEXTS.userNotFound);
  return profile;
}

/** Grants free_access or moderator; granting what the user already has changes nothing. */
export async function setRole(db: Db, admin: Admin, userId: string, role: string, isGranted: boolean) {
  assertGrantable(role);
  return db.transaction(async (tx) => {
    await lockUser(tx, userId);
    const changed = isGranted
      ? await tx.insert(userRoles).values({ userId, role }).onConflictDoNothing().returning()
      : await tx
          .delete(userRoles)
          .where(and(eq(userRoles.userId, userId), eq(userRoles.role, role)))
          .returning();
    if (changed.length > 0) {
      await audit(
        tx,
        admin,
        `role.${isGranted ? 'grant' : 'revoke'}`,
        userId,
        { role, granted: !isGranted },
        { role, granted: isGranted },
      );
    }
    return { userId, role, isGranted, isChanged: changed.length > 0 };
  });
}

export async function banUser(db: Db, admin: Admin, userId: string, reason: string) {
  if (userId === admin.id) throw new AppError('cannot_ban_self', ADMIN_USERS_TEXTS.cannotBanSelf, 422);
  return db.transaction(async (tx) => {
    const before = await lockUser(tx, userId);
    const bannedAt = new Date();
    await tx
      .update(profiles)
      .set({ banned: true, banReason: reason, bannedAt, updatedAt: bannedAt })
      .where(eq(profiles.id, userId));
    await audit(
      tx,
      admin,
      'user.ban',
      userId,
      { banned: before.banned, banReason: before.banReason },
      { banned: true, banReason: reason },
    );
    return { userId, banned: true, banReason: reason, bannedAt: bannedAt.toISOString() };
  });
}

/** Unban clears the flag, the reason and the time together (spec 02 §4). */
export async function unbanUser(db: Db, admin: Admin, userId: string) {
  return db.transaction(async (tx) => {
    const before = await lockUser(tx, userId);
    if (before.banned) {
      await tx
        .update(profiles)
        .set({ banned: false, banReason: null, bannedAt: null, updatedAt: new Date() })
        .where(eq(profiles.id, userId));
      await audit(
        tx,
        admin,
        'user.unban',
        userId,
        { banned: true, banReason: before.banReason },
        { banned: false, banReason: null },
      );
    }
    return { userId, banned: false, banReason: null, bannedAt: null };
  });
}
