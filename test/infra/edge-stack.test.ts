import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { SITE_RESOLVER_ROLE_NAME } from '../../lib/stacks/edge-stack';
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

  test('holds the router and the AI-site resolver itself (no cross-region support stack), each with a numbered version', () => {
    const functions = Object.values(ofType(template, 'AWS::Lambda::Function'));
    expect(functions.map((f) => f.Properties!.Description).sort()).toEqual([
      'Origin-request resolver of the AI-site distribution: a release file to its content-addressed object',
      'Origin-request router: AI-site paths to the AI-site host, the rest to the store',
    ]);
    template.resourceCountIs('AWS::Lambda::Version', 2);
    expect(stack.node.root.node.children.map((c) => c.node.id).filter((id) => id.startsWith('edge-lambda-stack'))).toEqual([]);
  });

  test('both have no environment variables, run their handler on x86_64', () => {
    for (const fn of Object.values(ofType(template, 'AWS::Lambda::Function'))) {
      expect(fn.Properties!.Environment).toBeUndefined();
      expect(fn.Properties).toMatchObject({ Handler: 'index.handler', Runtime: 'nodejs22.x' });
      // Lambda@Edge supports x86_64 only.
      expect(fn.Properties!.Architectures ?? ['x86_64']).toEqual(['x86_64']);
    }
  });

  test('the resolver runs as the fixed-name role the data stack grants manifest reads to (D179)', () => {
    template.hasResourceProperties('AWS::IAM::Role', {
      RoleName: SITE_RESOLVER_ROLE_NAME,
      AssumeRolePolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Principal: { Service: Match.arrayWith(['edgelambda.amazonaws.com', 'lambda.amazonaws.com']) } })]) },
    });
    template.hasOutput('SiteResolverVersionArn', {});
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
