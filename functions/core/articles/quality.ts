/**
 * How an AI article reads to the people it is for (D35), as measures: the quality gate
 * decides with them before an article is published, and `npm run bench` prints them over
 * whole stores. Pure.
 *
 * - The facet of a title: what the question asks beyond its subject. The title's content
 *   words, without question and buying words and without the subject's own name and kind
 *   ("Is the Grip Pro Yoga Mat a good choice for busy professionals?" → busy, professional).
 * - Answering: at least half of the facet's words (at least one) appear in the answer, stems
 *   compared ("slipping" = "slip"). A title without facet words ("What should I look for when
 *   buying yoga mats?") is answered by any answer; the gate then checks the question's own
 *   facet (the materials a "made of" question needs, say) with the same rule.
 * - The answer text: what an article says, without its title and its navigation (Sources,
 *   Related articles). Shingles are computed over it.
 */
import { MiniElement, parseHtmlFragment } from '../text/mini-dom';
import { oneLine } from '../site/html';
import { SHOPPER_NEEDS } from './needs';

/** Words that never make a facet: function words, question words and the wording of buying. */
const NOT_FACET = new Set(
  (
    'a an the and or but of to in on at by for with from as is are was were be been being do does did can could should would will ' +
    'what which where how who whom when why whose i me my we our you your it its they their them this that these those there here ' +
    'not no yes more most less least very just also than then so such into over under about after before other others each every all any some ' +
    'best good great top right worth buy buying bought online shop shops shopping store stores product products item items thing things ' +
    'people need needs know look looking choose choosing choice make makes made common mistake mistakes compare compared comparison local order ordering ' +
    'gift gifts idea ideas trend trends watch time save use used using new way ways get got one two three ' +
    'main feature features come comes option options sold offer offers kind kinds type types difference differ'
  ).split(' '),
);

/** A crude stem, enough to compare the words of a title with those of an answer. */
export function stem(word: string): string {
  let w = word.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 5 && /(ing|ers)$/.test(w)) w = w.slice(0, -3);
  else if (w.length > 4 && /(ches|shes|xes|sses|zzes)$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 4 && /(ed|er|ly)$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (/([b-df-hj-np-tv-z])\1$/.test(w)) w = w.slice(0, -1); // "slipp" → "slip"
  return w;
}

function contentWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 3 && !NOT_FACET.has(w) && !/^\d+$/.test(w));
}

function contentStems(text: string): string[] {
  return contentWords(text).map(stem);
}

/** The words a title asks about beyond its subject (`subjectTexts`: the subject's name, kind and type); stems compared. */
export function facetWords(title: string, subjectTexts: readonly string[]): string[] {
  const subject = new Set(subjectTexts.flatMap(contentStems));
  return [...new Set(contentWords(title).filter((w) => !subject.has(stem(w))))];
}

/**
 * Facet words an answer states in other words: "care" is answered by how to wash or wipe it, and
 * a shopper need's words by the words the need vocabulary accepts as stating it ("wet weather"
 * by "water-resistant", needs.ts).
 */
const ANSWERED_BY: Record<string, readonly string[]> = {
  care: ['wash', 'washable', 'clean', 'wipe', 'dishwasher', 'rinse', 'descale', 'oil', 'store', 'dry', 'soak', 'bleach', 'iron'].map(stem),
};
for (const need of SHOPPER_NEEDS) {
  for (const word of contentWords(need.phrase)) ANSWERED_BY[stem(word)] = [...new Set([...(ANSWERED_BY[stem(word)] ?? []), ...need.facet.map(stem)])];
}

/** Whether an answer addresses the title's facet (see the header). */
export function answersFacet(facet: readonly string[], answer: string): boolean {
  if (!answer.trim()) return false;
  if (!facet.length) return true;
  const said = new Set(contentStems(answer));
  const wanted = [...new Set(facet.map(stem))];
  const found = wanted.filter((w) => said.has(w) || (ANSWERED_BY[w] ?? []).some((x) => said.has(x))).length;
  return found >= Math.max(1, Math.ceil(wanted.length / 2));
}

/** Sections of an article that are navigation, not answer. */
const NAVIGATION = /^(sources|related articles)$/i;

function textOf(el: MiniElement): string {
  return oneLine(el.textContent);
}

/**
 * The answer text of an article page, one line per paragraph or list item: the `<article>`
 * element's text without its `<h1>` and without navigation sections (an `<h2>` or `<section>`
 * headed Sources or Related articles).
 */
export function articleAnswerText(html: string): string {
  const root = parseHtmlFragment(html);
  const article = root.getElementsByTagName('article')[0];
  if (!article) return '';
  const out: string[] = [];
  let navigation = false;
  const walk = (children: readonly MiniElement[]) => {
    for (const el of children) {
      if (el.localName === 'h1') continue;
      if (el.localName === 'section') {
        const heading = el.getElementsByTagName('h2')[0];
        if (heading && NAVIGATION.test(textOf(heading))) continue;
        const before = navigation;
        navigation = false;
        walk(el.children);
        navigation = before;
        continue;
      }
      if (el.localName === 'h2') {
        navigation = NAVIGATION.test(textOf(el));
        if (!navigation) out.push(textOf(el));
        continue;
      }
      if (navigation) continue;
      if (el.localName === 'ul' || el.localName === 'ol') out.push(...el.children.map(textOf));
      else out.push(textOf(el));
    }
  };
  walk(article.children);
  return out.filter(Boolean).join('\n');
}
