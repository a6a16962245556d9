/**
 * After staging: the report's own totals checked against its lines (summaries, duplicates, period,
 * currency and rate, the size bound of decision 152), overlap, totals and warnings. The caller runs it in
 * the checking phase's one transaction and marks the import staged or failed in it (record 220).
 */
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { royaltyImportSummaries, royaltyImports } from '../../db/schema';
import { rows, run } from '../../lib/sql';
import { refreshTotals } from './import-totals';
import { markOverlap, numberIdenticalLines } from './overlap';
import { isoDate, type ParseReport } from './parse-common';
import { rateChecks } from './report-rate';
import { refreshWarnings } from './report-warnings';
import type { AmountTally } from './stage-rows';

/** Checks a read import; returns the status the caller writes with the phase that ends the checks. */
export async function finishImport(
  db: DbOrTx,
  importId: string,
  report: ParseReport,
  input: { rate?: string | undefined; currency?: string | undefined },
  presetCurrency: string | null,
  tally: AmountTally,
  /**
   * Staging's finding (record 207): false when no two lines share an identity, so neither repeated
   * SalesTransactionIds nor identical lines can be found in SQL and those passes are skipped.
   */
  staged: { identitiesMayRepeat: boolean } = { identitiesMayRepeat: true },
): Promise<'staged' | 'failed'> {
  // Fresh statistics: the checks and sums below plan hash joins and aggregates, not nested loops.
  await run(db, sql`analyze royalty_import_lines`);
  // A run of an older release could commit the summaries before it was killed (record 220).
  await run(db, sql`delete from royalty_import_summaries where import_id = ${importId}`);
  if (report.summaries.size > 0) {
    await db.insert(royaltyImportSummaries).values(
      [...report.summaries.values()].map((summary) => ({
        importId,
        summaryId: summary.id,
        netRevenue: summary.netRevenue,
        usages: summary.usages,
      })),
    );
    const checks = await rows<{
      summaryId: string;
      netRevenue: string;
      usages: string | null;
      lineUnits: string;
      lines: number | string;
      hasWeight: boolean;
    }>(
      db,
      sql`
        select s.summary_id, s.net_revenue::text, s.usages::text,
               trim_scale(coalesce(l.line_units, 0))::text as line_units, coalesce(l.lines, 0) as lines,
               coalesce(l.has_weight, false) as has_weight
          from royalty_import_summaries s
          left join (
            select summary_id, sum(units) as line_units, count(*) as lines,
                   bool_or(royalty_bearing and units > 0) as has_weight
              from royalty_import_lines
             where import_id = ${importId} and summary_id is not null
             group by summary_id
          ) l on l.summary_id = s.summary_id
         where s.import_id = ${importId}
         order by s.summary_id`,
    );
    const allocates = checks.some((check) => Number(check.lines) > 0);
    if (allocates) {
      for (const check of checks) {
        const line = report.summaries.get(check.summaryId)?.line;
        if (check.usages !== null && Number(check.usages) !== Number(check.lineUnits)) {
          report.errors.push(
            `Line ${line}: summary ${check.summaryId} declares ${check.usages} usages but its sales lines add up to ${check.lineUnits}; the totals do not match.`,
          );
        } else if (!check.hasWeight && Number(check.netRevenue) !== 0) {
          report.errors.push(
            `Line ${line}: summary ${check.summaryId} has revenue ${check.netRevenue} but no royalty-bearing usages to share it.`,
          );
        }
      }
    }
    // A DSR line's identity is its SalesTransactionId with the report's sender and period (record 186).
    if (report.format === 'dsr' && staged.identitiesMayRepeat) {
      const duplicates = await rows<{ lineKey: string; firstLine: number; count: number | string }>(
        db,
        sql`
          select line_key, min(line_no) as first_line, count(*) as count
            from royalty_import_lines where import_id = ${importId}
           group by line_key having count(*) > 1 order by min(line_no) limit 5`,
      );
      for (const duplicate of duplicates) {
        report.errors.push(
          `Line ${duplicate.firstLine}: SalesTransactionId ${duplicate.lineKey.split('/').pop()} appears ${duplicate.count} times; a sale is never counted twice.`,
        );
      }
    }
  }
  if (!report.periodStart) {
    // Statements give a period per line: the report covers the first to the last of them.
    const [span] = await rows<{ first: string | null; last: string | null }>(
      db,
      sql`
        select min(period) as first, max(period) as last
          from royalty_import_lines where import_id = ${importId}`,
    );
    if (span?.first && span.last) {
      report.periodStart = isoDate(span.first, false);
      report.periodEnd = isoDate(span.last, true);
    }
  }
  if (report.lineCount === 0 && report.errors.length === 0) {
    report.errors.push(
      report.refusedCount > 0
        ? 'No sales line could be read; see the refused lines.'
        : 'The file has no sales lines.',
    );
  }
  const currency = report.currency ?? input.currency ?? presetCurrency;
  // The currency and rate checks are shared with a rate set later on the staged report (report-rate.ts).
  const checked = rateChecks(currency, input.rate, tally);
  const rate = checked.rate;
  report.errors.push(...checked.errors);
  report.warnings.push(...checked.warnings);
  if (report.refusedCount > 0 && report.errors.length === 0) {
    report.warnings.push(`${report.refusedCount} line(s) were refused and will not be posted.`);
  }
  // The status is written by the caller with the phase, last: 'staged' before the checks are done is
  // what left a killed import unfinishable (issue 43 finding 2).
  await db
    .update(royaltyImports)
    .set({
      currency,
      exchangeRate: rate,
      sender: report.sender,
      messageId: report.messageId,
      fileNumber: report.fileNumber,
      periodStart: report.periodStart,
      periodEnd: report.periodEnd,
      lineCount: report.lineCount,
      refusedCount: report.refusedCount,
      errors: report.errors,
      warnings: report.warnings,
      refused: report.refused,
    })
    .where(eq(royaltyImports.id, importId));
  // Overlap protection (decision 186): ordinals for identical lines, then the lines another report posted.
  if (staged.identitiesMayRepeat) await numberIdenticalLines(db, importId);
  await markOverlap(db, importId);
  await refreshTotals(db, importId);
  await refreshWarnings(db, importId);
  return report.errors.length > 0 ? 'failed' : 'staged';
}
