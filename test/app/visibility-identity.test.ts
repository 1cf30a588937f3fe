import { identityForPrompt } from '../../functions/app/visibility/analyze';
import { matchAnswer } from '../../functions/core/visibility/mention-matcher';
import type { EntityIdentity } from '../../functions/core/visibility/platform-answer';

const identity: EntityIdentity = {
  name: 'Harbor & Pine Coffee Co.', aliases: [], domains: ['harborpine.example'], aiSiteDomains: [],
  productNames: ['Kyoto Drip Kettle', 'Pine Ridge Ceramic Pour-Over Dripper'], competitors: [],
};

test('a product name the prompt already contains does not count when the answer repeats it', () => {
  const prompt = 'Is the kyoto drip kettle good for pour-over beginners?';
  const answer = { text: 'The Kyoto Drip Kettle has a fine gooseneck spout; beginners like it.', citations: [] };
  expect(matchAnswer(answer, identity).mentioned).toBe(true);
  expect(matchAnswer(answer, identityForPrompt(identity, prompt)).mentioned).toBe(false);
  // Another product of the store named unprompted still counts.
  const other = { text: 'Pair it with the Pine Ridge Ceramic Pour-Over Dripper.', citations: [] };
  expect(matchAnswer(other, identityForPrompt(identity, prompt)).mentioned).toBe(true);
  // The business name always counts.
  expect(identityForPrompt(identity, prompt).name).toBe(identity.name);
});
