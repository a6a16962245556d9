/**
 * Public entry of the royalties feature (a member's earnings ledger and statements): the two sections that
 * app/pages/royalties-page.tsx composes with the wallet, splits and tax features (issue 37: features never
 * import features, so a page that needs several is composed in app/).
 */
export { LedgerSection } from './components/ledger-section';
export { StatementsSection } from './components/statements-section';
