/**
 * Public entry of the admin users feature (the user list, roles, suspension, record 073). No other feature
 * uses a part of it, so this front door offers nothing yet: its pages are loaded by app/router.tsx. What
 * another feature or app/ comes to need of it is exported here and imported from here.
 */
export {};
