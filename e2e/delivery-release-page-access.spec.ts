/**
 * Issue 15 journey: the release page before approval (no codes, no stores yet, the edit link) and for
 * someone else's release (not found, nothing of it shown).
 */
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

test('a pending release page explains what comes at approval; another artist sees nothing', async ({
  browser,
}) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const title = `Still Pending ${tag}`;
  const owner = await pageAs(browser);
  const { releaseId } = await seed.release({ userId: owner.user.userId, title, trackCount: 3 });

  const page = owner.page;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/dashboard/songs');
  await page.getByRole('link', { name: title, exact: true }).click();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByTestId('release-status')).toHaveText('Pending');
  await expect(page.getByTestId('release-upc')).toHaveText('Assigned at approval');
  await expect(page.getByTestId('track-isrc')).toHaveText([
    'Assigned at approval',
    'Assigned at approval',
    'Assigned at approval',
  ]);
  await expect(page.getByText('These stores receive your release once it is approved')).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'Spotify' }).getByTestId('store-state')).toHaveText(
    'Waiting',
  );
  await expect(page.getByRole('listitem', { name: 'Apple Music' }).getByTestId('store-state')).toHaveText(
    'Waiting',
  );
  await expect(page.getByRole('button', { name: /Request takedown from/ })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Edit Release' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await seriousA11yViolations(page)).toEqual([]);

  // Another artist with the same link: not found, and no title, tracks or stores of the release.
  const stranger = await pageAs(browser);
  await stranger.page.goto(`/dashboard/releases/${releaseId}`);
  await expect(stranger.page.getByRole('heading', { name: 'Release not found.' })).toBeVisible();
  await expect(stranger.page.getByText(title)).toHaveCount(0);
  await expect(stranger.page.getByRole('main').getByRole('link', { name: 'My Songs' })).toBeVisible();

  await owner.context.close();
  await stranger.context.close();
});
