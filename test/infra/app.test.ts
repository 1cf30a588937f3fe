import { Token } from 'aws-cdk-lib';
import { envFromProcess } from '../../lib/app';
import { buildTestService } from './helpers';

describe('CDK app', () => {
  test('environment comes from CDK_DEFAULT_ACCOUNT/REGION when the CLI provides them', () => {
    expect(envFromProcess({})).toBeUndefined();
    expect(envFromProcess({ CDK_DEFAULT_ACCOUNT: '111111111111', CDK_DEFAULT_REGION: 'eu-central-1' }))
      .toEqual({ account: '111111111111', region: 'eu-central-1' });
  });

  test('regional stacks share the environment; the edge stack keeps us-east-1', () => {
    const { stacks } = buildTestService({ env: { account: '111111111111', region: 'eu-central-1' } });
    for (const stack of [stacks.data, stacks.api, stacks.workflow]) {
      expect([stack.account, stack.region]).toEqual(['111111111111', 'eu-central-1']);
    }
    expect([stacks.edge.account, stacks.edge.region]).toEqual(['111111111111', 'us-east-1']);
  });

  test('without credentials the regional stacks are environment-agnostic', () => {
    const { stacks } = buildTestService();
    expect(Token.isUnresolved(stacks.api.region)).toBe(true);
    expect(stacks.edge.region).toBe('us-east-1');
  });

  test('stack dependencies follow the data flow (data before api and workflows)', () => {
    const { app, stacks } = buildTestService();
    app.synth(); // cross-stack references (and the dependencies they imply) resolve during synthesis
    expect(stacks.api.dependencies).toContain(stacks.data);
    expect(stacks.workflow.dependencies).toContain(stacks.data);
    expect(stacks.data.dependencies).toEqual([]);
  });
});
