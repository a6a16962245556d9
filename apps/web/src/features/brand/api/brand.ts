/** Admin: the operator's brand, plans, logo and the warnings about unbacked claims (issue 27, record 203). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Brand, BrandView, PlansSettings, PlansView } from '@tunedrop/shared/schemas/brand';
import { ApiError, client, unwrap } from '../../../lib/api';

const brandKey = ['admin', 'brand'] as const;
const plansKey = ['admin', 'plans'] as const;
export const brandWarningsKey = ['admin', 'brand', 'warnings'] as const;

export function useBrand() {
  return useQuery({ queryKey: brandKey, queryFn: () => unwrap(client.admin.brand.$get()) });
}

export function usePlans() {
  return useQuery({ queryKey: plansKey, queryFn: () => unwrap(client.admin.plans.$get()) });
}

/** Admins only: the caller decides whether to ask (moderators would get 403). */
export function useBrandWarnings(isEnabled = true) {
  return useQuery({
    queryKey: brandWarningsKey,
    queryFn: () => unwrap(client.admin.brand.warnings.$get()),
    enabled: isEnabled,
  });
}

export function useSaveBrand() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: Brand) => unwrap(client.admin.brand.$put({ json })),
    onSuccess: (data: BrandView) => {
      queryClient.setQueryData(brandKey, data);
      void queryClient.invalidateQueries({ queryKey: brandWarningsKey });
    },
  });
}

export function useSavePlans() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: PlansSettings) => unwrap(client.admin.plans.$put({ json })),
    onSuccess: (data: PlansView) => {
      queryClient.setQueryData(plansKey, data);
      void queryClient.invalidateQueries({ queryKey: brandWarningsKey });
    },
  });
}

/** The image's bytes as the body; the server checks them by content. */
export function useUploadLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (file: File): Promise<BrandView> => {
      const response = await fetch('/api/admin/brand/logo', {
        method: 'PUT',
        credentials: 'same-origin',
        headers: { 'Content-Type': file.type || 'application/octet-stream' },
        body: file,
      });
      const body = (await response.json()) as BrandView | { error: { code: string; message: string } };
      if (!response.ok || 'error' in body) {
        const error = 'error' in body ? body.error : { code: 'failed', message: 'Failed to save the logo.' };
        throw new ApiError(response.status, error.code, error.message);
      }
      return body;
    },
    onSuccess: (data) => queryClient.setQueryData(brandKey, data),
  });
}

export function useRemoveLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(client.admin.brand.logo.$delete()),
    onSuccess: (data: BrandView) => queryClient.setQueryData(brandKey, data),
  });
}
