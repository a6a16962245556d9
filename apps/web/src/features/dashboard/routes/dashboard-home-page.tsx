/**
 * Dashboard home (spec 01 §2): 'Welcome Back!', Total Releases, Plan Type, the Your Plan card and the support line;
 * a team member (record 230) reads their role instead of the owner's plan.
 */
import type { Plan } from '@tunedrop/shared';
import { ROLE_LABELS } from '@tunedrop/shared/schemas/team-roles';
import { Disc3, LifeBuoy, Sparkles, Upload, Users } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '../../../components/ui/button';
import { Badge, Card, PageLoader, Spinner } from '../../../components/ui/card';
import { paths } from '../../../config/paths';
import { useAppConfig } from '../../../lib/app-config';
import { usePlanDetails } from '../../../lib/site-brand';
import { SubscriptionActivation } from '../../../lib/subscription-activation';
import { usePageTitle } from '../../../lib/use-page-title';
import { useViewer, viewerFacts } from '../../../lib/viewer';
import { useDashboardStats } from '../api/stats';

/** What each plan includes (spec 01 §9). */
const PLAN_FEATURES: Record<Plan, string[]> = {
  basic: [
    '1 artist profile',
    'Unlimited singles, EPs and albums',
    '150+ platforms and stores',
    'Review and delivery in 7-14 days',
    'Standard email support (reply in 2-3 business days)',
  ],
  pro: [
    'Unlimited artist profiles',
    'Unlimited uploads',
    '150+ platforms and stores',
    'Priority review and delivery in 1-2 days',
    'Full analytics dashboard, revenue tracking and real-time reports',
    'Custom ISRC and UPC codes',
    'YouTube Content ID protection',
    'Priority email support (reply within 1 business day)',
  ],
};

export default function DashboardHomePage() {
  const planDetails = usePlanDetails();
  usePageTitle('Dashboard');
  const { data: viewer } = useViewer();
  const stats = useDashboardStats();
  const { data: config } = useAppConfig();
  if (!viewer) return <PageLoader />;

  // A plan we cannot read counts as basic (spec 01 §4).
  const plan: Plan = viewer.profile.plan === 'pro' ? 'pro' : 'basic';
  const details = planDetails[plan];
  const facts = viewerFacts(viewer);

  return (
    <div className="space-y-8">
      <SubscriptionActivation />
      <header>
        <h1 className="text-3xl font-bold text-white">Welcome Back!</h1>
        <p className="mt-1 text-zinc-400">
          Good to see you, {viewer.profile.artistName || viewer.profile.fullName}. Here is where your music
          stands.
        </p>
      </header>

      {/* A brand-new artist is shown the way in (issue 18): nothing released yet, nothing else to read here. */}
      {stats.data?.totalReleases === 0 && !viewer.profile.banned ? (
        <section
          aria-labelledby="first-release-heading"
          className="flex flex-col items-start gap-4 rounded-xl border border-brand-500/40 bg-brand-600/10 p-5 sm:flex-row sm:items-center"
        >
          <Upload aria-hidden className="size-10 shrink-0 text-brand-400" />
          <div className="flex-1">
            <h2 id="first-release-heading" className="text-xl font-semibold text-white">
              Upload your first release
            </h2>
            <p className="mt-1 text-sm text-zinc-300">
              Add your tracks, artwork and credits in the Release Builder, choose your stores and send it for
              review. Your progress is saved as you go.
            </p>
          </div>
          <Link to={paths.upload} className={buttonClass('primary', 'md')}>
            Start your first release
          </Link>
        </section>
      ) : null}

      <div className="grid gap-4 sm:grid-cols-2">
        <Card className="flex items-center gap-4">
          <Disc3 aria-hidden className="size-10 text-brand-400" />
          <div>
            <p className="text-sm text-zinc-400" id="total-releases-label">
              Total Releases
            </p>
            <p className="text-3xl font-bold text-white" data-testid="total-releases">
              {stats.isPending ? (
                <Spinner label="Loading releases" />
              ) : stats.isError ? (
                <span className="text-base font-normal text-zinc-400">Unavailable</span>
              ) : (
                stats.data.totalReleases
              )}
            </p>
          </div>
        </Card>
        {/* A team member (record 230) sees their role on the account, not the owner's plan. */}
        {facts.isTeamMember ? (
          <Card className="flex items-center gap-4">
            <Users aria-hidden className="size-10 text-brand-400" />
            <div>
              <p className="text-sm text-zinc-400">Your role</p>
              <p className="text-3xl font-bold text-white" data-testid="team-role">
                {ROLE_LABELS[viewer.account.role]}
              </p>
            </div>
          </Card>
        ) : (
          <Card className="flex items-center gap-4">
            <Sparkles aria-hidden className="size-10 text-brand-400" />
            <div>
              <p className="text-sm text-zinc-400" id="plan-type-label">
                Plan Type
              </p>
              <p className="flex items-center gap-2 text-3xl font-bold text-white" data-testid="plan-type">
                {details.name}
                {facts.hasFreeAccess ? <Badge tone="brand">Free Access</Badge> : null}
              </p>
            </div>
          </Card>
        )}
      </div>

      {/* A team member (record 230) is never shown the owner's plan, its price or an upgrade. */}
      {facts.isTeamMember ? null : (
        <Card>
          <section aria-labelledby="your-plan-heading" className="space-y-4">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h2 id="your-plan-heading" className="text-xl font-semibold text-white">
                Your Plan
              </h2>
              <p className="text-zinc-300">
                <span className="text-2xl font-bold text-white">{details.name}</span>{' '}
                {facts.hasFreeAccess ? null : <span>{details.priceLabel}/month</span>}
              </p>
            </div>
            <ul className="grid gap-2 text-sm text-zinc-300 sm:grid-cols-2">
              {PLAN_FEATURES[plan].map((feature) => (
                <li key={feature} className="flex gap-2">
                  <span aria-hidden className="text-brand-400">
                    ✓
                  </span>
                  {feature}
                </li>
              ))}
            </ul>
            <div className="flex flex-wrap gap-3">
              {plan === 'basic' && !facts.hasFreeAccess && !viewer.profile.banned ? (
                <Link to={paths.account} className={buttonClass('primary', 'md')}>
                  Upgrade to Pro
                </Link>
              ) : null}
              <Link to={paths.account} className={buttonClass('outline', 'md')}>
                Manage plan
              </Link>
            </div>
          </section>
        </Card>
      )}

      <p className="flex items-center gap-2 text-sm text-zinc-400">
        <LifeBuoy aria-hidden className="size-4" />
        Need help? Contact our support team at{' '}
        {config ? (
          <a
            href={`mailto:${config.supportEmail}`}
            className="text-brand-300 underline underline-offset-2 hover:text-brand-200"
          >
            {config.supportEmail}
          </a>
        ) : (
          '…'
        )}
      </p>
    </div>
  );
}
