import { answerAiUse, fileInput, mediaDir } from './support/builder';
import { expect, pageAs, seriousA11yViolations, test } from './support/test';

test('a Pro artist submits a two-track release with codes, a label and several primary artists', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const media = mediaDir();
  const { page } = await pageAs(browser, { plan: 'pro', artistName: 'Orbit Club' });
  await page.goto('/dashboard/release-builder');

  // Step 1: Pro may edit holders, years, UPC, label and the original release date.
  await page.getByLabel('Release Title').fill('Satellites');
  await page.getByLabel('Genre').selectOption('Pop');
  await page.getByLabel('Release Date', { exact: true }).fill('2031-06-01');
  await expect(page.getByLabel('Copyright Holder')).toHaveValue('');
  await page.getByLabel('Copyright Holder').fill('Orbit Records');
  await page.getByLabel('Publishing Holder').fill('Orbit Publishing');
  await page.getByLabel('Copyright Year').fill('1899');
  await page.getByLabel('UPC (optional)').fill('036000291453');
  await page.getByLabel('Label Name (optional)').fill('Orbit Records');
  await page.getByLabel('Original Release Date (optional)').fill('2019-01-01');
  await fileInput(page, 'Cover Art').setInputFiles(await media.cover('satellites.jpg', 3000, 'jpeg'));
  await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Continue to Track Details' }).click();
  await expect(page.getByText('Valid copyright year is required (1900 or later)')).toBeVisible();
  await expect(page.getByText('UPC must be 12 or 13 digits with a valid check digit')).toBeVisible();
  await page.getByLabel('Copyright Year').fill('2020');
  await page.getByLabel('UPC (optional)').fill('036000291452');
  await page.getByRole('button', { name: 'Continue to Track Details' }).click();

  // Step 2.
  await page.getByLabel('Number of Tracks').selectOption('2');
  await page.getByLabel('Track Title').fill('Liftoff');
  await answerAiUse(page);
  await fileInput(page, 'Audio File (WAV)').setInputFiles(media.wav('liftoff.wav', 1, 24));
  await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('ISRC (optional)').fill('us-or1-24-00001');

  const primary = page.getByRole('group', { name: 'Primary Artists' });
  // Without Spotify credentials the search says so; typing a name and pasting a link still work.
  await primary.getByRole('button', { name: 'Search Spotify' }).click();
  const dialog = page.getByRole('dialog', { name: 'Search for Artist' });
  await expect(
    dialog.getByText('Artist search is not configured on this server.', { exact: false }),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await primary.getByLabel('Artist Name').fill('Orbit Club');
  await primary.getByLabel('Spotify Link (optional)').fill('https://open.spotify.com/album/123');
  await primary.getByRole('button', { name: 'Add Primary Artist' }).click();
  await expect(page.getByText('Invalid URL', { exact: true })).toBeVisible();
  await expect(primary.getByText('Please enter a valid Spotify artist link')).toBeVisible();
  await primary
    .getByLabel('Spotify Link (optional)')
    .fill('https://open.spotify.com/artist/0OdUWJ0sBjDrqHygGUXeCF');
  await primary.getByRole('button', { name: 'Add Primary Artist' }).click();
  for (const name of ['Guest Pilot', 'orbit club', 'Moon Unit', 'Star Dust']) {
    await primary.getByLabel('Artist Name').fill(name);
    await primary.getByRole('button', { name: 'Add Primary Artist' }).click();
  }
  // 'orbit club' was a duplicate by name and was ignored: four artists, the limit.
  await expect(primary.getByRole('listitem')).toHaveCount(4);
  await primary.getByLabel('Artist Name').fill('Fifth Element');
  await primary.getByRole('button', { name: 'Add Primary Artist' }).click();
  const warning = primary.getByText('Maximum 4 primary artists per track (Spotify limit).');
  await expect(warning).toBeVisible();
  await expect(warning).toBeHidden({ timeout: 5_000 });
  await expect(primary.getByRole('listitem')).toHaveCount(4);

  const featured = page.getByRole('group', { name: 'Featured Artists' });
  await featured.getByLabel('Artist Name').fill('Comet Kid');
  await featured.getByRole('button', { name: 'Add Featured Artist' }).click();
  await addCredits(page);
  expect(await seriousA11yViolations(page)).toEqual([]);

  await page.getByRole('button', { name: /^2\. Track 2/ }).click();
  await page.getByLabel('Track Title').fill('Re-entry');
  await answerAiUse(page);
  await fileInput(page, 'Audio File (WAV)').setInputFiles(media.wav('reentry.wav', 1));
  await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('ISRC (optional)').fill('USOR12400002');
  await page.getByRole('group', { name: 'Primary Artists' }).getByLabel('Artist Name').fill('Orbit Club');
  await page.getByRole('button', { name: 'Add Primary Artist' }).click();
  await addCredits(page);
  await page.getByRole('button', { name: 'Continue to Summary' }).click();

  // Step 3: artists are de-duplicated across tracks; ISRCs show for Pro.
  await expect(page.getByRole('heading', { name: 'Summary' })).toBeVisible();
  await expect(page.getByText('Orbit Club, Guest Pilot, Moon Unit, Star Dust')).toBeVisible();
  await expect(page.getByText('Comet Kid')).toBeVisible();
  await expect(page.getByText('036000291452')).toBeVisible();
  await expect(page.getByText('ISRC: US-OR1-24-00001')).toBeVisible();
  await expect(page.getByText('Get more with Pro')).toHaveCount(0);
  await page.getByRole('button', { name: 'Continue to Distribution' }).click();

  await page.getByRole('button', { name: 'Select All', exact: true }).click();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Submit Release' }).click();
  await expect(page.getByRole('heading', { name: 'Release Submitted Successfully!' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByText('Estimated review time: 1-2 days')).toBeVisible();
  await expect(page.getByText('prioritised review')).toBeVisible();

  // Upload Another Release starts a fresh wizard.
  await page.getByRole('link', { name: 'Upload Another Release' }).click();
  await expect(page.getByLabel('Release Title')).toHaveValue('');
  await expect(page.getByText('Uploaded and checked')).toHaveCount(0);
  media.remove();
});

async function addCredits(page: import('@playwright/test').Page) {
  await page.getByRole('button', { name: 'Add Songwriter' }).click();
  const writer = page.getByRole('group', { name: 'Songwriter 1' });
  await writer.getByLabel('First Name').fill('Lena');
  await writer.getByLabel('Middle Name (optional)').fill('M');
  await writer.getByLabel('Last Name').fill('Lyric');
  await writer.getByLabel('Role').selectOption('lyrics');
  await page.getByRole('button', { name: 'Add Producer' }).click();
  const producer = page.getByRole('group', { name: 'Producer 1' });
  await producer.getByLabel('First Name').fill('Dex');
  await producer.getByLabel('Last Name').fill('Knobs');
}
