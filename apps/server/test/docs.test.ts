import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
const read = (path: string) => readFileSync(resolve(root, path), 'utf8');

/** Relative links of a Markdown file: `[text](path#anchor)`, not http(s) or mailto. */
function links(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '').filter((href) => !/^(https?:|mailto:|#)/.test(href));
}

/** The README is a front page; the manual lives in docs/ (issue 35). */
describe('the README and the manual', () => {
  it('keeps the README a front page: under 250 lines, the two commands, every docs/ page linked', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThan(250);
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm test');
    const pages = readdirSync(resolve(root, 'docs')).filter((f) => f.endsWith('.md'));
    expect(pages.filter((page) => !readme.includes(`](docs/${page})`))).toEqual([]);
  });

  it('has no relative link to a file that is not there, in the README and every docs/ page', () => {
    const files = ['README.md', ...readdirSync(resolve(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const broken: string[] = [];
    for (const file of files) {
      for (const href of links(read(file))) {
        const target = resolve(root, dirname(file), href.split('#')[0] ?? '');
        if (!existsSync(target)) broken.push(`${file}: ${href}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
