import { ValidationError } from '../../core/errors';

/** DynamoDB's LastEvaluatedKey as an opaque URL-safe cursor, and back (400 on a forged one). */
export const encodeCursor = (key: Record<string, unknown> | undefined): string | null =>
  (key ? Buffer.from(JSON.stringify(key)).toString('base64url') : null);

export function decodeCursor(cursor: string | null | undefined, expectedKeys: string[]): Record<string, unknown> | undefined {
  if (!cursor) return undefined;
  try {
    const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (key && typeof key === 'object' && expectedKeys.every((k) => typeof key[k] === 'string') && Object.keys(key).length === expectedKeys.length) return key;
  } catch {
    // falls through to the error below
  }
  throw new ValidationError('invalid cursor: pass the next_cursor of a previous page');
}
