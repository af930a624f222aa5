// Tokens never leave the diff tool: a transcript is masked by its recorder, and the reader masks again
// whatever still looks like a token (core/redact.ts's forms, and the broader shape below), before any
// rule or report sees it. The reports mask every value they print once more, and every whole report
// its token shapes.
import { redact, REDACTED } from '../core/redact.js';

/** Any GitLab-style token: `gl` and a short type (`glpat`, `gldt`, `glrt`, …), a dash and 16 or more token characters. */
const TOKEN_SHAPE = /\bgl[a-z]{1,4}-[A-Za-z0-9_-]{16,}/g;

/** Request headers whose value is a credential, whatever it looks like. */
export const CREDENTIAL_HEADERS = /^(private-token|authorization|job-token|deploy-token|cookie|proxy-authorization|x-gitlab-token)$/i;

export { REDACTED };

/**
 * One value, or one line of a transcript, with every token-shaped string and every credential after
 * a `private-token` or `authorization` name masked. Not for a whole HTML or Markdown page: a credential
 * runs to the next space or quote, which in a page may be markup.
 */
export function maskTokens(text: string): string {
  return redact(text).replace(TOKEN_SHAPE, REDACTED);
}

/** A whole report: its token shapes masked (they hold no markup character). */
export function maskTokenShapes(text: string): string {
  return text.replace(TOKEN_SHAPE, REDACTED);
}
