import { copyPrepaymentScore } from '../app/onboarding/prepayment-score';
import { stepTask } from './step-task';

/** 1e: the pre-payment scan's score as the first history entry (D19). */
export const handler = stepTask('1e', (container, org) => copyPrepaymentScore(container, org));
