/**
 * `context-ledger/recorder`: record a live conversation into a ledger, turn by turn. `fromAISDK`
 * and `fromOpenAIAgents` (the AI SDK's and the Agents SDK's transcript adapters) live here rather
 * than in the main entry, which stays free of framework shapes.
 */
export { fromAISDK } from '../adapters/chat/ai-sdk.js';
export { fromOpenAIAgents } from '../adapters/chat/openai-agents.js';
export {
  type MessageFormat,
  type RecorderOptions,
  type RecordResult,
  recordSession,
  SessionRecorder,
} from './session-recorder.js';
