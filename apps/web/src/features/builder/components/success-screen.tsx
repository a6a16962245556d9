/** The success screen after submission (spec 02 §2): status, review estimate by plan, next steps. */
import { PLAN_DETAILS } from '@tunedrop/shared';
import { CheckCircle2, Clock, Mail } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass } from '../../../components/ui/button';
import { Badge, Card } from '../../../components/ui/card';
import { paths } from '../../../config/paths';

const NEXT_STEPS = [
  { title: 'Quality Check', text: 'Our team reviews your audio, artwork and metadata.' },
  { title: 'Distribution Preparation', text: 'Your release is prepared for each platform you selected.' },
  { title: 'Go Live', text: 'Your music becomes available to listeners on the release date.' },
];

export function SuccessScreen({
  title,
  isPro,
  onUploadAnother,
}: {
  title: string;
  isPro: boolean;
  onUploadAnother: () => void;
}) {
  const estimate = isPro ? PLAN_DETAILS.pro.reviewEstimate : PLAN_DETAILS.basic.reviewEstimate;
  return (
    <Card className="mx-auto max-w-2xl space-y-6 text-center">
      <CheckCircle2 aria-hidden className="mx-auto size-16 text-emerald-400" />
      <div>
        <h1 className="text-2xl font-bold text-white">Release Submitted Successfully!</h1>
        <p className="mt-2 text-zinc-300">“{title}” is in our review queue.</p>
      </div>
      <div className="flex flex-col items-center gap-2">
        <Badge tone="yellow" className="text-sm">
          Submitted for Review
        </Badge>
        <p className="flex items-center gap-2 text-sm text-zinc-300">
          <Clock aria-hidden className="size-4" /> Estimated review time: {estimate}
        </p>
        {isPro ? (
          <p className="text-sm text-brand-300">As a Pro member your release gets prioritised review.</p>
        ) : null}
      </div>
      <ol className="space-y-3 text-left">
        {NEXT_STEPS.map((step, index) => (
          <li key={step.title} className="flex gap-3 rounded-lg border border-ink-700 p-3">
            <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-brand-600 text-sm font-semibold text-white">
              {index + 1}
            </span>
            <span>
              <span className="block font-medium text-white">{step.title}</span>
              <span className="block text-sm text-zinc-400">{step.text}</span>
            </span>
          </li>
        ))}
      </ol>
      <p className="flex items-center justify-center gap-2 text-sm text-zinc-400">
        <Mail aria-hidden className="size-4" /> We'll send you email updates as your release moves through
        each stage.
      </p>
      <div className="flex flex-col justify-center gap-3 sm:flex-row">
        <Link to={paths.songs} className={buttonClass('primary')}>
          View My Releases
        </Link>
        <Link to={paths.releaseBuilder} className={buttonClass('outline')} onClick={onUploadAnother}>
          Upload Another Release
        </Link>
      </div>
    </Card>
  );
}
