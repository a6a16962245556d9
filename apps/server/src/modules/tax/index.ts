/**
 * Tax (issue 38, record 270): the operator's regime and policy, the tax forms payees sign, treaty rates, and
 * the withholding decision the payouts module calls per payout line (`withholdingFor`, then
 * `recordWithholding` in the payout's journal transaction). Other modules use this front door only.
 */
export { invalidateTaxForm, signTaxForm } from './forms';
export { type InvoiceFor, issueSelfBillingInvoice } from './invoices';
export { readTaxSettings, saveTaxSettings } from './settings';
export { standingFacts, standingSummary } from './standing';
/** Forms as the interview sends them: fixtures for tests of other modules (payouts). */
export { w8benForm, w9Form } from './tax-fixtures';
export { listTreatyRates, treatyRateAt } from './treaty';
export {
  recordWithholding,
  reverseWithholding,
  territoryLinesFor,
  type WithholdingDecision,
  type WithholdingLine,
  type WithholdingLineInput,
  withholdingFor,
} from './withholding';
