/** A store's state for one release, as the artist reads it ("Delivered", "Live", "Taken down"…). */
import type { StoreState } from '@tunedrop/shared/schemas/delivery';
import { StatusBadge } from '../../../components/ui/status-badge';

export function StoreStateBadge({ state }: { state: StoreState }) {
  return <StatusBadge kind="store" status={state} data-testid="store-state" />;
}
