/** A visitor writes to us through the Contact Us modal: sending, success with the 2 s close, and failure. */
import type { Page } from '@playwright/test';
import { expect, outboxMails, test } from './support/test';

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Contact Us' });
const links = (page: Page) => dialog(page).getByRole('textbox', { name: /^Link \d+$/ });

async function fill(page: Page, values: { name: string; company: string; email: string }) {
  await dialog(page).getByRole('textbox', { name: 'Name', exact: true }).fill(values.name);
  await dialog(page).getByRole('textbox', { name: 'Artist/Label/Company Name' }).fill(values.company);
  await dialog(page).getByRole('textbox', { name: 'Email Address' }).fill(values.email);
}

test('the modal sends a message, shows Message Sent!, closes after 2 seconds and resets', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Contact Us' }).click();
  await expect(dialog(page)).toBeVisible();

  // The fields of spec 01 §2 and §5.
  await expect(dialog(page).getByRole('textbox', { name: 'Name', exact: true })).toHaveAttribute(
    'required',
    '',
  );
  await expect(dialog(page).getByRole('textbox', { name: 'Artist/Label/Company Name' })).toHaveAttribute(
    'required',
    '',
  );
  await expect(dialog(page).getByRole('textbox', { name: 'Email Address' })).toHaveAttribute('type', 'email');
  await expect(links(page)).toHaveCount(1);
  await expect(links(page).first()).toHaveAttribute('type', 'url');
  await expect(links(page).first()).toHaveAttribute('placeholder', 'https://');
  // The first link has no remove button.
  await expect(dialog(page).getByRole('button', { name: /^Remove link/ })).toHaveCount(0);

  // Add and remove links.
  await dialog(page).getByRole('button', { name: 'Add another link' }).click();
  await dialog(page).getByRole('button', { name: 'Add another link' }).click();
  await expect(links(page)).toHaveCount(3);
  await expect(links(page).nth(2)).toHaveAttribute('placeholder', 'https://');
  await dialog(page).getByRole('button', { name: 'Remove link 3' }).click();
  await expect(links(page)).toHaveCount(2);
  await expect(dialog(page).getByRole('button', { name: 'Remove link 1' })).toHaveCount(0);

  // Required fields are enforced by the browser: nothing is sent while they are empty.
  let posts = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/contact') && request.method() === 'POST') posts += 1;
  });
  await dialog(page).getByRole('button', { name: 'Send Message' }).click();
  await expect(dialog(page).getByRole('textbox', { name: 'Name', exact: true })).toBeFocused();
  expect(posts).toBe(0);

  const email = `nova-${Date.now()}@example.com`;
  await fill(page, { name: 'Nova Reyes', company: 'Nova Sound', email });
  await links(page).nth(0).fill('https://nova.example/music');
  // The second link stays empty and is dropped.

  // Hold the answer back until the sending state has been seen (no fixed wait).
  let answer = () => {};
  const isSeen = new Promise<void>((resolve) => {
    answer = resolve;
  });
  await page.route('**/api/contact', async (route) => {
    await isSeen;
    await route.continue();
  });
  await dialog(page).getByRole('button', { name: 'Send Message' }).click();
  await expect(dialog(page).getByRole('button', { name: 'Sending...' })).toBeDisabled();
  answer();
  const sent = dialog(page).getByRole('button', { name: 'Message Sent!' });
  await expect(sent).toBeVisible();
  const sentAt = Date.now();
  await expect(sent).toBeDisabled();
  await expect(dialog(page)).toBeHidden({ timeout: 5000 });
  const closedAfter = Date.now() - sentAt;
  expect(closedAfter).toBeGreaterThanOrEqual(1500);
  expect(closedAfter).toBeLessThan(4000);
  expect(posts).toBe(1);

  // The support mailbox receives the request.
  await expect
    .poll(async () =>
      (await outboxMails('support@tunedrop.local')).filter((mail) => mail.text.includes(email)),
    )
    .toHaveLength(1);
  const [mail] = (await outboxMails('support@tunedrop.local')).filter((m) => m.text.includes(email));
  expect(mail?.text).toContain('Nova Reyes');
  expect(mail?.text).toContain('https://nova.example/music');

  // Reopened, the form is empty with one empty link.
  await page.getByRole('button', { name: 'Contact Us' }).click();
  await expect(dialog(page).getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('');
  await expect(dialog(page).getByRole('textbox', { name: 'Artist/Label/Company Name' })).toHaveValue('');
  await expect(dialog(page).getByRole('textbox', { name: 'Email Address' })).toHaveValue('');
  await expect(links(page)).toHaveCount(1);
  await expect(links(page).first()).toHaveValue('');
  await expect(dialog(page).getByRole('button', { name: 'Send Message' })).toBeEnabled();
});

