export {
  type BoundedMatchOutcome,
  type BoundedMatchRequest,
  matchRegexBounded,
  prewarmRegexMatcher,
  type RegexMatcher,
} from './bounded-match.js';
export { showRegex } from './show-regex.js';
