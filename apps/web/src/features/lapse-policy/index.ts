/** Public entry of the lapsed-accounts feature: the card on /admin/settings (record 196). */
export { LapsePolicyCard } from './components/lapse-policy-card';
