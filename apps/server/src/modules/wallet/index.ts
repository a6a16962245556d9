/**
 * The wallet's front door: what other modules ask of it. Balance changes (one path for every movement of a
 * member's balance, record 070, written to the journal), who is a payee, withdrawals (requested here,
 * decided by admin-withdrawals), the payment details' encryption and the balance audit of the CLI. Its
 * routes are wired by the composition root.
 */
export { auditBalances, type BalanceMismatch, describeMismatch } from './audit';
export {
  applyBalanceChange,
  applyBalanceChanges,
  type BalanceChange,
  leavePendingBalance,
  lockProfile,
  releasePending,
  setBalanceByCli,
} from './balance';
export { IS_PAYEE_CONDITION, isPayee, isPayeeSql } from './payees';
export { decryptPaymentDetails } from './payment-crypto';
export {
  type Actor,
  cancelWithdrawal,
  leavePending,
  listWithdrawals,
  type MoneyActor,
  minimumPayoutCents,
  requestWithdrawal,
  savePaymentSettings,
  savePayoutDetails,
  summaryWithoutDetails,
  type WithdrawalRow,
} from './service';
