/**
 * Journey (issue 39, record 285): an admin writes a label contract on /admin/contracts (a wrong rate is
 * refused on its field), a stream term at 50% of net and a download term at 18% of gross; a report of one
 * stream and one download for the label's release is posted from /admin/royalties, the confirmation
 * naming both accounts; the artist is credited $5.40 and the label $8.10 of the $15.00 (the operator's 10%
 * fee first), each to the cent; a $3.00 advance recorded first is repaid to the label from the artist's
 * share. A second report with a sale no term matches is refused before posting, with
 * the contract's name. Axe-clean at 1280 and 390 px.
 */
import { randomUUID } from 'node:crypto';
import { e2eEnv } from './support/env';
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

const FUGA =
  'Sale ID,Sale Start date,DSP,Territory,Sale Type,Asset ISRC,Product UPC,Asset Quantity,Reported Royalty,Currency,Asset Title,Asset Artist';

test('a label contract: written on its page, applied by the posting to the cent', async ({ browser }) => {
  test.setTimeout(150_000);
  const suffix = String(Number.parseInt(randomUUID().slice(0, 8), 16) % 10_000_000).padStart(7, '0');
  const isrc = `QZK${suffix.slice(0, 2)}26${suffix.slice(2, 7)}`;
  const label = await seed.user({
    plan: 'pro',
    artistName: `Label ${suffix}`,
    email: `label-${suffix}@example.com`,
  });
  const artist = await seed.user({
    plan: 'basic',
    artistName: `Signed ${suffix}`,
    email: `signed-${suffix}@example.com`,
  });
  await seed.release({
    userId: label.userId,
    title: `Roster Album ${suffix}`,
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
  // The label's own distribution fee: 10% (plan fees are left alone: other journeys run beside this one).
  const fee = await fetch(`${e2eEnv.baseUrl}/api/admin/users/${label.userId}/fee`, {
    method: 'PUT',
    headers: adminHeaders,
    body: JSON.stringify({ feePercent: '10' }),
  });
  expect(fee.status).toBe(200);
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.goto('/admin/contracts');
  await expect(page.getByRole('heading', { name: 'Contracts', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New contract' }).click();
  const form = page.getByRole('form', { name: 'Contract' });
  await form.getByLabel('Contract name').fill(`Roster deal ${suffix}`);
  await form.getByLabel('Artist (account email)').fill(artist.email);
  await form.getByLabel('Starts on').fill('2025-01-01');
  await form.getByLabel('Label (account email)').fill(label.email);
  await form.getByRole('button', { name: 'Show the label’s releases' }).click();
  await form.getByRole('checkbox', { name: `Roster Album ${suffix}` }).check();
  // Term 1: streams, 50% of net receipts (the form's first term is a stream term on net receipts).
  const first = form.getByTestId('contract-term').nth(0);
  await first.getByLabel('Rate (%)').fill('150');
  await form.getByRole('button', { name: 'Save contract' }).click();
  await expect(form.getByText('Enter a rate from 0 to 100 with at most 4 decimals.')).toBeVisible();
  await first.getByLabel('Rate (%)').fill('50');
  await form.getByRole('button', { name: 'Add a term' }).click();
  const second = form.getByTestId('contract-term').nth(1);
  await second.getByLabel('Channel').selectOption('download');
  await second.getByLabel('Basis').selectOption('gross');
  await second.getByLabel('Rate (%)').fill('18');
  expect(await seriousA11yViolations(page)).toEqual([]);
  await form.getByRole('button', { name: 'Save contract' }).click();
  await expect(page.getByText('Contract created')).toBeVisible();
  const row = page.getByTestId('contract-row').filter({ hasText: `Roster deal ${suffix}` });
  await expect(row).toContainText(`Label ${suffix} (${label.email}) pays Signed ${suffix} (${artist.email})`);
  await expect(row).toContainText('From 2025-01-01 · 1 release · 2 terms');

  // A $3.00 advance, recouped from the artist's royalties before any is paid (record 286).
  await page.getByRole('button', { name: `Edit Roster deal ${suffix}` }).click();
  const advance = page.getByRole('form', { name: 'Record an advance' });
  await advance.getByLabel('Amount (USD)').fill('3');
  await advance.getByRole('button', { name: 'Record' }).click();
  await expect(page.getByTestId('unrecouped')).toHaveText('Unrecouped: $3.00 (repaid $0.00 of $3.00)');

  // A stream of $10.00 and a download of $5.00, imported and posted as an admin does.
  const fileName = `fuga-${suffix}-contract.csv`;
  await page.goto('/admin/royalties');
  await page.getByLabel('Drop a statement file here, or choose one').setInputFiles({
    name: fileName,
    mimeType: 'text/csv',
    buffer: Buffer.from(
      `${[
        FUGA,
        `${suffix}-1,2025-10-01,Spotify,US,Stream,${isrc},,1000,10.00,USD,Song,Label`,
        `${suffix}-2,2025-10-01,iTunes,GB,Download,${isrc},,5,5.00,USD,Song,Label`,
      ].join('\n')}\n`,
    ),
  });
  await page.getByRole('button', { name: 'Import statement' }).click();
  await expect(page.getByRole('heading', { name: fileName })).toBeVisible();
  await expect(page.getByTestId('import-status')).toHaveText('Ready to post');
  await page.getByRole('button', { name: 'Post to balances' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Post this report?' });
  await expect(confirm).toContainText('Will credit $13.50 to 2 artists');
  await expect(confirm).toContainText('operator fee $1.50');
  await confirm.getByRole('button', { name: 'Post report' }).click();
  await expect(page.getByTestId('import-status')).toHaveText('Posted');

  // Stream: 50% of $9.00 net = $4.50; download: 18% of $5.00 = $0.90: $5.40, of which $3.00 repays the
  // advance to the label. The label keeps $13.50 − $5.40 and gets the $3.00 back.
  const balance = async (cookie: string | null) => {
    const wallet = await fetch(`${e2eEnv.baseUrl}/api/wallet`, { headers: { cookie: cookie ?? '' } });
    return ((await wallet.json()) as { balanceCents: number }).balanceCents;
  };
  expect(await balance(artist.cookie)).toBe(240);
  expect(await balance(label.cookie)).toBe(1110);

  // A sync sale no term matches, and the contract has no default: refused before posting, nothing moves.
  const refused = `fuga-${suffix}-sync.csv`;
  await page.goto('/admin/royalties');
  await page.getByLabel('Drop a statement file here, or choose one').setInputFiles({
    name: refused,
    mimeType: 'text/csv',
    buffer: Buffer.from(
      `${FUGA}\n${suffix}-3,2025-11-01,Licensing,GB,Sync,${isrc},,1,40.00,USD,Song,Label\n`,
    ),
  });
  await page.getByRole('button', { name: 'Import statement' }).click();
  await expect(page.getByRole('heading', { name: refused })).toBeVisible();
  await expect(page.getByTestId('import-status')).toHaveText('Ready to post');
  await page.getByRole('button', { name: 'Post to balances' }).click();
  await expect(page.getByText(`match no term of the contract “Roster deal ${suffix}”`).first()).toBeVisible();
  expect(await balance(artist.cookie)).toBe(240);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/admin/contracts');
  await page.getByRole('button', { name: `Edit Roster deal ${suffix}` }).click();
  await expect(page.getByRole('heading', { name: 'Edit contract' })).toBeVisible();
  await expect(page.getByTestId('contract-term')).toHaveCount(2);
  await expect(page.getByTestId('unrecouped')).toHaveText('Unrecouped: $0.00 (repaid $3.00 of $3.00)');
  expect(await seriousA11yViolations(page)).toEqual([]);
  await admin.context.close();
});
