/**
 * The slice of `fetch` the provider clients (model API, search API) use: operator-configured
 * URLs, so plain fetch rather than the guarded client. Injectable so tests can count and
 * shape calls.
 */
export type ProviderFetch = (url: string, init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal }) => Promise<{
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}>;
