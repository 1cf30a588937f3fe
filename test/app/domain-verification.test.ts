/**
 * One verification attempt (app/domain/verification.ts) against the local webmaster console
 * (Site Verification API wire format): the polls' stopping rule (D18) from every state the
 * domain-connect workflow can poll from, a reconnect from FAILED included.
 */
import { checkVerification } from '../../functions/app/domain/verification';
import { getContainer } from '../../functions/container';
import { startWebmasterFake, type WebmasterFake } from '../../functions/local/fakes/webmaster';
import { startTestStack, type TestStack } from '../support/stack';
import { searchNotifyEnginesOf } from '../../functions/engines/search-notify';

const ZONE = 'verify.test';
let published: string[] = [];
let webmaster: WebmasterFake;
let stack: TestStack;

beforeAll(async () => {
  webmaster = await startWebmasterFake({ lookupTxt: async () => published });
  stack = await startTestStack({ LOG_LEVEL: 'warn', WEBMASTER_API_URL: webmaster.apiUrl, WEBMASTER_CREDENTIALS: webmaster.serviceAccountJson });
  const created = await stack.call('POST', '/api/business', { token: await stack.token('verifyco'), body: { name: 'Verify Co', url: 'https://example.com' } });
  expect(created.status).toBe(201);
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await webmaster?.close();
});

async function given(status: 'PENDING' | 'FAILED'): Promise<string> {
  const container = getContainer();
  const answer = await searchNotifyEnginesOf(container).webmaster.requestVerificationToken(ZONE);
  if (answer.status !== 'token') throw new Error(answer.reason);
  const business = await container.businesses.get('verifyco');
  await container.aiSites.patch('verifyco', business!.id, { nakedDomain: ZONE, googleVerificationToken: answer.token, googleVerificationStatus: status, webmasterVerified: false });
  return answer.token;
}

const check = (attempt?: number) => checkVerification(getContainer(), searchNotifyEnginesOf(getContainer()).webmaster, 'verifyco', attempt);

test('PENDING: polls 1-11 go on, the 12th failure sets FAILED and stops', async () => {
  published = [];
  await given('PENDING');
  expect(await check(1)).toMatchObject({ google_verification_status: 'PENDING', verified: false, done: false });
  expect(await check(11)).toMatchObject({ google_verification_status: 'PENDING', done: false });
  expect(await check(12)).toMatchObject({ google_verification_status: 'FAILED', done: true, reason: expect.stringContaining('token could not be found') });
});

test('FAILED (a reconnect): the polls go on until the 12th, then stop', async () => {
  published = [];
  await given('FAILED');
  expect(await check(1)).toMatchObject({ google_verification_status: 'FAILED', verified: false, done: false });
  expect(await check(12)).toMatchObject({ google_verification_status: 'FAILED', done: true });
});

test('verified on a poll: VERIFIED, the property and its site URL recorded; further checks ask nothing', async () => {
  const token = await given('FAILED');
  published = [token];
  expect(await check(3)).toEqual({ google_verification_status: 'VERIFIED', verified: true, done: true, site_url: `sc-domain:${ZONE}` });
  expect(await getContainer().aiSites.get('verifyco')).toMatchObject({ googleVerificationStatus: 'VERIFIED', webmasterVerified: true, webmasterSiteUrl: `sc-domain:${ZONE}` });
  const calls = webmaster.requests.length;
  expect(await check(4)).toMatchObject({ google_verification_status: 'VERIFIED', done: true });
  expect(webmaster.requests.length).toBe(calls);
});
