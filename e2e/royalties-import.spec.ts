/**
 * Journey (issue 16): an admin imports a DDEX DSR file (single-record layout) with one unknown ISRC,
 * assigns it to the artist's track, posts the report; the artist sees the new balance and the ledger line,
 * downloads the statement PDF, and (Pro) sees the store breakdown. Axe-clean at 1280 and 390 px.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

/** A DSR Basic Audio file in the single-record layout (DSR.md §3.1): HEAD, one SY01.01, SR02 lines, SRFO. */
function dsrFile(options: {
  messageId: string;
  period: string;
  artist: string;
  lines: { tx: string; isrc: string; title: string; streams: number }[];
  revenue: string;
}): string {
  const [year, month] = options.period.split('-').map(Number) as [number, number];
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const sr02 = (line: (typeof options.lines)[number]) => {
    const cells = Array.from({ length: 36 }, () => '');
    cells[0] = 'SR02';
    cells[1] = 'S1';
    cells[2] = `dsp-${line.tx}`;
    cells[3] = line.isrc;
    cells[4] = line.title;
    cells[6] = options.artist;
    cells[9] = 'SoundRecording';
    cells[24] = options.artist;
    cells[26] = 'Harbour Lights';
    cells[32] = line.tx;
    cells[33] = 'true';
    cells[34] = String(line.streams);
    return cells.join('\t');
  };
  const usages = options.lines.reduce((sum, line) => sum + line.streams, 0);
  return [
    `HEAD\tdsrf/1.1/1.4.1/1.2\tBasicAudioProfileSRB\t1.2\t${options.messageId}\t${options.period}-28T00:00:00Z\t1\t1\t${options.period}-01\t${options.period}-${lastDay}\tPADPIDA99999999013\tStream Co\t\t\t\t`,
    `SY01.01\tS1\t\t\tSubscriptionModel\tOnDemandStream\tUS\tPremium\t${usages}\t\tUSD\t${options.revenue}\t\t\t`,
    ...options.lines.map(sr02),
    `SRFO\t${options.lines.length + 3}\t1`,
  ].join('\n');
}

