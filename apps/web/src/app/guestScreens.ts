/**
 * The guest pages' layout and the login page, in a chunk of their own: a member's first download
 * (the dashboard) goes without them. A guest's page preloads it (the prerendered HTML links it,
 * main.tsx starts it with the entry), so /login's first download is the same.
 */
export { GuestLayout } from './layouts/GuestLayout';
export { LoginPage } from '../features/auth/login/LoginPage';
