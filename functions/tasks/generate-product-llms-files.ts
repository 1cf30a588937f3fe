import { generateProductLlmsFiles } from '../app/site/product-llms-files';
import { stepTask } from './step-task';

/** 3b: one /llms/{product}.txt per product, published with the rest of the site. */
export const handler = stepTask('3b', (container, org) => generateProductLlmsFiles(container, org));
