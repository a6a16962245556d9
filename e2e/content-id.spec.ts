/**
 * Journey (issue 28, record 185) at 1280 px and 390 px: a Pro artist opts a track in to YouTube Content ID
 * from the release page after answering the eligibility questions (an ineligible answer is refused with its
 * reason first), lists their own channel (a malformed id refused) and opts the track out again; the admin
 * sees the channel on the Content ID page; a Basic artist sees Content ID as a Pro feature, a lapsed Pro
 * artist is asked to resubscribe.
 */
import { CONTENT_ID_MESSAGES, CONTENT_ID_QUESTIONS } from '@tunedrop/shared/schemas/content-id';
import { expect, pageAs, seed, seriousA11yViolations, test } from './support/test';

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const cover = CONTENT_ID_QUESTIONS.find((q) => q.id === 'isCover');
if (!cover) throw new Error('the cover question is missing');

for (const viewport of VIEWPORTS) {
  test(`Content ID on the release page (${viewport.name})`, async ({ browser }) => {
    test.setTimeout(120_000);
    const pro = await pageAs(browser, { plan: 'pro' });
    const { page } = pro;
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const { releaseId } = await seed.release({ userId: pro.user.userId, title: 'Own Songs', trackCount: 2 });
    await page.goto(`/dashboard/releases/${releaseId}`);
    const section = page.getByTestId('content-id-section');
    await expect(section.getByRole('heading', { name: 'YouTube Content ID' })).toBeVisible();
    await expect(section.getByText(CONTENT_ID_MESSAGES.startsOnDelivery)).toBeVisible();
    const tracks = section.getByTestId('content-id-track');
    await expect(tracks).toHaveCount(2);
    await expect(tracks.first()).toContainText('Not protected');

    await section.getByRole('button', { name: 'Opt in Track 1' }).click();
    const dialog = page.getByRole('dialog', { name: /Content ID for/ });
    for (const question of CONTENT_ID_QUESTIONS) {
      const answer = question.id === 'isCover' ? 'Yes' : question.eligibleAnswer === 'yes' ? 'Yes' : 'No';
      await dialog
        .getByRole('group', { name: question.question })
        .getByRole('radio', { name: answer })
        .check();
    }
    await dialog.getByRole('button', { name: 'Opt in to Content ID' }).click();
    const coverGroup = dialog.getByRole('group', { name: cover.question });
    await expect(coverGroup.getByRole('alert')).toHaveText(cover.refusal);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await coverGroup.getByRole('radio', { name: 'No' }).check();
    await expect(coverGroup.getByRole('alert')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Opt in to Content ID' }).click();
    await expect(dialog).toBeHidden();
    await expect(tracks.first()).toContainText('Protected');
    await expect(tracks.nth(1)).toContainText('Not protected');

    const channels = section.getByTestId('content-id-channels');
    await channels.getByLabel('Channel id').fill('UC-too-short');
    await channels.getByRole('button', { name: 'Add channel' }).click();
    await expect(channels.getByRole('alert')).toHaveText(CONTENT_ID_MESSAGES.channelInvalid);
    await channels.getByLabel('Channel id').fill('UC_x5XG1OV2P6uZZ5FSM9Ttw');
    await channels.getByRole('button', { name: 'Add channel' }).click();
    await expect(channels.getByRole('list', { name: 'Allow-listed channels' })).toContainText(
      'UC_x5XG1OV2P6uZZ5FSM9Ttw',
    );
    await expect(channels.getByRole('alert')).toHaveCount(0);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The choice survives a reload: it is the server's.
    await page.reload();
    await expect(tracks.first()).toContainText('Protected');
    await section.getByRole('button', { name: 'Opt out Track 1' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Opt out' }).click();
    await expect(tracks.first()).toContainText('Opted out');
    await pro.context.close();

    // The admin sees the artist's channel to apply by hand in YouTube's CMS.
    const admin = await pageAs(browser, { roles: ['admin'] });
    await admin.page.setViewportSize({ width: viewport.width, height: viewport.height });
    await admin.page.goto('/admin');
    await admin.page.getByRole('link', { name: 'Content ID' }).click();
    await expect(admin.page.getByRole('heading', { name: 'Content ID', level: 1 })).toBeVisible();
    const entry = admin.page.getByTestId('admin-content-id-artist').filter({ hasText: pro.user.email });
    await expect(entry).toContainText('UC_x5XG1OV2P6uZZ5FSM9Ttw');
    expect(await seriousA11yViolations(admin.page)).toEqual([]);
    await admin.context.close();

    const basic = await pageAs(browser, { plan: 'basic' });
    await basic.page.setViewportSize({ width: viewport.width, height: viewport.height });
    const own = await seed.release({ userId: basic.user.userId, title: 'Basic Songs' });
    await basic.page.goto(`/dashboard/releases/${own.releaseId}`);
    const gate = basic.page.getByTestId('content-id-pro-gate');
    await expect(gate).toContainText('Pro feature');
    await expect(gate).toContainText(CONTENT_ID_MESSAGES.proOnly);
    await expect(gate.getByRole('link', { name: 'Upgrade to Pro' })).toBeVisible();
    await expect(basic.page.getByRole('button', { name: /^Opt in/ })).toHaveCount(0);
    expect(await seriousA11yViolations(basic.page)).toEqual([]);
    await basic.context.close();

    // A Pro artist whose subscription ended is asked to resubscribe, not to upgrade.
    const lapsed = await pageAs(browser, {
      plan: 'pro',
      subscription: 'canceled',
      subscriptionEnd: new Date(Date.now() - 86_400_000).toISOString(),
    });
    await lapsed.page.setViewportSize({ width: viewport.width, height: viewport.height });
    const theirs = await seed.release({ userId: lapsed.user.userId, title: 'Lapsed Songs' });
    await lapsed.page.goto(`/dashboard/releases/${theirs.releaseId}`);
    const lapsedGate = lapsed.page.getByTestId('content-id-pro-gate');
    await expect(lapsedGate).toContainText(CONTENT_ID_MESSAGES.needsSubscription);
    await expect(lapsedGate.getByRole('link', { name: 'Resubscribe' })).toBeVisible();
    await lapsed.context.close();
  });
}
