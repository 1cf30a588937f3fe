/** The 202 of a cron route whose work runs in a daily-schedule execution (D20). */
export function startedResponse(executionId: string, businessIds: string[] | null) {
  return {
    statusCode: 202,
    body: { status: 'running' as const, execution_id: executionId, status_url: `/api/cron/trigger-all/${executionId}`, business_ids: businessIds },
  };
}
