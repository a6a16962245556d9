/** Dates of the billing screens, written out in full ("June 12, 2026"). */
export function formatBillingDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}
