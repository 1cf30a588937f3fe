import * as z from 'zod/mini';
import { endpoint } from '../../http/endpoint';
import { publicAuth } from '../../http/auth';

export const handler = endpoint('GET /health', { authenticator: publicAuth, response: z.object({ status: z.literal('ok') }) }, async () => ({ body: { status: 'ok' } }));
