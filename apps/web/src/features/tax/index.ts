/**
 * Public entry of the tax feature (issue 38): the account's tax form section (status and interview) for the
 * Royalties and Payouts pages, and the admin's tax card on /admin/settings.
 */
export { AdminTaxCard } from './components/admin-tax-card';
export { TaxFormSection } from './components/tax-form-section';
