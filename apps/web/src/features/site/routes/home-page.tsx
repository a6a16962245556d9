/** `/`: hero, How It Works, Why Artists Choose, closing call to action, Contact Us (spec 01 §1, §2). */

import { PLAN_DETAILS } from '@tunedrop/shared';
import { revenueKept } from '@tunedrop/shared/schemas/site-brand';
import {
  ChartColumn,
  FileAudio,
  Globe,
  ImageIcon,
  type LucideIcon,
  Mail,
  Rocket,
  Send,
  ShieldCheck,
  UserCheck,
  Zap,
} from 'lucide-react';
import { Link } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { useSiteBrand } from '../../../lib/site-brand';
import { usePageTitle } from '../../../lib/use-page-title';
import { ScrollToTopButton } from '../components/scroll-to-top-button';
import { SectionHeading, type Step, Steps } from '../components/steps';
import { useContactModal } from '../components/use-contact-modal';
import { useScrollToTopOnLoad } from '../components/use-scroll-to-top-on-load';

const steps: Step[] = [
  {
    title: 'Upload',
    icon: FileAudio,
    text: 'Upload your tracks as WAV files, so every platform receives your master in full quality.',
  },
  {
    title: 'Prepare',
    icon: ImageIcon,
    text: 'Add your cover artwork and metadata: titles, artists, songwriters, producers and release date.',
  },
  {
    title: 'Review',
    icon: UserCheck,
    text: 'Our team checks every release against store requirements before it goes out, so surprises are caught early.',
  },
  {
    title: 'Release',
    icon: Rocket,
    text: 'We deliver your release to the platforms you picked and it goes live for listeners around the world.',
  },
];

/** How soon a release reaches the stores, as the plans state it (issue 44: not 24-48 hours for everyone). */
const DELIVERY_TIMES = `within 24-48 hours on Pro (Basic: ${PLAN_DETAILS.basic.reviewEstimate})`;

/**
 * The reasons, with the operator's platform figure (record 203; the spec's 150+ by default) and, once the
 * operator takes a fee, what the artist keeps after it (issue 44).
 */
const reasonsFor = (
  claim: string,
  kept: ReturnType<typeof revenueKept>,
): { title: string; text: string; icon: LucideIcon }[] => [
  {
    title: 'Global Reach',
    icon: Globe,
    text: `Get heard on ${claim} streaming platforms and stores worldwide, from Spotify and Apple Music to TikTok, Deezer and TIDAL.`,
  },
  {
    title: 'Fast Release',
    icon: Zap,
    text: `Express delivery puts your music on the major platforms ${DELIVERY_TIMES}, so release day stays on schedule.`,
  },
  {
    title: 'Pro Analytics',
    icon: ChartColumn,
    text: 'Follow your streams and earnings as they happen with real-time analytics and revenue tracking.',
  },
  {
    title: 'Full Control',
    icon: ShieldCheck,
    text: kept
      ? `Keep 100% of your rights and ownership, and ${kept.kept} of the revenue your music earns: our distribution fee is ${kept.fee}.`
      : 'Keep 100% of your rights and ownership, and earn up to 85% of the streaming revenue your music generates.',
  },
];

