/** The frame of the sign-up and sign-in pages: a centred card over the animated 20-dot background. */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { BrandMark } from '../../../components/brand-mark';
import { paths } from '../../../config/paths';

// Fixed positions so the background is the same on every visit (and in screenshots).
const DOTS = Array.from({ length: 20 }, (_, index) => ({
  left: (index * 37 + 11) % 100,
  top: (index * 53 + 7) % 100,
  size: 4 + ((index * 7) % 9),
  delay: (index % 7) * 0.7,
  duration: 4 + (index % 5),
}));

/** 20 softly pulsing, drifting dots; still under prefers-reduced-motion. */
export function DotBackground() {
  return (
    <div
      aria-hidden
      className="pointer-events-none absolute inset-0 overflow-hidden"
      data-testid="dot-background"
    >
      {DOTS.map((dot) => (
        <span
          key={`${dot.left}-${dot.top}`}
          className="absolute rounded-full bg-brand-500/30 motion-safe:animate-pulse"
          style={{
            left: `${dot.left}%`,
            top: `${dot.top}%`,
            width: dot.size,
            height: dot.size,
            animationDelay: `${dot.delay}s`,
            animationDuration: `${dot.duration}s`,
          }}
        />
      ))}
    </div>
  );
}

export function AuthShell({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="relative flex min-h-screen items-center justify-center overflow-hidden bg-ink-950 px-4 py-12">
      <DotBackground />
      <main className="relative w-full max-w-md">
        <Link
          to={paths.home}
          className="mb-6 flex items-center justify-center gap-2 text-xl font-bold text-white"
        >
          <BrandMark iconClassName="size-7" />
        </Link>
        <div className="rounded-2xl border border-ink-700 bg-ink-900/90 p-6 shadow-2xl backdrop-blur sm:p-8">
          <h1 className="text-2xl font-bold text-white">{title}</h1>
          {subtitle ? <p className="mt-1 text-sm text-zinc-400">{subtitle}</p> : null}
          <div className="mt-6">{children}</div>
        </div>
        {footer ? <div className="mt-6 text-center text-sm text-zinc-400">{footer}</div> : null}
      </main>
    </div>
  );
}

/** Links to the legal pages, under every account form. */
export function LegalLinks() {
  return (
    <p className="text-xs text-zinc-400">
      By continuing you agree to our{' '}
      <Link to={paths.terms} className="text-brand-300 underline">
        Terms of Service
      </Link>{' '}
      and{' '}
      <Link to={paths.privacy} className="text-brand-300 underline">
        Privacy Policy
      </Link>
      .
    </p>
  );
}

/** A form-level message (error or notice) announced to screen readers. */
export function FormAlert({
  tone = 'error',
  children,
}: {
  tone?: 'error' | 'info' | 'success';
  children: ReactNode;
}) {
  const tones = {
    error: 'border-red-500/40 bg-red-500/10 text-red-200',
    info: 'border-sky-500/40 bg-sky-500/10 text-sky-200',
    success: 'border-emerald-500/40 bg-emerald-500/10 text-emerald-200',
  } as const;
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`rounded-lg border p-3 text-sm ${tones[tone]}`}
    >
      {children}
    </div>
  );
}
