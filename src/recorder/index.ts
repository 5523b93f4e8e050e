/**
 * `context-ledger/recorder`: record a live conversation into a ledger, turn by turn. `fromAISDK`
 * (the AI SDK transcript adapter) lives here rather than in the main entry, which stays free of
 * framework shapes.
 */
export { fromAISDK } from '../adapters/chat/ai-sdk.js';
export {
  type MessageFormat,
  type RecorderOptions,
  type RecordResult,
  recordSession,
  SessionRecorder,
} from './session-recorder.js';
