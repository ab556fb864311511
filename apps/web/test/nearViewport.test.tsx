import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A stand-in IntersectionObserver the test drives, and animation frames it runs by hand. */
let observed: Element[] = [];
let report: ((entries: Array<{ target: Element; isIntersecting: boolean }>) => void) | null = null;
let frames: FrameRequestCallback[] = [];

class FakeObserver {
  constructor(callback: (entries: Array<{ target: Element; isIntersecting: boolean }>, self: FakeObserver) => void) {
    report = (entries) => callback(entries, this);
  }
  observe(element: Element) {
    observed.push(element);
  }
  unobserve(element: Element) {
    observed = observed.filter((e) => e !== element);
  }
  disconnect() {
    observed = [];
  }
}

function runFrame(): void {
  const due = frames;
  frames = [];
  act(() => {
    for (const frame of due) frame(0);
  });
}

describe('useNearViewport lets cards that came near together through one per frame', () => {
  beforeEach(() => {
    vi.resetModules();
    observed = [];
    frames = [];
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('one card per frame, in the order they came near; a card gone before its frame takes none', async () => {
    const { useNearViewport } = await import('../src/shared/ui/nearViewport');
    function Card({ id }: { id: string }) {
      const [ref, near] = useNearViewport<HTMLDivElement>();
      return <div ref={ref} data-testid={id} data-near={near} />;
    }
    function Cards({ ids }: { ids: string[] }) {
      return (
        <>
          {ids.map((id) => (
            <Card key={id} id={id} />
          ))}
        </>
      );
    }
    const view = render(<Cards ids={['a', 'b', 'c', 'd']} />);
    const near = () => ['a', 'b', 'c', 'd'].filter((id) => screen.queryByTestId(id)?.dataset.near === 'true');
    expect(near()).toEqual([]);
    expect(observed).toHaveLength(4);

    act(() => report?.(observed.map((target) => ({ target, isIntersecting: true }))));
    expect(near()).toEqual(['a']);
    runFrame();
    expect(near()).toEqual(['a', 'b']);
    // c goes away before its frame: d comes on the next one.
    view.rerender(<Cards ids={['a', 'b', 'd']} />);
    runFrame();
    expect(near()).toEqual(['a', 'b', 'd']);
    runFrame();
    expect(frames).toHaveLength(0);
  });
});
