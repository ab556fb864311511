import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ART_FILES } from '../src/providers/games/art';
import { CATALOGUE } from '../src/providers/games/catalogue';
import { startApp, type TestApp } from './helpers';

const ART_DIR = join(import.meta.dirname, '../src/providers/games/art');
const VIEWBOX = { 'logo.svg': '0 0 120 120', 'background.svg': '0 0 320 160' } as const;
const MAX_BYTES = 8 * 1024;
/** Nothing that runs, embeds or fetches: the art is self-contained vector drawing. */
const FORBIDDEN = ['<script', 'foreignObject', 'href="http', "href='http", 'url(http', '@import', '<image', '<!ENTITY', 'javascript:', '<style'];

const read = (code: string, file: string) => readFileSync(join(ART_DIR, `${code}.${file}`), 'utf8');
const cases = CATALOGUE.flatMap((game) => ART_FILES.map((file) => ({ game, file })));

interface Element {
  name: string;
  attrs: Map<string, string>;
  text: string;
}

/**
 * A small XML well-formedness check (no parser dependency): tags nest and close, attributes are
 * quoted and not repeated, text holds no bare `<` or `&`, one root element. Returns the elements.
 */
function parseXml(source: string): Element[] {
  const body = source.replace(/^\s*<\?xml[^?]*\?>/, '').replace(/<!--[\s\S]*?-->/g, '');
  const tag = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/y;
  const attr = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
  const elements: Element[] = [];
  const open: Element[] = [];
  let roots = 0;
  let at = 0;
  while (at < body.length) {
    const next = body.indexOf('<', at);
    const text = body.slice(at, next === -1 ? body.length : next);
    if (/&(?!(?:#\d+|#x[\da-fA-F]+|amp|lt|gt|quot|apos);)/.test(text)) throw new Error(`bare & in "${text.trim()}"`);
    if (open.length === 0 && text.trim() !== '') throw new Error(`text outside the root: "${text.trim()}"`);
    const parent = open.at(-1);
    if (parent) parent.text += text;
    if (next === -1) break;
    tag.lastIndex = next;
    const m = tag.exec(body);
    if (!m) throw new Error(`malformed tag at ${next}: ${body.slice(next, next + 40)}`);
    const [whole, closing, name = '', attrText = '', selfClosing] = m;
    if (closing) {
      if (attrText || selfClosing) throw new Error(`malformed closing tag ${whole}`);
      const top = open.pop();
      if (top?.name !== name) throw new Error(`</${name}> closes <${top?.name ?? 'nothing'}>`);
    } else {
      if (open.length === 0) roots += 1;
      const attrs = new Map<string, string>();
      for (const a of attrText.matchAll(attr)) {
        const key = a[1] ?? '';
        if (attrs.has(key)) throw new Error(`<${name}> repeats ${key}`);
        attrs.set(key, a[2] ?? a[3] ?? '');
      }
      const element = { name, attrs, text: '' };
      elements.push(element);
      if (!selfClosing) open.push(element);
    }
    at = next + whole.length;
  }
  if (open.length) throw new Error(`<${open.map((e) => e.name).join('>, <')}> not closed`);
  if (roots !== 1) throw new Error(`${roots} root elements`);
  return elements;
}

describe('game art files', () => {
  it('are exactly a logo and a background for each of the 16 providers', () => {
    expect(CATALOGUE).toHaveLength(16);
    const expected = cases.map(({ game, file }) => `${game.code}.${file}`).sort();
    expect(readdirSync(ART_DIR).sort()).toEqual(expected);
  });

  it.each(cases)('$game.code $file is well-formed, self-contained SVG of the right size, named after the provider', ({ game, file }) => {
    const svg = read(game.code, file);
    expect(Buffer.byteLength(svg)).toBeLessThan(MAX_BYTES);
    for (const word of FORBIDDEN) expect(svg.toLowerCase(), word).not.toContain(word.toLowerCase());

    const elements = parseXml(svg);
    const root = elements[0];
    expect(root?.name).toBe('svg');
    expect(root?.attrs.get('xmlns')).toBe('http://www.w3.org/2000/svg');
    expect(root?.attrs.get('viewBox')).toBe(VIEWBOX[file]);
    expect(elements.find((e) => e.name === 'title')?.text).toBe(game.name);

    // Every internal reference points at an id of the file, and ids are unique.
    const ids = elements.flatMap((e) => (e.attrs.has('id') ? [e.attrs.get('id')] : []));
    expect(new Set(ids).size).toBe(ids.length);
    const refs = [...svg.matchAll(/url\(#([\w-]+)\)|href="#([\w-]+)"/g)].map((m) => m[1] ?? m[2]);
    expect(refs.filter((ref) => !ids.includes(ref))).toEqual([]);
    for (const e of elements) for (const [key, value] of e.attrs) if (key.endsWith('href')) expect(value.startsWith('#'), `${key}=${value}`).toBe(true);

    // Drawn in the provider's brand colours.
    for (const colour of game.colors) expect(svg.toLowerCase()).toContain(colour.toLowerCase());
  });

  it('are all different, and so are the 16 brand colour pairs', () => {
    expect(new Set(cases.map(({ game, file }) => read(game.code, file))).size).toBe(32);
    expect(new Set(CATALOGUE.map((g) => g.colors.join(' ').toLowerCase())).size).toBe(16);
  });
});

// The art does not touch the database: the embedded one is enough.
describe('GET /media/games/:code/:file', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp('embedded');
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(cases)('serves $game.code $file from its file', async ({ game, file }) => {
    const res = await t.app.inject({ method: 'GET', url: `/media/games/${game.code}/${file}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    expect(res.body).toBe(read(game.code, file));
  });

  it('answers 404 for a code outside the catalogue, and no other file names', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/media/games/NOPE/logo.svg' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'NOT_FOUND' });
    for (const url of ['/media/games/PG/logo.png', '/media/games/PG/..%2Fcatalogue.ts', '/media/games/pg/logo.svg']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
    }
  });
});
