import { writeFileSync } from 'node:fs';

/** A task that waits `ms`, then writes `marker` (its side effect) and returns: a Lambda that runs `ms` long. */
export const handler = async (payload: { ms: number; marker: string }): Promise<string> => {
  await new Promise((resolve) => setTimeout(resolve, payload.ms));
  writeFileSync(payload.marker, 'the task ran to its end');
  return 'done';
};
