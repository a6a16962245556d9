import { useEffect } from 'react';
import { useSiteBrand } from './site-brand';

/** The last title and description asked for during a render without a document (the build-time prerender). */
export const prerenderHead: { title?: string; description?: string } = {};

/** "Pricing · <product>"; a title that already names the product stays as it is. */
const fullTitleOf = (title: string, productName: string) =>
  title.includes(productName) ? title : `${title} · ${productName}`;

/** Sets the document title and meta description of a page. */
export function usePageTitle(title: string, description?: string) {
  const { productName } = useSiteBrand();
  const fullTitle = fullTitleOf(title, productName);
  if (typeof document === 'undefined') {
    prerenderHead.title = fullTitle;
    prerenderHead.description = description;
  }
  useEffect(() => {
    document.title = fullTitle;
    if (description) document.querySelector('meta[name="description"]')?.setAttribute('content', description);
  }, [fullTitle, description]);
}
