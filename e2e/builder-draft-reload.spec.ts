import { answerAiUse, fileInput, mediaDir } from './support/builder';
import { expect, pageAs, test } from './support/test';

test('a reload mid-wizard, or coming back later, restores the draft with its uploaded files', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const media = mediaDir();
  const { page } = await pageAs(browser, { plan: 'basic', artistName: 'Echo Park' });
  await page.goto('/dashboard/release-builder');
  await page.getByLabel('Release Title').fill('Saved Songs');
  await page.getByLabel('Genre').selectOption('Folk');
  await page.getByLabel('Release Date', { exact: true }).fill('2032-03-03');
  await fileInput(page, 'Cover Art').setInputFiles(await media.cover('saved.png'));
  await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Continue to Track Details' }).click();

  await page.getByLabel('Number of Tracks').selectOption('2');
  await page.getByLabel('Track Title').fill('Kept Track');
  await answerAiUse(page);
  await fileInput(page, 'Audio File (WAV)').setInputFiles(media.wav('kept.wav', 2));
  await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Add Songwriter' }).click();
  await page.getByRole('group', { name: 'Songwriter 1' }).getByLabel('First Name').fill('Remy');
  await page.getByRole('group', { name: 'Songwriter 1' }).getByLabel('Last Name').fill('Memory');
  await expect(page.getByTestId('save-state')).toHaveText('Draft saved');

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Tracks' })).toBeVisible();
  await expect(page.getByTestId('track-tab')).toHaveText(['1. Kept Track', '2. Track 2']);
  await expect(page.getByLabel('Track Title')).toHaveValue('Kept Track');
  await expect(page.getByTestId('file-name')).toHaveText('kept.wav');
  await expect(page.getByTestId('file-size')).toHaveText('0.34 MB');
  await expect(page.getByText('Uploaded and checked')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Songwriter 1' }).getByLabel('First Name')).toHaveValue(
    'Remy',
  );

  // Coming back later: leave the builder, return.
  await page.getByRole('link', { name: 'Upload Music' }).click();
  await page.getByRole('link', { name: 'Start Release Builder' }).click();
  await page.getByRole('button', { name: 'Back to Release Details' }).click();
  await expect(page.getByLabel('Release Title')).toHaveValue('Saved Songs');
  await expect(page.getByLabel('Genre')).toHaveValue('Folk');
  await expect(page.getByText('Uploaded and checked')).toBeVisible();
  const preview = page.getByRole('img', { name: 'Cover art preview' });
  await expect(preview).toBeVisible();
  await expect
    .poll(() => preview.evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBeGreaterThan(0);

  // The restored files are good for the submission.
  await page.getByRole('button', { name: 'Continue to Track Details' }).click();
  await page.getByRole('button', { name: /^2\. Track 2/ }).click();
  await page.getByLabel('Track Title').fill('Fresh Track');
  await answerAiUse(page);
  await fileInput(page, 'Audio File (WAV)').setInputFiles(media.wav('fresh.wav', 1));
  await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
  for (const track of ['1. Kept Track', '2. Fresh Track']) {
    await page.getByRole('button', { name: track }).click();
    if (track.startsWith('2')) {
      await page.getByRole('button', { name: 'Add Songwriter' }).click();
      await page.getByRole('group', { name: 'Songwriter 1' }).getByLabel('First Name').fill('Remy');
      await page.getByRole('group', { name: 'Songwriter 1' }).getByLabel('Last Name').fill('Memory');
    }
    await page.getByRole('button', { name: 'Add Producer' }).click();
    await page.getByRole('group', { name: 'Producer 1' }).getByLabel('First Name').fill('Pia');
    await page.getByRole('group', { name: 'Producer 1' }).getByLabel('Last Name').fill('Mix');
  }
  await page.getByRole('button', { name: 'Continue to Summary' }).click();
  await page.getByRole('button', { name: 'Continue to Distribution' }).click();
  await page.getByRole('button', { name: 'Deezer', exact: true }).click();
  await page.getByRole('button', { name: 'Submit Release' }).click();
  await expect(page.getByRole('heading', { name: 'Release Submitted Successfully!' })).toBeVisible({
    timeout: 30_000,
  });
  media.remove();
});

test('"Draft saved" is shown only once the last change is saved, not when an older save answers', async ({
  browser,
}) => {
  const { page } = await pageAs(browser, { plan: 'basic' });
  await page.goto('/dashboard/release-builder');
  await page.getByLabel('Release Title').fill('First Title');
  await expect(page.getByTestId('save-state')).toHaveText('Draft saved');

  // Every later save waits until the journey lets it through, in the order they were sent.
  const held: { title: string; release: () => void }[] = [];
  await page.route('**/api/builder/draft', async (route) => {
    if (route.request().method() !== 'PUT') return route.continue();
    const title = (route.request().postDataJSON() as { release: { title: string } }).release.title;
    await new Promise<void>((resolve) => held.push({ title, release: resolve }));
    await route.continue();
  });
  // Which saves' answers the page has handled: the app read the answer, its callbacks ran, React rendered
  // what they set and a frame was drawn (nothing on the page shows it when an older answer is ignored).
  await page.evaluate(() => {
    const handled: string[] = [];
    Object.assign(window, { handledSaves: handled });
    const fetchBefore = window.fetch;
    window.fetch = async (input, init) => {
      const response = await fetchBefore(input, init);
      if (init?.method?.toUpperCase() !== 'PUT' || !String(input).endsWith('/api/builder/draft'))
        return response;
      const title = (JSON.parse(String(init.body)) as { release: { title: string } }).release.title;
      const text = response.text.bind(response);
      response.text = () =>
        text().then((body) => {
          requestAnimationFrame(() => requestAnimationFrame(() => handled.push(title)));
          return body;
        });
      return response;
    };
  });
  const handledSaves = () =>
    page.evaluate(() => (window as unknown as { handledSaves: string[] }).handledSaves);
  await page.getByLabel('Release Title').fill('Second Title');
  await expect.poll(() => held.map((save) => save.title)).toEqual(['Second Title']);
  await page.getByLabel('Release Title').fill('Third Title');
  await expect(page.getByTestId('save-state')).toHaveText('Saving draft…');
  await expect.poll(() => held.map((save) => save.title)).toEqual(['Second Title', 'Third Title']);

  // The older save answers: the newer one is still on its way, so the page must not say "Draft saved".
  held[0]?.release();
  await expect.poll(handledSaves).toEqual(['Second Title']);
  await expect(page.getByTestId('save-state')).toHaveText('Saving draft…');

  held[1]?.release();
  await expect.poll(handledSaves).toEqual(['Second Title', 'Third Title']);
  await expect(page.getByTestId('save-state')).toHaveText('Draft saved');
  await page.unroute('**/api/builder/draft');
  await page.reload();
  await expect(page.getByLabel('Release Title')).toHaveValue('Third Title');
});
