/** Publishing edge-function versions on Lambda (issue 15) against a mocked Lambda API (aws-sdk-client-mock). */
import { GetFunctionCommand, LambdaClient, PublishVersionCommand, ResourceNotFoundException } from '@aws-sdk/client-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { createLambdaEdgePublisher } from '../../functions/adapters/aws/lambda-edge-publisher';

const FUNCTION = 'arn:aws:lambda:us-east-1:123456789012:function:ai-visibility-edge-router';
const lambda = mockClient(LambdaClient);
const client = () => new LambdaClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });

beforeEach(() => lambda.reset());

test('the code of $LATEST is GetFunction\'s CodeSha256 of the unversioned function', async () => {
  lambda.on(GetFunctionCommand, { FunctionName: FUNCTION }).resolves({ Configuration: { CodeSha256: 'latest==' } });
  const publisher = createLambdaEdgePublisher({ client: client(), functionArn: FUNCTION });
  await expect(publisher.latestCodeSha256()).resolves.toBe('latest==');
});

test('the code of a version of this function; another function\'s version or an unknown one is not known (null)', async () => {
  lambda.on(GetFunctionCommand, { FunctionName: `${FUNCTION}:7` }).resolves({ Configuration: { CodeSha256: 'v7==' } });
  lambda.on(GetFunctionCommand, { FunctionName: `${FUNCTION}:9` }).rejects(new ResourceNotFoundException({ message: 'Function not found', $metadata: {} }));
  const publisher = createLambdaEdgePublisher({ client: client(), functionArn: FUNCTION });
  await expect(publisher.versionCodeSha256(`${FUNCTION}:7`)).resolves.toBe('v7==');
  await expect(publisher.versionCodeSha256(`${FUNCTION}:9`)).resolves.toBeNull();
  await expect(publisher.versionCodeSha256('arn:aws:lambda:us-east-1:123456789012:function:other:7')).resolves.toBeNull();
  expect(lambda.commandCalls(GetFunctionCommand)).toHaveLength(2);
});

test('publish: PublishVersion under the hash that was compared; the numbered version ARN comes back', async () => {
  lambda.on(PublishVersionCommand).resolves({ Version: '8', CodeSha256: 'new==', FunctionArn: `${FUNCTION}:8` });
  const publisher = createLambdaEdgePublisher({ client: client(), functionArn: FUNCTION });
  await expect(publisher.publish('new==', 'ai-visibility edge rollout exec-1')).resolves.toEqual({ versionArn: `${FUNCTION}:8`, version: '8', codeSha256: 'new==' });
  expect(lambda.commandCalls(PublishVersionCommand)[0].args[0].input).toEqual({ FunctionName: FUNCTION, CodeSha256: 'new==', Description: 'ai-visibility edge rollout exec-1' });
});

test('publish: a $LATEST that changed since it was looked at is refused by Lambda, and that refusal passes through', async () => {
  lambda.on(PublishVersionCommand).rejects(Object.assign(new Error('CodeSha256 does not match'), { name: 'PreconditionFailedException' }));
  const publisher = createLambdaEdgePublisher({ client: client(), functionArn: FUNCTION });
  await expect(publisher.publish('stale==', 'x')).rejects.toMatchObject({ name: 'PreconditionFailedException' });
});

test('only an unversioned function in us-east-1 is accepted', () => {
  for (const arn of [`${FUNCTION}:3`, 'arn:aws:lambda:eu-west-1:123456789012:function:router', 'router']) {
    expect(() => createLambdaEdgePublisher({ client: client(), functionArn: arn })).toThrow(/unversioned ARN in us-east-1/);
  }
});
