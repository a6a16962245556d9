/**
 * The public settings the web app shows (GET /api/config: contact addresses, social links, modes). No other
 * module uses a part of it, so this front door offers nothing yet: its routes are wired by app.ts. What
 * another module comes to need of it is exported here and imported from here.
 */
export {};
