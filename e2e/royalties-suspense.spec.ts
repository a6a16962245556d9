/**
 * Journey (issue 25, decision 188): an admin posts a DistroKid statement with a code we do not know; its
 * money is held in suspense on /admin/royalties (found by searching its title), later assigned to the
 * artist's track; the artist's balance rises by exactly that money. Axe-clean at 1280 and 390 px.
 */
import { randomUUID } from 'node:crypto';
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

const HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';

test('unmatched money posted to suspense is later assigned and reaches the artist exactly', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const suffix = String(Number.parseInt(randomUUID().slice(0, 8), 16) % 10_000_000).padStart(7, '0');
  const knownIsrc = `QZK${suffix.slice(0, 2)}26${suffix.slice(2, 7)}`;
  const unknownIsrc = `QZS${suffix.slice(0, 2)}26${suffix.slice(2, 7)}`;
  const now = new Date();
  const period = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  const lostTitle = `Lost Tide ${suffix}`;
  const releaseTitle = `Suspense Songs ${suffix}`;
  const sale = (title: string, isrc: string, store: string, amount: string) =>
    `${period}-28\t${period}\t${store}\tSuspense ${suffix}\t${title}\t${isrc}\t\t100\t100\tSong\tUS\t0\t${amount}`;

  const artist = await pageAs(browser, { plan: 'basic', artistName: `Suspense ${suffix}` });
  await seed.release({
    userId: artist.user.userId,
    title: releaseTitle,
    status: 'live',
    trackCount: 2,
    isrcs: [knownIsrc, null],
    releaseDate: '2020-01-01',
  });

  const admin = await pageAs(browser, { roles: ['admin'] });
  const { page } = admin;
  await page.setViewportSize({ width: 1280, height: 900 });

  // A statement with one known line ($1.00) and two lines of a code nobody has ($2.50 + $0.25).
  const fileName = `distrokid-${suffix}-suspense.tsv`;
  await page.goto('/admin/royalties');
  await page.getByLabel('Drop a statement file here, or choose one').setInputFiles({
    name: fileName,
    mimeType: 'text/tab-separated-values',
    buffer: Buffer.from(
      `${[
        HEADER,
        sale('Known Song', knownIsrc, 'Spotify', '1.00'),
        sale(lostTitle, unknownIsrc, 'Spotify', '2.50'),
        sale(lostTitle, unknownIsrc, 'Deezer', '0.25'),
      ].join('\n')}\n`,
    ),
  });
  await expect(page.getByTestId('chosen-file')).toContainText(fileName);
  await page.getByRole('button', { name: 'Import statement' }).click();
  await expect(page.getByRole('heading', { name: fileName })).toBeVisible();
  await expect(page.getByTestId('import-status')).toHaveText('Ready to post');
  await page.getByRole('button', { name: 'Post to balances' }).click();
  await page
    .getByRole('alertdialog', { name: 'Post this report?' })
    .getByRole('button', { name: 'Post report' })
    .click();
  await expect(page.getByTestId('import-status')).toHaveText('Posted');
  await expect(page.getByTestId('posted-cents')).toHaveText('$1.00');

  await artist.page.setViewportSize({ width: 1280, height: 900 });
  await artist.page.goto('/dashboard/royalties');
  await expect(artist.page.getByTestId('available-balance')).toHaveText('$1.00');

  // The unknown code's money is held in suspense, found by the title the report gave it.
  await page.goto('/admin/royalties');
  const suspense = page.getByTestId('suspense-account');
  await expect(suspense.getByRole('heading', { name: 'Suspense' })).toBeVisible();
  await expect(page.getByTestId('suspense-total')).toContainText('USD');
  await suspense.getByLabel('Search suspense by code, title or artist').fill(lostTitle);
  const held = suspense.getByTestId('suspense-code');
  await expect(held).toHaveCount(1);
  await expect(held).toContainText(unknownIsrc);
  await expect(held).toContainText('2 lines in 1 report');
  await expect(held).toContainText('2.75 USD');
  await held.getByText('Lines', { exact: true }).click();
  await expect(held.getByRole('row').filter({ hasText: 'Deezer' })).toContainText(fileName);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(held.getByRole('button', { name: 'Assign…' })).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });

  // Assigned to the artist's second track: the held $2.75 is paid and the code is remembered.
  await held.getByRole('button', { name: 'Assign…' }).click();
  const dialog = page.getByRole('dialog', { name: `Assign ISRC ${unknownIsrc}` });
  await dialog.getByLabel('Search releases by title, artist or email').fill(releaseTitle);
  await dialog.getByLabel(/^2\. /).check();
  await dialog.getByRole('button', { name: 'Assign', exact: true }).click();
  await expect(page.getByText('$2.75 credited from 2 held lines')).toBeVisible();
  await expect(suspense.getByTestId('suspense-empty')).toContainText(
    `Nothing held in suspense matches “${lostTitle}”.`,
  );
  await admin.context.close();

  await artist.page.reload();
  await expect(artist.page.getByTestId('available-balance')).toHaveText('$3.75');
  await artist.context.close();
});
