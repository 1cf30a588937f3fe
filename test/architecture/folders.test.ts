/**
 * The folder rules of docs/layout.md (issue 27): app/ is grouped by capability, each folder
 * reached by the others only through its public face (index.ts); local/ keeps what runs in
 * production shape (runtime/) apart from what imitates the outside world (fakes/, demo-store/);
 * and a file's name never repeats a folder's name as a prefix.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const FUNCTIONS = join(ROOT, 'functions');
const APP = join(FUNCTIONS, 'app');
const LOCAL = join(FUNCTIONS, 'local');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import of a file, resolved to the file it loads (`values`: not `import type`, which loads nothing). */
function importsOf(file: string, only: 'all' | 'values' = 'all'): string[] {
  let text = readFileSync(file, 'utf8');
  if (only === 'values') text = text.replace(/^import type [^;]+;$/gm, '');
  return [...text.matchAll(/(?:from|require\(|import\()\s*'(\.{1,2}\/[^']+)'/g)].flatMap(([, spec]) => {
    const base = join(dirname(file), spec);
    const found = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
    return found ? [found] : [];
  });
}

/** Every folder under `dir`, nested ones too. */
const folders = (dir: string): string[] => readdirSync(dir)
  .filter((name) => statSync(join(dir, name)).isDirectory())
  .flatMap((name) => [name, ...folders(join(dir, name))]);
const rel = (path: string) => relative(ROOT, path);

test('no file in app/ or local/ carries a prefix that names one of its tree\'s folders', () => {
  const offenders = [APP, LOCAL].flatMap((tree) => {
    const names = folders(tree).flatMap((f) => [f, f.replace(/s$/, '')]);
    return sources(tree).filter((file) => names.some((n) => basename(file).startsWith(`${n}-`)));
  });
  expect(offenders.map(rel)).toEqual([]);
});

test('app folders import each other only through their public face (index.ts)', () => {
  const folderOf = (file: string) => relative(APP, file).split('/').slice(0, -1)[0] ?? null;
  const offenders = sources(APP).flatMap((file) => importsOf(file)
    .filter((target) => target.startsWith(`${APP}/`) && folderOf(target) !== null && folderOf(target) !== folderOf(file))
    .filter((target) => basename(target) !== 'index.ts' || dirname(target) !== join(APP, folderOf(target)!))
    .map((target) => `${rel(file)} → ${rel(target)}`));
  expect(offenders).toEqual([]);
});

test('code that runs on AWS never imports the local runtime, its fakes or the demo store', () => {
  const deployed = [...sources(FUNCTIONS).filter((f) => !f.startsWith(`${LOCAL}/`)), ...sources(join(ROOT, 'lib')), ...sources(join(ROOT, 'edge-function'))];
  const offenders = deployed.flatMap((file) => importsOf(file).filter((t) => t.startsWith(`${LOCAL}/`)).map((t) => `${rel(file)} → ${rel(t)}`));
  expect(offenders).toEqual([]);
});

test('the local runtime reaches the fakes only where it stands them up', () => {
  // What `npm start` runs may start a fake (the dev identity provider mints the demo token);
  // nothing under fakes/ or demo-store/ may load the runtime's internals in turn (the demo's
  // onboarding names the stack's type, and the small server helpers are shared).
  const imitations = [...sources(join(LOCAL, 'fakes')), ...sources(join(LOCAL, 'demo-store'))];
  const offenders = imitations.flatMap((file) => importsOf(file, 'values')
    .filter((t) => t.startsWith(`${LOCAL}/runtime/`) && !/\/(listen|close-server|read-body)\.ts$/.test(t))
    .map((t) => `${rel(file)} → ${rel(t)}`));
  expect(offenders).toEqual([]);
});

test('a public face re-exports explicitly, never `export *` (D175)', () => {
  const faces = readdirSync(APP).map((name) => join(APP, name, 'index.ts')).filter((file) => existsSync(file));
  expect(faces.length).toBeGreaterThan(0);
  const offenders = faces.filter((file) => /^export \*/m.test(readFileSync(file, 'utf8'))).map(rel);
  expect(offenders).toEqual([]);
});
