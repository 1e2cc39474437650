#!/usr/bin/env bash
# Goes back to the previous binary and the backup taken before the last upgrade. Data written
# since that upgrade is kept aside: the current data is backed up to backups/before-rollback-*.tar
# and moved to <data-dir>.before-restore-*, not deleted.
#   rollback.sh [--prefix DIR]
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=common.sh
. "$here/common.sh"

PREFIX="${YOUYOU_PREFIX:-/opt/youyou}"
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) PREFIX="$2"; shift ;;
    -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
    *) die "unknown option $1" ;;
  esac
  shift
done
load_state
[ -e "$PREFIX/previous" ] || die "no previous release to roll back to"
backup=$(cat "$PREFIX/last-backup" 2>/dev/null || true)
[ -n "$backup" ] && [ -f "$backup" ] || die "no pre-upgrade backup recorded in $PREFIX/last-backup"

current_release=$(readlink "$PREFIX/current")
previous_release=$(readlink "$PREFIX/previous")
service_stop
"$PREFIX/current/youyou" backup --data-dir "$DATA_DIR" --output "$PREFIX/backups/before-rollback-$(date -u +%Y%m%d%H%M%S).tar" >&2
point current "$previous_release"
point previous "$current_release"
"$PREFIX/current/youyou" restore "$backup" --data-dir "$DATA_DIR" --force >&2
service_start
health_check || die "the rolled-back server did not answer: see its log"
say "rolled back to $previous_release with $backup"
