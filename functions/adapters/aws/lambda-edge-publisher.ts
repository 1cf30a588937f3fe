/**
 * EdgeFunctionPublisher on Lambda (us-east-1, where Lambda@Edge functions live): the code of
 * `$LATEST` and of a version is Lambda's own `CodeSha256` (GetFunction), and a new numbered
 * version is published with PublishVersion under that hash, so a `$LATEST` that changed after
 * it was looked at is refused instead of published unseen. The function is named by its
 * unversioned ARN, derived from the bootstrap version ARN (EDGE_FUNCTION_VERSION_ARN).
 * The code itself is uploaded by the edge stack's deploy (lib/stacks/edge-stack.ts).
 */
import { GetFunctionCommand, PublishVersionCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { unversionedFunctionArn } from '../../core/edge/rollout';
import type { EdgeFunctionPublisher } from '../../core/edge/types';

export interface LambdaEdgePublisherOptions {
  client: LambdaClient;
  /** `arn:aws:lambda:us-east-1:<acct>:function:<name>` (no version). */
  functionArn: string;
}

const UNVERSIONED = /^arn:aws[a-z-]*:lambda:us-east-1:\d{12}:function:[A-Za-z0-9_-]+$/;

export function createLambdaEdgePublisher(options: LambdaEdgePublisherOptions): EdgeFunctionPublisher {
  const { client, functionArn } = options;
  if (!UNVERSIONED.test(functionArn)) throw new Error(`the edge function must be named by its unversioned ARN in us-east-1, got ${functionArn}`);

  return {
    async latestCodeSha256() {
      const { Configuration } = await client.send(new GetFunctionCommand({ FunctionName: functionArn }));
      if (!Configuration?.CodeSha256) throw new Error(`Lambda GetFunction returned no CodeSha256 for ${functionArn}`);
      return Configuration.CodeSha256;
    },

    async versionCodeSha256(versionArn) {
      if (unversionedFunctionArn(versionArn) !== functionArn) return null;
      try {
        const { Configuration } = await client.send(new GetFunctionCommand({ FunctionName: versionArn }));
        return Configuration?.CodeSha256 ?? null;
      } catch (err) {
        if ((err as { name?: string }).name === 'ResourceNotFoundException') return null;
        throw err;
      }
    },

    async publish(codeSha256, description) {
      const res = await client.send(new PublishVersionCommand({ FunctionName: functionArn, CodeSha256: codeSha256, Description: description.slice(0, 256) }));
      if (!res.Version || !/^\d+$/.test(res.Version)) throw new Error(`Lambda PublishVersion returned no numbered version for ${functionArn}`);
      return { versionArn: `${functionArn}:${res.Version}`, version: res.Version, codeSha256: res.CodeSha256 ?? codeSha256 };
    },
  };
}
