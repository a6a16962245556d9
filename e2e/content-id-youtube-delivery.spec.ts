/**
 * Journey (issue 28, record 192): an admin adds a YouTube target (a real OpenSSH sshd); a Pro artist opts
 * a track in to Content ID in the release builder (an ineligible answer refused with its reason first, the
 * choice kept in the draft across a reload) and submits; an admin approves; the package on the YouTube
 * target carries the Content ID deal for that track only, validates against the vendored ERN 4.3 schema,
 * and YouTube's acknowledgement is read; the release page shows the track protected. Opting out there sends
 * YouTube an update whose Content ID deal has an end date, valid against the schema too.
 */
import { CONTENT_ID_QUESTIONS } from '@tunedrop/shared/schemas/content-id';
import { validateErn43 } from '../apps/server/src/test-support/ddex';
import { startSftpServer } from '../apps/server/src/test-support/sftp';
import { answerAiUse, fileInput, mediaDir } from './support/builder';
import { adminApi, answer, CODE_SETTINGS, runWorker, uniqueName, waitForPackage } from './support/delivery';
import { expect, pageAs, seriousA11yViolations, test } from './support/test';

const YOUTUBE_DPID = 'PADPIDA2013020802I';
const CONTENT_ID_DPID = 'PADPIDA2015120100H';