test('an admin imports a DSR file, assigns an unknown ISRC and posts it; the artist sees the money', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const suffix = String(Number.parseInt(randomUUID().slice(0, 8), 16) % 10_000_000).padStart(7, '0');
  const knownIsrc = `QZK${suffix.slice(0, 2)}26${suffix.slice(2, 7)}`;
  const unknownIsrc = `QZU${suffix.slice(0, 2)}26${suffix.slice(2, 7)}`;
  const now = new Date();
  const period = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
  const releaseTitle = `Harbour Lights ${suffix}`;

  const artist = await pageAs(browser, { plan: 'pro', artistName: `Journey ${suffix}` });
  await seed.release({
    userId: artist.user.userId,
    title: releaseTitle,
    status: 'live',
    trackCount: 2,
    isrcs: [knownIsrc, null],
  });

  const admin = await pageAs(browser, { roles: ['admin'] });
  const { page } = admin;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/admin/royalties');
  await expect(page.getByRole('heading', { name: 'Royalty imports', level: 1 })).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);

  // The file picker is reachable by keyboard: the drop zone is the label of a real file input.
  const dsr = dsrFile({
    messageId: `E2E-${suffix}`,
    period,
    // The artist's own name, as a store reports it: another journey sets the operator's ISRC registrant, and
    // a QZ code of another registrant credited to a name that is not ours would be a sanity warning (record 187).
    artist: `Journey ${suffix}`,
    revenue: '10.00',
    lines: [
      { tx: 'T1', isrc: knownIsrc, title: 'Track 1', streams: 600 },
      { tx: 'T2', isrc: unknownIsrc, title: 'Track 2', streams: 400 },
    ],
  });
  await page.getByLabel('Drop a statement file here, or choose one').setInputFiles({
    name: `DSR_E2E_${suffix}.tsv`,
    mimeType: 'text/tab-separated-values',
    buffer: Buffer.from(dsr),
  });
  await expect(page.getByTestId('chosen-file')).toContainText(`DSR_E2E_${suffix}.tsv`);
  await page.getByLabel('Format').selectOption('dsr');
  await page.getByRole('button', { name: 'Import statement' }).click();

  await expect(page).toHaveURL(/\/admin\/royalties\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: `DSR_E2E_${suffix}.tsv` })).toBeVisible();
  // The upload answered at once (202); a worker reads the file. Its progress shows only while it
  // runs, which on a fast machine is shorter than a poll, so the journey waits for the outcome.
  await expect(page.getByTestId('import-status')).toHaveText('Ready to post');
  await expect(page.getByTestId('matched-lines')).toHaveText('1 lines');
  await expect(page.getByTestId('unmatched-lines')).toHaveText('1 lines');
  await expect(page.getByRole('table', { name: 'By store' })).toContainText('Stream Co');
  expect(await seriousA11yViolations(page)).toEqual([]);

  // The unknown ISRC waits in the queue: assign it to the artist's second track.
  const waiting = page.getByTestId('unmatched-code').filter({ hasText: unknownIsrc });
  await expect(waiting).toBeVisible();
  await waiting.getByRole('button', { name: 'Assign…' }).click();
  const dialog = page.getByRole('dialog', { name: `Assign ISRC ${unknownIsrc}` });
  await dialog.getByRole('searchbox').fill(releaseTitle);
  await dialog.getByRole('radio', { name: /2\. Track 2/ }).check();
  await dialog.getByRole('button', { name: 'Assign', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('matched-lines')).toHaveText('2 lines');
  await expect(page.getByTestId('unmatched-lines')).toHaveText('0 lines');

  // The artist has Pro analytics open while the report is posted: it updates without a reload (SSE).
  await artist.page.setViewportSize({ width: 1280, height: 900 });
  await artist.page.goto('/dashboard/analytics');
  await expect(artist.page.getByTestId('store-earnings-empty')).toBeVisible();

  // Post, after a confirmation that names the total, the artists and where every cent goes (record 189).
  await page.getByRole('button', { name: 'Post to balances' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Post this report?' });
  await expect(confirm).toContainText('10.00 USD in 2 matched lines.');
  await expect(confirm).toContainText(
    'Will credit $10.00 to 1 artist; held for pending invitations $0.00; operator fee $0.00; suspense (unmatched) $0.00.',
  );
  await confirm.getByRole('button', { name: 'Post report' }).click();
  // Posting runs as a job too; its progress may come and go before a poll sees it.
  await expect(page.getByTestId('import-status')).toHaveText('Posted');
  await expect(page.getByTestId('posted-cents')).toHaveText('$10.00');
  await expect(page.getByRole('button', { name: 'Delete import' })).toHaveCount(0);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/admin/royalties');
  await expect(page.getByRole('link', { name: `DSR_E2E_${suffix}.tsv` }).first()).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await admin.context.close();

  const artistPage = artist.page;
  await expect(artistPage.getByTestId('by-store')).toContainText('Stream Co');
  await expect(artistPage.getByTestId('store-earnings-total')).toHaveText('$10.00');

  // The artist: balance, ledger line, statement PDF.
  await artistPage.setViewportSize({ width: 1280, height: 900 });
  await artistPage.goto('/dashboard/royalties');
  await expect(artistPage.getByTestId('available-balance')).toHaveText('$10.00');
  const entry = artistPage.getByTestId('ledger-entry').first();
  await expect(entry).toContainText(`Royalties for ${period}`);
  await expect(entry).toContainText('+$10.00');
  const statement = artistPage.getByTestId('statement').first();
  await expect(statement).toContainText('$10.00');
  expect(await seriousA11yViolations(artistPage)).toEqual([]);

  const downloading = artistPage.waitForEvent('download');
  await statement.getByRole('link', { name: /as PDF$/ }).click();
  const download = await downloading;
  // Statements cover the month the report was posted in (record 190).
  expect(download.suggestedFilename()).toBe(`tunedrop-statement-${new Date().toISOString().slice(0, 7)}.pdf`);
  const pdf = await fs.readFile((await download.path()) as string);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

  await artistPage.setViewportSize({ width: 390, height: 844 });
  await artistPage.reload();
  await expect(artistPage.getByTestId('available-balance')).toHaveText('$10.00');
  expect(await seriousA11yViolations(artistPage)).toEqual([]);

  // Pro analytics: the store breakdown from the posted lines.
  await artistPage.setViewportSize({ width: 1280, height: 900 });
  await artistPage.goto('/dashboard/analytics');
  const byStore = artistPage.getByTestId('by-store');
  await expect(byStore).toContainText('Stream Co');
  await expect(byStore).toContainText('$10.00');
  await expect(artistPage.getByTestId('by-track')).toContainText(`Track 1 (${knownIsrc})`);
  await expect(artistPage.getByTestId('store-earnings-total')).toHaveText('$10.00');
  expect(await seriousA11yViolations(artistPage)).toEqual([]);
  await artistPage.setViewportSize({ width: 390, height: 844 });
  expect(await seriousA11yViolations(artistPage)).toEqual([]);
  await artist.context.close();
});

test('a generic CSV is mapped column by column, saved as a preset, reviewed and deleted unposted', async ({
  browser,
}) => {
  const suffix = String(Number.parseInt(randomUUID().slice(0, 8), 16) % 10_000_000).padStart(7, '0');
  const isrc = `QZC${suffix.slice(0, 2)}26${suffix.slice(2, 7)}`;
  const artist = await seed.user({ plan: 'basic' });
  await seed.release({ userId: artist.userId, title: `Label X ${suffix}`, status: 'live', isrcs: [isrc] });

  const admin = await pageAs(browser, { roles: ['admin'] });
  const { page } = admin;
  await page.goto('/admin/royalties');
  const fileName = `label-x-${suffix}.csv`;
  await page.getByLabel('Drop a statement file here, or choose one').setInputFiles({
    name: fileName,
    mimeType: 'text/csv',
    buffer: Buffer.from(
      `Code;Shop;Month;Qty;Net\r\n${isrc};Deezer;2026-01;1200;1.5\r\n${isrc};Deezer;2026-01;3;abc\r\n`,
    ),
  });
  await page.getByLabel('Format').selectOption('csv');
  await page.getByLabel('Exchange rate to USD').fill('1.08');

  // The mapping step reads the header row once the delimiter is right, and offers its columns.
  const mapping = page.getByRole('group', { name: 'Column mapping' });
  await mapping.getByLabel('Delimiter').selectOption({ label: 'Semicolon (;)' });
  await expect(
    mapping.getByLabel('ISRC', { exact: true }).locator('option', { hasText: 'Code' }),
  ).toHaveCount(1);
  await mapping.getByLabel('Mapping name').fill(`Label X ${suffix}`);
  await mapping.getByLabel('Amount currency').fill('EUR');
  await mapping.getByLabel('ISRC', { exact: true }).selectOption('Code');
  await mapping.getByLabel('Store').selectOption('Shop');
  await mapping.getByLabel('Sales period').selectOption('Month');
  await mapping.getByLabel('Units').selectOption('Qty');
  await mapping.getByLabel('Amount (required)').selectOption('Net');
  await mapping.getByRole('button', { name: 'Save mapping' }).click();
  await expect(mapping.getByLabel('Saved mapping')).toHaveValue(/[0-9a-f-]{36}/);
  await expect(mapping.getByLabel('Saved mapping').locator('option:checked')).toHaveText(`Label X ${suffix}`);
  await page.getByRole('button', { name: 'Import statement' }).click();

  await expect(page).toHaveURL(/\/admin\/royalties\/[0-9a-f-]{36}$/);
  await expect(page.getByText('1 EUR = 1.08 USD')).toBeVisible();
  await expect(page.getByTestId('matched-lines')).toHaveText('1 lines');
  await expect(page.getByTestId('refused-lines')).toContainText('Line 3');
  await expect(page.getByTestId('refused-lines')).toContainText('the amount "abc" is not a decimal number');

  await page.getByRole('button', { name: 'Delete import' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this import?' });
  await expect(confirm).toContainText(fileName);
  await confirm.getByRole('button', { name: 'Delete import' }).click();
  await expect(page).toHaveURL(/\/admin\/royalties$/);
  await expect(page.getByRole('link', { name: fileName })).toHaveCount(0);
  await admin.context.close();
});

test('an import whose run stopped says so on the admin page and finishes after the admin retries it', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const suffix = String(Number.parseInt(randomUUID().slice(0, 8), 16) % 10_000_000).padStart(7, '0');
  const fileName = `stuck-${suffix}.tsv`;
  await seed.stuckRoyaltyImport({
    fileName,
    content: [
      'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)',
      `2025-05-02\t2025-03\tStore ${suffix}\tNobody\tSong\tQZS${suffix.slice(0, 2)}26${suffix.slice(2, 7)}\t\t10\t100\tSong\tUS\t0\t1.25`,
    ].join('\n'),
  });
  const admin = await pageAs(browser, { roles: ['admin'] });
  const { page } = admin;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/admin/royalties');
  const row = page.getByRole('row').filter({ hasText: fileName });
  // Not "Has errors": it waits, and the page says that no retry is scheduled.
  await expect(row).toContainText('The run stopped and no retry is scheduled.');
  await expect(row).not.toContainText('Has errors');
  expect(await seriousA11yViolations(page)).toEqual([]);
  await row.getByRole('button', { name: `Retry now: ${fileName}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Retry this import now?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await row.getByRole('button', { name: `Retry now: ${fileName}` }).click();
  await confirm.getByRole('button', { name: 'Retry now' }).click();
  await expect(page.getByText('Retry queued: the import goes on from where it stopped.')).toBeVisible();
  await expect(row).toContainText('Ready to post', { timeout: 30_000 });
  await expect(row.getByTestId('import-retry')).toHaveCount(0);
  await admin.context.close();
});
