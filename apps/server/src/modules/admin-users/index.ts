/**
 * Admin user management (record 073): the user list, roles, suspension. No other module uses a part of it,
 * so this front door offers nothing yet: its routes are wired by app.ts. What another module comes to need
 * of it is exported here and imported from here.
 */
export {};
