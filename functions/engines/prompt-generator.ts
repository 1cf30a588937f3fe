/** The prompt generator of this deployment: the model API when configured, else offline. */
import { createPromptGenerator } from '../adapters/external/model/prompt-model';
import type { PromptGenerator } from '../core/prompts/types';
import type { Container } from '../container';
import { createLogger } from '../logger';

const chosen = new WeakMap<Container, PromptGenerator>();

export function promptGeneratorOf(container: Container): PromptGenerator {
  let generator = chosen.get(container);
  if (!generator) {
    const { llm } = container.config;
    generator = createPromptGenerator({ llmBaseUrl: llm.baseUrl, llmApiKey: llm.apiKey, llmModel: llm.model }, { log: createLogger({ component: 'prompt-generator' }) });
    chosen.set(container, generator);
  }
  return generator;
}
