/**
 * Journey (issue 25, findings 4 and 7; record 187): an admin picks the DDEX Basic Audio sample (GBP,
 * June 2020); the form reads its currency and asks for the rate. The staged report's rate is changed on
 * its page; June 2020 sales matched to a release first out this year raise a sanity warning that holds
 * posting back until the admin accepts it with a note; then the report posts at the rate set last, to the
 * cent. Axe-clean at 1280 and 390 px.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

const SAMPLE = fs.readFileSync(
  fileURLToPath(
    new URL(
      '../vendor/ddex/dsr/samples/DSR_PADPIDA00123456743_PADPIDA0123456766K_UnlimitedMusicMonthly_2020-06-01--2020-06-30__1of1_20200703T075930.tsv',
      import.meta.url,
    ),
  ),
  'utf8',
);

test('a GBP report gets its rate on the staged report, a sanity warning is accepted, then it posts', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const suffix = String(Number.parseInt(randomUUID().slice(0, 8), 16) % 100_000).padStart(5, '0');
  // Enya's recording in the sample, under an ISRC of the same registrant that no other journey uses, and
  // a new MessageId and SalesTransactionIds: this report repeats no other (record 186).
  const isrc = `GBAHT09${suffix}`;
  const report = SAMPLE.replaceAll('GBAHT0900445', isrc)
    .replace('\t1234567890\t', `\tE2E-GBP-${suffix}\t`)
    .replaceAll('\t1B00', `\t${suffix}B00`);
  const year = new Date().getUTCFullYear();
  const releaseTitle = `Aniron Again ${suffix}`;

  const artist = await seed.user({ plan: 'pro', artistName: `Currency ${suffix}` });
  await seed.release({
    userId: artist.userId,
    title: releaseTitle,
    status: 'live',
    isrcs: [isrc],
    releaseDate: `${year}-01-15`,
    originalReleaseDate: null,
  });

  const admin = await pageAs(browser, { roles: ['admin'] });
  const { page } = admin;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/admin/royalties');
  await page.getByLabel('Drop a statement file here, or choose one').setInputFiles({
    name: `DSR_GBP_${suffix}.tsv`,
    mimeType: 'text/tab-separated-values',
    buffer: Buffer.from(report),
  });
  // The file says GBP before anything is uploaded; importing it without a rate is refused here.
  await expect(page.getByTestId('file-currency')).toHaveText(
    'The file is in GBP. Give its exchange rate to USD (1 GBP = ? USD).',
  );
  await page.getByRole('button', { name: 'Import statement' }).click();
  await expect(
    page.getByText('The report is in GBP: give its exchange rate to USD (1 GBP = ? USD).'),
  ).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.getByLabel('Exchange rate to USD (1 GBP = ? USD)').fill('1.1');
  await page.getByRole('button', { name: 'Import statement' }).click();

  await expect(page).toHaveURL(/\/admin\/royalties\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('import-status')).toHaveText('Ready to post');
  await expect(page.getByTestId('matched-lines')).toHaveText('3 lines');

  // The rate was a guess: the staged report takes the right one, no delete and re-import.
  const rateCard = page.getByTestId('report-rate');
  await expect(rateCard).toContainText('The report is in GBP.');
  await rateCard.getByLabel('1 GBP = ? USD').fill('1.2731');
  await rateCard.getByRole('button', { name: 'Change rate' }).click();
  await expect(page.getByText('1 GBP = 1.2731 USD')).toBeVisible();

  // Sales of June 2020 matched to a release first out this January: a warning, with its lines.
  // Another journey may have set the operator's ISRC registrant, which raises "Another label's ISRC" on this
  // sample's GBAHT code too: this journey checks the release-date warning and accepts any other one.
  const warning = page.getByTestId('sanity-warning').filter({ hasText: 'Sales before the release date' });
  await expect(warning).toContainText('Sales before the release date');
  await expect(warning).toContainText(
    `Sales for 2020-06 are matched to “${releaseTitle}”, first released ${year}-01-15 (3 lines, 694.62 GBP).`,
  );
  await expect(warning.getByRole('row')).toHaveCount(4);
  const others = page.getByTestId('sanity-warning').filter({ hasNotText: 'Sales before the release date' });
  const count = 1 + (await others.count());
  await expect(page.getByTestId('open-warnings')).toHaveText(
    `This report has ${count} sanity warning${count === 1 ? '' : 's'} to accept or resolve before posting.`,
  );
  await expect(page.getByRole('button', { name: 'Post to balances' })).toBeDisabled();
  expect(await seriousA11yViolations(page)).toEqual([]);

  await warning.getByRole('button', { name: 'Accept…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Accept this warning?' });
  await dialog.getByLabel('Note (optional)').fill('Catalogue re-release; the 2020 sales are this recording');
  await dialog.getByRole('button', { name: 'Accept warning' }).click();
  await expect(dialog).toBeHidden();
  await expect(warning.getByTestId('warning-decision')).toContainText(
    'Catalogue re-release; the 2020 sales are this recording',
  );
  for (let left = await others.count(); left > 0; left -= 1) {
    await others.getByRole('button', { name: 'Accept…' }).first().click();
    await dialog.getByRole('button', { name: 'Accept warning' }).click();
    await expect(dialog).toBeHidden();
    await expect(others.getByRole('button', { name: 'Accept…' })).toHaveCount(left - 1);
  }
  await expect(page.getByTestId('open-warnings')).toHaveCount(0);

  await page.getByRole('button', { name: 'Post to balances' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Post this report?' });
  await confirm.getByRole('button', { name: 'Post report' }).click();
  await expect(page.getByTestId('import-status')).toHaveText('Posted');
  // The three lines' shares of their summaries' revenue (record 111), at the rate set last (1.2731; at the
  // first, 1.1, they came to $764.08), cut to whole cents as posting does (record 112).
  await expect(page.getByTestId('posted-cents')).toHaveText('$884.32');
  await expect(page.getByTestId('report-rate')).toHaveCount(0);

  await page.setViewportSize({ width: 390, height: 844 });
  expect(await seriousA11yViolations(page)).toEqual([]);
  await admin.context.close();
});
