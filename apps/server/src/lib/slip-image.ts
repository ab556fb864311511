// Transfer-slip images for the sandbox bank: a PNG that looks like a Thai bank app's slip (bank
// header, sender, receiver, amount, reference) with the slip-verify mini-QR small in the bottom
// right corner, as real slips print it. Drawn as SVG and rasterised by sharp (librsvg + pango).
//
// Text uses the fonts the machine has (Liberation Sans / DejaVu Sans / any sans-serif). When no
// font renders at all, every text is drawn as a grey bar of about its size instead, so the slip
// still has its layout and its QR. Thai script needs a Thai font (none on the reference machine),
// else pango draws placeholder boxes for it. Every slip says it is a sandbox slip.
import sharp from 'sharp';
import { qrMatrix, qrPathData } from './qr-svg';

/** What a slip shows. */
export interface SlipImageInput {
  /** Our bank code (`KBANK`, `SCB`, ...): picks the colour and the name in the header. */
  bankCode: string;
  fromName: string;
  /** As the bank prints it, e.g. `xxx-x-x1234-x`. */
  fromAccountMasked: string;
  toName: string;
  toAccountMasked: string;
  /** The receiving bank (its name and colour beside the receiver); the sending bank's when absent. */
  toBankCode?: string;
  /** THB unless told (BCEL transfers are in LAK). */
  currency?: 'THB' | 'LAK';
  /** Baht as a decimal string (`1500`, `1500.5`, `1500.00`); shown with thousands separators. */
  amount: string;
  at: Date;
  transRef: string;
  /** What the mini-QR encodes: the slip-verify payload (`buildSlipPayload`). */
  payload: string;
}

/** Options for `renderSlipImage`. */
export interface SlipImageOptions {
  /** Width in pixels, an integer 240-2400 (default 720); the height is 25/18 of it. */
  width?: number;
}

interface BankStyle {
  name: string;
  colour: string;
}

const BANKS: Readonly<Record<string, BankStyle>> = {
  KBANK: { name: 'KASIKORNBANK', colour: '#138f2d' },
  SCB: { name: 'SCB', colour: '#4e2e7f' },
  KTB: { name: 'Krungthai', colour: '#1ba5e1' },
  BBL: { name: 'Bangkok Bank', colour: '#1e4598' },
  TMB: { name: 'ttb', colour: '#0a3a8c' },
  BAY: { name: 'Krungsri', colour: '#6b5b4b' },
  GSB: { name: 'GSB', colour: '#eb198d' },
  CIMB: { name: 'CIMB THAI', colour: '#7e2f36' },
  UOB: { name: 'UOB', colour: '#0b3979' },
  BAAC: { name: 'BAAC', colour: '#4b9b1d' },
  KKP: { name: 'KKP', colour: '#5b4b9b' },
  BCEL: { name: 'BCEL One', colour: '#c8102e' },
};

/** Layout units: the slip is drawn 720 wide and 1000 high, then scaled to the requested width. */
const DESIGN_WIDTH = 720;
const DESIGN_HEIGHT = 1000;
const FONT = "'Liberation Sans', 'DejaVu Sans', Arial, Helvetica, sans-serif";
const MONO = "'Liberation Mono', 'DejaVu Sans Mono', monospace";

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c);

const clip = (text: string, max: number) => {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
};

