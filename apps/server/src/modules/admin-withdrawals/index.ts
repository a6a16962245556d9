/**
 * Admin withdrawals' front door: an admin approves or rejects a member's withdrawal request (the refund
 * goes back through the wallet's one balance path). Its routes are wired by app.ts.
 */
export { approveWithdrawal, rejectWithdrawal } from './service';
