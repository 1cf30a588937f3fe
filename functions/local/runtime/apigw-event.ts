/**
 * Node request → API Gateway REST (payload v1) proxy event, field for field as AWS
 * sends it: mixed-case headers as the client sent them (so handlers must normalize),
 * null rather than {} for empty maps, `resource` as the template, `path` concrete.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { parseClientAddress, UNKNOWN_CLIENT } from '../../core/net/client-address';

export interface EventInput {
  req: IncomingMessage;
  body: Buffer;
  resource: string;
  pathParameters: Record<string, string>;
  stage?: string;
}

export function toApiGatewayEvent({ req, body, resource, pathParameters, stage = 'local' }: EventInput): APIGatewayProxyEvent {
  const url = new URL(req.url ?? '/', 'http://local');
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i];
    const value = req.rawHeaders[i + 1];
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  }
  const query: Record<string, string> = {};
  const multiQuery: Record<string, string[]> = {};
  for (const [k, v] of url.searchParams) {
    query[k] = v;
    (multiQuery[k] ??= []).push(v);
  }
  const text = body.toString('utf8');
  const isText = Buffer.from(text, 'utf8').equals(body);
  const requestId = randomUUID();
  const nullIfEmpty = <T extends object>(o: T) => (Object.keys(o).length ? o : null);

  return {
    resource,
    path: url.pathname,
    httpMethod: (req.method ?? 'GET').toUpperCase(),
    headers,
    multiValueHeaders,
    queryStringParameters: nullIfEmpty(query),
    multiValueQueryStringParameters: nullIfEmpty(multiQuery),
    pathParameters: nullIfEmpty(pathParameters),
    stageVariables: null,
    body: body.length === 0 ? null : isText ? text : body.toString('base64'),
    isBase64Encoded: body.length > 0 && !isText,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      authorizer: null,
      protocol: `HTTP/${req.httpVersion}`,
      httpMethod: (req.method ?? 'GET').toUpperCase(),
      path: `/${stage}${url.pathname}`,
      stage,
      requestId,
      requestTimeEpoch: Date.now(),
      resourceId: 'local',
      resourcePath: resource,
      identity: {
        sourceIp: clientAddress(req),
        userAgent: req.headers['user-agent'] ?? null,
        accessKey: null, accountId: null, apiKey: null, apiKeyId: null, caller: null, clientCert: null,
        cognitoAuthenticationProvider: null, cognitoAuthenticationType: null, cognitoIdentityId: null,
        cognitoIdentityPoolId: null, principalOrgId: null, user: null, userArn: null,
      },
    },
  } as APIGatewayProxyEvent;
}

/**
 * Locally the first X-Forwarded-For address stands in for API Gateway's source IP. API
 * Gateway always gives a real address, so a first entry that is not one (junk, or a header
 * kilobytes long) falls back to the socket's address: a forged header can neither break
 * the request nor mint new client identities.
 */
function clientAddress(req: IncomingMessage): string {
  const forwarded = req.headers['x-forwarded-for'];
  const header = Array.isArray(forwarded) ? forwarded[0] : forwarded;
  return parseClientAddress(header?.split(',', 1)[0]) ?? parseClientAddress(req.socket.remoteAddress) ?? UNKNOWN_CLIENT;
}
