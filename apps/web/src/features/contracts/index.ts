/** Public entry of the label contracts feature (issue 39, record 285): its admin page is lazy-loaded by the router. */
export {};
