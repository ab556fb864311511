// React 18+ has useSyncExternalStore; react-i18next imports it from the `use-sync-external-store`
// shim (for React 16 and 17), which vite.config.ts points here instead of bundling the shim.
export { useSyncExternalStore } from 'react';
