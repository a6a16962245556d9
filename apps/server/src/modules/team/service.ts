/**
 * A team with roles (issue 27, record 202): the accounts a person may act for, switching between them,
 * and the owner's members and invitations. Invitations follow split invitations (record 147): the token
 * is hashed, only the invited address's own verified account may accept, mails are limited per account
 * and per address in the database, and the mail is queued in the transaction that creates the invitation.
 * Handing the account over and leaving it are in `ownership.ts` (record 205).
 */
import { createHash, randomBytes } from 'node:crypto';
import { PLAN_DETAILS } from '@tunedrop/shared';
import { maskEmail, waitText } from '@tunedrop/shared/schemas/splits';
import {
  type AccountsResponse,
  type InviteMemberInput,
  MEMBER_LIMITS,
  type MemberRole,
  TEAM_INVITATION_DAYS,
  TEAM_INVITATION_LIMITS,
  TEAM_TEXTS,
  type TeamInvitationView,
  type TeamResponse,
} from '@tunedrop/shared/schemas/team';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { accountInvitationSends, accountInvitations, accountMembers, accountOwners } from '../../db/schema';
import { enqueueMail } from '../../infra/mail/mail';
import type { Viewer } from '../../lib/context';
import { AppError, notFound } from '../../lib/errors';
import { rows, run } from '../../lib/sql';
import { recordAudit } from '../audit';
import { secondsUntilRoom } from '../splits';
import { teamInvitationMail } from './mails';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export class TeamInvitationLimitError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('invitation_limit', message, 429);
  }
}

/** The viewer's own account and every account they are a member of, the acting one marked. */
export async function listAccounts(db: DbOrTx, viewer: Viewer): Promise<AccountsResponse> {
  // The person's own account first (owned, or kept as a member after a transfer), then the others.
  const found = await rows<{ id: string; name: string; role: string }>(
    db,
    sql`
      select p.id, coalesce(nullif(p.artist_name, ''), p.full_name) as name,
             case when coalesce(o.owner_id, p.id) = ${viewer.user.id} then 'owner' else m.role end as role
        from profiles p
        left join account_owners o on o.account_id = p.id
        left join account_members m on m.account_id = p.id and m.user_id = ${viewer.user.id}
       where p.id = ${viewer.user.id} or o.owner_id = ${viewer.user.id} or m.user_id is not null
       order by (p.id = ${viewer.user.id}) desc, name`,
  );
  return {
    items: found.map((row) => ({
      id: row.id,
      name: row.name,
      role: row.role as AccountsResponse['items'][number]['role'],
      isCurrent: row.id === viewer.account.id,
    })),
  };
}

/** Checks that the viewer may act for `accountId` (their own, or a membership); the route sets the cookie. */
export async function assertMayAct(db: DbOrTx, viewer: Viewer, accountId: string): Promise<void> {
  if (accountId === viewer.user.id) return;
  const [member] = await db
    .select({ role: accountMembers.role })
    .from(accountMembers)
    .where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.userId, viewer.user.id)));
  if (member) return;
  const [owned] = await db
    .select({ ownerId: accountOwners.ownerId })
    .from(accountOwners)
    .where(and(eq(accountOwners.accountId, accountId), eq(accountOwners.ownerId, viewer.user.id)));
  if (!owned) throw new AppError('not_a_member', TEAM_TEXTS.notAMember, 403);
}

/** The account's name and plan, and its owner (the founder unless ownership was transferred, record 205). */
export async function accountName(
  db: DbOrTx,
  accountId: string,
): Promise<{ name: string; plan: 'basic' | 'pro'; email: string; ownerId: string }> {
  const [row] = await rows<{ name: string; plan: 'basic' | 'pro'; email: string; ownerId: string }>(
    db,
    sql`select coalesce(nullif(p.artist_name, ''), p.full_name) as name, p.plan, u.email, u.id as owner_id
          from profiles p
          left join account_owners o on o.account_id = p.id
          join "user" u on u.id = coalesce(o.owner_id, p.id)
         where p.id = ${accountId}`,
  );
  if (!row) throw notFound('Account not found');
  return row;
}

