import { lazy, type ComponentType } from 'react';
import { useScreenReady } from '../screenReady';

/**
 * A lazy screen that uses React Query: its code and React Query's (QueryLayer.tsx) load together,
 * and the screen renders inside the page's query client. React Query is then not part of the
 * guest pages' first download (the login form does not use it).
 */
export function lazyWithQueries<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => {
    const [module, { QueryLayer }] = await Promise.all([load(), import('./QueryLayer')]);
    const Screen: ComponentType = module[name];
    function WithQueries() {
      useScreenReady();
      return (
        <QueryLayer>
          <Screen />
        </QueryLayer>
      );
    }
    return { default: WithQueries };
  });
}
