/**
 * The statement worker thread's entry (record 208): composes a statement from the rows statement.ts read and
 * renders what the request asked for (the page's summary, the CSV or the PDF), off the request's event loop.
 * No database here: the rows come in, the answer goes back. Bundled as dist/statement-worker.js by
 * build.mjs; run from source (tests, tsx) through tsx's loader.
 */
import type { RoyaltyStatement } from '@tunedrop/shared/schemas/royalty-statements';
import type { ExpenseStatementRelease } from '../splits';
import { composeStatement, type StatementData, statementSummary } from './statement-compose';
import { statementCsvText } from './statement-csv';
import { statementPdfBytes } from './statement-pdf';

export type StatementJob =
  | { kind: 'summary'; data: StatementData }
  | { kind: 'csv'; data: StatementData; expenses: ExpenseStatementRelease[] }
  | { kind: 'pdf'; data: StatementData; expenses: ExpenseStatementRelease[]; productName: string };

export type StatementOutput<Job extends StatementJob> = Job extends { kind: 'summary' }
  ? RoyaltyStatement
  : Job extends { kind: 'csv' }
    ? string
    : Uint8Array<ArrayBuffer>;

export default async function renderStatementJob(job: StatementJob): Promise<StatementOutput<StatementJob>> {
  const statement = composeStatement(job.data);
  switch (job.kind) {
    case 'summary':
      return statementSummary(statement);
    case 'csv':
      return statementCsvText(statement, job.expenses);
    case 'pdf': {
      const pdf = await statementPdfBytes(statement, job.expenses, job.productName);
      // A view of its own bytes: cloned to the request's thread without the rest of Node's buffer pool.
      return new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength).slice();
    }
  }
}
