/* enc-check.c: checks the plain-C layer of arch-hooks/ (arch.h,
 * <target>/bytes.c), the one description of each target's bytes, against
 * the target's assembler and against itself
 * (testsuite/pfe.runtime/encodings.exp).  A host tool: it reads objects of
 * any of the four targets.
 *
 *   enc-check table ARCH        every entry: name, bytes, spelling
 *   enc-check asm ARCH          an assembler file, one section .enc.K per
 *                               entry K ("SYM:" its spelling)
 *   enc-check verify ARCH OBJ   OBJ (that file assembled) holds each
 *                               entry's bytes; "ok NAME" or "MISMATCH ..."
 *   enc-check self ARCH         the decoders recognise every entry and the
 *                               patch sequences decode as the calls they are
 *   enc-check spellings ARCH    each line the plugin prints for an entry
 *                               (NOP, landing pads, fentry call and NOP
 *                               form, ops slot) as C text, "SYM" as %s
 *
 * Exit status 0 when everything agrees, 1 on a mismatch, 2 on bad usage or
 * a malformed object (the message names the file and the offset).
 * Debugging: compare `enc-check table ARCH` with `objdump -d` of the object.
 */
#include "../../arch-hooks/arch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every entry of A with a spelling, in a fixed order (K in .enc.K). */
static size_t entries_of(const struct pfe_arch *a, const struct pfe_enc_insn **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < a->n_nops && n < max; i++)
		out[n++] = &a->nops[i];
	for (size_t i = 0; i < a->n_pads && n < max; i++)
		out[n++] = &a->pads[i];
	const struct pfe_enc_insn *one[] = { a->fentry_call, a->fentry_nop, a->ops_slot, a->veneer };
	for (size_t i = 0; i < 4 && n < max; i++)
		out[n++] = one[i];
	return n;
}

/* The bytes an entry covers: the veneer's literal pool included. */
static size_t covered(const struct pfe_arch *a, const struct pfe_enc_insn *e)
{
	return e == a->veneer ? a->veneer_len : e->len;
}

static void print_hex(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("%s%02x", i ? " " : "", p[i]);
}

static int cmd_table(const struct pfe_arch *a)
{
	const struct pfe_enc_insn *e[64];
	size_t n = entries_of(a, e, 64);

	for (size_t k = 0; k < n; k++) {
		printf("%zu %s [", k, e[k]->name);
		print_hex(e[k]->bytes, e[k]->len);
		printf("] %s\n", e[k]->spelling);
	}
	return 0;
}

/* Print TEXT with "SYM" replaced by LABEL. */
static void put_spelling(const char *text, const char *label)
{
	for (const char *p = text; *p; p++) {
		if (strncmp(p, "SYM", 3) == 0) {
			fputs(label, stdout);
			p += 2;
		} else {
			putchar(*p);
		}
	}
	putchar('\n');
}

static int cmd_asm(const struct pfe_arch *a)
{
	const struct pfe_enc_insn *e[64];
	size_t n = entries_of(a, e, 64);
	bool riscv = a->id == PFE_ARCH_RISCV64;

	for (size_t k = 0; k < n; k++) {
		char label[32];

		snprintf(label, sizeof label, "pfe_enc_sym_%zu", k);
		printf("\t.section .enc.%zu,\"ax\"\n", k);
		if (riscv)
			printf("\t.option push\n");
		if (e[k]->prologue[0])
			printf("\t%s\n", e[k]->prologue);
		printf("%s:\n", label);
		put_spelling(e[k]->spelling, label);
		if (riscv)
			printf("\t.option pop\n");
	}
	return 0;
}

/* ---- a minimal ELF section reader (little-endian, 32 or 64 bits) ---- */

struct elf {
	const char *path;
	uint8_t *data;
	size_t size;
	bool is64;
	uint64_t shoff;
	unsigned shentsize, shnum, shstrndx;
};

static void die(const struct elf *f, const char *func, uint64_t off, const char *what)
{
	fprintf(stderr, "enc-check: %s: %s: offset 0x%llx: %s\n", f->path, func,
		(unsigned long long)off, what);
	exit(2);
}

static uint64_t field(const struct elf *f, uint64_t off, unsigned size)
{
	if (off + size > f->size || off + size < off)
		die(f, "field", off, "past the end of the file");
	return pfe_enc_load(f->data + off, size);
}

