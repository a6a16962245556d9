import { useEffect } from 'react';

/** The last title and description asked for during a render without a document (the build-time prerender). */
export const prerenderHead: { title?: string; description?: string } = {};

const fullTitle = (title: string) => (title.includes('Tunedrop') ? title : `${title} · Tunedrop`);

/** Sets the document title and meta description of a page. */
export function usePageTitle(title: string, description?: string) {
  if (typeof document === 'undefined') {
    prerenderHead.title = fullTitle(title);
    prerenderHead.description = description;
  }
  useEffect(() => {
    document.title = fullTitle(title);
    if (description) document.querySelector('meta[name="description"]')?.setAttribute('content', description);
  }, [title, description]);
}
