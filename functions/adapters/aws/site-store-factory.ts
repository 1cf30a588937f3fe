import { S3Client } from '@aws-sdk/client-s3';
import { CloudFrontKeyValueStoreClient } from '@aws-sdk/client-cloudfront-keyvaluestore';
import type { Config } from '../../config';
import type { Clock, SiteStore } from '../../ports';
import { createS3SiteStore } from './s3-site-store';

export function createAwsSiteStore(config: Config, clock: Clock): SiteStore {
  return createS3SiteStore({
    bucket: config.sites.bucket!,
    s3: new S3Client({ region: config.region }),
    kvs: config.sites.kvsArn ? { arn: config.sites.kvsArn, client: new CloudFrontKeyValueStoreClient({ region: 'us-east-1' }) } : undefined,
    clock,
  });
}
