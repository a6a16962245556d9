/**
 * Royalty imports (issue 36, record 250): a sales report's file → detect → parse → stage, the code
 * mappings, the report's checks, warnings and rate. The import job is the one way a report is read; the
 * upload and the CLI enqueue it (the CLI may run it inline). Nothing here imports posting or statements:
 * posting reads the staged report through this entry (and the royalty_import_lines table).
 */
export { lineAmountsSql, needsAllocation } from './amounts';
export { isPostgres } from './copy-in';
export { constraintOf, sqlState } from './database-error';
export { refreshTotals } from './import-totals';
export { getImportSummary, type ImportRow, listImports, progressOf } from './import-views';
export { importJob } from './jobs';
export { assignCode } from './mappings';
export { markOverlap } from './overlap';
export { normaliseIsrc, normaliseUpc } from './parse-common';
export { auditReport, reportFigures } from './report-audit';
export { royaltyChecksRoutes } from './report-checks-routes';
export { detectCurrency, presetLayout } from './report-currency';
export { refuseOpenWarnings } from './report-warnings';
export { royaltyImportsRoutes } from './routes';
export {
  type ImportStep,
  importRoyaltyFile,
  queueImport,
  queueLocalFile,
  runImport,
  UNFINISHED_PHASES,
} from './service';
export { readLimitsOf } from './source';
