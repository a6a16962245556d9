/**
 * The note beside a builder's locked field (record 274), against a mocked /api/me: the owner of a Basic
 * account reads "Pro feature — upgrade to unlock" with an Upgrade link; a team member reads that the account
 * does not include it and its owner can add it, with no link.
 */

import { screen } from '@testing-library/react';
import type { MeResponse } from '@tunedrop/shared';
import { MEMBER_LOCK_TEXTS } from '@tunedrop/shared/schemas/member-locks';
import type { AccountRole } from '@tunedrop/shared/schemas/team-roles';
import { describe, expect, it } from 'vitest';
import { getJson, server } from '../../../test-support/api-mock';
import { renderRoute } from '../../../test-support/render-route';
import { ProFeatureNote } from './pro-lock';

/** The viewer acting for account `accountId` with `role`; the Basic plan is the account's. */
const viewer = (accountId: string, role: AccountRole): MeResponse => ({
  user: { id: 'u1', email: 'ada@example.com', name: 'Ada', emailVerified: true, twoFactorEnabled: false },
  profile: {
    plan: 'basic',
    fullName: 'Ada Artist',
    artistName: 'Ada',
    banned: false,
    banReason: null,
    subscriptionStatus: 'active',
    subscriptionEnd: null,
  },
  roles: [],
  isPayee: false,
  account: { id: accountId, role },
});

describe('the locked-field note', () => {
  it('tells a team member the owner can add it, with no upgrade', async () => {
    server.use(getJson('/me', viewer('a1', 'admin')));
    const { container } = renderRoute(<ProFeatureNote id="note" />);
    expect(await screen.findByText(MEMBER_LOCK_TEXTS.feature)).toBeTruthy();
    expect(container.textContent).not.toMatch(/upgrade/i);
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('offers the owner the upgrade', async () => {
    server.use(getJson('/me', viewer('u1', 'owner')));
    const { container } = renderRoute(<ProFeatureNote id="note" />);
    expect(await screen.findByRole('link', { name: 'Upgrade' })).toBeTruthy();
    expect(container.textContent).toContain('Pro feature — upgrade to unlock');
  });
});
