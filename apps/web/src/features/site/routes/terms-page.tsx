/** `/terms`: Terms of Service in 7 sections with a support contact line (spec 01 §2). */
import { centsToAmount, PLAN_DETAILS } from '@tunedrop/shared';
import { ProductName } from '../../../components/brand-mark';
import { usePublicConfig } from '../../../lib/public-config';
import { useSiteBrand } from '../../../lib/site-brand';
import { usePageTitle } from '../../../lib/use-page-title';
import { ContactAddress, LegalPage, type LegalSection } from '../components/legal-page';
import { useScrollToTopOnLoad } from '../components/use-scroll-to-top-on-load';
import { LEGAL_UPDATED } from '../content/legal';

const minimum = (plan: 'basic' | 'pro') => `$${centsToAmount(PLAN_DETAILS[plan].minWithdrawalCents)}`;

const sections: LegalSection[] = [
  {
    title: 'Introduction',
    body: (
      <>
        <p>
          These Terms of Service (the “Terms”) are an agreement between you and <ProductName /> about your use
          of the <ProductName /> website, dashboard and distribution service (together, the “Service”). By
          creating an account or using the Service, you accept these Terms. If you do not agree with them,
          please do not use the Service.
        </p>
        <p>
          You must be at least 18 years old, or the age of majority where you live, to open an account. If you
          use the Service for a label, company or another artist, you confirm that you are authorised to
          accept these Terms on their behalf, and “you” then includes them.
        </p>
      </>
    ),
  },
  {
    title: 'Service Description',
    body: (
      <>
        <p>
          <ProductName /> helps independent artists, labels and companies deliver music to streaming platforms
          and stores. With an active subscription you can upload releases (WAV audio, cover art and metadata),
          choose where they should appear, follow their status, request takedowns, see your royalty balance
          and request withdrawals. The Pro plan adds analytics and the other features listed on our pricing
          page.
        </p>
        <p>
          Every release is reviewed by our team before delivery. Review and delivery times are estimates (
          {PLAN_DETAILS.basic.reviewEstimate} on Basic, {PLAN_DETAILS.pro.reviewEstimate} with priority on
          Pro), not guarantees. Each platform decides on its own when, whether and how long it makes content
          available, and we cannot control their decisions, outages or changes to their catalogues.
        </p>
        <p>
          We keep improving the Service, so features may change. When a change takes away something you pay
          for, we tell you in advance.
        </p>
      </>
    ),
  },
  {
    title: 'Rights and Ownership',
    body: (
      <>
        <p>
          <strong>You keep 100% of your rights and ownership.</strong> <ProductName /> does not claim
          ownership of your recordings, compositions, artwork or any other material you upload.
        </p>
        <p>
          To distribute a release, you grant <ProductName /> a non-exclusive, worldwide, royalty-free licence
          to store, copy, convert and deliver the release and its metadata to the platforms you choose, and to
          allow those platforms to make it available to their users. The licence lasts while the release is
          distributed and ends once a takedown has been processed, except for copies that platforms must keep
          by law or for their accounting.
        </p>
        <p>
          You confirm that, for every release, you own or control all the rights needed: in the recording, the
          composition, samples, artwork and any names or images shown. You also confirm that the artist,
          songwriter and producer credits you give are accurate. If someone claims otherwise, we may pause or
          take down the release while the claim is resolved.
        </p>
      </>
    ),
  },
  {
    title: 'Content Guidelines',
    body: (
      <>
        <p>You may not upload content that:</p>
        <ul>
          <li>
            infringes anyone's copyright, trademark or other rights, including uncleared samples and cover
            versions without the licences they need;
          </li>
          <li>
            impersonates another artist or misleads listeners about who made it, for example through a
            confusingly similar artist name, title or artwork;
          </li>
          <li>is unlawful, hateful or harassing, or sexually exploits minors;</li>
          <li>is meant to manipulate streams, charts or royalties by artificial plays or other fraud.</li>
        </ul>
        <p>
          Explicit tracks must be marked as explicit. Audio must be WAV files (16-bit or 24-bit, 44.1kHz) and
          cover art must meet the requirements shown in the release form.
        </p>
        <p>
          We may reject a release that does not meet these guidelines or a platform's rules, and we tell you
          why. If these guidelines are broken, we may also take content down, hold back royalties tied to
          fraudulent activity and ban the account from uploading.
        </p>
      </>
    ),
  },
  {
    title: 'Payment Terms',
    body: (
      <>
        <p>
          The Service is a monthly subscription: Basic at {PLAN_DETAILS.basic.priceLabel} per month and Pro at{' '}
          {PLAN_DETAILS.pro.priceLabel} per month, plus any applicable taxes. Payments are handled by our card
          payment provider; your full card details never reach our servers.
        </p>
        <p>
          Subscriptions renew automatically every month until you cancel. You can cancel at any time with
          Manage Subscription on your account page; you keep access until the end of the period you have paid
          for, and you will need to subscribe again to upload new releases after that. Upgrades and downgrades
          take effect at the start of the next billing cycle. Fees already paid are not refunded, except where
          the law requires it. If a payment fails, the subscription becomes past due and the dashboard may be
          unavailable until the payment method is updated.
        </p>
        <p>
          Earnings that platforms report for your releases are credited to your balance. You can request a
          withdrawal to your bank account or PayPal once your balance reaches the minimum for your plan (
          {minimum('basic')} on Basic, {minimum('pro')} on Pro). We check each request before paying it and
          may reject it with a reason, for example when payment details are incomplete or the earnings are
          under investigation for fraud.
        </p>
      </>
    ),
  },
  {
    title: 'Termination',
    body: (
      <>
        <p>
          You may stop using the Service and cancel your subscription whenever you like. You can request a
          takedown of any live release from your dashboard.
        </p>
        <p>
          We may suspend uploads, ban an account or close it if you break these Terms, if the law requires it,
          or if a platform or rights holder makes a valid claim against your content. Where we reasonably can,
          we tell you the reason first. When an account is closed, we may stop delivering its releases and ask
          the platforms to remove them.
        </p>
        <p>
          Royalties you earned lawfully before the account ended remain payable under the Payment Terms. The
          parts of these Terms that by their nature should continue, such as Rights and Ownership and amounts
          owed, survive termination.
        </p>
      </>
    ),
  },
  {
    title: 'Updates to Terms',
    body: (
      <p>
        We may update these Terms when the Service or the law changes. For significant changes we notify you
        by email or in the dashboard before they take effect, and the date at the top of this page always
        shows the latest version. If you keep using the Service after a change takes effect, you accept the
        updated Terms; if you do not agree, you can cancel your subscription before then.
      </p>
    ),
  },
];

export default function TermsPage() {
  const { productName } = useSiteBrand();
  usePageTitle(
    'Terms of Service',
    `The Terms of Service of ${productName}: what the service does, your rights and ownership, content guidelines, payment and termination.`,
  );
  useScrollToTopOnLoad();
  const { data: config } = usePublicConfig();
  return (
    <LegalPage
      title="Terms of Service"
      updated={LEGAL_UPDATED}
      intro={
        <p>
          Please read these terms carefully. They explain what you can expect from <ProductName /> and what we
          expect from you when you distribute music with us.
        </p>
      }
      sections={sections}
      contact={
        <p>
          Questions about these Terms? Contact our support team at{' '}
          <ContactAddress email={config?.supportEmail} />.
        </p>
      }
    />
  );
}
