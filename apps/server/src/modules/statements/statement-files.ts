/**
 * A statement as a file or as the page's summary (record 190), built off the request's event loop (record
 * 208): the queries run here, the composing and rendering in a statement worker thread (statement-threads.ts).
 * Each returns null when the account's balance did not change that month.
 */
import type { RoyaltyStatement } from '@tunedrop/shared/schemas/royalty-statements';
import type { DbOrTx } from '../../db/client';
import { readProductName } from '../../lib/brand-name';
import { expenseStatementRows } from '../splits';
import { readStatementData } from './statement';
import { type StatementData, statementSalesPeriods } from './statement-compose';
import { runStatementJob } from './statement-threads';

type ArtistProfile = { id: string; name: string } | null | undefined;

/** Expenses repaid to shared releases' owners before this payee's shares (record 148), for each sales month. */
async function expensesOf(db: DbOrTx, userId: string, data: StatementData) {
  const periods = statementSalesPeriods(data);
  return (await Promise.all(periods.map((period) => expenseStatementRows(db, userId, period)))).flat();
}

export async function statementSummaryOf(
  db: DbOrTx,
  userId: string,
  period: string,
  artistProfile: ArtistProfile,
  threads?: number,
): Promise<RoyaltyStatement | null> {
  const data = await readStatementData(db, userId, period, artistProfile);
  return data && runStatementJob({ kind: 'summary', data }, threads);
}

export async function statementCsv(
  db: DbOrTx,
  userId: string,
  period: string,
  artistProfile?: ArtistProfile,
  threads?: number,
): Promise<string | null> {
  const data = await readStatementData(db, userId, period, artistProfile);
  if (!data) return null;
  return runStatementJob({ kind: 'csv', data, expenses: await expensesOf(db, userId, data) }, threads);
}

export async function statementPdf(
  db: DbOrTx,
  userId: string,
  period: string,
  artistProfile?: ArtistProfile,
  threads?: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const data = await readStatementData(db, userId, period, artistProfile);
  if (!data) return null;
  const [expenses, productName] = await Promise.all([expensesOf(db, userId, data), readProductName(db)]);
  return runStatementJob({ kind: 'pdf', data, expenses, productName }, threads);
}
