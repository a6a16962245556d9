/**
 * Issue 15 journey: an admin sets the codes and a `file://` target, approves a release; the package lands
 * in the folder, the store acknowledges it, the artist sees the codes and "Delivered" → "Acknowledged" per
 * store, and "Live" once the release date has come.
 */
import {
  adminApi,
  answer,
  isoDay,
  retireTarget,
  runWorker,
  SENDER_DPID,
  STORE_DPID,
  setReleaseDate,
  storeFolder,
  uniqueName,
  waitForPackage,
} from './support/delivery';
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

test('codes at approval, delivery to a folder, acknowledgement, live on the release date', async ({
  browser,
}) => {
  // A whole delivery round trip (worker, store answer, worker) beside other journeys on two cores.
  test.setTimeout(120_000);
  const store = storeFolder();
  const tag = Math.random().toString(36).slice(2, 8);
  const title = `Northern Lights ${tag}`;
  const admin = await pageAs(browser, { roles: ['admin'] });
  const artist = await pageAs(browser, { artistName: 'Aurora Test' });
  // Stores no other journey uses, so only this journey's target serves this release.
  const { releaseId } = await seed.release({
    userId: artist.user.userId,
    title,
    trackCount: 2,
    releaseDate: isoDay(7),
    distributionStores: ['deezer', 'tidal'],
  });
  let targetId: string | null = null;

  try {
    // Codes and sender: a bad registrant is refused with the shared message, then the real values save.
    const page = admin.page;
    await page.goto('/admin/settings');
    await expect(page.getByRole('heading', { name: 'Settings', exact: true })).toBeVisible();
    await page.getByLabel('ISRC registrant code').fill('Q1');
    await page.getByLabel('UPC / GS1 company prefix').fill('0614141');
    await page.getByLabel('Sender party id (DPID)').fill(SENDER_DPID);
    await page.getByLabel('Sender name').fill('Tunedrop Distribution');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(
      page.getByText('Enter the ISRC registrant as country and registrant code, e.g. QZ-ABC.'),
    ).toBeVisible();
    await page.getByLabel('ISRC registrant code').fill('qz-abc');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(page.getByText('Settings saved')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('ISRC registrant code')).toHaveValue('QZ-ABC');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // A folder target serving two stores; the password-free URL is shown back, the test connects.
    await page.goto('/admin/delivery');
    await page.getByRole('button', { name: 'Add target' }).click();
    const dialog = page.getByRole('dialog');
    const targetName = uniqueName('Folder store');
    await dialog.getByLabel('Name').fill(targetName);
    await dialog.getByLabel('URL').fill(store.url);
    await dialog.getByLabel('Recipient party id (DPID)').fill(STORE_DPID);
    await dialog.getByLabel('Selected platforms').check();
    await dialog.getByLabel('Deezer').check();
    await dialog.getByLabel('TIDAL').check();
    await dialog.getByRole('button', { name: 'Add target' }).click();
    await expect(dialog).toBeHidden();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: targetName }) });
    await expect(card.getByTestId('target-url')).toHaveText(store.url);
    await expect(card.getByText('Deezer, TIDAL')).toBeVisible();
    await card.getByRole('button', { name: 'Test connection' }).click();
    await expect(card.getByTestId('connection-result')).toContainText('Connected.');
    expect(await seriousA11yViolations(page)).toEqual([]);
    const targets = await adminApi<{ items: { id: string; name: string }[] }>(
      page.request,
      'GET',
      '/api/admin/delivery/targets',
    );
    targetId = targets.items.find((item) => item.name === targetName)?.id ?? null;

    // Nothing delivered to the new target yet: the filtered dashboard says so and offers the way back.
    await page.getByLabel('Target', { exact: true }).selectOption({ label: targetName });
    await expect(page.getByText('No deliveries match these filters')).toBeVisible();
    await page.getByRole('button', { name: 'Show all deliveries' }).click();
    await expect(page.getByLabel('Target', { exact: true })).toHaveValue('');

    // Approval in the review queue queues the delivery.
    await page.goto(`/admin/releases?q=${tag}`);
    const reviewCard = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
    await reviewCard.getByRole('button', { name: 'Approve', exact: true }).click();
    await page
      .getByRole('alertdialog', { name: 'Approve Release' })
      .getByRole('button', { name: 'Approve and Deliver' })
      .click();
    await expect(page.getByText('Release approved')).toBeVisible();

    // The package lands in the folder: the message carries the assigned codes, both WAVs are there.
    const delivered = await waitForPackage(store.dir);
    // GS1 prefix 0614141: the UPC-A form drops the leading zero of the EAN-13 (0614141… = 614141…).
    expect(delivered.upc).toMatch(/^0?614141\d{6}$/);
    expect(delivered.xml).toMatch(/<ISRC>QZABC\d{7}<\/ISRC>/);
    expect(delivered.resources.filter((file) => file.name.endsWith('.wav'))).toHaveLength(2);
    expect(delivered.isTakedown).toBe(false);

    // The artist opens the release from My Songs: codes, tracks, one row per store.
    const artistPage = artist.page;
    await artistPage.goto('/dashboard/songs');
    await artistPage.getByRole('link', { name: `View ${title}` }).click();
    await expect(artistPage).toHaveURL(`/dashboard/releases/${releaseId}`);
    await expect(artistPage.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    await expect(artistPage.getByTestId('release-upc')).toHaveText(delivered.upc ?? '');
    const isrcs = artistPage.getByTestId('track-isrc');
    await expect(isrcs).toHaveCount(2);
    await expect(isrcs.first()).toHaveText(/^QZ-ABC-\d{2}-\d{5}$/);
    await expect(artistPage.getByText('Sam Writer (Music & Lyrics)').first()).toBeVisible();
    const deezer = artistPage.getByRole('listitem', { name: 'Deezer' });
    const tidal = artistPage.getByRole('listitem', { name: 'TIDAL' });
    await expect(deezer.getByTestId('store-state')).toHaveText('Delivered');
    await expect(tidal.getByTestId('store-state')).toHaveText('Delivered');

    // The store accepts: both rows move to Acknowledged (the page refreshes itself).
    await answer(delivered, { isAccepted: true });
    await expect(deezer.getByTestId('store-state')).toHaveText('Acknowledged', { timeout: 30_000 });
    await expect(tidal.getByTestId('store-state')).toHaveText('Acknowledged');
    await expect(artistPage.getByTestId('release-status')).toHaveText('Approved');

    // The release date comes: every store is live, and so is the release.
    await setReleaseDate(releaseId, isoDay(-1));
    await runWorker();
    await expect(async () => {
      await artistPage.reload();
      await expect(deezer.getByTestId('store-state')).toHaveText('Live', { timeout: 1_000 });
    }).toPass({ timeout: 45_000 });
    await expect(tidal.getByTestId('store-state')).toHaveText('Live');
    await expect(artistPage.getByTestId('release-status')).toHaveText('Live');
    await expect(artistPage.getByRole('list', { name: 'Status history' })).toContainText('Live');
    expect(await seriousA11yViolations(artistPage)).toEqual([]);

    // The same page at phone width: nothing wider than the screen.
    await artistPage.setViewportSize({ width: 390, height: 844 });
    await artistPage.reload();
    await expect(deezer.getByTestId('store-state')).toHaveText('Live');
    expect(await artistPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // The admin's delivery dashboard at phone width, with this release's row.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/admin/delivery');
    await expect(page.getByTestId('delivery-row').filter({ hasText: title })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  } finally {
    if (targetId) await retireTarget(admin.page.request, targetId);
    await admin.context.close();
    await artist.context.close();
    store.remove();
  }
});
