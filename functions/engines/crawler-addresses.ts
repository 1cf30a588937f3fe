/** The crawler vendors' published addresses (D193): the daily refresh writes them, visit recording reads them. */
import { createCrawlerAddressRepository } from '../adapters/dynamodb/crawler-address-repo';
import { perContainer } from './per-container';

export const crawlerAddressesOf = perContainer(({ dynamo }) => createCrawlerAddressRepository(dynamo.db, dynamo.table), { needsSecrets: false });
