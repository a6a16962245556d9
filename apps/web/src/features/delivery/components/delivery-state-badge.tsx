/** A delivery's state as a coloured badge (the words admins filter by). */
import type { DeliveryState } from '@tunedrop/shared/schemas/delivery';
import { StatusBadge } from '../../../components/ui/status-badge';

export function DeliveryStateBadge({ state }: { state: DeliveryState }) {
  return <StatusBadge kind="delivery" status={state} data-testid="delivery-state" />;
}
