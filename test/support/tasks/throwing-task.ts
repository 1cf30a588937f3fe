/** A task whose step fails like an unreachable store's favicon (the real step wrapper records it), loaded by path. */
import { UpstreamError } from '../../../functions/core/errors';
import { stepTask } from '../../../functions/tasks/step-task';

export const handler = stepTask('1d', async () => { throw new UpstreamError('could not reach the store: connection refused'); });
