/** Upload Music (/dashboard/upload, spec 02 §2): the banned and subscription screens, or the way into the builder. */
import { FileClock, Globe2, ListMusic, Music, Users } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '../../../components/ui/button';
import { Card, PageLoader } from '../../../components/ui/card';
import { paths } from '../../../config/paths';
import { usePageTitle } from '../../../lib/use-page-title';
import { useViewer, viewerFacts } from '../../../lib/viewer';
import { useDraftQuery } from '../api/draft';
import { AccountBannedScreen, SubscriptionRequiredScreen } from '../components/access-screens';
import { DiscardDraftButton, draftTitle, hasDraftContent } from '../components/discard-draft';

const BLURBS = [
  { icon: ListMusic, title: 'Multi-track releases', text: 'Singles, EPs and albums with up to 20 tracks.' },
  {
    icon: Users,
    title: 'Full credits',
    text: 'Primary and featured artists, songwriters and producers on every track.',
  },
  {
    icon: Globe2,
    title: 'Global distribution',
    text: 'Deliver to 25+ platforms worldwide, from Spotify to TikTok.',
  },
];

export default function UploadPage() {
  usePageTitle('Upload Music');
  const { data: viewer, isPending } = useViewer();
  if (isPending || !viewer) return <PageLoader />;
  if (viewer.profile.banned) return <AccountBannedScreen reason={viewer.profile.banReason} />;
  if (!viewerFacts(viewer).passesGate) return <SubscriptionRequiredScreen />;
  return (
    <div className="space-y-8">
      <header>
        <h1 className="text-3xl font-bold text-white">Upload Music</h1>
        <p className="mt-2 text-zinc-400">Build your release step by step and send it for review.</p>
      </header>
      <DraftNotice />
      <Card className="flex flex-col items-center gap-4 py-10 text-center">
        <Music aria-hidden className="size-12 text-brand-400" />
        <h2 className="text-xl font-semibold text-white">Ready to release new music?</h2>
        <p className="max-w-md text-zinc-400">
          The Release Builder walks you through details, tracks, credits and platforms. Your progress is saved
          as you go.
        </p>
        <Link to={paths.releaseBuilder} className={buttonClass('primary', 'lg')}>
          Start Release Builder
        </Link>
      </Card>
      <ul className="grid gap-4 sm:grid-cols-3">
        {BLURBS.map((blurb) => (
          <li key={blurb.title}>
            <Card className="h-full">
              <blurb.icon aria-hidden className="size-6 text-brand-400" />
              <h3 className="mt-3 font-semibold text-white">{blurb.title}</h3>
              <p className="mt-1 text-sm text-zinc-400">{blurb.text}</p>
            </Card>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Says when a saved draft exists (issue 18): continue it in the builder, or discard it after a confirmation. */
function DraftNotice() {
  const draftQuery = useDraftQuery();
  const draft = draftQuery.data?.draft;
  if (!hasDraftContent(draft)) return null;
  const title = draftTitle(draft);
  return (
    <section
      aria-labelledby="draft-notice-heading"
      className="flex flex-col gap-3 rounded-xl border border-brand-500/40 bg-brand-600/10 p-4 sm:flex-row sm:items-center"
    >
      <FileClock aria-hidden className="size-8 shrink-0 text-brand-300" />
      <div className="flex-1">
        <h2 id="draft-notice-heading" className="font-semibold text-white">
          You have a draft in progress
        </h2>
        <p className="text-sm text-zinc-300">
          "{title}" is saved at step {draft.step} of 4. The Release Builder opens it where you left off.
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Link to={paths.releaseBuilder} className={buttonClass('primary', 'sm')}>
          Continue draft
        </Link>
        <DiscardDraftButton title={title} onDiscarded={() => void draftQuery.refetch()} />
      </div>
    </section>
  );
}
