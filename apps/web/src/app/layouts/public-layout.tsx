/** Public chrome (spec 01 §2): top navigation that turns solid after 20 px, mobile menu, footer. */
import { Menu, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { BrandMark } from '../../components/brand-mark';
import { buttonClass } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { paths } from '../../config/paths';
import { usePublicConfig } from '../../lib/public-config';
import { useSiteBrand } from '../../lib/site-brand';

const navItems = [
  { to: paths.home, label: 'Home' },
  { to: paths.pricing, label: 'Pricing' },
  { to: paths.terms, label: 'Terms' },
];

export function PublicLayout() {
  const [isSolid, setIsSolid] = useState(false);
  const [isMenuOpen, setIsMenuOpen] = useState(false);
  const location = useLocation();

  useEffect(() => {
    const onScroll = () => setIsSolid(window.scrollY > 20);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: close the menu whenever the page changes
  useEffect(() => setIsMenuOpen(false), [location.pathname]);

  useEffect(() => {
    if (!isMenuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setIsMenuOpen(false);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [isMenuOpen]);

  const linkClass = ({ isActive }: { isActive: boolean }) =>
    cn(
      'rounded-md px-3 py-2 text-sm font-medium transition-colors',
      isActive ? 'bg-brand-600/20 text-brand-300' : 'text-zinc-300 hover:text-white',
    );

  return (
    <div className="flex min-h-screen flex-col overflow-x-hidden">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-brand-600 px-4 py-2 text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to main content
      </a>
      <header
        data-solid={isSolid}
        className={cn(
          'fixed inset-x-0 top-0 z-30 transition-colors',
          isSolid || isMenuOpen ? 'bg-ink-950/95 shadow-lg backdrop-blur' : 'bg-transparent',
        )}
      >
        <nav
          aria-label="Main"
          className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6"
        >
          <Link to={paths.home} className="flex items-center gap-2 text-lg font-bold text-white">
            <BrandMark />
          </Link>
          <div className="hidden items-center gap-1 md:flex">
            {navItems.map((item) => (
              <NavLink key={item.to} to={item.to} end className={linkClass}>
                {item.label}
              </NavLink>
            ))}
            <Link to={paths.login} className={cn(buttonClass('primary', 'sm'), 'ml-3')}>
              Sign In
            </Link>
          </div>
          <button
            type="button"
            className="rounded-md p-2 text-zinc-200 md:hidden"
            aria-expanded={isMenuOpen}
            aria-controls="mobile-menu"
            aria-label={isMenuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setIsMenuOpen((open) => !open)}
          >
            {isMenuOpen ? <X aria-hidden /> : <Menu aria-hidden />}
          </button>
        </nav>
        {isMenuOpen ? (
          <div id="mobile-menu" className="border-t border-ink-800 px-4 pb-4 md:hidden">
            <div className="flex flex-col gap-1 pt-2">
              {navItems.map((item) => (
                <NavLink key={item.to} to={item.to} end className={linkClass}>
                  {item.label}
                </NavLink>
              ))}
              <Link to={paths.login} className={cn(buttonClass('primary', 'md'), 'mt-2')}>
                Sign In
              </Link>
            </div>
          </div>
        ) : null}
      </header>
      <div className="flex-1">
        <Outlet />
      </div>
      <Footer />
    </div>
  );
}

function Footer() {
  const { data: config } = usePublicConfig();
  const { productName } = useSiteBrand();
  const candidates: [string, string | null][] = config
    ? [
        ['Instagram', config.social.instagram],
        ['X', config.social.x],
        ['YouTube', config.social.youtube],
        ['TikTok', config.social.tiktok],
      ]
    : [];
  const socials = candidates.filter((entry): entry is [string, string] => Boolean(entry[1]));
  return (
    <footer className="border-t border-ink-800 bg-ink-900/60">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:px-6 md:grid-cols-3">
        <div>
          <p className="flex items-center gap-2 text-lg font-bold text-white">
            <BrandMark iconClassName="size-5" />
          </p>
          <p className="mt-2 text-sm text-zinc-400">
            Music distribution for independent artists, labels and companies.
          </p>
          {socials.length > 0 ? (
            <ul className="mt-4 flex gap-4 text-sm" aria-label="Social links">
              {socials.map(([label, url]) => (
                <li key={label}>
                  <a
                    href={url}
                    className="text-zinc-300 hover:text-white"
                    rel="noopener noreferrer"
                    target="_blank"
                    aria-label={`${productName} on ${label} (opens in a new tab)`}
                  >
                    {label}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <div>
          <h2 className="text-sm font-semibold text-white">Contact</h2>
          <p className="mt-2 text-sm text-zinc-400">
            Email us any time at{' '}
            <a
              className="text-brand-300 underline hover:text-brand-200"
              href={`mailto:${config?.supportEmail ?? ''}`}
            >
              {config?.supportEmail ?? '…'}
            </a>
            . We answer within 24 hours.
          </p>
        </div>
        <div>
          <h2 className="text-sm font-semibold text-white">Quick links</h2>
          <ul className="mt-2 space-y-1 text-sm">
            <li>
              <Link className="text-zinc-400 hover:text-white" to={paths.pricing}>
                Pricing
              </Link>
            </li>
            <li>
              <Link className="text-zinc-400 hover:text-white" to={paths.terms}>
                Terms of Service
              </Link>
            </li>
            <li>
              <Link className="text-zinc-400 hover:text-white" to={paths.privacy}>
                Privacy Policy
              </Link>
            </li>
          </ul>
        </div>
      </div>
      {/* Prerendered at build time (record 128): a page built last year shows that year until hydrated. */}
      <p className="border-t border-ink-800 py-6 text-center text-xs text-zinc-400" suppressHydrationWarning>
        © {new Date().getFullYear()} {productName}. All rights reserved.
      </p>
    </footer>
  );
}
