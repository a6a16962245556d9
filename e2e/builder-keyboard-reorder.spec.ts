import type { Page } from '@playwright/test';
import { fileInput, mediaDir } from './support/builder';
import { expect, pageAs, test } from './support/test';

/**
 * Picks up a track's tab with Space, moves it four arrow presses (25 px each) and drops it with Space.
 * dnd-kit's keyboard sensor starts listening for the arrows one timer turn after the Space that picked the
 * tab up, and measures the tab in that render: an arrow pressed before then is lost or moves from the wrong
 * place (the journey failed that way under CI's load). So the journey waits as a user's eye would: the
 * handle shows it is pressed, and after the arrows the tab stands 100 px from where it was.
 */
async function moveTab(page: Page, title: string, key: 'ArrowLeft' | 'ArrowRight') {
  const handle = page.getByRole('button', { name: `Reorder ${title}` });
  await handle.focus();
  await page.keyboard.press('Space');
  await expect(handle).toHaveAttribute('aria-pressed', 'true');
  // Timers of equal delay run in order: the sensor's own timer (set during the Space) has run after this one.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  for (let press = 0; press < 4; press += 1) await page.keyboard.press(key);
  const tab = page.getByTestId('track-tab').filter({ has: handle });
  await expect(tab).toHaveCSS('transform', `matrix(1, 0, 0, 1, ${key === 'ArrowRight' ? 100 : -100}, 0)`);
  await page.keyboard.press('Space');
  await expect(handle).not.toHaveAttribute('aria-pressed', 'true');
}

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
  await moveTab(page, 'Alpha', 'ArrowRight');

  await expect(tabs).toHaveText(['1. Beta', '2. Alpha', '3. Gamma']);
  // The active tab followed the moved track.
  await expect(page.getByRole('button', { name: '2. Alpha' })).toHaveAttribute('aria-current', 'true');
  await expect(page.getByRole('heading', { name: 'Track 2: Alpha' })).toBeVisible();

  // And back again with the left arrow.
  await moveTab(page, 'Alpha', 'ArrowLeft');
  await expect(tabs).toHaveText(['1. Alpha', '2. Beta', '3. Gamma']);

  // The order is part of the saved draft.
  await moveTab(page, 'Gamma', 'ArrowLeft');
  await expect(tabs).toHaveText(['1. Alpha', '2. Gamma', '3. Beta']);
  await expect(page.getByTestId('save-state')).toHaveText('Draft saved');
  await page.reload();
  await expect(page.getByTestId('track-tab')).toHaveText(['1. Alpha', '2. Gamma', '3. Beta']);
  await expect(page.getByRole('heading', { name: 'Track 2: Gamma' })).toBeVisible();
  media.remove();
});
