/**
 * Journey (issue 28, record 193): an admin enters a Content ID track's YouTube asset id, imports a YouTube
 * Content ID report (one line known only by that asset id) and posts it; the Pro artist
 * sees the money on the Royalties page and the claimed videos with views and earnings on the Content ID
 * claims page (the video on their own allow-listed channel already released), releases one claim after a
 * confirmation; the admin sees both in "Claims to release" and marks one done. Axe-clean at 1280 and 390 px.
 */
import { randomUUID } from 'node:crypto';
import { CONTENT_ID_ELIGIBLE_ANSWERS } from '@tunedrop/shared/schemas/content-id';
import { CLAIM_MESSAGES } from '@tunedrop/shared/schemas/content-id-claims';
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

test('a YouTube report credits the artist, lists the claims, and a released claim reaches the admin queue', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const suffix = String(Number.parseInt(randomUUID().slice(0, 8), 16) % 10_000_000).padStart(7, '0');
  const isrc = `QZY${suffix.slice(0, 2)}26${suffix.slice(2, 7)}`;
  const ownChannel = `UC${suffix}own_channel_xx`.slice(0, 24).padEnd(24, 'x');
  const fanVideo = `fan${suffix}x`.slice(0, 11);
  const ownVideo = `own${suffix}x`.slice(0, 11);
  const asset = `A9${suffix}00001`;
  const now = new Date();
  const period = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);

  const artist = await pageAs(browser, { plan: 'pro', artistName: `Claimant ${suffix}` });
  const { trackIds } = await seed.release({
    userId: artist.user.userId,
    title: `Night Drive ${suffix}`,
    status: 'live',
    isrcs: [isrc],
  });
  const opted = await artist.context.request.put(`/api/content-id/tracks/${trackIds[0]}`, {
    data: CONTENT_ID_ELIGIBLE_ANSWERS,
  });
  expect(opted.status()).toBe(200);
  const listed = await artist.context.request.post('/api/content-id/channels', {
    data: { channelId: ownChannel },
  });
  expect(listed.status()).toBe(201);

  // The admin enters the track's asset id from YouTube's CMS (a malformed one refused), then imports the
  // month's report, whose own-channel line names only the asset, and posts it.
  const admin = await pageAs(browser, { roles: ['admin'] });
  const { page } = admin;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/admin/content-id');
  const card = page.getByTestId('admin-content-id-artist').filter({ hasText: `Claimant ${suffix}` });
  const assetField = card.getByLabel('YouTube asset id of Track 1');
  await assetField.fill('not an asset');
  await card.getByRole('button', { name: 'Save asset id' }).click();
  await expect(card.getByRole('alert')).toHaveText(CLAIM_MESSAGES.assetInvalid);
  await assetField.fill(asset);
  await card.getByRole('button', { name: 'Save asset id' }).click();
  await expect(page.getByText('Asset id saved')).toBeVisible();
  await expect(card.getByRole('alert')).toHaveCount(0);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.reload();
  await expect(assetField).toHaveValue(asset);
  await page.goto('/admin/royalties');
  const fileName = `youtube-content-id-${suffix}.csv`;
  const report = [
    'adjustment_type,day,country,video_id,channel_id,asset_id,isrc,video_title,channel_display_name,owned_views,partner_revenue',
    `None,${period}-03,US,${fanVideo},UCfanchannel00000000000a,${asset},${isrc},Road trip vlog,Fan Channel,12000,3.00`,
    `None,${period}-04,DE,${fanVideo},UCfanchannel00000000000a,${asset},${isrc},Road trip vlog,Fan Channel,3000,1.00`,
    `None,${period}-05,FR,${ownVideo},${ownChannel},${asset},,Studio session,Claimant,800,0.50`,
  ].join('\n');
  await page.getByLabel('Drop a statement file here, or choose one').setInputFiles({
    name: fileName,
    mimeType: 'text/csv',
    buffer: Buffer.from(report),
  });
  await page.getByLabel('Format').selectOption('youtube');
  await page.getByRole('button', { name: 'Import statement' }).click();
  await expect(page).toHaveURL(/\/admin\/royalties\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('import-status')).toHaveText('Ready to post');
  await expect(page.getByTestId('matched-lines')).toHaveText('3 lines');
  await expect(page.getByRole('table', { name: 'By store' })).toContainText('YouTube');
  await page.getByRole('button', { name: 'Post to balances' }).click();
  await page
    .getByRole('alertdialog', { name: 'Post this report?' })
    .getByRole('button', { name: 'Post report' })
    .click();
  await expect(page.getByTestId('import-status')).toHaveText('Posted');

  // The artist sees the money, then the claims: the fan video claimed, their own upload released.
  const artistPage = artist.page;
  await artistPage.setViewportSize({ width: 1280, height: 900 });
  await artistPage.goto('/dashboard/royalties');
  await expect(artistPage.getByTestId('available-balance')).toHaveText('$4.50');
  await artistPage.goto('/dashboard/content-id');
  await expect(artistPage.getByRole('heading', { name: 'Content ID claims', level: 1 })).toBeVisible();
  const claims = artistPage.getByTestId('content-id-claim');
  await expect(claims).toHaveCount(2);
  const fan = claims.filter({ hasText: 'Road trip vlog' });
  await expect(fan).toContainText('Fan Channel');
  await expect(fan).toContainText('15,000 views');
  await expect(fan.getByTestId('claim-earnings')).toHaveText('$4.00 earned');
  await expect(fan).toContainText('Claimed');
  const own = claims.filter({ hasText: 'Studio session' });
  await expect(own).toContainText('Release requested');
  await expect(own).toContainText(CLAIM_MESSAGES.allowListReason);
  await expect(own.getByRole('button')).toHaveCount(0);
  expect(await seriousA11yViolations(artistPage)).toEqual([]);

  // The list is searched on the server: a title finds its claim, nonsense the empty state.
  const search = artistPage.getByLabel('Search claims by video, track title, ISRC or asset id');
  await search.fill('Road trip');
  await search.press('Enter');
  await expect(claims).toHaveCount(1);
  await search.fill('no such video');
  await search.press('Enter');
  await expect(artistPage.getByText(CLAIM_MESSAGES.noMatch)).toBeVisible();
  await expect(claims).toHaveCount(0);
  await search.fill('');
  await search.press('Enter');
  await expect(claims).toHaveCount(2);

  // Releasing asks first; Cancel leaves the claim.
  await fan.getByRole('button', { name: 'Release claim on Road trip vlog' }).click();
  const confirm = artistPage.getByRole('alertdialog', { name: 'Release this claim?' });
  await expect(confirm).toContainText(CLAIM_MESSAGES.releaseConfirm('Road trip vlog'));
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(fan).toContainText('Claimed');
  await fan.getByRole('button', { name: 'Release claim on Road trip vlog' }).click();
  await confirm.getByRole('button', { name: 'Release claim' }).click();
  await expect(confirm).toBeHidden();
  await expect(fan).toContainText('Release requested');
  await artistPage.setViewportSize({ width: 390, height: 844 });
  await artistPage.reload();
  await expect(claims.filter({ hasText: 'Road trip vlog' })).toContainText('Release requested');
  expect(await seriousA11yViolations(artistPage)).toEqual([]);
  await artist.context.close();

  // The admin's queue: both claims, the allow-listed one first (asked earlier); one marked done.
  await page.goto('/admin/content-id');
  // The queue is paged (issue 43 finding 11): the search by asset id finds this artist's two claims.
  await page.getByLabel('Search claims to release by video, track title, ISRC or asset id').fill(asset);
  await page.keyboard.press('Enter');
  const queue = page.getByRole('list', { name: 'Claims to release' });
  const waiting = queue.getByTestId('claim-to-release').filter({ hasText: `Claimant ${suffix}` });
  await expect(waiting).toHaveCount(2);
  await expect(waiting.first()).toContainText('Studio session');
  await expect(waiting.nth(1)).toContainText('Road trip vlog');
  await expect(waiting.nth(1)).toContainText('Asked by the artist');
  expect(await seriousA11yViolations(page)).toEqual([]);
  await waiting
    .filter({ hasText: 'Road trip vlog' })
    .getByRole('button', { name: 'Mark as done: Road trip vlog' })
    .click();
  await expect(waiting).toHaveCount(1);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await page.getByLabel('Search claims to release by video, track title, ISRC or asset id').fill(asset);
  await page.keyboard.press('Enter');
  await expect(
    page
      .getByRole('list', { name: 'Claims to release' })
      .getByTestId('claim-to-release')
      .filter({
        hasText: `Claimant ${suffix}`,
      }),
  ).toHaveCount(1);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await admin.context.close();
});

test('a Basic artist sees the claims page as a Pro feature', async ({ browser }) => {
  const basic = await pageAs(browser, { plan: 'basic' });
  await basic.page.goto('/dashboard/content-id');
  const gate = basic.page.getByTestId('content-id-pro-gate');
  await expect(gate).toContainText('Pro feature');
  await expect(gate.getByRole('link', { name: 'Upgrade to Pro' })).toBeVisible();
  expect(await seriousA11yViolations(basic.page)).toEqual([]);
  await basic.context.close();
});
