#!/usr/bin/env node
// `npm run typecheck`: the compiler over every project, two at a time (the machine has two cores;
// one after another took ~50 s). Each project's errors are printed whole once it ends; the exit
// code is 1 when any project has errors.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const projects = ['packages/contract', 'apps/server', 'apps/web', 'apps/web/admin', 'apps/sandbox', 'e2e'];
const tsc = process.platform === 'win32' ? 'node_modules/.bin/tsc.cmd' : 'node_modules/.bin/tsc';
const parallel = Math.max(1, Math.min(2, availableParallelism()));

function check(project) {
  return new Promise((resolve) => {
    const child = spawn(tsc, ['-p', project, '--pretty', 'false'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('close', (code) => {
      if (out) process.stdout.write(out);
      if (code !== 0) console.error(`typecheck: ${project} failed`);
      resolve(code === 0);
    });
  });
}

const queue = [...projects];
let ok = true;
await Promise.all(
  Array.from({ length: parallel }, async () => {
    for (let project = queue.shift(); project; project = queue.shift()) ok = (await check(project)) && ok;
  }),
);
process.exit(ok ? 0 : 1);