test('a Pro artist opts a track in in the builder; after approval YouTube gets its Content ID deal', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const sftp = await startSftpServer();
  const media = mediaDir();
  const admin = await pageAs(browser, { roles: ['admin'] });
  const artist = await pageAs(browser, { plan: 'pro', artistName: 'Signal Owl' });
  const tag = Math.random().toString(36).slice(2, 8);
  const title = `Own Signal ${tag}`;
  const name = uniqueName('YouTube');
  try {
    // The admin adds YouTube as a target with the YouTube profile.
    await adminApi(admin.page.request, 'PUT', '/api/admin/settings', CODE_SETTINGS);
    await admin.page.goto('/admin/delivery');
    await admin.page.getByRole('button', { name: 'Add target' }).click();
    const targetDialog = admin.page.getByRole('dialog');
    await targetDialog.getByLabel('Name').fill(name);
    await targetDialog.getByLabel('URL').fill(sftp.url());
    await targetDialog.getByLabel('SFTP private key (optional)').fill(sftp.privateKey);
    await targetDialog.getByLabel('Recipient party id (DPID)').fill(YOUTUBE_DPID);
    await targetDialog
      .getByLabel('Choreography profile')
      .selectOption({ label: 'YouTube (Art Tracks and Content ID)' });
    await targetDialog.getByRole('button', { name: 'Add target' }).click();
    await expect(targetDialog).toBeHidden();
    await expect(admin.page.getByRole('listitem', { name, exact: true })).toBeVisible();

    // The artist builds a one-track release.
    const page = artist.page;
    await page.goto('/dashboard/release-builder');
    await page.getByLabel('Release Title').fill(title);
    await page.getByLabel('Genre').selectOption('Pop');
    await page.getByLabel('Release Date', { exact: true }).fill('2031-06-01');
    await page.getByLabel('Copyright Holder').fill('Signal Owl');
    await page.getByLabel('Publishing Holder').fill('Signal Owl');
    await fileInput(page, 'Cover Art').setInputFiles(await media.cover('owl.jpg', 3000, 'jpeg'));
    await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Continue to Track Details' }).click();
    await page.getByLabel('Track Title').fill('Night Call');
    await answerAiUse(page);
    await fileInput(page, 'Audio File (WAV)').setInputFiles(media.wav('night-call.wav', 1));
    await expect(page.getByText('Uploaded and checked')).toBeVisible({ timeout: 30_000 });
    const primary = page.getByRole('group', { name: 'Primary Artists' });
    await primary.getByLabel('Artist Name').fill('Signal Owl');
    await primary.getByRole('button', { name: 'Add Primary Artist' }).click();
    await page.getByRole('button', { name: 'Add Songwriter' }).click();
    const writer = page.getByRole('group', { name: 'Songwriter 1' });
    await writer.getByLabel('First Name').fill('Iva');
    await writer.getByLabel('Last Name').fill('Owl');
    await page.getByRole('button', { name: 'Add Producer' }).click();
    const producer = page.getByRole('group', { name: 'Producer 1' });
    await producer.getByLabel('First Name').fill('Rex');
    await producer.getByLabel('Last Name').fill('Knob');

    // Content ID: the eligibility questions; a cover is refused with its reason, then corrected.
    const contentId = page.getByTestId('builder-content-id');
    await contentId.getByRole('button', { name: 'Opt in Night Call to Content ID' }).click();
    const dialog = page.getByRole('dialog', { name: 'Content ID for “Night Call”' });
    const choose = async (isCover: boolean) => {
      for (const question of CONTENT_ID_QUESTIONS) {
        const eligible = question.eligibleAnswer === 'yes' ? 'Yes' : 'No';
        const choice = question.id === 'isCover' && isCover ? 'Yes' : eligible;
        await dialog
          .getByRole('group', { name: question.question })
          .getByRole('radio', { name: choice, exact: true })
          .check();
      }
    };
    await choose(true);
    await dialog.getByRole('button', { name: 'Opt in to Content ID' }).click();
    const cover = CONTENT_ID_QUESTIONS.find((q) => q.id === 'isCover');
    await expect(dialog.getByText(cover?.refusal ?? 'missing')).toBeVisible();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await choose(false);
    // The draft save that carries the answers (the builder saves on a debounce).
    const saved = page.waitForResponse(
      (r) =>
        r.url().endsWith('/api/builder/draft') &&
        r.request().method() === 'PUT' &&
        (r.request().postData() ?? '').includes('ownsExclusiveRights'),
    );
    await dialog.getByRole('button', { name: 'Opt in to Content ID' }).click();
    await expect(dialog).toBeHidden();
    await expect(contentId.getByText('Opted in: your answers make this track eligible.')).toBeVisible();

    // Kept in the draft: a reload brings the choice back.
    await saved;
    await page.reload();
    await expect(page.getByLabel('Track Title')).toHaveValue('Night Call', { timeout: 15_000 });
    await expect(
      page.getByTestId('builder-content-id').getByText('Opted in: your answers make this track eligible.'),
    ).toBeVisible();

    await page.getByRole('button', { name: 'Continue to Summary' }).click();
    await page.getByRole('button', { name: 'Continue to Distribution' }).click();
    await page.getByRole('button', { name: /YouTube Music/ }).click();
    await page.getByRole('button', { name: /^Spotify/ }).click();
    await page.getByRole('button', { name: 'Submit Release' }).click();
    await expect(page.getByRole('heading', { name: 'Release Submitted Successfully!' })).toBeVisible({
      timeout: 30_000,
    });

    // An admin approves.
    await admin.page.goto(`/admin/releases?q=${tag}`);
    const card = admin.page
      .getByRole('listitem')
      .filter({ has: admin.page.getByRole('heading', { name: title }) });
    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    await admin.page
      .getByRole('alertdialog', { name: 'Approve Release' })
      .getByRole('button', { name: 'Approve and Deliver' })
      .click();
    await expect(card).toBeHidden();

    // YouTube's dropbox: the Art Track and Content ID deals on the track, a valid ERN 4.3 message.
    await runWorker();
    const delivered = await waitForPackage(sftp.root, (item) => item.xml.includes(title));
    expect(delivered.xml).toContain('<TrackRelease>');
    expect(delivered.xml).toContain('<UseType>UserMakeAvailableUserProvided</UseType>');
    expect(delivered.xml).toContain('<UseType>OnDemandStream</UseType>');
    expect(delivered.xml).toContain(`<PartyId>${CONTENT_ID_DPID}</PartyId>`);
    expect(delivered.resources.some((file) => file.name.endsWith('.wav'))).toBe(true);
    const validation = validateErn43(delivered.xml);
    expect(validation.status, validation.report).toBe(0);
    await answer(delivered, { isAccepted: true });

    // The artist's release page: the track is protected.
    const releaseId = /<MessageThreadId>TD-([0-9a-f-]{36})<\/MessageThreadId>/.exec(delivered.xml)?.[1];
    await page.goto(`/dashboard/releases/${releaseId}`);
    const section = page.getByTestId('content-id-section');
    await expect(section.getByTestId('content-id-track').first()).toContainText('Protected');

    // Opting out sends YouTube the update: the same track's Content ID deal, now with an end date.
    await section.getByRole('button', { name: 'Opt out Night Call' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Opt out' }).click();
    await expect(section.getByTestId('content-id-track').first()).toContainText('Opted out');
    await runWorker();
    const update = await waitForPackage(
      sftp.root,
      (item) => item.xml.includes(title) && item.messageId !== delivered.messageId,
    );
    expect(update.isTakedown).toBe(false);
    expect(update.resources).toEqual([]);
    const contentIdDeal = /<Deal>(?:(?!<\/Deal>)[\s\S])*UserMakeAvailableUserProvided[\s\S]*?<\/Deal>/.exec(
      update.xml,
    )?.[0];
    expect(contentIdDeal).toMatch(/<EndDate>\d{4}-\d{2}-\d{2}<\/EndDate>/);
    expect(update.xml).toContain('<UseType>OnDemandStream</UseType>');
    const updateValidation = validateErn43(update.xml);
    expect(updateValidation.status, updateValidation.report).toBe(0);
  } finally {
    await admin.context.close();
    await artist.context.close();
    await sftp.stop();
    media.remove();
  }
});
