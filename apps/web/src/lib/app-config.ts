/** Public settings from GET /api/config (support address, social links, payment mode). */
import { useQuery } from '@tanstack/react-query';
import { api } from './api';

export type AppConfig = {
  supportEmail: string;
  privacyEmail: string;
  social: { instagram: string | null; x: string | null; youtube: string | null; tiktok: string | null };
  payments: 'stripe' | 'sandbox' | 'unconfigured';
  isSpotifyConfigured: boolean;
};

export function useAppConfig() {
  return useQuery({
    queryKey: ['app-config'],
    queryFn: () => api<AppConfig>('/api/config'),
    staleTime: Infinity,
  });
}
