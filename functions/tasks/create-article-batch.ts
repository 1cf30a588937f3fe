import { createArticleBatch, type ArticleBatch } from '../app/articles/daily';
import { readyContainer } from '../container';
import { lambdaTask } from '../invocation';

/** Daily 2a, one Map item: the articles one entity still lacks today (saved, not deployed). */
export const handler = lambdaTask(async (event: ArticleBatch) => createArticleBatch(await readyContainer(), event));
