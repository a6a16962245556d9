/**
 * Issue 15 journey: an admin manages delivery targets: the password of an SFTP URL is never shown back,
 * Test connection explains an unreachable host, an edit keeps the stored credentials, a removal asks
 * first. Moderators do not reach the delivery pages. Issue 22: the SFTP host key recorded at the first
 * connection is shown, and a server answering with another key is refused with both fingerprints.
 * Issue 44: a store no target serves says "No store connection" to the artist and is named to the admin;
 * removing a target says how many releases and artists it reaches, and mails each artist. Issue 43: a folder
 * outside the server's root and the metadata address are refused with the rule's sentence.
 */
import path from 'node:path';
import { targetFolderRefusedMessage, targetHostRefusedMessage } from '@tunedrop/shared/schemas/delivery';
import {
  answer,
  deliverThroughApi,
  isoDay,
  runWorker,
  STORE_DPID,
  storeFolder,
  uniqueName,
  waitForPackage,
} from './support/delivery';
import { e2eEnv } from './support/env';
import { startSshd } from './support/sshd';
import { expect, outboxMails, pageAs, seed, seriousA11yViolations, test } from './support/test';

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
  // Where a target may point (issue 43, record 227): a folder outside the server's root and the cloud
  // metadata address are refused by the server, on the URL field, whatever the connection would do.
  await dialog.getByLabel('Recipient party id (DPID)').fill(STORE_DPID);
  await dialog.getByLabel('URL').fill('file:///etc');
  await dialog.getByRole('button', { name: 'Add target' }).click();
  await expect(
    dialog.getByText(targetFolderRefusedMessage('/etc', path.join(e2eEnv.dataDir, 'targets'))),
  ).toBeVisible();
  await dialog.getByLabel('URL').fill('sftp://store@169.254.169.254/in');
  await dialog.getByRole('button', { name: 'Add target' }).click();
  await expect(
    dialog.getByText(
      targetHostRefusedMessage('169.254.169.254', '169.254.169.254', 'the cloud metadata address'),
    ),
  ).toBeVisible();
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

test('a store without a target says "No store connection"; removing a target names who it reaches and mails them', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const store = storeFolder();
  const admin = await pageAs(browser, { roles: ['admin'] });
  const artist = await pageAs(browser);
  const tag = Math.random().toString(36).slice(2, 8);
  const title = `Half Connected ${tag}`;
  const name = uniqueName('FLO store');
  const page = admin.page;
  try {
    // FLO has a target; no journey serves MediaNet.
    const { releaseId } = await seed.release({
      userId: artist.user.userId,
      title,
      releaseDate: isoDay(10),
      distributionStores: ['flo', 'medianet'],
    });
    await deliverThroughApi(page.request, { store, platforms: ['flo'], releaseId, targetName: name });
    await runWorker();
    await answer(await waitForPackage(store.dir, (item) => item.xml.includes(title)), { isAccepted: true });

    await artist.page.goto(`/dashboard/releases/${releaseId}`);
    await expect(
      artist.page.getByRole('listitem', { name: 'MediaNet' }).getByTestId('store-state'),
    ).toHaveText('No store connection');
    await expect(
      artist.page.getByRole('listitem', { name: 'FLO' }).getByTestId('store-state'),
    ).not.toHaveText(/Waiting|No store connection/);

    // The admin is told which stores have no connection and how many releases wait, on both pages.
    await page.goto('/admin/delivery');
    const warning = page.getByRole('region', { name: 'Stores without a connection' });
    await expect(warning).toContainText('have no store connection');
    // Journeys running beside this one add releases waiting on MediaNet too, so the count is at least this
    // one's; target-lifecycle.test.ts checks the exact count on a database of its own.
    await expect(warning.getByRole('listitem').filter({ hasText: 'MediaNet:' })).toHaveText(
      /^MediaNet: [1-9]\d* releases? waiting$/,
    );
    await expect(warning.getByRole('listitem').filter({ hasText: /^FLO:/ })).toHaveCount(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.goto('/admin/releases');
    await expect(page.getByRole('region', { name: 'Stores without a connection' })).toContainText(
      /MediaNet: [1-9]\d* releases? waiting/,
    );

    // Removing the FLO target: the dialog says who it reaches before anything happens.
    await page.goto('/admin/delivery');
    const card = page.getByRole('listitem', { name, exact: true });
    await expect(card.getByTestId('target-holds')).toHaveText('1 release (delivered, not taken down)');
    await card.getByRole('button', { name: `Delete ${name}` }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText(
      'This affects 1 release of 1 artist: each artist is mailed which release leaves which store.',
    );
    await confirm.getByRole('button', { name: 'Take it down from this target' }).click();
    await expect(page.getByText(`${name} is disabled and a takedown is queued`)).toBeVisible();

    // The artist is mailed, in plain words, which release leaves which store.
    // Quoted-printable soft line breaks undone, as a mail reader shows the text.
    const mailText = async () =>
      (await outboxMails(artist.user.email))
        .map((mail) => mail.text.replace(/=\r?\n/g, ''))
        .find((text) => text.includes('taken down from FLO.')) ?? '';
    await expect.poll(mailText).toContain(`"${title}" is being taken down from FLO.`);
    expect(await mailText()).toContain('Every other store keeps your releases as they are.');
  } finally {
    await admin.context.close();
    await artist.context.close();
    store.remove();
  }
});
