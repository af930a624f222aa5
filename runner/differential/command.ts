// `gitlab-api-conformance diff BASELINE CANDIDATE [--noise SECOND_BASELINE]…`: compares two
// transcripts offline and writes the reports. Exit codes: 0 nothing differs beyond noise, 1 something
// does, 2 the files cannot be compared (unreadable, invalid, another format version, another selection
// of tests: the message says which) or the arguments are wrong.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { diffTranscripts, IncomparableError } from './diff.js';
import { diffHtml } from './html.js';
import { maskTokens } from './secrets.js';
import { diffJson, diffMarkdown, terminalSummary } from './text-reports.js';
import { READABLE_VERSIONS, readTranscript, TranscriptError, type Transcript } from './transcript.js';

export const DIFF_HELP = `Usage:
  gitlab-api-conformance diff BASELINE CANDIDATE [--noise SECOND_BASELINE]... [--report-dir DIR] [--format LIST]

Compares two transcripts (written by \`gitlab-api-conformance record\`), exchange by exchange, after
normalizing what differs between any two runs (ids and names of the run's objects, the run prefix, the
target's address, times; docs/differential.md). Needs no access to either target.

  BASELINE, CANDIDATE        transcript files (.jsonl, or gzipped)
  --noise FILE               a second recording of the baseline's target (repeatable): what differs
                             between it and BASELINE is noise, reported apart and never counted
  --report-dir DIR           where the reports go (default reports)
  --format LIST              which reports to write: json, markdown, html, none (comma list; default
                             json,markdown,html): diff.json, diff.md, diff.html

Exit codes: 0 nothing differs beyond noise, 1 something does, 2 the files cannot be compared
(unreadable or invalid, another format version, another selection of tests).`;

const FORMATS = { json: 'diff.json', markdown: 'diff.md', html: 'diff.html' } as const;
type Format = keyof typeof FORMATS;

export interface DiffIo {
  out(text: string): void;
  err(text: string): void;
}

const CONSOLE: DiffIo = { out: (t) => console.log(t), err: (t) => console.error(t) };

class UsageError extends Error {}

function formatsOf(value: string | undefined): Format[] {
  if (value === undefined) return ['json', 'markdown', 'html'];
  const names = value.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean).map((s) => (s === 'md' ? 'markdown' : s));
  if (names.length === 1 && names[0] === 'none') return [];
  const unknown = names.filter((n) => !Object.hasOwn(FORMATS, n));
  if (unknown.length || names.length === 0) throw new UsageError(`--format takes json, markdown, html or none, got "${value}"`);
  return [...new Set(names as Format[])];
}

/**
 * Reads every transcript. A file of a format version this tool does not read, or versions that differ,
 * give a problem that names every file's version; any other problem is thrown (TranscriptError).
 */
function readAll(files: string[]): { transcripts: Transcript[]; problem?: string } {
  const read = files.map((file) => {
    try {
      const transcript = readTranscript(file);
      return { file, transcript, version: transcript.header.version };
    } catch (error) {
      if (error instanceof TranscriptError && error.version !== undefined) return { file, version: error.version };
      throw error;
    }
  });
  const unreadable = read.some((r) => !r.transcript);
  if (!unreadable && new Set(read.map((r) => r.version)).size === 1) return { transcripts: read.map((r) => r.transcript!) };
  return {
    transcripts: [],
    problem: `the transcripts cannot be compared: ${read.map((r) => `${r.file} is format version ${r.version}`).join(', ')} (this tool reads version ${READABLE_VERSIONS.join(', ')})`,
  };
}

/** The `diff` subcommand: returns the exit code; prints the summary on `io.out` and problems on `io.err`. */
export function runDiff(args: string[], io: DiffIo = CONSOLE): number {
  try {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { noise: { type: 'string', multiple: true }, 'report-dir': { type: 'string' }, format: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      io.out(DIFF_HELP);
      return 0;
    }
    if (positionals.length !== 2) throw new UsageError(`diff takes two transcripts, BASELINE and CANDIDATE; got ${positionals.length}`);
    const formats = formatsOf(values.format);
    const [baselineFile, candidateFile] = positionals;
    const noiseFiles = values.noise ?? [];
    const { transcripts, problem } = readAll([baselineFile, candidateFile, ...noiseFiles]);
    if (problem) {
      io.err(maskTokens(`gitlab-api-conformance diff: ${problem}`));
      return 2;
    }
    const [baseline, candidate, ...noise] = transcripts;
    const result = diffTranscripts(baseline, candidate, noise);
    const dir = values['report-dir'] ?? 'reports';
    const written: string[] = [];
    if (formats.length) mkdirSync(dir, { recursive: true });
    const writers: Record<Format, () => string> = { json: () => diffJson(result), markdown: () => diffMarkdown(result), html: () => diffHtml(result) };
    for (const format of formats) {
      const path = join(dir, FORMATS[format]);
      writeFileSync(path, writers[format]());
      written.push(path);
    }
    io.out(terminalSummary(result, written));
    return result.summary.differences > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof TranscriptError || error instanceof IncomparableError) {
      io.err(maskTokens(`gitlab-api-conformance diff: ${error.message}`));
      return 2;
    }
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`gitlab-api-conformance diff: ${(error as Error).message}\nRun \`gitlab-api-conformance diff --help\` for the options.`);
      return 2;
    }
    throw error;
  }
}
