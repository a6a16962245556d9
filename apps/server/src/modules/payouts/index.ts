/**
 * Payouts' front door (issue 38, record 267). Its routes, jobs, job handlers and CLI are wired by the
 * composition roots; the tax module reads payout_items through db/schema. The journeys' fixtures plan a
 * run of one seeded account, as the monthly run would pay it, and send one killed after the provider answered.
 */
export { startPayoutRun } from './run-plan';
export { recordSendError, sendPayoutRun } from './run-send';
export { withholdingFor } from './withholding';
