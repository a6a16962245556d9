/**
 * Journey (issue 41, record 298): the audio pre-flight checks. A lossy file saved as WAV is refused in the
 * builder with its reason and how to fix it; a clipped file with 5 s of silence at the start passes with
 * both warnings under it; after submission review shows the warnings again on the card.
 */
import { answerAiUse, fileInput, mediaDir } from './support/builder';
import { expect, pageAs, seriousA11yViolations, test } from './support/test';

test('a lossy file re-encoded to WAV is refused with its reason; clipping and silence warn in the builder and at review', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const media = mediaDir();
  const tag = Math.random().toString(36).slice(2, 8);
  const title = `Static ${tag}`;
  const artist = await pageAs(browser, { plan: 'basic', artistName: 'Rua Static' });
  const admin = await pageAs(browser, { roles: ['moderator'] });
  try {
    const page = artist.page;
    await page.goto('/dashboard/release-builder');
    await page.getByLabel('Release Title').fill(title);
    await page.getByLabel('Genre').selectOption('Electronic');
    await page.getByLabel('Release Date', { exact: true }).fill('2031-06-01');
    await fileInput(page, 'Cover Art').setInputFiles(await media.cover('static.png'));
    await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Continue to Track Details' }).click();

    await page.getByLabel('Track Title').fill('Hiss');
    await answerAiUse(page);
    await fileInput(page, 'Audio File (WAV)').setInputFiles(media.lossyWav('hiss-from-mp3.wav'));
    const refusal = page.getByRole('alert').filter({ hasText: 'looks like a lossy file' });
    await expect(refusal).toBeVisible({ timeout: 30_000 });
    await expect(refusal).toContainText('its sound stops abruptly at 16');
    await expect(refusal).toContainText('Export the WAV again from your original project or lossless master');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await fileInput(page, 'Audio File (WAV)').setInputFiles(media.clippedWav('hiss-master.wav'));
    await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
    const warnings = page.getByTestId('audio-checks');
    await expect(warnings).toContainText('The audio clips: it stays flat at full scale in 400 places');
    await expect(warnings).toContainText('The track starts with 5 s of silence.');
    await expect(warnings).toContainText('Trim the silence at the start and upload the new WAV');
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Add Songwriter' }).click();
    await page.getByRole('group', { name: 'Songwriter 1' }).getByLabel('First Name').fill('Rua');
    await page.getByRole('group', { name: 'Songwriter 1' }).getByLabel('Last Name').fill('Static');
    await page.getByRole('button', { name: 'Add Producer' }).click();
    await page.getByRole('group', { name: 'Producer 1' }).getByLabel('First Name').fill('Rua');
    await page.getByRole('group', { name: 'Producer 1' }).getByLabel('Last Name').fill('Static');
    await page.getByRole('button', { name: 'Continue to Summary' }).click();
    await expect(page.getByRole('heading', { name: 'Summary' })).toBeVisible();
    await page.getByRole('button', { name: 'Continue to Distribution' }).click();
    await page.getByRole('button', { name: 'Deezer', exact: true }).click();
    await page.getByRole('button', { name: 'Submit Release' }).click();
    await expect(page.getByRole('heading', { name: 'Release Submitted Successfully!' })).toBeVisible({
      timeout: 30_000,
    });

    await admin.page.goto(`/admin/releases?q=${tag}`);
    const notes = admin.page.getByTestId('preflight-notes');
    await expect(notes).toContainText('Track 1 “Hiss” audio: The audio clips');
    await expect(notes).toContainText('Track 1 “Hiss” audio: The track starts with 5 s of silence.');
  } finally {
    await artist.context.close();
    await admin.context.close();
    media.remove();
  }
});
