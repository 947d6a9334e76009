#!/usr/bin/env bash
# make check-slurm: a one-node Slurm cluster on localhost from Debian's packages (munge,
# slurmctld, slurmd), configured in a temporary folder; the array job of docs/scale-out.md,
# taken from the page as written (only its photo root pointed at SampleImages), submitted with
# `sbatch --array=1-4 --wait`; the parts assembled and compared byte for byte with a one-process
# render of the same manifest. The daemons are stopped whatever happens.
# usage: Tests/Slurm/check_slurm.sh IMAGEWALL_BINARY
set -euo pipefail
bin=$(realpath "$1")
root=$(pwd)
work=$(mktemp -d /tmp/imagewall-slurm.XXXXXX)
started_munge=""
stop() {
  for pidfile in "$work/slurmd.pid" "$work/slurmctld.pid"; do
    [ -s "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
  done
  [ -n "$started_munge" ] && kill "$started_munge" 2>/dev/null || true
  sleep 1
  rm -rf "$work"
}
trap stop EXIT
fail() { echo "check-slurm: $*" >&2; for f in "$work"/*.log "$work"/logs/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -20 "$f"; }; done >&2; exit 1; }

# munge: a key and its daemon, run as the munge user.
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    chown munge:munge /etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
  fi
  mkdir -p /run/munge && chown munge:munge /run/munge && chmod 755 /run/munge
  rm -f /run/munge/munged.pid
  runuser -u munge -- /usr/sbin/munged 2>"$work/munged.log" || fail "munged did not start"
  for _ in $(seq 50); do [ -s /run/munge/munged.pid ] && break; sleep 0.1; done
  started_munge=$(cat /run/munge/munged.pid 2>/dev/null || pgrep -u munge -x munged | head -1)
  munge -n | unmunge >/dev/null || fail "munge does not work"
fi

host=$(hostname -s)
cpus=$(nproc)
memory=$(awk '/MemTotal/ { printf "%d", $2 / 1024 * 0.8 }' /proc/meminfo)
mkdir -p "$work/state" "$work/spool" "$work/logs" "$work/parts"
cat > "$work/slurm.conf" <<CONF
ClusterName=imagewall-check
SlurmctldHost=$host
SlurmUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
/usr/sbin/slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start"
/usr/sbin/slurmd -f "$SLURM_CONF" || fail "slurmd did not start"
for _ in $(seq 100); do
  sinfo -h -o %T 2>/dev/null | grep -qx idle && break
  sleep 0.2
done
sinfo -h -o %T | grep -qx idle || fail "the node is not idle: $(sinfo -h -o '%T %E' 2>&1)"

# The job script exactly as docs/scale-out.md gives it, its photo root made SampleImages.
awk '/^## Slurm array job/ { section = 1 } section && /^```sh/ { copy = 1; next } copy && /^```/ { exit } copy' \
  "$root/docs/scale-out.md" | sed "s#/shared/photos#$root/SampleImages#" > "$work/wall.sbatch"
grep -q '^#SBATCH' "$work/wall.sbatch" || fail "no job script found under '## Slurm array job' in docs/scale-out.md"
cd "$work"
mkdir -p bin && ln -s "$bin" bin/imagewall
export PATH="$work/bin:$PATH"
imagewall layout "$root/SampleImages" --max-height 3000 --json > wall.json
sbatch --array=1-4 --wait wall.sbatch > sbatch.out || fail "the array job failed: $(cat sbatch.out)"
job=$(awk '{ print $NF }' sbatch.out)
states=$(sacct -X -n -j "$job" -o State 2>/dev/null | sort | uniq -c | xargs || true)
imagewall assemble parts/part-* -o sheet.png -q || fail "assemble failed"
imagewall render --from-manifest wall.json --root "$root/SampleImages" -o one.png --no-cache -q
pages=0
for page in one*.png; do
  cmp "$page" "sheet${page#one}" || fail "$page differs from the assembled sheet"
  pages=$((pages + 1))
done
echo "check-slurm: job $job, 4 array tasks on $host ($cpus CPUs) ${states:+($states) }assembled into $pages page(s), the same bytes as one process"
