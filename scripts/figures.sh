# figures.sh: sourced by the scripts that measure (check-matrix.sh,
# bench-runtime.sh): figures_file writes what they printed into a file of
# the tree, with where and when it was measured, so that the READMEs'
# figures are written by the command that measures them, never by hand.
# Debug: the files are plain markdown; `git diff` shows what a run changed.

# figures_file FILE COMMAND BODY [fence]: FILE gets a header naming
# COMMAND, the date, the commit (and whether the tree had changes), the
# machine and its load, then BODY's lines (in a code block with fence).
figures_file() {
	_top=$(cd "$(dirname "$1")" && git rev-parse --show-toplevel 2>/dev/null) || _top=
	_commit=$( [ -n "$_top" ] && git -C "$_top" describe --always --dirty 2>/dev/null) || _commit=unknown
	{
		echo "# Figures of \`$2\`"
		echo
		echo "Written by \`$2\` as it printed them; run it again rather than"
		echo "edit this file.  Measured $(date -u '+%Y-%m-%d %H:%M UTC'), commit $_commit, on"
		echo "$(nproc) cores ($(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)),"
		echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end."
		echo
		[ -z "${4:-}" ] || echo '```'
		cat "$3"
		[ -z "${4:-}" ] || echo '```'
	} > "$1.tmp" && mv "$1.tmp" "$1"
}
