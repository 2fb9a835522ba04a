# code.awk: objdump -dr output -> the code diff.exp compares, one record
# per function: NAME \037 LINES \037 REFS, records ended by \035, the
# LINES and REFS each joined by \036 (diff_code splits them; awk because a
# Tcl loop over every line of every object was pfe.diff's largest Tcl cost).
#
# Lines are normalised so that only code is compared: no addresses; where
# an operand names a symbol, the name stands for the target and the bytes
# (a displacement that moves when an earlier function changes size) are
# dropped, and where a relocation gives the target, the relocation does
# (objdump's guess from the unrelocated bytes means nothing); .LPFEn is
# .LPFE (GCC numbers them by function (13+) or by record (9-12), pfe by
# record); local labels riscv keeps in the symbol table (.L*) do not start
# a function; NOPs that end a function are the next one's pre-entry NOPs or
# alignment (the layouts compare those).  Relocations count as code and as
# references.  REFS: the symbols each function's operands and relocations
# name, in order.
#
# Debug: objdump -dr -z --insn-width=16 x.o | awk -f code.awk | tr '\035\036\037' '\n\n\t'
# POSIX awk (Debian's default mawk): no \s, no match() groups.

function flush(    i, out) {
	if (fn == "")
		return
	while (nlines > 0 && lines[nlines] ~ /\t((cs|ds|data16) )*(nop[wlq]?|xchg[[:space:]]+%ax,%ax)([^A-Za-z0-9_]|$)/)
		nlines--
	out = fn "\037"
	for (i = 1; i <= nlines; i++)
		out = out (i > 1 ? "\036" : "") lines[i]
	out = out "\037"
	for (i = 1; i <= nrefs; i++)
		out = out (i > 1 ? "\036" : "") refs[i]
	printf "%s\035", out
}

{ gsub(/\.LPFE[0-9]+/, ".LPFE") }

# A symbol: a function starts.
/^[0-9a-f]+ <[^>]+>:$/ {
	name = substr($0, index($0, "<") + 1)
	name = substr(name, 1, length(name) - 2)
	if (substr(name, 1, 2) == ".L")
		next
	flush()
	fn = name
	nlines = nrefs = 0
	next
}

fn == "" { next }

# A relocation: it names the previous instruction's target.
/^[[:space:]]+[0-9a-f]+: R_[^[:space:]]+[[:space:]]+[^[:space:]]+$/ {
	sub(/^[[:space:]]+[0-9a-f]+: /, "")
	split($0, f, /[[:space:]]+/)
	target = f[2]
	sub(/[-+]0x[0-9a-f]+$/, "", target)
	if (guessed)
		nrefs--
	guessed = 0
	sub(/<[^>]*>/, "<reloc>", lines[nlines])
	lines[++nlines] = "reloc " f[1] " " f[2]
	refs[++nrefs] = target
	next
}

# An instruction: its bytes, a tab, its text.
/^[[:space:]]*[0-9a-f]+:\t/ {
	rest = substr($0, index($0, ":\t") + 2)
	tab = index(rest, "\t")
	bytes = tab ? substr(rest, 1, tab - 1) : rest
	insn = tab ? substr(rest, tab + 1) : ""
	guessed = 0
	if (match(insn, /<[^>+]+[^>]*>/)) {
		target = substr(insn, RSTART + 1, RLENGTH - 2)
		sub(/\+.*/, "", target)
		sub(/[^[:space:]]+ </, "<", insn)
		bytes = ""
		refs[++nrefs] = target
		guessed = 1
	}
	gsub(/^[[:space:]]+|[[:space:]]+$/, "", bytes)
	lines[++nlines] = bytes "\t" insn
}

END { flush() }
