/** The screens that stand in for the builder (spec 02 §2): a banned account, a missing subscription. */
import { Ban, CreditCard } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { paths } from '../../../config/paths';
import { useAppConfig } from '../../../lib/app-config';

export function AccountBannedScreen({ reason }: { reason: string | null }) {
  const { data: config } = useAppConfig();
  return (
    <Card className="mx-auto max-w-xl border-red-500/40 text-center">
      <Ban aria-hidden className="mx-auto size-12 text-red-400" />
      <h1 className="mt-4 text-2xl font-bold text-white">Account Banned</h1>
      <p className="mt-2 text-zinc-300">Your account has been banned from uploading music.</p>
      {reason ? (
        <p className="mt-4 rounded-lg bg-red-500/10 p-3 text-sm text-red-200">
          <span className="font-semibold">Reason:</span> {reason}
        </p>
      ) : null}
      <p className="mt-4 text-sm text-zinc-400">
        If you believe this is a mistake, contact support at{' '}
        {config ? (
          <a className="text-brand-300 underline" href={`mailto:${config.supportEmail}`}>
            {config.supportEmail}
          </a>
        ) : (
          'our support address'
        )}
        .
      </p>
      <Link to={paths.dashboard} className={`${buttonClass('outline')} mt-6`}>
        Back to Dashboard
      </Link>
    </Card>
  );
}

export function SubscriptionRequiredScreen() {
  return (
    <Card className="mx-auto max-w-xl text-center">
      <CreditCard aria-hidden className="mx-auto size-12 text-brand-400" />
      <h1 className="mt-4 text-2xl font-bold text-white">Subscription Required</h1>
      <p className="mt-2 text-zinc-300">You need an active subscription to upload new releases.</p>
      <Link to={paths.account} className={`${buttonClass('primary')} mt-6`}>
        View Subscription Plans
      </Link>
    </Card>
  );
}
