/**
 * Issue 18, record 121, at 1280 px and 390 px: a rejected release is fixed by replacing its cover art and
 * one track's WAV with real files (the builder's uploads and checks), adding a track and removing another,
 * then saved and resubmitted; its page shows the new cover, the tracks and their new lengths.
 */
import { mediaDir } from './support/builder';
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const tag = () => Math.random().toString(36).slice(2, 7);

async function fitsWidth(page: import('@playwright/test').Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

/** The natural width of a loaded image (0 while it is not loaded or failed). */
const loadedWidth = (image: import('@playwright/test').Locator) =>
  image.evaluate((element) => (element as HTMLImageElement).naturalWidth);

for (const viewport of VIEWPORTS) {
  test(`${viewport.name}: a rejected release gets a new cover, a new WAV and a new track, then is resubmitted`, async ({
    browser,
  }) => {
    test.setTimeout(150_000);
    const media = mediaDir();
    const { page, context, user } = await pageAs(browser, { plan: 'basic' });
    await page.setViewportSize(viewport);
    const title = `Wrong Files ${tag()}`;
    const { releaseId } = await seed.release({
      userId: user.userId,
      title,
      status: 'rejected',
      rejectionReason: 'The cover is not yours and track 2 clips.',
      trackCount: 2,
    });

    await page.goto('/dashboard/songs');
    await page
      .getByRole('listitem')
      .filter({ hasText: title })
      .getByRole('link', { name: 'Fix and resubmit' })
      .click();
    await page.getByTestId('rejected-panel').getByRole('link', { name: 'Fix release' }).click();
    await expect(page.getByRole('heading', { name: 'Edit Release', level: 1 })).toBeVisible();

    // Cover art: the builder's check in the browser first, then a real 3000x3000 JPEG through tus.
    const cover = page.getByRole('region', { name: 'Cover Art' });
    const coverInput = page.getByLabel('Replace cover art');
    await coverInput.setInputFiles(await media.cover('small.png', 100));
    await expect(cover.getByText('Cover art must be exactly 3000x3000 pixels')).toBeVisible();
    await coverInput.setInputFiles(await media.cover('New Cover.jpg', 3000, 'jpeg'));
    await expect(cover.getByText('Replaced and saved')).toBeVisible({ timeout: 30_000 });
    await expect(cover.getByTestId('file-name')).toHaveText('New Cover.jpg');
    const currentCover = cover.getByRole('img', { name: `Current cover of ${title}` });
    await expect(currentCover).toHaveAttribute('src', /\/cover\/medium\?v=/);
    await expect.poll(() => loadedWidth(currentCover)).toBeGreaterThan(0);

    // Track 2's WAV: a wrong file is refused with the builder's message, then a 3-second WAV replaces it.
    const tracks = page.getByTestId('edit-track');
    const second = tracks.nth(1);
    await expect(second.getByText('Current audio: track-2.wav (0:01)')).toBeVisible();
    const audioInput = page.getByLabel('Replace audio of track 2');
    await audioInput.setInputFiles(media.file('take.mp3', 'not audio'));
    await expect(second.getByText('Only WAV format is accepted')).toBeVisible();
    await audioInput.setInputFiles(media.wav('New Take.wav', 3));
    await expect(second.getByText('Replaced and saved')).toBeVisible({ timeout: 30_000 });
    await expect(second.getByTestId('file-name')).toHaveText('New Take.wav');
    await expect(second.getByText('Current audio: New Take.wav (0:03)')).toBeVisible();
    await expect(tracks.first().getByText('Current audio: track-1.wav (0:01)')).toBeVisible();

    // A third track with its own WAV and credits (the builder's checks first), then the first one removed.
    await page.getByRole('button', { name: 'Add a track' }).click();
    const fresh = page.getByRole('region', { name: 'New track 3' });
    await fresh.getByRole('button', { name: 'Add this track' }).click();
    await expect(fresh.getByText('Track title is required')).toBeVisible();
    await expect(fresh.getByText('Audio file is required')).toBeVisible();
    await fresh.getByLabel('New track title').fill('Bonus Cut');
    await fresh.getByLabel('New track audio (WAV)').setInputFiles(media.wav('Bonus Cut.wav', 2));
    await expect(fresh.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
    const writer = fresh.getByRole('group', { name: 'Songwriter 1' });
    await writer.getByLabel('First Name').fill('Ada');
    await writer.getByLabel('Last Name').fill('Writer');
    const producer = fresh.getByRole('group', { name: 'Producer 1' });
    await producer.getByLabel('First Name').fill('Max');
    await producer.getByLabel('Last Name').fill('Beats');
    // A track added later answers its AI use too (issue 41, record 295).
    await fresh
      .getByRole('group', { name: 'AI use' })
      .getByRole('radio', { name: /^No AI used/ })
      .check();
    await fresh.getByRole('button', { name: 'Add this track' }).click();
    await expect(fresh).toHaveCount(0);
    await expect(tracks).toHaveCount(3);
    await expect(tracks.nth(2).getByText('Current audio: Bonus Cut.wav (0:02)')).toBeVisible();
    await tracks.first().getByRole('button', { name: 'Remove Track 1' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await expect(tracks).toHaveCount(2);
    await expect(tracks.first().getByText('Current audio: New Take.wav (0:03)')).toBeVisible();

    // Keyboard: the replace controls are reachable (the file inputs take focus).
    const firstAudio = page.getByLabel('Replace audio of track 1');
    await firstAudio.focus();
    await expect(firstAudio).toBeFocused();
    await fitsWidth(page, viewport.width);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/dashboard/releases/${releaseId}$`));
    await page.getByRole('button', { name: 'Resubmit for review' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Resubmit' }).click();
    await expect(page.getByTestId('release-status')).toHaveText('Pending');

    // The release page shows the new cover (a new thumbnail URL, loaded) and the new track length.
    const pageCover = page.getByRole('img', { name: `Cover of ${title}` });
    await expect(pageCover).toHaveAttribute('src', /\/cover\/medium\?v=/);
    await expect.poll(() => loadedWidth(pageCover)).toBe(600);
    await expect(page.getByTestId('track-duration')).toHaveText(['0:03', '0:02']);
    await expect(page.getByText('Bonus Cut', { exact: true })).toBeVisible();
    await fitsWidth(page, viewport.width);
    expect(await seriousA11yViolations(page)).toEqual([]);

    await context.close();
    media.remove();
  });
}
