/** Billing helpers for the journeys: a sandbox subscription made through the API, as Pay would. */
import { expect, type Page } from '@playwright/test';

/** Starts a sandbox checkout for the page's signed-in user and pays it; the account is then active. */
export async function subscribeInSandbox(page: Page, plan: 'basic' | 'pro'): Promise<void> {
  const checkout = await page.request.post('/api/billing/create-checkout', {
    data: { plan, successUrl: '/dashboard?success=true', cancelUrl: '/dashboard/account?canceled=true' },
  });
  expect(checkout.status()).toBe(200);
  const { url } = (await checkout.json()) as { url: string };
  const id = new URL(url).pathname.split('/').pop();
  const pay = await page.request.post(`/api/billing/sandbox/checkouts/${id}/pay`);
  expect(pay.status()).toBe(200);
}

/** The first link of a mail file, undoing quoted-printable soft breaks and escapes. */
export function firstLink(eml: string): string {
  const decoded = eml
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  const link = decoded.match(/https?:\/\/[^\s"<>]+/)?.[0];
  if (!link) throw new Error(`no link in mail:\n${eml}`);
  return link;
}

/** "June 12, 2026", as the billing screens write dates. */
export function longDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}
