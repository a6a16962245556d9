/**
 * The note beside a builder's locked field (record 274), against a mocked /api/me: the owner of a Basic
 * account reads "Pro feature — upgrade to unlock" with an Upgrade link; a team member reads that the account
 * does not include it and its owner can add it, with no link.
 */

import { screen } from '@testing-library/react';
import { MEMBER_LOCK_TEXTS } from '@tunedrop/shared/schemas/member-locks';
import type { AccountRole } from '@tunedrop/shared/schemas/team-roles';
import { describe, expect, it } from 'vitest';
import { getJson, server } from '../../../test-support/api-mock';
import { renderRoute } from '../../../test-support/render-route';
import { viewerOf } from '../../../test-support/viewer';
import { ProFeatureNote } from './pro-lock';

const viewer = (accountId: string, role: AccountRole) => viewerOf({ accountId, role });

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
