/** Public entry of the admin royalty feature: what the app's composed admin pages use. */
export { StatementIssuerCard } from './components/statement-issuer-card';
