/** The product's mark in headers and footers: the operator's logo, or the music note, then its name (record 328). */
import { Music2 } from 'lucide-react';
import { useSiteBrand } from '../lib/site-brand';
import { cn } from './ui/cn';

export function BrandMark({ iconClassName = 'size-6' }: { iconClassName?: string }) {
  const brand = useSiteBrand();
  return (
    <>
      {brand.logoUrl ? (
        <img src={brand.logoUrl} alt="" className={cn(iconClassName, 'rounded object-contain')} />
      ) : (
        <Music2 aria-hidden className={cn(iconClassName, 'text-brand-400')} />
      )}
      {` ${brand.productName}`}
    </>
  );
}

/** The product's name inside running text (the legal pages' sections are written once, outside a component). */
export function ProductName() {
  return useSiteBrand().productName;
}
