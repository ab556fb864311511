import { prefetchHomeEntry } from '../features/home/homeQueries';
import { siteInfo } from '../shared/api/lookups';
import type { MemberScreen } from './memberBoot';
import { sharedQueryClient } from './providers/queryClient';

/**
 * A member's first loads (memberBoot.ts): the dashboard's own go first, in the page's query
 * client; the spin check and the site name follow in the next task.
 */
export function prefetchScreenData(screen: MemberScreen): void {
  if (screen.dashboard) prefetchHomeEntry(sharedQueryClient());
  setTimeout(() => {
    void siteInfo.load();
  }, 0);
}
