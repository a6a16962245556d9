/** Journey: turn on two-factor with the QR code and a code, then sign in with a code, then turn it off. */
import { createHmac } from 'node:crypto';
import { expect, pageAs, test } from './support/test';

/** RFC 6238 TOTP (HMAC-SHA1, 30 s, 6 digits) for a base32 secret, as an authenticator app computes it. */
function totp(base32Secret: string, at = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of base32Secret.toUpperCase().replace(/=+$/, '')) {
    value = (value << 5) | alphabet.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const digest = createHmac('sha1', Buffer.from(bytes)).update(counter).digest();
  const offset = (digest[digest.length - 1] ?? 0) & 0x0f;
  return String((digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

test('two-factor enrolment, sign-in with a code, and turning it off with a code', async ({ browser }) => {
  const { page, context, user } = await pageAs(browser);
  await page.goto('/dashboard/account');
  const security = page.getByRole('region', { name: 'Security' });
  await expect(security.getByText('Off', { exact: true })).toBeVisible();
  await security.getByRole('button', { name: 'Turn on' }).click();

  const dialog = page.getByRole('dialog', { name: 'Turn on two-factor authentication' });
  await dialog.getByLabel('Password').fill(user.password);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  await expect(dialog.getByRole('list', { name: 'Backup codes' }).locator('li')).toHaveCount(10);
  const secret = (await dialog.getByTestId('totp-secret').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);

  await dialog.getByLabel('Code from the app').fill('000000' === totp(secret) ? '111111' : '000000');
  await dialog.getByRole('button', { name: 'Confirm and turn on' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Invalid code');
  await dialog.getByLabel('Code from the app').fill(totp(secret));
  await dialog.getByRole('button', { name: 'Confirm and turn on' }).click();
  await expect(page.getByText('Two-factor authentication is on')).toBeVisible();
  await expect(security.getByText('On', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
  await page.getByLabel('Authentication code').fill(totp(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Welcome Back!' })).toBeVisible();

  await page.goto('/dashboard/account');
  await security.getByRole('button', { name: 'Turn off' }).click();
  const off = page.getByRole('dialog', { name: 'Turn off two-factor authentication' });
  await off.getByLabel('Password').fill(user.password);
  await off.getByLabel('Authentication code').fill(totp(secret));
  await off.getByRole('button', { name: 'Turn off' }).click();
  await expect(page.getByText('Two-factor authentication is off')).toBeVisible();
  await expect(security.getByText('Off', { exact: true })).toBeVisible();
  await context.close();
});
