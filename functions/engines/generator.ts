/** The narrative generator of this deployment: the model API when configured, else offline. */
import { createGenerator } from '../adapters/external/model';
import { createLogger } from '../logger';
import { perContainer } from './per-container';

export const generatorOf = perContainer(({ config: { llm } }) =>
  createGenerator({ llmBaseUrl: llm.baseUrl, llmApiKey: llm.apiKey, llmModel: llm.model }, { log: createLogger({ component: 'generator' }) }));