static void elf_open(struct elf *f, const char *path)
{
	FILE *fp = fopen(path, "rb");
	long len;

	f->path = path;
	if (!fp || fseek(fp, 0, SEEK_END) != 0 || (len = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) != 0) {
		fprintf(stderr, "enc-check: %s: cannot read\n", path);
		exit(2);
	}
	f->size = (size_t)len;
	f->data = malloc(f->size + 1);
	if (!f->data || fread(f->data, 1, f->size, fp) != f->size) {
		fprintf(stderr, "enc-check: %s: cannot read\n", path);
		exit(2);
	}
	fclose(fp);
	if (f->size < 52 || memcmp(f->data, "\177ELF", 4) != 0)
		die(f, "elf_open", 0, "not an ELF file");
	if (f->data[5] != 1)
		die(f, "elf_open", 5, "not little-endian");
	f->is64 = f->data[4] == 2;
	f->shoff = field(f, f->is64 ? 0x28 : 0x20, f->is64 ? 8 : 4);
	f->shentsize = (unsigned)field(f, f->is64 ? 0x3a : 0x2e, 2);
	f->shnum = (unsigned)field(f, f->is64 ? 0x3c : 0x30, 2);
	f->shstrndx = (unsigned)field(f, f->is64 ? 0x3e : 0x32, 2);
	if (f->shentsize < (f->is64 ? 64u : 40u) || f->shstrndx >= f->shnum)
		die(f, "elf_open", f->is64 ? 0x3a : 0x2e, "bad section header table");
}

/* Section I's name offset, file offset and size. */
static void section(const struct elf *f, unsigned i, uint64_t *name, uint64_t *off, uint64_t *size)
{
	uint64_t sh = f->shoff + (uint64_t)i * f->shentsize;

	*name = field(f, sh, 4);
	*off = field(f, sh + (f->is64 ? 0x18 : 0x10), f->is64 ? 8 : 4);
	*size = field(f, sh + (f->is64 ? 0x20 : 0x14), f->is64 ? 8 : 4);
	if (*off > f->size || *size > f->size - *off)
		die(f, "section", sh, "section contents past the end of the file");
}

/* The contents of section NAME, or NULL. */
static const uint8_t *find_section(const struct elf *f, const char *want, uint64_t *size)
{
	uint64_t strname, stroff, strsize;

	section(f, f->shstrndx, &strname, &stroff, &strsize);
	for (unsigned i = 1; i < f->shnum; i++) {
		uint64_t name, off;

		section(f, i, &name, &off, size);
		if (name >= strsize || !memchr(f->data + stroff + name, 0, strsize - name))
			die(f, "find_section", f->shoff + (uint64_t)i * f->shentsize, "bad section name");
		if (strcmp((const char *)f->data + stroff + name, want) == 0)
			return f->data + off;
	}
	return NULL;
}

static int cmd_verify(const struct pfe_arch *a, const char *path)
{
	const struct pfe_enc_insn *e[64];
	size_t n = entries_of(a, e, 64);
	struct elf f;
	int bad = 0;

	elf_open(&f, path);
	for (size_t k = 0; k < n; k++) {
		char name[32];
		uint64_t size;
		const uint8_t *got;
		uint8_t want[PFE_ENC_MAX_BYTES] = { 0 };
		size_t len = covered(a, e[k]);

		snprintf(name, sizeof name, ".enc.%zu", k);
		memcpy(want, e[k]->bytes, e[k]->len);
		got = find_section(&f, name, &size);
		if (!got) {
			printf("MISMATCH %s: no section %s\n", e[k]->name, name);
			bad = 1;
		} else if (size != len || memcmp(got, want, len) != 0) {
			printf("MISMATCH %s: %s gives [", e[k]->name, e[k]->spelling);
			print_hex(got, size);
			printf("], the table [");
			print_hex(want, len);
			printf("]\n");
			bad = 1;
		} else {
			printf("ok %s\n", e[k]->name);
		}
	}
	return bad;
}

/* ---- self-consistency ---- */

static int check(bool ok, const char *arch, const char *what)
{
	printf("%s %s: %s\n", ok ? "ok" : "MISMATCH", arch, what);
	return ok ? 0 : 1;
}

/* The patch sequence P, put at PC calling TARGET: enabled, it decodes as
 * a call of TARGET returning to PC + ret_off; disabled, it is NOPs; the
 * two differ only in the toggled instruction. */
static int check_patch(const struct pfe_arch *a, const struct pfe_enc_patch *p)
{
	uint8_t on[PFE_ENC_MAX_BYTES], off[PFE_ENC_MAX_BYTES];
	uint64_t pc = 0x10000, target = pc + 0x1230;
	struct pfe_enc_call call;
	size_t at = 0, len;
	int bad = 0;

	p->put(on, pc, target, true);
	p->put(off, pc, target, false);
	/* The call is the whole sequence (riscv auipc + jalr) or its toggled
	 * instruction (aarch64 bl after mov x9, x30). */
	if (!a->call(on, p->len, pc, &call))
		at = p->toggle_off;
	len = a->call(on + at, p->len - at, pc + at, &call);
	bad |= check(len > 0 && call.kind == PFE_CALL_DIRECT && call.target == target &&
		     at + len == p->ret_off, a->name, "enabled patch: a call of the target");
	if (p->toggle_off == 0)
		bad |= check(pfe_enc_nop_run(a, off, p->len) == p->len, a->name, "disabled patch: NOPs");
	else
		bad |= check(pfe_enc_nop_run(a, off + p->toggle_off, p->toggle_len) == p->toggle_len, a->name,
			     "disabled patch: the toggled instruction a NOP");
	bad |= check(memcmp(on, off, p->toggle_off) == 0 &&
		     memcmp(on + p->toggle_off + p->toggle_len, off + p->toggle_off + p->toggle_len,
			    p->len - p->toggle_off - p->toggle_len) == 0,
		     a->name, "enabled and disabled differ only in the toggled instruction");
	bad |= check(p->toggle_off % a->insn_align == 0 && (p->align == 1 || p->toggle_len == p->align),
		     a->name, "the toggled instruction is one aligned write");
	return bad;
}

