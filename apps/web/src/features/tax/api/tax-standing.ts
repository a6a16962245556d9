/** The account's tax standing, the interview's first answer and signing a form (GET/POST /api/tax/..., issue 38). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TaxFormInput } from '@tunedrop/shared/schemas/tax';
import { client, unwrap } from '../../../lib/api';

const standingKey = ['tax', 'standing'] as const;

export function useTaxStanding() {
  return useQuery({ queryKey: standingKey, queryFn: () => unwrap(client.tax.standing.$get()) });
}

export function useSignTaxForm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: TaxFormInput) => unwrap(client.tax.forms.$post({ json })),
    onSuccess: (data) => queryClient.setQueryData(standingKey, data),
  });
}

export function useDeclareResidency() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (isUsPerson: boolean) => unwrap(client.tax.residency.$post({ json: { isUsPerson } })),
    onSuccess: (data) => queryClient.setQueryData(standingKey, data),
  });
}
