/** Public entry of the wallet feature (balances, payment details, withdrawals): what app/pages composes. */
export { useWallet } from './api/wallet';
export { BalanceCards } from './components/balance-cards';
export { ConfirmPayoutDetailsCard } from './components/confirm-payout-details-card';
export { MinimumWithdrawal } from './components/minimum-withdrawal';
export { PayeeSettingsCard } from './components/payee-settings-card';
export { PaymentSettingsForm } from './components/payment-settings-form';
export { PendingPayoutDetailsNotice } from './components/pending-payout-details';
export { PendingRequests } from './components/pending-requests';
export { WithdrawalDialog } from './components/withdrawal-dialog';
