/** /admin/delivery (admin only, issue 15): delivery targets, the delivery dashboard, stray acknowledgements. */
import { AlertTriangle } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { usePageTitle } from '../../../lib/use-page-title';
import { useDeliverySettings } from '../api/settings';
import { useDeliveryTargets } from '../api/targets';
import { DeliveriesSection } from '../components/deliveries-section';
import { TargetsSection } from '../components/targets-section';
import { UnconnectedStoresWarning } from '../components/unconnected-stores-warning';
import { UnmatchedAcksSection } from '../components/unmatched-acks-section';

export default function AdminDeliveryPage() {
  usePageTitle('Delivery');
  const targets = useDeliveryTargets();
  const settings = useDeliverySettings();
  const needsCodes = settings.data?.needsCodesCount ?? 0;

  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-3xl font-bold text-white">Delivery</h1>
        <p className="mt-1 text-sm text-zinc-400">
          Where approved releases are sent as DDEX ERN 4.3 packages, and how each delivery is doing.
        </p>
      </div>
      {needsCodes > 0 ? (
        <p
          role="status"
          className="flex gap-2 rounded-xl border border-amber-500/40 bg-amber-500/10 p-4 text-sm text-amber-100"
        >
          <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-300" />
          <span>
            {needsCodes} approved {needsCodes === 1 ? 'release is' : 'releases are'} waiting for codes and not
            delivered: codes come from the ISRC registrant and UPC prefix in Settings, and saving them gives
            the waiting releases their codes.{' '}
            <Link to={paths.adminSettings} className="font-medium text-amber-200 underline">
              Open Settings
            </Link>
          </span>
        </p>
      ) : null}
      <UnconnectedStoresWarning />
      <TargetsSection />
      <DeliveriesSection targets={targets.data} />
      <UnmatchedAcksSection />
    </div>
  );
}
