import { markdownBlocks, splitSentences, stripInlineMarkdown, countKeyword, truncateText, joinList } from '../../functions/core/generate/text';
import { extractFaqPairs } from '../../functions/core/generate/faq-extract';
import { classifyFact } from '../../functions/core/generate/evidence';

describe('text helpers', () => {
  it('splits sentences without breaking decimals, abbreviations or initials', () => {
    expect(splitSentences('Bags cost $24.00 each. Ships from St. Louis, e.g. to Canada. Made by J. Smith! Really? Yes.')).toEqual([
      'Bags cost $24.00 each.', 'Ships from St. Louis, e.g. to Canada.', 'Made by J. Smith!', 'Really?', 'Yes.',
    ]);
    expect(splitSentences('Line one\nLine two.')).toEqual(['Line one', 'Line two.']);
  });

  it('turns markdown into headings, paragraphs and items of plain text', () => {
    const md = '# Title\n\nSome **bold** and [a link](https://x.example) text\ncontinued.\n\n- item *one*\n- item two\n\n```\ncode\n```\n\n---\n| a | b |\n|---|---|\n';
    expect(markdownBlocks(md).map((b) => [b.kind, b.text])).toEqual([
      ['heading', 'Title'], ['paragraph', 'Some bold and a link text continued.'], ['item', 'item one'], ['item', 'item two'], ['paragraph', 'a, b'],
    ]);
    expect(stripInlineMarkdown('Tom &amp; Jerry ![img](x.png) \\*not\\* `code`')).toBe('Tom & Jerry  *not* code');
  });

  it('matches keywords on word boundaries, plurals included', () => {
    expect(countKeyword('Teas, tea and a teapot; steam', 'tea')).toBe(2);
    expect(countKeyword('Cold-brew and cold brew', 'cold brew')).toBe(2);
  });

  it('truncates at word boundaries and joins lists', () => {
    expect(truncateText('one two three four five', 16)).toBe('one two three…');
    expect(truncateText('short', 16)).toBe('short');
    expect(joinList(['a', 'b', 'c'])).toBe('a, b and c');
  });

  it('classifies fact sentences with simple patterns', () => {
    expect(classifyFact('Free shipping on all US orders over $45.')).toBe('shipping');
    expect(classifyFact('Returns are accepted within 30 days of delivery.')).toBe('returns');
    expect(classifyFact('We buy green coffee directly from farms in Ethiopia.')).toBe('origin');
    expect(classifyFact('All of our teas are certified organic.')).toBe('materials');
    expect(classifyFact('Do you ship to Canada?')).toBeNull();
    expect(classifyFact('We love coffee a lot.')).toBeNull();
  });
});

describe('FAQ extraction', () => {
  it('reads heading, bold, summary and Q:/A: questions with their answers', () => {
    const md = [
      '## Shipping', '', '### Where do you ship?', '', 'We ship to the US.', '', 'And to Canada.',
      '', '**Is it organic?** Yes, certified.',
      '', '<details><summary>Can I return it?</summary>Within 14 days, unopened.</details>',
      '', 'Q: Do you have gift cards?', '', 'A: Yes, from $25.',
      '', '## Contact', '', 'Write to us.',
    ].join('\n');
    expect(extractFaqPairs(md, true)).toEqual([
      { question: 'Where do you ship?', answer: 'We ship to the US. And to Canada.' },
      { question: 'Is it organic?', answer: 'Yes, certified.' },
      { question: 'Can I return it?', answer: 'Within 14 days, unopened.' },
      { question: 'Do you have gift cards?', answer: 'Yes, from $25.' },
    ]);
  });

  it('treats a plain question line as a question only on FAQ pages', () => {
    const md = 'Looking for a gift?\n\nOur gift cards never expire.';
    expect(extractFaqPairs(md, true)).toEqual([{ question: 'Looking for a gift?', answer: 'Our gift cards never expire.' }]);
    expect(extractFaqPairs(md, false)).toEqual([]);
  });
});
