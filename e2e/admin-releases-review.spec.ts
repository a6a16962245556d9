import { expect, outboxMails, pageAs, seed, seriousA11yViolations, signIn, test } from './support/test';

test('a moderator approves one release, rejects another with a reason and approves a takedown', async ({
  browser,
}) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const artist = await seed.user({ artistName: 'Review Artist', email: `review-artist-${tag}@example.com` });
  await seed.release({ userId: artist.userId, title: `Approve Me ${tag}` });
  await seed.release({ userId: artist.userId, title: `Reject Me ${tag}`, status: 'processing' });
  await seed.release({
    userId: artist.userId,
    title: `Take Me Down ${tag}`,
    status: 'live',
    takedownRequested: true,
  });

  const { page } = await pageAs(browser, { roles: ['moderator'] });
  await page.goto(`/admin/releases?q=${tag}`);
  await expect(page.getByTestId('admin-role')).toHaveText('Moderator');
  await expect(page.getByText('Release management access')).toBeVisible();
  await expect(page.getByRole('tab', { name: /Pending Releases/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('count-pending')).toHaveText('2');
  await expect(page.getByTestId('count-takedown')).toHaveText('1');

  const approveCard = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: `Approve Me ${tag}` }) });
  await expect(approveCard.locator('audio')).toHaveCount(1);
  await expect(approveCard.getByTestId('technical-details')).toContainText('44.1 kHz · 16-bit · Stereo');
  await approveCard.getByRole('button', { name: 'Show metadata' }).click();
  await expect(approveCard.getByText('Independent')).toBeVisible();
  await expect(approveCard.getByText('Spotify, Apple Music')).toBeVisible();
  await expect(approveCard.getByText('Sam Writer (Music & Lyrics)')).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);

  // Approve asks first, naming the release and what follows (issue 26); Cancel leaves it pending.
  await approveCard.getByRole('button', { name: 'Approve', exact: true }).click();
  const approveDialog = page.getByRole('alertdialog', { name: 'Approve Release' });
  await expect(approveDialog).toContainText(`"Approve Me ${tag}" by`);
  await expect(approveDialog).toContainText('It gets its UPC and ISRCs');
  await expect(approveDialog).toContainText('delivered to 2 stores: Spotify, Apple Music.');
  expect(await seriousA11yViolations(page)).toEqual([]);
  await approveDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(approveDialog).toBeHidden();
  await expect(page.getByTestId('count-pending')).toHaveText('2');
  await approveCard.getByRole('button', { name: 'Approve', exact: true }).click();
  await approveDialog.getByRole('button', { name: 'Approve and Deliver' }).click();
  await expect(page.getByText('Release approved')).toBeVisible();
  await expect(page.getByRole('heading', { name: `Approve Me ${tag}` })).toHaveCount(0);
  await expect(page.getByTestId('count-pending')).toHaveText('1');

  const rejectCard = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: `Reject Me ${tag}` }) });
  await rejectCard.getByRole('button', { name: 'Reject', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Reject Release' });
  await dialog.getByRole('button', { name: 'Reject Release' }).click();
  await expect(dialog.getByText('Please provide a reason for rejection.')).toBeVisible();
  await dialog.getByLabel('Rejection reason').fill('The audio has clipping at 1:12.');
  await dialog.getByRole('button', { name: 'Reject Release' }).click();
  await expect(page.getByText('Release rejected')).toBeVisible();
  await expect(page.getByTestId('count-pending')).toHaveText('0');

  await page.getByRole('tab', { name: /Takedown Requests/ }).click();
  const takedownCard = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: `Take Me Down ${tag}` }) });
  await takedownCard.getByRole('button', { name: 'Approve Takedown' }).click();
  const takedownDialog = page.getByRole('alertdialog', { name: 'Approve Takedown' });
  await expect(takedownDialog).toContainText(`"Take Me Down ${tag}" by`);
  await expect(takedownDialog).toContainText('a takedown message goes to every store it was delivered to');
  await takedownDialog.getByRole('button', { name: 'Approve Takedown' }).click();
  await expect(page.getByText('Takedown approved')).toBeVisible();
  await expect(page.getByTestId('count-takedown')).toHaveText('0');
  await page.getByRole('tab', { name: /Takendown Releases/ }).click();
  await expect(page.getByRole('heading', { name: `Take Me Down ${tag}` })).toBeVisible();

  await page.getByRole('tab', { name: /Rejected Releases/ }).click();
  await expect(page.getByText('The audio has clipping at 1:12.')).toBeVisible();

  // The artist sees the decisions in My Songs, with the reason.
  const artistContext = await browser.newContext();
  await signIn(artistContext, artist);
  const artistPage = await artistContext.newPage();
  await artistPage.goto('/dashboard/songs');
  const rejected = artistPage.getByRole('listitem').filter({ hasText: `Reject Me ${tag}` });
  await expect(rejected.getByText('The audio has clipping at 1:12.')).toBeVisible();
  await expect(rejected.getByTestId('release-status')).toHaveText('Rejected');
  await expect(
    artistPage
      .getByRole('listitem')
      .filter({ hasText: `Approve Me ${tag}` })
      .getByTestId('release-status'),
  ).toHaveText('Approved');
  await expect(
    artistPage
      .getByRole('listitem')
      .filter({ hasText: `Take Me Down ${tag}` })
      .getByTestId('release-status'),
  ).toHaveText('Taken Down');

  // And gets a mail for each decision, the rejection with its reason.
  await expect
    .poll(async () => (await outboxMails(artist.email)).length, { timeout: 15_000 })
    .toBeGreaterThanOrEqual(3);
  const mails = await outboxMails(artist.email);
  expect(mails.some((mail) => mail.text.includes('The audio has clipping at 1:12.'))).toBe(true);
});

