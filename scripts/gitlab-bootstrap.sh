#!/usr/bin/env bash
# gitlab-bootstrap.sh: make a fresh GitLab container ready for gitlab-api-conformance.
#
# Waits until GitLab answers, creates a personal access token of an administrator inside the
# container with `gitlab-rails runner` (scopes api and admin_mode, a few days of life, a random
# value set with token.set_token), checks it from outside when --url is given, and prints ONLY the
# token on stdout. Progress goes to stderr. Typical use (keep the token in a file, never in argv):
#
#   (umask 077; scripts/gitlab-bootstrap.sh --container gitlab --url http://localhost:8080 > .gitlab-token)
#   npx gitlab-api-conformance --target http://localhost:8080 --token-file .gitlab-token
#
# Exit codes: 0 token printed; 1 GitLab did not come up in time or the token could not be made;
# 2 bad usage.
set -eu

usage() {
  cat <<'EOF'
Usage: gitlab-bootstrap.sh (--container NAME | --compose-service SERVICE [--compose-file FILE])
                           [--url URL] [--user NAME] [--expires-days N] [--timeout SECONDS]
                           [--token-name NAME] [--dry-run]

  --container NAME          the GitLab container (docker exec)
  --compose-service SERVICE the GitLab service of a compose project (docker compose exec)
  --compose-file FILE       the compose file of that project (default: compose's own lookup)
  --url URL                 GitLab's base URL as seen from here; readiness is "GET URL/api/v4/version
                            answers 200 or 401", and the new token is checked against URL/api/v4/user.
                            Without it, readiness is asked inside the container (/-/readiness).
  --user NAME               the administrator who owns the token (default root)
  --expires-days N          days until the token expires (default 3)
  --timeout SECONDS         how long to wait for GitLab (default 900)
  --token-name NAME         name of the token in GitLab (default gitlab-api-conformance)
  --dry-run                 print the commands that would run (token shown as <token>); run nothing
  -h, --help                this text

Environment: DOCKER, the container CLI (default docker; podman works for --container).
Stdout carries the token and nothing else; everything else goes to stderr.
EOF
}

log() { printf 'gitlab-bootstrap: %s\n' "$*" >&2; }
usage_error() { log "$*"; log "run with --help for the options"; exit 2; }

container='' service='' compose_file='' url='' user='root' days=3 timeout=900
token_name='gitlab-api-conformance' dry_run=0
while [ $# -gt 0 ]; do
  case "$1" in
    --container|--compose-service|--compose-file|--url|--user|--expires-days|--timeout|--token-name)
      [ $# -ge 2 ] && [ "${2#--}" = "$2" ] || usage_error "$1 needs a value"
      case "$1" in
        --container) container=$2 ;;
        --compose-service) service=$2 ;;
        --compose-file) compose_file=$2 ;;
        --url) url=${2%/} ;;
        --user) user=$2 ;;
        --expires-days) days=$2 ;;
        --timeout) timeout=$2 ;;
        --token-name) token_name=$2 ;;
      esac
      shift 2 ;;
    --dry-run) dry_run=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage_error "unknown argument: $1" ;;
  esac
done

if [ -n "$container" ] && [ -n "$service" ]; then usage_error "give --container or --compose-service, not both"; fi
if [ -z "$container" ] && [ -z "$service" ]; then
  usage_error "the token is made inside the GitLab container: give --container NAME or --compose-service SERVICE"
fi
if [ -n "$compose_file" ] && [ -z "$service" ]; then usage_error "--compose-file goes with --compose-service"; fi
# These values are written into the Ruby the runner evaluates: allow nothing that could escape it.
[[ "$user" =~ ^[A-Za-z0-9_.][A-Za-z0-9_.-]*$ ]] || usage_error "--user: not a GitLab username: $user"
[[ "$token_name" =~ ^[A-Za-z0-9_.\ -]+$ ]] || usage_error "--token-name: letters, digits, space, _ . - only"
[[ "$days" =~ ^[1-9][0-9]*$ ]] && [ "$days" -le 365 ] || usage_error "--expires-days: a whole number from 1 to 365"
[[ "$timeout" =~ ^[1-9][0-9]*$ ]] || usage_error "--timeout: a whole number of seconds"
case "$url" in ''|http://*|https://*) ;; *) usage_error "--url must start with http:// or https://" ;; esac

docker=${DOCKER:-docker}
if [ -n "$container" ]; then
  exec_in=("$docker" exec -i "$container")
  target="container $container"
else
  compose=("$docker" compose)
  if [ -n "$compose_file" ]; then compose+=(-f "$compose_file"); fi
  exec_in=("${compose[@]}" exec -T "$service")
  target="compose service $service"
fi

