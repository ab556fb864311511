import { forwardRef, useCallback, useEffect, useImperativeHandle, useRef } from 'react';
import type { SpinSlice } from '@mw/contract/spin';

export interface WheelHandle {
  /** Turns the wheel to `rotation` degrees (clockwise) and darkens every slice but `winner` (when set). */
  draw(rotation: number, winner: number | null): void;
}

interface Props {
  slices: readonly SpinSlice[];
  /** CSS pixels. */
  size: number;
  label: string;
}

/**
 * The wheel, drawn on a canvas (sharp on high-density screens): slice 0 starts at the top and the
 * slices follow clockwise; the pointer is at the top. Drawing is imperative (`draw`) so the spin
 * animation does not re-render React 60 times a second.
 */
export const WheelCanvas = forwardRef<WheelHandle, Props>(function WheelCanvas({ slices, size, label }, ref) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const state = useRef<{ rotation: number; winner: number | null }>({ rotation: 0, winner: null });

  const paint = useCallback(() => {
    const element = canvas.current;
    const ctx = element?.getContext('2d');
    if (!element || !ctx || slices.length === 0) return;
    const ratio = window.devicePixelRatio || 1;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, size, size);
    const centre = size / 2;
    const radius = centre - 6;
    const segment = (Math.PI * 2) / slices.length;
    const { rotation, winner } = state.current;
    ctx.save();
    ctx.translate(centre, centre);
    ctx.rotate((rotation * Math.PI) / 180);
    slices.forEach((slice, i) => {
      const start = -Math.PI / 2 + i * segment;
      ctx.beginPath();
      ctx.moveTo(0, 0);
      ctx.arc(0, 0, radius, start, start + segment);
      ctx.closePath();
      ctx.fillStyle = slice.bgColor;
      ctx.fill();
      ctx.lineWidth = 2;
      ctx.strokeStyle = 'rgba(0, 0, 0, 0.25)';
      ctx.stroke();
      ctx.save();
      ctx.rotate(start + segment / 2);
      ctx.fillStyle = slice.textColor;
      ctx.font = `700 ${Math.round(size / 19)}px 'Noto Sans Thai', 'Noto Sans Lao', system-ui, sans-serif`;
      ctx.textAlign = 'right';
      ctx.textBaseline = 'middle';
      ctx.fillText(slice.label, radius - size / 22, 0, radius * 0.6);
      ctx.restore();
      if (winner !== null && winner !== i) {
        ctx.beginPath();
        ctx.moveTo(0, 0);
        ctx.arc(0, 0, radius, start, start + segment);
        ctx.closePath();
        ctx.fillStyle = 'rgba(8, 6, 24, 0.6)';
        ctx.fill();
      }
    });
    ctx.restore();
    // Rim.
    ctx.beginPath();
    ctx.arc(centre, centre, radius + 2, 0, Math.PI * 2);
    ctx.lineWidth = 6;
    ctx.strokeStyle = '#f5c451';
    ctx.stroke();
  }, [slices, size]);

  useImperativeHandle(ref, () => ({
    draw(rotation, winner) {
      state.current = { rotation, winner };
      paint();
    },
  }), [paint]);

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const ratio = window.devicePixelRatio || 1;
    element.width = Math.round(size * ratio);
    element.height = Math.round(size * ratio);
    paint();
  }, [size, paint]);

  return <canvas ref={canvas} className="wheel-canvas" style={{ width: size, height: size }} role="img" aria-label={label} data-testid="wheel-canvas" />;
});
