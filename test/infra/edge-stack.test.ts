import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { buildTestService, ofType } from './helpers';

let stack: Stack;
let template: Template;

beforeAll(() => {
  stack = buildTestService({ env: { account: '111111111111', region: 'eu-west-1' } }).stacks.edge;
  template = Template.fromStack(stack);
});

describe('edge stack', () => {
  test('is pinned to us-east-1 whatever the app region', () => {
    expect(stack.region).toBe('us-east-1');
    expect(stack.account).toBe('111111111111');
  });

  test('holds the router itself (no cross-region support stack) with a numbered version', () => {
    const functions = Object.values(ofType(template, 'AWS::Lambda::Function'));
    expect(functions).toHaveLength(1);
    template.resourceCountIs('AWS::Lambda::Version', 1);
    expect(stack.node.root.node.children.map((c) => c.node.id).filter((id) => id.startsWith('edge-lambda-stack'))).toEqual([]);
  });

  test('the router has no environment variables and runs the origin-request handler', () => {
    const [fn] = Object.values(ofType(template, 'AWS::Lambda::Function'));
    expect(fn.Properties!.Environment).toBeUndefined();
    expect(fn.Properties).toMatchObject({ Handler: 'index.handler', Runtime: 'nodejs22.x' });
    // Lambda@Edge supports x86_64 only.
    expect(fn.Properties!.Architectures ?? ['x86_64']).toEqual(['x86_64']);
  });

  test('its role can be assumed by Lambda@Edge', () => {
    template.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Principal: { Service: Match.arrayWith(['edgelambda.amazonaws.com', 'lambda.amazonaws.com']) } }),
        ]),
      },
    });
  });

  test('exports the version ARN to attach to customer distributions', () => {
    template.hasOutput('RouterVersionArn', {});
  });
});
