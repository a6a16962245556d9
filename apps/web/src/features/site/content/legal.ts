/** When the Terms of Service and the Privacy Policy last changed; update with every change to them. */
export const LEGAL_UPDATED = 'November 22, 2026';
