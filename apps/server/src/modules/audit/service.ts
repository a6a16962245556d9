/**
 * Reading the audit log (record 191): newest first, filtered by kind (or a group of kinds), user and
 * date range, a page at a time; and the same rows as a CSV streamed page by page. Names come from the
 * row (written with it) and, for rows written before names were stored, from the release or user if
 * they still exist.
 */
import { csvRecords, toCsv } from '@tunedrop/shared/csv';
import {
  type AuditEntry,
  type AuditFilter,
  type AuditPage,
  auditChanges,
  auditKindLabel,
} from '@tunedrop/shared/schemas/audit';
import { and, desc, eq, like, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { auditLog, profiles, releases } from '../../db/schema';
import { decodeCursor, encodeCursor } from '../../lib/cursor';

const actorProfile = alias(profiles, 'actor_profile');
const subjectProfile = alias(profiles, 'subject_profile');
const accountProfile = alias(profiles, 'account_profile');

async function filterConditions(db: DbOrTx, filters: AuditFilter): Promise<SQL[]> {
  const conditions: SQL[] = [];
  if (filters.kind) {
    const byKind = or(eq(auditLog.action, filters.kind), like(auditLog.action, `${filters.kind}.%`));
    if (byKind) conditions.push(byKind);
  }
  if (filters.user) {
    const user = filters.user.trim();
    const ids = [user];
    if (user.includes('@')) {
      const found = await db
        .select({ id: profiles.id })
        .from(profiles)
        .where(eq(sql`lower(${profiles.email})`, user.toLowerCase()));
      ids.push(...found.map((row) => row.id));
    }
    const byUser = or(
      // A member's action for an account is the account's too: its owner's address finds it.
      ...ids.map((id) =>
        or(eq(auditLog.actorId, id), eq(auditLog.subjectUserId, id), eq(auditLog.accountId, id)),
      ),
      eq(sql`lower(${auditLog.actorEmail})`, user.toLowerCase()),
    );
    if (byUser) conditions.push(byUser);
  }
  if (filters.releaseId) conditions.push(eq(auditLog.releaseId, filters.releaseId.toLowerCase()));
  // Whole UTC days, both ends included.
  if (filters.from) {
    conditions.push(sql`${auditLog.createdAt} >= (${filters.from}::date)::timestamp at time zone 'UTC'`);
  }
  if (filters.to) {
    conditions.push(sql`${auditLog.createdAt} < ((${filters.to}::date + 1)::timestamp at time zone 'UTC')`);
  }
  return conditions;
}

async function auditRows(db: DbOrTx, conditions: SQL[], cursor: string | null, limit: number) {
  const where = [...conditions];
  if (cursor) {
    const at = decodeCursor(cursor);
    where.push(sql`(${auditLog.createdAt}, ${auditLog.id}) < (${at.createdAt}::timestamptz, ${at.id}::uuid)`);
  }
  return db
    .select({
      id: auditLog.id,
      createdAt: auditLog.createdAt,
      createdAtText: sql<string>`${auditLog.createdAt}::text`,
      actorId: auditLog.actorId,
      actorEmail: auditLog.actorEmail,
      actorName: actorProfile.artistName,
      action: auditLog.action,
      releaseId: auditLog.releaseId,
      subjectUserId: auditLog.subjectUserId,
      withdrawalRequestId: auditLog.withdrawalRequestId,
      accountId: auditLog.accountId,
      accountLabel: accountProfile.email,
      subjectType: auditLog.subjectType,
      subjectId: auditLog.subjectId,
      // Rows from before record 191 carry no name: the release's title or the user's email, if still there.
      subjectLabel: sql<
        string | null
      >`coalesce(${auditLog.subjectLabel}, ${releases.title}, ${subjectProfile.email})`,
      before: auditLog.before,
      after: auditLog.after,
    })
    .from(auditLog)
    .leftJoin(actorProfile, eq(actorProfile.id, auditLog.actorId))
    .leftJoin(releases, eq(releases.id, auditLog.releaseId))
    .leftJoin(subjectProfile, eq(subjectProfile.id, auditLog.subjectUserId))
    .leftJoin(accountProfile, eq(accountProfile.id, auditLog.accountId))
    .where(where.length > 0 ? and(...where) : undefined)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(limit + 1);
}

type AuditRow = Awaited<ReturnType<typeof auditRows>>[number];

function toEntry({ createdAtText: _text, createdAt, ...row }: AuditRow): AuditEntry {
  return {
    ...row,
    actorName: row.actorName ?? null,
    accountLabel: row.accountLabel ?? null,
    createdAt: createdAt.toISOString(),
  };
}

/** Newest first. `user` is an email or a user id and matches the actor or the subject. */
export async function listAudit(
  db: DbOrTx,
  filters: AuditFilter & { cursor?: string | undefined; limit: number },
): Promise<AuditPage> {
  const conditions = await filterConditions(db, filters);
  const found = await auditRows(db, conditions, filters.cursor ?? null, filters.limit);
  const page = found.slice(0, filters.limit);
  const last = page.at(-1);
  return {
    items: page.map(toEntry),
    nextCursor:
      found.length > filters.limit && last
        ? encodeCursor({ createdAt: last.createdAtText, id: last.id })
        : null,
  };
}

export const AUDIT_CSV_HEADER = [
  'When (UTC)',
  'Kind',
  'Action',
  'Actor',
  'Actor name',
  'For account',
  'Subject type',
  'Subject',
  'Changes',
  'Before (JSON)',
  'After (JSON)',
] as const;

const json = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

function csvRow(entry: AuditEntry) {
  return [
    entry.createdAt,
    entry.action,
    auditKindLabel(entry.action),
    entry.actorEmail,
    entry.actorName,
    entry.accountLabel ?? entry.accountId,
    entry.subjectType,
    entry.subjectLabel,
    auditChanges(entry.before, entry.after).join('; '),
    json(entry.before),
    json(entry.after),
  ];
}

/**
 * The filtered log as CSV text chunks: the header, then 500 rows at a time by keyset, so an export of
 * any size holds one page in memory.
 */
export async function* auditCsvChunks(db: DbOrTx, filters: AuditFilter, pageSize = 500) {
  const conditions = await filterConditions(db, filters);
  yield toCsv(AUDIT_CSV_HEADER, []);
  let cursor: string | null = null;
  for (;;) {
    const found = await auditRows(db, conditions, cursor, pageSize);
    const page = found.slice(0, pageSize);
    if (page.length > 0) yield csvRecords(page.map((row) => csvRow(toEntry(row))));
    const last = page.at(-1);
    if (found.length <= pageSize || !last) return;
    cursor = encodeCursor({ createdAt: last.createdAtText, id: last.id });
  }
}
