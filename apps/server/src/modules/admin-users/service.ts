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
  USER_TABS,
  USERS_PAGE_SIZE,
  type UserTab,
} from '@tunedrop/shared/schemas/admin-users';
import { and, desc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { profileCountDeltas, profiles, releases, userRoles } from '../../db/schema';
import { AppError, notFound } from '../../lib/errors';
import { pageInfo, pageWindow } from '../../lib/paging';
import { containsPattern } from '../../lib/search';
import { camelCaseName, firstRow, run, rows as sqlRows } from '../../lib/sql';
import { recordAudit } from '../audit';
import { IS_PAYEE_CONDITION, isPayeeSql } from '../wallet';

export type Admin = { id: string; email: string };

const hasRoleSql = (role: Role) =>
  sql`exists (select 1 from ${userRoles} where ${userRoles.userId} = ${profiles.id} and ${userRoles.role} = ${role})`;

/**
 * A person who never subscribed and joined someone else's account (record 230), unless a payee: the card's
 * "Team member of NAME". Raw text on `profiles` like IS_PAYEE_CONDITION, for the list and the search alike.
 */
const IS_TEAM_CONDITION = `(profiles.subscription_status = 'inactive' and profiles.subscription_end is null
  and exists (select 1 from account_members am where am.user_id = profiles.id and am.account_id <> profiles.id)
  and not (${IS_PAYEE_CONDITION}))`;
/** An admin or moderator without a subscription who is not a team member: the card's "Staff". */
const IS_STAFF_CONDITION = `(profiles.subscription_status = 'inactive'
  and exists (select 1 from user_roles sr where sr.user_id = profiles.id and sr.role in ('admin', 'moderator'))
  and not ${IS_TEAM_CONDITION})`;
/** Holds the plan column's plan: not a payee (record 175), a team-only member or staff (record 274). */
const HOLDS_PLAN_CONDITION = `not (${IS_PAYEE_CONDITION}) and not ${IS_TEAM_CONDITION} and not ${IS_STAFF_CONDITION}`;

const TAB_FILTERS: Record<UserTab, SQL> = {
  all: sql`true`,
  // Basic and Pro count the plan holders; payees (record 175), team members and staff (record 274) have their own tabs.
  basic: sql`${profiles.plan} = 'basic' and ${sql.raw(HOLDS_PLAN_CONDITION)}`,
  pro: sql`${profiles.plan} = 'pro' and ${sql.raw(HOLDS_PLAN_CONDITION)}`,
  payees: isPayeeSql,
  team: sql.raw(IS_TEAM_CONDITION),
  staff: sql.raw(IS_STAFF_CONDITION),
  banned: sql`${profiles.banned}`,
  free_access: hasRoleSql('free_access'),
  moderators: hasRoleSql('moderator'),
};

/** Both drivers give text[] as an array; a text form ('{a,b}') is read too. Unknown values are dropped. */
function parseRoles(value: unknown): Role[] {
  const items = Array.isArray(value)
    ? value
    : typeof value === 'string'
      ? value.replace(/^\{|\}$/g, '').split(',')
      : [];
  return items.filter((item): item is Role => isOneOf(ROLES, item));
}

/** Each tab's condition on the rows of tunedrop_search_profiles (migration 0008), as raw SQL text. */
const EMPTY_TAB_COUNTS: Readonly<Record<UserTab, number>> = {
  all: 0,
  basic: 0,
  pro: 0,
  payees: 0,
  team: 0,
  staff: 0,
  banned: 0,
  free_access: 0,
  moderators: 0,
};

const onSearchRow = (condition: string) =>
  `exists (select 1 from profiles where profiles.id = m.id and ${condition})`;

const SEARCH_TAB_CONDITIONS: Record<UserTab, string> = {
  all: 'true',
  basic: `m.plan = 'basic' and ${onSearchRow(HOLDS_PLAN_CONDITION)}`,
  pro: `m.plan = 'pro' and ${onSearchRow(HOLDS_PLAN_CONDITION)}`,
  payees: onSearchRow(IS_PAYEE_CONDITION),
  team: onSearchRow(IS_TEAM_CONDITION),
  staff: onSearchRow(IS_STAFF_CONDITION),
  banned: 'm.banned',
  free_access: "exists (select 1 from user_roles r where r.user_id = m.id and r.role = 'free_access')",
  moderators: "exists (select 1 from user_roles r where r.user_id = m.id and r.role = 'moderator')",
};

/**
 * A search over email, artist and full name in one pass over its trigram index (migration 0008): every
 * tab's count within the matches and the ids of the requested page (created_at desc, id).
 */
async function searchSummary(
  db: Db,
  q: string,
  tab: UserTab,
  window: { limit: number; offset: number },
): Promise<{ counts: Record<UserTab, number>; ids: string[] }> {
  const countColumns = USER_TABS.map(
    ({ id }) => `(count(*) filter (where ${SEARCH_TAB_CONDITIONS[id]}))::int as "${id}"`,
  ).join(', ');
  // One count column per tab, named by the tab (rows() reads `free_access` as `freeAccess`).
  const row = await firstRow<{ ids: unknown } & Record<string, unknown>>(
    db,
    sql`with m as materialized (
      select * from tunedrop_search_profiles(${containsPattern(q)}))
    select ${sql.raw(countColumns)},
           (select coalesce(json_agg(page.id order by page.created_at desc, page.id), '[]'::json)
              from (select m.id, m.created_at from m where ${sql.raw(SEARCH_TAB_CONDITIONS[tab])}
                     order by m.created_at desc, m.id
                     limit ${window.limit} offset ${window.offset}) page) as ids
      from m`,
  );
  const ids = typeof row?.ids === 'string' ? JSON.parse(row.ids) : row?.ids;
  const counts = { ...EMPTY_TAB_COUNTS };
  for (const { id } of USER_TABS) counts[id] = Number(row?.[camelCaseName(id)] ?? 0);
  return { counts, ids: Array.isArray(ids) ? ids.map(String) : [] };
}

function usersPageQuery(db: Db, tab: UserTab, search: SQL | undefined) {
  return (
    db
      .select({
        id: profiles.id,
        email: profiles.email,
        fullName: profiles.fullName,
        artistName: profiles.artistName,
        plan: profiles.plan,
        isPayee: isPayeeSql.mapWith(Boolean),
        // A person who never subscribed and joined a team is that team's member, not "Basic" (record 230).
        // Qualified by hand: Drizzle leaves a one-table select's columns unqualified (see wallet/payees.ts).
        teamOf: sql<string | null>`case when profiles.subscription_status = 'inactive'
          and profiles.subscription_end is null then
          (select coalesce(nullif(a.artist_name, ''), a.full_name) from account_members m
             join profiles a on a.id = m.account_id
            where m.user_id = profiles.id and m.account_id <> profiles.id
            order by m.created_at, m.account_id limit 1) end`,
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
      .where(and(search, TAB_FILTERS[tab]))
      // (created_at desc, id) is an index of migration 0008 (also per plan, and for the banned).
      .orderBy(desc(profiles.createdAt), profiles.id)
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
  );
}

function profileDeltasQuery(db: Db) {
  return db
    .select({
      plan: profileCountDeltas.plan,
      banned: profileCountDeltas.banned,
      count: sql<number>`sum(${profileCountDeltas.delta})::int`.mapWith(Number),
      rows: sql<number>`count(*)::int`.mapWith(Number),
    })
    .from(profileCountDeltas)
    .groupBy(profileCountDeltas.plan, profileCountDeltas.banned)
    .prepare('tunedrop_users_counts');
}

/**
 * Payees per plan column, found from the split payees' side (a few rows per split) rather than by a scan
 * of profiles; the plan and tab counts then leave them out of Basic and Pro.
 */
function payeeCountsQuery(db: Db) {
  return db
    .select({ plan: profiles.plan, count: sql<number>`count(*)::int`.mapWith(Number) })
    .from(profiles)
    .where(
      and(
        isPayeeSql,
        sql`(${profiles.id} in (select sp.user_id from split_payees sp where sp.status = 'accepted' and sp.user_id is not null)
          or lower(${profiles.email}) in (select lower(sp.email) from split_payees sp where sp.status = 'pending'))`,
      ),
    )
    .groupBy(profiles.plan)
    .prepare('tunedrop_users_payee_counts');
}

function roleCountsQuery(db: Db) {
  return db
    .select({ role: userRoles.role, count: sql<number>`count(*)::int`.mapWith(Number) })
    .from(userRoles)
    .innerJoin(profiles, eq(profiles.id, userRoles.userId))
    .where(sql`${userRoles.role} in ('free_access', 'moderator')`)
    .groupBy(userRoles.role)
    .prepare('tunedrop_users_role_counts');
}

type UsersQueries = {
  pages: Record<UserTab, ReturnType<ReturnType<typeof usersPageQuery>['prepare']>>;
  deltas: ReturnType<typeof profileDeltasQuery>;
  roles: ReturnType<typeof roleCountsQuery>;
  payees: ReturnType<typeof payeeCountsQuery>;
};

/** The list's statements without a search, built once per database. */
const usersQueries = new WeakMap<object, UsersQueries>();

function queriesOf(db: Db): UsersQueries {
  let queries = usersQueries.get(db);
  if (!queries) {
    queries = {
      pages: Object.fromEntries(
        USER_TABS.map(({ id }) => [id, usersPageQuery(db, id, undefined).prepare(`tunedrop_users_${id}`)]),
      ) as UsersQueries['pages'],
      deltas: profileDeltasQuery(db),
      roles: roleCountsQuery(db),
      payees: payeeCountsQuery(db),
    };
    usersQueries.set(db, queries);
  }
  return queries;
}

/** Team-only members and staff per plan column, from the few people in account_members and staff roles. */
const NO_PLAN_COUNTS = sql`select profiles.plan, ${sql.raw(IS_TEAM_CONDITION)} as is_team, count(*)::int as count
  from profiles
 where profiles.id in (select am.user_id from account_members am where am.user_id <> am.account_id
                       union select ur.user_id from user_roles ur where ur.role in ('admin', 'moderator'))
   and (${sql.raw(IS_TEAM_CONDITION)} or ${sql.raw(IS_STAFF_CONDITION)})
 group by 1, 2`;

/** Delta rows beyond this are folded into one row per (plan, banned) by the next reader. */
const DELTA_ROWS_TO_FOLD = 200;

/**
 * Tab counts without a scan of profiles: plan and ban from the delta rows the triggers of migration 0008
 * append (folded as in admin-releases), roles from user_roles (staff and free access: a few rows).
 */
async function unfilteredCounts(db: Db, queries: UsersQueries): Promise<Record<UserTab, number>> {
  const [deltas, roles] = [await queries.deltas.execute(), await queries.roles.execute()];
  const counts = { ...EMPTY_TAB_COUNTS };
  let deltaRows = 0;
  for (const row of deltas) {
    deltaRows += row.rows;
    counts.all += row.count;
    if (row.plan === 'basic') counts.basic += row.count;
    if (row.plan === 'pro') counts.pro += row.count;
    if (row.banned) counts.banned += row.count;
  }
  for (const row of await queries.payees.execute()) {
    counts.payees += row.count;
    if (row.plan === 'basic') counts.basic -= row.count;
    if (row.plan === 'pro') counts.pro -= row.count;
  }
  // Team-only members and staff without a plan (record 274), found from account_members and user_roles.
  for (const row of await sqlRows<{ plan: string; isTeam: boolean; count: string | number }>(
    db,
    NO_PLAN_COUNTS,
  )) {
    const count = Number(row.count);
    counts[row.isTeam ? 'team' : 'staff'] += count;
    if (row.plan === 'basic') counts.basic -= count;
    if (row.plan === 'pro') counts.pro -= count;
  }
  for (const row of roles) {
    if (row.role === 'free_access') counts.free_access = row.count;
    if (row.role === 'moderator') counts.moderators = row.count;
  }
  if (deltaRows > DELTA_ROWS_TO_FOLD) {
    await run(
      db,
      sql`with gone as (delete from ${profileCountDeltas} returning *)
        insert into ${profileCountDeltas} (plan, banned, delta)
        select plan, banned, sum(delta) from gone group by 1, 2 having sum(delta) <> 0`,
    );
  }
  return counts;
}

export async function listUsers(db: Db, query: AdminUsersQuery): Promise<AdminUsersPage> {
  const window = pageWindow(query.page, USERS_PAGE_SIZE);
  let tabCounts: Record<UserTab, number>;
  let rows: Awaited<ReturnType<UsersQueries['pages'][UserTab]['execute']>>;
  if (query.q) {
    // A search has no prepared shape: its page is read by the ids its one pass found.
    const summary = await searchSummary(db, query.q, query.tab, window);
    tabCounts = summary.counts;
    rows = summary.ids.length
      ? await usersPageQuery(db, query.tab, inArray(profiles.id, summary.ids)).execute({
          limit: window.limit,
          offset: 0,
        })
      : [];
  } else {
    const queries = queriesOf(db);
    tabCounts = await unfilteredCounts(db, queries);
    rows = await queries.pages[query.tab].execute({ limit: window.limit, offset: window.offset });
  }
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
  action: 'user.ban' | 'user.unban' | 'role.grant' | 'role.revoke',
  userId: string,
  before: unknown,
  after: unknown,
) {
  // The user's email is stored with the entry (record 191).
  await recordAudit(tx, admin, { kind: action, subjectUserId: userId, before, after });
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
