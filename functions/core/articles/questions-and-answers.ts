/**
 * What a question and its written answer are, and the comparison's publishing threshold: the
 * shapes the planner (questions.ts) and the writers (answers.ts, compare.ts, family-answer.ts,
 * model-answer.ts) share. They live here, below all of them, so no writer imports another's
 * module for a type and no two modules import each other.
 */
import type { CatalogProduct } from '../site/types';
import type { Fact, ProductSheet } from './facts';
import type { Source } from './site-sources';

/** Stated differences a comparison needs to be published (D37): the planner asks, the writer writes, by the same count. */
export const MIN_DIFFERENCES = 2;

export type Intent = 'family' | 'use' | 'need' | 'audience' | 'materials' | 'origin' | 'care' | 'features' | 'options' | 'comparison' | 'shipping' | 'returns' | 'choice';

/**
 * The answer's first sentence (issue 45): the verdict and the catalogue fact that gives it
 * ("Yes: the X is rated IP67 (protected against temporary immersion)"), without its closing
 * full stop. `stockOf`: products whose live stock closes it ("; sold out now: 40 oz"), a slot
 * every publish rewrites (core/site/offer-slots.ts, D36).
 */
export interface Lead {
  text: string;
  stockOf?: CatalogProduct[];
}

export interface Question {
  title: string;
  /** Intent and facet value: `need:slipping`, `comparison:<product id>`, `family`. One question per key. */
  key: string;
  intent: Intent;
  /** The facet's own words: the answer must state them (the gate checks). Empty: any answer answers. */
  facet: string[];
  /** The facts that answer it, the subject's first. */
  evidence: Fact[];
  /** Its verdict and the fact behind it: a question without one is not asked. */
  lead: Lead;
  /** The products the article is about: the subject, a comparison's counterpart, a family's members. */
  subjects: ProductSheet[];
  /** A family page's family: its name, what its members differ by, every member (those without a sheet too) and their AI pages. */
  family?: { name: string; differs: string; members: CatalogProduct[]; pages: Record<string, string> };
  /**
   * What the question is about for the gate's "same question" rule, when not its subjects: a
   * comparison is about its products' families, so the Combo mat and the Travel Combo mat are
   * compared once, not once per colourway.
   */
  about?: string[];
}

export interface AnswerBlock {
  /** A heading for the block (a comparison's product); null: the answer itself. */
  heading: string | null;
  /** Whole sentences, in order. */
  sentences: string[];
  /** List items: fragments of a description, option lines, labelled product lines. */
  items: string[];
  /** A family's members, each a linked list item with its live offer (family-answer.ts). */
  members?: MemberLine[];
}

/** One member of a family page. */
export interface MemberLine {
  productId: string;
  label: string;
  /** Its AI product page (file path), or null: then the store's page. */
  path: string | null;
  url: string;
  /** What sets it apart beyond its design ("is 1.5 mm thick and weighs 1.1 kg"); '' when nothing does. */
  detail: string;
  /** Price and stock as of the build; every publish refreshes them (core/site/offer-slots.ts). */
  offer: string;
}

export interface WrittenAnswer {
  /** The question's lead, set on every answer whatever wrote it (compose.ts). */
  lead?: Lead;
  blocks: AnswerBlock[];
  /** What the store's facts do not cover, one sentence each. */
  uncovered: string[];
  /** The AI-site pages quoted. */
  sources: Source[];
  /** Which engine wrote it. */
  engine: 'extractive' | 'model';
}
