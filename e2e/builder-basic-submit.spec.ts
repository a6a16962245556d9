import { answerAiUse, fileInput, mediaDir } from './support/builder';
import { expect, pageAs, seriousA11yViolations, test } from './support/test';

test('a basic artist builds and submits a two-track release with real files', async ({ browser }) => {
  test.setTimeout(120_000);
  const media = mediaDir();
  const { page } = await pageAs(browser, { plan: 'basic', artistName: 'Nova Lane' });
  const year = String(new Date().getFullYear());

  await page.goto('/dashboard/upload');
  await expect(page.getByRole('heading', { name: 'Upload Music' })).toBeVisible();
  await expect(page.getByText('Multi-track releases')).toBeVisible();
  await expect(page.getByText('Full credits')).toBeVisible();
  await page.getByRole('link', { name: 'Start Release Builder' }).click();
  await expect(page).toHaveURL('/dashboard/release-builder');

  // Step 1: the checks, then the fields; holders and years are locked for basic users.
  await expect(page.getByRole('heading', { name: 'Release Details' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue to Track Details' }).click();
  await expect(page.getByText('Release title is required')).toBeVisible();
  await expect(page.getByText('Please select a genre')).toBeVisible();
  await expect(page.getByText('Release date is required')).toBeVisible();
  await expect(page.getByText('Cover artwork is required')).toBeVisible();
  await expect(page.getByLabel('Copyright Holder')).toHaveValue('Nova Lane');
  await expect(page.getByLabel('Copyright Holder')).toHaveAttribute('readonly', '');
  await expect(page.getByLabel('Publishing Year')).toHaveValue(year);
  await expect(page.getByText('Pro feature — upgrade to unlock')).toHaveCount(3);
  await expect(page.getByLabel('UPC (optional)')).toBeDisabled();

  await page.getByLabel('Release Title').fill('Midnight Tapes');
  await page.getByLabel('Genre').selectOption('Electronic');
  await page.getByLabel('Release Date', { exact: true }).fill(`${Number(year) + 1}-02-14`);
  // The browser refuses a small cover before uploading it.
  await fileInput(page, 'Cover Art').setInputFiles(await media.cover('small.png', 100));
  await expect(page.getByText('Cover art must be exactly 3000x3000 pixels')).toBeVisible();
  await fileInput(page, 'Cover Art').setInputFiles(await media.cover('Midnight Cover.png'));
  await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('file-name')).toHaveText('Midnight Cover.png');
  await page.getByRole('button', { name: 'Continue to Track Details' }).click();

  // Step 2: two tracks; the checks jump to the first track with errors.
  await expect(page.getByRole('heading', { name: 'Tracks' })).toBeVisible();
  await page.getByLabel('Number of Tracks').selectOption('2');
  await expect(page.getByTestId('track-tab')).toHaveCount(2);
  await page.getByRole('button', { name: 'Continue to Summary' }).click();
  await expect(page.getByRole('heading', { name: 'Track 1' })).toBeVisible();
  await expect(page.getByText('Track title is required')).toBeVisible();
  await expect(page.getByText('Audio file is required')).toBeVisible();
  await expect(page.getByText('At least one songwriter is required')).toBeVisible();
  await expect(page.getByText('At least one producer is required')).toBeVisible();
  // AI use must be answered for every track before the release can go (issue 41, record 295).
  await expect(page.getByText('Tell us how AI was used on this track')).toBeVisible();
  await expect(page.getByLabel('ISRC (optional)')).toBeDisabled();
  await expect(page.getByLabel('ISRC (optional)')).toHaveAttribute(
    'placeholder',
    'Upgrade to Pro to add ISRC',
  );
  // Basic: one primary artist, filled in with the artist name, and an upgrade prompt.
  const primary = page.getByRole('group', { name: 'Primary Artists' });
  await expect(primary.getByText('Nova Lane')).toBeVisible();
  await expect(primary.getByText('Upgrade to Pro')).toBeVisible();

  // A wrong file type is refused in the browser, and a valid file clears the error.
  await fileInput(page, 'Audio File (WAV)').setInputFiles(media.file('song.mp3', 'not audio'));
  await expect(page.getByText('Only WAV format is accepted')).toBeVisible();
  await fillTrack(page, 'First Light', media.wav('First Light.wav', 1));
  await expect(page.getByText('Only WAV format is accepted')).toHaveCount(0);
  await page.getByLabel('Explicit content').check();
  // Track 1 is complete: the check jumps to track 2, the first with errors.
  await page.getByRole('button', { name: 'Continue to Summary' }).click();
  await expect(page.getByRole('heading', { name: 'Track 2' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^2\. Track 2/ })).toHaveAttribute('aria-current', 'true');
  await expect(page.getByText('Track title is required')).toBeVisible();
  await expect(page.getByTestId('track-tab').first().getByText('(has errors)')).toHaveCount(0);

  await fillTrack(page, 'Second Wind', media.wav('Second Wind.wav', 1, 24));
  await page.getByRole('button', { name: 'Continue to Summary' }).click();

  // Step 3: the summary.
  await expect(page.getByRole('heading', { name: 'Summary' })).toBeVisible();
  const details = page.getByRole('definition');
  await expect(details.filter({ hasText: 'Midnight Tapes' })).toBeVisible();
  await expect(page.getByText('Pro feature', { exact: true })).toHaveCount(2);
  const summaryTracks = page.getByTestId('summary-track');
  await expect(summaryTracks).toHaveCount(2);
  await expect(summaryTracks.first()).toContainText('First Light');
  await expect(summaryTracks.first()).toContainText('Explicit');
  await expect(summaryTracks.first()).toContainText('First Light.wav');
  await expect(summaryTracks.nth(1)).toContainText('1 songwriter · 1 producer');
  await expect(page.getByText('Get more with Pro')).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Continue to Distribution' }).click();

  // Step 4: platforms.
  await expect(page.getByText('Please select at least one platform to continue')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit Release' })).toBeDisabled();
  await page.getByRole('button', { name: 'Select All', exact: true }).click();
  await expect(page.getByTestId('platform-count')).toHaveText('25 of 25 platforms selected');
  await expect(page.getByText('Beta')).toHaveCount(2);
  await page.getByRole('button', { name: 'Deselect All' }).click();
  await expect(page.getByTestId('platform-count')).toHaveText('0 of 25 platforms selected');
  await page.getByRole('button', { name: 'Spotify', exact: true }).click();
  await page.getByRole('button', { name: 'TIDAL', exact: true }).click();
  await expect(page.getByTestId('platform-count')).toHaveText('2 of 25 platforms selected');
  await page.getByRole('button', { name: 'Submit Release' }).click();

  await expect(page.getByRole('heading', { name: 'Release Submitted Successfully!' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByText('Release submitted successfully!', { exact: true })).toBeVisible();
  await expect(page.getByText('“Midnight Tapes” has been uploaded and is now processing.')).toBeVisible();
  await expect(page.getByText('Submitted for Review')).toBeVisible();
  await expect(page.getByText('Estimated review time: 7-14 days')).toBeVisible();
  for (const step of ['Quality Check', 'Distribution Preparation', 'Go Live']) {
    await expect(page.getByText(step, { exact: true })).toBeVisible();
  }
  await page.getByRole('link', { name: 'View My Releases' }).click();
  await expect(page).toHaveURL('/dashboard/songs');
  const release = page.getByRole('listitem').filter({ hasText: 'Midnight Tapes' });
  await expect(release.getByText('2 tracks')).toBeVisible();

  // The draft is gone: the builder starts fresh.
  await page.goto('/dashboard/release-builder');
  await expect(page.getByLabel('Release Title')).toHaveValue('');
  media.remove();
});

async function fillTrack(page: import('@playwright/test').Page, title: string, wavPath: string) {
  await page.getByLabel('Track Title').fill(title);
  await answerAiUse(page);
  await fileInput(page, 'Audio File (WAV)').setInputFiles(wavPath);
  await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Add Songwriter' }).click();
  const writer = page.getByRole('group', { name: 'Songwriter 1' });
  await writer.getByLabel('First Name').fill('Ada');
  await writer.getByLabel('Last Name').fill('Writer');
  await expect(writer.getByLabel('Role')).toHaveValue('music_and_lyrics');
  await page.getByRole('button', { name: 'Add Producer' }).click();
  const producer = page.getByRole('group', { name: 'Producer 1' });
  await producer.getByLabel('First Name').fill('Max');
  await producer.getByLabel('Last Name').fill('Beats');
}
