import { checkAnswerOf } from '../../../functions/core/visibility/checks';
import type { PlatformAnswer } from '../../../functions/core/visibility/platform-answer';

const answer: PlatformAnswer = {
  platform: 'platform_3',
  text: 'Sukha Yoga makes cork mats.',
  citations: ['https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC'],
  retrieved: ['https://reddit.com/r/yoga/1'],
  sourceHosts: { 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC': 'sukha.com' },
  model: 'gemini-2.5-flash',
  latencyMs: 1200,
  costUnits: 321,
  costUnit: 'tokens',
  obtainedVia: 'generateContent + google_search grounding',
};

test('the stored answer keeps the cited and the retrieved URLs apart, and the source hosts of redirect links', () => {
  expect(checkAnswerOf(answer)).toEqual({
    text: 'Sukha Yoga makes cork mats.',
    citations: ['https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC'],
    retrieved: ['https://reddit.com/r/yoga/1'],
    source_hosts: { 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC': 'sukha.com' },
    model: 'gemini-2.5-flash',
    latency_ms: 1200,
    cost_units: 321,
    cost_unit: 'tokens',
    obtained_via: 'generateContent + google_search grounding',
  });
  // An answer that says nothing about its search keeps an empty list and no host map.
  const { retrieved: _r, sourceHosts: _s, ...bare } = answer;
  expect(checkAnswerOf(bare)).toMatchObject({ retrieved: [] });
  expect(checkAnswerOf(bare)).not.toHaveProperty('source_hosts');
});
