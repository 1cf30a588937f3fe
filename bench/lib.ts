/** Small helpers shared by the benchmarks: statistics, formatting and plain-text tables. */
import { cpus, platform, arch, totalmem } from 'node:os';
import { join } from 'node:path';

/** Repository root (bench/ lives directly under it). */
export const ROOT = join(__dirname, '..');

/** Nearest-rank percentile, p in [0, 100]. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export const median = (values: readonly number[]): number => percentile(values, 50);

export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return '-';
  return value < 10 ? `${value.toFixed(2)} ms` : `${value.toFixed(1)} ms`;
}

/** Latency as autocannon records it (whole milliseconds); 0 means under one millisecond. */
export function wholeMs(value: number): string {
  if (!Number.isFinite(value)) return '-';
  return value < 1 ? '<1 ms' : `${Math.round(value)} ms`;
}

export function int(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '-';
}

/** Prints rows under a header; columns after the first are right-aligned (they hold figures). */
export function printTable(header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

export function heading(title: string): void {
  console.log(`\n== ${title} ${'='.repeat(Math.max(0, 70 - title.length))}`);
}

export interface Machine {
  cpu: string;
  cores: number;
  node: string;
  os: string;
  memory: string;
}

export function machine(): Machine {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    node: process.version,
    os: `${platform()} ${arch()}`,
    memory: `${(totalmem() / 1024 ** 3).toFixed(1)} GB`,
  };
}

export function describeMachine(m: Machine = machine()): string {
  return `${m.cpu}, ${m.cores} cores, ${m.memory} RAM, node ${m.node}, ${m.os}`;
}

/** Entry-point guard that works under tsx (CommonJS). */
export function isMain(mod: NodeModule): boolean {
  return require.main === mod;
}

/** The value after `--name` on the command line. */
export function argValue(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/**
 * Entry point of a bench file run directly: with `--child` it measures in this process and
 * prints one `marker`-prefixed JSON line for its parent; otherwise it runs the whole section.
 */
export function runBenchEntry<T>(marker: string, child: () => Promise<T>, parent: () => Promise<unknown>): void {
  const isChild = process.argv.includes('--child');
  const main = isChild
    // Exit only once the line is written: a large line to a pipe is cut short by an early exit.
    ? child().then((figure) => new Promise<void>((resolve) => { process.stdout.write(`${marker}${JSON.stringify(figure)}\n`, () => resolve()); }))
    : (console.log(`machine: ${describeMachine()}`), parent());
  main.then(
    () => { if (isChild) process.exit(0); },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
