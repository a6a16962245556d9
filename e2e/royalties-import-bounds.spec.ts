/**
 * Journey (issue 22 findings 6 and 10, records 151 and 152): an admin types an absurd exchange rate and
 * the form says the bounds; uploads a gzip bomb and is told at once which line is too long; imports a
 * statement with an over-long line, sees the failed import name the line, and imports the same file again
 * instead of being told it was already imported.
 */
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

const HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';

test('an admin is told which line of a report is out of bounds, and can import a failed file again', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const suffix = String(Number.parseInt(randomUUID().slice(0, 8), 16) % 10_000_000).padStart(7, '0');
  const isrc = `QZB${suffix.slice(0, 2)}26${suffix.slice(2, 7)}`;
  const artist = await seed.user({ plan: 'basic' });
  await seed.release({ userId: artist.userId, title: `Bounds ${suffix}`, status: 'live', isrcs: [isrc] });
  const sale = (amount: string) =>
    `2026-01-02\t2025-12\tSpotify\tBounds\tSong\t${isrc}\t\t10\t100\tSong\tUS\t0\t${amount}`;

  const admin = await pageAs(browser, { roles: ['admin'] });
  const { page } = admin;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/admin/royalties');
  // The drop zone's label reads "Choose another file" once a file is chosen: the input itself.
  const fileInput = page.locator('input[type="file"]');
  const importButton = page.getByRole('button', { name: 'Import statement' });

  // An exchange rate of 1e23 is refused by the form, with the bounds.
  await fileInput.setInputFiles({
    name: `rate-${suffix}.tsv`,
    mimeType: 'text/tab-separated-values',
    buffer: Buffer.from([HEADER, sale('1.00')].join('\n')),
  });
  const rate = page.getByLabel('Exchange rate to USD');
  await rate.fill('100000000000000000000000');
  await importButton.click();
  await expect(
    page.getByText('The exchange rate must be between 0.000000001 and 1000 USD per unit'),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/royalties$/);
  await rate.fill('');

  // A gzip bomb: 50 MB of one line in about 50 KB. Refused, naming the line and the limit (on the upload
  // form when the upload is read at once, on the import page when a job reads it).
  await fileInput.setInputFiles({
    name: `bomb-${suffix}.tsv.gz`,
    mimeType: 'application/gzip',
    buffer: gzipSync(Buffer.alloc(50 * 1024 * 1024, 'a'), { level: 9 }),
  });
  await importButton.click();
  await expect(
    page.getByText('Line 1 is longer than 64 KiB (ROYALTY_MAX_LINE_BYTES); nothing was imported.').first(),
  ).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);

  // A statement whose third line is 100 KB long: the import fails and names the line.
  await page.goto('/admin/royalties');
  const fileName = `long-line-${suffix}.tsv`;
  const longLine = Buffer.from(
    [HEADER, sale('1.00'), `${sale('2.00')}\t${'x'.repeat(100 * 1024)}`].join('\n'),
  );
  await fileInput.setInputFiles({ name: fileName, mimeType: 'text/tab-separated-values', buffer: longLine });
  await importButton.click();
  await expect(page).toHaveURL(/\/admin\/royalties\/[0-9a-f-]{36}$/);
  const firstUrl = page.url();
  await expect(
    page.getByText('Line 3 is longer than 64 KiB (ROYALTY_MAX_LINE_BYTES); nothing was imported.').first(),
  ).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);

  // The same bytes again: a failed import does not hold its file, so this is a new import, not a 409.
  await page.goto('/admin/royalties');
  await fileInput.setInputFiles({ name: fileName, mimeType: 'text/tab-separated-values', buffer: longLine });
  await importButton.click();
  await expect(page).toHaveURL(
    (url) => /\/admin\/royalties\/[0-9a-f-]{36}$/.test(url.pathname) && url.href !== firstUrl,
  );
  await expect(
    page.getByText('Line 3 is longer than 64 KiB (ROYALTY_MAX_LINE_BYTES); nothing was imported.').first(),
  ).toBeVisible();
  await expect(page.getByText('This file was already imported.')).toHaveCount(0);
  await admin.context.close();
});
