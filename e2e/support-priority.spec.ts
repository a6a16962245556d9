/**
 * Issue 28, priority support, at 1280 px and 390 px: a Pro artist writes from Help and reads a reply-by one
 * business day ahead; in the admin's Messages the Pro message sorts before an older Basic one (3 business
 * days); the admin replies, the reply is mailed and shows in the artist's Help history.
 */
import type { Page } from '@playwright/test';
import { expect, outboxMails, pageAs, seriousA11yViolations, test } from './support/test';

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const DAY_MS = 86_400_000;

/**
 * Decision 173 in UTC (the operator zone's default), written out apart from the server's code: N business
 * days after a weekday message is the same time on the Nth following weekday; a weekend message counts
 * from Monday 00:00.
 */
function businessDaysAfter(sentAt: Date, days: number): Date {
  const isWeekend = (time: number) => [0, 6].includes(new Date(time).getUTCDay());
  let time = sentAt.getTime();
  if (isWeekend(time)) {
    time = Date.UTC(sentAt.getUTCFullYear(), sentAt.getUTCMonth(), sentAt.getUTCDate());
    while (isWeekend(time)) time += DAY_MS;
  }
  for (let left = days; left > 0; ) {
    time += DAY_MS;
    if (!isWeekend(time)) left -= 1;
  }
  return new Date(time);
}

/** The web app's date-time format (lib/format.ts) in the browser's own time zone. */
async function asShown(page: Page, iso: string): Promise<string> {
  const timeZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(
    new Date(iso),
  );
}

async function openSidebarLink(page: Page, name: string, isPhone: boolean) {
  if (isPhone) await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name }).click();
}

/** The outbox writes bodies quoted-printable: soft line breaks and =XX escapes undone (ASCII here). */
const quotedPrintableDecoded = (text: string) =>
  text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

