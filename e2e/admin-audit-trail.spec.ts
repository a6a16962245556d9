/**
 * Journey (issue 25 finding 8, record 191): an admin changes a setting and a delivery target and imports
 * a report, then reads the audit log filtered by kind: names instead of ids, before and after, and the
 * same entries in the CSV download. Keyboard-usable filters, axe-clean at 1280 and 390 px.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { STORE_DPID } from './support/delivery';
import { expect, pageAs, seriousA11yViolations, test } from './support/test';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

function distrokidFile(suffix: string): string {
  const header =
    'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)';
  const line = `2025-04-10\t2025-03\tSpotify\tAudit Artist\tAudited ${suffix}\tQZA${suffix.slice(0, 2)}25${suffix.slice(2, 7)}\t\t100\t100\tSong\tUS\t0\t1.25`;
  return `${header}\r\n${line}\r\n`;
}

test('an admin changes a setting and a target, imports a report, and reads all three in the audit log and its CSV', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const suffix = String(Number.parseInt(randomUUID().slice(0, 8), 16) % 10_000_000).padStart(7, '0');
  const targetName = `Audit store ${suffix}`;
  const fileName = `audit-${suffix}.tsv`;
  const admin = await pageAs(browser, { roles: ['admin'] });
  const { page } = admin;
  await page.setViewportSize({ width: 1280, height: 900 });

  // A setting: the operator time zone, to an equivalent name and straight back (other journeys read it).
  await page.goto('/admin/settings');
  const zone = page.getByRole('textbox', { name: 'Operator time zone' });
  await expect(zone).toHaveValue(/UTC/);
  const original = await zone.inputValue();
  const changed = original === 'Etc/UTC' ? 'UTC' : 'Etc/UTC';
  await zone.fill(changed);
  await page.getByRole('button', { name: 'Save time zone' }).click();
  await expect(page.getByText('Time zone saved').first()).toBeVisible();
  await zone.fill(original);
  await page.getByRole('button', { name: 'Save time zone' }).click();
  await expect(zone).toHaveValue(original);

  // A delivery target: added for one platform nobody else uses, disabled, then removed.
  await page.goto('/admin/delivery');
  await page.getByRole('button', { name: 'Add target' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(targetName);
  await dialog.getByLabel('URL').fill('sftp://store:s3cret-pass@127.0.0.1:1/incoming');
  await dialog.getByLabel('Recipient party id (DPID)').fill(STORE_DPID);
  await dialog.getByLabel('Selected platforms').check();
  await dialog.getByLabel('Kuack Media').check();
  // Nothing listens there: enabled, it is refused; it is added disabled, then enabled and disabled.
  await dialog.getByRole('button', { name: 'Add target' }).click();
  await expect(dialog.getByRole('alert').filter({ hasText: 'so it was not added' })).toBeVisible();
  await dialog.getByLabel('Enabled: new approvals are delivered to this target').uncheck();
  await dialog.getByRole('button', { name: 'Add target' }).click();
  await expect(dialog).toBeHidden();
  const card = page.getByRole('listitem', { name: targetName });
  await card.getByRole('button', { name: `Enable ${targetName}` }).click();
  await card.getByRole('button', { name: `Disable ${targetName}` }).click();
  await expect(card.getByRole('button', { name: `Enable ${targetName}` })).toBeVisible();
  await card.getByRole('button', { name: `Delete ${targetName}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(card).toHaveCount(0);

  // A report.
  await page.goto('/admin/royalties');
  await page.getByLabel('Drop a statement file here, or choose one').setInputFiles({
    name: fileName,
    mimeType: 'text/tab-separated-values',
    buffer: Buffer.from(distrokidFile(suffix)),
  });
  await page.getByLabel('Format').selectOption('distrokid');
  await page.getByRole('button', { name: 'Import statement' }).click();
  await expect(page.getByRole('heading', { name: fileName })).toBeVisible();
  await expect(page.getByTestId('import-status')).toHaveText('Ready to post');

  // The audit log, filtered by kind from the keyboard.
  await page.goto('/admin/audit');
  await expect(page.getByRole('heading', { name: 'Audit Log' })).toBeVisible();
  const kind = page.getByLabel('Kind');
  await kind.focus();
  await kind.selectOption({ label: 'Delivery targets (all)' });
  await page.keyboard.press('Tab');
  await page.getByLabel('User (email or id)').fill(admin.user.email);
  await page.getByLabel('User (email or id)').press('Enter');
  await expect(page).toHaveURL(/kind=delivery\.target/);
  const rows = page.getByTestId('audit-row').filter({ hasText: targetName });
  await expect(rows).toHaveCount(4);
  const added = rows.filter({ hasText: 'Added a delivery target' });
  await expect(added).toContainText(admin.user.email);
  await expect(added).toContainText('platforms');
  await expect(added).toContainText('kuack');
  const disabled = rows.filter({ hasText: 'Disabled a delivery target' });
  await expect(disabled.getByRole('deletion')).toContainText('true');
  await expect(disabled.getByRole('insertion')).toContainText('false');
  await expect(rows.filter({ hasText: 'Removed a delivery target' })).toBeVisible();
  // Names, not ids; no password.
  for (const text of await rows.allInnerTexts()) {
    expect(text).not.toMatch(UUID);
    expect(text).not.toContain('s3cret-pass');
  }
  expect(await seriousA11yViolations(page)).toEqual([]);

  await kind.selectOption({ label: 'Changed settings' });
  await page.getByRole('button', { name: 'Filter' }).click();
  const zoneRows = page.getByTestId('audit-row').filter({ hasText: 'Support time zone' });
  await expect(zoneRows.first()).toBeVisible();
  // Each save is one entry: the value it replaced struck through, the new one inserted.
  const newValue = (value: string) =>
    zoneRows.filter({
      has: page
        .getByRole('insertion')
        .filter({ hasText: new RegExp(`(^|\\s)${value.replace('/', '\\/')}$`) }),
    });
  await expect(newValue(changed).first()).toBeVisible();
  await expect(newValue(original).first()).toBeVisible();

  await kind.selectOption({ label: 'Imported a royalty report' });
  await page.getByRole('button', { name: 'Filter' }).click();
  const imported = page.getByTestId('audit-row').filter({ hasText: fileName });
  await expect(imported).toHaveCount(1);
  await expect(imported).toContainText('Report');
  await expect(imported).toContainText('distrokid');

  // The CSV carries the filtered entries with the same names.
  await kind.selectOption({ label: 'Delivery targets (all)' });
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByTestId('audit-row').filter({ hasText: targetName })).toHaveCount(4);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await fs.readFile((await download.path()) as string, 'utf8');
  const lines = csv.split('\r\n').filter((line) => line.includes(targetName));
  expect(lines).toHaveLength(4);
  expect(csv).toContain('When (UTC),Kind,Action,Actor,Actor name,For account,Subject type,Subject,Changes');
  expect(
    lines.some((line) => line.includes('delivery.target.disable') && line.includes('enabled: true → false')),
  ).toBe(true);
  expect(csv).not.toContain(fileName);
  expect(csv).not.toContain('s3cret-pass');

  // On a phone the table scrolls in its own box and the page does not.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('audit-table-scroll')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await admin.context.close();
});
