/** Public entry of the finance feature (record 189): the fees card that app/pages/admin-settings-page.tsx composes. */
export { FeeSettingsCard } from './components/fee-settings-card';
