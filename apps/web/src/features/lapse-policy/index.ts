/**
 * Public entry of the lapsed-accounts feature: the card on /admin/settings (record 196), and where a lapsed
 * account's releases stand, for the dashboard's banner (issue 44).
 */
export { useLapseStanding } from './api/lapse-standing';
export { LapsePolicyCard } from './components/lapse-policy-card';
