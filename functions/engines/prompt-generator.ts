/** The prompt generator of this deployment: the model API when configured, else offline. */
import { createPromptGenerator } from '../adapters/external/model/prompt-model';
import { createLogger } from '../logger';
import { perContainer } from './per-container';

export const promptGeneratorOf = perContainer(({ config: { llm } }) =>
  createPromptGenerator({ llmBaseUrl: llm.baseUrl, llmApiKey: llm.apiKey, llmModel: llm.model }, { log: createLogger({ component: 'prompt-generator' }) }));
