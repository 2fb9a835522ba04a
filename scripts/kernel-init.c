/* kernel-init.c: the whole userland of make check-kernel (scripts/check-kernel.sh):
 * /init of its initramfs, linked -static.  It makes /dev/console (the archive
 * holds no device node, so no root is needed to pack it), prints the marker
 * line the check looks for, and powers the machine off, which ends QEMU (or
 * restarts it when the kernel's command line ends "-- restart", which the
 * check gives x86: its tinyconfig has no ACPI to power off with, and QEMU
 * -no-reboot ends at the reset).
 * Anything else it prints is an error, and then it returns, which panics the
 * kernel ("Attempted to kill init"): the check fails on that too. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MARKER "pfe-kernel-init: userland reached, powering off\n"

int main(int argc, char **argv)
{
	int off = argc > 1 && !strcmp(argv[1], "restart") ? RB_AUTOBOOT : RB_POWER_OFF;
	int fd;

	if (mkdir("/dev", 0755) != 0 && errno != EEXIST)
		return 1;
	if (mknod("/dev/console", S_IFCHR | 0600, makedev(5, 1)) != 0 && errno != EEXIST)
		return 1;
	fd = open("/dev/console", O_RDWR);
	if (fd < 0)
		return 1;
	dup2(fd, 1);
	dup2(fd, 2);
	if (write(1, MARKER, strlen(MARKER)) != (ssize_t)strlen(MARKER))
		return 1;
	sync();
	reboot(off);
	fprintf(stderr, "pfe-kernel-init: reboot(%s): %s\n", off == RB_AUTOBOOT ? "RB_AUTOBOOT" : "RB_POWER_OFF", strerror(errno));
	return 1;
}
