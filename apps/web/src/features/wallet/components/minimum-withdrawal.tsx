/**
 * The minimum-withdrawal notice of the Royalties page (spec 02 §2): the plan's minimum with the spec's
 * upgrade hint for Basic; a payee (record 175) reads the operator's payee minimum and no plan at all, and so
 * does a team member (record 230): the plan is the owner's to choose.
 */
import { PAYEE_TEXTS, WALLET_TEXTS, type WalletSummary } from '@tunedrop/shared/schemas/wallet';
import { ArrowUpRight } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { formatCents } from '../../../lib/format';
import { useViewer, viewerFacts } from '../../../lib/viewer';

const PLAN_LABELS: Record<string, string> = { basic: 'Basic plan', pro: 'Pro plan' };
const TEAM_MINIMUM_LABEL = 'this account’s minimum';

export function MinimumWithdrawal({ wallet }: { wallet: WalletSummary }) {
  const { data: viewer } = useViewer();
  const isTeamMember = viewer ? viewerFacts(viewer).isTeamMember : false;
  const label = wallet.isPayee
    ? PAYEE_TEXTS.minimumLabel
    : isTeamMember
      ? TEAM_MINIMUM_LABEL
      : wallet.hasProMinimum && wallet.plan === 'basic'
        ? 'Free Access'
        : (PLAN_LABELS[wallet.plan] ?? wallet.plan);
  return (
    <>
      <p className="mt-1 text-sm text-zinc-300" data-testid="minimum-withdrawal">
        Minimum withdrawal: {formatCents(wallet.minimumWithdrawalCents)} ({label})
      </p>
      {wallet.hasProMinimum || wallet.isPayee || isTeamMember ? null : (
        <Link
          to={paths.account}
          className="mt-1 inline-flex items-center gap-1 text-sm text-brand-300 hover:text-brand-400"
        >
          {WALLET_TEXTS.proMinimumHint} <ArrowUpRight aria-hidden className="size-4" />
        </Link>
      )}
    </>
  );
}
