/**
 * The dependency rule of the codebase (docs/layout.md): contracts live in ports.ts or core/,
 * adapters implement them, and use cases reach adapters only through the container and the
 * engines. A module that imports across that line fails here with the offending import.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..', 'functions');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|require\(|import\()\s*'([^']+)'/g)].map((m) => m[1]).filter((s) => s.startsWith('.'));
}

function resolved(file: string, spec: string): string {
  return relative(ROOT, join(file, '..', spec)).replace(/\\/g, '/');
}

const offenders = (files: string[], forbidden: RegExp) =>
  files.flatMap((file) => imports(file)
    .map((spec) => resolved(file, spec))
    .filter((target) => forbidden.test(target))
    .map((target) => `${relative(ROOT, file)} → ${target}`));

test('ports.ts and core/ never import adapters, engines or the container', () => {
  const files = [join(ROOT, 'ports.ts'), ...sources(join(ROOT, 'core'))];
  expect(offenders(files, /^(adapters|engines|container|app|api|tasks|http|local)\b/)).toEqual([]);
});

test('use cases, routes and tasks reach adapters only through the container or the engines', () => {
  const files = ['app', 'api', 'tasks', 'http'].flatMap((dir) => sources(join(ROOT, dir)));
  expect(offenders(files, /^adapters\//)).toEqual([]);
});
