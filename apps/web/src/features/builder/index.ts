/**
 * Public entry of the builder feature (the release wizard). No other feature uses a part of it: the parts
 * it shares with Edit Release (credits, file boxes, uploads, release time and territories) live below both
 * in features/release-form (record 262), and its pages are loaded by app/router.tsx.
 */
export {};
