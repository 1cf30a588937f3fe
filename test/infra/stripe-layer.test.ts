/**
 * The billing routes' Stripe layer in the API stack: built from node_modules/stripe
 * (lib/layers.ts), one per functions stack, attached to the routes flagged `usesStripe` and
 * to no other. Synthesizes only the data stack and an API stack of a few routes.
 */
import { Template } from 'aws-cdk-lib/assertions';
import { ROUTES, routeKey } from '../../functions/routes';
import { settingsFromContext } from '../../lib/settings';
import { DataStack } from '../../lib/stacks/data-stack';
import { ApiStack } from '../../lib/stacks/api-stack';
import { ofType, testApp, type Resources } from './helpers';

const BILLING = ['POST /api/billing-portal', 'GET /api/subscription-status'];
const OTHERS = ['GET /api/articles/{business_id}', 'GET /health'];

let functions: Resources;
let layers: Resources;

beforeAll(() => {
  const app = testApp();
  const settings = settingsFromContext(app.node);
  const data = new DataStack(app, 'LayerTestData', { settings });
  const api = new ApiStack(app, 'LayerTestApi', {
    settings, table: data.table, siteFiles: { bucket: data.siteBucket, releases: data.siteReleases }, secrets: data.secrets,
    routes: ROUTES.filter((r) => [...BILLING, ...OTHERS].includes(routeKey(r))),
  });
  const templates = [...api.functionStacks.values()].map((s) => Template.fromStack(s));
  functions = Object.assign({}, ...templates.map((t) => ofType(t, 'AWS::Lambda::Function')));
  layers = Object.assign({}, ...templates.map((t) => ofType(t, 'AWS::Lambda::LayerVersion')));
});

const stripeLayers = () => Object.entries(layers).filter(([, l]) => /^stripe@/.test(l.Properties?.Description));
const powertoolsLayers = () => Object.entries(layers).filter(([, l]) => /^powertools@/.test(l.Properties?.Description));

test('one Stripe layer for nodejs22.x on arm64, described with the installed version', () => {
  const entries = stripeLayers().map(([, l]) => l);
  expect(entries).toHaveLength(1);
  expect(entries[0].Properties).toMatchObject({
    CompatibleRuntimes: ['nodejs22.x'],
    CompatibleArchitectures: ['arm64'],
    Description: expect.stringMatching(/^stripe@\d+\.\d+\.\d+: Stripe SDK/),
    LicenseInfo: 'MIT',
  });
});

test('the billing functions attach it; the other functions only the fleet\'s Powertools layer', () => {
  const [[layerId]] = stripeLayers();
  // One Powertools layer per functions stack, under the same logical id in each (D172).
  const [[powertools]] = powertoolsLayers();
  const byRoute = Object.fromEntries(Object.values(functions).map((fn) => [fn.Properties?.Description, fn.Properties?.Layers]));
  for (const key of BILLING) expect(byRoute[key]).toEqual([{ Ref: powertools }, { Ref: layerId }]);
  for (const key of OTHERS) expect(byRoute[key]).toEqual([{ Ref: powertools }]);
});
