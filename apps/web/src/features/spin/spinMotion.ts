/**
 * The wheel's motion (spec section 9): 3 to 4 full extra turns; the duration a random 4 to 5 s
 * times the turns times 0.1; it lands with the winning slice under the pointer at the top.
 */
export function motion(random: () => number = Math.random): { turns: number; durationMs: number } {
  const turns = 3 + random();
  return { turns, durationMs: Math.round((4 + random()) * turns * 0.1 * 1000) };
}

/**
 * The rotation (degrees, clockwise, growing) that brings slice `index` of `count` under the top
 * pointer after at least `turns` full turns from `current`; `jitter` in [-0.5, 0.5] moves the stop
 * within the slice (never onto its edge).
 */
export function targetRotation(current: number, index: number, count: number, turns: number, jitter = 0): number {
  const segment = 360 / count;
  // Slice i spans [i·segment, (i+1)·segment) clockwise from the top when the rotation is 0; a
  // rotation R brings the point at angle (360 − R) under the pointer.
  const landing = (((360 - (index + 0.5 + jitter * 0.7) * segment) % 360) + 360) % 360;
  const from = ((current % 360) + 360) % 360;
  const extra = (landing - from + 360) % 360;
  return current + Math.floor(turns) * 360 + extra;
}

/** The slice under the top pointer at a rotation. */
export function sliceAt(rotation: number, count: number): number {
  const angle = (((360 - rotation) % 360) + 360) % 360;
  return Math.floor(angle / (360 / count)) % count;
}

/** Ease-out cubic: fast start, gentle stop. */
export function easeOut(t: number): number {
  return 1 - (1 - Math.min(Math.max(t, 0), 1)) ** 3;
}
