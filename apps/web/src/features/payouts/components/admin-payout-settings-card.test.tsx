/**
 * Admin Settings → Payouts against mocked API answers (issue 38): each provider shows its own credential
 * fields and saves under its own name (Stripe Connect showed PayPal's form and saved as PayPal), and an
 * empty key field keeps the saved credentials.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ProviderSettingsView } from '@tunedrop/shared/schemas/payouts';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { getJson, server } from '../../../test-support/api-mock';
import { renderRoute } from '../../../test-support/render-route';
import { AdminPayoutSettingsCard } from './admin-payout-settings-card';

const view = (provider: ProviderSettingsView['provider'], saved = false): ProviderSettingsView => ({
  provider,
  enabled: saved,
  hasCredentials: saved,
  credentialsHint: saved ? '…1234' : null,
  baseUrl: null,
  lastTest: null,
});

function answerSettings(saves: unknown[]) {
  server.use(
    getJson('/admin/payouts/settings', {
      providers: [view('bank-csv'), view('paypal', true), view('stripe'), view('wise')],
      schedule: { scheduleDay: 5, withdrawalMode: 'next_run' },
    }),
    http.put('*/api/admin/payouts/providers', async ({ request }) => {
      saves.push(await request.json());
      return HttpResponse.json({ ok: true });
    }),
  );
}

describe('admin payout settings', () => {
  it('gives Stripe Connect its own fields and saves them as Stripe', async () => {
    const saves: unknown[] = [];
    answerSettings(saves);
    renderRoute(<AdminPayoutSettingsCard />);
    const stripe = within(await screen.findByTestId('provider-stripe'));
    expect(stripe.queryByLabelText('Client ID')).toBeNull();
    const user = userEvent.setup();
    await user.click(stripe.getByLabelText('Pay Stripe payees through Stripe Connect'));
    await user.type(stripe.getByLabelText('Secret key'), 'sk_test_abc');
    await user.type(stripe.getByLabelText('Webhook signing secret'), 'whsec_one');
    await user.click(stripe.getByRole('button', { name: 'Save Stripe settings' }));
    await expect.poll(() => saves.length).toBe(1);
    expect(saves[0]).toEqual({
      provider: 'stripe',
      enabled: true,
      credentials: { secretKey: 'sk_test_abc', webhookSecret: 'whsec_one', connectWebhookSecret: '' },
    });
    expect((stripe.getByLabelText('Secret key') as HTMLInputElement).value).toBe('');
  });

  it("refuses a key Stripe would not issue with the schema's words, and sends nothing", async () => {
    const saves: unknown[] = [];
    answerSettings(saves);
    renderRoute(<AdminPayoutSettingsCard />);
    const stripe = within(await screen.findByTestId('provider-stripe'));
    const user = userEvent.setup();
    await user.type(stripe.getByLabelText('Secret key'), 'pk_live_public');
    await user.click(stripe.getByRole('button', { name: 'Save Stripe settings' }));
    expect((await stripe.findByRole('alert')).textContent).toBe(
      'A Stripe secret key starts with sk_ (or rk_ for a restricted key)',
    );
    expect(saves).toEqual([]);
  });

  it('keeps saved PayPal credentials when the key fields stay empty, and says so', async () => {
    const saves: unknown[] = [];
    answerSettings(saves);
    renderRoute(<AdminPayoutSettingsCard />);
    const paypal = within(await screen.findByTestId('provider-paypal'));
    expect(paypal.getByText('Leave both empty to keep the saved credentials.')).toBeTruthy();
    const user = userEvent.setup();
    await user.type(paypal.getByLabelText('API base URL'), 'http://127.0.0.1:9999');
    await user.click(paypal.getByRole('button', { name: 'Save PayPal settings' }));
    await expect.poll(() => saves.length).toBe(1);
    expect(saves[0]).toEqual({ provider: 'paypal', enabled: true, baseUrl: 'http://127.0.0.1:9999' });
  });

  it("shows Wise's funding note and its public-key field", async () => {
    answerSettings([]);
    renderRoute(<AdminPayoutSettingsCard />);
    const wise = within(await screen.findByTestId('provider-wise'));
    expect(wise.getByText(/fund it in Wise/)).toBeTruthy();
    expect(wise.getByLabelText('Webhook public key (PEM)').tagName).toBe('TEXTAREA');
    expect(wise.getByLabelText('Profile ID').getAttribute('inputmode')).toBe('numeric');
  });
});
