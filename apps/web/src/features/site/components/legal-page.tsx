/** Shared frame of the Terms of Service and Privacy Policy: title, date, numbered sections, contact line. */
import type { ReactNode } from 'react';

export type LegalSection = { title: string; body: ReactNode };

export function LegalPage({
  title,
  intro,
  updated,
  sections,
  contact,
}: {
  title: string;
  intro: ReactNode;
  updated: string;
  sections: LegalSection[];
  contact: ReactNode;
}) {
  const slug = (text: string) => text.toLowerCase().replace(/[^a-z]+/g, '-');
  return (
    <main id="main" className="px-4 pt-28 pb-20 sm:px-6 sm:pt-36">
      <article className="mx-auto max-w-3xl">
        <header>
          <h1 className="text-4xl font-extrabold tracking-tight text-white sm:text-5xl">{title}</h1>
          <p className="mt-3 text-sm text-zinc-400">Last updated: {updated}</p>
          <div className="mt-6 text-base leading-relaxed text-zinc-300">{intro}</div>
        </header>
        <nav aria-label="Sections" className="mt-8 rounded-2xl border border-ink-700 bg-ink-900/70 p-5">
          <p className="text-sm font-semibold text-white">On this page</p>
          <ol className="mt-3 grid list-decimal gap-1 pl-5 text-sm text-zinc-300 sm:grid-cols-2">
            {sections.map((section) => (
              <li key={section.title}>
                <a className="hover:text-white hover:underline" href={`#${slug(section.title)}`}>
                  {section.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        {sections.map((section, index) => (
          <section key={section.title} aria-labelledby={slug(section.title)} className="mt-12 scroll-mt-24">
            <h2 id={slug(section.title)} className="scroll-mt-24 text-2xl font-bold text-white">
              <span aria-hidden="true">{index + 1}. </span>
              {section.title}
            </h2>
            <div className="mt-4 space-y-4 text-base leading-relaxed text-zinc-300 [&_li]:mt-2 [&_strong]:text-zinc-100 [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-6">
              {section.body}
            </div>
          </section>
        ))}
        <footer className="mt-14 rounded-2xl border border-ink-700 bg-ink-900/70 p-6 text-zinc-200">
          {contact}
        </footer>
      </article>
    </main>
  );
}

export function ContactAddress({ email }: { email: string | undefined }) {
  if (!email) return <span>our team</span>;
  return (
    <a className="font-medium text-brand-300 underline hover:text-brand-200" href={`mailto:${email}`}>
      {email}
    </a>
  );
}
