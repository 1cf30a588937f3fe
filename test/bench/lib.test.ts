import { existsSync } from 'node:fs';
import { lambdaModules } from '../../bench/bundle';
import { median, percentile, wholeMs } from '../../bench/lib';

describe('bench helpers', () => {
  it('takes nearest-rank percentiles', () => {
    const values = [5, 1, 4, 2, 3];
    expect(percentile(values, 0)).toBe(1);
    expect(median(values)).toBe(3);
    expect(percentile(values, 99)).toBe(5);
    expect(percentile([], 50)).toBeNaN();
  });

  it('prints autocannon latencies in whole milliseconds', () => {
    expect(wholeMs(0)).toBe('<1 ms');
    expect(wholeMs(12.4)).toBe('12 ms');
  });

  it('finds one existing entry file per distinct handler module', () => {
    const modules = lambdaModules();
    expect(new Set(modules.map((m) => m.module)).size).toBe(modules.length);
    for (const m of modules) expect(existsSync(m.entry)).toBe(true);
  });
});
