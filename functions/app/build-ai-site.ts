/**
 * The AI-site part of onboarding, step by step in one process: 1a scrape, 1c products,
 * 3b product files, 2a AI website. The onboarding state machine runs the same steps as
 * separate tasks; this sequential form serves the local demo and tests.
 */
import type { Container } from '../container';
import { createAiWebsite, type CreateSiteSummary } from './create-ai-website';
import { discoverProducts } from './discover-products';
import { generateProductLlmsFiles } from './product-llms-files';
import { scrapeWebsite, type ScrapeSummary } from './scrape-website';

export interface BuildAiSiteReport {
  scrape: ScrapeSummary;
  products: { total: number; added: number; truncated: boolean };
  productFiles: number;
  site: CreateSiteSummary;
}

export async function buildAiSite(
  container: Container,
  orgSlug: string,
  progress: (step: string, detail: string) => void = () => undefined,
): Promise<BuildAiSiteReport> {
  const [scrape, products] = await Promise.all([
    scrapeWebsite(container, orgSlug).then((s) => {
      progress('1a scrape website', `${s.mapped} URLs mapped, ${s.scraped} pages scraped (${s.scraper})${s.failed ? `, ${s.failed} failed` : ''}`);
      return s;
    }),
    discoverProducts(container, orgSlug).then((d) => {
      progress('1c discover products', `${d.products.length} products, ${d.entitiesAdded} new`);
      return d;
    }),
  ]);
  const productFiles = await generateProductLlmsFiles(container, orgSlug);
  progress('3b product llms files', `${productFiles.files} files`);
  const site = await createAiWebsite(container, orgSlug);
  progress('2a AI website', `${site.files} files deployed (${site.engine.name} generator${site.engine.fallbackReason ? `; ${site.engine.fallbackReason}` : ''})`);
  return {
    scrape,
    products: { total: products.products.length, added: products.entitiesAdded, truncated: products.truncated },
    productFiles: productFiles.files,
    site,
  };
}