/** The team of the acting account: its owner, members and pending invitations, and the plan's limit. */
export async function getTeam(db: DbOrTx, viewer: Viewer): Promise<TeamResponse> {
  const accountId = viewer.account.id;
  const account = await accountName(db, accountId);
  const members = await rows<{
    userId: string;
    name: string;
    email: string;
    role: string;
    joinedAt: Date | null;
  }>(
    db,
    sql`
      select u.id as user_id, u.name, u.email, 'owner' as role, null::timestamptz as joined_at, 0 as sort
        from "user" u where u.id = ${account.ownerId}
      union all
      select u.id, u.name, u.email, m.role, m.created_at, 1
        from account_members m join "user" u on u.id = m.user_id
       where m.account_id = ${accountId}
       order by sort, joined_at`,
  );
  const invitations = await db
    .select({
      id: accountInvitations.id,
      email: accountInvitations.email,
      role: accountInvitations.role,
      expiresAt: accountInvitations.expiresAt,
    })
    .from(accountInvitations)
    .where(and(eq(accountInvitations.accountId, accountId), pendingInvitation()))
    .orderBy(accountInvitations.createdAt);
  return {
    accountName: account.name,
    viewerRole: viewer.account.role,
    members: members.map((row) => ({
      userId: row.userId,
      name: row.name,
      email: row.email,
      role: row.role as TeamResponse['members'][number]['role'],
      joinedAt: row.joinedAt ? new Date(row.joinedAt).toISOString() : null,
    })),
    invitations: invitations.map((row) => ({ ...row, expiresAt: row.expiresAt.toISOString() })),
    limit: MEMBER_LIMITS[account.plan],
  };
}

const pendingInvitation = () =>
  sql`${accountInvitations.acceptedAt} is null and ${accountInvitations.withdrawnAt} is null and ${accountInvitations.expiresAt} > now()`;

export const lockKey = (tx: Tx, key: string) =>
  run(tx, sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);

/** Refuses with 429 past the sending limits; otherwise counts this mail (in the inviting transaction). */
async function recordSend(tx: Tx, accountId: string, email: string): Promise<void> {
  await lockKey(tx, `team-invitations:email:${email}`);
  const agesOf = async (column: 'account_id' | 'email', value: string) =>
    (
      await rows<{ age: number | string }>(
        tx,
        sql`select extract(epoch from clock_timestamp() - created_at)::float8 as age from account_invitation_sends
             where ${sql.identifier(column)} = ${value} and created_at > clock_timestamp() - interval '1 day'
             order by created_at`,
      )
    ).map((row) => Number(row.age));
  const accountAges = await agesOf('account_id', accountId);
  for (const [rule, window] of [
    [TEAM_INVITATION_LIMITS.perAccountHour, 'hour'],
    [TEAM_INVITATION_LIMITS.perAccountDay, '24 hours'],
  ] as const) {
    const wait = secondsUntilRoom(accountAges, rule, 1);
    if (wait > 0)
      throw new TeamInvitationLimitError(TEAM_TEXTS.limitAccount(rule.max, window, waitText(wait)), wait);
  }
  const wait = secondsUntilRoom(await agesOf('email', email), TEAM_INVITATION_LIMITS.perAddressDay, 1);
  if (wait > 0) throw new TeamInvitationLimitError(TEAM_TEXTS.limitAddress(email, waitText(wait)), wait);
  await tx.insert(accountInvitationSends).values({ accountId, email });
}

/**
 * Invites `email` with a role (owner only, checked by the route): not the owner, not a member, not already
 * invited, within the plan's member limit (members and pending invitations count), within the mail limits.
 */
