/** KEY routes: the internal API key in `X-API-Key`, compared in constant time. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { ForbiddenError, ProviderNotConfiguredError, UnauthorizedError } from '../../core/errors';
import type { Authenticator } from '.';

const digest = (value: string) => createHash('sha256').update(value).digest();

export const keyAuth: Authenticator<'KEY'> = {
  authClass: 'KEY',
  async verify(headers, _rawBody, container) {
    const given = headers['x-api-key'];
    if (!given) throw new UnauthorizedError('missing X-API-Key header');
    const expected = await container.secrets.apiKey();
    if (!expected) throw new ProviderNotConfiguredError('the internal API key is not configured (API_KEY)');
    // Equal-length digests keep the comparison constant-time whatever the key lengths.
    if (!timingSafeEqual(digest(given), digest(expected))) throw new ForbiddenError('invalid API key');
    return { kind: 'key' };
  },
};
