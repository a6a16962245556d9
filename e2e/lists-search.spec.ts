/**
 * Issue 26 finding 9 journey (lists at label scale, record 195): an artist with several releases searches
 * My Songs by title and by ISRC and filters it by state (kept in the URL, a "No releases match" state that
 * clears); an admin filters Delivery by store; the release page shows one row for an aggregator's stores.
 */
import { deliverThroughApi, retireTarget, storeFolder, uniqueName, waitForPackage } from './support/delivery';
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

test('My Songs and Delivery are searched and filtered; one target is one store row', async ({ browser }) => {
  test.setTimeout(120_000);
  const tag = Math.random().toString(36).slice(2, 7);
  const isrc = `QZH10${String(new Date().getFullYear()).slice(2)}${String(Math.floor(Math.random() * 100_000)).padStart(5, '0')}`;
  const admin = await pageAs(browser, { roles: ['admin'] });
  const artist = await pageAs(browser);
  const userId = artist.user.userId;
  await seed.release({ userId, title: `Harbor Lights ${tag}` });
  await seed.release({
    userId,
    title: `Quiet Tide ${tag}`,
    status: 'rejected',
    rejectionReason: 'Cover art is blurry',
    isrcs: [isrc],
  });
  const signal = `Signal Fire ${tag}`;
  const { releaseId } = await seed.release({
    userId,
    title: signal,
    distributionStores: ['deezer', 'tidal', 'qobuz'],
  });
  const store = storeFolder();
  const targetName = uniqueName('Aggregator X');
  let targetId: string | null = null;

  try {
    ({ targetId } = await deliverThroughApi(admin.page.request, {
      store,
      platforms: ['deezer', 'tidal', 'qobuz'],
      releaseId,
      targetName,
    }));
    await waitForPackage(store.dir);

    // My Songs: all three, then a title search (kept in the URL across a reload).
    const page = artist.page;
    await page.goto('/dashboard/songs');
    const releases = page.getByRole('list', { name: 'Releases' }).getByRole('listitem');
    await expect(releases).toHaveCount(3);
    const search = page.getByRole('searchbox', { name: 'Search releases by title, artist, UPC or ISRC' });
    await search.fill('harbor');
    await expect(releases).toHaveCount(1);
    await expect(releases).toContainText(`Harbor Lights ${tag}`);
    await expect(page).toHaveURL(/[?&]q=harbor/);
    await page.reload();
    await expect(search).toHaveValue('harbor');
    await expect(releases).toHaveCount(1);

    // By a track's ISRC, written with hyphens as the release page shows it.
    const hyphenated = `${isrc.slice(0, 2)}-${isrc.slice(2, 5)}-${isrc.slice(5, 7)}-${isrc.slice(7)}`;
    await search.fill(hyphenated);
    await expect(releases).toHaveCount(1);
    await expect(releases).toContainText(`Quiet Tide ${tag}`);

    // By state; a state and a search that nothing matches, then Clear filters.
    await search.fill('');
    await page.getByLabel('State', { exact: true }).selectOption({ label: 'Rejected' });
    await expect(releases).toHaveCount(1);
    await expect(releases).toContainText(`Quiet Tide ${tag}`);
    await expect(page).toHaveURL(/[?&]state=rejected/);
    await search.fill('harbor');
    await expect(page.getByRole('heading', { name: 'No releases match' })).toBeVisible();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(releases).toHaveCount(3);
    await expect(search).toHaveValue('');
    await expect(page.getByLabel('State', { exact: true })).toHaveValue('');

    // The admin's Delivery page: by title and store.
    const adminPage = admin.page;
    await adminPage.goto('/admin/delivery');
    await adminPage
      .getByRole('searchbox', { name: 'Search deliveries by release title, artist or UPC' })
      .fill(signal);
    await adminPage.getByLabel('Store', { exact: true }).selectOption({ label: 'Qobuz' });
    // Another journey's store for Qobuz may take this release too, beside the parallel journeys: one row
    // is this journey's target.
    const rows = adminPage.getByTestId('delivery-row').filter({ hasText: targetName });
    await expect(rows).toHaveCount(1);
    await expect(adminPage).toHaveURL(/[?&]store=qobuz/);
    await adminPage.getByLabel('Store', { exact: true }).selectOption({ label: 'Spotify' });
    await expect(adminPage.getByRole('heading', { name: 'No deliveries match these filters' })).toBeVisible();

    // The release page: one row for the target's three stores, opening to each of them.
    await page.goto(`/dashboard/releases/${releaseId}`);
    const group = page.getByRole('listitem', { name: `Sent to ${targetName} for 3 stores` });
    await expect(group).toBeVisible();
    await expect(page.getByTestId('store-row')).toHaveCount(0);
    await group.getByRole('button', { name: 'Show stores' }).click();
    for (const name of ['Deezer', 'TIDAL', 'Qobuz'])
      await expect(group.getByRole('listitem', { name, exact: true })).toBeVisible();
    await expect(group.getByRole('button', { name: 'Hide stores' })).toHaveAttribute('aria-expanded', 'true');
    expect(await seriousA11yViolations(page)).toEqual([]);
  } finally {
    if (targetId) await retireTarget(admin.page.request, targetId);
    store.remove();
  }
});
