/** The prompt generator port and the search-API source (onboarding's 10 real queries). */
import type { CatalogProduct, SiteNarrative, StoreSnapshot } from '../site/types';
import type { PromptIntent } from './prompt-quality';

/**
 * Real search queries for a topic, from a search API (spec: 10 of the 50 business prompts
 * at onboarding). Optional: without one, no prompt is ever labelled `search_api`.
 */
export interface SearchPromptSource {
  fetchQueries(topic: string, limit: number): Promise<string[]>;
}

export interface ProductPromptRequest {
  product: CatalogProduct;
  count: number;
  /** Prompts this product already has: new ones must differ from them. */
  existing?: string[];
}

export interface PromptRequest {
  snapshot: StoreSnapshot;
  /** The site narrative (2a) when it exists: industry, audience, categories, key facts. */
  narrative?: SiteNarrative | null;
  business?: { count: number; existing?: string[] };
  products?: ProductPromptRequest[];
  /**
   * Every prompt tracked for the business, on any entity (D33): new prompts must differ
   * from all of them, not only from their own entity's.
   */
  tracked?: string[];
}

export interface PromptEngineInfo {
  name: 'offline' | 'model';
  model?: string;
  /** Parts that fell back to (or were topped up by) the offline generator, and why. */
  fallbackReason?: string;
}

export interface PromptSet {
  business: string[];
  /** By product id (slug). */
  products: Record<string, string[]>;
  /**
   * How many fewer than requested were produced because the store's evidence is too thin
   * for more distinct, sensible prompts (never padded with filler).
   */
  shortfall: {
    business: number;
    products: Record<string, number>;
    /** Why each short product is short, by product id, when the engine says (the offline engine always does). */
    reasons?: Record<string, string>;
  };
  engine: PromptEngineInfo;
  /** The buyer intent of each prompt, by its text, when the engine knows it (the offline engine tags every prompt). */
  intents?: Record<string, PromptIntent>;
}

export interface PromptGenerator {
  readonly name: 'offline' | 'model';
  generate(request: PromptRequest): Promise<PromptSet>;
}
