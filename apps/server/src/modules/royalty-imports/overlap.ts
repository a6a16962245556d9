/**
 * Overlap protection (issue 25, decision 186): every staged sales line gets an identity that a later file
 * repeating the same sale shares, so a cumulative re-export (DistroKid, TuneCore) or a re-sent DSR is
 * never paid twice. royalty_posted_lines holds the identity of every posted line; at import the lines
 * already there are marked with the report that posted them and left out of posting unless an admin
 * includes them with a confirmation, which is audited.
 */
import { hash } from 'node:crypto';
import { sumDecimals, trimScale } from '@tunedrop/shared/money';
import {
  type ImportOverlap,
  type ImportSummary,
  ROYALTY_TEXTS,
  type RoyaltySourceFormat,
} from '@tunedrop/shared/schemas/royalties';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { royaltyImports } from '../../db/schema';
import { AppError, notFound } from '../../lib/errors';
import { firstRow, rows, run } from '../../lib/sql';
import { type AuditActor, recordAudit } from '../audit';
import { lineAmountsSql, needsAllocation } from './amounts';
import { refreshTotals } from './import-totals';
import { getImportSummary } from './import-views';
import type { ParsedLine } from './parse-common';

/** A timestamp as Date#toISOString writes it (milliseconds, UTC), whichever driver reads it. */
const ISO_UTC = (value: SQL) => sql`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** What a line's identity takes from its file: the source, and a DSR's sender and period. */
export type IdentitySource = {
  format: RoyaltySourceFormat;
  sender: string | null;
  periodStart: string | null;
  periodEnd: string | null;
};

/**
 * The sale's identity before its ordinal (an md5 as 32 hex digits, which PostgreSQL reads as a uuid):
 * a DSR's SalesTransactionId with the sender and the report's period; a statement's own sale id with
 * the source and period; otherwise a fingerprint of source, store, period, territory, use type (the
 * parsers' usage type, which carries a DSR's commercial model), codes, usages and amount. Migration 0040
 * computes the same text in SQL for lines staged before it, so both must change together.
 */
export function lineIdentity(
  source: IdentitySource,
  line: ParsedLine,
  isrc: string | null,
  upc: string | null,
): string {
  let text: string;
  if (line.saleId && source.format === 'dsr') {
    text = `dsr|${source.sender ?? ''}|${source.periodStart ?? ''}..${source.periodEnd ?? ''}|${line.saleId}`;
  } else if (line.saleId) {
    text = `sale|${source.format}|${line.period ?? ''}|${line.saleId}`;
  } else {
    text = `fp|${source.format}|${line.store ?? ''}|${line.period ?? ''}|${line.country ?? ''}|${line.usageType ?? ''}|${isrc ?? ''}|${upc ?? ''}|${trimScale(line.units)}|${line.amount === null ? '' : trimScale(line.amount)}`;
  }
  return hash('md5', text);
}

/**
 * Identical lines of one file are different sales: the second of them gets the identity hashed with its
 * ordinal 2, the third with 3, and so on (in file order), so a later file repeating both matches both and
 * a file that adds a third identical line posts the third. Idempotent: after it no identity repeats.
 */
export async function numberIdenticalLines(db: DbOrTx, importId: string): Promise<void> {
  await run(
    db,
    sql`
      update royalty_import_lines l
         set line_identity = md5(l.line_identity::text || '#' || d.ordinal)::uuid
        from (
          select line_no, row_number() over (partition by line_identity order by line_no) as ordinal
            from royalty_import_lines
           where import_id = ${importId}
             and line_identity in (
               select line_identity from royalty_import_lines where import_id = ${importId}
                group by line_identity having count(*) > 1)
        ) d
       where l.import_id = ${importId} and l.line_no = d.line_no and d.ordinal > 1`,
  );
}

/**
 * Marks the import's lines whose identity another report has posted (posted_in = that report) and keeps
 * the count and amount per report on the import. Run after staging and again when posting found a line
 * posted meanwhile. An earlier inclusion (the lines now carry identities of their own) is kept.
 */
export async function markOverlap(db: DbOrTx, importId: string): Promise<ImportOverlap | null> {
  await run(
    db,
    sql`update royalty_import_lines set posted_in = null where import_id = ${importId} and posted_in is not null`,
  );
  const [marked] = await rows<{ lines: number | string }>(
    db,
    sql`
      with marked as (
        update royalty_import_lines l set posted_in = p.import_id
          from royalty_posted_lines p
         where l.import_id = ${importId} and p.line_identity = l.line_identity and p.import_id <> ${importId}
        returning 1
      )
      select count(*) as lines from marked`,
  );
  // No line marked (a new report, as most are): none is left out, and the lines need no second scan.
  const reports = Number(marked?.lines ?? 0) === 0 ? [] : await overlapReports(db, importId);
  const [current] = await db
    .select({ overlap: royaltyImports.overlap })
    .from(royaltyImports)
    .where(eq(royaltyImports.id, importId));
  const included = current?.overlap?.included ?? null;
  const overlap: ImportOverlap | null =
    reports.length === 0 && !included
      ? null
      : {
          lines: reports.reduce((sum, report) => sum + Number(report.lines), 0),
          amount: sumDecimals(reports.map((report) => report.amount)),
          reports: reports.map((report) => ({
            importId: report.importId,
            fileName: report.fileName,
            postedAt: report.postedAt,
            lines: Number(report.lines),
            amount: report.amount,
          })),
          included,
        };
  await db.update(royaltyImports).set({ overlap }).where(eq(royaltyImports.id, importId));
  return overlap;
}

/** The reports that posted lines of this import before it (posted_in), with their lines and amount. */
async function overlapReports(db: DbOrTx, importId: string) {
  return rows<{
    importId: string;
    fileName: string;
    postedAt: string | null;
    lines: number | string;
    amount: string;
  }>(
    db,
    sql`
      select o.import_id, i.file_name, ${ISO_UTC(sql`i.posted_at`)} as posted_at, o.lines, o.amount
        from (
          select l.posted_in as import_id, count(*) as lines, trim_scale(sum(l.line_amount))::text as amount
            from (${lineAmountsSql(importId, await needsAllocation(db, importId), true)}) l
           where l.posted_in is not null
           group by l.posted_in
        ) o
        join royalty_imports i on i.id = o.import_id
       order by i.posted_at, i.file_name`,
  );
}

/**
 * The admin's explicit inclusion of lines already posted by other reports (decision 186): each such line
 * gets an identity of its own (its identity hashed with this report's id), so the posting takes it and
 * royalty_posted_lines still refuses any other repeat. Only while the report is ready to post; audited.
 */
export async function includeOverlap(db: Db, actor: AuditActor, importId: string): Promise<ImportSummary> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        status: royaltyImports.status,
        phase: royaltyImports.phase,
        fileName: royaltyImports.fileName,
        overlap: royaltyImports.overlap,
      })
      .from(royaltyImports)
      .where(eq(royaltyImports.id, importId))
      .for('update');
    if (!row) throw notFound('Import not found');
    if (row.status !== 'staged' || row.phase !== 'ready') {
      throw new AppError('not_includable', ROYALTY_TEXTS.overlapNotIncludable, 409);
    }
    const overlap = row.overlap;
    if (!overlap || overlap.lines === 0) {
      throw new AppError('nothing_to_include', ROYALTY_TEXTS.overlapNothingToInclude, 409);
    }
    await run(
      tx,
      sql`
        update royalty_import_lines
           set line_identity = md5(line_identity::text || '+' || import_id::text)::uuid, posted_in = null
         where import_id = ${importId} and posted_in is not null`,
    );
    const who = 'user' in actor ? actor.user.email : actor.email;
    const at = await firstRow<{ now: string }>(tx, sql`select ${ISO_UTC(sql`now()`)} as now`);
    const included = {
      lines: overlap.lines + (overlap.included?.lines ?? 0),
      amount: sumDecimals([overlap.amount, overlap.included?.amount ?? '0']),
      at: at?.now ?? new Date().toISOString(),
      by: who,
    };
    await tx
      .update(royaltyImports)
      .set({ overlap: { lines: 0, amount: '0', reports: [], included } })
      .where(eq(royaltyImports.id, importId));
    await recordAudit(tx, actor, {
      kind: 'royalties.overlap_override',
      subject: { type: 'royalty_report', id: importId, label: row.fileName },
      before: {
        alreadyPosted: {
          lines: overlap.lines,
          amount: overlap.amount,
          reports: overlap.reports.map((report) => ({
            fileName: report.fileName,
            postedAt: report.postedAt,
            lines: report.lines,
            amount: report.amount,
          })),
        },
      },
      after: { included: { lines: overlap.lines, amount: overlap.amount } },
    });
  });
  await refreshTotals(db, importId);
  return getImportSummary(db, importId);
}
