/**
 * The splits module's front door (royalty splits, their invitations and expenses): what posting, statements
 * and team ask of it. Posting applies a release's splits under the splits lock and returns held shares;
 * statements read the expense rows; team invitations share the split invitations' sending limits and mail
 * layout (record 202). Its routes are wired by app.ts.
 */

export { secondsUntilRoom } from './invitation-limits';
export { quoted } from './mails';
export { applySplits, lockSplitsForPosting, returnWithdrawnHolds } from './posting';
export { type ExpenseStatementRelease, expenseStatementRows } from './statement';
