/**
 * Issue 26 post-release edits (record 197), with a store behind a real OpenSSH SFTP server:
 * 1. the artist changes a live release's title and cover; the change waits as "Update in review"; the
 *    admin sees the before/after and approves; an update package carrying only the new cover reaches the
 *    store, and the release page shows the new title;
 * 2. a store rejects a release ("Needs action"); the artist fixes the metadata through an update, the
 *    admin approves it, the fix goes to that store, and its accepted answer clears "Needs action";
 * 3. the artist fixes a track's ISRC and songwriters (issue 44, record 236): another track's code is refused,
 *    the admin approves the before/after, and a metadata-only update carries them to the store.
 */
import { startSftpServer } from '../apps/server/src/test-support/sftp';
import { mediaDir } from './support/builder';
import {
  adminApi,
  answer,
  CODE_SETTINGS,
  isoDay,
  retireTarget,
  runWorker,
  STORE_DPID,
  uniqueName,
  waitForPackage,
} from './support/delivery';
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

// Both journeys deliver to every enabled qobuz/joox target: one at a time keeps each store's packages its own.
test.describe.configure({ mode: 'serial' });

type Browser = import('@playwright/test').Browser;
type Page = import('@playwright/test').Page;

/** An SFTP store for qobuz and joox, an admin and an artist; `run` gets them and cleans up after. */
async function withStore(
  browser: Browser,
  run: (ctx: { admin: Page; artist: Page; artistId: string; root: string }) => Promise<void>,
) {
  const sftp = await startSftpServer();
  const admin = await pageAs(browser, { roles: ['admin'] });
  const artist = await pageAs(browser, { plan: 'pro' });
  let targetId: string | null = null;
  try {
    await adminApi(admin.page.request, 'PUT', '/api/admin/settings', CODE_SETTINGS);
    ({ id: targetId } = await adminApi<{ id: string }>(
      admin.page.request,
      'POST',
      '/api/admin/delivery/targets',
      {
        name: uniqueName('Update SFTP store'),
        url: sftp.url(),
        privateKey: sftp.privateKey,
        dpid: STORE_DPID,
        platforms: ['qobuz', 'joox'],
        profile: 'release',
      },
    ));
    await run({ admin: admin.page, artist: artist.page, artistId: artist.user.userId, root: sftp.root });
  } finally {
    if (targetId) await retireTarget(admin.page.request, targetId);
    await admin.context.close();
    await artist.context.close();
    await sftp.stop();
  }
}

/** The artist opens Update Release on the release page, changes the title (and the cover), and sends it. */
async function sendUpdate(page: Page, releaseId: string, changes: { title: string; cover?: string }) {
  await page.goto(`/dashboard/releases/${releaseId}`);
  await page.getByRole('button', { name: 'Update Release' }).click({ timeout: 30_000 });
  const dialog = page.getByRole('dialog', { name: 'Update Release' });
  await dialog.getByLabel('Release Title').fill(changes.title);
  if (changes.cover) {
    await dialog.getByLabel('New cover art (optional)').setInputFiles(changes.cover);
    await expect(dialog.getByText('Ready to send for review')).toBeVisible({ timeout: 30_000 });
  }
  await dialog.getByRole('button', { name: 'Send for Review' }).click();
  await expect(dialog).toHaveCount(0);
}

