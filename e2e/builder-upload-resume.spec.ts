import { fileInput, mediaDir } from './support/builder';
import { expect, pageAs, test } from './support/test';

const CHUNK = 16 * 1024 * 1024;

test('an upload interrupted halfway resumes from where it stopped after a reload', async ({ browser }) => {
  test.setTimeout(180_000);
  const media = mediaDir();
  const { page } = await pageAs(browser, { plan: 'pro' });
  await page.goto('/dashboard/release-builder');
  await page.getByLabel('Release Title').fill('Long Upload');
  await page.getByLabel('Genre').selectOption('Jazz');
  await page.getByLabel('Release Date', { exact: true }).fill('2031-09-09');
  await page.getByLabel('Copyright Holder').fill('Me');
  await page.getByLabel('Publishing Holder').fill('Me');
  await fileInput(page, 'Cover Art').setInputFiles(await media.cover());
  await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Continue to Track Details' }).click();

  // About 38 MB: three 16 MiB chunks. The connection drops after the first chunk.
  const wav = media.wav('long-take.wav', 225);
  let patches = 0;
  await page.route('**/api/uploads/*', async (route) => {
    if (route.request().method() === 'PATCH') {
      patches += 1;
      if (patches > 1) return route.abort('connectionreset');
    }
    return route.continue();
  });
  await fileInput(page, 'Audio File (WAV)').setInputFiles(wav);
  await expect(page.getByTestId('upload-percent')).toHaveText(/^(4[0-9])%$/, { timeout: 30_000 });
  await expect.poll(() => patches).toBeGreaterThan(1);
  await expect(page.getByTestId('save-state')).toHaveText('Draft saved');
  await page.unroute('**/api/uploads/*');

  await page.reload();
  await expect(
    page.getByText(/Upload interrupted at 4\d%\. Choose the same file again to resume\./),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();

  const offsets: number[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PATCH') offsets.push(Number(request.headers()['upload-offset']));
  });
  await fileInput(page, 'Audio File (WAV)').setInputFiles(wav);
  await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 60_000 });
  // It continued at the first chunk's end instead of starting over.
  expect(offsets[0]).toBe(CHUNK);
  expect(offsets).not.toContain(0);
  media.remove();
});
