/**
 * The finance module's front door: the operator's figures (liability, fees, the identities the books must
 * hold), which the CLI prints and checks (`finance`, record 189). Its routes are wired by app.ts.
 */
export { describeFinance, financeIdentities } from './overview';
