/**
 * A Pro-only thing as an owner and as a team member sees it (record 274), against mocked API answers: on a
 * Basic account, the owner asking for a second artist profile reads the spec's "Pro feature — upgrade to
 * unlock" with the way to upgrade; a member (who cannot upgrade, record 230) reads that the account does
 * not include it and its owner can add it, with no upgrade link or price.
 */

import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MeResponse } from '@tunedrop/shared';
import type { ArtistProfileList } from '@tunedrop/shared/schemas/artist-profiles';
import type { AccountRole } from '@tunedrop/shared/schemas/team-roles';
import { describe, expect, it } from 'vitest';
import { getJson, server } from '../../../test-support/api-mock';
import { renderRoute } from '../../../test-support/render-route';
import { viewerOf } from '../../../test-support/viewer';
import ArtistProfilesPage from './artist-profiles-page';

const viewer = (accountId: string, role: AccountRole) => viewerOf({ accountId, role });

const profiles: ArtistProfileList = {
  profiles: [
    {
      id: 'p1',
      name: 'Ada',
      position: 1,
      isFirst: true,
      spotifyArtistId: null,
      appleArtistId: null,
      deezerArtistId: null,
      amazonArtistId: null,
      youtubeChannelId: null,
      spotifyArtistKey: null,
      newOnStores: [],
      imageUrl: null,
      canRelease: true,
      releaseCount: 0,
    },
  ],
  canAdd: false,
  limit: 1,
};

async function askForSecondProfile(me: MeResponse) {
  server.use(getJson('/me', me), getJson('/artist-profiles', profiles));
  renderRoute(<ArtistProfilesPage />);
  // The button shows once the viewer's role (Catalog or more) is known.
  await userEvent.setup().click(await screen.findByRole('button', { name: 'Add artist profile' }));
  return screen.getByRole('status');
}

describe('a Pro-only thing on a Basic account', () => {
  it('offers the owner the upgrade', async () => {
    const card = await askForSecondProfile(viewer('u1', 'owner'));
    expect(card.textContent).toContain('Pro feature — upgrade to unlock');
    expect(card.textContent).toContain('Basic includes 1 artist profile.');
    expect(screen.getByRole('link', { name: 'Upgrade to Pro' })).toBeTruthy();
  });

  it('tells a team member the owner can add it, with no upgrade or plan', async () => {
    const card = await askForSecondProfile(viewer('a1', 'catalog'));
    expect(card.textContent).toContain('Not included in this account — its owner can add it');
    expect(card.textContent).toContain('This account includes 1 artist profile. Its owner can add more.');
    expect(card.textContent).not.toMatch(/upgrade|Pro feature|Basic/i);
    expect(screen.queryByRole('link', { name: /upgrade/i })).toBeNull();
  });
});
