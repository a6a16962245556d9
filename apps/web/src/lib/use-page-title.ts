import { useEffect } from 'react';

/** Sets the document title and meta description of a page. */
export function usePageTitle(title: string, description?: string) {
  useEffect(() => {
    document.title = title.includes('Tunedrop') ? title : `${title} · Tunedrop`;
    if (description) document.querySelector('meta[name="description"]')?.setAttribute('content', description);
  }, [title, description]);
}
