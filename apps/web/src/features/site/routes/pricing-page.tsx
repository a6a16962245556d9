/** `/pricing`: Basic and Pro side by side, How It Works, FAQ, Contact Us (spec 01 §2, §9). */
import { centsToAmount, PLAN_DETAILS } from '@tunedrop/shared';
import { planFeeNote } from '@tunedrop/shared/schemas/site-brand';
import { Check, ChevronDown, FileAudio, PencilLine, Rocket, Send, Store, X } from 'lucide-react';
import { Link } from 'react-router';
import { Button, buttonClass } from '../../../components/ui/button';
import { cn } from '../../../components/ui/cn';
import { paths } from '../../../config/paths';
import { useSiteBrand } from '../../../lib/site-brand';
import { usePageTitle } from '../../../lib/use-page-title';
import { SectionHeading, type Step, Steps } from '../components/steps';
import { useContactModal } from '../components/use-contact-modal';
import { useScrollToTopOnLoad } from '../components/use-scroll-to-top-on-load';
import { type PlanCard, planCardsFor } from '../content/plans';

const steps: Step[] = [
  {
    title: 'Upload Music',
    icon: FileAudio,
    text: 'Upload your tracks as WAV files, 16-bit or 24-bit at 44.1kHz.',
  },
  {
    title: 'Add Details',
    icon: PencilLine,
    text: 'Add cover art, titles, artists, songwriter and producer credits and your release date.',
  },
  {
    title: 'Choose Stores',
    icon: Store,
    text: 'Pick the streaming platforms and stores where your release should appear.',
  },
  {
    title: 'Release',
    icon: Rocket,
    text: 'Once our team has reviewed it, we deliver your release and it goes live.',
  },
];

const faqs: { question: string; answer: string }[] = [
  {
    question: 'What audio format do my tracks need to be in?',
    answer:
      'Upload WAV files, 16-bit or 24-bit, at 44.1kHz. WAV keeps the full quality of your master, and it is what the streaming platforms expect to receive.',
  },
  {
    question: 'Can I change my plan later?',
    answer:
      'Yes. You can upgrade or downgrade at any time from your account page. The change takes effect at the start of your next billing cycle.',
  },
  {
    question: 'Do I keep the rights to my music?',
    answer:
      'Always. You keep 100% ownership of your music and every right in it. We only deliver it to the platforms on your behalf, and you can request a takedown whenever you want.',
  },
  {
    question: 'When do I get paid?',
    answer: `Earnings from streams and downloads are added to your balance. Once your balance reaches the minimum payout threshold (${formatMinimum('basic')} on Basic, ${formatMinimum('pro')} on Pro), you can request a withdrawal to your bank account or PayPal.`,
  },
  {
    question: 'How long does review and delivery take?',
    answer: `Basic releases are reviewed and delivered in ${PLAN_DETAILS.basic.reviewEstimate}. Pro releases get priority review and are delivered in ${PLAN_DETAILS.pro.reviewEstimate}.`,
  },
];

function formatMinimum(plan: 'basic' | 'pro') {
  return `$${centsToAmount(PLAN_DETAILS[plan].minWithdrawalCents)}`;
}

