/**
 * Journey (issue 39, record 287): an admin gives a label contract's physical term (25% of gross) a 20%
 * reserve released 50/50 on /admin/contracts (a schedule not adding up to 100 is refused on its field);
 * a report of $100.00 of physical sales is posted from /admin/royalties, the confirmation naming the
 * $5.00 held in reserve; the artist is credited $20.00 and their statement of the month shows the reserve
 * held, released and still held. The releases of the next two months are the server tests'
 * (contracts/reserves.test.ts): a journey cannot move the clock. Axe-clean at 1280 and 390 px.
 */
import { randomUUID } from 'node:crypto';
import { e2eEnv } from './support/env';
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

const FUGA =
  'Sale ID,Sale Start date,DSP,Territory,Sale Type,Asset ISRC,Product UPC,Asset Quantity,Reported Royalty,Currency,Asset Title,Asset Artist';

test('a contract reserve: set on the term, held at posting, shown on the artist’s statement', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const suffix = String(Number.parseInt(randomUUID().slice(0, 8), 16) % 10_000_000).padStart(7, '0');
  const isrc = `QZV${suffix.slice(0, 2)}26${suffix.slice(2, 7)}`;
  const label = await seed.user({
    plan: 'pro',
    artistName: `Reserve Label ${suffix}`,
    email: `reserve-label-${suffix}@example.com`,
  });
  const artistPage = await pageAs(browser, { plan: 'basic' });
  const artist = artistPage.user;
  await seed.release({
    userId: label.userId,
    title: `Vinyl Album ${suffix}`,
    status: 'live',
    isrcs: [isrc],
    releaseDate: '2020-01-01',
  });

  const admin = await pageAs(browser, { roles: ['admin'] });
  const { page } = admin;
  const adminHeaders = {
    cookie: admin.user.cookie ?? '',
    origin: e2eEnv.baseUrl,
    'content-type': 'application/json',
  };
  // The label's own fee: 10% (plan fees are left alone: other journeys run beside this one).
  const fee = await fetch(`${e2eEnv.baseUrl}/api/admin/users/${label.userId}/fee`, {
    method: 'PUT',
    headers: adminHeaders,
    body: JSON.stringify({ feePercent: '10' }),
  });
  expect(fee.status).toBe(200);
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.goto('/admin/contracts');
  await page.getByRole('button', { name: 'New contract' }).click();
  const form = page.getByRole('form', { name: 'Contract' });
  await form.getByLabel('Contract name').fill(`Vinyl deal ${suffix}`);
  await form.getByLabel('Artist (account email)').fill(artist.email);
  await form.getByLabel('Starts on').fill('2025-01-01');
  await form.getByLabel('Label (account email)').fill(label.email);
  await form.getByRole('button', { name: 'Show the label’s releases' }).click();
  await form.getByRole('checkbox', { name: `Vinyl Album ${suffix}` }).check();
  const term = form.getByTestId('contract-term').nth(0);
  await term.getByLabel('Channel').selectOption('physical');
  await term.getByLabel('Basis').selectOption('gross');
  await term.getByLabel('Rate (%)').fill('25');
  await term.getByLabel('Reserve (%, optional)').fill('20');
  await term.getByLabel('Reserve released').fill('60/30');
  await form.getByRole('button', { name: 'Save contract' }).click();
  await expect(form.getByText('Enter the release schedule as percentages adding up to 100')).toBeVisible();
  await term.getByLabel('Reserve released').fill('50/50');
  expect(await seriousA11yViolations(page)).toEqual([]);
  await form.getByRole('button', { name: 'Save contract' }).click();
  await expect(page.getByText('Contract created')).toBeVisible();

  // The saved term reads back with its reserve.
  await page.getByRole('button', { name: `Edit Vinyl deal ${suffix}` }).click();
  const saved = page.getByTestId('contract-term').nth(0);
  await expect(saved.getByLabel('Reserve (%, optional)')).toHaveValue('20');
  await expect(saved.getByLabel('Reserve released')).toHaveValue('50/50');

  // $100.00 of physical sales, imported and posted as an admin does.
  const fileName = `fuga-${suffix}-reserve.csv`;
  await page.goto('/admin/royalties');
  await page.getByLabel('Drop a statement file here, or choose one').setInputFiles({
    name: fileName,
    mimeType: 'text/csv',
    buffer: Buffer.from(
      `${FUGA}\n${suffix}-1,2025-10-01,Record Shop,GB,Physical,${isrc},,10,100.00,USD,Song,Label\n`,
    ),
  });
  await page.getByRole('button', { name: 'Import statement' }).click();
  await expect(page.getByRole('heading', { name: fileName })).toBeVisible();
  await expect(page.getByTestId('import-status')).toHaveText('Ready to post');
  await page.getByRole('button', { name: 'Post to balances' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Post this report?' });
  // The label's $90.00 after the fee: $65.00 kept, $20.00 to the artist; $5.00 held in reserve.
  await expect(confirm).toContainText('Will credit $85.00 to 2 artists');
  await expect(confirm).toContainText('held in contract reserves $5.00');
  await confirm.getByRole('button', { name: 'Post report' }).click();
  await expect(page.getByTestId('import-status')).toHaveText('Posted');
  await expect(page.getByTestId('figure-reserved')).toHaveText('$5.00');
  await admin.context.close();

  const wallet = await fetch(`${e2eEnv.baseUrl}/api/wallet`, { headers: { cookie: artist.cookie ?? '' } });
  expect(((await wallet.json()) as { balanceCents: number }).balanceCents).toBe(2000);

  const artistView = artistPage.page;
  for (const width of [1280, 390]) {
    await artistView.setViewportSize({ width, height: 900 });
    await artistView.goto('/dashboard/royalties');
    const statement = artistView.getByTestId('statement').first();
    await expect(statement).toContainText('Closing $20.00');
    await statement.getByRole('button', { name: /^View the .* statement$/ }).click();
    const reserves = statement.getByTestId('statement-reserves');
    await expect(reserves).toBeVisible();
    expect(
      (await reserves.getByTestId('statement-row').allInnerTexts()).map((text) =>
        text.replace(/\s+/g, ' ').trim(),
      ),
    ).toEqual([
      'Held back from this month’s royalties $5.00',
      'Released to your balance this month $0.00',
      'Reserve still held at the end of the month $5.00',
    ]);
    expect(await seriousA11yViolations(artistView)).toEqual([]);
  }
  await artistPage.context.close();
});