static int cmd_self(const struct pfe_arch *a)
{
	int bad = 0;
	unsigned units;
	const char *pad;
	struct pfe_enc_call call;
	uint8_t ven[PFE_ENC_MAX_BYTES];

	for (size_t i = 0; i < a->n_nops; i++)
		bad |= check(a->nop(a->nops[i].bytes, a->nops[i].len, &units) == a->nops[i].len,
			     a->name, a->nops[i].name);
	for (size_t i = 0; i < a->n_pads; i++)
		bad |= check(a->landing_pad(a->pads[i].bytes, a->pads[i].len, &pad) == a->pads[i].len &&
			     a->nop(a->pads[i].bytes, a->pads[i].len, &units) == 0,
			     a->name, a->pads[i].name);
	bad |= check(pfe_enc_nop_run(a, a->fentry_nop->bytes, a->fentry_nop->len) == a->fentry_nop->len,
		     a->name, "fentry-nop is NOPs");
	/* The fentry call's last instruction calls SYM, the sequence's start. */
	size_t clen = a->fentry_call->len, at = a->call_lead;
	bad |= check(a->call(a->fentry_call->bytes + at, clen - at, at, &call) == clen - at &&
		     call.target == 0, a->name, "fentry-call calls SYM");
	bad |= check(a->fentry_nop->len == clen, a->name, "fentry-nop as long as the call");
	for (size_t i = 0; i < a->n_patches; i++)
		bad |= check_patch(a, &a->patches[i]);
	/* SYM and the veneer at 0, as the table gives it. */
	memset(ven, 0, sizeof ven);
	a->put_veneer(ven, 0, 0);
	bad |= check(a->veneer_len <= sizeof ven && memcmp(ven, a->veneer->bytes, a->veneer_len) == 0, a->name,
		     "put_veneer writes the veneer's instructions");
	bad |= check(a->record_size == (a->elf_class == PFE_ELFCLASS64 ? 8u : 4u), a->name,
		     "a record is a pointer");
	return bad;
}

/* Print LINE as the C string text the plugin prints it with: a tab
 * first, \t and \n escaped, SYM as %s. */
static void put_c_line(const char *name, const char *line, size_t len)
{
	printf("%s\t\\t", name);
	for (size_t i = 0; i < len; i++) {
		if (strncmp(line + i, "SYM", 3) == 0 && i + 3 <= len) {
			fputs("%s", stdout);
			i += 2;
		} else if (line[i] == '\t') {
			fputs("\\t", stdout);
		} else {
			putchar(line[i]);
		}
	}
	puts("\\n");
}

/* The spellings arch-hooks/<target>/gcc.c must print.  The ops slot holds SYM
 * or 0: its first operand is the plugin's %s. */
static int cmd_spellings(const struct pfe_arch *a)
{
	const struct pfe_enc_insn *e[16];
	size_t n = 0;
	char slot[64];

	e[n++] = &a->nops[0];
	for (size_t i = 0; i < a->n_pads; i++)
		e[n++] = &a->pads[i];
	e[n++] = a->fentry_call;
	e[n++] = a->fentry_nop;
	for (size_t k = 0; k < n; k++) {
		for (const char *p = e[k]->spelling; *p;) {
			size_t len = strcspn(p, "\n");

			put_c_line(e[k]->name, p, len);
			p += len + (p[len] == '\n');
		}
	}
	snprintf(slot, sizeof slot, "%s", a->ops_slot->spelling);
	char *zero = strchr(slot, '0');
	if (zero) {
		memmove(zero + 3, zero + 1, strlen(zero + 1) + 1);
		memcpy(zero, "SYM", 3);
	}
	put_c_line(a->ops_slot->name, slot, strlen(slot));
	return 0;
}

int main(int argc, char **argv)
{
	const struct pfe_arch *a = argc >= 3 ? pfe_arch_by_name(argv[2]) : NULL;

	if (!a) {
		fprintf(stderr, "usage: enc-check table|asm|self|spellings ARCH, enc-check verify ARCH OBJ\n"
			"  ARCH: x86_64 i386 aarch64 riscv64\n");
		return 2;
	}
	if (strcmp(argv[1], "table") == 0)
		return cmd_table(a);
	if (strcmp(argv[1], "asm") == 0)
		return cmd_asm(a);
	if (strcmp(argv[1], "self") == 0)
		return cmd_self(a);
	if (strcmp(argv[1], "spellings") == 0)
		return cmd_spellings(a);
	if (strcmp(argv[1], "verify") == 0 && argc == 4)
		return cmd_verify(a, argv[3]);
	fprintf(stderr, "enc-check: unknown command '%s'\n", argv[1]);
	return 2;
}
