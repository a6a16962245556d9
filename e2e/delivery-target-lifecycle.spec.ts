/**
 * Issue 26 findings 1-2 journey (record 177): an admin adds a key-only SFTP target with a pasted key, a
 * release is delivered there, the admin disables the target and approves a takedown: the takedown still
 * reaches the store (a real OpenSSH sshd). Deleting is refused while the release is live there, with a
 * clear message; once the store acknowledged the takedown, the target is deleted.
 */
import { startSftpServer } from '../apps/server/src/test-support/sftp';
import {
  adminApi,
  answer,
  CODE_SETTINGS,
  isoDay,
  runWorker,
  STORE_DPID,
  uniqueName,
  waitForPackage,
} from './support/delivery';
import { e2eEnv } from './support/env';
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

test('a disabled target still takes a release down; it is deleted only once nothing is live there', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const sftp = await startSftpServer();
  const admin = await pageAs(browser, { roles: ['admin'] });
  const artist = await pageAs(browser);
  const tag = Math.random().toString(36).slice(2, 8);
  const title = `Held Here ${tag}`;
  const name = uniqueName('Key-only store');
  const page = admin.page;
  try {
    await adminApi(page.request, 'PUT', '/api/admin/settings', CODE_SETTINGS);
    const { releaseId } = await seed.release({
      userId: artist.user.userId,
      title,
      releaseDate: isoDay(-2),
      distributionStores: ['netease'],
    });

    // Added in the dialog with a pasted key and no password: the first test connects.
    await page.goto('/admin/delivery');
    await page.getByRole('button', { name: 'Add target' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill(name);
    await expect(dialog.getByLabel('SFTP private key (optional)')).toBeVisible();
    await dialog.getByLabel('URL').fill(sftp.url());
    await dialog.getByLabel('SFTP private key (optional)').fill(sftp.privateKey);
    await dialog.getByLabel('Recipient party id (DPID)').fill('PADPIDA99999999022');
    await dialog.getByLabel('Selected platforms').check();
    await dialog.getByLabel('NetEase Cloud Music').check();
    await dialog.getByRole('button', { name: 'Add target' }).click();
    await expect(dialog.getByText(/wrong check character/)).toBeVisible();
    await dialog.getByLabel('Recipient party id (DPID)').fill(STORE_DPID);
    await dialog.getByRole('button', { name: 'Add target' }).click();
    await expect(dialog).toBeHidden();
    const card = page.getByRole('listitem', { name, exact: true });
    await expect(card.getByTestId('target-url')).not.toContainText(':***@');
    await card.getByRole('button', { name: 'Test connection' }).click();
    await expect(card.getByTestId('connection-result')).toContainText('Connected.');

    // Approved and delivered; the store accepts it.
    await adminApi(page.request, 'POST', `/api/admin/releases/${releaseId}/approve`, {});
    await runWorker();
    const first = await waitForPackage(sftp.root, (item) => item.xml.includes(title));
    expect(first.isTakedown).toBe(false);
    await answer(first, { isAccepted: true });
    await page.reload();
    await expect(card.getByTestId('target-holds')).toHaveText('1 release (delivered, not taken down)');

    // Disabled: no new releases, but it keeps what it holds.
    await card.getByRole('button', { name: `Disable ${name}` }).click();
    await expect(card.getByText('Disabled', { exact: true })).toBeVisible();

    // Deleting is refused while the release is live there: the dialog says so, and so does the server.
    await card.getByRole('button', { name: `Delete ${name}` }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText(
      `${name} still holds 1 release (delivered and not taken down): disable it instead, or take it down there first.`,
    );
    await expect(confirm.getByRole('button', { name: 'Take it down from this target' })).toBeVisible();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    const targetId = (
      await adminApi<{ items: { id: string; name: string }[] }>(
        page.request,
        'GET',
        '/api/admin/delivery/targets',
      )
    ).items.find((t) => t.name === name)?.id;
    const refused = await page.request.fetch(`${e2eEnv.baseUrl}/api/admin/delivery/targets/${targetId}`, {
      method: 'DELETE',
      headers: { origin: e2eEnv.baseUrl },
    });
    expect(refused.status()).toBe(409);
    expect((await refused.json()).error.message).toContain(`${name} still holds 1 release`);

    // The artist asks for a takedown and a moderator-admin approves it, after the target was disabled.
    await adminApi(artist.page.request, 'POST', `/api/releases/${releaseId}/takedown`);
    await page.goto(`/admin/releases?q=${tag}`);
    await page.getByRole('tab', { name: /Takedown Requests/ }).click();
    const request = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
    await request.getByRole('button', { name: 'Approve Takedown' }).click();
    await page
      .getByRole('alertdialog', { name: 'Approve Takedown' })
      .getByRole('button', { name: 'Approve Takedown' })
      .click();
    await expect(page.getByText('Takedown approved')).toBeVisible();

    // It reaches the store: a message without deals for the same release.
    await runWorker();
    const takedown = await waitForPackage(sftp.root, (item) => item.messageId !== first.messageId);
    expect(takedown.isTakedown).toBe(true);
    expect(takedown.upc).toBe(first.upc);
    await answer(takedown, { isAccepted: true });
    await artist.page.goto(`/dashboard/releases/${releaseId}`);
    await expect(
      artist.page.getByRole('listitem', { name: 'NetEase Cloud Music' }).getByTestId('store-state'),
    ).toHaveText('Taken down');

    // Nothing is live there any more: the target is deleted.
    await page.goto('/admin/delivery');
    await expect(card.getByTestId('target-holds')).toHaveText('0 releases (delivered, not taken down)');
    await card.getByRole('button', { name: `Delete ${name}` }).click();
    await expect(confirm).toContainText('Nothing was delivered there that is still live');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(
      page.getByRole('region', { name: /Notifications/ }).getByText('Delivery target removed'),
    ).toBeVisible();
    await expect(card).toHaveCount(0);
  } finally {
    await admin.context.close();
    await artist.context.close();
    await sftp.stop();
  }
});
