import { createAccessLogParser, decodeLogValue, parseAccessLog, STANDARD_LOG_FIELDS } from '../../../functions/core/visits/access-log';
import { cloudFrontLogFile, cloudFrontLogLine } from '../../support/cloudfront-log';

describe('CloudFront standard log files', () => {
  it('reads the 33-field format by the #Fields: header, decoding the User-Agent', () => {
    const text = cloudFrontLogFile([
      cloudFrontLogLine({
        time: '2025-03-01T10:02:31Z', clientIp: '203.0.113.9', host: 'www.shop.example', path: '/ai/products/decaf/',
        userAgent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot',
        contentType: 'text/html; charset=utf-8', referrer: 'https://chat.example/c/1',
      }),
    ]);
    const { entries, skipped } = parseAccessLog(text);
    expect(skipped).toBe(0);
    expect(entries).toEqual([{
      time: new Date('2025-03-01T10:02:31Z'),
      host: 'www.shop.example',
      distributionHost: 'd111111abcdef8.cloudfront.net',
      method: 'GET',
      path: '/ai/products/decaf/',
      query: null,
      status: 200,
      userAgent: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot',
      clientIp: '203.0.113.9',
      forwardedFor: null,
      referrer: 'https://chat.example/c/1',
      contentType: 'text/html; charset=utf-8',
      protocol: 'https',
    }]);
  });

  it('reads a real published line (Slackbot, 2020 format)', () => {
    // gist QuinnyPig/cb77f0b0267a8dbb9f152b2e49f0e837: a CloudFront log as delivered (tabs).
    const line = ['2020-12-10', '02:42:28', 'IAD89-C3', '335', '3.92.144.159', 'HEAD', 'dv5b3tnel772.cloudfront.net', '/rss/ecs-us-east-1.rss', '200', '-',
      'Slackbot%201.0%20(+https://api.slack.com/robots)', '-', '-', 'Miss', '2kP01Cgw2cMXMKlogaJwkCt7MVHA8Flxtt_ncRESDd9POQpVWSM64w==', 'stop.lying.cloud', 'https', '123', '0.338',
      '-', 'TLSv1.2', 'ECDHE-RSA-AES128-GCM-SHA256', 'Miss', 'HTTP/2.0', '-', '-', '61052', '0.000', 'Miss', 'application/rss+xml', '2039', '-', '-'].join('\t');
    const { entries } = parseAccessLog(`#Version: 1.0\n#Fields: ${STANDARD_LOG_FIELDS.join(' ')}\n${line}\n`);
    expect(entries[0]).toMatchObject({ host: 'stop.lying.cloud', method: 'HEAD', userAgent: 'Slackbot 1.0 (+https://api.slack.com/robots)', contentType: 'application/rss+xml' });
  });

  it('decodes double-encoded values (url_decode twice, as AWS\'s Athena examples do)', () => {
    expect(decodeLogValue('Mozilla/5.0%2520(compatible;%2520ClaudeBot/1.0)')).toBe('Mozilla/5.0 (compatible; ClaudeBot/1.0)');
    expect(decodeLogValue('100%')).toBe('100%');
    expect(decodeLogValue('a%zz')).toBe('a%zz');
  });

  it('follows a #Fields: header with fewer or reordered columns; skips lines that do not fit', () => {
    const parser = createAccessLogParser();
    expect(parser.line('#Fields: time date c-ip cs-method cs-uri-stem sc-status cs(User-Agent)')).toBeNull();
    expect(parser.line('10:00:00\t2025-03-01\t203.0.113.1\tGET\t/\t200\tGPTBot/1.1')).toMatchObject({ host: '', path: '/', userAgent: 'GPTBot/1.1' });
    expect(parser.line('too\tfew')).toBeNull();
    expect(parser.line('not-a-time\t2025-03-01\t203.0.113.1\tGET\t/\t200\tGPTBot/1.1')).toBeNull();
    expect(parser.line('')).toBeNull();
    expect(parser.skipped).toBe(2);
  });

  it('without x-host-header the distribution domain is the host', () => {
    const parser = createAccessLogParser();
    parser.line('#Fields: date time c-ip cs-method cs(Host) cs-uri-stem sc-status cs(User-Agent)');
    expect(parser.line('2025-03-01\t10:00:00\t203.0.113.1\tGET\tD1.CloudFront.net\t/\t200\t-')).toMatchObject({ host: 'd1.cloudfront.net', userAgent: '' });
  });
});