export default function HomePage() {
  const brand = useSiteBrand();
  const { productName, platformsClaim: claim } = brand;
  const kept = revenueKept(brand);
  const heroStats = [
    { value: claim, label: 'Platforms and stores' },
    // What the artist keeps after the operator's fee, never "100%" beside a fee (issue 44).
    { value: kept?.kept ?? '100%', label: kept ? 'Revenue you keep' : 'Revenue share' },
    { value: '24h', label: 'Support' },
  ];
  const reasons = reasonsFor(claim, kept);
  usePageTitle(
    `${productName}: music distribution for independent artists`,
    `Release your music on ${claim} streaming platforms and stores, keep 100% of your rights, and go live on major platforms ${DELIVERY_TIMES}.`,
  );
  useScrollToTopOnLoad();
  const contact = useContactModal();

  return (
    <main id="main">
      <section
        aria-labelledby="hero-title"
        className="relative overflow-hidden px-4 pt-32 pb-20 sm:px-6 sm:pt-40 sm:pb-28"
      >
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_at_top,rgba(124,58,237,0.35),transparent_60%)]"
        />
        <div className="relative mx-auto max-w-4xl text-center">
          <p className="text-sm font-semibold tracking-wider text-brand-300 uppercase">
            For independent artists, labels and companies
          </p>
          <h1 id="hero-title" className="mt-4 text-4xl font-extrabold tracking-tight text-white sm:text-6xl">
            {/* One text node, as the spec's sentence reads in the HTML (no React markers inside it). */}
            {`Your music on ${claim} platforms. `}
            <span className="text-brand-300">Your rights stay yours.</span>
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-base leading-relaxed text-zinc-300 sm:text-lg">
            {`Upload your tracks once and ${productName} delivers them to Spotify, Apple Music, TikTok and ${claim} streaming platforms and stores. Express delivery reaches the major platforms ${DELIVERY_TIMES}, real-time analytics show you what is working, and you keep 100% of your rights and ownership.`}
          </p>
          <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
            <Link to={paths.pricing} className={buttonClass('primary', 'lg')}>
              Start Releasing
            </Link>
            <Link to={paths.pricing} className={buttonClass('outline', 'lg')}>
              View Plans
            </Link>
          </div>
          <dl className="mx-auto mt-14 grid max-w-2xl grid-cols-3 gap-4">
            {heroStats.map((stat) => (
              <div key={stat.label} className="rounded-xl border border-ink-700 bg-ink-900/60 px-2 py-4">
                <dt className="text-xs text-zinc-300 sm:text-sm">{stat.label}</dt>
                <dd className="order-first text-2xl font-bold text-white sm:text-3xl">{stat.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <section aria-labelledby="how-it-works" className="px-4 py-20 sm:px-6">
        <div className="mx-auto max-w-6xl">
          <SectionHeading
            id="how-it-works"
            title="How It Works"
            intro="From finished master to live release in four steps."
          />
          <div className="mt-12">
            <Steps steps={steps} />
          </div>
        </div>
      </section>

      <section aria-labelledby="why-artists" className="bg-ink-900/50 px-4 py-20 sm:px-6">
        <div className="mx-auto max-w-6xl">
          <SectionHeading
            id="why-artists"
            title={`Why Artists Choose ${productName}`}
            intro="Distribution that stays out of your way: wide reach, quick delivery, clear numbers and no strings on your music."
          />
          <ul className="mt-12 grid gap-6 sm:grid-cols-2">
            {reasons.map((reason) => (
              <li key={reason.title} className="flex gap-4 rounded-2xl border border-ink-700 bg-ink-950 p-6">
                <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-brand-600/20 text-brand-300">
                  <reason.icon aria-hidden className="size-5" />
                </span>
                <div>
                  <h3 className="text-lg font-semibold text-white">{reason.title}</h3>
                  <p className="mt-2 text-sm leading-relaxed text-zinc-300">{reason.text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="contact-title" className="px-4 py-16 sm:px-6">
        <div className="mx-auto flex max-w-4xl flex-col items-center gap-4 rounded-2xl border border-ink-700 bg-ink-900/70 p-8 text-center sm:flex-row sm:text-left">
          <Mail aria-hidden className="size-10 shrink-0 text-brand-300" />
          <div className="flex-1">
            <h2 id="contact-title" className="text-xl font-semibold text-white">
              Questions before you start?
            </h2>
            <p className="mt-1 text-sm text-zinc-300">
              Tell us about your music and our team will get back to you within 24 hours.
            </p>
          </div>
          <Button
            variant="secondary"
            onClick={contact.open}
            onPointerEnter={contact.prefetch}
            onFocus={contact.prefetch}
          >
            <Send aria-hidden className="size-4" /> Contact Us
          </Button>
        </div>
      </section>

      <section aria-labelledby="closing-title" className="px-4 pt-4 pb-24 sm:px-6">
        <div className="mx-auto max-w-4xl rounded-3xl bg-gradient-to-br from-brand-700 to-ink-800 px-6 py-14 text-center sm:px-12">
          <h2 id="closing-title" className="text-3xl font-bold tracking-tight text-white sm:text-4xl">
            Ready to share your music with the world?
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-base text-zinc-100">
            {`Pick a plan, upload your first release today and reach listeners on ${claim} platforms, with your rights kept entirely in your hands.`}
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Link to={paths.pricing} className={buttonClass('secondary', 'lg')}>
              Get Started Today
            </Link>
            <Link
              to={paths.pricing}
              className="inline-flex h-12 items-center justify-center rounded-lg border border-white/60 px-6 text-base font-medium text-white transition-colors hover:bg-white/10"
            >
              Compare Plans
            </Link>
          </div>
        </div>
      </section>

      {contact.modal}
      <ScrollToTopButton />
    </main>
  );
}