/** The admin approves the update of `oldTitle` from Release Review, after seeing the title's before/after. */
async function approveUpdate(page: Page, oldTitle: string, newTitle: string) {
  await page.goto('/admin/releases');
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: oldTitle }) });
  const titleRow = card.getByRole('row', { name: /Release title/ });
  await expect(titleRow.getByRole('cell').first()).toHaveText(oldTitle);
  await expect(titleRow.getByRole('cell').last()).toHaveText(newTitle);
  await card.getByRole('button', { name: 'Approve Update' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Approve and Send' }).click();
  await expect(card).toHaveCount(0);
}

/** A release of the artist's, dated two days ago, approved and delivered to the store: its id and package. */
async function deliverRelease(ctx: { admin: Page; artistId: string; root: string }, title: string) {
  const { releaseId } = await seed.release({
    userId: ctx.artistId,
    title,
    releaseDate: isoDay(-2),
    distributionStores: ['qobuz', 'joox'],
  });
  await adminApi(ctx.admin.request, 'POST', `/api/admin/releases/${releaseId}/approve`, {});
  await runWorker();
  const first = await waitForPackage(ctx.root, (item) => item.xml.includes(title));
  return { releaseId, first };
}

/** The admin approves the update from `oldTitle` to `newTitle`; the worker sends it: the new package. */
async function deliverUpdate(
  ctx: { admin: Page; root: string },
  first: { messageId: string },
  oldTitle: string,
  newTitle: string,
) {
  await approveUpdate(ctx.admin, oldTitle, newTitle);
  await runWorker();
  return waitForPackage(
    ctx.root,
    (item) => item.xml.includes(newTitle) && item.messageId !== first.messageId,
  );
}

test('an artist updates a live release; the admin approves the diff; only the new cover is resent', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  await withStore(browser, async (ctx) => {
    const { artist } = ctx;
    const tag = Math.random().toString(36).slice(2, 8);
    const title = `Before Edit ${tag}`;
    const newTitle = `After Edit ${tag}`;
    const { releaseId, first } = await deliverRelease(ctx, title);
    await answer(first, { isAccepted: true });

    const media = mediaDir();
    await sendUpdate(artist, releaseId, {
      title: newTitle,
      cover: await media.cover('Fresh Cover.jpg', 3000, 'jpeg'),
    });
    // In review: the page still shows the live title, and what changes.
    await expect(artist.getByRole('heading', { name: 'Update in review', level: 2 })).toBeVisible();
    await expect(artist.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    await expect(artist.getByRole('row', { name: /Cover art/ })).toContainText('Fresh Cover.jpg');
    await expect(artist.getByRole('button', { name: 'Update Release' })).toHaveCount(0);
    expect(await seriousA11yViolations(artist)).toEqual([]);
    // My Songs marks the row too (record 197).
    await artist.goto('/dashboard/songs');
    const row = artist.getByRole('listitem').filter({ has: artist.getByRole('heading', { name: title }) });
    await expect(row.getByTestId('update-in-review')).toHaveText('Update in review');
    await artist.goto(`/dashboard/releases/${releaseId}`);

    const update = await deliverUpdate(ctx, first, title, newTitle);
    // Only the changed file travels with the update (choreography §5).
    expect(update.resources.map((file) => file.name)).toEqual([expect.stringMatching(/_CoverArt\.jpg$/)]);
    await answer(update, { isAccepted: true });

    await artist.reload();
    await expect(artist.getByRole('heading', { name: newTitle, level: 1 })).toBeVisible();
    await expect(artist.getByRole('heading', { name: 'Update in review' })).toHaveCount(0);
    await expect(artist.getByTestId('release-status')).toHaveText('Live');
  });
});

test('a store rejection is fixed by the artist through an update and re-delivered; the accepted answer clears "Needs action"', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  await withStore(browser, async (ctx) => {
    const { artist } = ctx;
    const tag = Math.random().toString(36).slice(2, 8);
    const title = `Wrong Title ${tag}`;
    const fixed = `Right Title ${tag}`;
    const { releaseId, first } = await deliverRelease(ctx, title);
    await answer(first, {
      isAccepted: false,
      status: 'MetadataMissing',
      errorText: 'The title does not match the artwork',
    });

    await artist.goto(`/dashboard/releases/${releaseId}`);
    await expect(artist.getByRole('heading', { name: title, level: 1 })).toBeVisible({ timeout: 30_000 });
    await expect(artist.getByTestId('needs-action')).toHaveText('Needs action');
    await sendUpdate(artist, releaseId, { title: fixed });
    await expect(artist.getByRole('heading', { name: 'Update in review', level: 2 })).toBeVisible();

    const second = await deliverUpdate(ctx, first, title, fixed);
    await answer(second, { isAccepted: true });

    await artist.reload();
    await expect(artist.getByRole('heading', { name: fixed, level: 1 })).toBeVisible();
    await expect(artist.getByTestId('needs-action')).toHaveCount(0);
    await expect(artist.getByTestId('release-status')).toHaveText('Live');
  });
});

