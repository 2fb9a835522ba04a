/* pfe-scan-arch.c: how pfe-scan reads a target's table of the plain-C
 * layer (arch-hooks/arch.h, where every per-target fact is: bytes,
 * decoders, pushes, PLT entries, kCFI): an entry's NOPs with the table's
 * entry_nop, and a call with the fentry call's leading instructions
 * (aarch64's `mov x9, x30`) taken as part of it, in pfe-scan's struct
 * call.
 *
 * To debug a decoder, compare with `objdump -d --show-raw-insn` at the
 * address `pfe-scan list` reports, and
 * `testsuite/pfe.runtime/enc-check table ARCH` for the tables.
 */
#include "pfe-scan.h"

#include <string.h>

size_t arch_nop(const struct pfe_arch *a, const uint8_t *p, size_t avail, unsigned *units)
{
	return a->entry_nop(p, avail, units);
}

size_t arch_landing_pad(const struct pfe_arch *a, const uint8_t *p, size_t avail, const char **name)
{
	return a->landing_pad(p, avail, name);
}

/* The call at P: the table's decoder, from the fentry call's lead on,
 * since that is where the call-site record points.  Calls through memory
 * only where the table says an entry call may be one. */
size_t arch_call(const struct pfe_arch *a, const uint8_t *p, size_t avail, uint64_t pc,
		 struct call *out)
{
	size_t skip = 0, len;
	struct pfe_enc_call c;

	if (a->call_lead && avail >= a->call_lead && !memcmp(p, a->fentry_call->bytes, a->call_lead))
		skip = a->call_lead;
	len = a->call(p + skip, avail - skip, pc + skip, &c);
	if (!len && skip) {	/* the lead without its call: try from P itself */
		skip = 0;
		len = a->call(p, avail, pc, &c);
	}
	if (!len || (c.kind == PFE_CALL_INDIRECT_MEM && !a->calls_via_memory))
		return 0;
	*out = (struct call){ .reloc_off = skip + c.reloc_off };
	if (c.kind == PFE_CALL_INDIRECT_MEM) {
		out->via_slot = true;
		out->slot = c.target;
	} else {
		out->target = c.target;
	}
	return skip + len;
}
