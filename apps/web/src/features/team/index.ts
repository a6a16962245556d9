/** Public entry of the team feature: what the app's layouts may use. */
export { AccountSwitcher } from './components/account-switcher';
