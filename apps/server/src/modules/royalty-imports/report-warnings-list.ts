/**
 * The admin's page of a staged report's warnings (record 273), each with its first lines; the warnings
 * themselves are found, accepted and resolved in report-warnings.ts.
 */
import {
  REPORT_WARNING_LINES_LISTED,
  REPORT_WARNINGS_PAGE_SIZE,
  type ReportWarning,
  type ReportWarningLine,
  type ReportWarningsQuery,
  type ReportWarningsResponse,
} from '@tunedrop/shared/schemas/royalty-checks';
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { royaltyImports, royaltyImportWarnings, user } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { rows } from '../../lib/sql';
import { lineAmountsSql, needsAllocation } from './amounts';
import { firstMonthOf, isOtherArtist } from './report-warnings';

/**
 * One page of a report's warnings, each with its first lines. The lines of the page's open warnings come
 * from one scan of the report (before, one scan per warning: hours at a million lines with thousands of
 * warnings, the read side of issue 43 finding 3).
 */
export async function listWarnings(
  db: Db,
  importId: string,
  query: ReportWarningsQuery = { page: 1, limit: REPORT_WARNINGS_PAGE_SIZE },
): Promise<ReportWarningsResponse> {
  const [report] = await db
    .select({ id: royaltyImports.id })
    .from(royaltyImports)
    .where(eq(royaltyImports.id, importId));
  if (!report) throw notFound('Import not found');
  const [counted] = await rows<{ total: number | string; open: number | string }>(
    db,
    sql`select count(*) as total,
               count(*) filter (where accepted_at is null and resolved_at is null) as open
          from royalty_import_warnings where import_id = ${importId}`,
  );
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
      asc(royaltyImportWarnings.id),
    )
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  const linesOf = await linesOfWarnings(
    db,
    importId,
    found.filter(({ row }) => !row.resolvedAt).map(({ row }) => row.id),
  );
  const items: ReportWarning[] = found.map(({ row, acceptedByEmail, resolvedByEmail }) => ({
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
    lines: linesOf.get(row.id) ?? [],
  }));
  return {
    items,
    openCount: Number(counted?.open ?? 0),
    page: query.page,
    pageSize: query.limit,
    total: Number(counted?.total ?? 0),
  };
}

/**
 * The first REPORT_WARNING_LINES_LISTED lines of each of `warningIds`, by line number, in one query: the
 * report's line amounts are computed once, and each kind of warning joins them on its own key.
 */
async function linesOfWarnings(
  db: Db,
  importId: string,
  warningIds: string[],
): Promise<Map<string, ReportWarningLine[]>> {
  const byWarning = new Map<string, ReportWarningLine[]>();
  if (warningIds.length === 0) return byWarning;
  const allocate = await needsAllocation(db, importId);
  const found = await rows<ReportWarningLine & { warningId: string }>(
    db,
    sql`
      with w as (
        select w.id,
               case when w.kind = 'period_before_release' then w.subject::uuid end as release_id,
               case when w.kind = 'period_before_release' then ${firstMonthOf(sql`w.subject::uuid`)} end
                 as first_month,
               case when w.kind <> 'period_before_release'
                    then (select t.id from tracks t where t.isrc = w.subject) end as track_id
          from royalty_import_warnings w
         where w.import_id = ${importId}
           and w.id in (select value::uuid from jsonb_array_elements_text(${JSON.stringify(warningIds)}::jsonb))
      ),
      l as (${lineAmountsSql(importId, allocate)}),
      matched as (
        select w.id as warning_id, l.line_no, l.isrc, l.upc, l.title, l.artist, l.store, l.period, l.line_amount
          from l join w on l.release_id = w.release_id
         where l.user_id is not null and l.period is not null and l.period < w.first_month
        union all
        select w.id, l.line_no, l.isrc, l.upc, l.title, l.artist, l.store, l.period, l.line_amount
          from l join w on l.track_id = w.track_id
         where l.user_id is not null and nullif(btrim(l.artist), '') is not null
           and ${isOtherArtist(sql`l.artist`, sql`l.track_id`)}
      )
      select warning_id, line_no, isrc, upc, title, artist, store, period, amount
        from (
          select m.warning_id, m.line_no, m.isrc, m.upc, m.title, m.artist, m.store, m.period,
                 trim_scale(m.line_amount)::text as amount,
                 row_number() over (partition by m.warning_id order by m.line_no) as rank
            from matched m
        ) ranked
       where rank <= ${REPORT_WARNING_LINES_LISTED}
       order by warning_id, line_no`,
  );
  for (const { warningId, ...line } of found) {
    const lines = byWarning.get(warningId) ?? [];
    lines.push({ ...line, lineNo: Number(line.lineNo) });
    byWarning.set(warningId, lines);
  }
  return byWarning;
}
