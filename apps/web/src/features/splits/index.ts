/** Public entry of the splits feature: what app/pages composes (the release page, Royalties and Wallet). */
export { PayeeShares } from './components/payee-shares';
export { ReleaseSplitsSection } from './components/release-splits';
