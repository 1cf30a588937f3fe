import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { PrepaymentScanRepository } from '../../ports';
import { keys } from './keys';

export function createPrepaymentScanRepository(db: DynamoDBDocumentClient, table: string): PrepaymentScanRepository {
  return {
    async get(domain) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.prepaymentScan(domain) }));
      return Item ? { domain: Item.domain, score: Item.score, scannedAt: Item.scannedAt, platforms: Item.platforms ?? {} } : null;
    },
    async put(scan) {
      await db.send(new PutCommand({ TableName: table, Item: { ...keys.prepaymentScan(scan.domain), type: 'prepayment_scan', ...scan, domain: scan.domain.toLowerCase() } }));
    },
  };
}
