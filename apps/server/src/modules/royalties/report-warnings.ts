/**
 * Sanity warnings of a staged report (issue 25 finding 7, record 187), found set-based after staging and
 * after codes are assigned:
 * - period_before_release: matched sales for a month before the release's first date (the earlier of its
 *   release date and original release date), one warning per release;
 * - foreign_isrc: lines matched through an ISRC the artist supplied (not one this operator assigned), whose
 *   registrant (country + registrant, ISRC characters 1-5) is not the operator's ISRC_REGISTRANT (set in
 *   Settings; without one no code can be called another label's), and that the report credits to another
 *   artist (its artist name is none of the release's, track's or account's artist names), one per ISRC.
 * Each warning is accepted (audited) or resolved (its lines unmatched: they wait in the unmatched queue and
 * go to suspense when posted); posting is refused while one is open (refuseOpenWarnings, in claimPosting).
 */
import {
  type AcceptWarningInput,
  REPORT_WARNING_LINES_LISTED,
  type ReportWarning,
  type ReportWarningKind,
  type ReportWarningLine,
  type ReportWarningsResponse,
  ROYALTY_CHECK_TEXTS,
} from '@tunedrop/shared/schemas/royalty-checks';
import { and, asc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { royaltyImports, royaltyImportWarnings, settings, user } from '../../db/schema';
import { AppError, conflict, notFound } from '../../lib/errors';
import { rows, run } from '../../lib/sql';
import { type AuditActor, recordAudit } from '../audit';
import { lineAmountsSql, needsAllocation } from './amounts';
import { refreshTotals } from './import-totals';

/** Letters and digits only, lower case: "Enya" and "ENYA " are one name, "Test Artist" and "TestArtist" too. */
const norm = (expression: SQL) =>
  sql`lower(regexp_replace(coalesce(${expression}, ''), '[^[:alnum:]]', '', 'g'))`;

/**
 * True when the artist named on a sales line (`artist`) is none of the names we know for the recording:
 * the account's artist name, the release's and the track's primary artists (either name containing the
 * other counts as the same artist: "Enya feat. X" is Enya).
 */
function isOtherArtist(artist: SQL, trackId: SQL): SQL {
  return sql`not exists (
    select 1
      from tracks t2
      join releases r2 on r2.id = t2.release_id
      left join profiles p2 on p2.id = r2.user_id
      cross join lateral (
        select p2.artist_name as name
        union all select e->>'name' from jsonb_array_elements(t2.primary_artists_data) e
        union all select e->>'name' from jsonb_array_elements(r2.primary_artists_data) e
      ) n
     where t2.id = ${trackId} and ${norm(sql`n.name`)} <> ''
       and (position(${norm(sql`n.name`)} in ${norm(artist)}) > 0
            or position(${norm(artist)} in ${norm(sql`n.name`)}) > 0))`;
}

/** The operator's ISRC registrant from Settings, as the first five characters of its codes (e.g. GBAHT). */
async function operatorRegistrant(db: DbOrTx): Promise<string | null> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, 'ISRC_REGISTRANT'));
  const value = (row?.value ?? '').replace(/[^A-Za-z0-9]/g, '').toUpperCase();
  return value.length >= 5 ? value.slice(0, 5) : null;
}

/** The first month a release can have sales in (YYYY-MM). */
const firstMonthOf = (release: SQL) =>
  sql`(select to_char(least(r.release_date, coalesce(r.original_release_date, r.release_date)), 'YYYY-MM')
         from releases r where r.id = ${release})`;

/** Which staged lines (alias l) a warning is about. */
function linesOf(kind: ReportWarningKind, subject: string): SQL {
  if (kind === 'period_before_release') {
    return sql`l.user_id is not null and l.release_id = ${subject}::uuid and l.period is not null
               and l.period < ${firstMonthOf(sql`${subject}::uuid`)}`;
  }
  return sql`l.user_id is not null and l.track_id = (select t.id from tracks t where t.isrc = ${subject})
             and nullif(btrim(l.artist), '') is not null and ${isOtherArtist(sql`l.artist`, sql`l.track_id`)}`;
}