/** `1500` -> `1,500.00`, `1234567.5` -> `1,234,567.50`; anything else is shown as given. */
function formatAmount(amount: string): string {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!match) return amount;
  const whole = (match[1] ?? '0').replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${whole}.${(match[2] ?? '').padEnd(2, '0')}`;
}

const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Asia/Bangkok',
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

let fontsChecked: Promise<boolean> | undefined;

/**
 * Whether pango renders real glyphs here: a run of `i` must come out much narrower than a run of
 * `M`. With no font at all, both come out empty or as equal placeholder boxes.
 */
function fontsRender(): Promise<boolean> {
  fontsChecked ??= (async () => {
    try {
      const width = async (text: string) => (await sharp({ text: { text, font: 'sans 24', dpi: 72 } }).png().toBuffer({ resolveWithObject: true })).info.width;
      const [narrow, wide] = await Promise.all([width('iiiiiiiiii'), width('MMMMMMMMMM')]);
      return narrow > 0 && wide > narrow * 1.8;
    } catch {
      return false;
    }
  })();
  return fontsChecked;
}

interface TextStyle {
  size: number;
  colour?: string;
  weight?: 'bold' | 'normal';
  anchor?: 'start' | 'middle' | 'end';
  mono?: boolean;
}

/** Draws text, or a bar of about its size when no font renders. */
function textDrawer(withFonts: boolean) {
  return (x: number, y: number, content: string, style: TextStyle): string => {
    const colour = style.colour ?? '#1f2328';
    if (!withFonts) {
      const width = Array.from(content).length * style.size * (style.mono ? 0.6 : 0.55);
      const left = style.anchor === 'middle' ? x - width / 2 : style.anchor === 'end' ? x - width : x;
      const height = style.size * 0.7;
      return `<rect x="${left.toFixed(1)}" y="${(y - height).toFixed(1)}" width="${width.toFixed(1)}" height="${height.toFixed(1)}" rx="${(height / 3).toFixed(1)}" fill="${colour}" opacity="0.55"/>`;
    }
    return (
      `<text x="${x}" y="${y}" font-family="${style.mono ? MONO : FONT}" font-size="${style.size}" fill="${colour}"` +
      `${style.weight === 'bold' ? ' font-weight="bold"' : ''}${style.anchor && style.anchor !== 'start' ? ` text-anchor="${style.anchor}"` : ''}>` +
      `${escapeXml(content)}</text>`
    );
  };
}

/** The QR's dark modules as one path, in pixels: integer module size and origin keep every edge crisp. */
function qrPath(payload: string, left: number, top: number, module: number): string {
  return `<path fill="#000" d="${qrPathData(qrMatrix(payload), left, top, module)}"/>`;
}

/**
 * Renders a transfer slip as a PNG: `width` × round(`width` × 25/18) pixels, white, with the
 * slip-verify QR of `payload` in the bottom right corner, about a quarter of the slip wide. The
 * same input always gives the same bytes on the same machine. Throws RangeError on a bad width
 * or a payload too long for a QR code.
 */
export async function renderSlipImage(slip: SlipImageInput, options: SlipImageOptions = {}): Promise<Buffer> {
  const width = options.width ?? DESIGN_WIDTH;
  if (!Number.isInteger(width) || width < 240 || width > 2400) throw new RangeError(`width must be an integer 240-2400, got ${width}`);
  const scale = width / DESIGN_WIDTH;
  const height = Math.round(DESIGN_HEIGHT * scale);
  const bank = BANKS[slip.bankCode] ?? { name: slip.bankCode, colour: '#3d4b5c' };
  const withFonts = await fontsRender();
  const text = textDrawer(withFonts);
  const initial = escapeXml(Array.from(bank.name)[0] ?? '?');

  // The QR, in pixels: a quarter of the width, bottom right, on a white card.
  const modules = qrMatrix(slip.payload).length;
  const module = Math.max(2, Math.floor((width * 0.25) / modules));
  const qrSide = modules * module;
  const qrLeft = Math.round(width - 48 * scale - qrSide);
  const qrTop = Math.round(600 * scale);
  const pad = Math.max(2, module * 2);

  const toBank = slip.toBankCode ? (BANKS[slip.toBankCode] ?? { name: slip.toBankCode, colour: '#3d4b5c' }) : bank;
  const party = (y: number, label: string, name: string, account: string, style: BankStyle) =>
    `<circle cx="70" cy="${y + 45}" r="32" fill="${style.colour}" opacity="0.9"/>` +
    (withFonts
      ? `<text x="70" y="${y + 56}" font-family="${FONT}" font-size="30" font-weight="bold" fill="#fff" text-anchor="middle">${escapeXml(Array.from(style.name)[0] ?? '?')}</text>`
      : '') +
    text(120, y + 20, label, { size: 20, colour: '#6e7781' }) +
    text(120, y + 53, clip(name, 30), { size: 26, weight: 'bold' }) +
    text(120, y + 83, `${style.name}  ${clip(account, 24)}`, { size: 22, colour: '#57606a' });
  const unit = slip.currency ?? 'THB';

  const design =
    // Background and a light decoration, kept away from the QR.
    `<rect width="${DESIGN_WIDTH}" height="${DESIGN_HEIGHT}" fill="#fff"/>` +
    `<circle cx="650" cy="330" r="190" fill="${bank.colour}" opacity="0.05"/>` +
    `<circle cx="40" cy="900" r="140" fill="${bank.colour}" opacity="0.04"/>` +
    // Header band.
    `<rect width="${DESIGN_WIDTH}" height="120" fill="${bank.colour}"/>` +
    `<circle cx="66" cy="60" r="36" fill="#fff"/>` +
    (withFonts
      ? `<text x="66" y="73" font-family="${FONT}" font-size="36" font-weight="bold" fill="${bank.colour}" text-anchor="middle">${initial}</text>`
      : `<circle cx="66" cy="60" r="18" fill="${bank.colour}"/>`) +
    text(122, 70, bank.name, { size: 32, weight: 'bold', colour: '#fff' }) +
    text(674, 70, 'SANDBOX', { size: 20, weight: 'bold', colour: '#fff', anchor: 'end' }) +
    // Status and time.
    `<circle cx="66" cy="184" r="24" fill="#1a9e4b"/>` +
    `<path d="M54 185 l8 9 l16 -18" stroke="#fff" stroke-width="5" fill="none" stroke-linecap="round" stroke-linejoin="round"/>` +
    text(106, 194, 'Transfer successful', { size: 30, weight: 'bold', colour: '#1a9e4b' }) +
    text(106, 230, DATE_FORMAT.format(slip.at), { size: 22, colour: '#57606a' }) +
    `<line x1="36" y1="262" x2="684" y2="262" stroke="#d0d7de" stroke-width="2"/>` +
    // Sender, arrow, receiver.
    party(280, 'From', slip.fromName, slip.fromAccountMasked, bank) +
    `<path d="M70 392 v34 m-12 -12 l12 12 l12 -12" stroke="#8c959f" stroke-width="4" fill="none" stroke-linecap="round"/>` +
    party(430, 'To', slip.toName, slip.toAccountMasked, toBank) +
    `<line x1="36" y1="568" x2="684" y2="568" stroke="#d0d7de" stroke-width="2"/>` +
    // Reference and amount on the left, the QR on the right.
    text(40, 612, 'Transaction ref.', { size: 20, colour: '#6e7781' }) +
    text(40, 644, clip(slip.transRef, 32), { size: 22, mono: true }) +
    text(40, 702, 'Amount', { size: 20, colour: '#6e7781' }) +
    text(40, 750, `${formatAmount(slip.amount)} ${unit}`, { size: 42, weight: 'bold' }) +
    text(40, 802, 'Fee', { size: 20, colour: '#6e7781' }) +
    text(40, 834, `0.00 ${unit}`, { size: 22 }) +
    text(40, 960, 'Sandbox slip - not a bank document', { size: 18, colour: '#8c959f' });

  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<g transform="scale(${scale})">${design}</g>` +
    `<rect x="${qrLeft - pad}" y="${qrTop - pad}" width="${qrSide + 2 * pad}" height="${qrSide + 2 * pad}" fill="#fff"/>` +
    `<g shape-rendering="crispEdges">${qrPath(slip.payload, qrLeft, qrTop, module)}</g>` +
    `<g transform="scale(${scale})">${text((qrLeft + qrSide / 2) / scale, (qrTop + qrSide + pad) / scale + 26, 'Scan to verify', { size: 18, colour: '#6e7781', anchor: 'middle' })}</g>` +
    `</svg>`;

  return sharp(Buffer.from(svg), { density: 72 }).flatten({ background: '#ffffff' }).png({ compressionLevel: 9 }).toBuffer();
}
