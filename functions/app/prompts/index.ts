/** The prompts use cases other app folders may use: this folder's public face. */
export { generateProductPrompts } from './generate';
