import * as z from 'zod/mini';
import { endpoint } from '../../http/endpoint';

export const handler = endpoint('GET /health', { response: z.object({ status: z.literal('ok') }) }, async () => ({ body: { status: 'ok' } }));
