/** Public entry of the auth feature (accounts, sign-in, 2FA): what other features and app/ may use. */
export { AccountSections } from './components/account-sections';
