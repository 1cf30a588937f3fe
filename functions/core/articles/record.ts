/** A created AI article as the database keeps it (spec: create-ai-article; D25's read). */
export interface ArticleRecord {
  slug: string;
  title: string;
  /** `/<slug>/` on the AI-site host (`/ai/<slug>/` on a customer domain, D28). */
  article_path: string;
  /** YYYY-MM-DD: `backdate_to`, or the day it was created. */
  published_date: string;
  faq_category: 'business_article' | 'product_article';
  /** Product slug; null for a business article. */
  product_id: string | null;
  entity_id: string;
  /** Monday of the week it counts in (quota). */
  week_start: string;
  /** The daily run that planned it (2a); null when created through the route. */
  run_date: string | null;
  created_at: string;
  /** The question's intent and facet (questions.ts `Question.key`): one article per key and entity. Absent on older records. */
  question_key?: string;
  /** The answer's 5-word shingles (shingles.ts `encodeShingles`), for the near-copy gate. */
  shingles?: string;
  /** Every product the article quotes (its own, a comparison's counterpart, a business article's): it leaves when one of them does. */
  subjects?: string[];
  /** Which engine wrote the answer. */
  engine?: 'extractive' | 'model';
}
