/**
 * The domain-connection workflows as files (issue 13): the DNS switch answers first, then the
 * native certificate and the verification polling run side by side, bounded by the numbers
 * the service states (D18: 12 polls; NATIVE_CERTIFICATE_MAX_LOOKS looks), with their pauses
 * read from the input (settings), and no step can fail the execution after the answer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NATIVE_CERTIFICATE_MAX_LOOKS, VERIFICATION_POLL_ATTEMPTS } from '../../functions/core/constants';
import { taskStates } from '../../functions/local/runtime/workflow-runner';
import { STATE_MACHINES_DIR } from '../../lib/paths';

const load = (name: string) => JSON.parse(readFileSync(join(STATE_MACHINES_DIR, `${name}.asl.json`), 'utf8'));

describe('domain-connect.asl.json', () => {
  const definition = load('domain-connect');
  const states = definition.States;
  const [native, verification] = states.FollowUp.Branches;

  test('ConnectDomain answers the route first; a failure stores its response; a refused switch ends there', () => {
    expect(definition.StartAt).toBe('ConnectDomain');
    expect(states.ConnectDomain.Catch).toEqual([expect.objectContaining({ ErrorEquals: ['States.ALL'], Next: 'RecordOperationFailure' })]);
    expect(states.RecordOperationFailure.Parameters.Payload.workflow).toBe('domain-connect');
    expect(states.Connected).toMatchObject({ Type: 'Choice', Choices: [{ Variable: '$.connected', BooleanEquals: true, Next: 'FollowUp' }], Default: 'NotConnected' });
    expect(states.FollowUp).toMatchObject({ Type: 'Parallel', End: true });
  });

  test('verification: a pause from the input (10 s, D18), then a poll; at most 12 polls; then the submissions', () => {
    const s = verification.States;
    expect(s.WaitBeforePoll).toMatchObject({ Type: 'Wait', SecondsPath: '$.poll_interval_seconds', Next: 'CheckVerification' });
    expect(s.NextPoll.Choices).toEqual([{ Variable: '$.attempt', NumericGreaterThanEquals: VERIFICATION_POLL_ATTEMPTS, Next: 'SubmitDomainUrls' }]);
    expect(s.Verified.Choices).toEqual([{ Variable: '$.check.done', BooleanEquals: true, Next: 'SubmitDomainUrls' }]);
    expect(s.CountPoll.Parameters['attempt.$']).toBe('States.MathAdd($.attempt, 1)');
    expect(s.PollWanted.Default).toBe('SubmitDomainUrls'); // no token: IndexNow all the same
    for (const name of ['CheckVerification', 'SubmitDomainUrls']) expect(s[name].Catch).toHaveLength(1);
  });

  test('native certificate: a pause from the input, at most NATIVE_CERTIFICATE_MAX_LOOKS looks, failures end the branch quietly', () => {
    const s = native.States;
    expect(s.WaitForNativeCertificate).toMatchObject({ Type: 'Wait', SecondsPath: '$.native_wait_seconds' });
    expect(s.Upgraded.Choices).toContainEqual({ Variable: '$.look', NumericGreaterThanEquals: NATIVE_CERTIFICATE_MAX_LOOKS, Next: 'UpgradeFinished' });
    expect(s.UpgradeCertificate.Catch).toEqual([expect.objectContaining({ Next: 'UpgradeStopped' })]);
  });

  test('every task runs a task module and is retried on Lambda service errors only, and those under an execution claim on StepClaimed (D238)', () => {
    const tasks = taskStates(states);
    expect([...tasks.values()].map((t) => t.fn).sort()).toEqual(['CheckVerification', 'ConnectDomain', 'RecordOperationFailure', 'SubmitDomainUrls', 'UpgradeCertificate']);
    for (const { retry } of tasks.values()) expect(retry.flatMap((r) => r.ErrorEquals).every((e) => e.startsWith('Lambda.') || e === 'StepClaimed')).toBe(true);
    const claimed = [...tasks.values()].filter((t) => t.retry.some((r) => r.ErrorEquals.includes('StepClaimed'))).map((t) => t.fn).sort();
    expect(claimed).toEqual(['CheckVerification', 'ConnectDomain', 'SubmitDomainUrls']);
  });
});

describe('domain-disconnect.asl.json', () => {
  test('one task that stores its response; its failure stores the error response', () => {
    const definition = load('domain-disconnect');
    expect(definition.StartAt).toBe('DisconnectDomain');
    expect([...taskStates(definition.States).values()].map((t) => t.fn).sort()).toEqual(['DisconnectDomain', 'RecordOperationFailure']);
    expect(definition.States.RecordOperationFailure.Parameters.Payload.workflow).toBe('domain-disconnect');
  });
});
