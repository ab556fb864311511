import type DOMPurify from 'dompurify';
import type * as QrEncoder from 'qrcode';
import { Suspense, use, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../shared/ui/Spinner';

// The QR encoder loads with the first QR shown, not with the deposit modal (so does the sanitiser
// of the rare answer without a payload).
let encoder: Promise<typeof QrEncoder> | null = null;
const loadEncoder = () => (encoder ??= import('qrcode'));
let sanitiser: Promise<{ default: typeof DOMPurify }> | null = null;
const loadSanitiser = () => (sanitiser ??= import('dompurify'));

/** The dark modules of a QR matrix as one SVG path, one unit square per module. */
function modulesPath(size: number, dark: (row: number, col: number) => boolean): string {
  let path = '';
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      if (!dark(row, col)) continue;
      // Runs of dark modules on a row become one rectangle.
      let end = col;
      while (end + 1 < size && dark(row, end + 1)) end++;
      path += `M${col} ${row}h${end - col + 1}v1h-${end - col + 1}z`;
      col = end;
    }
  }
  return path;
}

const QUIET_ZONE = 4;

function PayloadQr({ payload, label }: { payload: string; label: string }) {
  const { create } = use(loadEncoder());
  const symbol = useMemo(() => {
    const { modules } = create(payload, { errorCorrectionLevel: 'M' });
    return { size: modules.size, path: modulesPath(modules.size, (row, col) => modules.get(row, col) === 1) };
  }, [create, payload]);
  const box = symbol.size + QUIET_ZONE * 2;
  return (
    <svg className="qr-svg" viewBox={`${-QUIET_ZONE} ${-QUIET_ZONE} ${box} ${box}`} role="img" aria-label={label} shapeRendering="crispEdges" data-testid="qr-image">
      <rect x={-QUIET_ZONE} y={-QUIET_ZONE} width={box} height={box} fill="#fff" />
      <path d={symbol.path} fill="#000" />
    </svg>
  );
}

/** The server's own QR markup, only when it sent no payload: sanitised (SVG profile) before use. */
function MarkupQr({ markup, label }: { markup: string; label: string }) {
  const { default: purify } = use(loadSanitiser());
  const clean = useMemo(() => purify.sanitize(markup, { USE_PROFILES: { svg: true } }), [purify, markup]);
  return <div className="qr-svg qr-markup" role="img" aria-label={label} data-testid="qr-image" dangerouslySetInnerHTML={{ __html: clean }} />;
}

function Drawing(): ReactNode {
  const { t } = useTranslation();
  return (
    <div className="qr-svg qr-loading" role="status">
      <Spinner />
      <span className="visually-hidden">{t('deposit.qr.drawing')}</span>
    </div>
  );
}

/**
 * The QR of a deposit, drawn in the browser from its EMVCo payload (the server's SVG markup is
 * the fallback). `label` is its accessible name.
 */
export function QrImage({ payload, markup, label }: { payload: string | null | undefined; markup: string | null; label: string }) {
  if (!payload && !markup) return null;
  return (
    <Suspense fallback={<Drawing />}>
      {payload ? <PayloadQr payload={payload} label={label} /> : markup && <MarkupQr markup={markup} label={label} />}
    </Suspense>
  );
}
