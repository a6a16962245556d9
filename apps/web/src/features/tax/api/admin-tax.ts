/** Admin: tax settings, treaty rates and signed forms (GET/PUT/POST /api/admin/tax/..., issue 38). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TaxSettings, TreatyRateInput } from '@tunedrop/shared/schemas/tax';
import { client, unwrap } from '../../../lib/api';

const settingsKey = ['admin', 'tax', 'settings'] as const;
const ratesKey = ['admin', 'tax', 'rates'] as const;
const formsKey = ['admin', 'tax', 'forms'] as const;

export function useTaxSettings() {
  return useQuery({ queryKey: settingsKey, queryFn: () => unwrap(client.admin.tax.settings.$get()) });
}

export function useSaveTaxSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: TaxSettings) => unwrap(client.admin.tax.settings.$put({ json })),
    onSuccess: (data) => queryClient.setQueryData(settingsKey, data),
  });
}

export function useTreatyRates() {
  return useQuery({ queryKey: ratesKey, queryFn: () => unwrap(client.admin.tax['treaty-rates'].$get()) });
}

export function useSaveTreatyRate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: TreatyRateInput) => unwrap(client.admin.tax['treaty-rates'].$post({ json })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ratesKey }),
  });
}

export function useAdminTaxForms() {
  return useQuery({ queryKey: formsKey, queryFn: () => unwrap(client.admin.tax.forms.$get()) });
}

/** Every payee's self-billing invoices (the non-US regime), newest first. */
export function useAdminInvoices() {
  return useQuery({
    queryKey: ['admin', 'tax', 'invoices'],
    queryFn: () => unwrap(client.admin.tax.invoices.$get()),
  });
}
