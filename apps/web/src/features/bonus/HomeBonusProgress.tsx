import { lazy, Suspense } from 'react';
import { useBonusProgress } from './bonusProgress';

// The card and the bonus namespace's texts load only when a condition is open: they stay out of
// the dashboard's first download.
const HomeBonusProgressCard = lazy(() => import('./HomeBonusProgressCard').then((m) => ({ default: m.HomeBonusProgressCard })));

/** On the home page: the open bonus condition's turnover, linking to the bonus page (nothing when none is open). */
export function HomeBonusProgress() {
  const p = useBonusProgress().data?.progress;
  if (!p) return null;
  return (
    <Suspense fallback={null}>
      <HomeBonusProgressCard progress={p} />
    </Suspense>
  );
}
