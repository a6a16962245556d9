/** `/privacy`: Privacy Policy in 6 sections with a privacy contact line (spec 01 §2). */
import { ProductName } from '../../../components/brand-mark';
import { usePublicConfig } from '../../../lib/public-config';
import { useSiteBrand } from '../../../lib/site-brand';
import { usePageTitle } from '../../../lib/use-page-title';
import { ContactAddress, LegalPage, type LegalSection } from '../components/legal-page';
import { useScrollToTopOnLoad } from '../components/use-scroll-to-top-on-load';
import { LEGAL_UPDATED } from '../content/legal';

const sections: LegalSection[] = [
  {
    title: 'Information We Collect',
    body: (
      <>
        <p>We collect only what we need to run the Service:</p>
        <ul>
          <li>
            <strong>Account details:</strong> your email address, full name, artist name, chosen plan and
            password. Passwords are stored only as a secure hash; if you turn on two-factor authentication, we
            keep its settings too.
          </li>
          <li>
            <strong>Subscription details:</strong> your subscription status and renewal date and the reference
            numbers our card payment provider gives us. You enter card details on the provider's payment page;
            they never reach our servers.
          </li>
          <li>
            <strong>Your releases:</strong> audio files, cover art and the metadata you enter, such as titles,
            genres, release dates, artist names and profile links, songwriter and producer names, ISRC and UPC
            codes, label and copyright details.
          </li>
          <li>
            <strong>Royalties and payouts:</strong> your balance, earnings and withdrawal history, and the
            bank account details or PayPal address you save for withdrawals.
          </li>
          <li>
            <strong>Messages:</strong> what you send us through Contact Us (name, artist, label or company
            name, email address and links) and the network address it came from.
          </li>
          <li>
            <strong>Technical data:</strong> the cookie that keeps you signed in and server logs of requests,
            including network addresses, kept for security. We do not use advertising or third-party tracking
            cookies.
          </li>
        </ul>
      </>
    ),
  },
  {
    title: 'How We Use Your Information',
    body: (
      <>
        <p>We use your information to:</p>
        <ul>
          <li>create and secure your account and keep you signed in;</li>
          <li>review your releases and deliver them to the platforms you choose;</li>
          <li>take subscription payments, keep your balance and pay your withdrawals;</li>
          <li>show your releases, royalties and, on the Pro plan, analytics;</li>
          <li>prevent fraud, abuse, stream manipulation and infringement;</li>
          <li>
            send service messages, such as email verification, password resets and news about your releases,
            payments or changes to our terms;
          </li>
          <li>answer your questions and meet our legal, tax and accounting obligations.</li>
        </ul>
        <p>We do not sell your personal information and we do not use it for advertising.</p>
      </>
    ),
  },
  {
    title: 'Information Sharing',
    body: (
      <>
        <p>We share information only as far as needed:</p>
        <ul>
          <li>
            <strong>Streaming platforms and stores</strong> receive your releases and their metadata,
            including artist, songwriter and producer names, so that they can publish them.
          </li>
          <li>
            <strong>Our card payment provider</strong> processes subscription payments, and banks or PayPal
            receive the details needed to pay your withdrawals.
          </li>
          <li>
            <strong>Service providers</strong> that host our servers, store files and deliver email work for
            us under contracts that allow them to use the data only on our instructions.
          </li>
          <li>
            <strong>Authorities or rights holders</strong> when the law requires it, or when it is needed to
            protect rights, safety or the Service, for example to answer a valid infringement claim.
          </li>
          <li>
            <strong>A successor</strong> if <ProductName /> is merged or sold, who must keep protecting your
            data as this policy describes.
          </li>
        </ul>
      </>
    ),
  },
  {
    title: 'Data Security',
    body: (
      <>
        <p>
          We protect your data with encrypted connections, hashed passwords, optional two-factor
          authentication and limits on repeated sign-in and contact attempts. Inside our team, access follows
          roles: moderators see release information only, and only administrators handle balances and payout
          details.
        </p>
        <p>
          We keep account data while your account is open and afterwards only as long as the law or our
          accounting requires. No system is completely secure; if a breach affects your data, we will inform
          you and the authorities as the law requires. Please keep your password to yourself and turn on
          two-factor authentication.
        </p>
      </>
    ),
  },
  {
    title: 'International Data Transfers',
    body: (
      <p>
        Our servers and service providers may be in a country other than yours, and streaming platforms
        operate worldwide, so distributing a release means sending its data across borders. When we transfer
        personal data out of the European Economic Area, the United Kingdom or another region with transfer
        rules, we rely on an adequacy decision or use appropriate safeguards such as the European Commission's
        Standard Contractual Clauses.
      </p>
    ),
  },
  {
    title: 'Your Rights',
    body: (
      <>
        <p>
          Depending on where you live, you have the right to access the personal data we hold about you, to
          correct it, to have it deleted, to receive a copy in a portable format, to object to or restrict
          certain uses, and to withdraw consent you have given. You can also complain to your local data
          protection authority.
        </p>
        <p>
          You can change your full name and artist name yourself in your account settings. For anything else,
          write to the privacy contact below; we answer within 30 days. Some records, such as payment and tax
          records, must be kept for a period set by law even after a deletion request, and live releases may
          need a takedown before they can be removed from the platforms.
        </p>
      </>
    ),
  },
];

export default function PrivacyPage() {
  const { productName } = useSiteBrand();
  usePageTitle(
    'Privacy Policy',
    `How ${productName} collects, uses, shares and protects your personal information, and the rights you have over it.`,
  );
  useScrollToTopOnLoad();
  const { data: config } = usePublicConfig();
  return (
    <LegalPage
      title="Privacy Policy"
      updated={LEGAL_UPDATED}
      intro={
        <p>
          Your privacy matters to us. This policy explains what information <ProductName /> collects when you
          use the Service, why we need it, who we share it with and how you stay in control of it.
        </p>
      }
      sections={sections}
      contact={
        <p>
          For privacy questions or to exercise your rights, contact us at{' '}
          <ContactAddress email={config?.privacyEmail} />.
        </p>
      }
    />
  );
}
