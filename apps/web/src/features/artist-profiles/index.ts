/**
 * Public entry of the artist profiles feature (a member's artists and their store links). No other feature
 * uses a part of it, so this front door offers nothing yet: its pages are loaded by app/router.tsx. What
 * another feature or app/ comes to need of it is exported here and imported from here.
 */
export {};
