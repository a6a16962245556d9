/**
 * Issue 15 journey: an admin manages delivery targets: the password of an SFTP URL is never shown back,
 * Test connection explains an unreachable host, an edit keeps the stored credentials, a removal asks
 * first. Moderators do not reach the delivery pages. Issue 22: the SFTP host key recorded at the first
 * connection is shown, and a server answering with another key is refused with both fingerprints.
 */
import { STORE_DPID, uniqueName } from './support/delivery';
import { startSshd } from './support/sshd';
import { expect, pageAs, seriousA11yViolations, test } from './support/test';

test('an admin adds, tests, edits and removes an SFTP target; a moderator is kept out', async ({
  browser,
}) => {
  const admin = await pageAs(browser, { roles: ['admin'] });
  const page = admin.page;
  const name = uniqueName('Unreachable store');
  const renamed = `${name} (renamed)`;

  await page.goto('/admin/delivery');
  await page.getByRole('button', { name: 'Add target' }).click();
  const dialog = page.getByRole('dialog');
  // The shared rules answer in the form: a bad URL and a malformed DPID.
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('URL').fill('ftp://store@127.0.0.1/in');
  await dialog.getByLabel('Recipient party id (DPID)').fill('PADPID-123');
  await dialog.getByRole('button', { name: 'Add target' }).click();
  await expect(dialog.getByText(/Enter a URL starting with sftp:\/\//)).toBeVisible();
  await expect(dialog.getByText(/Enter a DDEX Party ID: 18 characters starting with PADPIDA/)).toBeVisible();
  // Port 1 on loopback: nothing listens there.
  await dialog.getByLabel('URL').fill('sftp://store:s3cret-pass@127.0.0.1:1/incoming');
  await expect(dialog.getByLabel('SFTP private key (optional)')).toBeVisible();
  await dialog.getByLabel('Recipient party id (DPID)').fill(STORE_DPID);
  await dialog.getByLabel('Selected platforms').check();
  await dialog.getByLabel('Kuack Media').check();
  expect(await seriousA11yViolations(page)).toEqual([]);
  // Enabled, it is tested first and refused in the dialog, which keeps what was typed (issue 26).
  await dialog.getByRole('button', { name: 'Add target' }).click();
  await expect(dialog.getByRole('alert').filter({ hasText: 'so it was not added' })).toContainText(
    'Add it disabled to keep it switched off until it answers.',
  );
  await expect(dialog.getByLabel('Name')).toHaveValue(name);
  await dialog.getByLabel('Enabled: new approvals are delivered to this target').uncheck();
  await dialog.getByRole('button', { name: 'Add target' }).click();
  await expect(dialog).toBeHidden();

  const card = page.getByRole('listitem', { name });
  await expect(card.getByTestId('target-url')).toContainText('sftp://store:');
  await expect(card.getByTestId('target-url')).not.toContainText('s3cret-pass');
  await expect(page.getByText('s3cret-pass')).toHaveCount(0);
  await card.getByRole('button', { name: 'Test connection' }).click();
  await expect(card.getByTestId('connection-result')).toContainText('Connection failed.');

  // Editing: the URL box starts empty (the stored one is never sent back) and empty keeps it.
  await card.getByRole('button', { name: `Edit ${name}` }).click();
  await expect(dialog.getByLabel('URL')).toHaveValue('');
  await expect(dialog).not.toContainText('s3cret-pass');
  await dialog.getByLabel('Name').fill(renamed);
  await dialog.getByRole('button', { name: 'Save target' }).click();
  await expect(dialog).toBeHidden();
  const renamedCard = page.getByRole('listitem', { name: renamed });
  await expect(renamedCard.getByTestId('target-url')).toContainText('sftp://store:');
  await expect(renamedCard.getByTestId('target-url')).toContainText('@127.0.0.1:1/incoming');

  // Removal asks first; Cancel keeps the target.
  await renamedCard.getByRole('button', { name: `Delete ${renamed}` }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Nothing was delivered there that is still live');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(renamedCard).toBeVisible();
  await renamedCard.getByRole('button', { name: `Delete ${renamed}` }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(
    page.getByRole('region', { name: /Notifications/ }).getByText('Delivery target removed'),
  ).toBeVisible();
  await expect(renamedCard).toHaveCount(0);
  await admin.context.close();

  // A moderator has no Delivery or Settings tab and is told the pages are for admins.
  const moderator = await pageAs(browser, { roles: ['moderator'] });
  await moderator.page.goto('/admin/delivery');
  await expect(moderator.page.getByText('You need admin privileges to access this page.')).toBeVisible();
  await expect(
    moderator.page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Delivery' }),
  ).toHaveCount(0);
  await moderator.page.goto('/admin/settings');
  await expect(moderator.page.getByText('You need admin privileges to access this page.')).toBeVisible();
  await moderator.context.close();
});

test('an admin sees the host key recorded at the first connection; a changed key is refused until confirmed', async ({
  browser,
}) => {
  const sshd = await startSshd();
  const admin = await pageAs(browser, { roles: ['admin'] });
  const page = admin.page;
  const name = uniqueName('Pinned store');
  try {
    await page.goto('/admin/delivery');
    await page.getByRole('button', { name: 'Add target' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('URL').fill(sshd.url);
    await dialog.getByLabel('SFTP private key (optional)').fill(sshd.privateKey);
    await expect(dialog.getByLabel('Host key fingerprint (optional)')).toHaveValue('');
    await dialog.getByLabel('Recipient party id (DPID)').fill(STORE_DPID);
    await dialog.getByLabel('Selected platforms').check();
    await dialog.getByLabel('Kuack Media').check();
    await dialog.getByRole('button', { name: 'Add target' }).click();
    await expect(dialog).toBeHidden();

    // Added enabled, it was tested first (issue 26): that first connection recorded the key.
    const card = page.getByRole('listitem', { name });
    const first = sshd.fingerprint();
    await expect(card.getByTestId('target-host-key')).toHaveText(first);
    await card.getByRole('button', { name: 'Test connection' }).click();
    await expect(card.getByTestId('connection-result')).toContainText('Connected.');
    await expect(card.getByTestId('target-host-key')).toHaveText(first);

    // The store's server now answers with another key: refused, both fingerprints named, pin kept.
    await sshd.restartWithNewHostKey();
    const second = sshd.fingerprint();
    await card.getByRole('button', { name: 'Test connection' }).click();
    await expect(card.getByTestId('connection-result')).toContainText(
      `Connection failed. The host key of 127.0.0.1:${new URL(sshd.url).port} changed (target "${name}"): expected ${first}, received ${second}.`,
    );
    await expect(card.getByTestId('target-host-key')).toHaveText(first);

    // The store confirms its new key: the admin enters it, and the connection works again.
    await card.getByRole('button', { name: `Edit ${name}` }).click();
    await expect(dialog.getByLabel('Host key fingerprint (optional)')).toHaveValue(first);
    await dialog.getByLabel('Host key fingerprint (optional)').fill('SHA256:not-a-key');
    await dialog.getByRole('button', { name: 'Save target' }).click();
    await expect(dialog.getByText(/Enter the host key fingerprint as OpenSSH prints it/)).toBeVisible();
    await dialog.getByLabel('Host key fingerprint (optional)').fill(second);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Save target' }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByTestId('target-host-key')).toHaveText(second);
    await card.getByRole('button', { name: 'Test connection' }).click();
    await expect(card.getByTestId('connection-result')).toContainText('Connected.');

    await card.getByRole('button', { name: `Delete ${name}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(card).toHaveCount(0);
  } finally {
    await admin.context.close();
    await sshd.stop();
  }
});
