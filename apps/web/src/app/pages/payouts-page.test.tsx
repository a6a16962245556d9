/**
 * The artist's Payouts page against mocked API answers (issue 38): with nothing paid yet it says so and
 * names what stops the next payout; with payouts it shows each one's state in plain words with the
 * provider's reference; the payment form only for a role that may change it; a failed read said so.
 */
import { screen, within } from '@testing-library/react';
import type { MeResponse } from '@tunedrop/shared';
import type { PayoutItemView } from '@tunedrop/shared/schemas/payouts';
import { DEFAULT_TAX_SETTINGS, type TaxStanding } from '@tunedrop/shared/schemas/tax';
import type { AccountRole } from '@tunedrop/shared/schemas/team-roles';
import type { WalletSummary } from '@tunedrop/shared/schemas/wallet';
import { describe, expect, it } from 'vitest';
import type { PayoutsPageData } from '../../features/payouts';
import { getError, getJson, server } from '../../test-support/api-mock';
import { renderRoute } from '../../test-support/render-route';
import PayoutsPage from './payouts-page';

const viewer = (role: AccountRole): MeResponse => ({
  user: { id: 'u1', email: 'ada@example.com', name: 'Ada', emailVerified: true, twoFactorEnabled: false },
  profile: {
    plan: 'pro',
    fullName: 'Ada Artist',
    artistName: 'Ada',
    banned: false,
    banReason: null,
    subscriptionStatus: 'active',
    subscriptionEnd: null,
  },
  roles: [],
  isPayee: false,
  account: { id: 'a1', role },
});

const wallet: WalletSummary = {
  balanceCents: 0,
  totalEarningsCents: 500_000,
  pendingBalanceCents: 0,
  minimumWithdrawalCents: 2_000,
  plan: 'pro',
  hasProMinimum: true,
  isPayee: false,
  paymentMethod: null,
  paymentDetails: null,
  pendingRequests: [],
  payoutHoldUntil: null,
};
const taxStanding: { standing: TaxStanding; settings: typeof DEFAULT_TAX_SETTINGS } = {
  standing: { state: 'none', summary: 'No tax form on file.', form: null },
  settings: DEFAULT_TAX_SETTINGS,
};
const empty: PayoutsPageData = {
  method: null,
  schedule: { scheduleDay: 5, withdrawalMode: 'next_run' },
  nextRunDate: '2026-12-05',
  balanceCents: 4_200,
  minimumCents: 2_000,
  blockers: ['No payout details: add a payout method on the Payouts page.'],
  next: null,
  payouts: [],
};
const item = (state: PayoutItemView['state'], extra: Partial<PayoutItemView> = {}): PayoutItemView => ({
  id: `item-${state}`,
  runId: 'run-1',
  accountId: 'a1',
  email: 'ada@example.com',
  provider: 'paypal',
  awaitingFunding: false,
  state,
  grossCents: 10_000,
  withheldCents: 3_000,
  netCents: 7_000,
  withholding: 'no valid W-8 30%',
  blockedReason: null,
  providerReference: null,
  providerStatus: null,
  createdAt: '2026-11-05T10:00:00.000Z',
  sentAt: null,
  paidAt: null,
  returnedAt: null,
  returnReason: null,
  ...extra,
});

function answer(role: AccountRole, payouts: PayoutsPageData) {
  server.use(
    getJson('/me', viewer(role)),
    getJson('/wallet', wallet),
    getJson('/tax/standing', taxStanding),
    getJson('/payouts', payouts),
    getJson('/payouts/stripe', {
      isOffered: true,
      accountHint: null,
      detailsSubmitted: false,
      canReceiveTransfers: false,
      payoutsEnabled: false,
      isComplete: false,
      isMethod: false,
    }),
  );
}

