import { sharedCatalogues, storeArticles } from './articles';
(async () => {
  for (const c of sharedCatalogues()) {
    const r = await storeArticles(c.label, c.snapshot);
    const byIntent: Record<string, number> = {};
    for (const a of r.published) byIntent[a.intent] = (byIntent[a.intent] ?? 0) + 1;
    console.log(`### ${c.label}: ${r.published.length} published, planned ${r.planned}`, JSON.stringify(byIntent), JSON.stringify(r.rejected));
    require('fs').writeFileSync(`/tmp/articles-${c.label.split(' ')[0]}.json`, JSON.stringify(r.published, null, 1));
  }
})();
