/**
 * Issue 26 finding 4 journey (record 194): a store behind a real OpenSSH SFTP server rejects a delivered
 * release. The artist sees "Needs action" with the store's reason in My Songs and on the release page,
 * and gets a mail naming the store and the reason; the admin sees it on the review card and retries;
 * the store accepts the new message, "Needs action" clears, the release goes live and the artist gets
 * the go-live mail once.
 */
import { startSftpServer } from '../apps/server/src/test-support/sftp';
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
import { expect, outboxMails, pageAs, seed, seriousA11yViolations, test } from './support/test';

const REASON = 'Cover art is too small';

/** A mail's text with its folded headers and quoted-printable soft breaks undone. */
const unfolded = (text: string) => text.replace(/=\r?\n/g, '').replace(/\r?\n[ \t]+/g, ' ');

test('a store rejects a release: the artist sees "Needs action" and the reason, the admin retries, it goes live', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const sftp = await startSftpServer();
  const admin = await pageAs(browser, { roles: ['admin'] });
  const artist = await pageAs(browser);
  const tag = Math.random().toString(36).slice(2, 8);
  const title = `Store Says No ${tag}`;
  const targetName = uniqueName('Picky SFTP store');
  let targetId: string | null = null;
  try {
    await adminApi(admin.page.request, 'PUT', '/api/admin/settings', CODE_SETTINGS);
    ({ id: targetId } = await adminApi<{ id: string }>(
      admin.page.request,
      'POST',
      '/api/admin/delivery/targets',
      {
        name: targetName,
        url: sftp.url(),
        privateKey: sftp.privateKey,
        dpid: STORE_DPID,
        platforms: ['qobuz', 'joox'],
        profile: 'release',
      },
    ));
    const tested = await adminApi<{ ok: boolean }>(
      admin.page.request,
      'POST',
      `/api/admin/delivery/targets/${targetId}/test`,
    );
    expect(tested.ok).toBe(true);
    const { releaseId } = await seed.release({
      userId: artist.user.userId,
      title,
      releaseDate: isoDay(-2),
      distributionStores: ['qobuz', 'joox'],
    });
    await adminApi(admin.page.request, 'POST', `/api/admin/releases/${releaseId}/approve`, {});
    await runWorker();
    const first = await waitForPackage(sftp.root, (item) => item.xml.includes(title));
    await answer(first, { isAccepted: false, status: 'ResourceMissing', errorText: REASON });
    const reason = `ResourceMissing: ${REASON}`;

    // My Songs: the status badge and "Needs action" with the store's reason.
    const songs = artist.page;
    await songs.goto('/dashboard/songs');
    const card = songs.getByRole('listitem').filter({ has: songs.getByRole('heading', { name: title }) });
    await expect(card.getByTestId('release-status')).toHaveText('Approved');
    await expect(card.getByTestId('needs-action')).toHaveText('Needs action');
    await expect(card.getByTestId('store-rejections')).toContainText(
      `${targetName} rejected this release: ${reason}`,
    );

    // The release page says the same.
    await songs.goto(`/dashboard/releases/${releaseId}`);
    await expect(songs.getByTestId('needs-action')).toHaveText('Needs action');
    await expect(songs.getByTestId('store-rejections')).toContainText(
      `${targetName} rejected this release: ${reason}`,
    );
    expect(await seriousA11yViolations(songs)).toEqual([]);

    // The mail names the store and its reason (its subject, "Needs action: …", is MIME-encoded: the API test reads it).
    await expect
      .poll(
        async () => (await outboxMails(artist.user.email)).map((mail) => unfolded(mail.text)).join('\n'),
        {
          timeout: 20_000,
        },
      )
      .toContain(`${targetName} rejected your release "${title}".`);
    const rejectionMail = (await outboxMails(artist.user.email))
      .map((mail) => unfolded(mail.text))
      .find((text) => text.includes(`rejected your release "${title}"`));
    expect(rejectionMail).toContain(`Reason given by ${targetName}: ${reason}`);

    // The admin sees it on the review card, then retries the delivery.
    const page = admin.page;
    await page.goto(`/admin/releases?q=${tag}`);
    await page.getByRole('tab', { name: /Approved/ }).click();
    const review = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
    await expect(review.getByTestId('needs-action')).toHaveText('Needs action');
    await expect(review).toContainText(`${targetName} rejected it: ${reason}`);
    await page.goto('/admin/delivery');
    const row = page.getByTestId('delivery-row').filter({ hasText: title });
    await expect(row.getByTestId('delivery-state')).toHaveText('Rejected');
    await row.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByText('Delivery queued again')).toBeVisible();
    await runWorker();
    const second = await waitForPackage(
      sftp.root,
      (item) => item.xml.includes(title) && item.messageId !== first.messageId,
    );
    await answer(second, { isAccepted: true });

    // Accepted: "Needs action" is gone, the release is live, one go-live mail.
    await songs.reload();
    await expect(songs.getByTestId('release-status')).toHaveText('Live');
    await expect(songs.getByTestId('needs-action')).toHaveCount(0);
    await expect(songs.getByTestId('store-rejections')).toHaveCount(0);
    await expect
      .poll(
        async () =>
          (await outboxMails(artist.user.email)).filter((mail) =>
            unfolded(mail.text).includes(`Your release "${title}" is live`),
          ).length,
        { timeout: 20_000 },
      )
      .toBe(1);
    await runWorker();
    expect(
      (await outboxMails(artist.user.email)).filter((mail) =>
        unfolded(mail.text).includes(`rejected your release "${title}"`),
      ),
    ).toHaveLength(1);
  } finally {
    if (targetId) await retireTarget(admin.page.request, targetId);
    await admin.context.close();
    await artist.context.close();
    await sftp.stop();
  }
});