describe('Payouts', () => {
  it('says nothing was paid yet and names what stops the next payout', async () => {
    answer('owner', empty);
    renderRoute(<PayoutsPage />);
    expect((await screen.findByTestId('payouts-empty')).textContent).toBe(
      'No payouts yet. Each payout appears here once a payout run pays your balance.',
    );
    expect(screen.getByTestId('payout-blockers').textContent).toContain(
      'No payout details: add a payout method on the Payouts page.',
    );
    expect(screen.getByTestId('next-run').textContent).toBe('December 5, 2026');
    expect(screen.getByTestId('payout-method').textContent).toBe(
      'None yet: add one under Payment Settings below.',
    );
    expect(await screen.findByRole('button', { name: 'Save Payment Information' })).toBeTruthy();
    // The operator offers Stripe: the owner can connect an account.
    expect(await screen.findByRole('button', { name: 'Connect with Stripe' })).toBeTruthy();
    expect(screen.getByTestId('stripe-onboarding-status').textContent).toBe('Not connected yet.');
  });

  it("shows the next payout's figures and each payout's state with its reference", async () => {
    answer('viewer', {
      ...empty,
      method: 'paypal',
      nextRunDate: null,
      blockers: [],
      next: { grossCents: 4_200, withheldCents: 1_260, netCents: 2_940, withholding: 'no valid W-8 30%' },
      payouts: [
        item('returned', { returnReason: 'PayPal: failed', providerReference: 'PAYPALITEM2' }),
        item('paid', { paidAt: '2026-10-07T10:00:00.000Z', providerReference: 'PAYPALITEM1' }),
        item('blocked', { id: 'b', provider: null, blockedReason: 'No Form W-9 on file.' }),
      ],
    });
    renderRoute(<PayoutsPage />);
    expect((await screen.findByTestId('next-payout')).textContent).toContain(
      '$42.00 from your balance, less $12.60 US tax withheld: you receive $29.40.',
    );
    expect(screen.getByTestId('next-run').textContent).toBe(
      'Not scheduled: payouts are sent when the operator runs them.',
    );
    const rows = screen.getAllByTestId('payout-row');
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]?.textContent)).toEqual([
      'ReturnedReturned (PayPal: failed): the money is back on your balance and goes out with the next payout.',
      'PaidPaid on Oct 7, 2026.',
      'BlockedNo Form W-9 on file.',
    ]);
    expect(rows[0]?.textContent).toContain('PAYPALITEM2');
    expect(rows[2]?.textContent).toContain('run-1:a1');
    // A viewer reads payouts but does not change where the money goes (record 205).
    await screen.findByTestId('tax-standing');
    expect(screen.queryByRole('button', { name: 'Save Payment Information' })).toBeNull();
  });

  it('says new payout details wait for the owner’s email confirmation, with Resend; a link opens Confirm', async () => {
    answer('finance', empty);
    server.use(
      getJson('/wallet', {
        ...wallet,
        paymentMethod: 'bank',
        paymentDetails: {
          method: 'bank',
          accountName: 'Ada Artist',
          accountNumber: '•••• 6789',
          routingNumber: '•••• 0021',
          bankName: 'First Bank',
        },
        pendingPaymentDetails: {
          details: { method: 'paypal', paypalEmail: 'a•••@example.com' },
          requestedAt: '2026-11-29T10:00:00.000Z',
          linkExpiresAt: '2099-01-01T00:00:00.000Z',
          sentTo: 'o•••@example.com',
        },
      }),
    );
    const { unmount } = renderRoute(<PayoutsPage />);
    const notice = await screen.findByTestId('pending-payout-details');
    expect(notice.textContent).toContain(
      'We emailed a confirmation link to the account owner at o•••@example.com',
    );
    expect(notice.textContent).toContain('until it is opened, payouts still go to Bank account');
    expect(within(notice).getByRole('button', { name: 'Resend' })).toBeTruthy();
    unmount();

    renderRoute(<PayoutsPage />, { path: '/?confirm=abc' });
    const card = await screen.findByTestId('confirm-payout-details');
    expect(within(card).getByRole('button', { name: 'Confirm new payout details' })).toBeTruthy();
    expect(screen.queryByTestId('pending-payout-details')).toBeNull();
  });

  it('tells the owner the link went to them', async () => {
    answer('owner', empty);
    server.use(
      getJson('/wallet', {
        ...wallet,
        paymentMethod: 'bank',
        paymentDetails: {
          method: 'bank',
          accountName: 'Ada Artist',
          accountNumber: '•••• 6789',
          routingNumber: '•••• 0021',
          bankName: 'First Bank',
        },
        pendingPaymentDetails: {
          details: { method: 'paypal', paypalEmail: 'a•••@example.com' },
          requestedAt: '2026-11-29T10:00:00.000Z',
          linkExpiresAt: '2099-01-01T00:00:00.000Z',
          sentTo: 'o•••@example.com',
        },
      }),
    );
    renderRoute(<PayoutsPage />);
    const notice = await screen.findByTestId('pending-payout-details');
    expect(notice.textContent).toContain('We emailed a confirmation link to you at o•••@example.com');
  });

  it('says the payouts could not be loaded, with a way to try again', async () => {
    answer('owner', empty);
    server.use(getError('/payouts', 500, 'internal', 'Something went wrong'));
    renderRoute(<PayoutsPage />);
    expect((await screen.findByRole('alert')).textContent).toContain('Your payouts could not be loaded.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
