// `gitlab-api-conformance sweep`: undoes what a killed run left on the target, from its ledgers or
// by its run prefix, or forgets a ledger.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '../runner/core/client.js';
import { ConfigError } from '../runner/core/errors.js';
import { registerSecret } from '../runner/core/redact.js';
import { flagged, loadConfig } from '../runner/run/config.js';
import { normalizeTarget } from '../runner/run/instance-identity.js';
import { Ledger } from '../runner/run/ledger.js';
import { describePending, sweepLedger, sweepPrefix, type Pending, type SweepResult } from '../runner/run/removal.js';

export const SWEEP_HELP = `Usage: gitlab-api-conformance sweep --target URL [--token-file PATH] [--ledger FILE] [--dry-run]
       gitlab-api-conformance sweep --target URL [--token-file PATH] --prefix cnf-<run id>
       gitlab-api-conformance sweep --forget <run id>

Undoes what a killed run left on the target: deletes the users, groups and projects its ledger
lists, revokes the tokens it made for a user that stays, and puts back an instance setting it changed. Only what that run made on that target: a
ledger names its target and instance in its first line, and a ledger of another target or instance
is left alone; each object is read before its DELETE, and one whose id now names another (its
username or full path is not the one recorded, with the run prefix) is left and reported.

  --target URL, --token-file PATH   the target and an administrator's token, as for a run
  --ledger FILE              undo what this ledger lists (default: every ledger in .conformance/
                             written against --target); a ledger of another target exits 2
  --dry-run                  with ledgers: read only, print what would be undone
  --prefix PREFIX            for a run whose ledger is lost: delete the users, groups and projects
                             whose names start with this run prefix ("cnf-<run id>"), each read
                             before its DELETE as a ledger's are
  --forget RUN_ID            drop the ledger of that run for good (.conformance/ledger-<run id>.jsonl),
                             as for a server that is gone; nothing on any target is touched

A group or project GitLab keeps pending deletion (marked: GitLab 17 Premium and Ultimate, 18 every
tier) counts as removed: GitLab removes it when the instance's deletion delay has passed. A ledger
of another instance at this URL, or of a target that does not answer, is listed and left alone.

Exit codes: 0 everything undone (or pending deletion); 1 something could not be undone; 2 a bad
call, a named ledger of another target or instance, or a search answer --prefix cannot use.

Example:
  gitlab-api-conformance sweep --target https://gitlab.example.com --token-file admin.token --dry-run`;

export async function sweep(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { target: { type: 'string' }, 'token-file': { type: 'string' }, ledger: { type: 'string' }, prefix: { type: 'string' }, 'dry-run': { type: 'boolean' }, forget: { type: 'string' } },
  });
  if (values.forget !== undefined) return forgetLedger(values.forget);
  const config = loadConfig(process.env, '.env', undefined, { ...flagged('CONFORMANCE_TARGET_URL', values.target, '--target'), ...flagged('CONFORMANCE_ADMIN_TOKEN_FILE', values['token-file'], '--token-file') });
  if (config.targetUrl === undefined) throw new ConfigError('sweep needs a target: --target URL (or CONFORMANCE_TARGET_URL) and an admin token');
  registerSecret(config.adminToken);
  const admin = new Client(config.targetUrl, config.adminToken, 'admin (sweep)', { timeoutMs: config.requestTimeoutMs, maxBytes: config.maxAnswerBytes });
  const dryRun = values['dry-run'] === true;
  if (values.prefix !== undefined) {
    if (!/^cnf[-_][0-9a-f]{6,}/.test(values.prefix)) throw new ConfigError(`--prefix must be a run prefix such as cnf-2611221016ab12, got "${values.prefix}"`);
    if (dryRun) throw new ConfigError('--dry-run goes with ledgers only, not with --prefix');
    const result = await sweepPrefix(admin, values.prefix);
    if (result.unusable !== undefined) {
      console.error(`sweep: ${result.unusable}; nothing removed`);
      return 2;
    }
    console.log(`sweep: removed ${result.removed} object(s)${result.left.length ? `; could not undo ${result.left.join(', ')}` : ''}`);
    return result.left.length > 0 ? 1 : 0;
  }
  const named = values.ledger !== undefined;
  if (named && !existsSync(values.ledger!)) throw new ConfigError(`--ledger ${values.ledger}: no such file`);
  const ledgers = named ? [values.ledger!] : existsSync('.conformance') ? readdirSync('.conformance').filter((f) => f.startsWith('ledger-')).map((f) => join('.conformance', f)) : [];
  let removed = 0;
  let restored = 0;
  let otherTargets = 0;
  let refused = false;
  const left: string[] = [];
  const pending: Pending[] = [];
  for (const ledger of ledgers) {
    const result = await sweepLedger(admin, ledger, { target: config.targetUrl, dryRun }).catch((error: unknown) => ({ ...emptySweep(), refused: (error as Error).message }));
    if (result.refused !== undefined) {
      // Unnamed, a ledger of another target is another run's business: counted, not refused.
      const header = Ledger.header(ledger);
      if (!named && header !== undefined && header.target !== normalizeTarget(config.targetUrl)) otherTargets++;
      else if (!named) {
        // Another instance at this URL (a server since gone), or one that does not answer: listed, and
        // left for `sweep --forget` or a later sweep; the rest of this target's sweep stands.
        console.error(`sweep: ledger ${ledger} left alone: ${result.refused}; \`gitlab-api-conformance sweep --forget ${header?.runId ?? '<run id>'}\` drops it`);
      } else {
        refused = true;
        console.error(`sweep: ledger ${ledger} left alone, nothing removed: ${result.refused}`);
      }
      continue;
    }
    for (const line of result.wouldUndo) console.log(`sweep --dry-run: would ${line}`);
    removed += result.removed;
    restored += result.restored;
    left.push(...result.left);
    pending.push(...result.pending);
  }
  const skipped = otherTargets ? `; ${otherTargets} ledger(s) of other targets not considered` : '';
  const done = dryRun ? 'dry run, nothing removed' : `removed ${removed} object(s)${restored ? `, put back ${restored} instance setting(s)` : ''}`;
  const marked = pending.length ? `; of them ${describePending(pending).join(', ')}` : '';
  console.log(`sweep: ${done}${marked}${left.length ? `; ${dryRun ? 'would leave' : 'could not undo'} ${left.join(', ')}` : ''}${skipped}`);
  if (refused && named) return 2;
  return left.length > 0 || refused ? 1 : 0;
}

function emptySweep(): SweepResult {
  return { removed: 0, pending: [], restored: 0, left: [], wouldUndo: [] };
}

/** `sweep --forget <run id>`: drops that run's ledger (and a --keep run's tokens file) for good, touching no target. */
function forgetLedger(runId: string): number {
  if (!/^[0-9a-f]{6,}$/.test(runId)) throw new ConfigError(`--forget takes a run id such as 2611221016ab12 (the ledger is .conformance/ledger-<run id>.jsonl), got "${runId}"`);
  const ledger = join('.conformance', `ledger-${runId}.jsonl`);
  if (!existsSync(ledger)) throw new ConfigError(`--forget ${runId}: no ledger ${ledger}`);
  rmSync(ledger);
  rmSync(join('.conformance', `kept-${runId}.tokens.json`), { force: true });
  console.log(`sweep: forgot ledger ${ledger}; what it still listed stays on its target`);
  return 0;
}
