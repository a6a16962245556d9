/** Public entry of the support feature: what the app's composed admin pages use. */
export { AdminSupportMessages } from './components/admin-support-messages';
export { SupportSettingsCard } from './components/support-settings-card';