type Found = {
  kind: ReportWarningKind;
  subject: string;
  name: string;
  firstDate: string | null;
  firstPeriod: string | null;
  lastPeriod: string | null;
  artists: string | null;
  lines: number | string;
  amount: string;
};

/** Finds the report's warnings again; keeps acceptances, and resolved ones as the record of a decision. */
export async function refreshWarnings(db: DbOrTx, importId: string): Promise<void> {
  const [report] = await db
    .select({ currency: royaltyImports.currency })
    .from(royaltyImports)
    .where(eq(royaltyImports.id, importId));
  if (!report) return;
  const registrant = await operatorRegistrant(db);
  // Which warnings there are, from the staged lines alone (no allocation of summary revenue: the money
  // of the few warnings found is summed afterwards), so a million-line report is scanned once.
  const foreignIsrc = registrant
    ? sql`
      union all
      select 'foreign_isrc'::text as kind, t.isrc as subject, t.title as name, null::text as first_date,
             null::text as first_period, null::text as last_period,
             string_agg(distinct pairs.artist, ', ') as artists, sum(pairs.lines) as lines
        from (
          select track_id, artist, count(*) as lines
            from royalty_import_lines
           where import_id = ${importId} and user_id is not null and track_id is not null
             and isrc is not null and nullif(btrim(artist), '') is not null
           group by track_id, artist
        ) pairs
        join tracks t on t.id = pairs.track_id
        left join assigned_codes a on a.kind = 'isrc' and a.code = t.isrc
       where t.isrc is not null
         and coalesce(a.source, 'artist') = 'artist'
         and substr(t.isrc, 1, 5) <> ${registrant}::text
         and ${isOtherArtist(sql`pairs.artist`, sql`pairs.track_id`)}
       group by t.isrc, t.title`
    : sql``;
  const candidates = await rows<Omit<Found, 'amount'>>(
    db,
    sql`
      select 'period_before_release'::text as kind, r.id::text as subject, r.title as name,
             least(r.release_date, coalesce(r.original_release_date, r.release_date))::text as first_date,
             min(l.period) as first_period, max(l.period) as last_period, null::text as artists,
             count(*) as lines
        from royalty_import_lines l join releases r on r.id = l.release_id
       where l.import_id = ${importId} and l.user_id is not null and l.period is not null
         and l.period < to_char(least(r.release_date, coalesce(r.original_release_date, r.release_date)), 'YYYY-MM')
       group by r.id, r.title, r.release_date, r.original_release_date
      ${foreignIsrc}`,
  );
  const allocate = candidates.length > 0 && (await needsAllocation(db, importId));
  const found: Found[] = [];
  for (const candidate of candidates) {
    const [sum] = await rows<{ amount: string | null }>(
      db,
      sql`
        select trim_scale(sum(l.line_amount))::text as amount
          from (${lineAmountsSql(importId, allocate)}) l
         where ${linesOf(candidate.kind, candidate.subject)}`,
    );
    found.push({ ...candidate, amount: sum?.amount ?? '0' });
  }
  const currency = report.currency ?? '';
  const current = found.map((row) => ({
    kind: row.kind,
    subject: row.subject,
    lineCount: Number(row.lines),
    amount: row.amount,
    message: messageOf(row, currency, registrant),
  }));
  const existing = await db
    .select({
      id: royaltyImportWarnings.id,
      kind: royaltyImportWarnings.kind,
      subject: royaltyImportWarnings.subject,
    })
    .from(royaltyImportWarnings)
    .where(and(eq(royaltyImportWarnings.importId, importId), isNull(royaltyImportWarnings.resolvedAt)));
  const keys = new Set(current.map((row) => `${row.kind}:${row.subject}`));
  for (const gone of existing.filter((row) => !keys.has(`${row.kind}:${row.subject}`))) {
    await db.delete(royaltyImportWarnings).where(eq(royaltyImportWarnings.id, gone.id));
  }
  if (current.length === 0) return;
  await db
    .insert(royaltyImportWarnings)
    .values(current.map((row) => ({ importId, ...row })))
    .onConflictDoUpdate({
      target: [royaltyImportWarnings.importId, royaltyImportWarnings.kind, royaltyImportWarnings.subject],
      set: {
        message: sql`excluded.message`,
        lineCount: sql`excluded.line_count`,
        amount: sql`excluded.amount`,
        // Found again after it was resolved (a code assigned back): open again.
        resolvedAt: null,
        resolvedBy: null,
      },
    });
}

