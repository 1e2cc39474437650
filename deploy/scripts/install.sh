#!/usr/bin/env bash
# Installs the youyou single executable: places it under PREFIX/releases, creates the data
# directory, installs and starts the systemd unit (system or --user), waits for a healthy answer.
#   install.sh ./youyou-linux-x64 [--user] [--no-systemd] [--prefix DIR] [--data-dir DIR] [--port N] [--no-start]
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=common.sh
. "$here/common.sh"

binary="" MODE=system PREFIX="" DATA_DIR="" PORT=4280 start=yes
while [ $# -gt 0 ]; do
  case "$1" in
    --user) MODE=user ;;
    --no-systemd) MODE=none ;;
    --prefix) PREFIX="$2"; shift ;;
    --data-dir) DATA_DIR="$2"; shift ;;
    --port) PORT="$2"; shift ;;
    --no-start) start=no ;;
    -h|--help) sed -n '2,4p' "$0"; exit 0 ;;
    -*) die "unknown option $1" ;;
    *) binary="$1" ;;
  esac
  shift
done
[ -n "$binary" ] && [ -f "$binary" ] || die "name the youyou executable to install"
if [ "$MODE" = user ] || [ "$MODE" = none ]; then
  PREFIX="${PREFIX:-$HOME/.local/opt/youyou}"
  DATA_DIR="${DATA_DIR:-$HOME/.youyou/workbench}"
else
  PREFIX="${PREFIX:-/opt/youyou}"
  DATA_DIR="${DATA_DIR:-/var/lib/youyou}"
fi
[ -e "$PREFIX/current" ] && die "$PREFIX already has an installation: use upgrade.sh"

verify_checksum "$binary"
mkdir -p "$PREFIX/backups" "$PREFIX/cache" "$DATA_DIR"
chmod 700 "$DATA_DIR"
release=$(stage_release "$binary")
point current "$release"
cat >"$PREFIX/deploy.env" <<STATE
MODE=$MODE
DATA_DIR=$DATA_DIR
PORT=$PORT
STATE
"$PREFIX/current/youyou" version

if [ "$MODE" != none ]; then
  if [ "$MODE" = user ]; then
    unit_dir="${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user"
    template="$here/../systemd/youyou-user.service"
  else
    unit_dir=/etc/systemd/system
    template="$here/../systemd/youyou.service"
    id -u youyou >/dev/null 2>&1 || useradd --system --home-dir "$DATA_DIR" --shell /usr/sbin/nologin youyou
    chown -R youyou: "$DATA_DIR"
  fi
  mkdir -p "$unit_dir"
  sed -e "s#@PREFIX@#$PREFIX#g" -e "s#@DATA_DIR@#$DATA_DIR#g" -e "s#@PORT@#$PORT#g" -e "s#@SERVICE_USER@#youyou#g" \
    "$template" >"$unit_dir/youyou.service"
  systemctl_for_mode daemon-reload
  systemctl_for_mode enable youyou.service
fi
if [ "$start" = yes ]; then
  service_start
  health_check || die "installed, but the server did not answer (see the service's log)"
  say "running on http://127.0.0.1:$PORT (sign in with the URL in the log, or the token in $DATA_DIR/token)"
fi
say "installed $release"
