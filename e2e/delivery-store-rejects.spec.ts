/**
 * Issue 15 journey: a store rejects a delivery; the admin finds it on the delivery dashboard, reads the
 * store's reason in the attempt's acknowledgement, downloads the package that was sent, and retries.
 */
import {
  answer,
  deliverThroughApi,
  retireTarget,
  runWorker,
  storeFolder,
  uniqueName,
  waitForPackage,
  writeAckFile,
} from './support/delivery';
import { e2eEnv } from './support/env';
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

const REASON = 'Cover art is missing from the package';

test('a store rejects a delivery; the admin sees the reason and retries', async ({ browser }) => {
  // A whole delivery round trip (worker, store answer, worker) beside other journeys on two cores.
  test.setTimeout(120_000);
  const store = storeFolder();
  const tag = Math.random().toString(36).slice(2, 8);
  const title = `Rejected Once ${tag}`;
  const admin = await pageAs(browser, { roles: ['admin'] });
  const artist = await pageAs(browser);
  const { releaseId } = await seed.release({
    userId: artist.user.userId,
    title,
    distributionStores: ['qobuz', 'joox'],
  });
  let targetId: string | null = null;

  try {
    const targetName = uniqueName('Picky store');
    ({ targetId } = await deliverThroughApi(admin.page.request, {
      store,
      platforms: ['qobuz', 'joox'],
      releaseId,
      targetName,
    }));
    const first = await waitForPackage(store.dir);
    // A half-written answer first: kept and shown to the admin, it moves nothing.
    const partialName = `ACK_${first.messageId}_partial.xml`;
    writeAckFile(first, partialName, '<?xml version="1.0"?><AcknowledgementMessage><MessageHeader>');
    await runWorker();
    await answer(first, { isAccepted: false, status: 'ResourceMissing', errorText: REASON });

    // The artist sees the store's answer on the release page.
    await artist.page.goto(`/dashboard/releases/${releaseId}`);
    const qobuz = artist.page.getByRole('listitem', { name: 'Qobuz' });
    await expect(qobuz.getByTestId('store-state')).toHaveText('Rejected', { timeout: 30_000 });
    await expect(qobuz.getByTestId('store-message')).toContainText(REASON);

    // The admin filters the dashboard to rejected deliveries of this target.
    const page = admin.page;
    await page.goto('/admin/delivery');
    await page.getByLabel('State', { exact: true }).selectOption('rejected');
    await page.getByLabel('Target', { exact: true }).selectOption({ label: targetName });
    await expect(page).toHaveURL(/state=rejected/);
    const row = page.getByTestId('delivery-row').filter({ hasText: title });
    await expect(row.getByTestId('delivery-state')).toHaveText('Rejected', { timeout: 30_000 });
    await expect(row.getByTestId('delivery-error')).toContainText(REASON);
    const unmatched = page.getByRole('list', { name: 'Unmatched acknowledgements' });
    const partial = unmatched.getByTestId('delivery-ack').filter({ hasText: partialName });
    await expect(partial).toContainText('Unreadable');
    await expect(partial).toContainText('Not well-formed XML');
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The detail: the attempt, the store's acknowledgement with its reason, the package that was sent.
    await row.getByRole('button', { name: `Details of ${title} to ${targetName}` }).click();
    const dialog = page.getByRole('dialog');
    const attempt = dialog.getByTestId('delivery-attempt');
    await expect(attempt).toHaveCount(1);
    await expect(attempt).toContainText('Attempt 1');
    await expect(attempt).toContainText(first.messageId);
    await expect(attempt.getByTestId('delivery-ack')).toContainText('Rejected');
    await expect(attempt.getByTestId('delivery-ack')).toContainText(REASON);
    const download = attempt.getByRole('link', { name: 'Download package' });
    const href = await download.getAttribute('href');
    const zip = await page.request.get(`${e2eEnv.baseUrl}${href}`);
    expect(zip.status()).toBe(200);
    expect((await zip.body()).subarray(0, 2).toString('latin1')).toBe('PK');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Close' }).click();

    // Retry: the row leaves the Rejected filter, a new package arrives, the store accepts it.
    await row.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByText('Delivery queued again')).toBeVisible();
    await expect(row).toHaveCount(0);
    const second = await waitForPackage(store.dir, (item) => item.messageId !== first.messageId);
    await answer(second, { isAccepted: true });
    await page.getByLabel('State', { exact: true }).selectOption('');
    await expect(row.getByTestId('delivery-state')).toHaveText('Acknowledged', { timeout: 30_000 });
    await expect(row.getByTestId('delivery-error')).toHaveCount(0);

    // The artist, back on the release page, sees the store's new answer.
    await artist.page.reload();
    await expect(qobuz.getByTestId('store-state')).toHaveText('Acknowledged');
    await expect(qobuz.getByTestId('store-message')).toHaveCount(0);
  } finally {
    if (targetId) await retireTarget(admin.page.request, targetId);
    await admin.context.close();
    await artist.context.close();
    store.remove();
  }
});
