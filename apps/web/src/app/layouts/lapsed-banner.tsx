/**
 * After a subscription lapses, the artist keeps their money and catalogue (decision 120): Royalties and
 * My Songs (list and release pages) stay reachable with this banner; upload, edits and analytics keep the gate.
 */
import { LAPSED_MESSAGES, NO_SUBSCRIPTION_MESSAGES, PAYEE_MESSAGES } from '@tunedrop/shared';
import { lapsedBannerBody } from '@tunedrop/shared/schemas/lapse-policy';
import { Link } from 'react-router';
import { buttonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { useLapseStanding } from '../../features/lapse-policy';

// Help too (issue 28): anyone signed in may write to support, a payee with no plan included.
const OPEN_PREFIXES = [paths.royalties, paths.payouts, paths.songs, '/dashboard/releases/', paths.help];

export function isReachableWithoutSubscription(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '');
  return OPEN_PREFIXES.some((prefix) => path === prefix.replace(/\/+$/, '') || path.startsWith(prefix));
}

/**
 * `hasNeverSubscribed`: no subscription ever (status inactive, no end date), so nothing to resubscribe to.
 * `isPayee` (record 175): paid through splits, so the banner names their account and offers no plan.
 */
export function LapsedBanner({
  hasNeverSubscribed,
  isPayee,
}: {
  hasNeverSubscribed: boolean;
  isPayee: boolean;
}) {
  const messages = isPayee ? PAYEE_MESSAGES : hasNeverSubscribed ? NO_SUBSCRIPTION_MESSAGES : LAPSED_MESSAGES;
  const isLapsed = messages === LAPSED_MESSAGES;
  // A lapse: what happens to the releases, in the words and dates of the lapse mails (issue 44).
  const standing = useLapseStanding(isLapsed);
  const body = !isLapsed
    ? messages.body
    : standing.data
      ? lapsedBannerBody(standing.data)
      : standing.isError
        ? LAPSED_MESSAGES.body
        : null;
  return (
    <section
      aria-label={isPayee ? 'Payee account' : 'Subscription'}
      data-testid="lapsed-banner"
      className="mb-6 flex flex-col gap-3 rounded-xl border border-amber-500/40 bg-amber-500/10 p-4 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="text-sm text-amber-100">
        <p className="font-semibold text-amber-50">{messages.title}</p>
        {body === null ? null : <p data-testid="lapsed-banner-body">{body}</p>}
      </div>
      <Link to={paths.account} className={buttonClass('primary', 'sm')}>
        {messages.action}
      </Link>
    </section>
  );
}
