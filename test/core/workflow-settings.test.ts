/**
 * The settings the daily schedule depends on: each workflow's state machine ARN variable is
 * a valid Lambda variable name, and the edge-propagation wait defaults to the spec's 10 s.
 */
import { loadConfig } from '../../functions/config';
import { stateMachineArnVariable, WORKFLOWS } from '../../functions/core/workflows';

test('every workflow has a valid, distinct state machine ARN variable', () => {
  const names = WORKFLOWS.map(stateMachineArnVariable);
  expect(names).toEqual(['ONBOARDING_STATE_MACHINE_ARN', 'DAILY_SCHEDULE_STATE_MACHINE_ARN', 'VISIBILITY_ANALYSIS_STATE_MACHINE_ARN', 'DOMAIN_CONNECT_STATE_MACHINE_ARN', 'EDGE_ROLLOUT_STATE_MACHINE_ARN', 'REGENERATE_PROMPTS_STATE_MACHINE_ARN', 'START_CERTIFICATE_STATE_MACHINE_ARN', 'COMPLETE_CERTIFICATE_STATE_MACHINE_ARN', 'DOMAIN_DISCONNECT_STATE_MACHINE_ARN', 'SITE_PUBLISH_STATE_MACHINE_ARN']);
  expect(names.every((n) => /^[A-Za-z][A-Za-z0-9_]*$/.test(n))).toBe(true);
});

test('state machine ARNs are read per workflow from those variables', () => {
  const config = loadConfig({ DAILY_SCHEDULE_STATE_MACHINE_ARN: 'arn:aws:states:eu-west-1:1:stateMachine:ai-visibility-daily-schedule' });
  expect(config.stateMachines).toEqual({ 'daily-schedule': 'arn:aws:states:eu-west-1:1:stateMachine:ai-visibility-daily-schedule' });
});

test('the edge propagation wait is 10 s by default, settable, and a bad value is refused naming the variable', () => {
  expect(loadConfig({}).edgePropagationWaitSeconds).toBe(10);
  expect(loadConfig({ EDGE_PROPAGATION_WAIT_SECONDS: '0' }).edgePropagationWaitSeconds).toBe(0);
  expect(() => loadConfig({ EDGE_PROPAGATION_WAIT_SECONDS: '-1' })).toThrow(/EDGE_PROPAGATION_WAIT_SECONDS/);
  expect(() => loadConfig({ EDGE_PROPAGATION_WAIT_SECONDS: '2.5' })).toThrow(/EDGE_PROPAGATION_WAIT_SECONDS/);
});

test('the local daily trigger is on unless SCHEDULE_ENABLED=0', () => {
  expect(loadConfig({}).scheduleEnabled).toBe(true);
  expect(loadConfig({ SCHEDULE_ENABLED: '0' }).scheduleEnabled).toBe(false);
});

test('vendor batches: on (1, 2, 3) by default, off, or a list of the platforms that have one; anything else is refused naming the variable', () => {
  expect(loadConfig({}).visibilityBatches).toEqual({ platforms: [1, 2, 3], pollSeconds: 600 });
  expect(loadConfig({ VISIBILITY_BATCHES: 'off' }).visibilityBatches.platforms).toEqual([]);
  expect(loadConfig({ VISIBILITY_BATCHES: '3, 2', VISIBILITY_BATCH_POLL_SECONDS: '0' }).visibilityBatches).toEqual({ platforms: [2, 3], pollSeconds: 0 });
  expect(() => loadConfig({ VISIBILITY_BATCHES: '4' })).toThrow(/VISIBILITY_BATCHES must be on, off or a list of 1, 2, 3/);
  expect(() => loadConfig({ VISIBILITY_BATCHES: 'yes' })).toThrow(/VISIBILITY_BATCHES/);
});

test('platform 3 on Vertex AI (D239): the project reaches platform 3\'s settings only', () => {
  const config = loadConfig({ PLATFORM_3_VERTEX_PROJECT: ' shop-visibility-7 ' });
  expect(config.platforms.filter((p) => p.vertexProject).map((p) => [p.n, p.vertexProject])).toEqual([[3, 'shop-visibility-7']]);
  expect(loadConfig({}).platforms[2]!.vertexProject).toBeUndefined();
});
