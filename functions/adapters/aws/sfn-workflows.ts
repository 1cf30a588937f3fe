/** Starts and describes executions of the deployed state machines; the execution name is our execution id. */
import { DescribeExecutionCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { Config } from '../../config';
import { ProviderNotConfiguredError } from '../../core/errors';
import type { ExecutionDescription, WorkflowName, WorkflowStarter } from '../../ports';

export function createStepFunctionsStarter(config: Config, client = new SFNClient({ region: config.region })): WorkflowStarter {
  const arnOf = (workflow: WorkflowName): string => {
    const stateMachineArn = config.stateMachines[workflow];
    if (!stateMachineArn) throw new ProviderNotConfiguredError(`no state machine is configured for the ${workflow} workflow`);
    return stateMachineArn;
  };
  return {
    async start(workflow, executionId, input) {
      await client.send(new StartExecutionCommand({ stateMachineArn: arnOf(workflow), name: executionId, input: JSON.stringify(input) }));
    },
    async describe(workflow, executionId) {
      // An execution ARN is the state machine ARN with `execution` for `stateMachine` and the name appended.
      const executionArn = `${arnOf(workflow).replace(':stateMachine:', ':execution:')}:${executionId}`;
      try {
        const res = await client.send(new DescribeExecutionCommand({ executionArn }));
        return {
          status: (res.status ?? 'RUNNING') as ExecutionDescription['status'],
          startedAt: res.startDate?.toISOString() ?? '',
          stoppedAt: res.stopDate?.toISOString() ?? null,
        };
      } catch (err) {
        if ((err as { name?: string }).name === 'ExecutionDoesNotExist') return null;
        throw err;
      }
    },
  };
}
