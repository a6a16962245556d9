/**
 * Statements (issue 36, record 250): the artist's ledger and monthly statements (compose, CSV, PDF, their
 * worker threads) read from posting's results (the balance log, earnings, fees); nothing here writes money.
 * Routes are mounted by app.ts; the worker's entry is built by build.mjs.
 */
export { statementsRoutes } from './routes';
export { readStatementIssuer } from './statement-issuer';
// The PDF text helpers (embedded fonts for any script): tax forms and invoices draw with them too (issue 38).
export { drawLine, registerStatementFonts, type TextWeight, textFontName } from './statement-text';
