/** Public entry of the finance feature (record 189): what other features and pages may use. */
export { usePostingFigures } from './api/finance';
export { AccountFeeField } from './components/account-fee-field';
export { FeeSettingsCard } from './components/fee-settings-card';
export { PostingFiguresList, postingFiguresText } from './components/posting-figures';
