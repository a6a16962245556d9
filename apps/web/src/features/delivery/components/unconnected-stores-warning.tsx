/**
 * The admin's warning (issue 44): which stores no enabled delivery target serves and how many approved
 * releases wait on them; their artists see "No store connection" for those stores.
 */
import { unconnectedStoresMessage } from '@tunedrop/shared/schemas/delivery';
import { TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { useUnconnectedStores } from '../api/unconnected-stores';

export function UnconnectedStoresWarning({
  isEnabled = true,
  linksToDelivery = false,
}: {
  isEnabled?: boolean;
  linksToDelivery?: boolean;
}) {
  const view = useUnconnectedStores(isEnabled).data;
  if (!view || view.stores.length === 0) return null;
  return (
    <section
      aria-label="Stores without a connection"
      data-testid="unconnected-stores"
      className="space-y-2 rounded-lg border border-amber-500/40 bg-amber-500/10 p-4 text-sm text-amber-100"
    >
      <p className="flex items-center gap-2 font-semibold text-amber-200">
        <TriangleAlert aria-hidden className="size-4 shrink-0" /> {unconnectedStoresMessage(view)}
      </p>
      <ul className="flex flex-wrap gap-x-4 gap-y-1" aria-label="Stores without a connection">
        {view.stores.map((store) => (
          <li key={store.platformId}>
            {store.name}: {store.releases === 1 ? '1 release waiting' : `${store.releases} releases waiting`}
          </li>
        ))}
      </ul>
      <p>
        A delivery target added or enabled later receives the releases approved from then on.{' '}
        {linksToDelivery ? (
          <Link to={paths.adminDelivery} className="underline hover:text-white">
            Open Delivery
          </Link>
        ) : null}
      </p>
    </section>
  );
}
