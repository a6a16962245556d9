/**
 * Royalty posting (issue 36, record 250): a staged report onto the books (fee, suspense, splits, the
 * journal), the posting job, the imports list with each run's retry, and `royalties:import`, which imports
 * and may post. Reads the staged report through royalty-imports' index.ts; knows nothing of statements.
 */
export { royaltiesCliCommands } from './cli';
export { readAccountFee, readFeeSettings, saveAccountFee, saveFeeSettings } from './fees';
export { postJob } from './jobs';
export { postImport, runPosting } from './posting';
export { postingFigures } from './posting-figures';
export { royaltiesRoutes } from './routes';