export async function inviteMember(
  db: Db,
  viewer: Viewer,
  input: InviteMemberInput,
  appUrl: string,
): Promise<void> {
  const accountId = viewer.account.id;
  await db.transaction(async (tx) => {
    await lockKey(tx, `team:${accountId}`);
    const account = await accountName(tx, accountId);
    const email = input.email.toLowerCase();
    if (email === account.email.toLowerCase())
      throw new AppError('own_address', TEAM_TEXTS.ownAddress, 422, { email: TEAM_TEXTS.ownAddress });
    const [member] = await rows<{ userId: string }>(
      tx,
      sql`select m.user_id from account_members m join "user" u on u.id = m.user_id
           where m.account_id = ${accountId} and lower(u.email) = ${email}`,
    );
    if (member)
      throw new AppError('already_member', TEAM_TEXTS.alreadyMember, 409, {
        email: TEAM_TEXTS.alreadyMember,
      });
    const [invited] = await tx
      .select({ id: accountInvitations.id })
      .from(accountInvitations)
      .where(
        and(
          eq(accountInvitations.accountId, accountId),
          eq(accountInvitations.email, email),
          pendingInvitation(),
        ),
      );
    if (invited)
      throw new AppError('already_invited', TEAM_TEXTS.alreadyInvited, 409, {
        email: TEAM_TEXTS.alreadyInvited,
      });
    const [count] = await rows<{ count: number | string }>(
      tx,
      sql`select (select count(*) from account_members where account_id = ${accountId})
               + (select count(*) from account_invitations where account_id = ${accountId}
                     and accepted_at is null and withdrawn_at is null and expires_at > now()) as count`,
    );
    const limit = MEMBER_LIMITS[account.plan];
    if (Number(count?.count ?? 0) >= limit) {
      throw new AppError('member_limit', TEAM_TEXTS.memberLimit(limit, PLAN_DETAILS[account.plan].name), 422);
    }
    await recordSend(tx, accountId, email);
    const token = randomBytes(32).toString('base64url');
    const [created] = await tx
      .insert(accountInvitations)
      .values({
        accountId,
        email,
        role: input.role,
        tokenHash: hashToken(token),
        invitedBy: viewer.user.id,
        expiresAt: sql`now() + make_interval(days => ${TEAM_INVITATION_DAYS})`,
      })
      .returning({ id: accountInvitations.id });
    await enqueueMail(
      tx,
      teamInvitationMail({
        to: email,
        accountName: account.name,
        role: input.role,
        url: `${appUrl}/team/invitations/${token}`,
        appUrl,
      }),
    );
    await recordAudit(tx, viewer, {
      kind: 'team.invite',
      subject: { type: 'account', id: created?.id ?? null, label: email },
      subjectUserId: accountId,
      after: { email, role: input.role },
    });
  });
}

export async function withdrawInvitation(db: Db, viewer: Viewer, invitationId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [withdrawn] = await tx
      .update(accountInvitations)
      .set({ withdrawnAt: sql`now()` })
      .where(
        and(
          eq(accountInvitations.id, invitationId),
          eq(accountInvitations.accountId, viewer.account.id),
          sql`${accountInvitations.acceptedAt} is null and ${accountInvitations.withdrawnAt} is null`,
        ),
      )
      .returning({ email: accountInvitations.email, role: accountInvitations.role });
    if (!withdrawn) throw notFound(TEAM_TEXTS.invitationNotFound);
    await recordAudit(tx, viewer, {
      kind: 'team.invitation_withdraw',
      subject: { type: 'account', id: invitationId, label: withdrawn.email },
      subjectUserId: viewer.account.id,
      before: { email: withdrawn.email, role: withdrawn.role },
    });
  });
}

export async function changeMemberRole(
  db: Db,
  viewer: Viewer,
  memberId: string,
  role: MemberRole,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ role: accountMembers.role })
      .from(accountMembers)
      .where(and(eq(accountMembers.accountId, viewer.account.id), eq(accountMembers.userId, memberId)))
      .for('update');
    if (!before) throw notFound(TEAM_TEXTS.memberNotFound);
    await tx
      .update(accountMembers)
      .set({ role })
      .where(and(eq(accountMembers.accountId, viewer.account.id), eq(accountMembers.userId, memberId)));
    await recordAudit(tx, viewer, {
      kind: 'team.role_change',
      subjectUserId: memberId,
      before: { role: before.role },
      after: { role },
    });
  });
}

/** The owner removes a member; the founder of a transferred account stays (record 205). */
export async function removeMember(db: Db, viewer: Viewer, memberId: string): Promise<void> {
  await db.transaction(async (tx) => {
    if (memberId === viewer.account.id)
      throw new AppError('founder_stays', TEAM_TEXTS.founderCannotBeRemoved, 409);
    const [removed] = await tx
      .delete(accountMembers)
      .where(and(eq(accountMembers.accountId, viewer.account.id), eq(accountMembers.userId, memberId)))
      .returning({ role: accountMembers.role });
    if (!removed) throw notFound(TEAM_TEXTS.memberNotFound);
    await recordAudit(tx, viewer, {
      kind: 'team.remove',
      subjectUserId: memberId,
      before: { role: removed.role },
    });
  });
}

