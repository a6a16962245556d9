/**
 * The sidebar's plan card (spec 01 §2) told truthfully (issue 18): a paid plan shows its name and price;
 * an account without an active subscription says so and points to the account page instead of showing
 * a price it does not pay; a banned account is never offered an upgrade.
 */

import { ROLE_LABELS } from '@tunedrop/shared/schemas/team-roles';
import { Link } from 'react-router';
import { buttonClass } from '../../components/ui/button';
import { Badge } from '../../components/ui/card';
import { cn } from '../../components/ui/cn';
import { paths } from '../../config/paths';
import { usePlanDetails } from '../../lib/site-brand';
import { type Viewer, viewerFacts } from '../../lib/viewer';

/** Analytics is a Pro feature behind the subscription gate: only then does the sidebar link to it. */
export function showsAnalyticsLink(viewer: Viewer): boolean {
  const facts = viewerFacts(viewer);
  return facts.isPro && facts.passesGate;
}

export function SidebarPlanCard({ viewer }: { viewer: Viewer }) {
  const facts = viewerFacts(viewer);
  const planDetails = usePlanDetails();
  // A team member (record 230) sees the account they act for and their role, never a plan or a price.
  if (facts.isTeamMember) {
    return (
      <div className="mt-auto space-y-1 rounded-xl border border-ink-700 bg-ink-800/60 p-4">
        <p className="text-xs text-zinc-400">Team account</p>
        <p className="font-semibold text-white" data-testid="sidebar-plan">
          {viewer.profile.artistName}
        </p>
        <p className="text-sm text-zinc-300">{ROLE_LABELS[viewer.account.role]}</p>
      </div>
    );
  }
  const plan = planDetails[viewer.profile.plan] ?? planDetails.basic;
  const isPaying = facts.passesGate && !facts.hasFreeAccess;
  const canUpgrade = isPaying && viewer.profile.plan === 'basic' && !viewer.profile.banned;
  return (
    <div className="mt-auto space-y-3 rounded-xl border border-ink-700 bg-ink-800/60 p-4">
      <p className="text-xs text-zinc-400">
        {facts.isPayee && !isPaying && !facts.hasFreeAccess ? 'Account' : 'Current plan'}
      </p>
      {facts.isPayee && !isPaying && !facts.hasFreeAccess ? (
        // A payee (record 175) is not offered a plan here; the account page has one whenever they want it.
        <p className="font-semibold text-white" data-testid="sidebar-plan">
          Payee account
        </p>
      ) : facts.hasFreeAccess ? (
        <>
          <p className="font-semibold text-white" data-testid="sidebar-plan">
            {plan.name}
          </p>
          <Badge tone="brand">Free Access</Badge>
        </>
      ) : isPaying ? (
        <p className="flex items-center gap-2 font-semibold text-white" data-testid="sidebar-plan">
          {plan.name} <span className="text-sm font-normal text-zinc-400">{plan.priceLabel}/month</span>
        </p>
      ) : (
        <>
          <p className="font-semibold text-white" data-testid="sidebar-plan">
            No active plan
          </p>
          {viewer.profile.banned ? null : (
            <Link to={paths.account} className={cn(buttonClass('secondary', 'sm'), 'w-full')}>
              Choose a plan
            </Link>
          )}
        </>
      )}
      {canUpgrade ? (
        <Link to={paths.account} className={cn(buttonClass('primary', 'sm'), 'w-full')}>
          Upgrade to Pro
        </Link>
      ) : null}
    </div>
  );
}
