/**
 * Royalties and Wallet as an artist sees it, against mocked API answers: the balances and statements the
 * API gives, the withdrawal button only for a role that may use it (record 205), the minimum told to a team
 * member without the owner's plan (record 230), and a wallet that could not be read said so instead of a blank page.
 */

import { screen, within } from '@testing-library/react';
import type { ArtistProfileList } from '@tunedrop/shared/schemas/artist-profiles';
import type { LedgerResponse } from '@tunedrop/shared/schemas/royalties';
import type { StatementMonthsResponse } from '@tunedrop/shared/schemas/royalty-statements';
import type { PayeeSharesResponse } from '@tunedrop/shared/schemas/splits';
import { DEFAULT_TAX_SETTINGS, type TaxStanding } from '@tunedrop/shared/schemas/tax';
import type { AccountRole } from '@tunedrop/shared/schemas/team-roles';
import type { WalletSummary } from '@tunedrop/shared/schemas/wallet';
import { describe, expect, it } from 'vitest';
import { getError, getJson, server } from '../../test-support/api-mock';
import { renderRoute } from '../../test-support/render-route';
import { viewerOf } from '../../test-support/viewer';
import RoyaltiesPage from './royalties-page';

const viewer = (role: AccountRole) => viewerOf({ plan: 'pro', accountId: 'a1', role });

const wallet: WalletSummary = {
  balanceCents: 123_456,
  totalEarningsCents: 500_000,
  pendingBalanceCents: 2_500,
  minimumWithdrawalCents: 2_000,
  plan: 'pro',
  hasProMinimum: true,
  isPayee: false,
  paymentMethod: null,
  paymentDetails: null,
  pendingRequests: [],
  payoutHoldUntil: null,
};
const statements: StatementMonthsResponse = {
  items: [{ period: '2026-09', openingCents: 0, closingCents: 123_456, amountCents: 123_456, lines: 42 }],
};
const ledger: LedgerResponse = { items: [], nextCursor: null };
const profiles: ArtistProfileList = { profiles: [], canAdd: true, limit: null };
const taxStanding: { standing: TaxStanding; settings: typeof DEFAULT_TAX_SETTINGS } = {
  standing: {
    state: 'none',
    summary: 'No tax form on file. Payouts are on hold until you sign Form W-9.',
    form: null,
  },
  settings: DEFAULT_TAX_SETTINGS,
};
const shares: PayeeSharesResponse = { items: [], totals: { paidCents: 0, heldCents: 0 }, expenses: [] };

function answer(role: AccountRole) {
  server.use(
    getJson('/me', viewer(role)),
    getJson('/wallet', wallet),
    getJson('/royalties/statements', statements),
    getJson('/royalties/ledger', ledger),
    getJson('/splits/shares', shares),
    getJson('/artist-profiles', profiles),
    getJson('/tax/standing', taxStanding),
  );
}

describe('Royalties and Wallet', () => {
  it("shows the wallet's balances and the month's statement", async () => {
    answer('owner');
    renderRoute(<RoyaltiesPage />);
    const available = await screen.findByTestId('available-balance');
    expect(available.textContent).toContain('$1,234.56');
    expect(screen.getByTestId('total-earnings').textContent).toContain('$5,000.00');
    const statement = await screen.findByTestId('statement');
    const pdf = within(statement).getByRole('link', { name: 'Download the Sep 2026 statement as PDF' });
    expect(pdf.getAttribute('href')).toBe('/api/royalties/statements/2026-09.pdf');
    // The tax form section says what applies to payouts (issue 38).
    expect((await screen.findByTestId('tax-standing')).textContent).toBe(taxStanding.standing.summary);
  });

  it('offers a withdrawal to the owner and a finance member, not to a viewer', async () => {
    answer('finance');
    const finance = renderRoute(<RoyaltiesPage />);
    expect(await screen.findByRole('button', { name: 'Request Withdrawal' })).toBeTruthy();
    finance.unmount();

    answer('viewer');
    renderRoute(<RoyaltiesPage />);
    await screen.findByTestId('available-balance');
    // The viewer's role is read before the page's buttons are decided: wait for the statement too.
    await screen.findByTestId('statement');
    expect(screen.queryByRole('button', { name: 'Request Withdrawal' })).toBeNull();
  });

  it("names a Basic account's minimum to a team member with no plan and no upgrade (record 230)", async () => {
    const basic: WalletSummary = {
      ...wallet,
      plan: 'basic',
      hasProMinimum: false,
      minimumWithdrawalCents: 5_000,
    };
    answer('owner');
    server.use(getJson('/wallet', basic));
    const owner = renderRoute(<RoyaltiesPage />);
    await screen.findByText('Minimum withdrawal: $50.00 (Basic plan)');
    expect(screen.getByRole('link', { name: 'Upgrade to Pro for a $20 minimum' })).toBeTruthy();
    owner.unmount();

    answer('finance');
    server.use(getJson('/wallet', basic));
    renderRoute(<RoyaltiesPage />);
    await screen.findByText('Minimum withdrawal: $50.00 (this account’s minimum)');
    expect(screen.queryByText(/Basic plan|Upgrade to Pro/)).toBeNull();
  });

  it('says the wallet could not be loaded, with a way to try again', async () => {
    answer('owner');
    server.use(getError('/wallet', 500, 'internal', 'Something went wrong'));
    renderRoute(<RoyaltiesPage />);
    expect((await screen.findByRole('alert')).textContent).toContain('Your wallet could not be loaded.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
