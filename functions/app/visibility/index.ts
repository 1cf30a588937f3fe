/** The visibility use cases other app folders may use: this folder's public face. */
export { countFunnelVisit } from './product-funnel';
