/**
 * Opens the Contact Us modal, loading its code (Radix dialog included) on first use so the home and
 * pricing pages stay light. The modal stays mounted after that, so a closed form keeps its data.
 */
import { lazy, Suspense, useState } from 'react';

const loadModal = () => import('./contact-modal');
const ContactModal = lazy(() => loadModal().then((module) => ({ default: module.ContactModal })));

export function useContactModal() {
  const [isOpen, setIsOpen] = useState(false);
  const [isMounted, setIsMounted] = useState(false);
  return {
    open: () => {
      setIsMounted(true);
      setIsOpen(true);
    },
    /** Starts loading the modal when the pointer or focus reaches a Contact Us button. */
    prefetch: () => void loadModal(),
    modal: isMounted ? (
      <Suspense fallback={null}>
        <ContactModal open={isOpen} onOpenChange={setIsOpen} />
      </Suspense>
    ) : null,
  };
}
