/**
 * `bank-csv`, always available: the run makes a payout file in the layout of docs/payouts.md, the operator
 * pays it through their bank, then marks the items paid or returned by uploading the bank's confirmation or
 * by hand. The file is a pure function of the batch, so making it again (a resumed run) gives the same bytes.
 */

import { toCsv } from '@tunedrop/shared/csv';
import { centsToDecimal } from '@tunedrop/shared/money';
import type { BankDetails, PaypalDetails } from '@tunedrop/shared/schemas/wallet';
import type { BatchInput, PayoutProvider } from './types';

export const BANK_CSV_HEADER = [
  'reference',
  'payee_name',
  'method',
  'account_name',
  'account_number',
  'routing_number',
  'bank_name',
  'paypal_email',
  'amount',
  'currency',
  'memo',
] as const;

/** The payout file: one row per item, ordered by reference; amounts as decimal USD with two places. */
export function bankCsvFile(batch: BatchInput): string {
  const items = [...batch.items].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return toCsv(
    BANK_CSV_HEADER,
    items.map((item) => {
      const bank = item.method === 'bank' ? (item.details as BankDetails) : null;
      const paypal = item.method === 'paypal' ? (item.details as PaypalDetails) : null;
      return [
        item.key,
        item.payeeName,
        item.method,
        bank?.account_name ?? '',
        bank?.account_number ?? '',
        bank?.routing_number ?? '',
        bank?.bank_name ?? '',
        paypal?.paypal_email ?? '',
        centsToDecimal(item.netCents),
        'USD',
        item.note,
      ];
    }),
  );
}

export const bankCsvProvider: PayoutProvider = {
  id: 'bank-csv',
  methods: ['bank', 'paypal'],
  async testConnection() {
    return { ok: true, message: 'bank-csv needs no connection: each run makes a payout file.' };
  },
  async createBatch(_config, batch) {
    return {
      providerReference: null,
      file: bankCsvFile(batch),
      items: batch.items.map((item) => ({
        key: item.key,
        providerReference: null,
        providerStatus: 'in file',
        outcome: 'sent' as const,
      })),
    };
  },
};
