import { useEffect } from 'react';

/**
 * Marks the document once a route's screen is on screen and working — rendered, or on a
 * prerendered page hydrated (React's handlers attached): `<html data-screen-ready>`. The
 * end-to-end tests wait for it after loading a prerendered page before they click.
 */
export function useScreenReady(): void {
  useEffect(() => {
    document.documentElement.dataset.screenReady = 'true';
  }, []);
}
