/**
 * Label contracts (issue 39, record 285): contracts, their ordered terms and the posting's contract step.
 * Posting calls `applyContracts` inside its settling transaction; the admin routes are wired by app.ts.
 */
export { applyContracts } from './apply';
export { releaseDueReserves, reserveSummary } from './reserves';
export { listContracts, readContract, saveContract } from './service';
