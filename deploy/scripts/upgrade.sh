#!/usr/bin/env bash
# Upgrades an installation to a new youyou executable: stop, back up the data (the rollback
# path: the pre-migration backup is restored, not a down migration), swap the binary, migrate,
# start, health check; on any failure, roll back to the previous binary and the backup.
#   upgrade.sh ./youyou-linux-x64 [--prefix DIR]
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=common.sh
. "$here/common.sh"

binary="" PREFIX="${YOUYOU_PREFIX:-}"
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) PREFIX="$2"; shift ;;
    -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
    -*) die "unknown option $1" ;;
    *) binary="$1" ;;
  esac
  shift
done
[ -n "$binary" ] && [ -f "$binary" ] || die "name the new youyou executable"
PREFIX="${PREFIX:-/opt/youyou}"
load_state
verify_checksum "$binary"

old_release=$(readlink "$PREFIX/current")
new_release=$(stage_release "$binary")
backup="$PREFIX/backups/pre-upgrade-$(basename "$new_release").tar"

service_stop
"$PREFIX/current/youyou" backup --data-dir "$DATA_DIR" --output "$backup" >&2
printf '%s\n' "$backup" >"$PREFIX/last-backup"
point previous "$old_release"
point current "$new_release"

roll_back() {
  say "upgrade failed: rolling back to $old_release and $backup"
  service_stop
  point current "$old_release"
  "$PREFIX/current/youyou" restore "$backup" --data-dir "$DATA_DIR" --force >&2
  service_start
  health_check || die "the rollback did not come up healthy either: see $PREFIX/youyou.log; the backup is $backup"
  say "rolled back; running $old_release"
  exit 1
}

"$PREFIX/current/youyou" migrate --data-dir "$DATA_DIR" >&2 || roll_back
service_start || roll_back
health_check || roll_back
say "upgraded to $new_release (backup: $backup)"