function messageOf(row: Found, currency: string, registrant: string | null): string {
  const lines = Number(row.lines);
  const money = `${lines} line${lines === 1 ? '' : 's'}, ${row.amount} ${currency}`.trim();
  if (row.kind === 'period_before_release') {
    const span =
      row.firstPeriod === row.lastPeriod ? row.firstPeriod : `${row.firstPeriod} to ${row.lastPeriod}`;
    return `Sales for ${span} are matched to “${row.name}”, first released ${row.firstDate} (${money}).`;
  }
  const code = row.subject;
  const theirs = `${code.slice(0, 2)}-${code.slice(2, 5)}`;
  const ours = registrant ? ` (yours is ${registrant.slice(0, 2)}-${registrant.slice(2, 5)})` : '';
  return `ISRC ${code} of “${row.name}” was supplied by the artist; its registrant ${theirs} is not yours${ours}, and the report credits it to ${row.artists} (${money}).`;
}

/** 409 while the report has a warning neither accepted nor resolved (called where posting is claimed). */
export async function refuseOpenWarnings(db: DbOrTx, importId: string): Promise<void> {
  const [open] = await rows<{ count: number | string }>(
    db,
    sql`select count(*) as count from royalty_import_warnings
         where import_id = ${importId} and accepted_at is null and resolved_at is null`,
  );
  const count = Number(open?.count ?? 0);
  if (count > 0) throw new AppError('open_warnings', ROYALTY_CHECK_TEXTS.openWarnings(count), 409);
}

export async function listWarnings(db: Db, importId: string): Promise<ReportWarningsResponse> {
  const [report] = await db
    .select({ id: royaltyImports.id })
    .from(royaltyImports)
    .where(eq(royaltyImports.id, importId));
  if (!report) throw notFound('Import not found');
  const accepter = sql`(select email from ${user} u where u.id = ${royaltyImportWarnings.acceptedBy})`;
  const resolver = sql`(select email from ${user} u where u.id = ${royaltyImportWarnings.resolvedBy})`;
  const found = await db
    .select({
      row: royaltyImportWarnings,
      acceptedByEmail: sql<string | null>`${accepter}`,
      resolvedByEmail: sql<string | null>`${resolver}`,
    })
    .from(royaltyImportWarnings)
    .where(eq(royaltyImportWarnings.importId, importId))
    .orderBy(
      asc(royaltyImportWarnings.kind),
      asc(royaltyImportWarnings.createdAt),
      asc(royaltyImportWarnings.subject),
    );
  const allocate = await needsAllocation(db, importId);
  const items: ReportWarning[] = [];
  for (const { row, acceptedByEmail, resolvedByEmail } of found) {
    const lines = row.resolvedAt
      ? []
      : await rows<ReportWarningLine>(
          db,
          sql`
            select l.line_no, l.isrc, l.upc, l.title, l.artist, l.store, l.period,
                   trim_scale(l.line_amount)::text as amount
              from (${lineAmountsSql(importId, allocate)}) l
             where ${linesOf(row.kind, row.subject)}
             order by l.line_no
             limit ${REPORT_WARNING_LINES_LISTED}`,
        );
    items.push({
      id: row.id,
      kind: row.kind,
      subject: row.subject,
      message: row.message,
      lineCount: row.lineCount,
      amount: row.amount,
      acceptedAt: row.acceptedAt?.toISOString() ?? null,
      acceptedBy: acceptedByEmail,
      resolvedAt: row.resolvedAt?.toISOString() ?? null,
      resolvedBy: resolvedByEmail,
      note: row.note,
      lines: lines.map((line) => ({ ...line, lineNo: Number(line.lineNo) })),
    });
  }
  return { items, openCount: items.filter((item) => !item.acceptedAt && !item.resolvedAt).length };
}

