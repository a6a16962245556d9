/**
 * Journey (issue 25, decision 186): a DistroKid statement is posted; a month later the admin imports
 * DistroKid's cumulative re-export (the same lines plus one new sale). The summary says which lines were
 * already posted, in which report and on which day, with their count and amount; posting credits the
 * artist only the new line. Axe-clean at 1280 and 390 px.
 */
import { randomUUID } from 'node:crypto';
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

const HEADER =
  'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';

test('a cumulative re-export of a posted statement credits only its new line', async ({ browser }) => {
  test.setTimeout(120_000);
  const suffix = String(Number.parseInt(randomUUID().slice(0, 8), 16) % 10_000_000).padStart(7, '0');
  const isrc = `QZO${suffix.slice(0, 2)}26${suffix.slice(2, 7)}`;
  const now = new Date();
  const period = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  const sale = (store: string, country: string, quantity: number, amount: string) =>
    `${period}-28\t${period}\t${store}\tOverlap ${suffix}\tHarbour\t${isrc}\t\t${quantity}\t100\tSong\t${country}\t0\t${amount}`;
  const october = [sale('Spotify', 'US', 1000, '3.20'), sale('Apple Music', 'DE', 10, '0.10')];

  const artist = await pageAs(browser, { plan: 'basic', artistName: `Overlap ${suffix}` });
  await seed.release({
    userId: artist.user.userId,
    title: `Harbour ${suffix}`,
    status: 'live',
    isrcs: [isrc],
    releaseDate: '2020-01-01',
  });

  const admin = await pageAs(browser, { roles: ['admin'] });
  const { page } = admin;
  await page.setViewportSize({ width: 1280, height: 900 });

  const importFile = async (name: string, lines: string[]) => {
    await page.goto('/admin/royalties');
    await page.getByLabel('Drop a statement file here, or choose one').setInputFiles({
      name,
      mimeType: 'text/tab-separated-values',
      buffer: Buffer.from(`${[HEADER, ...lines].join('\n')}\n`),
    });
    await expect(page.getByTestId('chosen-file')).toContainText(name);
    await page.getByRole('button', { name: 'Import statement' }).click();
    await expect(page.getByRole('heading', { name })).toBeVisible();
    await expect(page.getByTestId('import-status')).toHaveText('Ready to post');
  };
  const postReport = async (expected: string[]) => {
    await page.getByRole('button', { name: 'Post to balances' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Post this report?' });
    for (const text of expected) await expect(confirm).toContainText(text);
    await confirm.getByRole('button', { name: 'Post report' }).click();
    await expect(page.getByTestId('import-status')).toHaveText('Posted');
  };

  // The October statement, posted: $3.30 to the artist.
  const first = `distrokid-${suffix}-october.tsv`;
  await importFile(first, october);
  await expect(page.getByTestId('matched-lines')).toHaveText('2 lines');
  await expect(page.getByTestId('overlap')).toHaveCount(0);
  await postReport(['in 2 matched lines', 'Will credit $3.30 to 1 artist']);
  await expect(page.getByTestId('posted-cents')).toHaveText('$3.30');

  await artist.page.setViewportSize({ width: 1280, height: 900 });
  await artist.page.goto('/dashboard/royalties');
  await expect(artist.page.getByTestId('available-balance')).toHaveText('$3.30');

  // DistroKid's next download repeats October's lines and adds one sale.
  const second = `distrokid-${suffix}-cumulative.tsv`;
  await importFile(second, [...october, sale('Deezer', 'FR', 7, '0.07')]);
  const overlap = page.getByTestId('overlap');
  await expect(overlap.getByRole('heading', { name: 'Already posted' })).toBeVisible();
  await expect(page.getByTestId('overlap-summary')).toHaveText(
    '2 lines (3.30 USD) of this report were already posted and are left out.',
  );
  await expect(page.getByTestId('overlap-report')).toContainText(
    `2 lines · 3.30 USD: already posted in ${first} on`,
  );
  await expect(page.getByTestId('matched-lines')).toHaveText('1 lines');
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('overlap-summary')).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });

  await postReport([
    'in 1 matched lines',
    '2 lines already posted by another report are left out.',
    'Will credit $0.07 to 1 artist',
  ]);
  await expect(page.getByTestId('posted-cents')).toHaveText('$0.07');
  await admin.context.close();

  // The artist's balance rose by the new sale only.
  await artist.page.reload();
  await expect(artist.page.getByTestId('available-balance')).toHaveText('$3.37');
  await artist.context.close();
});