async function invitationByToken(db: DbOrTx, token: string, lock = false) {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const query = db
    .select()
    .from(accountInvitations)
    .where(eq(accountInvitations.tokenHash, hashToken(token)));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

function statusOf(row: { acceptedAt: Date | null; withdrawnAt: Date | null; expiresAt: Date }) {
  if (row.acceptedAt) return 'accepted' as const;
  if (row.withdrawnAt) return 'withdrawn' as const;
  if (row.expiresAt.getTime() <= Date.now()) return 'expired' as const;
  return 'pending' as const;
}

function acceptanceFor(
  email: string,
  ownerId: string,
  viewer: Viewer | null,
): TeamInvitationView['acceptance'] {
  const masked = maskEmail(email);
  if (!viewer) return { status: 'signed_out', message: TEAM_TEXTS.invitationOtherAccount(masked) };
  if (viewer.user.id === ownerId) return { status: 'owner', message: TEAM_TEXTS.ownAddress };
  if (viewer.user.email.toLowerCase() !== email.toLowerCase())
    return { status: 'other_account', message: TEAM_TEXTS.invitationOtherAccount(masked) };
  if (!viewer.user.emailVerified) return { status: 'unverified', message: TEAM_TEXTS.invitationUnverified };
  return { status: 'ready', message: null };
}

/** What accepting means, before signing in or accepting (public: the token is the secret). */
export async function getTeamInvitation(
  db: DbOrTx,
  token: string,
  viewer: Viewer | null,
): Promise<TeamInvitationView> {
  const invitation = await invitationByToken(db, token);
  if (!invitation || invitation.withdrawnAt) throw notFound(TEAM_TEXTS.invitationNotFound);
  const account = await accountName(db, invitation.accountId);
  const acceptance = acceptanceFor(invitation.email, account.ownerId, viewer);
  return {
    accountName: account.name,
    role: invitation.role,
    email: acceptance.status === 'ready' ? invitation.email : maskEmail(invitation.email),
    status: statusOf(invitation),
    acceptance,
  };
}

/** Joins the account with the invitation's role: the invited address's own, verified account only. */
export async function acceptTeamInvitation(db: Db, token: string, viewer: Viewer): Promise<string> {
  return db.transaction(async (tx) => {
    const invitation = await invitationByToken(tx, token, true);
    if (!invitation || invitation.withdrawnAt) throw notFound(TEAM_TEXTS.invitationNotFound);
    const status = statusOf(invitation);
    if (status === 'accepted') throw new AppError('invitation_accepted', TEAM_TEXTS.invitationAccepted, 409);
    if (status === 'expired') throw new AppError('invitation_expired', TEAM_TEXTS.invitationExpired, 410);
    const account = await accountName(tx, invitation.accountId);
    const acceptance = acceptanceFor(invitation.email, account.ownerId, viewer);
    if (acceptance.status === 'owner') throw new AppError('own_account', TEAM_TEXTS.ownAddress, 422);
    if (acceptance.status === 'other_account' || acceptance.status === 'signed_out')
      throw new AppError('invitation_other_account', acceptance.message ?? TEAM_TEXTS.notAMember, 403);
    if (acceptance.status === 'unverified')
      throw new AppError('invitation_unverified', TEAM_TEXTS.invitationUnverified, 403);
    await tx
      .insert(accountMembers)
      .values({
        accountId: invitation.accountId,
        userId: viewer.user.id,
        role: invitation.role,
        invitedBy: invitation.invitedBy,
      })
      .onConflictDoUpdate({
        target: [accountMembers.accountId, accountMembers.userId],
        set: { role: invitation.role },
      });
    await tx
      .update(accountInvitations)
      .set({ acceptedAt: sql`now()`, acceptedBy: viewer.user.id })
      .where(eq(accountInvitations.id, invitation.id));
    await recordAudit(tx, viewer, {
      kind: 'team.join',
      subject: {
        type: 'account',
        id: invitation.accountId,
        label: account.name,
      },
      subjectUserId: invitation.accountId,
      after: { role: invitation.role },
    });
    return invitation.accountId;
  });
}