test('a failed send shows Error - Try Again and keeps what was typed', async ({ page }) => {
  // The page's timers run on a clock the test moves on (below: past the 2 s close), instead of waiting.
  await page.clock.install();
  await page.goto('/pricing');
  await page.getByRole('button', { name: 'Contact Us' }).click();
  await fill(page, { name: 'Kai', company: 'Kai Records', email: 'kai@example.com' });
  await links(page).first().fill('https://kai.example');

  await page.route('**/api/contact', (route) => route.fulfill({ status: 500, body: 'boom' }));
  await dialog(page).getByRole('button', { name: 'Send Message' }).click();
  const retry = dialog(page).getByRole('button', { name: 'Error - Try Again' });
  await expect(retry).toBeEnabled();
  await expect(dialog(page).getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Kai');
  await expect(dialog(page).getByRole('textbox', { name: 'Artist/Label/Company Name' })).toHaveValue(
    'Kai Records',
  );
  await expect(dialog(page).getByRole('textbox', { name: 'Email Address' })).toHaveValue('kai@example.com');
  await expect(links(page).first()).toHaveValue('https://kai.example');
  // It stays open: the failure does not start the 2 s close (every timer due within 2.5 s has run).
  await page.clock.runFor(2500);
  await expect(dialog(page)).toBeVisible();

  // A network failure is an error too.
  await page.unroute('**/api/contact');
  await page.route('**/api/contact', (route) => route.abort('connectionrefused'));
  await retry.click();
  await expect(dialog(page).getByRole('button', { name: 'Error - Try Again' })).toBeVisible();

  // Closing and reopening keeps the data; trying again once the server answers succeeds.
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toBeHidden();
  await page.getByRole('button', { name: 'Contact Us' }).click();
  await expect(dialog(page).getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Kai');
  await page.unroute('**/api/contact');
  await dialog(page).getByRole('button', { name: 'Error - Try Again' }).click();
  await expect(dialog(page).getByRole('button', { name: 'Message Sent!' })).toBeVisible();
});

test('the server refuses a link that is not http(s) and the modal says why', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Contact Us' }).click();
  await fill(page, { name: 'Lee', company: 'Lee Co', email: 'lee@example.com' });
  // Bypass the browser's URL check to reach the server's.
  await links(page)
    .first()
    .evaluate((input) => {
      input.removeAttribute('pattern');
      input.setAttribute('type', 'text');
    });
  await links(page).first().fill('ftp://files.example/demo.wav');
  await dialog(page).getByRole('button', { name: 'Send Message' }).click();
  await expect(dialog(page).getByRole('button', { name: 'Error - Try Again' })).toBeVisible();
  await expect(dialog(page).getByRole('alert')).toHaveText(
    'Each link must be a full web address starting with http:// or https://.',
  );
});

test('at most 10 links can be added', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Contact Us' }).click();
  const add = dialog(page).getByRole('button', { name: 'Add another link' });
  for (let count = 1; count < 10; count++) await add.click();
  await expect(links(page)).toHaveCount(10);
  await expect(add).toHaveCount(0);
  await dialog(page).getByRole('button', { name: 'Close' }).click();
  await expect(dialog(page)).toBeHidden();
  await expect(page.getByRole('button', { name: 'Contact Us' })).toBeFocused();
});
