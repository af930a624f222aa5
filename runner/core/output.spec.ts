// The output filter every command prints through (output.ts): secrets masked, a target's control
// characters shown escaped, whole characters across chunks, and the command's own terminal control
// around it.
import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { escapeControls, filterOutput, safeText, writeUnfiltered } from './output.js';
import { REDACTED, registerSecret } from './redact.js';

/** A stream that keeps what reaches it. */
function sink(): Writable & { text: string } {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      stream.text += chunk.toString('utf8');
      done();
    },
  }) as Writable & { text: string };
  stream.text = '';
  return stream;
}

describe('the output filter', () => {
  test('control characters are written out; newline, tab and printable text stay', () => {
    expect(escapeControls('v17\u001b]0;pwned\u0007\u001b[2K\rPASSED\u0000\u007f\u009b\u202e\tok\n')).toBe('v17\\x1b]0;pwned\\x07\\x1b[2K\\rPASSED\\x00\\x7f\\x9b\\u202e\tok\n');
    expect(escapeControls('naïve — 名前 ✓')).toBe('naïve — 名前 ✓');
  });

  test('safe text masks registered secrets and token shapes, then escapes', () => {
    registerSecret('output-spec-secret-1');
    expect(safeText('root output-spec-secret-1\u001b[2K glpat-abcdefghijklmnop1234')).toBe(`root ${REDACTED}\\x1b[2K ${REDACTED}`);
  });

  test('every write of a filtered stream passes the filter, strings and bytes alike, a character split across chunks whole; writeUnfiltered goes around it', async () => {
    registerSecret('output-spec-secret-2');
    const out = sink();
    filterOutput(undefined, [out]);
    filterOutput((text) => text.toUpperCase(), [out]); // a stream is filtered once: the second call changes nothing
    out.write('user output-spec-secret-2\u0007\n');
    const bytes = Buffer.from('名\u001b]0;t\u0007\n');
    out.write(bytes.subarray(0, 2));
    out.write(bytes.subarray(2));
    await new Promise<void>((resolve) => out.write('done\n', () => resolve()));
    writeUnfiltered(out, '\r\u001b[K');
    expect(out.text).toBe(`user ${REDACTED}\\x07\n名\\x1b]0;t\\x07\ndone\n\r\u001b[K`);
    // console.log through a filtered stream: the same.
    const log = new Console({ stdout: out });
    log.log('v\u001b[31m');
    expect(out.text.endsWith('v\\x1b[31m\n')).toBe(true);
  });
});