# Prints a command the way a shell would read it back.
show() {
  local out='' arg
  for arg in "$@"; do out+="$(printf '%q' "$arg") "; done
  printf '%s\n' "${out% }"
}

# ---- 1. wait until GitLab answers -------------------------------------------------------------

ready_check() {
  if [ -n "$url" ]; then
    # 401 is an answer too: Rails is up, it wants a token. 502 while it boots.
    local code
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$url/api/v4/version" 2>/dev/null) || true
    [ "$code" = 200 ] || [ "$code" = 401 ]
  else
    "${exec_in[@]}" /opt/gitlab/embedded/bin/curl -fsS -o /dev/null --max-time 10 http://localhost/-/readiness >/dev/null 2>&1
  fi
}

if [ "$dry_run" = 1 ]; then
  echo "# wait (up to ${timeout}s, every 5s) until GitLab answers:"
  if [ -n "$url" ]; then
    echo "curl -s -o /dev/null -w '%{http_code}' --max-time 10 $(show "$url/api/v4/version")   # 200 or 401"
  else
    show "${exec_in[@]}" /opt/gitlab/embedded/bin/curl -fsS -o /dev/null --max-time 10 http://localhost/-/readiness
  fi
else
  if [ -n "$container" ]; then
    running=$("$docker" inspect -f '{{.State.Running}}' "$container" 2>/dev/null) || running=''
    [ "$running" = true ] || { log "container $container is not running (${DOCKER:-docker} inspect)"; exit 1; }
  fi
  log "waiting for GitLab (${url:-$target}), up to ${timeout}s …"
  start=$SECONDS
  until ready_check; do
    waited=$((SECONDS - start))
    if [ "$waited" -ge "$timeout" ]; then log "GitLab did not become ready in ${timeout}s"; exit 1; fi
    if [ $((waited % 60)) -lt 5 ] && [ "$waited" -ge 5 ]; then log "still waiting (${waited}s)"; fi
    sleep 5
  done
  log "GitLab answers after $((SECONDS - start))s"
fi

# ---- 2. create the token inside the container ---------------------------------------------------

if [ "$dry_run" = 1 ]; then
  token='<token>'
else
  # glpat- and 20 random letters and digits: shaped like a GitLab token, so reports mask it anyway.
  random=$(LC_ALL=C tr -dc 'A-Za-z0-9' < <(head -c 600 /dev/urandom) | head -c 20)
  [ ${#random} -eq 20 ] || { log "could not read 20 random characters from /dev/urandom"; exit 1; }
  token="glpat-$random"
fi

# The Ruby goes in on stdin (`runner -`), so the token is never in any process's argv.
ruby=$(cat <<RUBY
user = User.find_by_username('$user')
abort "gitlab-bootstrap: no user '$user'" unless user
abort "gitlab-bootstrap: '$user' is not an administrator" unless user.admin?
token = user.personal_access_tokens.create(scopes: [:api, :admin_mode], name: '$token_name', expires_at: $days.days.from_now)
token.set_token('$token')
token.save!
\$stderr.puts "gitlab-bootstrap: token #{token.id} for #{user.username}, scopes #{token.scopes.join(',')}, expires #{token.expires_at}"
RUBY
)

if [ "$dry_run" = 1 ]; then
  echo "# create the administrator's token inside the $target:"
  echo "$(show "${exec_in[@]}" gitlab-rails runner -) <<'RUBY'"
  printf '%s\nRUBY\n' "$ruby"
else
  log "creating a personal access token for '$user' with gitlab-rails runner in the $target (takes a minute) …"
  # The runner's own output (warnings, our line) goes to stderr: stdout is the token's alone.
  if ! printf '%s\n' "$ruby" | "${exec_in[@]}" gitlab-rails runner - >&2; then
    log "gitlab-rails runner failed; the token was not created"
    exit 1
  fi
fi

# ---- 3. check the token from outside, then print it ---------------------------------------------

if [ -n "$url" ]; then
  if [ "$dry_run" = 1 ]; then
    echo "# check the token from outside (header on stdin, not in argv): is_admin must be true"
    echo "printf 'PRIVATE-TOKEN: %s\\n' \"\$token\" | $(show curl -fsS --max-time 30 -H @- "$url/api/v4/user")"
  else
    me=$(printf 'PRIVATE-TOKEN: %s\n' "$token" | curl -fsS --max-time 30 -H @- "$url/api/v4/user" 2>/dev/null) || me=''
    case "$me" in
      *'"is_admin":true'*) log "token checked: $url/api/v4/user answers as an administrator" ;;
      *) log "the new token was not accepted as an administrator's by $url/api/v4/user"; exit 1 ;;
    esac
  fi
fi

if [ "$dry_run" = 1 ]; then
  echo "# print the token (stdout only)"
else
  printf '%s\n' "$token"
fi
