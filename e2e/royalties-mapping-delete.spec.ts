/**
 * Journey (issue 37): an admin deletes a saved CSV column mapping where mappings are chosen, on the royalty
 * import screen, after a confirmation; it is no longer offered. A mapping another admin deleted meanwhile
 * is refused with the server's message, shown to the admin.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, pageAs, seriousA11yViolations, test } from './support/test';

async function savedMapping(page: Page, name: string): Promise<string> {
  const response = await page.request.post('/api/admin/royalties/presets', {
    data: { name, delimiter: ';', currency: 'EUR', mapping: { isrc: 'Code', amount: 'Net' } },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function chooseCsvMapping(page: Page, name: string) {
  await page.goto('/admin/royalties');
  await page.getByLabel('Drop a statement file here, or choose one').setInputFiles({
    name: 'label.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('Code;Net\r\nQZC002600001;1.5\r\n'),
  });
  await page.getByLabel('Format').selectOption('csv');
  const mapping = page.getByRole('group', { name: 'Column mapping' });
  await mapping.getByLabel('Saved mapping').selectOption({ label: name });
  return mapping;
}

test('a saved CSV mapping is deleted from the import screen after a confirmation', async ({ browser }) => {
  const admin = await pageAs(browser, { roles: ['admin'] });
  const { page } = admin;
  const name = `Delete me ${randomUUID().slice(0, 8)}`;
  await savedMapping(page, name);
  const mapping = await chooseCsvMapping(page, name);

  // Keyboard: the button opens the confirmation, which names the mapping; Cancel keeps it.
  await mapping.getByRole('button', { name: 'Delete mapping' }).focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('alertdialog', { name: 'Delete saved mapping' });
  await expect(confirm).toContainText(`"${name}" will no longer be offered for new files.`);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(mapping.getByLabel('Saved mapping').locator('option:checked')).toHaveText(name);

  await mapping.getByRole('button', { name: 'Delete mapping' }).click();
  await confirm.getByRole('button', { name: 'Delete mapping' }).click();
  await expect(page.getByText('Saved mapping deleted')).toBeVisible();
  await expect(confirm).toBeHidden();
  await expect(mapping.getByLabel('Saved mapping')).toHaveValue('');
  await expect(mapping.getByLabel('Saved mapping').locator('option', { hasText: name })).toHaveCount(0);
  // The form to map the file's own columns is back.
  await expect(mapping.getByRole('button', { name: 'Save mapping' })).toBeVisible();
  const left = (await (await page.request.get('/api/admin/royalties/presets')).json()) as {
    items: { name: string }[];
  };
  expect(left.items.map((item) => item.name)).not.toContain(name);
  await admin.context.close();
});

test('deleting a mapping another admin already deleted says so', async ({ browser }) => {
  const admin = await pageAs(browser, { roles: ['admin'] });
  const { page } = admin;
  const name = `Gone ${randomUUID().slice(0, 8)}`;
  const id = await savedMapping(page, name);
  const mapping = await chooseCsvMapping(page, name);
  expect((await page.request.delete(`/api/admin/royalties/presets/${id}`)).status()).toBe(200);

  await mapping.getByRole('button', { name: 'Delete mapping' }).click();
  await page
    .getByRole('alertdialog', { name: 'Delete saved mapping' })
    .getByRole('button', { name: 'Delete mapping' })
    .click();
  await expect(page.getByText('Preset not found')).toBeVisible();
  await admin.context.close();
});
