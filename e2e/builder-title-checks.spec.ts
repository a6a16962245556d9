/**
 * Journey (issue 41, record 296): the title style guide in the builder, each check with its reason and a
 * button that fixes the title, for the release and a track; and again at review, where a release submitted
 * before the checks shows what the stores would refuse.
 */
import { answerAiUse, fileInput, mediaDir } from './support/builder';
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

test('title checks say why and fix the title in the builder, and show again at review', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const media = mediaDir();
  const artist = await pageAs(browser, { plan: 'basic', artistName: 'Kai Moss' });
  const admin = await pageAs(browser, { roles: ['moderator'] });
  try {
    const page = artist.page;
    await page.goto('/dashboard/release-builder');
    await page.getByLabel('Release Title').fill('MIDNIGHT TAPES');
    await page.getByLabel('Genre').selectOption('Pop');
    await page.getByLabel('Release Date', { exact: true }).fill('2031-05-01');
    await fileInput(page, 'Cover Art').setInputFiles(await media.cover('tapes.png'));
    await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Continue to Track Details' }).click();
    await expect(
      page.getByText('Stores refuse titles written in all capital letters.').first(),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Tracks' })).toHaveCount(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Fix release title: “Midnight Tapes”' }).click();
    await expect(page.getByLabel('Release Title')).toHaveValue('Midnight Tapes');
    await expect(page.getByTestId('title-checks')).toHaveCount(0);
    await page.getByRole('button', { name: 'Continue to Track Details' }).click();

    await page.getByLabel('Track Title').fill('Neon (feat. Ivy Bloom) (Official Audio)');
    await answerAiUse(page);
    await fileInput(page, 'Audio File (WAV)').setInputFiles(media.wav('neon.wav', 1));
    await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Add Songwriter' }).click();
    await page.getByRole('group', { name: 'Songwriter 1' }).getByLabel('First Name').fill('Kai');
    await page.getByRole('group', { name: 'Songwriter 1' }).getByLabel('Last Name').fill('Moss');
    await page.getByRole('button', { name: 'Add Producer' }).click();
    await page.getByRole('group', { name: 'Producer 1' }).getByLabel('First Name').fill('Ivy');
    await page.getByRole('group', { name: 'Producer 1' }).getByLabel('Last Name').fill('Bloom');
    await page.getByRole('button', { name: 'Continue to Summary' }).click();
    const checks = page.getByTestId('title-checks');
    await expect(checks).toContainText('add the artist under Featured Artists.');
    await expect(checks).toContainText('Remove the description from the title');
    await page.getByRole('button', { name: 'Fix track title: “Neon”' }).click();
    await expect(page.getByLabel('Track Title')).toHaveValue('Neon');
    await page.getByRole('button', { name: 'Continue to Summary' }).click();
    await expect(page.getByRole('heading', { name: 'Summary' })).toBeVisible();

    // At review: a release submitted before the checks shows them, with what to do.
    const owner = await seed.user({ artistName: 'Old Tapes Band' });
    const tag = Math.random().toString(36).slice(2, 8);
    await seed.release({ userId: owner.userId, title: `Old Tapes ${tag} (Official Audio)` });
    await admin.page.goto(`/admin/releases?q=${tag}`);
    const notes = admin.page.getByTestId('preflight-notes');
    await expect(notes).toContainText('Stores refuse descriptions such as "Official Audio"');
    await expect(notes).toContainText('AI use: Not answered (submitted before AI disclosure was asked)');
  } finally {
    await artist.context.close();
    await admin.context.close();
    media.remove();
  }
});
