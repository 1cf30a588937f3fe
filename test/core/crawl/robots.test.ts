import {
  ROBOTS_MAX_BYTES,
  isAllowed,
  matcherFor,
  matchesPattern,
  parseRobotsTxt,
  productToken,
  robotsPolicy,
} from '../../../functions/core/crawl/robots';

/** RFC 9309 §5.1, verbatim apart from the trailing comments. */
const RFC_EXAMPLE = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot
`;

describe('RFC 9309 §5.1 example', () => {
  const robots = parseRobotsTxt(RFC_EXAMPLE);
  // [user agent, path, allowed, why]
  const TABLE: Array<[string, string, boolean, string]> = [
    ['foobot', '/example/page.html', true, 'longer allow beats Disallow: /'],
    ['foobot', '/example/allowed.gif', true, 'own group only: the * group *.gif$ is not inherited'],
    ['foobot', '/example/other.html', false, 'Disallow: /'],
    ['foobot', '/', false, 'Disallow: /'],
    ['FooBot/2.1 (+https://foo.example)', '/example/other.html', false, 'product token from a full UA string, case-insensitive'],
    ['barbot', '/example/page.html', false, 'group with two user-agent lines'],
    ['bazbot', '/example/page.html', false, 'group with two user-agent lines'],
    ['bazbot', '/example/other.html', true, 'no rule matches'],
    ['bazbot', '/x.gif', true, 'a named group does not inherit *'],
    ['quxbot', '/example/', true, 'empty group: everything allowed, no fallback to *'],
    ['quxbot', '/x.gif', true, 'empty group: everything allowed, no fallback to *'],
    ['otherbot', '/example/page.html', false, 'falls back to *'],
    ['otherbot', '/publications/x', true, 'allow in *'],
    ['otherbot', '/images/a.gif', false, '*.gif$ in *'],
    ['otherbot', '/images/a.gif?size=2', true, '$ anchors the end'],
    ['otherbot', '/robots.txt', true, 'robots.txt is always allowed'],
  ];
  it.each(TABLE)('%s %s → %s (%s)', (ua, path, allowed) => {
    expect(isAllowed(robots, ua, path)).toBe(allowed);
  });
});

describe('matching rules', () => {
  // [robots.txt body, path, allowed, why]
  const TABLE: Array<[string, string, boolean, string]> = [
    ['User-agent: *\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif', '/example/page/disallowed.gif', false, 'longest match wins (disallow)'],
    ['User-agent: *\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif', '/example/page/ok.gif', true, 'longest match wins (allow)'],
    ['User-agent: *\nDisallow: /folder\nAllow: /folder', '/folder/page', true, 'allow wins a tie'],
    ['User-agent: *\nAllow: /folder\nDisallow: /folder', '/folder/page', true, 'allow wins a tie, whatever the order'],
    ['User-agent: *\nDisallow: /*.php$', '/index.php', false, '$ end anchor'],
    ['User-agent: *\nDisallow: /*.php$', '/index.php?x=1', true, '$: query is part of the path'],
    ['User-agent: *\nDisallow: /*.php$', '/index.php5', true, '$: no prefix match'],
    ['User-agent: *\nDisallow: /fish*', '/fishheads/yummy.html', false, '* matches any sequence'],
    ['User-agent: *\nDisallow: /*.php', '/folder/filename.php?parameters', false, '* in the middle'],
    ['User-agent: *\nDisallow: /fish', '/Fish.asp', true, 'paths are case-sensitive'],
    ['User-agent: *\nDisallow: /collections/*sort_by*', '/collections/all?sort_by=price', false, 'platform robots.txt pattern'],
    ['User-agent: *\nDisallow: /collections/*sort_by*', '/collections/all?page=2', true, 'platform robots.txt pattern'],
    ['User-agent: *\nDisallow: /*/*/*/*/*', '/a/b/c/d/e', false, 'many wildcards'],
    ['User-agent: *\nDisallow:', '/anything', true, 'empty Disallow is no rule'],
    ['User-agent: *\nDisallow: /', '/robots.txt', true, '/robots.txt implicitly allowed'],
    ['User-agent: *\nDisallow: /foo/bar/ツ', '/foo/bar/%E3%83%84', false, 'non-ASCII pattern percent-encoded'],
    ['User-agent: *\nDisallow: /foo/bar/%e3%83%84', '/foo/bar/%E3%83%84', false, 'percent-escapes compare case-insensitively'],
    ['User-agent: *\nDisallow: /private # keep out\n# Disallow: /public', '/public', true, 'comments ignored'],
    ['User-agent: *\nDisallow: /private # keep out', '/private/x', false, 'rule before a comment kept'],
    ['Disallow: /orphan\nUser-agent: *\nDisallow: /x', '/orphan', true, 'rules before any user-agent belong to no group'],
    ['user-agent: *\r\ndisallow: /crlf\r\n', '/crlf/a', false, 'CRLF line ends, lower-case keys'],
    ['User-agent: *\nDisallow: private', '/private', false, 'missing leading slash tolerated'],
  ];
  it.each(TABLE)('%j %s → %s (%s)', (body, path, allowed) => {
    expect(isAllowed(parseRobotsTxt(body), 'AIVisibilityBot', path)).toBe(allowed);
  });

  it('combines every group that names the crawler', () => {
    const body = 'User-agent: aivisibilitybot\nDisallow: /a\n\nUser-agent: *\nDisallow: /c\n\nUser-agent: AIVisibilityBot\nDisallow: /b\n';
    const robots = parseRobotsTxt(body);
    expect(isAllowed(robots, 'AIVisibilityBot', '/a')).toBe(false);
    expect(isAllowed(robots, 'AIVisibilityBot', '/b')).toBe(false);
    expect(isAllowed(robots, 'AIVisibilityBot', '/c')).toBe(true);
    expect(isAllowed(robots, 'OtherBot', '/c')).toBe(false);
    expect(isAllowed(robots, 'OtherBot', '/a')).toBe(true);
  });

  it('combines several * groups', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /a\n\nUser-agent: other\nDisallow: /\n\nUser-agent: *\nDisallow: /b');
    expect(isAllowed(robots, 'mybot', '/a')).toBe(false);
    expect(isAllowed(robots, 'mybot', '/b')).toBe(false);
    expect(isAllowed(robots, 'mybot', '/c')).toBe(true);
  });

  it('with no matching group and no * group, allows everything', () => {
    expect(isAllowed(parseRobotsTxt('User-agent: other\nDisallow: /'), 'mybot', '/x')).toBe(true);
  });

  it('accepts absolute URLs', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /cart');
    expect(isAllowed(robots, 'x', 'https://shop.example/cart?id=1')).toBe(false);
    expect(isAllowed(robots, 'x', 'https://shop.example/products/a')).toBe(true);
  });

  it('matches patterns in linear-ish time (no catastrophic backtracking)', () => {
    const started = Date.now();
    expect(matchesPattern(`/${'*a'.repeat(200)}b$`, `/${'a'.repeat(5000)}`)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('parsing', () => {
  it('collects Sitemap lines anywhere, de-duplicated, absolute only', () => {
    const robots = parseRobotsTxt(
      'Sitemap: https://shop.example/sitemap.xml\nUser-agent: *\nDisallow: /a\nsitemap: https://shop.example/extra.xml\nSitemap: /relative.xml\nSitemap: https://shop.example/sitemap.xml',
    );
    expect(robots.sitemaps).toEqual(['https://shop.example/sitemap.xml', 'https://shop.example/extra.xml']);
    // a Sitemap line does not end the group
    expect(isAllowed(robots, 'x', '/a')).toBe(false);
  });

  it('stops at 500 KiB', () => {
    const filler = `# ${'x'.repeat(1000)}\n`;
    const head = 'User-agent: *\nDisallow: /early\n';
    const body = head + filler.repeat(Math.ceil(ROBOTS_MAX_BYTES / filler.length)) + 'Disallow: /late\n';
    expect(Buffer.byteLength(body)).toBeGreaterThan(ROBOTS_MAX_BYTES);
    const robots = parseRobotsTxt(body);
    expect(isAllowed(robots, 'x', '/early')).toBe(false);
    expect(isAllowed(robots, 'x', '/late')).toBe(true);
  });

  it('extracts product tokens', () => {
    expect(productToken('AIVisibilityBot/1.0 (+https://example.invalid/bot)')).toBe('aivisibilitybot');
    expect(productToken('*')).toBe('*');
    expect(productToken('Google-Extended')).toBe('google-extended');
  });
});

describe('status handling (RFC 9309 §2.3.1)', () => {
  // [status, kind]
  const TABLE: Array<[number | null, 'rules' | 'allow-all' | 'disallow-all']> = [
    [200, 'rules'],
    [204, 'rules'],
    [301, 'allow-all'],
    [401, 'allow-all'],
    [403, 'allow-all'],
    [404, 'allow-all'],
    [410, 'allow-all'],
    [429, 'disallow-all'],
    [500, 'disallow-all'],
    [503, 'disallow-all'],
    [null, 'disallow-all'],
  ];
  it.each(TABLE)('HTTP %s → %s', (status, kind) => {
    const policy = robotsPolicy(status, 'User-agent: *\nDisallow: /x');
    expect(policy.kind).toBe(kind);
    const allowed = matcherFor(policy, 'bot');
    if (kind === 'disallow-all') {
      expect(allowed('/anything')).toBe(false);
      expect(allowed('/robots.txt')).toBe(true);
    }
    if (kind === 'allow-all') expect(allowed('/x')).toBe(true);
    if (kind === 'rules') expect(allowed('/x')).toBe(false);
  });
});