test('approving a release whose UPC another approved release holds is refused with the reason', async ({
  browser,
}) => {
  const tag = Math.random().toString(36).slice(2, 8);
  // A UPC with a valid check digit that no other journey uses, different in every run.
  const body = `5${String(Math.floor(Math.random() * 1e11)).padStart(11, '0')}`;
  const sum = [...body].reduce((total, digit, index) => total + Number(digit) * (index % 2 ? 3 : 1), 0);
  const upc = `${body}${(10 - (sum % 10)) % 10}`;
  const artist = await seed.user({ artistName: 'Twin Artist', email: `twin-artist-${tag}@example.com` });
  await seed.release({ userId: artist.userId, title: `First UPC ${tag}`, upc });
  await seed.release({ userId: artist.userId, title: `Second UPC ${tag}`, upc });

  const { page } = await pageAs(browser, { roles: ['moderator'] });
  await page.goto(`/admin/releases?q=${tag}`);
  const card = (title: string) =>
    page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
  const confirmApprove = () =>
    page
      .getByRole('alertdialog', { name: 'Approve Release' })
      .getByRole('button', { name: 'Approve and Deliver' })
      .click();
  await card(`First UPC ${tag}`).getByRole('button', { name: 'Approve', exact: true }).click();
  await confirmApprove();
  await expect(page.getByText('Release approved')).toBeVisible();
  await card(`Second UPC ${tag}`).getByRole('button', { name: 'Approve', exact: true }).click();
  await confirmApprove();
  await expect(
    page.getByText(
      "This release's UPC is already used by another release. Reject it and ask the artist for another UPC.",
    ),
  ).toBeVisible();
  await expect(card(`Second UPC ${tag}`)).toBeVisible();
  await expect(page.getByTestId('count-pending')).toHaveText('1');
});

test('the review card shows a lapsed or ending subscription, and the approve dialog repeats it', async ({
  browser,
}) => {
  const tag = Math.random().toString(36).slice(2, 8);
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString();
  const lapsed = await seed.user({
    artistName: 'Lapsed Artist',
    subscription: 'canceled',
    subscriptionEnd: day(-3),
  });
  const ending = await seed.user({
    artistName: 'Ending Artist',
    subscription: 'canceled',
    subscriptionEnd: day(5),
  });
  const renewing = await seed.user({ artistName: 'Renewing Artist' });
  await seed.release({ userId: lapsed.userId, title: `Lapsed ${tag}` });
  await seed.release({ userId: ending.userId, title: `Ending ${tag}` });
  await seed.release({ userId: renewing.userId, title: `Renewing ${tag}` });

  const { page } = await pageAs(browser, { roles: ['moderator'] });
  await page.goto(`/admin/releases?q=${tag}`);
  const card = (title: string) =>
    page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
  await expect(card(`Lapsed ${tag}`)).toContainText('Subscription lapsed: it ended');
  await expect(card(`Ending ${tag}`)).toContainText('Subscription canceled: it ends');
  await expect(card(`Renewing ${tag}`)).not.toContainText('Subscription');
  expect(await seriousA11yViolations(page)).toEqual([]);

  await card(`Lapsed ${tag}`).getByRole('button', { name: 'Approve', exact: true }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Approve Release' });
  await expect(dialog).toContainText('Heads up: Subscription lapsed: it ended');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('count-pending')).toHaveText('3');
});
