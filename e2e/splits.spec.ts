/**
 * Journey (issue 17): the owner sets a split on the release page and invites a collaborator by email →
 * the collaborator opens the mail's link, signs up from it (no subscription), follows the verification
 * link and accepts → a report is posted → both see their share on Royalties, with their statement.
 */
import { randomUUID } from 'node:crypto';
import { e2eEnv } from './support/env';
import { expect, outboxMails, pageAs, seed, seriousA11yViolations, test } from './support/test';

/** A mail file without quoted-printable soft breaks and escapes. */
const decode = (eml: string) =>
  eml
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** The first link of a mail file. */
function firstLink(eml: string): string {
  const decoded = decode(eml);
  const link = decoded.match(/https?:\/\/[^\s"<>]+/)?.[0];
  if (!link) throw new Error(`no link in mail:\n${eml}`);
  return link;
}

async function mailTo(email: string, subject: string): Promise<string> {
  let text = '';
  await expect
    .poll(async () => {
      const mails = await outboxMails(email);
      text = mails.map((mail) => decode(mail.text)).find((mail) => mail.includes(subject)) ?? '';
      return text !== '';
    })
    .toBe(true);
  return text;
}

test('owner invites a collaborator, who signs up from the mail and accepts; a posted report pays both', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const suffix = String(Number.parseInt(randomUUID().slice(0, 8), 16) % 10_000_000).padStart(7, '0');
  const isrc = `QZS${suffix.slice(0, 2)}26${suffix.slice(2, 7)}`;
  const title = `Shared Tides ${suffix}`;
  const collaboratorEmail = `collab-${suffix}@example.com`;

  const owner = await pageAs(browser, { plan: 'basic', artistName: `Owner ${suffix}` });
  const { releaseId } = await seed.release({
    userId: owner.user.userId,
    title,
    status: 'live',
    isrcs: [isrc],
  });
  const page = owner.page;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/dashboard/releases/${releaseId}`);
  const splits = page.getByTestId('splits-section');
  await expect(splits.getByTestId('splits-none')).toBeVisible();

  // 70 / 30: a wrong total is refused in the form first.
  await splits.getByLabel('Your own share (%)').fill('70');
  await splits.getByRole('button', { name: 'Add collaborator' }).click();
  await splits.getByLabel('Collaborator 1 email').fill(collaboratorEmail);
  await splits.getByLabel('Share (%)', { exact: true }).fill('20');
  await splits.getByRole('button', { name: 'Save split' }).click();
  await expect(splits.getByText('The shares, with your own, must add up to exactly 100%.')).toBeVisible();
  await splits.getByLabel('Share (%)', { exact: true }).fill('30');
  await expect(splits.getByTestId('split-total')).toContainText('Total: 100.00%');
  await splits.getByRole('button', { name: 'Save split' }).click();
  const current = splits.getByTestId('split-current');
  await expect(current).toContainText('70.00%');
  await expect(current).toContainText(collaboratorEmail);
  await expect(current).toContainText('Invited, not accepted yet');
  await expect(splits.getByTestId('split-history')).toContainText('version 1');
  expect(await seriousA11yViolations(page)).toEqual([]);

  // The collaborator: the invitation mail's link, signed out.
  const invitation = firstLink(await mailTo(collaboratorEmail, '/splits/invitations/'));
  expect(new URL(invitation).pathname).toMatch(/^\/splits\/invitations\/[A-Za-z0-9_-]+$/);
  const context = await browser.newContext({ baseURL: e2eEnv.baseUrl });
  const collab = await context.newPage();
  await collab.goto(invitation);
  await expect(collab.getByRole('heading', { name: 'Royalty split invitation' })).toBeVisible();
  await expect(collab.getByText(`to share the royalties of “${title}”`)).toBeVisible();
  await expect(collab.getByTestId('invitation-shares')).toContainText('Every track of the release');
  await expect(collab.getByTestId('invitation-shares')).toContainText('30.00% of its earnings');
  expect(await seriousA11yViolations(collab)).toEqual([]);

  // Sign up from the link (no plan is offered; no payment is made).
  await collab.getByRole('link', { name: 'Create a free account' }).click();
  await expect(collab).toHaveURL(/\/signup\?invitation=[A-Za-z0-9_-]+$/);
  await expect(collab.getByText('You are creating an account to accept a royalty split.')).toBeVisible();
  await collab.getByLabel('Email').fill(collaboratorEmail);
  await collab.getByLabel('Full name').fill('Cora Collab');
  await collab.getByLabel('Artist name').fill('Cora');
  await collab.getByLabel('Password', { exact: true }).fill('Str0ng!Tunes');
  await collab.getByLabel('Confirm password').fill('Str0ng!Tunes');
  await collab.getByRole('button', { name: 'Create account' }).click();
  await expect(collab.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
  const verify = firstLink(await mailTo(collaboratorEmail, '/api/auth/verify-email'));
  await collab.goto(verify);
  await expect.poll(async () => (await collab.request.get('/api/me')).status()).toBe(200);

  // The verification link leads back to the invitation (not to a checkout): signed in now, accept.
  await expect(collab).toHaveURL(new URL(invitation).pathname);
  await collab.getByRole('button', { name: `Accept as ${collaboratorEmail}` }).click();
  await expect(collab.getByText('Invitation accepted.')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('split-current')).toContainText('Accepted');

  // An admin posts a report of $10.00 on the track.
  const admin = await seed.user({ roles: ['admin'] });
  const report = [
    'Reporting Date\tSale Month\tStore\tArtist\tTitle\tISRC\tUPC\tQuantity\tTeam Percentage\tSong/Album\tCountry of Sale\tSongwriter Royalties Withheld\tEarnings (USD)',
    `2026-01-10\t2025-12\tSpotify\tOwner\tSong\t${isrc}\t\t1000\t100\tSong\tUS\t0\t10.00`,
  ].join('\r\n');
  const headers = { cookie: admin.cookie ?? '', origin: e2eEnv.baseUrl };
  const imported = await fetch(
    `${e2eEnv.baseUrl}/api/admin/royalties/imports?filename=splits-${suffix}.tsv`,
    {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      body: `${report}\r\n`,
    },
  );
  // Imports and postings run as jobs (record 161): the upload and the post answer 202, then the phase moves.
  expect(imported.status).toBe(202);
  const { id } = (await imported.json()) as { id: string };
  const phaseOf = async () => {
    const summary = await fetch(`${e2eEnv.baseUrl}/api/admin/royalties/imports/${id}`, { headers });
    return ((await summary.json()) as { progress: { phase: string } }).progress.phase;
  };
  await expect.poll(phaseOf, { timeout: 30_000 }).toBe('ready');
  const posted = await fetch(`${e2eEnv.baseUrl}/api/admin/royalties/imports/${id}/post`, {
    method: 'POST',
    headers,
  });
  expect(posted.status).toBe(202);
  await expect.poll(phaseOf, { timeout: 30_000 }).toBe('posted');

  // The collaborator: Royalties (reachable without a plan), the share, the balance, the statement.
  await collab.setViewportSize({ width: 1280, height: 900 });
  await collab.getByRole('link', { name: 'See your royalties' }).click();
  await expect(collab).toHaveURL(/\/dashboard\/royalties$/);
  // A payee (record 175): the banner names their account, instead of asking them to "resubscribe".
  await expect(collab.getByTestId('lapsed-banner')).toContainText('Your payee account');
  await expect(collab.getByTestId('available-balance')).toHaveText('$3.00');
  const share = collab.getByTestId('payee-share').first();
  await expect(share).toContainText(title);
  await expect(share).toContainText(`splits-${suffix}.tsv`);
  await expect(share).toContainText('30.00%');
  await expect(share).toContainText('3');
  // The operator's payee minimum (payee-account.spec.ts may set it while this runs).
  await expect(collab.getByTestId('minimum-withdrawal')).toContainText('(Payee account)');
  const statement = collab.getByTestId('statement').first();
  await expect(statement).toContainText('$3.00');
  const downloading = collab.waitForEvent('download');
  await statement.getByRole('link', { name: /as CSV$/ }).click();
  const csv = await (await downloading).createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of csv) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).toString('utf8')).toContain(`(30.00%),,,,,,${title},`);
  expect(await seriousA11yViolations(collab)).toEqual([]);
  // On a phone the share stacks: its Share and Amount stay inside the screen (issue 25, finding 6), and the
  // statement opens in place with the share received from its release and track.
  await collab.setViewportSize({ width: 390, height: 844 });
  const phoneShare = collab.getByTestId('payee-share').first();
  await expect(phoneShare).toContainText('Share 30.00%');
  for (const cell of await phoneShare.locator('td').all()) {
    const box = await cell.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(390);
  }
  await collab
    .getByTestId('statement')
    .first()
    .getByRole('button', { name: /^View the .* statement$/ })
    .click();
  await expect(collab.getByTestId('statement-shares')).toContainText(
    new RegExp(`From .+ · ${title}( / [^·]+)? · 30\\.00%`),
  );
  // The share by the store and country of the sales it came from.
  await expect(collab.getByTestId('statement-received-stores')).toContainText(/Spotify\s*\$3\.00/);
  await expect(collab.getByTestId('statement-received-countries')).toContainText(/US\s*\$3\.00/);
  expect(await seriousA11yViolations(collab)).toEqual([]);
  await context.close();

  // The owner: $7.00 and the statement showing the share paid out.
  await page.goto('/dashboard/royalties');
  await expect(page.getByTestId('available-balance')).toHaveText('$7.00');
  await expect(page.getByTestId('statement').first()).toContainText('$7.00');
  await page.goto(`/dashboard/releases/${releaseId}`);
  await expect(page.getByTestId('split-payee')).toContainText('paid $3.00');
  await owner.context.close();
});
