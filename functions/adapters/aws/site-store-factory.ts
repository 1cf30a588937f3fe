import { S3Client } from '@aws-sdk/client-s3';
import { CloudFrontKeyValueStoreClient } from '@aws-sdk/client-cloudfront-keyvaluestore';
import type { Config } from '../../config';
import type { ArtifactStore, Clock, SiteStore, WorkflowObjectStore } from '../../ports';
import { createS3ArtifactStore } from './s3-artifact-store';
import { createS3SiteStore } from './s3-site-store';
import { createS3WorkflowObjects } from './s3-workflow-objects';

let s3: S3Client | undefined;
const s3Client = (config: Config) => (s3 ??= new S3Client({ region: config.region }));

export function createAwsArtifactStore(config: Config): ArtifactStore {
  return createS3ArtifactStore(s3Client(config), config.sites.bucket!);
}

export function createAwsWorkflowObjects(config: Config): WorkflowObjectStore {
  return createS3WorkflowObjects(s3Client(config), config.sites.bucket!);
}

export function createAwsSiteStore(config: Config, clock: Clock): SiteStore {
  return createS3SiteStore({
    bucket: config.sites.bucket!,
    s3: s3Client(config),
    kvs: config.sites.kvsArn ? { arn: config.sites.kvsArn, client: new CloudFrontKeyValueStoreClient({ region: 'us-east-1' }) } : undefined,
    clock,
    layout: config.sites.layout,
  });
}
