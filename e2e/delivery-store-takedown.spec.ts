/**
 * Issue 15 journey: the artist asks for a release to leave one store; the admin sends that takedown from
 * the delivery dashboard; the store acknowledges it and only that store's row reads "Taken down".
 */
import {
  answer,
  deliverThroughApi,
  retireTarget,
  storeFolder,
  uniqueName,
  waitForPackage,
} from './support/delivery';
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

test('an artist requests a takedown from one store and only that store takes the release down', async ({
  browser,
}) => {
  // A whole delivery round trip (worker, store answer, worker) beside other journeys on two cores.
  test.setTimeout(120_000);
  const store = storeFolder();
  const tag = Math.random().toString(36).slice(2, 8);
  const title = `Two Stores ${tag}`;
  const admin = await pageAs(browser, { roles: ['admin'] });
  const artist = await pageAs(browser);
  const { releaseId } = await seed.release({
    userId: artist.user.userId,
    title,
    distributionStores: ['anghami', 'boomplay'],
  });
  let targetId: string | null = null;

  try {
    const targetName = uniqueName('Two-store aggregator');
    ({ targetId } = await deliverThroughApi(admin.page.request, {
      store,
      platforms: ['anghami', 'boomplay'],
      releaseId,
      targetName,
    }));
    const first = await waitForPackage(store.dir);
    await answer(first, { isAccepted: true });

    // The artist asks, with a confirmation, for Anghami only.
    const page = artist.page;
    await page.goto(`/dashboard/releases/${releaseId}`);
    const anghami = page.getByRole('listitem', { name: 'Anghami' });
    const boomplay = page.getByRole('listitem', { name: 'Boomplay' });
    await expect(anghami.getByTestId('store-state')).toHaveText('Acknowledged', { timeout: 30_000 });
    // By keyboard: Enter opens the confirmation, Escape leaves it and focus returns to the button.
    const takedownButton = anghami.getByRole('button', { name: 'Request takedown from Anghami' });
    await takedownButton.focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('Every other store keeps it');
    await page.keyboard.press('Escape');
    await expect(confirm).toBeHidden();
    await expect(takedownButton).toBeFocused();
    await expect(anghami.getByTestId('store-state')).toHaveText('Acknowledged');
    await anghami.getByRole('button', { name: 'Request takedown from Anghami' }).click();
    await confirm.getByRole('button', { name: 'Request Takedown' }).click();
    await expect(page.getByText('Takedown requested for this store')).toBeVisible();
    await expect(anghami.getByTestId('store-state')).toHaveText('Takedown requested');
    await expect(anghami.getByRole('button', { name: 'Request takedown from Anghami' })).toHaveCount(0);
    await expect(boomplay.getByTestId('store-state')).toHaveText('Acknowledged');
    expect(await seriousA11yViolations(page)).toEqual([]);
    // And for Boomplay, which the moderator will refuse.
    await boomplay.getByRole('button', { name: 'Request takedown from Boomplay' }).click();
    await confirm.getByRole('button', { name: 'Request Takedown' }).click();
    await expect(boomplay.getByTestId('store-state')).toHaveText('Takedown requested');

    // The admin sees the request on the dashboard row...
    const adminPage = admin.page;
    await adminPage.goto(`/admin/delivery?target=${targetId}`);
    const row = adminPage.getByTestId('delivery-row').filter({ hasText: title });
    await expect(row.getByRole('button', { name: 'Take down from Anghami' })).toBeVisible();

    // ...and in the review's "Takedown Requests" tab, counted and listed with its store (issue 26),
    // where it is approved with a confirmation.
    await adminPage.goto(`/admin/releases?q=${tag}`);
    await adminPage.getByRole('tab', { name: /Takedown Requests/ }).click();
    await expect(adminPage.getByTestId('count-takedown')).toHaveText('1');
    const request = adminPage
      .getByRole('listitem')
      .filter({ has: adminPage.getByRole('heading', { name: title }) });
    await expect(request.getByTestId('store-takedown-requests')).toContainText(
      'Takedown requested from: Anghami',
    );
    await expect(request.getByRole('button', { name: 'Approve Takedown', exact: true })).toHaveCount(0);
    expect(await seriousA11yViolations(adminPage)).toEqual([]);
    // Boomplay's request is rejected with a reason: the store stays live, the request leaves the card.
    await request.getByRole('button', { name: 'Reject takedown from Boomplay' }).click();
    const reasonDialog = adminPage.getByRole('dialog', { name: 'Reject takedown from Boomplay' });
    await expect(reasonDialog).toContainText('stays live in Boomplay');
    await reasonDialog.getByLabel('Reason').fill('Boomplay is contracted until December.');
    await reasonDialog.getByRole('button', { name: 'Reject Takedown' }).click();
    await expect(
      adminPage
        .getByRole('region', { name: /Notifications/ })
        .getByText('Takedown request rejected: the release stays in this store'),
    ).toBeVisible();
    await expect(request.getByRole('button', { name: 'Reject takedown from Boomplay' })).toHaveCount(0);
    await expect(request.getByTestId('store-takedown-requests')).not.toContainText('Boomplay');
    await expect(adminPage.getByTestId('count-takedown')).toHaveText('1');
    await request.getByRole('button', { name: 'Approve Takedown from Anghami' }).click();
    const adminConfirm = adminPage.getByRole('alertdialog', { name: 'Approve Takedown' });
    await expect(adminConfirm).toContainText('taken down from Anghami only');
    await adminConfirm.getByRole('button', { name: 'Approve Takedown' }).click();
    await expect(
      adminPage.getByRole('region', { name: /Notifications/ }).getByText('Takedown approved'),
    ).toBeVisible();
    await expect(request).toHaveCount(0);
    await expect(adminPage.getByTestId('count-takedown')).toHaveText('0');
    await adminPage.goto(`/admin/delivery?target=${targetId}`);
    await expect(row.getByRole('button', { name: 'Take down from Anghami' })).toHaveCount(0);

    // The store receives a message that no longer offers Anghami and acknowledges it.
    const second = await waitForPackage(store.dir, (item) => item.messageId !== first.messageId);
    await answer(second, { isAccepted: true });

    await expect(anghami.getByTestId('store-state')).toHaveText('Taken down', { timeout: 30_000 });
    await expect(boomplay.getByTestId('store-state')).toHaveText('Acknowledged');
    await expect(page.getByTestId('release-status')).not.toHaveText('Taken Down');
  } finally {
    if (targetId) await retireTarget(admin.page.request, targetId);
    await admin.context.close();
    await artist.context.close();
    store.remove();
  }
});
