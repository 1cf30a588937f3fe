/**
 * The contract a dashboard team generates a client from (issue 37): docs/openapi.json names its
 * shared objects once (components.schemas, from zod metadata ids) and stays small, and a client
 * generated from it with a maintained generator (openapi-typescript, called through
 * openapi-fetch) typechecks a dashboard-like script: list products, read the visibility report,
 * poll onboarding, connect a domain. A script that misreads a field fails to typecheck.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { OPENAPI_FILE } from '../../functions/local/runtime/openapi-document';

const DASHBOARD = join(__dirname, '..', 'fixtures', 'dashboard-client', 'dashboard.ts');
const NODE_MODULES = join(__dirname, '..', '..', 'node_modules');
// Its package exports hide the CLI from require.resolve.
const GENERATOR = join(NODE_MODULES, 'openapi-typescript', 'bin', 'cli.js');
const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as { components: { schemas: Record<string, unknown> }; paths: unknown };

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dashboard-client-'));
  execFileSync(process.execPath, [GENERATOR, OPENAPI_FILE, '--output', join(dir, 'api.d.ts')], { stdio: 'pipe' });
  copyFileSync(DASHBOARD, join(dir, 'dashboard.ts'));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** tsc's diagnostics for one file of `dir` (strict, resolving openapi-fetch from this project). */
function typeErrors(file: string): string[] {
  const program = ts.createProgram([join(dir, file)], {
    strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true, typeRoots: [join(NODE_MODULES, '@types')], baseUrl: dir,
    paths: { 'openapi-fetch': [join(NODE_MODULES, 'openapi-fetch')] },
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

test('the shared objects are named components, referenced where used, in under 300 KB', () => {
  const names = Object.keys(document.components.schemas);
  expect(names.length).toBeGreaterThanOrEqual(20);
  expect(names).toEqual(expect.arrayContaining([
    'Product', 'Prompt', 'Article', 'Competitor', 'CompetitorDetail', 'ProxyInfo', 'VisibilityReport', 'VisibilityCheck', 'ScoreHistoryEntry',
    'Visit', 'OnboardingStatus', 'DailyExecution', 'DailyRun', 'ProductFunnel', 'WorkflowRunning', 'Error',
  ]));
  const text = JSON.stringify(document.paths);
  // The report the dashboard reads and the one the 2b routes answer are one type.
  expect(text.split('"#/components/schemas/VisibilityReport"').length - 1).toBeGreaterThanOrEqual(2);
  expect(statSync(OPENAPI_FILE).size).toBeLessThan(300_000);
});

test('a client generated with openapi-typescript typechecks the dashboard script', () => {
  expect(readFileSync(join(dir, 'api.d.ts'), 'utf8')).toMatch(/Product: \{/);
  expect(typeErrors('dashboard.ts')).toEqual([]);
}, 60_000);

test('and refuses one that misreads the contract (a field that does not exist, a wrong step status)', () => {
  const script = readFileSync(join(dir, 'dashboard.ts'), 'utf8')
    .replace('p.citation_count', 'p.citations_count')
    .replace("if (data.status !== 'running')", "if (data.status !== 'in_progress')");
  writeFileSync(join(dir, 'misread.ts'), script);
  const errors = typeErrors('misread.ts');
  expect(errors).toEqual(expect.arrayContaining([
    expect.stringMatching(/citations_count/),
    expect.stringMatching(/in_progress/),
  ]));
}, 60_000);
