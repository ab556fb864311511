// QR code rendering for payment payloads: the `qrcode` package computes the symbol (error
// correction level M), and the SVG is written here from the module matrix, so the markup is small,
// deterministic and holds nothing but a background rectangle and one path.
import { create } from 'qrcode';

/** Options for `qrSvg`. */
export interface QrSvgOptions {
  /** Pixels per module in the `width`/`height` attributes: an integer 1-64, default 4. */
  moduleSize?: number;
  /** Quiet zone in modules on every side: an integer 4-64, default 4 (the QR standard's minimum). */
  margin?: number;
}

/**
 * The QR symbol for `payload` at error correction level M, as rows of modules (true = dark),
 * without any quiet zone. Throws if the payload is empty or too long for a QR code.
 */
export function qrMatrix(payload: string): boolean[][] {
  if (payload.length === 0) throw new RangeError('QR payload must not be empty');
  const { modules } = create(payload, { errorCorrectionLevel: 'M' });
  const rows: boolean[][] = [];
  for (let row = 0; row < modules.size; row++) {
    const line: boolean[] = [];
    for (let col = 0; col < modules.size; col++) line.push(modules.get(row, col) === 1);
    rows.push(line);
  }
  return rows;
}

function integerOption(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new RangeError(`${name} must be an integer ${min}-${max}, got ${value}`);
  return value;
}

/**
 * SVG path data of a QR's dark modules: one `M x y h n v m h-n z` rectangle per run of dark
 * modules in a row, each module `module` units wide, the matrix's corner at (left, top).
 */
export function qrPathData(matrix: boolean[][], left: number, top: number, module: number): string {
  const runs: string[] = [];
  matrix.forEach((line, y) => {
    let x = 0;
    while (x < line.length) {
      if (!line[x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < line.length && line[x]) x++;
      const length = (x - start) * module;
      runs.push(`M${left + start * module} ${top + y * module}h${length}v${module}h-${length}z`);
    }
  });
  return runs.join('');
}

/**
 * SVG markup of the QR code for `payload` (level M): a white background and one black `<path>`
 * made of one `M x y h n v1 h-n z` rectangle per run of dark modules in a row, in module units
 * (`viewBox`), with `shape-rendering="crispEdges"`. No scripts, styles or external references.
 */
export function qrSvg(payload: string, options: QrSvgOptions = {}): string {
  const moduleSize = integerOption('moduleSize', options.moduleSize ?? 4, 1, 64);
  const margin = integerOption('margin', options.margin ?? 4, 4, 64);
  const matrix = qrMatrix(payload);
  const side = matrix.length + 2 * margin;
  const pixels = side * moduleSize;

  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${pixels}" height="${pixels}" viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges">` +
    `<rect width="${side}" height="${side}" fill="#fff"/>` +
    `<path fill="#000" d="${qrPathData(matrix, margin, margin, 1)}"/>` +
    `</svg>`
  );
}
