/**
 * platform_3, "assistant of a large search company": the vendor's (Google) Gemini API
 * `generateContent` with Grounding with Google Search.
 * Sources checked: https://ai.google.dev/api/generate-content and
 * https://ai.google.dev/gemini-api/docs/google-search.
 *
 *   PLATFORM_3_API_URL  https://generativelanguage.googleapis.com   (`/v1beta/models/{model}:generateContent` is appended)
 *   PLATFORM_3_API_KEY  required (x-goog-api-key header)
 *   PLATFORM_3_MODEL    default gemini-3.5-flash-lite (Google's named replacement for gemini-2.5-flash,
 *                       which is deprecated and shut down in 2026; GA since 2026-07-21, batch mode and
 *                       Google Search grounding supported: ai.google.dev/gemini-api/docs/models/gemini-3.5-flash-lite)
 *
 *   POST {url}/v1beta/models/{model}:generateContent
 *
 * Gemini on Vertex AI (D239), when PLATFORM_3_VERTEX_PROJECT is set: the same generateContent
 * request and answer under the project's publisher-model path, billed to the Google Cloud
 * project (no Gemini API spend tier; Gemini models there run on dynamic shared quota), with a
 * Google Cloud API key bound to a service account in the same header. Sources read (stored
 * copies): cloud.google.com/vertex-ai/generative-ai/docs/start/api-keys (API keys for Gemini on
 * Vertex AI), .../docs/multimodal/batch-prediction-from-cloud-storage (the publisher-model name
 * `publishers/google/models/<model>`, the global and regional endpoints, requests "following the
 * same format for Gemini API"); the generateContent reference page itself was not read.
 *
 *   PLATFORM_3_API_URL  https://aiplatform.googleapis.com (location global) or https://{location}-aiplatform.googleapis.com
 *                       (a regional endpoint: the location is read from its host, so the two cannot disagree)
 *   POST {url}/v1/projects/{project}/locations/{location}/publishers/google/models/{model}:generateContent
 *   {"contents": [{"role": "user", "parts": [{"text": "<prompt>"}]}], "tools": [{"google_search": {}}]}
 *
 *   200 {"candidates": [{"content": {"parts": [{"text": "..."}]}, "finishReason": "STOP",
 *         "groundingMetadata": {"webSearchQueries": [...], "groundingChunks": [{"web": {"uri": "...", "title": "example.com"}}]}}],
 *        "usageMetadata": {"totalTokenCount": 321}, "modelVersion": "gemini-3.5-flash-lite"}
 *
 * Answer: candidates[0]'s text parts (thought parts skipped). Cited: the grounding chunks
 * that `groundingSupports` tie to the text (all chunks when the response has no
 * `groundingSupports`), in chunk order. Retrieved: the other chunks. The API gives each
 * chunk's `web.uri` as a redirect link on vertexaisearch.cloud.google.com, which never
 * shows the source; the link is kept as the API gave it (never fetched) and the chunk's
 * `web.title`, the source's domain, is recorded as its host (`sourceHosts`) to classify it
 * by. Cost: usageMetadata.totalTokenCount (tokens).
 */
import * as z from 'zod/mini';
import type { PlatformClient } from '../../../core/visibility/platform-answer';
import { createPlatformClient, hostOf, parseBody, endpointUrl, PlatformStop, unconfiguredClient, type AnswerParts, type PlatformDeps, type PlatformSettings, type PlatformSpec } from './shared';

export const PLATFORM_3: PlatformSpec = { n: 3, kind: 'assistant of a large search company', keyRequired: true, defaultModel: 'gemini-3.5-flash-lite' };

const generateSchema = z.object({
  candidates: z.optional(z.array(z.object({
    content: z.optional(z.object({ parts: z.optional(z.array(z.object({ text: z.optional(z.string()), thought: z.optional(z.boolean()) }))) })),
    finishReason: z.optional(z.string()),
    groundingMetadata: z.optional(z.object({
      groundingChunks: z.optional(z.array(z.object({ web: z.optional(z.object({ uri: z.optional(z.string()), title: z.optional(z.string()) })) }))),
      groundingSupports: z.optional(z.array(z.object({ groundingChunkIndices: z.optional(z.array(z.number())) }))),
    })),
  }))),
  promptFeedback: z.optional(z.object({ blockReason: z.optional(z.string()) })),
  usageMetadata: z.optional(z.object({ totalTokenCount: z.optional(z.number()) })),
  modelVersion: z.optional(z.string()),
});

/** The generateContent request body for one prompt (the synchronous call's, and each batch request's `request`). */
export function platform3Body(prompt: string): Record<string, unknown> {
  return { contents: [{ role: 'user', parts: [{ text: prompt }] }], tools: [{ google_search: {} }] };
}

