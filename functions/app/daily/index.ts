/** The daily use cases other app folders may use: this folder's public face. */
export { failingInto, holdDay } from './business-run';
export type { BusinessTaskInput, SkippedDailyStep } from './business-run';
