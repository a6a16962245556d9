/** Journey: save PayPal details, request a withdrawal, cancel it; the balances are right at every step. */
import { expect, pageAs, seriousA11yViolations, test } from './support/test';

test('an artist saves PayPal details, requests a withdrawal and cancels it', async ({ browser }) => {
  const { page, context } = await pageAs(browser, {
    plan: 'pro',
    balanceCents: 12_345,
    totalEarningsCents: 20_000,
  });
  await page.goto('/dashboard/royalties');
  await expect(page.getByRole('heading', { name: 'Royalties and Wallet' })).toBeVisible();
  const available = page.getByTestId('available-balance');
  const total = page.getByTestId('total-earnings');
  const pending = page.getByTestId('pending-balance');
  await expect(available).toHaveText('$123.45');
  await expect(total).toHaveText('$200.00');
  await expect(pending).toHaveText('$0.00');
  await expect(page.getByTestId('minimum-withdrawal')).toHaveText('Minimum withdrawal: $20.00 (Pro plan)');
  await expect(
    page.getByText('Earnings will appear here once your music starts generating revenue'),
  ).toBeVisible();

  // Without saved payment info the first §5 check answers.
  await page.getByRole('button', { name: 'Request Withdrawal' }).click();
  await expect(page.getByText('Payment info required')).toBeVisible();
  await expect(
    page.getByText('Please add your payment information before requesting a withdrawal'),
  ).toBeVisible();

  await page.getByRole('button', { name: 'Save Payment Information' }).click();
  await expect(page.getByText('Please select a payment method')).toBeVisible();
  await page.getByRole('radio', { name: 'PayPal' }).check();
  await page.getByLabel('PayPal Email').fill('not-an-email');
  await page.getByRole('button', { name: 'Save Payment Information' }).click();
  await expect(page.getByText('Please enter a valid PayPal email address')).toBeVisible();
  await page.getByLabel('PayPal Email').fill('jo.artist@example.com');
  await page.getByRole('button', { name: 'Save Payment Information' }).click();
  await expect(page.getByTestId('saved-payment-method')).toHaveText('Saved: PayPal jo••••@example.com');

  expect(await seriousA11yViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Request Withdrawal' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request Withdrawal' });
  const amount = dialog.getByLabel('Amount (USD)');
  await expect(amount).toHaveValue('123.45');
  await expect(amount).toHaveAttribute('step', '0.01');
  await amount.fill('123.46');
  await dialog.getByRole('button', { name: 'Request Withdrawal' }).click();
  await expect(page.getByText('You only have $123.45 available')).toBeVisible();
  await amount.fill('19.99');
  await dialog.getByRole('button', { name: 'Request Withdrawal' }).click();
  await expect(page.getByText('Amount too low')).toBeVisible();
  await amount.fill('100');
  await dialog.getByRole('button', { name: 'Request Withdrawal' }).click();
  await expect(dialog).toBeHidden();
  await expect(available).toHaveText('$23.45');
  await expect(pending).toHaveText('$100.00');
  await expect(total).toHaveText('$200.00');
  const requests = page.getByRole('list', { name: 'Pending withdrawal requests' });
  await expect(requests.getByRole('listitem')).toHaveCount(1);
  await expect(requests).toContainText('$100.00');
  await expect(requests).toContainText('PayPal jo••••@example.com');

  // 'Keep Request' leaves it alone; 'Yes, Cancel Request' returns the money.
  await requests.getByRole('button', { name: 'Cancel withdrawal of $100.00' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Cancel Withdrawal' });
  await confirm.getByRole('button', { name: 'Keep Request' }).click();
  await expect(confirm).toBeHidden();
  await expect(requests.getByRole('listitem')).toHaveCount(1);
  await requests.getByRole('button', { name: 'Cancel withdrawal of $100.00' }).click();
  await confirm.getByRole('button', { name: 'Yes, Cancel Request' }).click();
  await expect(page.getByText('You have no pending withdrawal requests.')).toBeVisible();
  await expect(available).toHaveText('$123.45');
  await expect(pending).toHaveText('$0.00');
  await expect(total).toHaveText('$200.00');

  await page.reload();
  await expect(available).toHaveText('$123.45');
  await expect(pending).toHaveText('$0.00');
  await context.close();
});
