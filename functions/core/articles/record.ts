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
}
