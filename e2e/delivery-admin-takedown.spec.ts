/**
 * Issue 15 journey: an admin takes a live release down from its only target; the store receives a
 * NewReleaseMessage without deals (ERN-CHOREOGRAPHY.md §5), acknowledges it, and the release is
 * taken down for the artist, store by store.
 */
import {
  answer,
  deliverThroughApi,
  isoDay,
  retireTarget,
  runWorker,
  storeFolder,
  uniqueName,
  waitForPackage,
} from './support/delivery';
import { expect, pageAs, seed, test } from './support/test';

test('an admin takes a release down from a target and the artist sees it taken down', async ({ browser }) => {
  // A whole delivery round trip (worker, store answer, worker) beside other journeys on two cores.
  test.setTimeout(120_000);
  const store = storeFolder();
  const tag = Math.random().toString(36).slice(2, 8);
  const title = `Going Away ${tag}`;
  const admin = await pageAs(browser, { roles: ['admin'] });
  const artist = await pageAs(browser);
  const { releaseId } = await seed.release({
    userId: artist.user.userId,
    title,
    releaseDate: isoDay(-3),
    distributionStores: ['claro', 'saavn'],
  });
  let targetId: string | null = null;

  try {
    const targetName = uniqueName('Takedown aggregator');
    ({ targetId } = await deliverThroughApi(admin.page.request, {
      store,
      platforms: ['claro', 'saavn'],
      releaseId,
      targetName,
    }));
    const first = await waitForPackage(store.dir);
    await answer(first, { isAccepted: true });
    await runWorker();

    // The release date has passed and the store accepted: live.
    await artist.page.goto(`/dashboard/releases/${releaseId}`);
    await expect(artist.page.getByTestId('release-status')).toHaveText('Live');

    // The admin takes it down from this target, after a confirmation.
    const page = admin.page;
    await page.goto(`/admin/delivery?target=${targetId}`);
    const row = page.getByTestId('delivery-row').filter({ hasText: title });
    await expect(row.getByTestId('delivery-state')).toHaveText('Acknowledged');
    await row.getByRole('button', { name: 'Take down here' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText(`every store ${targetName} serves`);
    await confirm.getByRole('button', { name: 'Take down' }).click();
    await expect(
      page.getByRole('region', { name: /Notifications/ }).getByText('Takedown queued'),
    ).toBeVisible();

    // The store gets a message without deals for the same release and confirms it.
    const takedown = await waitForPackage(store.dir, (item) => item.messageId !== first.messageId);
    expect(takedown.isTakedown).toBe(true);
    expect(takedown.upc).toBe(first.upc);
    await expect(row.getByTestId('delivery-state')).toHaveText(/Takedown (queued|sent)/, { timeout: 20_000 });
    await answer(takedown, { isAccepted: true });
    await expect(row.getByTestId('delivery-state')).toHaveText('Taken down', { timeout: 20_000 });

    // The artist: every store taken down, and so the release.
    await artist.page.reload();
    await expect(
      artist.page.getByRole('listitem', { name: 'Claro Música' }).getByTestId('store-state'),
    ).toHaveText('Taken down');
    await expect(
      artist.page.getByRole('listitem', { name: 'JioSaavn' }).getByTestId('store-state'),
    ).toHaveText('Taken down');
    await expect(artist.page.getByTestId('release-status')).toHaveText('Taken Down');
    await expect(artist.page.getByRole('button', { name: /Request takedown from/ })).toHaveCount(0);
  } finally {
    if (targetId) await retireTarget(admin.page.request, targetId);
    await admin.context.close();
    await artist.context.close();
    store.remove();
  }
});
