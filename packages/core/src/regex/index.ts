export {
  type BoundedMatchOutcome,
  type BoundedMatchRequest,
  matchRegexBounded,
  type RegexMatcher,
} from './bounded-match.js';
export { showRegex } from './show-regex.js';
