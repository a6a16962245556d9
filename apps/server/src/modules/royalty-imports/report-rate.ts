/**
 * A report's currency and exchange rate (issue 25 finding 4, record 187): the checks finishImport runs at
 * the end of staging, and the rate set or changed on a staged report afterwards, which re-runs the same
 * checks so a report held only for its rate becomes ready to post without being imported again.
 */
import { canonicalDecimal } from '@tunedrop/shared/money';
import {
  exchangeRateSchema,
  type ImportSummary,
  ROYALTY_LIMITS,
  ROYALTY_TEXTS,
} from '@tunedrop/shared/schemas/royalties';
import { ROYALTY_CHECK_TEXTS } from '@tunedrop/shared/schemas/royalty-checks';
import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { royaltyImports } from '../../db/schema';
import { AppError, conflict, notFound } from '../../lib/errors';
import { rows } from '../../lib/sql';
import { type AuditActor, recordAudit } from '../audit';
import { constraintOf, sqlState } from './database-error';
import { getImportSummary } from './import-views';
import type { AmountTally } from './stage-rows';

const MAX_USD_TEXT = 'one report may carry at most';
const MISSING_CURRENCY = 'The report does not say its currency; give one.';

/** The errors and warnings of a report's currency and rate, and the rate to keep (null when there is none). */
export function rateChecks(
  currency: string | null,
  inputRate: string | undefined,
  tally: AmountTally,
): { rate: string | null; errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  let rate: string | null = null;
  if (!currency) errors.push(MISSING_CURRENCY);
  else if (currency === 'USD') {
    rate = '1';
    if (inputRate && canonicalDecimal(inputRate) !== '1') {
      warnings.push(`The report is in USD; the exchange rate ${inputRate} was ignored.`);
    }
  } else if (inputRate) {
    // The route and the CLI checked it already; the same rule holds for any other caller.
    const checked = exchangeRateSchema.safeParse(inputRate);
    if (checked.success) rate = canonicalDecimal(checked.data);
    else errors.push(`${checked.error.issues[0]?.message ?? 'The exchange rate is not valid'}.`);
  } else {
    errors.push(ROYALTY_CHECK_TEXTS.needsRate(currency));
  }
  const usdTotal = rate === null ? 0 : tally.absTotal * Number(rate);
  if (usdTotal > ROYALTY_LIMITS.maxReportUsd && tally.largest) {
    // Beyond this the cents of a posting would not fit the balance columns (decision 152).
    errors.push(
      `Line ${tally.largest.line}: the amount ${tally.largest.amount} ${currency} is part of a report whose amounts add up to about ${Math.round(usdTotal).toLocaleString('en-US')} USD; ${MAX_USD_TEXT} ${ROYALTY_LIMITS.maxReportUsd.toLocaleString('en-US')} USD.`,
    );
  }
  return { rate, errors, warnings };
}

/** Whether a stored error came from rateChecks (so a new rate replaces it). */
function isRateError(message: string, currency: string): boolean {
  return (
    message === ROYALTY_CHECK_TEXTS.needsRate(currency) ||
    message.startsWith('The exchange rate') ||
    message.includes(MAX_USD_TEXT)
  );
}

/** The staged amounts again (what staging tallied as it read them): line amounts and summary revenues. */
async function tallyOf(db: DbOrTx, importId: string): Promise<AmountTally> {
  const [found] = await rows<{ absTotal: string | null; line: number | null; amount: string | null }>(
    db,
    sql`
      with amounts as (
        select line_no as line, amount from royalty_import_lines
         where import_id = ${importId} and amount is not null
        union all
        select 0 as line, net_revenue as amount from royalty_import_summaries where import_id = ${importId}
      )
      select (select sum(abs(amount)) from amounts)::text as abs_total, l.line, l.amount::text as amount
        from (select 1) one
        left join (select line, amount from amounts order by abs(amount) desc limit 1) l on true`,
  );
  const amount = found?.amount ?? null;
  return {
    absTotal: Number(found?.absTotal ?? 0),
    largest: amount === null ? null : { line: found?.line ?? 0, amount, abs: Math.abs(Number(amount)) },
  };
}

/**
 * Sets or changes the exchange rate of a staged report (or one that failed only for its rate): the rate
 * checks run again, and the report is ready to post when no error is left. Audited.
 */
export async function setImportRate(
  db: Db,
  importId: string,
  rateText: string,
  actor: AuditActor,
): Promise<ImportSummary> {
  try {
    await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(royaltyImports)
        .where(eq(royaltyImports.id, importId))
        .for('update');
      if (!row) throw notFound('Import not found');
      const isSettable =
        (row.status === 'staged' && row.phase === 'ready') ||
        (row.status === 'failed' && row.phase === 'failed');
      if (!isSettable) throw conflict(ROYALTY_CHECK_TEXTS.rateNotSettable);
      if (!row.currency) throw conflict(ROYALTY_CHECK_TEXTS.rateUnknownCurrency);
      if (row.currency === 'USD') {
        throw new AppError('rate_not_needed', ROYALTY_CHECK_TEXTS.rateNotNeeded, 422, {
          rate: ROYALTY_CHECK_TEXTS.rateNotNeeded,
        });
      }
      const currency = row.currency;
      const checked = rateChecks(currency, rateText, await tallyOf(tx, importId));
      const errors = [...row.errors.filter((error) => !isRateError(error, currency)), ...checked.errors];
      const isReady = errors.length === 0;
      await tx
        .update(royaltyImports)
        .set({
          exchangeRate: checked.rate,
          errors,
          status: isReady ? 'staged' : 'failed',
          phase: isReady ? 'ready' : 'failed',
          progressAt: sql`now()`,
        })
        .where(eq(royaltyImports.id, importId));
      await recordAudit(tx, actor, {
        kind: 'royalties.rate_set',
        subject: { type: 'royalty_report', id: importId, label: row.fileName },
        before: { rate: row.exchangeRate, status: row.status },
        after: { rate: checked.rate, status: isReady ? 'staged' : 'failed' },
      });
    });
  } catch (error) {
    // The same file or DSR message was staged again meanwhile: it holds them now (decision 152).
    if (sqlState(error) === '23505' && constraintOf(error)?.startsWith('royalty_imports_')) {
      throw new AppError('already_imported', ROYALTY_TEXTS.alreadyImported, 409);
    }
    throw error;
  }
  return getImportSummary(db, importId);
}
