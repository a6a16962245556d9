/**
 * User Management: the list (search, tab counts computed in SQL, server-side paging) and the admin's
 * actions (free access and moderator grants, bans), each with an audit_log row in the same transaction.
 */
import type { Plan, Role, SubscriptionStatus } from '@tunedrop/shared';
import {
  ADMIN_USERS_TEXTS,
  type AdminUser,
  type AdminUsersPage,
  type AdminUsersQuery,
  type GrantableRole,
  USERS_PAGE_SIZE,
  type UserTab,
} from '@tunedrop/shared/schemas/admin-users';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { auditLog, profiles, userRoles } from '../../db/schema';
import { AppError, notFound } from '../../lib/errors';
import { containsPattern } from '../admin-balances/service';

export type Admin = { id: string; email: string };

const hasRoleSql = (role: Role) =>
  sql`exists (select 1 from user_roles r where r.user_id = p.id and r.role = ${role})`;

const TAB_FILTERS: Record<UserTab, SQL> = {
  all: sql`true`,
  basic: sql`p.plan = 'basic'`,
  pro: sql`p.plan = 'pro'`,
  banned: sql`p.banned`,
  free_access: hasRoleSql('free_access'),
  moderators: hasRoleSql('moderator'),
};

type Row = {
  id: string;
  email: string;
  full_name: string;
  artist_name: string;
  plan: string;
  roles: string[] | string | null;
  banned: boolean;
  ban_reason: string | null;
  banned_at: Date | string | null;
  subscription_status: string;
  subscription_end: Date | string | null;
  balance_cents: string | number;
  release_count: string | number;
  created_at: Date | string;
};

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** node-postgres gives text[] as an array; keep a text form ('{a,b}') readable too. */
function parseRoles(value: Row['roles']): Role[] {
  if (Array.isArray(value)) return value as Role[];
  if (!value || value === '{}') return [];
  return value.replace(/^\{|\}$/g, '').split(',') as Role[];
}

export async function listUsers(db: Db, query: AdminUsersQuery): Promise<AdminUsersPage> {
  const search = query.q
    ? sql`(lower(p.email) like ${containsPattern(query.q)} or lower(p.artist_name) like ${containsPattern(query.q)}
          or lower(p.full_name) like ${containsPattern(query.q)})`
    : sql`true`;
  const [counts] = rowsOf<Record<UserTab, string | number>>(
    await db.execute(sql`
      select count(*) as all,
             count(*) filter (where ${TAB_FILTERS.basic}) as basic,
             count(*) filter (where ${TAB_FILTERS.pro}) as pro,
             count(*) filter (where ${TAB_FILTERS.banned}) as banned,
             count(*) filter (where ${TAB_FILTERS.free_access}) as free_access,
             count(*) filter (where ${TAB_FILTERS.moderators}) as moderators
        from profiles p
       where ${search}`),
  );
  const offset = (query.page - 1) * USERS_PAGE_SIZE;
  const rows = rowsOf<Row>(
    await db.execute(sql`
      select p.id, p.email, p.full_name, p.artist_name, p.plan, p.banned, p.ban_reason, p.banned_at,
             p.subscription_status, p.subscription_end, p.balance_cents, p.created_at,
             coalesce((select array_agg(r.role order by r.role) from user_roles r where r.user_id = p.id), '{}') as roles,
             (select count(*) from releases rel where rel.user_id = p.id and rel.status <> 'deleted') as release_count
        from profiles p
       where ${search} and ${TAB_FILTERS[query.tab]}
       order by p.created_at desc, p.id
       limit ${USERS_PAGE_SIZE} offset ${offset}`),
  );
  const tabCounts = Object.fromEntries(
    Object.entries(counts ?? {}).map(([key, value]) => [key, Number(value)]),
  ) as Record<UserTab, number>;
  return {
    users: rows.map(
      (row): AdminUser => ({
        id: row.id,
        email: row.email,
        fullName: row.full_name,
        artistName: row.artist_name,
        plan: row.plan as Plan,
        roles: parseRoles(row.roles),
        banned: row.banned,
        banReason: row.ban_reason,
        bannedAt: iso(row.banned_at),
        subscriptionStatus: row.subscription_status as SubscriptionStatus,
        subscriptionEnd: iso(row.subscription_end),
        balanceCents: Number(row.balance_cents),
        releaseCount: Number(row.release_count),
        createdAt: iso(row.created_at) as string,
      }),
    ),
    counts: tabCounts,
    page: query.page,
    pageSize: USERS_PAGE_SIZE,
    total: tabCounts[query.tab] ?? 0,
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
