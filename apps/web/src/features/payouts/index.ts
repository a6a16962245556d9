/**
 * Public entry of the payouts feature (issue 38): the artist's overview and history for the Payouts page,
 * the admin's payout settings card for /admin/settings; the admin run pages are routes of their own.
 */
export { usePayouts } from './api/payouts';
export { AdminPayoutSettingsCard } from './components/admin-payout-settings-card';
export type { PayoutsPageData } from './components/payout-history';
export { PayoutHistory } from './components/payout-history';
export { PayoutsOverview } from './components/payouts-overview';
export { StripeConnectCard } from './components/stripe-connect-card';
