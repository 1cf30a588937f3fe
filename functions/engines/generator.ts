/** The narrative generator of this deployment: the model API when configured, else offline. */
import { createGenerator } from '../adapters/external/model';
import type { SiteGenerator } from '../core/generate/types';
import type { Container } from '../container';
import { createLogger } from '../logger';

const chosen = new WeakMap<Container, SiteGenerator>();

export function generatorOf(container: Container): SiteGenerator {
  let generator = chosen.get(container);
  if (!generator) {
    const { llm } = container.config;
    generator = createGenerator({ llmBaseUrl: llm.baseUrl, llmApiKey: llm.apiKey, llmModel: llm.model }, { log: createLogger({ component: 'generator' }) });
    chosen.set(container, generator);
  }
  return generator;
}