async function fitsWidth(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

for (const viewport of VIEWPORTS) {
  test(`${viewport.name}: a Pro message is due in one business day, sorts first, and the reply reaches the artist`, async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const stamp = `${viewport.name}-${Date.now().toString(36)}`;
    const isPhone = viewport.width < 768;

    // An older Basic message, written a moment before the Pro one.
    const basic = await pageAs(browser, { plan: 'basic' });
    const basicSubject = `Basic question ${stamp}`;
    const basicAnswer = await basic.page.request.post('/api/support/messages', {
      data: { subject: basicSubject, body: 'Where do I see my streams?' },
    });
    expect(basicAnswer.status()).toBe(201);
    const basicThread = (await basicAnswer.json()) as { plan: string; replyBy: string; createdAt: string };
    expect(basicThread.plan).toBe('basic');
    expect(basicThread.replyBy).toBe(businessDaysAfter(new Date(basicThread.createdAt), 3).toISOString());
    await basic.context.close();

    // The Pro artist writes from Help.
    const pro = await pageAs(browser, { plan: 'pro' });
    const { page } = pro;
    await page.setViewportSize(viewport);
    await page.goto('/dashboard');
    await openSidebarLink(page, 'Help', isPhone);
    await expect(page).toHaveURL(/\/dashboard\/help$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Help' })).toBeVisible();
    await expect(page.getByTestId('support-promise')).toHaveText(
      'On your Pro plan, we reply within 1 business day.',
    );

    // The shared schema refuses an empty form before anything is sent.
    await page.getByRole('button', { name: 'Send to support' }).click();
    await expect(page.getByText('Please enter a subject.')).toBeVisible();
    await expect(page.getByText('Please write your message.')).toBeVisible();

    const proSubject = `Pro question ${stamp}`;
    await page.getByRole('textbox', { name: 'Subject' }).fill(proSubject);
    await page
      .getByRole('textbox', { name: 'Message' })
      .fill('My single is approved.\nWhen does it reach Spotify?');
    const sent = page.waitForResponse(
      (response) =>
        response.url().endsWith('/api/support/messages') && response.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Send to support' }).click();
    const proThread = (await (await sent).json()) as { plan: string; replyBy: string; createdAt: string };
    expect(proThread.plan).toBe('pro');
    expect(proThread.replyBy).toBe(businessDaysAfter(new Date(proThread.createdAt), 1).toISOString());

    const mine = page.getByRole('article', { name: proSubject });
    await expect(mine).toContainText('Awaiting reply');
    await expect(mine.getByTestId('reply-by')).toHaveText(
      `Reply by ${await asShown(page, proThread.replyBy)}`,
    );
    await expect(mine).toContainText('When does it reach Spotify?');
    await expect(page.getByRole('textbox', { name: 'Subject' })).toHaveValue('');
    await fitsWidth(page, viewport.width);
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The admin's Messages: the Pro message (due sooner) comes before the older Basic one.
    const admin = await pageAs(browser, { roles: ['admin'], fullName: 'Grace Support' });
    await admin.page.setViewportSize(viewport);
    await admin.page.goto('/admin/messages');
    await expect(admin.page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
    const list = admin.page.getByRole('list', { name: 'Support messages' });
    const ours = list.getByRole('heading', { level: 3, name: new RegExp(`${stamp}$`) });
    await expect(ours).toHaveText([proSubject, basicSubject]);
    expect(Date.parse(basicThread.createdAt)).toBeLessThan(Date.parse(proThread.createdAt));

    const proCard = list.getByRole('article', { name: proSubject });
    await expect(proCard).toContainText('Pro');
    await expect(proCard).toContainText('Awaiting reply');
    await expect(proCard.getByTestId('reply-by')).toHaveText(
      `Reply by ${await asShown(admin.page, proThread.replyBy)}`,
    );
    const basicCard = list.getByRole('article', { name: basicSubject });
    await expect(basicCard).toContainText('Basic');
    await expect(basicCard.getByTestId('reply-by')).toHaveText(
      `Reply by ${await asShown(admin.page, basicThread.replyBy)}`,
    );
    await fitsWidth(admin.page, viewport.width);
    expect(await seriousA11yViolations(admin.page)).toEqual([]);

    // The admin opens the Pro message and replies.
    await proCard.getByRole('button', { name: 'Reply' }).click();
    const replyText = `It reaches Spotify within 48 hours of approval. (${stamp})`;
    await proCard.getByRole('textbox', { name: 'Your reply (mailed to the artist)' }).fill(replyText);
    await proCard.getByRole('button', { name: 'Send reply' }).click();
    await expect(list.getByRole('article', { name: proSubject })).toHaveCount(0);
    await admin.page.getByRole('tab', { name: /^Answered/ }).click();
    const answered = admin.page.getByRole('article', { name: proSubject });
    await expect(answered).toContainText('Answered');
    await expect(answered).toContainText(replyText);
    await expect(answered).toContainText('Grace Support');

    // The reply went out by mail to the artist (support's own notice of the message names them too).
    const replyMails = async () =>
      (await outboxMails(pro.user.email)).filter(
        (item) => item.text.includes(`To: ${pro.user.email}`) && item.text.includes(`Re: ${proSubject}`),
      );
    await expect.poll(async () => (await replyMails()).length).toBe(1);
    const [mail] = await replyMails();
    const body = quotedPrintableDecoded(mail?.text ?? '');
    expect(body).toContain(replyText);
    const link = body.match(
      /See the whole conversation in Help: (http:\/\/\S+\/dashboard\/help\/[0-9a-f-]{36})/,
    );
    expect(link).not.toBeNull();

    // And it shows in the artist's Help history, under their message.
    await page.reload();
    const thread = page.getByRole('article', { name: proSubject });
    await expect(thread).toContainText('Answered');
    await expect(thread.getByRole('list', { name: 'Replies' })).toContainText(replyText);
    await expect(thread.getByRole('list', { name: 'Replies' })).toContainText(
      'Grace Support, Tunedrop support',
    );
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The mail's link opens the thread on its own page.
    await page.goto(new URL(link?.[1] ?? '').pathname);
    await expect(page.getByRole('heading', { level: 2, name: proSubject })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Replies' })).toContainText(replyText);

    await admin.context.close();
    await pro.context.close();
  });
}

test('a payee without a plan reaches Help and gets the Basic reply-by time', async ({ browser }) => {
  const { page, context } = await pageAs(browser, { subscription: 'inactive' });
  await page.goto('/dashboard/help');
  await expect(page).toHaveURL(/\/dashboard\/help$/);
  await expect(page.getByTestId('lapsed-banner')).toContainText('You have no subscription.');
  await expect(page.getByTestId('support-promise')).toHaveText(
    'On your Basic plan, we reply within 3 business days.',
  );
  const subject = `Payee question ${Date.now().toString(36)}`;
  await page.getByRole('textbox', { name: 'Subject' }).fill(subject);
  await page.getByRole('textbox', { name: 'Message' }).fill('Where do my split shares show?');
  const sent = page.waitForResponse(
    (response) => response.url().endsWith('/api/support/messages') && response.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Send to support' }).click();
  const thread = (await (await sent).json()) as { replyBy: string; createdAt: string };
  expect(thread.replyBy).toBe(businessDaysAfter(new Date(thread.createdAt), 3).toISOString());
  const card = page.getByRole('article', { name: subject });
  await expect(card).toContainText('Basic');
  await expect(card.getByTestId('reply-by')).toHaveText(`Reply by ${await asShown(page, thread.replyBy)}`);
  await context.close();
});

test('the admin Settings refuse a time zone that is not an IANA name', async ({ browser }) => {
  const { page, context } = await pageAs(browser, { roles: ['admin'] });
  await page.goto('/admin/settings');
  const zone = page.getByRole('textbox', { name: 'Operator time zone' });
  await expect(zone).toHaveValue('UTC');
  await zone.fill('Mars/Olympus_Mons');
  await page.getByRole('button', { name: 'Save time zone' }).click();
  await expect(page.getByText('Please enter an IANA time zone such as UTC or Europe/Berlin.')).toBeVisible();
  await expect(zone).toHaveAttribute('aria-invalid', 'true');
  expect(await seriousA11yViolations(page)).toEqual([]);
  // Nothing was saved: the zone every journey counts in is still UTC (the audit journey saves a zone and
  // then UTC again, so it may come from the settings rather than the default).
  const saved = await page.request.get('/api/admin/support/settings');
  expect((await saved.json()).timeZone).toBe('UTC');
  await context.close();
});
