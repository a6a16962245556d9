/**
 * Label contracts (issue 39, record 285): contracts and their ordered terms.
 * the admin routes are wired by app.ts.
 */
export { listContracts, readContract, saveContract } from './service';
