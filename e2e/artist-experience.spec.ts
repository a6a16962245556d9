/**
 * Issue 18 journeys, at 1280 px and 390 px: a lapsed artist keeps Royalties and My Songs (banner, withdraw,
 * takedown) but not upload or analytics; a rejected release is fixed and resubmitted (or deleted); the
 * release page plays the owner's own audio with durations and the status history.
 */
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

// The texts of packages/shared (GATE_MESSAGE, LAPSED_MESSAGES), as the user reads them.
const GATE_MESSAGE = 'Please subscribe to access the dashboard.';
const LAPSED_MESSAGES = {
  title: 'Your subscription is not active.',
  body: 'Your releases, royalties and withdrawals stay available. Resubscribe to upload new releases, edit or resubmit releases, and see analytics.',
};

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const tag = () => Math.random().toString(36).slice(2, 7);
const dayAgo = () => new Date(Date.now() - 24 * 3600 * 1000).toISOString();

async function fitsWidth(page: import('@playwright/test').Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

for (const viewport of VIEWPORTS) {
  test(`${viewport.name}: a lapsed artist withdraws, reads My Songs and asks a takedown, but cannot upload`, async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const { page, context, user } = await pageAs(browser, {
      plan: 'pro',
      subscription: 'canceled',
      subscriptionEnd: dayAgo(),
      balanceCents: 3000,
    });
    await page.setViewportSize(viewport);
    const title = `Still Mine ${tag()}`;
    await seed.release({ userId: user.userId, title, status: 'live' });
    const inReview = `In Review ${tag()}`;
    await seed.release({ userId: user.userId, title: inReview });

    await page.goto('/dashboard/royalties');
    await expect(page.getByRole('heading', { name: 'Royalties and Wallet', level: 1 })).toBeVisible();
    const banner = page.getByTestId('lapsed-banner');
    await expect(banner).toContainText(LAPSED_MESSAGES.title);
    await expect(banner).toContainText(LAPSED_MESSAGES.body);
    await expect(page.getByTestId('available-balance')).toHaveText('$30.00');
    await fitsWidth(page, viewport.width);
    expect(await seriousA11yViolations(page)).toEqual([]);
    // The $30 of issue 18 is withdrawn although the subscription lapsed.
    await page.getByRole('radio', { name: 'PayPal' }).check();
    await page.getByLabel('PayPal Email').fill('lapsed.artist@example.com');
    await page.getByRole('button', { name: 'Save Payment Information' }).click();
    await expect(page.getByTestId('saved-payment-method')).toContainText('Saved: PayPal');
    await page.getByRole('button', { name: 'Request Withdrawal' }).click();
    const dialog = page.getByRole('dialog', { name: 'Request Withdrawal' });
    await dialog.getByLabel('Amount (USD)').fill('30');
    await dialog.getByRole('button', { name: 'Request Withdrawal' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('available-balance')).toHaveText('$0.00');
    await expect(page.getByTestId('pending-balance')).toHaveText('$30.00');

    await page.goto('/dashboard/songs');
    await expect(page.getByRole('heading', { name: 'My Songs' })).toBeVisible();
    await expect(page.getByTestId('lapsed-banner')).toBeVisible();
    const row = page.getByRole('listitem').filter({ hasText: title });
    await row.getByRole('button', { name: 'Request Takedown' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Request Takedown' }).click();
    await expect(row.getByText('Takedown Pending')).toBeVisible();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await row.getByRole('link', { name: title, exact: true }).click();
    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    await expect(page.getByTestId('lapsed-banner')).toBeVisible();
    await fitsWidth(page, viewport.width);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A release in review is read-only after the lapse: no edit link that would only meet the gate.
    await page.goto('/dashboard/songs');
    const review = page.getByRole('listitem').filter({ hasText: inReview });
    await expect(review.getByRole('link', { name: `View ${inReview}` })).toBeVisible();
    await expect(review.getByRole('link', { name: 'Edit Release' })).toHaveCount(0);

    // Upload and analytics keep the spec's gate and message.
    await page.goto('/dashboard/upload');
    await expect(page).toHaveURL(/\/dashboard\/account$/);
    await expect(page.getByText(GATE_MESSAGE)).toBeVisible();
    await page.goto('/dashboard/analytics');
    await expect(page).toHaveURL(/\/dashboard\/account$/);
    await context.close();
  });

  test(`${viewport.name}: a rejected release is fixed and resubmitted, another one deleted`, async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const { page, context, user } = await pageAs(browser, { plan: 'pro' });
    await page.setViewportSize(viewport);
    const title = `Blurry ${tag()}`;
    const doomed = `Doomed ${tag()}`;
    await seed.release({
      userId: user.userId,
      title,
      status: 'rejected',
      rejectionReason: 'Cover art is blurry.',
    });
    await seed.release({ userId: user.userId, title: doomed, status: 'rejected', rejectionReason: 'No.' });

    await page.goto('/dashboard/songs');
    const row = page.getByRole('listitem').filter({ hasText: title });
    await expect(row.getByText('Cover art is blurry.')).toBeVisible();
    await row.getByRole('link', { name: 'Fix and resubmit' }).click();

    const panel = page.getByTestId('rejected-panel');
    await expect(panel).toContainText('Cover art is blurry.');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await panel.getByRole('link', { name: 'Fix release' }).click();
    await expect(page.getByRole('heading', { name: 'Edit Release' })).toBeVisible();
    const fixed = `${title} (fixed)`;
    await page.getByLabel('Release Title').fill(fixed);
    await page.getByRole('button', { name: 'Save Changes' }).click();

    await expect(page.getByRole('heading', { name: fixed, level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Resubmit for review' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Resubmit' }).click();
    await expect(page.getByTestId('release-status')).toHaveText('Pending');
    await expect(page.getByTestId('rejected-panel')).toHaveCount(0);
    await expect(
      page.getByText('Resubmitted by the artist. Rejection reason was: Cover art is blurry.'),
    ).toBeVisible();
    await fitsWidth(page, viewport.width);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.goto('/dashboard/songs');
    await page
      .getByRole('listitem')
      .filter({ hasText: doomed })
      .getByRole('link', { name: 'Fix and resubmit' })
      .click();
    await page.getByRole('button', { name: 'Delete release' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText(
      'Are you sure you want to delete this release? This action cannot be undone.',
    );
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/dashboard\/songs$/);
    await expect(page.getByRole('listitem').filter({ hasText: doomed })).toHaveCount(0);
    await context.close();
  });

  test(`${viewport.name}: the release page plays the owner's own tracks; others cannot fetch them`, async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const { page, context, user } = await pageAs(browser);
    await page.setViewportSize(viewport);
    const title = `Listen ${tag()}`;
    const { releaseId, trackIds } = await seed.release({
      userId: user.userId,
      title,
      status: 'live',
      trackCount: 2,
    });
    await page.goto(`/dashboard/releases/${releaseId}`);
    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    await expect(page.getByTestId('track-duration')).toHaveText(['0:01', '0:01']);
    const players = page.getByTestId('track-player');
    await expect(players).toHaveCount(2);
    await expect(page.getByRole('heading', { name: 'Status history' })).toBeVisible();

    // The browser loads the WAV through the player and knows its length.
    const duration = await players.first().evaluate(
      (element) =>
        new Promise<number>((resolve, reject) => {
          const audio = element as HTMLAudioElement;
          audio.addEventListener('loadedmetadata', () => resolve(audio.duration), { once: true });
          audio.addEventListener('error', () => reject(new Error('audio failed to load')), { once: true });
          audio.load();
        }),
    );
    expect(duration).toBeGreaterThan(0.9);
    expect(duration).toBeLessThan(1.1);
    const ranged = await page.evaluate(async (url) => {
      const response = await fetch(url, { headers: { range: 'bytes=0-3' } });
      return { status: response.status, text: await response.text() };
    }, `/api/releases/${releaseId}/tracks/${trackIds[0]}/audio`);
    expect(ranged).toEqual({ status: 206, text: 'RIFF' });
    await fitsWidth(page, viewport.width);
    expect(await seriousA11yViolations(page)).toEqual([]);

    const stranger = await pageAs(browser);
    await stranger.page.goto('/dashboard');
    const status = await stranger.page.evaluate(
      async (url) => (await fetch(url)).status,
      `/api/releases/${releaseId}/tracks/${trackIds[0]}/audio`,
    );
    expect(status).toBe(404);
    await stranger.context.close();
    await context.close();
  });

  test(`${viewport.name}: editing a release's artists updates every track; a future year names the range`, async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const { page, context, user } = await pageAs(browser, { plan: 'pro' });
    await page.setViewportSize(viewport);
    const title = `Together ${tag()}`;
    const { releaseId } = await seed.release({ userId: user.userId, title, trackCount: 2 });
    await page.goto(`/dashboard/edit-release/${releaseId}`);
    await expect(page.getByRole('heading', { name: 'Edit Release' })).toBeVisible();
    await page.getByLabel('Primary Artists').fill('Renamed Artist, Guest Two');
    await page.getByLabel('Featured Artists (optional)').fill('Feat One');
    await page.getByLabel('Copyright Year').fill('2031');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    const year = new Date().getFullYear();
    await expect(page.getByText(`Valid copyright year is required (1900 to ${year})`)).toBeVisible();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByLabel('Copyright Year').fill(String(year));
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page).toHaveURL(/\/dashboard\/songs$/);

    // Tracks: rename, mark explicit, reorder and credit through the builder's editors, then save.
    await page.goto(`/dashboard/edit-release/${releaseId}`);
    const edits = page.getByTestId('edit-track');
    await expect(edits).toHaveCount(2);
    await page.getByLabel('Track 2 title').fill('Opener');
    await edits.nth(1).getByLabel('Explicit content').check();
    await page.getByRole('button', { name: 'Move Opener up' }).click();
    await expect(page.getByLabel('Track 1 title')).toHaveValue('Opener');
    await page.getByLabel('Track 2 title').fill('');
    await page.getByRole('button', { name: 'Save Tracks' }).click();
    await expect(edits.nth(1).getByText('Track title is required')).toBeVisible();
    await page.getByLabel('Track 2 title').fill('Closer');
    await page.getByRole('button', { name: 'Save Tracks' }).click();
    await expect(page.getByText('Tracks updated successfully')).toBeVisible();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.goto(`/dashboard/releases/${releaseId}`);
    await expect(page.getByText('Renamed Artist, Guest Two feat. Feat One').first()).toBeVisible();
    const rows = page.getByTestId('track-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText('Opener');
    await expect(rows.nth(0)).toContainText('Explicit');
    await expect(rows.nth(1)).toContainText('Closer');
    for (const row of await rows.all()) {
      await expect(row).toContainText('Renamed Artist, Guest Two feat. Feat One');
      await expect(row).not.toContainText('Test Artist');
    }
    await fitsWidth(page, viewport.width);
    await context.close();
  });
}
