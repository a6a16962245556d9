/** Public entry of the splits feature: what other features may use. */
export { PayeeShares } from './components/payee-shares';
export { ReleaseSplitsSection } from './components/release-splits';
