// CloudFront Function (JavaScript runtime 2.0), viewer-request, on the AI-site distribution.
// `{slug}.{AI_SITE_DOMAIN}` picks the site; the KeyValueStore maps the slug to its current
// release, so a deploy switches releases atomically by updating one key. S3 keys are
// `sites/<slug>/releases/<release>/<path>`; directory URLs get `index.html`.
import cf from 'cloudfront';

var DOMAIN_SUFFIX = '.__AI_SITE_DOMAIN__';
var kvs = cf.kvs();

function siteSlug(host, suffix) {
  var name = (host || '').toLowerCase().split(':')[0];
  if (name.length <= suffix.length || name.slice(-suffix.length) !== suffix) return null;
  var slug = name.slice(0, -suffix.length);
  return /^[a-z0-9][a-z0-9_-]*$/.test(slug) ? slug : null;
}

function objectPath(uri) {
  if (uri.slice(-1) === '/') return uri + 'index.html';
  var last = uri.split('/').pop();
  return last.indexOf('.') === -1 ? uri + '/index.html' : uri;
}

function notFound() {
  return { statusCode: 404, statusDescription: 'Not Found', headers: { 'content-type': { value: 'text/plain' } }, body: 'Not found' };
}

async function handler(event) {
  var request = event.request;
  var slug = siteSlug(request.headers.host && request.headers.host.value, DOMAIN_SUFFIX);
  if (!slug || request.uri.indexOf('..') !== -1) return notFound();
  var release;
  try {
    release = await kvs.get(slug);
  } catch (e) {
    return notFound();
  }
  request.uri = '/sites/' + slug + '/releases/' + release + objectPath(request.uri);
  return request;
}
