import { useCallback, useState, type RefCallback } from 'react';

/** How far outside the viewport an element counts as near: its images start loading there. */
const NEAR_MARGIN = '200px 0px';

const onNear = new Map<Element, () => void>();
let observer: IntersectionObserver | null = null;

/**
 * Elements that came near together are let through one per animation frame: a dashboard's first
 * screen has six game cards, and their twelve images arriving at once were rasterised in one
 * frame (a long task of 60–90 ms on a slow phone, measured at 4× CPU throttling). One card per
 * frame spreads that over a few frames — about a tenth of a second in all.
 */
const waiting: Array<() => void> = [];
let releasing = false;

function releaseNext(): void {
  const next = waiting.shift();
  if (!next) {
    releasing = false;
    return;
  }
  next();
  requestAnimationFrame(releaseNext);
}

function release(callback: () => void): void {
  waiting.push(callback);
  if (releasing) return;
  releasing = true;
  releaseNext();
}

/** An element that went away before its frame: it takes no frame. */
function cancelRelease(callback: () => void): void {
  const at = waiting.indexOf(callback);
  if (at >= 0) waiting.splice(at, 1);
}

function sharedObserver(): IntersectionObserver {
  observer ??= new IntersectionObserver(
    (entries, self) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        const callback = onNear.get(entry.target);
        if (callback) release(callback);
        onNear.delete(entry.target);
        self.unobserve(entry.target);
      }
    },
    { rootMargin: NEAR_MARGIN },
  );
  return observer;
}

/**
 * Whether an element has come near the viewport (once true, it stays true), for content that
 * only needs to load when the member can see it — the images of the home dashboard's game cards,
 * most of which are below the fold on a phone. The browser's own loading="lazy" starts much
 * further away (about 1,250 px), which is nearly the whole dashboard. One observer serves all.
 * Without IntersectionObserver everything counts as near.
 */
export function useNearViewport<T extends Element>(): [RefCallback<T>, boolean] {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  const ref = useCallback(
    (element: T | null) => {
      if (!element || near) return undefined;
      const io = sharedObserver();
      const becameNear = () => setNear(true);
      onNear.set(element, becameNear);
      io.observe(element);
      return () => {
        onNear.delete(element);
        io.unobserve(element);
        cancelRelease(becameNear);
      };
    },
    [near],
  );
  return [ref, near];
}
