// GET /projects/:id/repository/files/:file_path and …/raw: the file_path values GitLab's validator
// refuses after decoding them once more (spec/lib/api/validations/validators/file_path_spec.rb).
import { expectError, expectStatus } from '../../runner/core/checks.js';
import { endpoint } from './kit.js';
import { fileUrl, GITLAB_TEXT } from './helpers.js';

/** Where GitLab decodes file_path once more and refuses what is left encoded, a traversal, a line feed or an absolute path. */
const DECODED_CHECK = `${GITLAB_TEXT.filePath}; lib/gitlab/path_traversal.rb (check_path_traversal!); lib/gitlab/utils.rb (decode_path); spec/lib/api/validations/validators/file_path_spec.rb`;

/**
 * file_path values as the validator receives them (after the one decoding of the URL's path segment):
 * fileUrl encodes each once more, so the request carries e.g. `foo%2F..` for `foo/..` and `%252e%252e%252f` for `%2e%2e%2f`.
 */
const REFUSED_VALUES = [
  // A trailing parent segment.
  'foo/..',
  'foo/../',
  // A backslash after the dots.
  '..\\',
  '..\\/',
  // Encoded dots and slash, decoded by the validator.
  '%2e%2e%2f',
  // A line feed, once decoded.
  'test%0a/etc/passwd',
  // Double and triple encoded slashes: decoding once more still leaves an encoding.
  '%252Ffoo%252Fbar%252Fnew%252Ffile.rb',
  'foo%252Fbar%252Fnew%252Ffile.rb',
  'foo%25252Fbar%25252Fnew%25252Ffile.rb',
  // Encoded slashes around a parent segment, and an encoded leading slash (absolute once decoded).
  '%2F..%2Fetc',
  '%2Ffoo%2F..%2Fbar',
  '%2Ffoo%2Fbar%2Fnew%2Ffile.rb',
];

const get = endpoint('get');

get.test(
  {
    case: 'decoded-traversal',
    title: 'file_path values that decode to a traversal, a line feed or an absolute path, or stay encoded once decoded, are refused with 400 "file_path should be a valid file path"',
    clauses: ['files.path.decoded-traversal'],
    level: 'parity',
  },
  async ({ as, files }) => {
    const { publicProject, branch } = files;
    // Beyond the spec's /../ segment: how GitLab's validator decodes, so the whole test is a parity check.
    for (const value of REFUSED_VALUES) {
      const res = await as('developer').get(fileUrl(publicProject, value), { query: { ref: branch } });
      expectError(res, 400, { error: 'file_path should be a valid file path', gitlab: DECODED_CHECK });
    }
    // Values the validator lets through: a leading `./`, and slashes encoded once (decoded once, they decode no further).
    for (const value of ['./foo', './bar.rb', 'foo%2Fbar%2Fnew%2Ffile.rb', 'foo%2Fbar%2Fnew']) {
      expectStatus(await as('developer').get(fileUrl(publicProject, value), { query: { ref: branch } }), [200, 404], `file_path ${JSON.stringify(value)} to pass the validator (${DECODED_CHECK})`);
    }
  },
);

const raw = endpoint('raw');

raw.test(
  {
    case: 'decoded-traversal',
    title: 'on raw too, encoded slashes around a parent segment and double-encoded traversal are refused with 400 "file_path should be a valid file path"',
    clauses: ['files.path.decoded-traversal'],
    level: 'parity',
  },
  async ({ as, files }) => {
    const { publicProject, branch } = files;
    for (const value of ['%2F..%2Fetc', '%2Ffoo%2F..%2Fetc%2Fpasswd', '%2Ffoo%2F..%2Fbar', '%252E%252E%252F', '%2Ffoo%252E%252E%252Fbar']) {
      const res = await as('developer').get(`${fileUrl(publicProject, value)}/raw`, { query: { ref: branch } });
      expectError(res, 400, { error: 'file_path should be a valid file path', gitlab: DECODED_CHECK });
    }
  },
);
