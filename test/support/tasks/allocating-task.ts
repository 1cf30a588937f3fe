/** A task that keeps `mb` megabytes of heap reachable until it returns: a Lambda that needs that much memory. */
export const handler = async (payload: { mb: number }): Promise<number> => {
  const held: number[][] = [];
  // 131,072 doubles: 1 MB each.
  for (let i = 0; i < payload.mb; i++) held.push(new Array<number>(131_072).fill(i + 0.5));
  return held.length;
};
