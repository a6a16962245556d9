import { fileInput, mediaDir } from './support/builder';
import { expect, pageAs, test } from './support/test';

test('tracks are reordered from the keyboard, 25 px per arrow key, and the active tab follows', async ({
  browser,
}) => {
  const { page } = await pageAs(browser, { plan: 'pro' });
  const media = mediaDir();
  await page.goto('/dashboard/release-builder');
  await page.getByLabel('Release Title').fill('Order Test');
  await page.getByLabel('Genre').selectOption('Rock');
  await page.getByLabel('Release Date', { exact: true }).fill('2031-01-01');
  await page.getByLabel('Copyright Holder').fill('Me');
  await page.getByLabel('Publishing Holder').fill('Me');
  await fileInput(page, 'Cover Art').setInputFiles(await media.cover());
  await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Continue to Track Details' }).click();

  await page.getByLabel('Number of Tracks').selectOption('3');
  const tabs = page.getByTestId('track-tab');
  for (const [index, title] of ['Alpha', 'Beta', 'Gamma'].entries()) {
    await tabs
      .nth(index)
      .getByRole('button', { name: new RegExp(`^${index + 1}\\. Track ${index + 1}`) })
      .click();
    await page.getByLabel('Track Title').fill(title);
  }
  await expect(tabs).toHaveText(['1. Alpha', '2. Beta', '3. Gamma']);
  await tabs.nth(1).getByRole('button', { name: '2. Beta' }).click();

  // Pick up Alpha with Space, move it right past Beta's middle (a tab is about 120 px wide), drop it.
  const handle = page.getByRole('button', { name: 'Reorder Alpha' });
  await handle.focus();
  await page.keyboard.press('Space');
  for (let press = 0; press < 4; press += 1) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Space');

  await expect(tabs).toHaveText(['1. Beta', '2. Alpha', '3. Gamma']);
  // The active tab followed the moved track.
  await expect(page.getByRole('button', { name: '2. Alpha' })).toHaveAttribute('aria-current', 'true');
  await expect(page.getByRole('heading', { name: 'Track 2: Alpha' })).toBeVisible();

  // And back again with the left arrow.
  await page.getByRole('button', { name: 'Reorder Alpha' }).focus();
  await page.keyboard.press('Space');
  for (let press = 0; press < 4; press += 1) await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Space');
  await expect(tabs).toHaveText(['1. Alpha', '2. Beta', '3. Gamma']);

  // The order is part of the saved draft.
  await page.getByRole('button', { name: 'Reorder Gamma' }).focus();
  await page.keyboard.press('Space');
  for (let press = 0; press < 4; press += 1) await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Space');
  await expect(tabs).toHaveText(['1. Alpha', '2. Gamma', '3. Beta']);
  await expect(page.getByTestId('save-state')).toHaveText('Draft saved');
  await page.reload();
  await expect(page.getByTestId('track-tab')).toHaveText(['1. Alpha', '2. Gamma', '3. Beta']);
  await expect(page.getByRole('heading', { name: 'Track 2: Gamma' })).toBeVisible();
  media.remove();
});
