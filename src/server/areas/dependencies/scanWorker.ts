/**
 * The worker thread that reads large item data for references (scanOffThread.ts): JSON.parse of
 * up to LIMITS.referenceDataBytes of text and the bounded walk of the extractor, away from the
 * thread that serves requests. Answers each message with the scan, or with the reason it failed.
 */
import { parentPort } from 'node:worker_threads';
import { scanReferences, type ReferenceItem } from '../../../shared/references/references.ts';

export interface ScanRequest {
  id: number;
  item: ReferenceItem;
  text: string;
}

parentPort?.on('message', ({ id, item, text }: ScanRequest) => {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // Data that is no JSON names nothing the extractor reads (its own URL still may).
    data = undefined;
  }
  try {
    parentPort!.postMessage({ id, scan: scanReferences(item, data) });
  } catch (err) {
    parentPort!.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
