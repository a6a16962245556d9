/** The non-US regime: the payee's VAT/GST registration and self-billing invoices (GET/PUT /api/tax/vat, GET /api/tax/invoices). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { VatRegistration } from '@tunedrop/shared/schemas/tax';
import { client, unwrap } from '../../../lib/api';

const vatKey = ['tax', 'vat'] as const;

export function useVatRegistration() {
  return useQuery({ queryKey: vatKey, queryFn: () => unwrap(client.tax.vat.$get()) });
}

export function useSaveVatRegistration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: VatRegistration) => unwrap(client.tax.vat.$put({ json })),
    onSuccess: (data) => queryClient.setQueryData(vatKey, data),
  });
}

export function useSelfBillingInvoices() {
  return useQuery({ queryKey: ['tax', 'invoices'], queryFn: () => unwrap(client.tax.invoices.$get()) });
}
