// Renders the app's icons (the wallet mark of Logo.tsx) into apps/web/public/icons/ as PNG: the
// home-screen icons of the web app manifest (192 and 512, and a maskable 512 whose mark sits in the
// safe circle) and the Apple touch icon. The PNGs are committed; run this again only when the mark
// changes. Uses sharp (a dependency of the server, already installed): no network.
// Usage: node apps/web/scripts/make-icons.mjs
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');
mkdirSync(out, { recursive: true });

const gradient = '<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ffe08a"/><stop offset="1" stop-color="#e9a91c"/></linearGradient></defs>';
const mark = '<path d="M14 22a6 6 0 0 1 6-6h22a4 4 0 0 1 4 4v2H20a2 2 0 0 0 0 4h28a4 4 0 0 1 4 4v16a6 6 0 0 1-6 6H20a6 6 0 0 1-6-6z" fill="url(#g)"/><circle cx="42" cy="37" r="4" fill="#221b57"/>';

/** The tile as Logo.tsx draws it: rounded, transparent corners. */
const tile = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${gradient}<rect width="64" height="64" rx="14" fill="#221b57"/><rect x="1" y="1" width="62" height="62" rx="13" fill="none" stroke="rgba(255,224,138,.35)" stroke-width="2"/>${mark}</svg>`;
/** Maskable: the background fills the square (the platform cuts its own shape) and the mark keeps inside the middle 80 %. */
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${gradient}<rect width="64" height="64" fill="#221b57"/><g transform="translate(9.6 9.6) scale(0.7)">${mark}</g></svg>`;
/** Apple draws its own rounded corners over a full square. */
const square = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${gradient}<rect width="64" height="64" fill="#221b57"/><g transform="translate(4.8 4.8) scale(0.85)">${mark}</g></svg>`;

const render = (svg, size, file) => sharp(Buffer.from(svg), { density: Math.ceil((72 * size) / 64) }).resize(size, size).png({ compressionLevel: 9 }).toFile(join(out, file));

await render(tile, 192, 'icon-192.png');
await render(tile, 512, 'icon-512.png');
await render(maskable, 512, 'icon-maskable-512.png');
await render(square, 180, 'apple-touch-icon.png');
console.log(`icons written to ${out}`);
