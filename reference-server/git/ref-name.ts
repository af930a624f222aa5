// Git's rules for a branch name, as GitLab checks them before it makes a branch.

/** Gitlab::GitRefValidator.validate (lib/gitlab/git_ref_validator.rb), as `git check-ref-format refs/heads/<name>` and GitLab's extra prefixes. */
export function validRefName(name: string): boolean {
  if (name === '' || name === 'HEAD' || name === '@' || name.startsWith('-')) return false;
  if (/^refs\/(heads|remotes|tags)\//.test(name)) return false;
  if (/[\x00-\x20\x7f~^:?*[\\]|\.\.|@\{|\/\/|^\/|\/$|\.$|\/\.|^\./.test(name)) return false;
  return !name.split('/').some((part) => part.endsWith('.lock'));
}
