import { endpoint } from '../../http/endpoint';

export const handler = endpoint('GET /health', {}, async () => ({ body: { status: 'ok' } }));