test("an artist fixes a track's songwriter and ISRC after release; the update carries them to the store", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  await withStore(browser, async (ctx) => {
    const { artist, admin } = ctx;
    const tag = Math.random().toString(36).slice(2, 8);
    const title = `Credits Fix ${tag}`;
    const isrc = `QZC${tag.slice(0, 2).toUpperCase()}26${String(Math.floor(Math.random() * 100_000)).padStart(5, '0')}`;
    const { releaseId, first } = await deliverRelease(ctx, title);
    await answer(first, { isAccepted: true });

    // Issue 44: the credits and the ISRC are fixed in Update Release, like any other change.
    await artist.goto(`/dashboard/releases/${releaseId}`);
    await artist.getByRole('button', { name: 'Update Release' }).click({ timeout: 30_000 });
    const dialog = artist.getByRole('dialog', { name: 'Update Release' });
    const credits = dialog.locator('details').filter({ hasText: 'Credits and ISRC of track 1' });
    await credits.getByText('Credits and ISRC of track 1').click();
    const code = credits.getByLabel('ISRC', { exact: true });
    const oldIsrc = await code.inputValue();
    // Another track's code is refused, with the builder's words, under the field.
    const takenIsrc = `QZT${tag.slice(0, 2).toUpperCase()}26${String(Math.floor(Math.random() * 100_000)).padStart(5, '0')}`;
    await seed.release({
      userId: ctx.artistId,
      title: `Credits Other ${tag}`,
      status: 'live',
      isrcs: [takenIsrc],
    });
    await code.fill(takenIsrc);
    await dialog.getByRole('button', { name: 'Send for Review' }).click();
    await expect(credits.getByText('This ISRC is already used by another track')).toBeVisible();
    await code.fill(isrc.toLowerCase());
    await credits.getByRole('button', { name: 'Add Songwriter' }).click();
    const writer = credits.getByRole('group', { name: /^Songwriter \d+$/ }).last();
    await writer.getByLabel('First Name').fill('Lyra');
    await writer.getByLabel('Last Name').fill(`Poet${tag}`);
    expect(await seriousA11yViolations(artist)).toEqual([]);
    await dialog.getByRole('button', { name: 'Send for Review' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(artist.getByRole('heading', { name: 'Update in review', level: 2 })).toBeVisible();
    await expect(artist.getByRole('row', { name: /ISRC, track 1/ })).toContainText(isrc);

    // The admin sees the before/after of the code and approves; the update reaches the store.
    await admin.goto('/admin/releases');
    const card = admin.getByRole('listitem').filter({ has: admin.getByRole('heading', { name: title }) });
    const isrcRow = card.getByRole('row', { name: /ISRC, track 1/ });
    await expect(isrcRow.getByRole('cell').first()).toHaveText(oldIsrc);
    await expect(isrcRow.getByRole('cell').last()).toHaveText(isrc);
    await expect(card.getByRole('row', { name: /Songwriters, track 1/ })).toContainText(`Lyra Poet${tag}`);
    await card.getByRole('button', { name: 'Approve Update' }).click();
    await admin.getByRole('alertdialog').getByRole('button', { name: 'Approve and Send' }).click();
    await expect(card).toHaveCount(0);
    await runWorker();
    const update = await waitForPackage(
      ctx.root,
      (item) => item.xml.includes(isrc) && item.messageId !== first.messageId,
    );
    expect(update.xml).toContain(`Poet${tag}`);
    // Metadata only: no file is sent again.
    expect(update.resources).toEqual([]);
    await answer(update, { isAccepted: true });

    await artist.reload();
    await expect(artist.getByTestId('track-isrc').first()).toHaveText(new RegExp(isrc.split('').join('-?')));
    await expect(artist.getByText(`Lyra Poet${tag}`).first()).toBeVisible();
  });
});