export default function PricingPage() {
  const brand = useSiteBrand();
  const planCards = planCardsFor(brand);
  const [basic, pro] = planCards;
  usePageTitle(
    'Pricing',
    `${brand.productName} plans: Basic at ${basic?.priceLabel} per month or Pro at ${pro?.priceLabel} per month. Unlimited uploads to ${brand.platformsClaim} platforms and stores, and you keep 100% of your rights.`,
  );
  useScrollToTopOnLoad();
  const contact = useContactModal();

  return (
    <main id="main">
      <section aria-labelledby="pricing-title" className="px-4 pt-32 pb-16 sm:px-6 sm:pt-40">
        <div className="mx-auto max-w-3xl text-center">
          <h1 id="pricing-title" className="text-4xl font-extrabold tracking-tight text-white sm:text-5xl">
            Simple pricing for every release plan
          </h1>
          <p className="mt-5 text-base text-zinc-300 sm:text-lg">
            {`One monthly subscription, unlimited releases to ${brand.platformsClaim} platforms and stores, and 100% of your rights kept. Pick the plan that fits the way you release.`}
          </p>
        </div>
        <div className="mx-auto mt-14 grid max-w-5xl gap-8 md:grid-cols-2">
          {planCards.map((card) => (
            <PlanCardView key={card.plan} card={card} feeNote={planFeeNote(brand, card.plan)} />
          ))}
        </div>
      </section>

      <section aria-labelledby="how-it-works" className="bg-ink-900/50 px-4 py-20 sm:px-6">
        <div className="mx-auto max-w-6xl">
          <SectionHeading
            id="how-it-works"
            title="How It Works"
            intro="Getting your music out takes four steps, and you can do them all from your dashboard."
          />
          <div className="mt-12">
            <Steps steps={steps} />
          </div>
        </div>
      </section>

      <section aria-labelledby="faq-title" className="px-4 py-20 sm:px-6">
        <div className="mx-auto max-w-3xl">
          <SectionHeading id="faq-title" title="Frequently Asked Questions" />
          <div className="mt-10 divide-y divide-ink-700 rounded-2xl border border-ink-700 bg-ink-900/70">
            {faqs.map((faq) => (
              <details key={faq.question} className="group px-5 py-4">
                <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-medium text-white [&::-webkit-details-marker]:hidden">
                  {faq.question}
                  <ChevronDown
                    aria-hidden
                    className="size-5 shrink-0 text-zinc-400 transition-transform group-open:rotate-180"
                  />
                </summary>
                <p className="mt-3 text-sm leading-relaxed text-zinc-300">{faq.answer}</p>
              </details>
            ))}
          </div>
          <div className="mt-10 text-center">
            <p className="text-zinc-300">Still have a question? Our team answers within 24 hours.</p>
            <Button
              variant="secondary"
              className="mt-4"
              onClick={contact.open}
              onPointerEnter={contact.prefetch}
              onFocus={contact.prefetch}
            >
              <Send aria-hidden className="size-4" /> Contact Us
            </Button>
          </div>
        </div>
      </section>

      {contact.modal}
    </main>
  );
}

/** A plan's card; `feeNote` states the operator's distribution fee on it (issue 44), null without a fee. */
function PlanCardView({ card, feeNote }: { card: PlanCard; feeNote: string | null }) {
  const headingId = `plan-${card.plan}`;
  return (
    <article
      aria-labelledby={headingId}
      className={cn(
        'relative flex flex-col rounded-3xl border p-8',
        card.isPopular
          ? 'border-brand-500 bg-ink-900 shadow-2xl shadow-brand-900/40'
          : 'border-ink-700 bg-ink-900/70',
      )}
    >
      {card.isPopular ? (
        <p className="absolute -top-3.5 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-4 py-1 text-xs font-semibold text-white">
          Most Popular
        </p>
      ) : null}
      <h2 id={headingId} className="text-2xl font-bold text-white">
        {card.name}
      </h2>
      <p className="mt-2 text-sm text-zinc-300">{card.tagline}</p>
      <p className="mt-6 flex items-baseline gap-1">
        <span className="text-5xl font-extrabold tracking-tight text-white">{card.priceLabel}</span>
        <span className="text-zinc-300">per month</span>
      </p>
      {feeNote ? (
        <p className="mt-2 text-sm text-zinc-300" data-testid="plan-fee">
          {feeNote}
        </p>
      ) : null}
      <ul className="mt-8 flex-1 space-y-3 text-sm" aria-label={`${card.name} plan features`}>
        {card.rows.map((row) => (
          <li key={`${row.label}${row.value}`} className="flex gap-3">
            {row.isIncluded ? (
              <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-400" />
            ) : (
              <X aria-hidden className="mt-0.5 size-4 shrink-0 text-zinc-500" />
            )}
            <span className={row.isIncluded ? 'text-zinc-100' : 'text-zinc-400'}>
              {row.label ? <span className="sr-only">{row.label}: </span> : null}
              {row.value}
            </span>
          </li>
        ))}
        {card.extras.map((extra) => (
          <li key={extra} className="flex gap-3">
            <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-400" />
            <span className="text-zinc-100">{extra}</span>
          </li>
        ))}
      </ul>
      <Link
        to={`${paths.signup}?plan=${card.plan}`}
        aria-describedby={headingId}
        className={cn(buttonClass(card.isPopular ? 'primary' : 'outline', 'lg'), 'mt-8 w-full')}
      >
        Get Started
      </Link>
    </article>
  );
}
