/** Journey: a basic artist sees the $50 minimum, the Pro hint, and is stopped below it. */
import { expect, pageAs, test } from './support/test';

test('a basic artist sees the $50 minimum and cannot withdraw below it', async ({ browser }) => {
  const { page, context } = await pageAs(browser, { plan: 'basic', balanceCents: 3000 });
  await page.goto('/dashboard/royalties');
  await expect(page.getByTestId('minimum-withdrawal')).toHaveText('Minimum withdrawal: $50.00 (Basic plan)');
  const hint = page.getByRole('link', { name: 'Upgrade to Pro for a $20 minimum' });
  await expect(hint).toHaveAttribute('href', '/dashboard/account');

  await page.getByRole('radio', { name: 'Bank Account' }).check();
  await page.getByLabel('Account Name').fill('Jo Artist');
  await page.getByLabel('Account Number').fill('000123456789');
  await page.getByRole('button', { name: 'Save Payment Information' }).click();
  await expect(page.getByText('Please fill in all bank account details')).toBeVisible();
  await page.getByLabel('Routing Number').fill('021000021');
  await page.getByLabel('Bank Name').fill('First Bank');
  await page.getByRole('button', { name: 'Save Payment Information' }).click();
  await expect(page.getByTestId('saved-payment-method')).toHaveText(
    'Saved: Bank account •••• 6789 (First Bank)',
  );

  await page.getByRole('button', { name: 'Request Withdrawal' }).click();
  await expect(page.getByText('Minimum withdrawal is $50.00. Your balance: $30.00')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Request Withdrawal' })).toBeHidden();
  await expect(page.getByTestId('available-balance')).toHaveText('$30.00');
  await context.close();
});