export const parsePlatform3Response = parseBody(generateSchema, 'not a generateContent body');

/** A generateContent body's answer parts (the synchronous answer, or a batch result's `response`). */
export function platform3Answer(res: z.infer<typeof generateSchema>, via = 'generateContent'): AnswerParts {
  const candidate = res.candidates?.[0];
  if (!candidate) {
    const blocked = res.promptFeedback?.blockReason;
    throw new PlatformStop('failed', `platform_3: no candidate in the answer${blocked ? ` (prompt blocked: ${blocked})` : ''}`);
  }
  const text = (candidate.content?.parts ?? []).filter((p) => !p.thought && p.text).map((p) => p.text).join('');
  if (!text.trim()) throw new PlatformStop('failed', `platform_3: the answer has no text (finishReason ${candidate.finishReason ?? 'unknown'})`);
  const chunks = candidate.groundingMetadata?.groundingChunks ?? [];
  const supports = candidate.groundingMetadata?.groundingSupports;
  const supported = new Set(supports ? supports.flatMap((s) => s.groundingChunkIndices ?? []) : chunks.map((_, i) => i));
  const cited: string[] = [];
  const retrieved: string[] = [];
  const sourceHosts: Record<string, string> = {};
  chunks.forEach((c, i) => {
    const uri = c.web?.uri;
    if (!uri) return;
    (supported.has(i) ? cited : retrieved).push(uri);
    const host = sourceHostOf(c.web?.title);
    if (host && sourceHostOf(uri) !== host) sourceHosts[uri] = host;
  });
  return {
    text,
    citations: cited,
    retrieved,
    sourceHosts,
    model: res.modelVersion ?? null,
    costUnits: res.usageMetadata?.totalTokenCount ?? 0,
    costUnit: 'tokens',
    obtainedVia: `${via} + google_search grounding`,
  };
}

/** A Vertex AI target: the project (PLATFORM_3_VERTEX_PROJECT) and the location its endpoint serves. */
interface VertexTarget { project: string; location: string }

/** The generateContent path: the Gemini API's, or the Vertex AI project's publisher model (D239). */
export function generateContentPath(model: string, vertex: VertexTarget | null): string {
  const m = encodeURIComponent(model);
  return vertex
    ? `/v1/projects/${encodeURIComponent(vertex.project)}/locations/${encodeURIComponent(vertex.location)}/publishers/google/models/${m}:generateContent`
    : `/v1beta/models/${m}:generateContent`;
}

/** Google Cloud project ids: 6-30 of lowercase letters, digits and hyphens, from a letter, not ending in a hyphen. */
const GCP_PROJECT_ID = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
/** A regional Vertex AI endpoint names its location: `us-central1-aiplatform.googleapis.com`. */
const REGIONAL_ENDPOINT = /^([a-z][a-z0-9-]*[0-9])-aiplatform\.googleapis\.com$/;

/** The location a Vertex AI endpoint serves: its region for a regional host, else `global`. */
export function vertexLocationOf(apiUrl: string | undefined): string {
  // a URL that is not one has no regional host: the settings check names it
  return REGIONAL_ENDPOINT.exec(hostOf(apiUrl ?? ''))?.[1] ?? 'global';
}

export function createPlatform3Client(settings: PlatformSettings | undefined, deps: PlatformDeps): PlatformClient {
  const project = settings?.vertexProject;
  if (project && !GCP_PROJECT_ID.test(project)) {
    return unconfiguredClient('platform_3', PLATFORM_3.kind, settings?.model?.trim() || PLATFORM_3.defaultModel,
      'PLATFORM_3_VERTEX_PROJECT is not a Google Cloud project id (6-30 of a-z, 0-9 and -, from a letter)');
  }
  const vertex = project ? { project, location: vertexLocationOf(settings?.apiUrl) } : null;
  const via = vertex ? 'generateContent (Vertex AI)' : 'generateContent';
  return createPlatformClient(PLATFORM_3, settings, deps, async (prompt, ctx, s) => platform3Answer(await ctx.request(
    {
      url: endpointUrl(s.apiUrl, generateContentPath(s.model!, vertex)),
      method: 'POST',
      headers: { 'x-goog-api-key': s.apiKey! },
      body: platform3Body(prompt),
    },
    parsePlatform3Response,
  ), via));
}

/** A chunk title that is a domain (`example.com`, `www.Example.co.uk`) → its host; null otherwise (a page title). */
function sourceHostOf(value: string | undefined): string | null {
  if (!value) return null;
  let host = value.trim().toLowerCase();
  try {
    if (/^https?:\/\//.test(host)) host = new URL(host).hostname;
  } catch {
    return null;
  }
  host = host.replace(/\.$/, '');
  return /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(host) ? host : null;
}
