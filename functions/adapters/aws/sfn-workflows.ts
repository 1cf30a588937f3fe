/** Starts executions of the deployed state machines; the execution name is our execution id. */
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { Config } from '../../config';
import { ProviderNotConfiguredError } from '../../core/errors';
import type { WorkflowStarter } from '../../ports';

export function createStepFunctionsStarter(config: Config, client = new SFNClient({ region: config.region })): WorkflowStarter {
  return {
    async start(workflow, executionId, input) {
      const stateMachineArn = config.stateMachines[workflow];
      if (!stateMachineArn) throw new ProviderNotConfiguredError(`no state machine is configured for the ${workflow} workflow`);
      await client.send(new StartExecutionCommand({ stateMachineArn, name: executionId, input: JSON.stringify(input) }));
    },
  };
}
