/** The generator port: turns a store snapshot into the narrative every AI-site file is rendered from. */
import type { SiteNarrative, StoreSnapshot } from '../site/types';

export interface SiteGenerator {
  readonly name: 'offline' | 'model';
  generateNarrative(snapshot: StoreSnapshot): Promise<SiteNarrative>;
}

/** The three parts a narrative is produced in (the spec's 3 parallel model calls). */
export type NarrativePart = 'overview' | 'faqs' | 'productSummaries';

/** Part (a): everything but the FAQs and the product summaries. */
export type NarrativeOverview = Pick<SiteNarrative, 'summary' | 'description' | 'industry' | 'audience' | 'categories' | 'keyFacts'>;
