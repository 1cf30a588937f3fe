/**
 * The generator port and its pure, offline engine. The model engine does network I/O, so
 * it lives in functions/adapters/external/model/ together with `createGenerator`, which
 * picks between the two from the settings.
 */
export type { SiteGenerator, NarrativePart, NarrativeOverview } from './types';
export { createOfflineGenerator, buildOfflineNarrative, offlineOverview, productSummary, MIN_FAQS, MAX_FAQS } from './offline-engine';
export { inferIndustry, INDUSTRY_RULES, type IndustryInference } from './industry';
