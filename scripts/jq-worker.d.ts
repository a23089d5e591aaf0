/** The worker thread --jq runs jq in, as the text of one CommonJS script (scripts/jq-worker.js). */
export function jqWorkerSource(): Promise<string>
