/** Public settings from GET /api/config (support address, social links, payment mode). */
import { useQuery } from '@tanstack/react-query';
import { client, unwrap } from './api';

export function useAppConfig() {
  return useQuery({
    queryKey: ['app-config'],
    queryFn: () => unwrap(client.config.$get()),
    staleTime: Infinity,
  });
}
