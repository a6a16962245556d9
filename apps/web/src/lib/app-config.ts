/** Public settings from GET /api/config (support address, social links, payment mode). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, unwrap } from './api';

export const appConfigQuery = queryOptions({
  queryKey: ['app-config'],
  queryFn: () => unwrap(client.config.$get()),
  staleTime: Infinity,
});

export function useAppConfig() {
  return useQuery(appConfigQuery);
}