/** The warning, locked, of a report that can still be posted. */
async function openWarning(tx: DbOrTx, importId: string, warningId: string) {
  const [report] = await tx
    .select({ status: royaltyImports.status, phase: royaltyImports.phase, fileName: royaltyImports.fileName })
    .from(royaltyImports)
    .where(eq(royaltyImports.id, importId))
    .for('update');
  if (!report) throw notFound('Import not found');
  if (report.status === 'posted' || report.phase === 'posting') {
    throw new AppError(
      'already_posted',
      'This report is posted or being posted; its warnings are final.',
      409,
    );
  }
  const [warning] = await tx
    .select()
    .from(royaltyImportWarnings)
    .where(and(eq(royaltyImportWarnings.id, warningId), eq(royaltyImportWarnings.importId, importId)))
    .for('update');
  if (!warning) throw notFound('Warning not found');
  if (warning.acceptedAt || warning.resolvedAt) throw conflict(ROYALTY_CHECK_TEXTS.warningNotOpen);
  return { report, warning };
}

/** Accepts a warning as it stands: its lines are posted as matched. Audited. */
export async function acceptWarning(
  db: Db,
  importId: string,
  warningId: string,
  input: AcceptWarningInput,
  actor: AuditActor,
): Promise<void> {
  await db.transaction(async (tx) => {
    const { report, warning } = await openWarning(tx, importId, warningId);
    const actorId = 'user' in actor ? actor.user.id : actor.id;
    await tx
      .update(royaltyImportWarnings)
      .set({ acceptedAt: sql`now()`, acceptedBy: actorId ?? null, note: input.note ?? null })
      .where(eq(royaltyImportWarnings.id, warningId));
    await recordAudit(tx, actor, {
      kind: 'royalties.warning_accept',
      subject: { type: 'royalty_report', id: importId, label: report.fileName },
      after: { warning: warning.message, lines: warning.lineCount, note: input.note ?? null },
    });
  });
}

/**
 * Resolves a warning by unmatching its lines: they wait in the unmatched queue (a code can be assigned)
 * and, if the report is posted as it is, go to suspense. Audited.
 */
export async function resolveWarning(
  db: Db,
  importId: string,
  warningId: string,
  actor: AuditActor,
): Promise<void> {
  await db.transaction(async (tx) => {
    const { report, warning } = await openWarning(tx, importId, warningId);
    const actorId = 'user' in actor ? actor.user.id : actor.id;
    await run(
      tx,
      sql`
        update royalty_import_lines l set user_id = null, track_id = null, release_id = null
         where l.import_id = ${importId} and ${linesOf(warning.kind, warning.subject)}`,
    );
    await tx
      .update(royaltyImportWarnings)
      .set({ resolvedAt: sql`now()`, resolvedBy: actorId ?? null })
      .where(eq(royaltyImportWarnings.id, warningId));
    await refreshTotals(tx, importId);
    await refreshWarnings(tx, importId);
    await recordAudit(tx, actor, {
      kind: 'royalties.warning_resolve',
      subject: { type: 'royalty_report', id: importId, label: report.fileName },
      after: { warning: warning.message, lines: warning.lineCount, resolution: 'lines unmatched' },
    });
  });
}
