import * as fs from 'node:fs';
import * as path from 'node:path';
import { classifyPlaceholders, kebabCase, loadAslFiles, placeholdersOf, stateMachineId } from '../../lib/workflows/asl';
import { FIXTURE_STATE_MACHINES, FIXTURE_TASKS } from './helpers';

const daily = fs.readFileSync(path.join(FIXTURE_STATE_MACHINES, 'daily-schedule.asl.json'), 'utf8');

describe('ASL placeholders', () => {
  test('finds every placeholder once, including inside Map and Parallel branches', () => {
    expect(placeholdersOf(daily)).toEqual([
      'CollectPromptsFunctionArn',
      'DeploySiteFunctionArn',
      'DetectChangesFunctionArn',
      'ListActiveCustomersFunctionArn',
    ]);
  });

  test('does not take JSONPath or context references for placeholders', () => {
    expect(placeholdersOf('{"a.$":"$$.Map.Item.Value","b":"$.x","c":"${  }","d":"$x{Y}"}')).toEqual([]);
  });

  test('separates task functions from other placeholders', () => {
    expect(classifyPlaceholders('{"a":"${CollectPromptsFunctionArn}","b":"${TableName}","c":"${lowerFunctionArn}"}')).toEqual({
      functions: ['CollectPrompts'],
      other: ['TableName', 'lowerFunctionArn'],
    });
  });

  test.each([
    ['CollectPrompts', 'collect-prompts'],
    ['ListActiveCustomers', 'list-active-customers'],
    ['SubmitIndexNow', 'submit-index-now'],
    ['Step1a', 'step1a'],
    ['DeployToS3', 'deploy-to-s3'],
    ['Deploy', 'deploy'],
  ])('task %s lives in tasks/%s.ts', (name, kebab) => {
    expect(kebabCase(name)).toBe(kebab);
  });

  test('every fixture placeholder has its fixture task module', () => {
    for (const asl of loadAslFiles(FIXTURE_STATE_MACHINES)) {
      for (const name of asl.placeholders.functions) {
        expect(fs.existsSync(path.join(FIXTURE_TASKS, `${kebabCase(name)}.ts`))).toBe(true);
      }
    }
  });

  test('state machine ids come from file names', () => {
    expect(stateMachineId('daily-schedule.asl.json')).toBe('DailySchedule');
    expect(stateMachineId('/x/edge-rollout.asl.json')).toBe('EdgeRollout');
  });

  test('loads the ASL files of a directory, sorted, and notices Distributed Maps', () => {
    const files = loadAslFiles(FIXTURE_STATE_MACHINES);
    expect(files.map((f) => [f.name, f.id, f.distributedMap])).toEqual([
      ['daily-schedule', 'DailySchedule', true],
      ['onboarding', 'Onboarding', false],
    ]);
    expect(files[1].placeholders).toEqual({ functions: ['CollectPrompts', 'SubmitIndexNow'], other: [] });
  });

  test('a missing directory has no workflows; a malformed file names itself', () => {
    expect(loadAslFiles(path.join(FIXTURE_STATE_MACHINES, 'does-not-exist'))).toEqual([]);
    const dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'asl-'));
    fs.writeFileSync(path.join(dir, 'broken.asl.json'), '{ nope');
    expect(() => loadAslFiles(dir)).toThrow(/broken\.asl\.json is not valid JSON/);
  });
});
