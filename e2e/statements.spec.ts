/**
 * Journey (issue 25, finding 6; record 190): the operator sets the statement issuer on Admin Settings; a report
 * is posted; the artist views this month's statement on Royalties (opening balance, gross earnings, fee, net,
 * closing balance, the store rows adding up to the gross) and downloads it as PDF and CSV, headed by the
 * operator's name, the CSV's total the sum of its rows; analytics say which figures are gross and which are
 * the artist's share. Readable at 1280 and 390 px.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { e2eEnv } from './support/env';
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

test('an artist views and downloads a statement with opening and closing balances, headed by the operator', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const suffix = String(Number.parseInt(randomUUID().slice(0, 8), 16) % 10_000_000).padStart(7, '0');
  const isrc = `QZT${suffix.slice(0, 2)}26${suffix.slice(2, 7)}`;
  const month = new Date().toISOString().slice(0, 7);
  const issuerName = `Harbour Lights Music ${suffix} Ltd`;

  // The operator names the issuer on Admin Settings.
  const admin = await pageAs(browser, { roles: ['admin'] });
  await admin.page.setViewportSize({ width: 1280, height: 900 });
  await admin.page.goto('/admin/settings');
  const card = admin.page.getByTestId('statement-issuer');
  await card.getByLabel('Legal name').fill(issuerName);
  await card.getByLabel('Address').fill('12 Harbour Road\nLeith EH6 6QA');
  await card.getByRole('button', { name: 'Save statement issuer' }).click();
  await expect(admin.page.getByText('Statement issuer saved.')).toBeVisible();

  // An artist with $50.00 already on their balance; a report of $21.5307 is posted (credited $21.53).
  const artist = await pageAs(browser, { plan: 'pro', balanceCents: 5000 });
  await seed.release({
    userId: artist.user.userId,
    status: 'live',
    releaseDate: '2020-01-01',
    isrcs: [isrc],
  });
  const report = [
    'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)',
    `2026-01-10\t2025-12\tSpotify\tA\tSong\t${isrc}\t\t1000\t100\tSong\tUS\t0\t12.3456`,
    `2026-01-10\t2025-12\tApple Music\tA\tSong\t${isrc}\t\t40\t100\tSong\tGB\t0\t9.1851`,
  ].join('\r\n');
  const adminUser = await seed.user({ roles: ['admin'] });
  const headers = { cookie: adminUser.cookie ?? '', origin: e2eEnv.baseUrl };
  const imported = await fetch(
    `${e2eEnv.baseUrl}/api/admin/royalties/imports?filename=statement-${suffix}.tsv`,
    {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      body: `${report}\r\n`,
    },
  );
  expect(imported.status).toBe(202);
  const { id } = (await imported.json()) as { id: string };
  const phaseOf = async () => {
    const summary = await fetch(`${e2eEnv.baseUrl}/api/admin/royalties/imports/${id}`, { headers });
    return ((await summary.json()) as { progress: { phase: string } }).progress.phase;
  };
  await expect.poll(phaseOf, { timeout: 30_000 }).toBe('ready');
  const posted = await fetch(`${e2eEnv.baseUrl}/api/admin/royalties/imports/${id}/post`, {
    method: 'POST',
    headers,
  });
  expect(posted.status).toBe(202);
  await expect.poll(phaseOf, { timeout: 30_000 }).toBe('posted');

  const page = artist.page;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/dashboard/royalties');
    const statement = page.getByTestId('statement').first();
    await expect(statement).toContainText('Opening $50.00');
    await expect(statement).toContainText('Earnings $21.53');
    await expect(statement).toContainText('Closing $71.53');
    await statement.getByRole('button', { name: /^View the .* statement$/ }).click();
    const view = statement.getByTestId('statement-view');
    await expect(view).toContainText(`Issued by ${issuerName}, 12 Harbour Road, Leith EH6 6QA`);
    const summary = view.getByTestId('statement-summary');
    const rows = async (testId: string) =>
      (await view.getByTestId(testId).getByTestId('statement-row').allInnerTexts()).map((text) =>
        text.replace(/\s+/g, ' ').trim(),
      );
    await expect(summary).toContainText('Closing balance');
    expect(await rows('statement-summary')).toEqual([
      'Opening balance $50.00',
      'Gross earnings (before fee and splits) $21.53',
      'Distribution fee $0.00',
      'Net earnings (your share) $21.53',
      'Withdrawals $0.00',
      'Adjustments $0.00',
      'Closing balance $71.53',
    ]);
    // The store rows add up to the gross.
    expect(await rows('statement-stores')).toEqual([
      'Spotify $12.35',
      'Apple Music $9.18',
      'Gross earnings $21.53',
    ]);
    // Every amount is inside the viewport (nothing cut off on a phone).
    for (const amount of await summary.locator('dd').all()) {
      const box = await amount.boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(width);
    }
    expect(await seriousA11yViolations(page)).toEqual([]);
  }

  // Analytics say which figures are the artist's share and which are gross (finding 5).
  await page.goto('/dashboard/analytics');
  await expect(page.getByTestId('analytics-share-note')).toContainText(
    'Earnings here are your share, as credited to your balance',
  );
  await expect(page.getByText('Gross store earnings (before fee and splits)')).toBeVisible();
  await expect(page.getByTestId('store-earnings-total')).toHaveText('$21.53');
  await page.goto('/dashboard/royalties');

  // The PDF: the operator's name and address head it, opening and closing balances in its summary.
  const statement = page.getByTestId('statement').first();
  const pdfDownload = page.waitForEvent('download');
  await statement.getByRole('link', { name: /as PDF$/ }).click();
  const pdf = await pdfDownload;
  expect(pdf.suggestedFilename()).toBe(`tunedrop-statement-${month}.pdf`);
  const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', (await pdf.path()) as string, '-'], {
    encoding: 'utf8',
  });
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  expect(lines.slice(0, 3)).toEqual([issuerName, '12 Harbour Road', 'Leith EH6 6QA']);
  expect(text).toMatch(/Opening balance\s+\$50\.00/);
  expect(text).toMatch(/Closing balance\s+\$71\.53/);
  expect(text).not.toContain('Tunedrop royalty statement');

  // The CSV: the total row is the sum of the rows between the opening and the closing balance, in cents.
  const csvDownload = page.waitForEvent('download');
  await statement.getByRole('link', { name: /as CSV$/ }).click();
  const records: string[][] = parse(await fs.readFile((await (await csvDownload).path()) as string, 'utf8'));
  const cents = (records[0] as string[]).indexOf('Amount (USD cents)');
  const opening = records.findIndex((record) => record[0] === 'Opening balance');
  const total = records.findIndex((record) => record[0] === 'Total');
  const movements = records.slice(opening + 1, total).map((record) => Number(record[cents]));
  expect(movements.reduce((sum, value) => sum + value, 0)).toBe(Number(records[total]?.[cents]));
  expect(Number(records[opening]?.[cents])).toBe(5000);
  expect(records.find((record) => record[0] === 'Closing balance')?.[cents]).toBe('7153');
  expect(records[1]?.[1]).toContain(`issued by ${issuerName}`);
  await admin.context.close();
  await artist.context.close();
});
