// What the commands print, filtered at one place (issue #49): a target's text reaches the terminal
// in failure lines, the clean-up's lines, the version it reports. `filterOutput` wraps the writes of
// the process's stdout and stderr once, at the command's start, so every line any module prints
// (console, vitest's own logger, what worker threads print through the process) has the registered
// secrets and the token shapes masked (redact.ts) and control characters shown escaped (`\x1b`, `\r`):
// a target cannot retitle the terminal, ring it, or overwrite a line. The command's own terminal
// control (the progress line's carriage return) goes around it, through `writeUnfiltered`.
import { StringDecoder } from 'node:string_decoder';
import { redact } from './redact.js';

/**
 * What a terminal acts on or reorders: C0 controls but newline and tab (ESC starts every escape
 * sequence, BEL ends an OSC one, CR returns to the line's start), DEL, the C1 controls (U+009B is a
 * CSI of its own), and the bidirectional overrides, which show text in another order than it is.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** The text with every control character written out as an escape: `\x1b`, `\x07`, `\r`, `\u202e`. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (ch) => {
    const code = ch.charCodeAt(0);
    if (code === 0x0d) return '\\r';
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** A text fit for a terminal or a log: secrets masked, control characters escaped. */
export function safeText(text: string): string {
  return escapeControls(redact(text));
}

type Write = (text: string, callback?: (error?: Error | null) => void) => boolean;
const originals = new Map<NodeJS.WritableStream, Write>();

/**
 * Filters every write to `streams` (default: the process's stdout and stderr) through `filter`
 * from now on; a stream filtered already stays as it is. Text comes as strings or as bytes (a worker
 * thread's output arrives in chunks): a character split across two chunks is put together first.
 */
export function filterOutput(filter: (text: string) => string = safeText, streams: NodeJS.WritableStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    if (originals.has(stream)) continue;
    const write = stream.write.bind(stream) as Write;
    originals.set(stream, write);
    const decoder = new StringDecoder('utf8');
    stream.write = ((chunk: string | Uint8Array, encoding?: BufferEncoding | ((error?: Error | null) => void), callback?: (error?: Error | null) => void) => {
      const done = typeof encoding === 'function' ? encoding : callback;
      const text = typeof chunk === 'string' ? (typeof encoding === 'string' && !/^utf-?8$/i.test(encoding) ? Buffer.from(chunk, encoding).toString('utf8') : chunk) : decoder.write(Buffer.from(chunk));
      return write(filter(text), done);
    }) as NodeJS.WritableStream['write'];
  }
}

/** Writes `text` as it is, around the filter: for the command's own terminal control (the progress line), never for a target's text. */
export function writeUnfiltered(stream: NodeJS.WritableStream, text: string): void {
  (originals.get(stream) ?? (stream.write.bind(stream) as Write))(text);
}
