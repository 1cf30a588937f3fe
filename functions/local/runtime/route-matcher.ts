/** Matches a concrete path against the manifest like API Gateway: literal segments beat `{params}`. */
import type { RouteDef } from '../../routes';

export interface RouteMatch {
  route: RouteDef;
  pathParameters: Record<string, string>;
}

interface Compiled {
  route: RouteDef;
  segments: string[];
  specificity: number;
}

export function createRouteMatcher(routes: readonly RouteDef[]) {
  const compiled: Compiled[] = routes
    .map((route) => {
      const segments = route.path.split('/').filter(Boolean);
      return { route, segments, specificity: segments.filter((s) => !s.startsWith('{')).length };
    })
    .sort((a, b) => b.specificity - a.specificity);

  return function match(method: string, path: string): { match?: RouteMatch; allowed: string[] } {
    const parts = path.split('/').filter(Boolean);
    const allowed: string[] = [];
    for (const c of compiled) {
      if (c.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      const ok = c.segments.every((seg, i) => {
        if (seg.startsWith('{')) {
          params[seg.slice(1, -1)] = safeDecode(parts[i]);
          return true;
        }
        return seg === parts[i];
      });
      if (!ok) continue;
      if (c.route.method === method.toUpperCase()) return { match: { route: c.route, pathParameters: params }, allowed };
      allowed.push(c.route.method);
    }
    return { allowed };
  };
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
