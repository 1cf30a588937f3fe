/**
 * Vendor batch interfaces for the daily checks (issue 47): where a platform's vendor sells a
 * batch interface at a discount (OpenAI's Batch API, Anthropic's Message Batches, Gemini's
 * batch mode, each 50% of the synchronous price), the day's checks of that platform are
 * submitted as batches, collected when the vendor has ended them, and only then judged and
 * scored. On-demand checks stay synchronous (PlatformClient.ask).
 */
import type { PlatformKey } from '../constants';
import type { PlatformOutcome } from './platform-answer';

/** One prompt of a batch; `customId` comes back beside its outcome (1-64 of [A-Za-z0-9_-]: every vendor accepts it). */
export interface BatchPrompt {
  customId: string;
  prompt: string;
}

export const BATCH_CUSTOM_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A vendor batch as the vendor reports it. */
export interface BatchProgress {
  /** `ended`: every request has its result (answered, failed, expired or cancelled) and the results can be read. */
  state: 'in_progress' | 'ended';
  /** The vendor's own word for it (`validating`, `finalizing`, `ended`, `BATCH_STATE_RUNNING`...), for the run record. */
  vendorStatus: string;
}

export interface PlatformBatchClient {
  readonly platform: PlatformKey;
  /** The most requests the vendor takes in one batch (fewer are sent when its size limit would bind first). */
  readonly maxPrompts: number;
  /** The vendor's completion window: a batch not ended by then is expired by the vendor. */
  readonly completionWindowHours: number;
  /** Submits the prompts as one vendor batch, asked as the synchronous client asks them; its vendor id. */
  submit(prompts: readonly BatchPrompt[], label: string): Promise<{ id: string }>;
  progress(id: string): Promise<BatchProgress>;
  /**
   * Every prompt's outcome, by customId, once the batch has ended: an answer parsed by the
   * same code as the synchronous answer, or a failure naming the vendor's error (a request
   * the vendor expired or cancelled is `failed` with that reason). A prompt the vendor sent
   * no result for is absent: the caller records it as failed.
   */
  results(id: string): Promise<Map<string, PlatformOutcome>>;
}
