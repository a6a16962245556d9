/** Query keys of the delivery feature (settings, targets, deliveries). */
export const deliveryKeys = {
  all: ['delivery'] as const,
  settings: () => [...deliveryKeys.all, 'settings'] as const,
  targets: () => [...deliveryKeys.all, 'targets'] as const,
  unconnectedStores: () => [...deliveryKeys.all, 'unconnected-stores'] as const,
  unmatchedAcks: () => [...deliveryKeys.all, 'unmatched-acks'] as const,
  deliveries: () => [...deliveryKeys.all, 'deliveries'] as const,
  deliveryList: (filters: { state: string; targetId: string; q: string; platform: string }) =>
    [...deliveryKeys.deliveries(), 'list', filters] as const,
  delivery: (id: string) => [...deliveryKeys.deliveries(), 'detail', id] as const,
};
