/**
 * The fixed text the probe Worker counts; the test counts it again with tiktoken in Node. Mixed
 * scripts, emoji and a literal special token cover the paths where encoders tend to differ.
 */
export const PROBE_TEXT =
  'The ledger keeps evidence: `SELECT 42;` — naïve café, 東京, 🚀🚀, and a literal <|endoftext|> marker.';
