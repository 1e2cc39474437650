# Shared by install.sh, upgrade.sh and rollback.sh. Layout under $PREFIX:
#   releases/<id>/youyou   every installed binary      current -> releases/<id>   previous -> …
#   backups/*.tar          youyou backup archives      deploy.env (what install chose)
#   youyou.pid, youyou.log (with --no-systemd)
set -euo pipefail

say() { printf 'youyou-deploy: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

HEALTH_TIMEOUT="${YOUYOU_HEALTH_TIMEOUT:-30}"

load_state() {
  [ -f "$PREFIX/deploy.env" ] || die "no installation at $PREFIX (run install.sh first)"
  # shellcheck disable=SC1091
  . "$PREFIX/deploy.env"
}

systemctl_for_mode() {
  if [ "$MODE" = user ]; then systemctl --user "$@"; else systemctl "$@"; fi
}

service_stop() {
  if [ "$MODE" = none ]; then
    if [ -f "$PREFIX/youyou.pid" ]; then
      local pid
      pid=$(cat "$PREFIX/youyou.pid")
      if kill -0 "$pid" 2>/dev/null; then
        kill "$pid"
        for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
        kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
      fi
      rm -f "$PREFIX/youyou.pid"
    fi
  else
    systemctl_for_mode stop youyou.service || true
  fi
}

service_start() {
  if [ "$MODE" = none ]; then
    XDG_CACHE_HOME="$PREFIX/cache" nohup "$PREFIX/current/youyou" serve --data-dir "$DATA_DIR" --port "$PORT" \
      >>"$PREFIX/youyou.log" 2>&1 </dev/null &
    echo $! >"$PREFIX/youyou.pid"
  else
    systemctl_for_mode start youyou.service
  fi
}

# GET /api/health with the data directory's token until it answers 200 (curl, or bash's /dev/tcp).
health_check() {
  local deadline=$((SECONDS + HEALTH_TIMEOUT)) token status
  while [ "$SECONDS" -lt "$deadline" ]; do
    if [ "$MODE" = none ] && [ -f "$PREFIX/youyou.pid" ] && ! kill -0 "$(cat "$PREFIX/youyou.pid")" 2>/dev/null; then
      say "the server exited (see $PREFIX/youyou.log)"
      return 1
    fi
    token=$(cat "$DATA_DIR/token" 2>/dev/null || true)
    if [ -n "$token" ]; then
      if command -v curl >/dev/null 2>&1; then
        status=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "http://127.0.0.1:$PORT/api/health" || true)
      else
        status=$( (exec 3<>"/dev/tcp/127.0.0.1/$PORT" &&
          printf 'GET /api/health HTTP/1.0\r\nHost: 127.0.0.1\r\nAuthorization: Bearer %s\r\n\r\n' "$token" >&3 &&
          head -1 <&3 | cut -d' ' -f2) 2>/dev/null || true)
      fi
      if [ "$status" = 200 ]; then return 0; fi
    fi
    sleep 0.5
  done
  say "no healthy answer on 127.0.0.1:$PORT within ${HEALTH_TIMEOUT}s"
  return 1
}

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

# Checks a binary against the .sha256 file beside it, when there is one.
verify_checksum() {
  local binary="$1"
  if [ -f "$binary.sha256" ]; then
    local expected actual
    expected=$(cut -d' ' -f1 "$binary.sha256")
    actual=$(sha256_of "$binary")
    [ "$expected" = "$actual" ] || die "$binary does not match $binary.sha256"
    say "checksum ok ($actual)"
  fi
}

# Copies a binary into releases/<time>-<hash>/ and prints that folder.
stage_release() {
  local binary="$1" id
  id="$(date -u +%Y%m%d%H%M%S%N)-$(sha256_of "$binary" | cut -c1-12)"
  mkdir -p "$PREFIX/releases/$id"
  cp "$binary" "$PREFIX/releases/$id/youyou"
  chmod 755 "$PREFIX/releases/$id/youyou"
  printf '%s\n' "$PREFIX/releases/$id"
}

# Points a link (current, previous) at a release folder, atomically.
point() {
  ln -sfn "$2" "$PREFIX/$1.new"
  mv -T "$PREFIX/$1.new" "$PREFIX/$1"
}
