import { statSync } from 'node:fs';
import { fileInput, mediaDir } from './support/builder';
import { expect, pageAs, test } from './support/test';

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

  // About 21 MB sent through a 4 MB/s link; the page is reloaded once more than 40% is through,
  // which drops the connection in the middle of the request.
  const wav = media.wav('long-take.wav', 120);
  const size = statSync(wav).size;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 4 * 1024 * 1024,
  });
  await fileInput(page, 'Audio File (WAV)').setInputFiles(wav);
  await expect(page.getByTestId('upload-percent')).toHaveText(/^([4-8][0-9])%$/, { timeout: 30_000 });
  await expect(page.getByTestId('save-state')).toHaveText('Draft saved');
  await page.reload();

  const interrupted = page.getByText(/Upload interrupted at \d+%\. Choose the same file again to resume\./);
  await expect(interrupted).toBeVisible();
  const kept = Number(/at (\d+)%/.exec((await interrupted.textContent()) ?? '')?.[1]);
  expect(kept).toBeGreaterThanOrEqual(20);
  expect(kept).toBeLessThan(100);
  await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();

  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  const offsets: number[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PATCH') offsets.push(Number(request.headers()['upload-offset']));
  });
  await fileInput(page, 'Audio File (WAV)').setInputFiles(wav);
  await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 60_000 });
  // It continued from the bytes the server kept instead of starting over.
  expect(offsets.length).toBeGreaterThan(0);
  expect(offsets[0]).toBeGreaterThanOrEqual(Math.floor((size * kept) / 100));
  expect(offsets).not.toContain(0);
  media.remove();
});
