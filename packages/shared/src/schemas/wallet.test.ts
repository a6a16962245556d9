import { describe, expect, it } from 'vitest';
import { checkPaymentSettings, paymentSettingsRequestSchema, WALLET_MESSAGES } from './wallet';

describe('payment settings (one discriminated union for form and API)', () => {
  it('asks for a method first, whatever else is wrong', () => {
    for (const method of [undefined, null, '', 'cash']) {
      expect(checkPaymentSettings({ payment_method: method, payment_details: {} })).toEqual({
        ok: false,
        error: WALLET_MESSAGES.paymentMethodRequired,
      });
    }
  });

  it('wants every bank field, blanks included', () => {
    expect(checkPaymentSettings({ payment_method: 'bank' })).toEqual({
      ok: false,
      error: WALLET_MESSAGES.bankFieldsRequired,
    });
    expect(
      checkPaymentSettings({
        payment_method: 'bank',
        payment_details: { account_name: 'A', account_number: '1', routing_number: '2', bank_name: '  ' },
      }),
    ).toEqual({ ok: false, error: WALLET_MESSAGES.bankFieldsRequired });
  });

  it('wants a PayPal address with @', () => {
    for (const paypal_email of [undefined, '', 'not-an-email']) {
      expect(checkPaymentSettings({ payment_method: 'paypal', payment_details: { paypal_email } })).toEqual({
        ok: false,
        error: WALLET_MESSAGES.paypalEmailInvalid,
      });
    }
  });

  it('returns trimmed settings of the chosen method only', () => {
    expect(
      checkPaymentSettings({
        payment_method: 'paypal',
        payment_details: { paypal_email: ' me@pay.example ', account_name: 'left over' },
      }),
    ).toEqual({
      ok: true,
      settings: { payment_method: 'paypal', payment_details: { paypal_email: 'me@pay.example' } },
    });
    const bank = paymentSettingsRequestSchema.parse({
      payment_method: 'bank',
      payment_details: {
        account_name: ' Jane ',
        account_number: '123',
        routing_number: '456',
        bank_name: 'Bank',
        paypal_email: '',
      },
    });
    expect(bank).toEqual({
      payment_method: 'bank',
      payment_details: {
        account_name: 'Jane',
        account_number: '123',
        routing_number: '456',
        bank_name: 'Bank',
      },
    });
  });
});
